"""The record store: SQLite by default, one file, every admission one transaction.

Why SQLite: a single file a person can copy, inspect and freeze; transactions so that a crash
between two admissions loses no admitted record; indexes for the few filters retrieval uses.
The journal is WAL with `synchronous=NORMAL`, which survives a crash of the process (the case
that matters for a long construct run); pass `durable=True` for `synchronous=FULL` if the store
must also survive a power cut, at the price of an fsync per admission.

Many processes may write one store file at once (issue 20): a study's jobs, a fleet of agents
on one machine. What holds under that, for any number of writers in any number of processes:

- Every read-modify-write is one `BEGIN IMMEDIATE` transaction (SQLite's one writer lock), and
  it starts by taking in what other writers committed. Admission and the evictions it causes are
  one transaction, so no scope ever holds more than the capacity and every eviction is logged;
  a counter update reads the current version and writes the next inside the lock, so no
  increment is lost.
- Admission is idempotent: a record whose id is live is not stored again (ids are content
  hashes, so it is the same correction) and `add` returns no evictions, without an error.
- Versions are checked: an update writes only over the version it read (`WHERE version = ?`),
  and `revise(..., expected_version=N)` fails with a `StoreError` when another writer changed
  the record since the caller read version N.
- A writer waits for the lock up to `busy_timeout` seconds (60 by default) instead of failing
  with "database is locked"; past that it is a `StoreError` that says so.
- The store has one capacity, retention rule and seed: opening it with different ones is refused
  while another writer has it open (each writer holds a shared `flock` on `<path>.lock`).

Every writer keeps the records in memory too (retrieval reads the whole store for every decision,
and parsing rows each time would cost more than the decision); `PRAGMA data_version` tells it
cheaply when another connection committed, and then only the rows whose version changed are
parsed again. Readers open it `read_only=True` and see the records as they were when they opened
it; a frozen snapshot (`freeze`) can only be opened that way.

Costs: an admission at capacity 200 is one INSERT, one row of the redundancy index and one pass
of the retention rule over the candidates; rules are stateless functions of the candidate list,
so an eviction is O(n) Python work and the store is meant for hundreds to a few thousand records.

A store object may be shared by threads: one connection, and every method holds the store's
lock while it reads or writes; SQLite's lock serialises writers across processes.

What is refused, so that no store can be destroyed or poisoned by opening it: a path that is a
folder, a file that is not SQLite, an SQLite database that is not a countermem store (tables of
its own and no countermem metadata; it is left byte for byte as it was, journal mode included),
and a frozen snapshot opened for writing. A refused open leaves no file behind that it created
(the store file, its journal files, its lock file). A stored record that no longer parses (a
condition nested deeper than `MAX_DEPTH`, a damaged body) does not make the store unreadable: it
is set aside (`quarantined`, by id, with the reason) and every other record stays usable.

Scopes (`countermem.memory._scope`): a store opened with `access=ScopeAccess(...)` shows and
writes only the records of the scopes that access may read, in every method; it adds only
records of its own scope. Capacity is per scope (issue 21): each scope holds at most `capacity`
live records, and an admission's retention rule chooses only among the records of the incoming
record's scope (`plan_evictions`), so one tenant's admissions never evict another's records and
every eviction an admission causes is one its caller may see. A store holding only the default
scope behaves as before scopes existed. Without an access a store object is the owner's view of
every scope.

Nothing is silently rewritten: a change to a record stores a new version and moves the previous
one into `record_history`; an eviction moves the record into `evictions` with the rule, the
reason and the scores the rule decided on.

A retired record (`retire`, by re-verification, or by use: `RetireByUse` applied in
`update_counters`) stays in `records` as a new version with `status = "retired"` and its reason.
`all`, `search` and `len` are the live records only, so nothing that offers records sees it,
and it does not count against the capacity; `get`, `history` and `retired()` still return it.
Its id is not admitted again: the same correction found again is reported as already stored.

What this store shares with the Postgres one (every read path, the settings, the quarantine, the
records held in memory) is `countermem.memory._store_base.StoreBase`; this module is SQLite's rows,
locks, files and write transactions.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import sqlite3
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import IO, Any, ClassVar, Protocol, runtime_checkable

from pydantic import ValidationError

from countermem.core import StoreError, sha256_file
from countermem.memory._merge import MergeGroup, merge_groups, merge_key, merged_record
from countermem.memory._record import Record, utc_now
from countermem.memory._retention import (
    RetentionRule,
    ScopedRedundancyIndex,
    plan_evictions,
)
from countermem.memory._retire_by_use import RetireByUse
from countermem.memory._scope import ScopeAccess
from countermem.memory._store_base import CountIncrements, StoreBase, locked, raw_scope
from countermem.memory._store_models import EvictionEvent, FrozenSnapshot, MergeOutcome, StoreStats
from countermem.memory._store_rows import NOT_COPIED_META, StoreRows, body_fields

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 1
MEMORY = ":memory:"
DEFAULT_BUSY_TIMEOUT_S = 60.0
"""How long a writer waits for another process's transaction before giving up."""
_SHARED_LOCK_WAIT_S = 2.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    domain TEXT NOT NULL,
    benchmark TEXT NOT NULL,
    created_at TEXT NOT NULL,
    version INTEGER NOT NULL,
    utility_gain REAL NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS records_by_domain ON records (domain, benchmark);
