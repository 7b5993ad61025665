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
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import json
import logging
import os
import sqlite3
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Protocol, TypeVar, cast, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from countermem.core import CountermemError, StoreError, clip_middle, sha256_file
from countermem.memory._merge import MergeGroup, merge_groups, merge_key, merged_record
from countermem.memory._record import Record, utc_now
from countermem.memory._retention import (
    RetentionRule,
    ScopedRedundancyIndex,
    UtilityRetention,
    UtilityWeights,
    make_retention,
    plan_evictions,
)
from countermem.memory._retire_by_use import RetireByUse
from countermem.memory._scope import DEFAULT_SCOPE, ScopeAccess
from countermem.memory._store_rows import (
    NOT_COPIED_META,
    EvictionRow,
    HistoryRow,
    RecordRow,
    StoreRows,
    body_fields,
)

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 1
DEFAULT_CAPACITY = 200
MEMORY = ":memory:"
DEFAULT_BUSY_TIMEOUT_S = 60.0
"""How long a writer waits for another process's transaction before giving up."""
_SHARED_LOCK_WAIT_S = 2.0
_SETTINGS = ("capacity", "retention", "retention_weights", "seed")

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


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class EvictionEvent(_Frozen):
    """One eviction: `rule` is the retention rule (or `manual`), `reason` the category stats group by."""

    record_id: str
    rule: str
    reason: str
    scores: dict[str, float] = Field(default_factory=dict)
    at: datetime
    version: int


class ReuseTotals(_Frozen):
    retrieved: int = 0
    selected: int = 0
    succeeded: int = 0
    harmed: int = 0


class StoreStats(_Frozen):
    path: str
    count: int
    capacity: int
    """The most live records each scope holds (`by_scope` counts them against it)."""
    retention: str
    frozen: bool
    by_domain: dict[str, int]
    by_benchmark: dict[str, int]
    mean_gain: float | None
    universal_conditions: int
    evictions_by_reason: dict[str, int]
    reuse: ReuseTotals
    quarantined: dict[str, str] = Field(default_factory=dict)
    """Records set aside because they no longer parse: id -> why (they are not in `count`)."""
    redactions: dict[str, int] = Field(default_factory=dict)
    """Secrets replaced by placeholders in the stored records, by kind (`Record.redactions`)."""
    retired: int = 0
    """Records kept but never offered (not in `count`, not against the capacity)."""
    by_scope: dict[str, int] = Field(default_factory=dict)
    """Records by scope (only the scopes the store object may read)."""


class MergeOutcome(_Frozen):
    """What `add_or_merge` did: `merged_into` names the stored record that now holds the new one's
    content (None when the new record was stored under its own id); `merged` are stored records it
    absorbed; `evictions` are the retention rule's (or the merges of stored records)."""

    evictions: list[EvictionEvent] = Field(default_factory=list)
    merged_into: str | None = None
    merged: list[str] = Field(default_factory=list)


class FrozenSnapshot(_Frozen):
    """A frozen copy of a store and the sha256 of its bytes (what a stage manifest pins)."""

    path: Path
    sha256: str
    records: int


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

_Method = TypeVar("_Method", bound=Callable[..., Any])
_QUARANTINE_REASON_LIMIT = 300


def _locked(method: _Method) -> _Method:
    @functools.wraps(method)
    def wrapper(self: SQLiteStore, *args: Any, **kwargs: Any) -> Any:
        with self._mutex:
            return method(self, *args, **kwargs)

    return cast(_Method, wrapper)


