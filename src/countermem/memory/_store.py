"""The record store: SQLite by default, one file, every admission one transaction.

Why SQLite: a single file a person can copy, inspect and freeze; transactions so that a crash
between two admissions loses no admitted record; indexes for the few filters retrieval uses.
The journal is WAL with `synchronous=NORMAL`, which survives a crash of the process (the case
that matters for a long construct run); pass `durable=True` for `synchronous=FULL` if the store
must also survive a power cut, at the price of an fsync per admission.

One process writes a store at a time: a writable store takes an exclusive `flock` on
`<path>.lock` and keeps every record in memory as well (retrieval reads the whole store for
every decision, and parsing rows each time would cost more than the decision). Readers open it
`read_only=True` and see the records as they were when they opened it; a frozen snapshot
(`freeze`) can only be opened that way.

Costs: an admission at capacity 200 is one INSERT, one row of the redundancy index and one pass
of the retention rule over the candidates; rules are stateless functions of the candidate list,
so an eviction is O(n) Python work and the store is meant for hundreds to a few thousand records.

Nothing is silently rewritten: a change to a record stores a new version and moves the previous
one into `record_history`; an eviction moves the record into `evictions` with the rule, the
reason and the scores the rule decided on.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import random
import sqlite3
from collections import Counter
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from countermem.core import CountermemError, StoreError, sha256_file
from countermem.memory._record import Record, utc_now
from countermem.memory._retention import (
    RedundancyIndex,
    RetentionRule,
    UtilityRetention,
    UtilityWeights,
    make_retention,
)

SCHEMA_VERSION = 1
DEFAULT_CAPACITY = 200
MEMORY = ":memory:"

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
    retention: str
    frozen: bool
    by_domain: dict[str, int]
    by_benchmark: dict[str, int]
    mean_gain: float | None
    universal_conditions: int
    evictions_by_reason: dict[str, int]
    reuse: ReuseTotals
    redactions: dict[str, int] = Field(default_factory=dict)
    """Secrets replaced by placeholders in the stored records, by kind (`Record.redactions`)."""


class FrozenSnapshot(_Frozen):
    """A frozen copy of a store and the sha256 of its bytes (what a stage manifest pins)."""

    path: Path
    sha256: str
    records: int


@runtime_checkable
class Store(Protocol):
    """What memory code needs from a store, so that other backends could exist."""

    @property
    def capacity(self) -> int: ...

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


class SQLiteStore:
    """A store in one SQLite file (or `:memory:` for tests).

    `capacity`, `retention` and `seed` default to what the file recorded when it was created
    (200, `utility`, 0); passing them changes what the file records. The random rule draws from
    `random.Random(f"{seed}:{n}")` for the n-th eviction, so a reopened store draws the same.
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
    ) -> None:
        self.path = str(path)
        self.read_only = read_only
        self._lock: IO[bytes] | None = None
        self._conn = self._connect(durable)
        try:
            self._setup(capacity, retention, seed)
            self._records: dict[str, Record] = self._load()
            self._eviction_count = int(self._conn.execute("SELECT COUNT(*) FROM evictions").fetchone()[0])
        except sqlite3.Error as error:  # e.g. a file with countermem metadata but no records table
            self.close()
            raise StoreError(
                f"{self.path} is not a complete memory store ({error}); give a store written by "
                "`countermem construct`, or build a new one"
            ) from error
        except BaseException:
            self.close()
            raise
        self._index: RedundancyIndex | None = None

    # --- opening -------------------------------------------------------------------------------

    @property
    def in_memory(self) -> bool:
        return self.path == MEMORY

    def _connect(self, durable: bool) -> sqlite3.Connection:
        if self.in_memory:
            if self.read_only:
                raise StoreError("an in-memory store cannot be opened read-only; give a file path")
            return sqlite3.connect(MEMORY, isolation_level=None, check_same_thread=False)
        file = Path(self.path)
        if self.read_only:
            if not file.is_file():
                raise StoreError(f"no memory store at {file}; check the path or build one with `construct`")
            try:
                conn = sqlite3.connect(file.resolve().as_uri() + "?mode=ro", uri=True, isolation_level=None)
                conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
            except sqlite3.DatabaseError as error:
                raise StoreError(f"{file} is not a readable memory store ({error})") from error
            return conn
        if not file.parent.is_dir():
            raise StoreError(f"cannot create a memory store at {file}: folder {file.parent} does not exist")
        self._take_lock(file)
        try:
            conn = sqlite3.connect(file, isolation_level=None)
            frozen = _read_meta(conn, "frozen")
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{file} is not a memory store ({error})") from error
        if frozen == "1":
            conn.close()
            raise StoreError(
                f"{file} is a frozen snapshot and cannot be opened for writing; open it with "
                "read_only=True, or freeze a writable store to a new path"
            )
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        return conn

    def _take_lock(self, file: Path) -> None:
        handle = open(f"{file}.lock", "wb")  # noqa: SIM115 - held for the store's lifetime
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as error:
            handle.close()
            raise StoreError(
                f"{file} is open for writing by another process or store object; close it first or "
                "open this one with read_only=True"
            ) from error
        self._lock = handle

    def _setup(self, capacity: int | None, retention: str | RetentionRule | None, seed: int | None) -> None:
        conn = self._conn
        if self.read_only:
            version = _read_meta(conn, "schema_version")
            if version is None:
                raise StoreError(f"{self.path} is not a memory store (no countermem metadata)")
        else:
            conn.executescript(_SCHEMA)
            version = _read_meta(conn, "schema_version")
            if version is None:
                _write_meta(conn, "schema_version", str(SCHEMA_VERSION))
                version = str(SCHEMA_VERSION)
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
        if not self.read_only:
            _write_meta(conn, "capacity", str(self._capacity))
            _write_meta(conn, "retention", self._rule.name)
            weights = self._rule.weights if isinstance(self._rule, UtilityRetention) else None
            _write_meta(conn, "retention_weights", json.dumps(weights.__dict__ if weights else None))
            _write_meta(conn, "seed", str(self._seed))

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

    def _load(self) -> dict[str, Record]:
        records: dict[str, Record] = {}
        for record_id, body in self._conn.execute("SELECT id, body FROM records ORDER BY seq"):
            records[record_id] = _parse(body, f"record {record_id} in {self.path}")
        return records

    # --- lifecycle -----------------------------------------------------------------------------

    def close(self) -> None:
        conn = getattr(self, "_conn", None)
        if conn is not None:
            conn.close()
            self._conn = None  # type: ignore[assignment]
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def __enter__(self) -> SQLiteStore:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    @property
    def capacity(self) -> int:
        return self._capacity

    @property
    def retention(self) -> RetentionRule:
        return self._rule

    def __len__(self) -> int:
        return len(self._records)

    def __contains__(self, record_id: object) -> bool:
        return record_id in self._records

    # --- reading -------------------------------------------------------------------------------

    def get(self, record_id: str) -> Record:
        try:
            return self._records[record_id]
        except KeyError:
            raise StoreError(
                f"no record {record_id!r} in {self.path}; `countermem memory list` shows the ids"
            ) from None

    def all(self) -> list[Record]:
        return list(self._records.values())

    def search(
        self, *, domain: str | None = None, benchmark: str | None = None, limit: int | None = None
    ) -> list[Record]:
        """Records in admission order, filtered by the indexed columns."""
        clauses, params = [], []
        if domain is not None:
            clauses.append("domain = ?")
            params.append(domain)
        if benchmark is not None:
            clauses.append("benchmark = ?")
            params.append(benchmark)
        if not clauses:
            found = self.all()
            return found if limit is None else found[:limit]
        sql = "SELECT id FROM records WHERE " + " AND ".join(clauses) + " ORDER BY seq"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [self._records[row[0]] for row in self._conn.execute(sql, params)]

    def history(self, record_id: str) -> list[Record]:
        """Every stored version of a record, oldest first, ending with the current one."""
        current = self.get(record_id)
        rows = self._conn.execute(
            "SELECT body FROM record_history WHERE id = ? ORDER BY seq", (record_id,)
        ).fetchall()
        older = [_parse(row[0], f"history of {record_id}") for row in rows]
        return [r for r in older if r.created_at == current.created_at] + [current]

    def evictions(self) -> list[EvictionEvent]:
        rows = self._conn.execute(
            "SELECT record_id, rule, reason, scores, at, body FROM evictions ORDER BY seq"
        )
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

    def evicted_record(self, record_id: str) -> Record:
        """The last evicted copy of a record, for a person asking what was dropped."""
        row = self._conn.execute(
            "SELECT body FROM evictions WHERE record_id = ? ORDER BY seq DESC LIMIT 1", (record_id,)
        ).fetchone()
        if row is None:
            raise StoreError(f"record {record_id!r} was never evicted from {self.path}")
        return _parse(row[0], f"evicted record {record_id}")

    def stats(self) -> StoreStats:
        records = self.all()
        by_reason = dict(
            self._conn.execute("SELECT reason, COUNT(*) FROM evictions GROUP BY reason ORDER BY 1")
        )
        return StoreStats(
            path=self.path,
            count=len(records),
            capacity=self._capacity,
            retention=self._rule.name,
            frozen=self.frozen,
            by_domain=dict(sorted(Counter(r.domain for r in records).items())),
            by_benchmark=dict(sorted(Counter(r.benchmark for r in records).items())),
            mean_gain=sum(r.utility_gain for r in records) / len(records) if records else None,
            universal_conditions=sum(r.condition.is_universal for r in records),
            evictions_by_reason={str(k): int(v) for k, v in by_reason.items()},
            reuse=ReuseTotals(
                retrieved=sum(r.counters.retrieved for r in records),
                selected=sum(r.counters.selected for r in records),
                succeeded=sum(r.counters.succeeded for r in records),
                harmed=sum(r.counters.harmed for r in records),
            ),
            redactions=dict(sorted(sum((Counter(r.redactions) for r in records), Counter[str]()).items())),
        )

    # --- writing -------------------------------------------------------------------------------

    def add(self, record: Record) -> list[EvictionEvent]:
        """Admit `record`, then evict by the retention rule while over capacity.

        The incoming record is a candidate like any other, so it may be the one evicted (it is
        then logged like any eviction). All of it happens in one transaction.
        """
        self._require_writable()
        if not isinstance(record, Record):
            raise StoreError(f"a store holds Record objects, got {type(record).__name__}")
        if record.id in self._records:
            raise StoreError(
                f"record {record.id} is already stored (version {self._records[record.id].version}); "
                "change it with update_counters or revise"
            )
        index = self._redundancy_index()
        if index is not None:
            index.add(record)
        events: list[EvictionEvent] = []
        gone: set[str] = set()
        try:
            with self._transaction():
                self._insert(record)
                while len(self._records) + 1 - len(events) > self._capacity:
                    rng = random.Random(f"{self._seed}:{self._eviction_count + len(events)}")
                    similar = index.max_similarity() if index is not None else None
                    pool = [*self._records.values(), record]
                    if gone:
                        pool = [r for r in pool if r.id not in gone]
                    record_id, reason, scores = self._rule.choose_victim(pool, rng, similar)
                    victim = record if record_id == record.id else self._records.get(record_id)
                    if victim is None or record_id in gone:
                        raise StoreError(f"retention rule {self._rule.name} chose unknown record {record_id}")
                    gone.add(record_id)
                    events.append(self._log_eviction(victim, self._rule.name, reason, scores))
                    if index is not None:
                        index.remove(victim.id)
        except BaseException:
            self._index = None
            raise
        self._records[record.id] = record
        for event in events:
            del self._records[event.record_id]
        self._eviction_count += len(events)
        return events

    def evict(self, record_id: str, reason: str) -> EvictionEvent:
        """Remove a record by hand; it is logged with rule `manual` and the reason given."""
        self._require_writable()
        if not reason.strip():
            raise StoreError("say why the record is evicted; the reason is kept in the eviction log")
        record = self.get(record_id)
        with self._transaction():
            event = self._log_eviction(record, "manual", reason.strip(), {})
        del self._records[record_id]
        self._eviction_count += 1
        if self._index is not None:
            self._index.remove(record_id)
        return event

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
        """Add to a record's reuse counters; this stores a new version and keeps the old one."""
        self._require_writable()
        old = self.get(record_id)
        try:
            new = old.with_counts(
                retrieved=retrieved, selected=selected, succeeded=succeeded, harmed=harmed, at=at
            )
        except (ValueError, ValidationError) as error:
            raise StoreError(f"cannot update counters of {record_id}: {error}") from error
        return self._replace(old, new)

    def revise(self, record_id: str, **changes: Any) -> Record:
        """Change a record's fields (e.g. its condition); stores a new version and keeps the old one."""
        self._require_writable()
        old = self.get(record_id)
        try:
            new = old.revised(**changes)
        except (ValueError, ValidationError) as error:
            raise StoreError(f"cannot revise {record_id}: {error}") from error
        return self._replace(old, new)

    def freeze(self, path: str | Path) -> FrozenSnapshot:
        """Write a read-only snapshot (a copy with the `frozen` flag, journal off, file mode 0444)."""
        target = Path(path)
        if target.exists():
            raise StoreError(
                f"{target} already exists; freeze to a new path (snapshots are never overwritten)"
            )
        if not target.parent.is_dir():
            raise StoreError(f"cannot freeze to {target}: folder {target.parent} does not exist")
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

    def export_jsonl(self, path: str | Path) -> int:
        """One record per line, in admission order; `Record.model_validate_json` reads a line back."""
        target = Path(path)
        if not target.parent.is_dir():
            raise StoreError(f"cannot export to {target}: folder {target.parent} does not exist")
        with open(target, "w", encoding="utf-8") as handle:
            for record in self._records.values():
                handle.write(record.model_dump_json() + "\n")
        return len(self._records)

    # --- internals -----------------------------------------------------------------------------

    def _require_writable(self) -> None:
        if self.frozen:
            raise StoreError(f"{self.path} is a frozen snapshot; it cannot change")
        if self.read_only:
            raise StoreError(f"{self.path} was opened read-only; open it without read_only=True to change it")

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
        except sqlite3.Error as error:
            raise StoreError(f"writing to the memory store {self.path} failed: {error}") from error

    def _redundancy_index(self) -> RedundancyIndex | None:
        if not self._rule.needs_redundancy:
            return None
        if self._index is None:
            self._index = RedundancyIndex(list(self._records.values()))
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

    def _replace(self, old: Record, new: Record) -> Record:
        with self._transaction():
            self._conn.execute(
                "INSERT INTO record_history (id, version, replaced_at, body) VALUES (?, ?, ?, ?)",
                (old.id, old.version, utc_now().isoformat(), old.model_dump_json()),
            )
            changed = self._conn.execute(
                "UPDATE records SET version = ?, utility_gain = ?, body = ? WHERE id = ? AND version = ?",
                (new.version, new.utility_gain, new.model_dump_json(), old.id, old.version),
            ).rowcount
            if changed != 1:
                raise StoreError(f"record {old.id} version {old.version} changed underneath this store")
        self._records[new.id] = new
        if self._index is not None and (
            new.situation != old.situation
            or new.improved_action != old.improved_action
            or new.embedding != old.embedding
        ):
            self._index.add(new)
        return new


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
    except ValidationError as error:
        raise StoreError(f"{what} does not parse as a record ({error}); the store may be corrupt") from error


def open_store(path: str | Path, *, read_only: bool = False, **options: Any) -> SQLiteStore:
    """Open (or, when writable, create) the store at `path`."""
    return SQLiteStore(path, read_only=read_only, **options)