CREATE INDEX IF NOT EXISTS records_by_benchmark ON records (benchmark);
CREATE TABLE IF NOT EXISTS record_history (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL,
    version INTEGER NOT NULL,
    replaced_at TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS record_history_by_id ON record_history (id, version);
CREATE TABLE IF NOT EXISTS evictions (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    record_id TEXT NOT NULL,
    rule TEXT NOT NULL,
    reason TEXT NOT NULL,
    scores TEXT NOT NULL,
    at TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS evictions_by_reason ON evictions (reason);
"""


@runtime_checkable
class Store(Protocol):
    """What memory code needs from a store, so that other backends could exist."""

    @property
    def capacity(self) -> int:
        """The most live records each scope holds; an admission evicts only within its own scope."""
        ...

    def add(self, record: Record) -> list[EvictionEvent]: ...

    def get(self, record_id: str) -> Record: ...

    def all(self) -> list[Record]: ...

    def search(
        self, *, domain: str | None = None, benchmark: str | None = None, limit: int | None = None
    ) -> list[Record]: ...

    def update_counters(
        self,
        record_id: str,
        *,
        retrieved: int = 0,
        selected: int = 0,
        succeeded: int = 0,
        harmed: int = 0,
        at: datetime | None = None,
    ) -> Record: ...

    def evict(self, record_id: str, reason: str) -> EvictionEvent: ...

    def freeze(self, path: str | Path) -> FrozenSnapshot: ...

    def export_jsonl(self, path: str | Path) -> int: ...

    def stats(self) -> StoreStats: ...


file_sha256 = sha256_file


class SQLiteStore(StoreBase):
    """A store in one SQLite file (or `:memory:` for tests).

    `capacity` (live records per scope), `retention` and `seed` default to what the file recorded
    when it was created (200, `utility`, 0); passing them changes what the file records. The random rule draws from
    `random.Random(f"{seed}:{n}")` for the n-th eviction, so a reopened store draws the same.
    `retire_by_use` is this object's policy for counter updates (not recorded in the file; None
    retires nothing by use).
    """

    _PARAM: ClassVar[str] = "?"
    _TEXT: ClassVar[str] = ""
    _EVICTED_VERSION: ClassVar[str] = "json_extract(body, '$.version')"
    _SCOPED_COPY: ClassVar[str] = (
        "a copy holds every scope of {path}, and this store was opened for {scopes}; copy it opened without a scope"
    )

    def __init__(
        self,
        path: str | Path = MEMORY,
        *,
        capacity: int | None = None,
        retention: str | RetentionRule | None = None,
        seed: int | None = None,
        read_only: bool = False,
        durable: bool = False,
        busy_timeout: float = DEFAULT_BUSY_TIMEOUT_S,
        retire_by_use: RetireByUse | None = RetireByUse(),  # noqa: B008 - frozen, shared safely
        access: ScopeAccess | None = None,
    ) -> None:
        super().__init__(str(path), read_only=read_only, access=access)
        self.busy_timeout = busy_timeout
        self.retire_by_use = retire_by_use
        self._lock: IO[bytes] | None = None
        self._created: list[Path] = []
        self._records: dict[str, Record] = {}
        """Live records, in admission order."""
        self._retired: dict[str, Record] = {}
        try:
            self._conn = self._connect(durable)
            self._data_version = self._read_data_version()
            self._setup(capacity, retention, seed)
            self._load()
            self._eviction_count = int(self._conn.execute("SELECT COUNT(*) FROM evictions").fetchone()[0])
        except sqlite3.OperationalError as error:
            self._abandon()
            if "locked" in str(error) or "busy" in str(error):
                raise StoreError(
                    f"another writer held the memory store {self.path} for longer than "
                    f"{self.busy_timeout:g} s while it was opened ({error}); retry, or give a longer "
                    "busy_timeout"
                ) from error
            raise StoreError(
                f"{self.path} is not a complete memory store ({error}); give a store written by "
                "`countermem construct`, or build a new one"
            ) from error
        except sqlite3.Error as error:  # e.g. a file with countermem metadata but no records table
            self._abandon()
            raise StoreError(
                f"{self.path} is not a complete memory store ({error}); give a store written by "
                "`countermem construct`, or build a new one"
            ) from error
        except BaseException:
            self._abandon()
            raise
        self._created = []

    # --- opening -------------------------------------------------------------------------------

    @property
    def in_memory(self) -> bool:
        return self.path == MEMORY

    def _connect(self, durable: bool) -> sqlite3.Connection:
        if self.in_memory:
            if self.read_only:
                raise StoreError("an in-memory store cannot be opened read-only; give a file path")
            return sqlite3.connect(MEMORY, isolation_level=None, check_same_thread=False)
        if self.busy_timeout <= 0:
            raise StoreError(f"busy_timeout must be a positive number of seconds, got {self.busy_timeout}")
        file = Path(self.path)
        if file.is_dir():
            raise StoreError(f"{file} is a folder, not a memory store; give the path of a store file")
        if self.read_only:
            if not file.is_file():
                raise StoreError(f"no memory store at {file}; check the path or build one with `construct`")
            conn = _connect_read_only(file)
            try:
                _refuse_foreign(conn, file)
            except BaseException:
                conn.close()
                raise
            return conn
        if not file.parent.is_dir():
            raise StoreError(f"cannot create a memory store at {file}: folder {file.parent} does not exist")
        if file.exists() and file.stat().st_size > 0:
            probe = _connect_read_only(file)
            try:
                _refuse_foreign(probe, file)
                frozen = _read_meta(probe, "frozen")
            except sqlite3.DatabaseError as error:
                raise StoreError(f"{file} is not a memory store ({error})") from error
            finally:
                probe.close()
            if frozen == "1":
                raise StoreError(
                    f"{file} is a frozen snapshot and cannot be opened for writing; open it with "
                    "read_only=True, or freeze a writable store to a new path"
                )
        elif not file.exists():
            self._created += [file, *(Path(f"{file}{suffix}") for suffix in ("-wal", "-shm", "-journal"))]
        self._take_lock(file)
        try:
            conn = sqlite3.connect(
                file, isolation_level=None, check_same_thread=False, timeout=self.busy_timeout
            )
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{file} is not a memory store ({error})") from error
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        return conn

    def _take_lock(self, file: Path) -> None:
        lock_path = Path(f"{file}.lock")
        if not lock_path.exists():
            self._created.append(lock_path)
        handle = open(lock_path, "ab")  # noqa: SIM115 - held for the store's lifetime
        try:
            self._alone = _try_flock(handle, fcntl.LOCK_EX)
            if self._alone:  # only to learn whether another writer is open; shared from here on
                fcntl.flock(handle.fileno(), fcntl.LOCK_SH)
            else:
                deadline = time.monotonic() + _SHARED_LOCK_WAIT_S
                while not _try_flock(handle, fcntl.LOCK_SH):
                    if time.monotonic() > deadline:
                        raise StoreError(
                            f"{file} is held alone by a writer that admits no other (a countermem "
                            "older than issue 20); close that one first or open this one with "
                            "read_only=True"
                        )
                    time.sleep(0.02)
        except BaseException:
            handle.close()
            raise
        self._lock = handle

    def _setup(self, capacity: int | None, retention: str | RetentionRule | None, seed: int | None) -> None:
        if self.read_only:
            self._settle(capacity, retention, seed, write=False)
            return
        self._conn.execute("BEGIN")  # an open that changes nothing does not wait for other writers
        try:
            tables = {str(row[0]) for row in self._conn.execute("SELECT name FROM sqlite_master")}
            ready = _OWN_TABLES - {"sqlite_sequence"} <= tables and not self._settle(
                capacity, retention, seed, write=False
            )
        finally:
            self._conn.execute("COMMIT")
        if ready:
            return
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self._conn.execute(statement)
            if _read_meta(self._conn, "schema_version") is None:
                _write_meta(self._conn, "schema_version", str(SCHEMA_VERSION))
            self._settle(capacity, retention, seed, write=True)
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    def _settle(
        self, capacity: int | None, retention: str | RetentionRule | None, seed: int | None, *, write: bool
    ) -> list[str]:
        """Read the settings, refuse a change while other writers are open; the keys that need writing."""
        conn = self._conn
        version = _read_meta(conn, "schema_version")
        if version is None:
            if not write and not self.read_only:
                return ["schema_version"]
            raise StoreError(f"{self.path} is not a memory store (no countermem metadata)")
        if version != str(SCHEMA_VERSION):
            raise StoreError(
                f"{self.path} has store schema {version}, this countermem reads schema {SCHEMA_VERSION}; "
                "export it with the countermem that wrote it"
            )
        stored = self._meta()
        self.frozen = stored.get("frozen") == "1"
        return self._settle_settings(stored, capacity, retention, seed, write=write)

    def _write_meta(self, key: str, value: str) -> None:
        _write_meta(self._conn, key, value)

    def _load(self) -> None:
        records: list[Record] = []
        rows = self._conn.execute("SELECT id, version, body FROM records ORDER BY seq").fetchall()
        for record_id, version, body in rows:
            self._versions[str(record_id)] = int(version)
            record = self._parse_row(str(record_id), body)
            if record is not None:
                records.append(record)
        self._split(records)

    def _split(self, records: list[Record]) -> None:
        self._records = {r.id: r for r in records if r.live}
        self._retired = {r.id: r for r in records if not r.live}

    def _read_data_version(self) -> int:
        return int(self._conn.execute("PRAGMA data_version").fetchone()[0])

    def _sync(self) -> None:
        """Take in what other writers committed since this object last looked.

        One `PRAGMA data_version` when nothing changed; otherwise the ids and versions of all rows
        (cheap) and a parse of only the rows that are new or changed. Outside a transaction it reads
        one snapshot, so it never sees half of another writer's admission.
        """
        if self.read_only or self.in_memory:
            return
        seen = self._read_data_version()
        if seen == self._data_version:
            return
        opened = not self._conn.in_transaction
        if opened:
            self._conn.execute("BEGIN")
        try:
            self._take_in_changes()
        finally:
            if opened:
                self._conn.execute("COMMIT")
        self._data_version = seen

    def _take_in_changes(self) -> None:
        conn = self._conn

        def bodies(ids: list[str]) -> Iterable[tuple[str, str]]:
            for record_id in ids:
                yield record_id, conn.execute("SELECT body FROM records WHERE id = ?", (record_id,)).fetchone()[0]

        self._split([record for _, record in self._take_in(bodies, self._stored)])
        self._capacity = int(_read_meta(conn, "capacity") or self._capacity)
        self._eviction_count = int(conn.execute("SELECT COUNT(*) FROM evictions").fetchone()[0])

    # --- scopes --------------------------------------------------------------------------------

    def _visible(self) -> list[Record]:
        records = self._records.values()
        return list(records) if self.access is None else self.access.visible(records)

    def _visible_retired(self) -> list[Record]:
        records = self._retired.values()
        return list(records) if self.access is None else self.access.visible(records)

    def _live(self) -> list[Record]:
        self._sync()
        return self._visible()

    def _retired_records(self) -> list[Record]:
        self._sync()
        return self._visible_retired()

    def _find(self, record_id: str) -> Record | None:
        self._sync()
        return self._stored(record_id)

    def _rows(self, query: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self._conn.execute(query, tuple(params)).fetchall()

    @contextlib.contextmanager
    def _snapshot(self) -> Iterator[None]:
        self._sync()
        yield

    def _visible_evictions(
        self, columns: str, where: str = "", params: Sequence[Any] = (), *, newest_first: bool = False
    ) -> list[tuple[Any, ...]]:
        """Filtered here by the scope each logged body names (the body is read as the last column)."""
        query = f"SELECT {columns}, body FROM evictions{f' WHERE {where}' if where else ''} ORDER BY seq"
        rows = self._rows(query + (" DESC" if newest_first else ""), params)
        return [row[:-1] for row in rows if self.access is None or self._may_read_scope(raw_scope(row[-1]))]

    def _evictions_by_reason(self) -> dict[str, int]:
        return dict(sorted(Counter(str(row[0]) for row in self._visible_evictions("reason")).items()))

    # --- lifecycle -----------------------------------------------------------------------------

    def close(self) -> None:
        with self._mutex:
            conn = getattr(self, "_conn", None)
            if conn is not None:
                conn.close()
                self._conn = None  # type: ignore[assignment]
            if self._lock is not None:
                self._lock.close()
                self._lock = None

    def _abandon(self) -> None:
        """Close after a refused open and remove every file this open created."""
        self.close()
        for path in self._created:
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)
        self._created = []

    @property
    def closed(self) -> bool:
        return getattr(self, "_conn", None) is None

    @locked
    def __contains__(self, record_id: object) -> bool:
        """Whether the record is stored, live or retired."""
        self._sync()
        return self._stored(record_id) is not None

    def _stored(self, record_id: object) -> Record | None:
        """The record, live or retired, if this object may read it."""
        if not isinstance(record_id, str):
            return None
        record = self._records.get(record_id)
        if record is None:
            record = self._retired.get(record_id)
        if record is None or (self.access is not None and not self.access.can_read(record)):
            return None
        return record

    # --- writing -------------------------------------------------------------------------------

    @locked
    def add(self, record: Record) -> list[EvictionEvent]:
        """Admit `record`, then evict by the retention rule while its scope is over capacity.

        Only records of `record`'s scope are candidates (`plan_evictions`): an admission never
        evicts another scope's record. The incoming record is a candidate like any other, so it
        may be the one evicted (it is then logged like any eviction). All of it happens in one transaction. A record whose id is
        live already (the same correction, perhaps admitted by another process a moment ago) is
        not stored again: the stored version stays as it is and no eviction happens.
        """
        self._require_writable()
        self._require_record(record)
        self._refuse_foreign_scope(record)
        events: list[EvictionEvent] = []
        try:
            with self._transaction():
                if record.id in self._quarantined:
                    raise StoreError(
                        f"record {record.id} is already stored, but quarantined (it does not parse: "
                        f"{self._quarantined[record.id]}); it cannot be replaced in this "
                        "store, so add the record to a new one"
                    )
                if record.id in self._records or record.id in self._retired:
                    return []
                index = self._redundancy_index()
                if index is not None:
                    index.add(record)
                self._insert(record)
                planned = plan_evictions(
                    self._rule,
                    list(self._records.values()),
                    record,
                    self._capacity,
                    seed=self._seed,
                    evicted_before=self._eviction_count,
                    index=index,
                )
                for victim, (_, reason, scores) in planned:
                    events.append(self._log_eviction(victim, self._rule.name, reason, scores))
        except BaseException:
            self._index = None
            raise
        self._records[record.id] = record
        self._versions[record.id] = record.version
        for event in events:
            del self._records[event.record_id]
            del self._versions[event.record_id]
        self._eviction_count += len(events)
        return events

    @locked
    def add_or_merge(self, record: Record) -> MergeOutcome:
        """Admit `record`, or merge it with the equivalent records of its scope (`countermem.memory._merge`).

        One transaction: when the store holds records with the same scope, condition and
        normalised edit, the best-verified of them and `record` is kept (counters summed, sources
        listed) and the others go to the eviction log with rule `merge`; otherwise this is `add`.
        """
        self._require_writable()
        self._require_record(record)
        key = merge_key(record)
        self._sync()
        if key is None or record.id in self._records:
            return MergeOutcome(evictions=self.add(record))
        with self._transaction():
            self._refuse_foreign_scope(record)
            equivalent = [r for r in self._visible() if merge_key(r) == key]
            if not equivalent:
                group = None
            else:
                group = merge_groups([*equivalent, record])[0]
                new = merged_record(group)
                stored = {r.id for r in equivalent}
                if group.kept.id in stored:
                    self._write_version(group.kept, new)
                else:
                    self._insert(new)
                events = [self._log_eviction(r, "merge", f"merged into {new.id}", {}) for r in group.merged]
        if group is None:
            return MergeOutcome(evictions=self.add(record))
        self._take_merge(group, new)
        return MergeOutcome.of_merge(record, group, new, events)

    @locked
    def merge(self, *, dry_run: bool = False) -> list[MergeGroup]:
        """Merge every group of equivalent records this object may read, all in one transaction.

        Returns the groups, each with its kept record's new version (the plan, unchanged, with
        `dry_run`). Records of different scopes are never in one group.
        """
        if dry_run:
            self._sync()
            return merge_groups(r for r in self._visible() if self.access is None or r.scope == self.access.own)
        self._require_writable()
        done: list[tuple[MergeGroup, Record]] = []
        with self._transaction():
            own = [r for r in self._visible() if self.access is None or r.scope == self.access.own]
            for group in merge_groups(own):  # a reader never rewrites the scopes only shared with it
                new = merged_record(group)
                self._write_version(group.kept, new)
                for other in group.merged:
                    self._log_eviction(other, "merge", f"merged into {new.id}", {})
                done.append((group, new))
        for group, new in done:
            self._take_merge(group, new)
        return [MergeGroup(new, group.merged) for group, new in done]

    def _take_merge(self, group: MergeGroup, new: Record) -> None:
        """Bring the in-memory records in line with a committed merge."""
        for other in group.merged:
            if other.id in self._records:
                del self._records[other.id]
                del self._versions[other.id]
                if self._index is not None and other.id in self._index:
                    self._index.remove(other.id)
            self._eviction_count += 1
        if group.kept.id in self._records:
            self._replaced(group.kept, new)
        else:
            self._records[new.id] = new
            self._versions[new.id] = new.version
            if self._index is not None:
                self._index.add(new)

    def _evict(self, record_id: str, reason: str) -> EvictionEvent:
        with self._transaction():
            record = self.get(record_id)
            event = self._log_eviction(record, "manual", reason, {})
        self._records.pop(record_id, None)
        self._retired.pop(record_id, None)
        del self._versions[record_id]
        self._eviction_count += 1
        if self._index is not None:
            self._index.remove(record_id)
        return event

    def _add_counts(self, record_id: str, counts: CountIncrements) -> Record:
        """The increments apply to the version current when the write lock is held."""
        with self._transaction():
            old = self.get(record_id)
            try:
                new = old.with_counts(**counts._asdict())
            except (ValueError, ValidationError) as error:
                raise StoreError(f"cannot update counters of {record_id}: {error}") from error
            why = None if self.retire_by_use is None or not new.live else self.retire_by_use.reason(new.counters)
            if why is not None:
                new = new.marked_retired(why, counts.at)
                logger.info("record %s in %s is retired: %s", record_id, self.path, why)
            self._write_version(old, new)
        return self._replaced(old, new)

    def _retire(self, record_id: str, reason: str, expected_version: int | None) -> Record:
        with self._transaction():
            old = self.get(record_id)
            if not old.live:
                raise StoreError(f"record {record_id} is already retired ({old.retired_reason})")
            if expected_version is not None and old.version != expected_version:
                raise self._stale(record_id, expected_version, old.version)
            new = old.marked_retired(reason).model_copy(update={"version": old.version + 1})
            self._write_version(old, new)
        return self._replaced(old, new)

    @locked
    def revise(self, record_id: str, *, expected_version: int | None = None, **changes: Any) -> Record:
        """Change a record's fields (e.g. its condition); stores a new version and keeps the old one.

        With `expected_version` (the version the caller read), the change is refused when another
        writer stored a newer version meanwhile, so a revision never overwrites one it did not see.
        """
        self._require_writable()
        with self._transaction():
            old = self.get(record_id)
            if expected_version is not None and old.version != expected_version:
                raise self._stale(record_id, expected_version, old.version)
            new = self._revised(record_id, old, changes)
            self._write_version(old, new)
        return self._replaced(old, new)

    @locked
    def freeze(self, path: str | Path) -> FrozenSnapshot:
        """Write a read-only snapshot (a copy with the `frozen` flag, journal off, file mode 0444)."""
        if self.access is not None:
            raise StoreError(
                f"a snapshot copies every scope of {self.path}, and this store was opened for "
                f"{self.access.describe()}; freeze it opened without a scope, or export the scope's records"
            )
        target = self._freeze_target(path)
        self._sync()
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)
        dest = sqlite3.connect(partial, isolation_level=None)
        try:
            self._conn.backup(dest)
            dest.execute("PRAGMA journal_mode=DELETE")
            _write_meta(dest, "frozen", "1")
            _write_meta(dest, "frozen_at", utc_now().isoformat())
            _write_meta(dest, "frozen_from", self.path)
            dest.execute("VACUUM")
        finally:
            dest.close()
        os.chmod(partial, 0o444)
        os.replace(partial, target)
        return FrozenSnapshot(path=target, sha256=file_sha256(target), records=len(self._records))

    def _is_own_file(self, target: Path) -> bool:
        if self.in_memory or not target.exists():
            return False
        own = [Path(self.path), *(Path(f"{self.path}{s}") for s in ("-wal", "-shm", "-journal", ".lock"))]
        for path in own:
            with contextlib.suppress(OSError):
                if path.exists() and os.path.samefile(path, target):
                    return True
        return False

    # --- internals -----------------------------------------------------------------------------

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """SQLite's write lock, held from the first read to the commit, with other writers' changes taken in."""
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._sync()
                yield
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) and "busy" not in str(error):
                raise StoreError(f"writing to the memory store {self.path} failed: {error}") from error
            raise StoreError(
                f"another writer held the memory store {self.path} for longer than {self.busy_timeout:g} s "
                f"({error}); retry, or open the store with a longer busy_timeout"
            ) from error
        except sqlite3.Error as error:
            raise StoreError(f"writing to the memory store {self.path} failed: {error}") from error

    def _redundancy_index(self) -> ScopedRedundancyIndex | None:
        if not self._rule.needs_redundancy:
            return None
        if self._index is None:
            self._index = ScopedRedundancyIndex(self._records.values())
        return self._index

    def _insert(self, record: Record) -> None:
        self._conn.execute(
            "INSERT INTO records (id, domain, benchmark, created_at, version, utility_gain, body) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                record.id,
                record.domain,
                record.benchmark,
                record.created_at.isoformat(),
                record.version,
                record.utility_gain,
                record.model_dump_json(),
            ),
        )

    def _log_eviction(
        self, record: Record, rule: str, reason: str, scores: dict[str, float]
    ) -> EvictionEvent:
        event = EvictionEvent(
            record_id=record.id, rule=rule, reason=reason, scores=scores, at=utc_now(), version=record.version
        )
        self._conn.execute("DELETE FROM records WHERE id = ?", (record.id,))
        self._conn.execute(
            "INSERT INTO evictions (record_id, rule, reason, scores, at, body) VALUES (?, ?, ?, ?, ?, ?)",
            (record.id, rule, reason, json.dumps(scores), event.at.isoformat(), record.model_dump_json()),
        )
        return event

    def _write_version(self, old: Record, new: Record) -> None:
        """Store `new` over exactly `old`'s version (optimistic: a row at another version is not touched)."""
        self._conn.execute(
            "INSERT INTO record_history (id, version, replaced_at, body) VALUES (?, ?, ?, ?)",
            (old.id, old.version, utc_now().isoformat(), old.model_dump_json()),
        )
        changed = self._conn.execute(
            "UPDATE records SET version = ?, utility_gain = ?, body = ? WHERE id = ? AND version = ?",
            (new.version, new.utility_gain, new.model_dump_json(), old.id, old.version),
        ).rowcount
        if changed != 1:
            raise StoreError(
                f"record {old.id} version {old.version} changed underneath this store; read it again "
                "and redo the change"
            )

    def _replaced(self, old: Record, new: Record) -> Record:
        self._versions[new.id] = new.version
        if new.live:
            self._records[new.id] = new
        else:
            self._records.pop(new.id, None)
            self._retired[new.id] = new
        self._reindex(old, new)
        return new

    # --- copies between backends ---------------------------------------------------------------

    @locked
    def load_rows(self, rows: StoreRows) -> None:
        """Fill this empty store with `rows` (settings included); refused when it holds anything."""
        self._require_writable()
        self._refuse_scoped_copy()
        with self._transaction():
            held = self._conn.execute(
                "SELECT (SELECT COUNT(*) FROM records) + (SELECT COUNT(*) FROM record_history) "
                "+ (SELECT COUNT(*) FROM evictions)"
            ).fetchone()[0]
            if held:
                raise StoreError(f"{self.path} is not empty; copy into a new store file")
            self._conn.executemany(
                "INSERT INTO records (id, domain, benchmark, created_at, version, utility_gain, body) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (row.id, f["domain"], f["benchmark"], f["created_at"], f["version"], f["utility_gain"], row.body)
                    for row in rows.records
                    for f in (body_fields(row.body),)
                ],
            )
            self._conn.executemany(
                "INSERT INTO record_history (id, version, replaced_at, body) VALUES (?, ?, ?, ?)",
                [(h.id, h.version, h.replaced_at, h.body) for h in rows.history],
            )
            self._conn.executemany(
                "INSERT INTO evictions (record_id, rule, reason, scores, at, body) VALUES (?, ?, ?, ?, ?, ?)",
                [(e.record_id, e.rule, e.reason, e.scores, e.at, e.body) for e in rows.evictions],
            )
            for key, value in rows.meta.items():
                if key not in NOT_COPIED_META:
                    _write_meta(self._conn, key, value)
        self._quarantined = {}
        self._versions = {}
        self._index = None
        self._capacity = int(_read_meta(self._conn, "capacity") or self._capacity)
        self._rule = self._resolve_rule(None, self._meta())
        self._seed = int(_read_meta(self._conn, "seed") or self._seed)
        self._quarantined_scope = {}
        self._load()
        self._eviction_count = len(rows.evictions)
        self._data_version = self._read_data_version()