class SQLiteStore:
    """A store in one SQLite file (or `:memory:` for tests).

    `capacity` (live records per scope), `retention` and `seed` default to what the file recorded
    when it was created (200, `utility`, 0); passing them changes what the file records. The random rule draws from
    `random.Random(f"{seed}:{n}")` for the n-th eviction, so a reopened store draws the same.
    `retire_by_use` is this object's policy for counter updates (not recorded in the file; None
    retires nothing by use).
    """

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
        self.path = str(path)
        self.read_only = read_only
        if access is not None and not isinstance(access, ScopeAccess):
            raise StoreError(f"access must be a ScopeAccess, got {type(access).__name__}")
        self.access = access
        """The scopes this object shows and writes (None: every scope, the store owner's view)."""
        self.busy_timeout = busy_timeout
        self.retire_by_use = retire_by_use
        self._mutex = threading.RLock()
        self._lock: IO[bytes] | None = None
        self._alone = True
        self._created: list[Path] = []
        self._quarantined: dict[str, str] = {}
        self._quarantined_scope: dict[str, str | None] = {}
        self._versions: dict[str, int] = {}
        self._records: dict[str, Record] = {}
        """Live records, in admission order."""
        self._retired: dict[str, Record] = {}
        self._index: ScopedRedundancyIndex | None = None
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
        stored_capacity = _read_meta(conn, "capacity")
        self._capacity = capacity if capacity is not None else int(stored_capacity or DEFAULT_CAPACITY)
        if self._capacity < 1:
            raise StoreError(f"store capacity must be at least 1, got {self._capacity}")
        self._rule = self._resolve_rule(retention)
        stored_seed = _read_meta(conn, "seed")
        self._seed = seed if seed is not None else int(stored_seed or 0)
        self.frozen = _read_meta(conn, "frozen") == "1"
        if self.read_only:
            return []
        weights = self._rule.weights if isinstance(self._rule, UtilityRetention) else None
        wanted = {
            "capacity": str(self._capacity),
            "retention": self._rule.name,
            "retention_weights": json.dumps(weights.__dict__ if weights else None),
            "seed": str(self._seed),
        }
        stored = {key: _read_meta(conn, key) for key in _SETTINGS}
        changed = [key for key in _SETTINGS if stored[key] is not None and stored[key] != wanted[key]]
        if changed and not self._alone:
            shown = ", ".join(f"{key} {stored[key]}" for key in changed)
            raise StoreError(
                f"{self.path} is open for writing elsewhere with {shown}; open it with the same "
                "settings (or none, to take the stored ones), or close the other writers to change them"
            )
        missing = [key for key in _SETTINGS if stored[key] != wanted[key]]
        if write:
            for key in missing:
                _write_meta(conn, key, wanted[key])
        return missing

    def _resolve_rule(self, retention: str | RetentionRule | None) -> RetentionRule:
        if retention is not None and not isinstance(retention, str):
            return retention
        try:
            if retention is not None:
                return make_retention(retention)
            name = _read_meta(self._conn, "retention") or "utility"
            raw_weights = json.loads(_read_meta(self._conn, "retention_weights") or "null")
            weights = UtilityWeights(**raw_weights) if raw_weights else None
            return make_retention(name, weights)
        except CountermemError as error:
            raise StoreError(f"{self.path}: {error}; pass the retention rule explicitly") from error

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

    def _parse_row(self, record_id: str, body: str) -> Record | None:
        try:
            record = Record.model_validate_json(body)
        except (ValidationError, ValueError, RecursionError) as error:
            reason = _why_unreadable(error)
            self._quarantined[record_id] = reason
            self._quarantined_scope[record_id] = _raw_scope(body)
            logger.warning("record %s in %s cannot be read and is set aside: %s", record_id, self.path, reason)
            return None
        self._quarantined.pop(record_id, None)
        return record

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
        rows = [(str(i), int(v)) for i, v in conn.execute("SELECT id, version FROM records ORDER BY seq")]
        changed = [record_id for record_id, version in rows if self._versions.get(record_id) != version]
        fresh: dict[str, Record | None] = {}
        for record_id in changed:
            body = conn.execute("SELECT body FROM records WHERE id = ?", (record_id,)).fetchone()[0]
            fresh[record_id] = self._parse_row(record_id, body)
        present = {record_id for record_id, _ in rows}
        gone = [record_id for record_id in self._versions if record_id not in present]
        records: list[Record] = []
        for record_id, _ in rows:
            record = fresh[record_id] if record_id in fresh else self._stored(record_id)
            if record is not None:
                records.append(record)
        for record_id in gone:
            self._quarantined.pop(record_id, None)
        if self._index is not None:
            for record_id in gone:
                if record_id in self._index:
                    self._index.remove(record_id)
            for record_id, record in fresh.items():
                if record is not None and record.live:
                    self._index.add(record)
                elif record_id in self._index:
                    self._index.remove(record_id)
        self._split(records)
        self._versions = dict(rows)
        self._capacity = int(_read_meta(conn, "capacity") or self._capacity)
        self._eviction_count = int(conn.execute("SELECT COUNT(*) FROM evictions").fetchone()[0])

    @property
    def quarantined(self) -> dict[str, str]:
        """Records set aside when the store was opened because they no longer parse: id -> why.

        They stay in the file untouched (an older or newer countermem may read them); this object
        neither offers nor counts them.
        """
        return {k: v for k, v in self._quarantined.items() if self._may_read_scope(self._quarantined_scope.get(k))}

    # --- scopes --------------------------------------------------------------------------------

    def _may_read_scope(self, scope: str | None) -> bool:
        return self.access is None or scope in self.access.readable

    def _visible(self) -> list[Record]:
        records = self._records.values()
        return list(records) if self.access is None else self.access.visible(records)

    def _visible_retired(self) -> list[Record]:
        records = self._retired.values()
        return list(records) if self.access is None else self.access.visible(records)

    def _eviction_rows(self, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Rows of the eviction log whose record this object may read (the body is the last column)."""
        rows = self._conn.execute(query, params).fetchall()
        if self.access is None:
            return rows
        return [row for row in rows if self._may_read_scope(_raw_scope(row[-1]))]

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

    def __enter__(self) -> SQLiteStore:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    @property
    def closed(self) -> bool:
        return getattr(self, "_conn", None) is None

    @property
    def capacity(self) -> int:
        return self._capacity

    @property
    def retention(self) -> RetentionRule:
        return self._rule

    @_locked
    def __len__(self) -> int:
        self._sync()
        return len(self._records) if self.access is None else len(self._visible())

    @_locked
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

    # --- reading -------------------------------------------------------------------------------

    @_locked
    def get(self, record_id: str) -> Record:
        """The record, live or retired."""
        self._sync()
        record = self._stored(record_id)
        if record is None:
            where = "" if self.access is None else f" readable in {self.access.describe()}"
            raise StoreError(
                f"no record {record_id!r}{where} in {self.path}; `countermem memory list` shows the ids"
            )
        return record

    @_locked
    def all(self) -> list[Record]:
        """The live records (the ones that may be offered), in admission order."""
        self._sync()
        return self._visible()

    @_locked
    def retired(self) -> list[Record]:
        """The retired records, in admission order: kept, never offered."""
        self._sync()
        return self._visible_retired()

    @_locked
    def search(
        self, *, domain: str | None = None, benchmark: str | None = None, limit: int | None = None
    ) -> list[Record]:
        """Records in admission order, filtered by domain and benchmark (from memory: every
        record is held there already, and a quarantined row must not be offered)."""
        self._sync()
        found = [
            r
            for r in self._visible()
            if (domain is None or r.domain == domain) and (benchmark is None or r.benchmark == benchmark)
        ]
        return found if limit is None else found[:limit]

    @_locked
    def history(self, record_id: str) -> list[Record]:
        """Every stored version of a record, oldest first, ending with the current one."""
        current = self.get(record_id)
        rows = self._conn.execute(
            "SELECT body FROM record_history WHERE id = ? ORDER BY seq", (record_id,)
        ).fetchall()
        older = [_parse(row[0], f"history of {record_id}") for row in rows]
        return [r for r in older if r.created_at == current.created_at] + [current]

    @_locked
    def evictions(self) -> list[EvictionEvent]:
        rows = self._eviction_rows("SELECT record_id, rule, reason, scores, at, body FROM evictions ORDER BY seq")
        return [
            EvictionEvent(
                record_id=record_id,
                rule=rule,
                reason=reason,
                scores=json.loads(scores),
                at=datetime.fromisoformat(at),
                version=int(json.loads(body)["version"]),
            )
            for record_id, rule, reason, scores, at, body in rows
        ]

    @_locked
    def evicted_record(self, record_id: str) -> Record:
        """The last evicted copy of a record, for a person asking what was dropped."""
        rows = self._eviction_rows("SELECT body FROM evictions WHERE record_id = ? ORDER BY seq DESC", (record_id,))
        row = rows[0] if rows else None
        if row is None:
            raise StoreError(f"record {record_id!r} was never evicted from {self.path}")
        return _parse(row[0], f"evicted record {record_id}")

    @_locked
    def stats(self) -> StoreStats:
        records = self.all()
        by_reason = Counter(str(row[0]) for row in self._eviction_rows("SELECT reason, body FROM evictions"))
        return StoreStats(
            path=self.path,
            count=len(records),
            capacity=self._capacity,
            retention=self._rule.name,
            frozen=self.frozen,
            by_domain=dict(sorted(Counter(r.domain for r in records).items())),
            by_scope=dict(sorted(Counter(r.scope for r in records).items())),
            by_benchmark=dict(sorted(Counter(r.benchmark for r in records).items())),
            mean_gain=sum(r.utility_gain for r in records) / len(records) if records else None,
            universal_conditions=sum(r.condition.is_universal for r in records),
            evictions_by_reason=dict(sorted(by_reason.items())),
            reuse=ReuseTotals(
                retrieved=sum(r.counters.retrieved for r in records),
                selected=sum(r.counters.selected for r in records),
                succeeded=sum(r.counters.succeeded for r in records),
                harmed=sum(r.counters.harmed for r in records),
            ),
            quarantined=self.quarantined,
            redactions=dict(sorted(sum((Counter(r.redactions) for r in records), Counter[str]()).items())),
            retired=len(self._visible_retired()),
        )

    # --- writing -------------------------------------------------------------------------------

    @_locked
    def add(self, record: Record) -> list[EvictionEvent]:
        """Admit `record`, then evict by the retention rule while its scope is over capacity.

        Only records of `record`'s scope are candidates (`plan_evictions`): an admission never
        evicts another scope's record. The incoming record is a candidate like any other, so it
        may be the one evicted (it is then logged like any eviction). All of it happens in one transaction. A record whose id is
        live already (the same correction, perhaps admitted by another process a moment ago) is
        not stored again: the stored version stays as it is and no eviction happens.
        """
        self._require_writable()
        if not isinstance(record, Record):
            raise StoreError(f"a store holds Record objects, got {type(record).__name__}")
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

    @_locked
    def add_or_merge(self, record: Record) -> MergeOutcome:
        """Admit `record`, or merge it with the equivalent records of its scope (`countermem.memory._merge`).

        One transaction: when the store holds records with the same scope, condition and
        normalised edit, the best-verified of them and `record` is kept (counters summed, sources
        listed) and the others go to the eviction log with rule `merge`; otherwise this is `add`.
        """
        self._require_writable()
        if not isinstance(record, Record):
            raise StoreError(f"a store holds Record objects, got {type(record).__name__}")
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
        return MergeOutcome(
            evictions=[e for e in events if e.record_id != record.id],
            merged_into=None if new.id == record.id else new.id,
            merged=[r.id for r in group.merged if r.id != record.id],
        )

    @_locked
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

    def _refuse_scoped_copy(self) -> None:
        if self.access is not None:
            raise StoreError(
                f"a copy holds every scope of {self.path}, and this store was opened for "
                f"{self.access.describe()}; copy it opened without a scope"
            )

    def _refuse_foreign_scope(self, record: Record) -> None:
        if self.access is not None and record.scope != self.access.own:
            raise StoreError(
                f"record {record.id} is of scope {record.scope!r}, but this store was opened to write "
                f"{self.access.describe()}; build the record with scope={self.access.own!r}, or open the "
                "store with that record's scope"
            )

    @_locked
    def evict(self, record_id: str, reason: str) -> EvictionEvent:
        """Remove a record by hand; it is logged with rule `manual` and the reason given."""
        self._require_writable()
        if not reason.strip():
            raise StoreError("say why the record is evicted; the reason is kept in the eviction log")
        with self._transaction():
            record = self.get(record_id)
            event = self._log_eviction(record, "manual", reason.strip(), {})
        self._records.pop(record_id, None)
        self._retired.pop(record_id, None)
        del self._versions[record_id]
        self._eviction_count += 1
        if self._index is not None:
            self._index.remove(record_id)
        return event

    @_locked
    def update_counters(
        self,
        record_id: str,
        *,
        retrieved: int = 0,
        selected: int = 0,
        succeeded: int = 0,
        harmed: int = 0,
        at: datetime | None = None,
    ) -> Record:
        """Add to a record's reuse counters; this stores a new version and keeps the old one.

        The increments apply to the version current when the write lock is held, so increments
        from any number of processes all count. A live record whose new counters cross the
        `retire_by_use` line is retired in the same version.
        """
        self._require_writable()
        with self._transaction():
            old = self.get(record_id)
            try:
                new = old.with_counts(
                    retrieved=retrieved, selected=selected, succeeded=succeeded, harmed=harmed, at=at
                )
            except (ValueError, ValidationError) as error:
                raise StoreError(f"cannot update counters of {record_id}: {error}") from error
            why = None if self.retire_by_use is None or not new.live else self.retire_by_use.reason(new.counters)
            if why is not None:
                new = new.marked_retired(why, at)
                logger.info("record %s in %s is retired: %s", record_id, self.path, why)
            self._write_version(old, new)
        return self._replaced(old, new)

    @_locked
    def retire(self, record_id: str, reason: str, *, expected_version: int | None = None) -> Record:
        """Retire a live record: a new version that is kept (with the reason) but never offered.

        Nothing is deleted: the previous version moves to `record_history`, and `retired()`,
        `get` and `memory list --retired` still show it. Retiring a retired record is refused.
        """
        self._require_writable()
        if not reason.strip():
            raise StoreError("say why the record is retired; the reason is kept with it")
        with self._transaction():
            old = self.get(record_id)
            if not old.live:
                raise StoreError(f"record {record_id} is already retired ({old.retired_reason})")
            if expected_version is not None and old.version != expected_version:
                raise StoreError(
                    f"record {record_id} was read at version {expected_version} but is now at version "
                    f"{old.version} (another writer changed it); read it again and redo the change"
                )
            new = old.marked_retired(reason).model_copy(update={"version": old.version + 1})
            self._write_version(old, new)
        return self._replaced(old, new)

    @_locked
    def revise(self, record_id: str, *, expected_version: int | None = None, **changes: Any) -> Record:
        """Change a record's fields (e.g. its condition); stores a new version and keeps the old one.

        With `expected_version` (the version the caller read), the change is refused when another
        writer stored a newer version meanwhile, so a revision never overwrites one it did not see.
        """
        self._require_writable()
        with self._transaction():
            old = self.get(record_id)
            if expected_version is not None and old.version != expected_version:
                raise StoreError(
                    f"record {record_id} was read at version {expected_version} but is now at version "
                    f"{old.version} (another writer changed it); read it again and redo the change"
                )
            try:
                new = old.revised(**changes)
            except (ValueError, ValidationError) as error:
                raise StoreError(f"cannot revise {record_id}: {error}") from error
            self._write_version(old, new)
        return self._replaced(old, new)

    @_locked
    def freeze(self, path: str | Path) -> FrozenSnapshot:
        """Write a read-only snapshot (a copy with the `frozen` flag, journal off, file mode 0444)."""
        target = Path(path)
        if self.access is not None:
            raise StoreError(
                f"a snapshot copies every scope of {self.path}, and this store was opened for "
                f"{self.access.describe()}; freeze it opened without a scope, or export the scope's records"
            )
        if target.exists():
            raise StoreError(
                f"{target} already exists; freeze to a new path (snapshots are never overwritten)"
            )
        if not target.parent.is_dir():
            raise StoreError(f"cannot freeze to {target}: folder {target.parent} does not exist")
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

    @_locked
    def export_jsonl(self, path: str | Path, *, overwrite: bool = False) -> int:
        """One record per line, the live ones in admission order then the retired ones;
        `Record.model_validate_json` reads a line back.

        An existing file is replaced only with `overwrite=True`, and never when it is this store
        itself (or one of its journal or lock files): an export must not destroy what it reads.
        The file appears whole or not at all (written beside it, then renamed).
        """
        target = Path(path)
        if target.is_dir():
            raise StoreError(f"cannot export to {target}: it is a folder; give a writable file path")
        if not target.parent.is_dir():
            raise StoreError(f"cannot export to {target}: folder {target.parent} does not exist")
        if self._is_own_file(target):
            raise StoreError(f"refusing to export {self.path} over itself; give another file path")
        if target.exists() and not overwrite:
            raise StoreError(f"{target} already exists; give a new path, or overwrite it on purpose")
        self._sync()
        handle = tempfile.NamedTemporaryFile(  # noqa: SIM115 - renamed into place below
            "w", encoding="utf-8", dir=target.parent, prefix=f".{target.name}.", suffix=".partial", delete=False
        )
        try:
            with handle:
                visible = [*self._visible(), *self._visible_retired()]
                for record in visible:
                    handle.write(record.model_dump_json() + "\n")
            os.replace(handle.name, target)
        except BaseException:
            Path(handle.name).unlink(missing_ok=True)
            raise
        return len(visible)

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

    def _require_writable(self) -> None:
        if self.frozen:
            raise StoreError(f"{self.path} is a frozen snapshot; it cannot change")
        if self.read_only:
            raise StoreError(f"{self.path} was opened read-only; open it without read_only=True to change it")

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
        if not new.live:
            self._records.pop(new.id, None)
            self._retired[new.id] = new
            if self._index is not None and new.id in self._index:
                self._index.remove(new.id)
            return new
        self._records[new.id] = new
        if self._index is not None and (
            new.situation != old.situation
            or new.improved_action != old.improved_action
            or new.embedding != old.embedding
        ):
            self._index.add(new)
        return new

    # --- copies between backends ---------------------------------------------------------------

    @_locked
    def dump_rows(self) -> StoreRows:
        """Everything stored, bodies as stored (a quarantined one too), for `countermem memory copy`."""
        self._refuse_scoped_copy()
        self._sync()
        conn = self._conn
        meta = {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM meta")}
        return StoreRows(
            meta={k: v for k, v in meta.items() if k not in NOT_COPIED_META},
            records=tuple(
                RecordRow(id=str(i), body=str(b)) for i, b in conn.execute("SELECT id, body FROM records ORDER BY seq")
            ),
            history=tuple(
                HistoryRow(id=str(i), version=int(v), replaced_at=str(t), body=str(b))
                for i, v, t, b in conn.execute(
                    "SELECT id, version, replaced_at, body FROM record_history ORDER BY seq"
                )
            ),
            evictions=tuple(
                EvictionRow(record_id=str(i), rule=str(r), reason=str(why), scores=str(s), at=str(t), body=str(b))
                for i, r, why, s, t, b in conn.execute(
                    "SELECT record_id, rule, reason, scores, at, body FROM evictions ORDER BY seq"
                )
            ),
        )

    @_locked
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
        self._rule = self._resolve_rule(None)
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


def _raw_scope(body: str) -> str | None:
    """The scope a stored body names (`default` when it names none), None when it cannot be read."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    scope = data.get("scope", DEFAULT_SCOPE)
    return scope if isinstance(scope, str) else None


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


def _parse(body: str, what: str) -> Record:
    try:
        return Record.model_validate_json(body)
    except (ValidationError, ValueError) as error:
        raise StoreError(f"{what} does not parse as a record ({error}); the store may be corrupt") from error
    except RecursionError:
        raise StoreError(f"{what} is nested too deeply to parse; the store may be corrupt") from None


def _why_unreadable(error: Exception) -> str:
    """One short line on why a stored body does not parse (pydantic's text runs to many lines)."""
    if isinstance(error, RecursionError):
        text = "nested too deeply to parse"
    elif isinstance(error, ValidationError) and error.errors():
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "body"
        text = f"{where}: {first['msg']}"
    else:
        text = str(error)
    return clip_middle(" ".join(text.split()), _QUARANTINE_REASON_LIMIT)[0]


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