def _try_flock(handle: IO[bytes], kind: int) -> bool:
    try:
        fcntl.flock(handle.fileno(), kind | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _read_meta(conn: sqlite3.Connection, key: str) -> str | None:
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    except sqlite3.OperationalError as error:
        if "no such table" in str(error):
            return None
        raise
    return None if row is None else str(row[0])


def _write_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = ?",
        (key, value, value),
    )


def _connect_read_only(file: Path) -> sqlite3.Connection:
    try:
        conn = sqlite3.connect(
            file.resolve().as_uri() + "?mode=ro", uri=True, isolation_level=None, check_same_thread=False
        )
    except sqlite3.DatabaseError as error:
        raise StoreError(f"{file} is not a readable memory store ({error})") from error
    try:
        conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
    except sqlite3.DatabaseError as error:
        conn.close()
        raise StoreError(f"{file} is not a readable memory store ({error})") from error
    return conn


_OWN_TABLES = frozenset({"meta", "records", "record_history", "evictions", "sqlite_sequence"})


def _refuse_foreign(conn: sqlite3.Connection, file: Path) -> None:
    """Refuse an SQLite database with tables of its own and no countermem metadata.

    Opening it writable would add countermem's tables to someone else's database and switch it to
    WAL, so it is checked through a read-only connection before anything is written.
    """
    try:
        tables = {str(row[0]) for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        version = _read_meta(conn, "schema_version") if "meta" in tables else None
    except sqlite3.DatabaseError as error:
        raise StoreError(f"{file} is not a memory store ({error})") from error
    if tables and version is None:
        foreign = sorted(tables - _OWN_TABLES) or sorted(tables)
        shown = ", ".join(foreign[:5]) + (", ..." if len(foreign) > 5 else "")
        raise StoreError(
            f"{file} is not a memory store: an SQLite database with tables of its own ({shown}) and no "
            "countermem metadata; it was not changed. Give the path of a store, or a new file"
        )


def records_from_jsonl(source: str | Path, scope: str | None = None) -> Iterator[Record]:
    """The records of a JSONL export (`export_jsonl`), re-validated, as new records to admit.

    Reuse counters start at 0 and the version at 1 (counts are evidence of the store that made
    them, so a file cannot make a record look proven); with `scope` each gets that scope, and so
    a new id. A line that is not a record is a `StoreError` naming the line.
    """
    source = Path(source)
    if not source.is_file():
        raise StoreError(f"no file {source}; give a JSONL file written by `countermem memory export`")
    with source.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                data = Record.model_validate_json(line).model_dump()
                for key in ("id", "version", "counters"):
                    del data[key]
                if scope is not None:
                    data["scope"] = scope
                yield Record.model_validate(data)
            except ValueError as error:
                why = " ".join(str(error).split())[:300]
                raise StoreError(f"{source} line {number} is not a record ({why}); nothing was imported") from None


def open_store(path: str | Path, *, read_only: bool = False, **options: Any) -> SQLiteStore:
    """Open (or, when writable, create) the store at `path`."""
    return SQLiteStore(path, read_only=read_only, **options)
