"""The record store on a PostgreSQL server, for many processes on many machines (issue 20).

`open_store("postgresql://user@host/db")` opens it; it answers the same calls as `SQLiteStore`
(the `Store` protocol and the rest: history, evictions, revise, freeze, export, stats). Records are
a JSONB body plus the columns the store filters and counts on, so a field another countermem adds
to `Record` passes through untouched. What holds with any number of writers anywhere:

- Admission is idempotent: `INSERT ... ON CONFLICT (id) DO NOTHING` (ids are content hashes).
- Admission and the evictions it causes are one transaction under a transaction-level advisory
  lock per store, so no scope ever holds more than the capacity (live records per scope; the
  retention rule chooses among the incoming record's scope, `plan_evictions`, as on SQLite) and
  every eviction is logged with the body the row had when it was deleted (`DELETE ... RETURNING`).
- Reuse counters are incremented by the server (`SET selected = selected + n`, the body's
  counters rewritten from the same expressions, the old version copied to `record_history` in the
  same statement), so no increment is lost and no lock is held across a round trip; a CHECK keeps
  succeeded and harmed at most selected. The same statement retires a record whose new counters
  cross the `RetireByUse` line.
- A revision writes only over the version it read (`WHERE version = %s`): with
  `expected_version` a changed record is a `StoreError`, without it the revision is redone on the
  new version.
- Capacity, retention and seed are settled like SQLite's: each writer holds a shared session
  advisory lock, and a change of settings is refused while another writer holds one.

The schema is versioned: `migrations` lists the migrations applied (one row each), and opening
applies the missing ones under a lock. Tables live in a Postgres schema, `countermem` unless the
URL says `?schema=name`, so one database can hold several stores.

Every object keeps the records it has read in memory, loaded on first need (at 100,000 records
retrieval on the server never loads them): a one-row `changes` counter bumped by every write tells
it cheaply whether another writer committed, and only changed rows are parsed again.

Scopes and retirement are `SQLiteStore`'s (`countermem.memory._scope`, `_retire_by_use`): an object
opened with `access=` reads, writes and ranks only its scopes (the queries carry the filter);
capacity counts live records of every scope; a retired record stays a row with `status` retired.
Merging equivalent records (`add_or_merge`, `merge`) runs under the store lock with the members'
rows locked, so their summed counters lose no concurrent increment.

Key embeddings for retrieval live in `record_keys` (one row per record and embedder): as float32
bytes always, and as a pgvector `vector` with an HNSW index when the database has the `vector`
extension (`CREATE EXTENSION vector`, by whoever administers it; the store never creates it).
`ServerRetriever` ranks there; see `countermem.memory._pg_retrieval`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import numpy as np

from countermem.core import StoreError
from countermem.memory._merge import MergeGroup, merge_groups, merge_key, merged_record
from countermem.memory._record import Record, ReuseCounters, utc_now
from countermem.memory._retention import RetentionRule, ScopedRedundancyIndex, plan_evictions
from countermem.memory._retire_by_use import RetireByUse
from countermem.memory._retrieval import _stable_key
from countermem.memory._scope import ScopeAccess
from countermem.memory._store import DEFAULT_BUSY_TIMEOUT_S, SQLiteStore
from countermem.memory._store_base import CountIncrements, StoreBase, locked, parse_body
from countermem.memory._store_models import EvictionEvent, FrozenSnapshot, MergeOutcome
from countermem.memory._store_rows import NOT_COPIED_META, StoreRows, body_fields

if TYPE_CHECKING:
    import psycopg

logger = logging.getLogger(__name__)

URL_SCHEMES = ("postgresql", "postgres")
DEFAULT_SCHEMA = "countermem"
_SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
_CONNECT_TIMEOUT_S = 10
_EF_SEARCH = 100
"""HNSW candidate list per query; retrieval asks for k + overfetch (19) rows, well under it."""

MIGRATIONS: tuple[tuple[int, str, str], ...] = (
    (
        1,
        "records, history, evictions, settings",
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE changes (
            one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one), n BIGINT NOT NULL, k BIGINT NOT NULL
        );
        INSERT INTO changes (one, n, k) VALUES (TRUE, 0, 0);
        CREATE TABLE records (
            seq BIGSERIAL PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            domain TEXT NOT NULL,
            benchmark TEXT NOT NULL,
            created_at TEXT NOT NULL,
            version INTEGER NOT NULL,
            utility_gain DOUBLE PRECISION NOT NULL,
            condition TEXT NOT NULL,
            scope TEXT NOT NULL DEFAULT 'default',
            status TEXT NOT NULL DEFAULT 'live',
            retrieved BIGINT NOT NULL DEFAULT 0 CHECK (retrieved >= 0),
            selected BIGINT NOT NULL DEFAULT 0 CHECK (selected >= 0),
            succeeded BIGINT NOT NULL DEFAULT 0 CHECK (succeeded >= 0),
            harmed BIGINT NOT NULL DEFAULT 0 CHECK (harmed >= 0),
            body JSONB NOT NULL,
            CONSTRAINT outcomes_follow_selection CHECK (succeeded <= selected AND harmed <= selected)
        );
        CREATE INDEX records_by_domain ON records (domain, benchmark);
        CREATE INDEX records_by_benchmark ON records (benchmark);
        CREATE INDEX records_by_status ON records (status);
        CREATE TABLE record_history (
            seq BIGSERIAL PRIMARY KEY,
            id TEXT NOT NULL,
            version INTEGER NOT NULL,
            replaced_at TEXT NOT NULL,
            body JSONB NOT NULL
        );
        CREATE INDEX record_history_by_id ON record_history (id, version);
        CREATE TABLE evictions (
            seq BIGSERIAL PRIMARY KEY,
            record_id TEXT NOT NULL,
            rule TEXT NOT NULL,
            reason TEXT NOT NULL,
            scores JSONB NOT NULL,
            at TEXT NOT NULL,
            version INTEGER NOT NULL,
            body JSONB NOT NULL
        );
        CREATE INDEX evictions_by_reason ON evictions (reason);
        CREATE INDEX evictions_by_record ON evictions (record_id);
        """,
    ),
    (
        2,
        "key embeddings for ranking on the server",
        """
        CREATE TABLE record_keys (
            id TEXT NOT NULL REFERENCES records (id) ON DELETE CASCADE,
            embedder TEXT NOT NULL,
            dim INTEGER NOT NULL,
            domain TEXT NOT NULL,
            benchmark TEXT NOT NULL,
            condition TEXT NOT NULL,
            scope TEXT NOT NULL,
            gain DOUBLE PRECISION NOT NULL,
            vector BYTEA NOT NULL,
            PRIMARY KEY (id, embedder)
        );
        CREATE INDEX record_keys_pool ON record_keys (embedder, domain, benchmark, scope, condition);
        """,
    ),
)
PGVECTOR_MIGRATION = (
    3,
    "pgvector column for HNSW ranking",
    """
    ALTER TABLE record_keys ADD COLUMN embedding vector;
    DELETE FROM record_keys;
    """,
)
"""Applied once the database has the `vector` extension; keys are embedded again into the new column."""


def is_postgres_url(location: object) -> bool:
    """Whether `location` names a Postgres store (`postgresql://...` or `postgres://...`)."""
    return isinstance(location, str) and location.split("://", 1)[0].lower() in URL_SCHEMES and "://" in location


def display_url(url: str) -> str:
    """The URL with any password replaced by `***`, for messages and stats."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def split_url(url: str) -> tuple[str, str]:
    """(the URL libpq reads, the schema name): `?schema=` is countermem's, libpq would refuse it."""
    if not is_postgres_url(url):
        raise StoreError(f"{display_url(url)!r} is not a Postgres URL; give postgresql://user@host:port/database")
    try:
        parts = urlsplit(url)
        _ = parts.port
    except ValueError as error:
        raise StoreError(f"the Postgres URL {display_url(url)!r} does not parse ({error}); fix it") from error
    query = parse_qsl(parts.query, keep_blank_values=True)
    schemas = [value for key, value in query if key == "schema"]
    schema = schemas[-1] if schemas else DEFAULT_SCHEMA
    if not _SCHEMA_NAME.match(schema):
        raise StoreError(
            f"schema {schema!r} in {display_url(url)} is not a plain lower-case name; give letters, digits, _"
        )
    rest = urlencode([(key, value) for key, value in query if key != "schema"])
    return urlunsplit(parts._replace(query=rest)), schema


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError as error:
        raise StoreError(
            "a postgresql:// store needs psycopg, which is not installed; pip install 'countermem[postgres]'"
        ) from error
    return psycopg


class _StaleVersion(Exception):
    """A revision found the record at another version than it read (internal: it is retried)."""


class PostgresStore(StoreBase):
    """A store in a Postgres schema; see the module docstring for what holds under concurrency."""

    _PARAM: ClassVar[str] = "%s"
    _TEXT: ClassVar[str] = "::text"
    _EVICTED_VERSION: ClassVar[str] = "version"
    _SCOPED_COPY: ClassVar[str] = (
        "a copy or snapshot of {path} holds every scope; open the store without access (the owner's view), "
        "not {scopes}"
    )

    def __init__(
        self,
        url: str,
        *,
        capacity: int | None = None,
        retention: str | RetentionRule | None = None,
        seed: int | None = None,
        read_only: bool = False,
        busy_timeout: float = DEFAULT_BUSY_TIMEOUT_S,
        retire_by_use: RetireByUse | None = RetireByUse(),  # noqa: B008 - frozen, shared safely
        access: ScopeAccess | None = None,
    ) -> None:
        super().__init__(display_url(url), read_only=read_only, access=access)
        self.url = url
        self.busy_timeout = busy_timeout
        self.retire_by_use = retire_by_use
        self._records: dict[str, Record] | None = None
        self._changes = -1
        self._hnsw: set[tuple[str, int]] = set()
        self._conn: psycopg.Connection[Any] | None = None
        if busy_timeout <= 0:
            raise StoreError(f"busy_timeout must be a positive number of seconds, got {busy_timeout}")
        self._pg = _psycopg()
        conninfo, self.schema = split_url(url)
        self._lock_key = f"countermem:{self.schema}"
        try:
            self._conn = self._pg.connect(
                conninfo, autocommit=True, connect_timeout=_CONNECT_TIMEOUT_S, application_name="countermem"
            )
        except self._pg.Error as error:
            raise StoreError(
                f"cannot reach the Postgres store {self.path}: {_first_line(error)}; check the host, port, "
                "user, password and database in the URL and that the server is running"
            ) from error
        try:
            self._setup(capacity, retention, seed)
        except self._pg.Error as error:
            self.close()
            raise StoreError(f"cannot open the Postgres store {self.path}: {_first_line(error)}") from error
        except BaseException:
            self.close()
            raise

    # --- opening -------------------------------------------------------------------------------

    def _setup(self, capacity: int | None, retention: str | RetentionRule | None, seed: int | None) -> None:
        sql = self._pg.sql
        conn = self._cx
        conn.execute(sql.SQL("SET lock_timeout = {}").format(sql.Literal(f"{int(self.busy_timeout * 1000)}ms")))
        exists = conn.execute(
            "SELECT 1 FROM information_schema.schemata WHERE schema_name = %s", (self.schema,)
        ).fetchone()
        if self.read_only:
            if exists is None:
                raise StoreError(f"no memory store at {self.path} (no schema {self.schema}); check the URL")
            conn.execute("SET default_transaction_read_only = on")
        self.has_pgvector = (
            conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone() is not None
        )
        if not self.read_only:
            self._alone = self._take_writer_lock()
            self._set_search_path()
            wanted = {version for version, _, _ in self._wanted_migrations()}
            applied = self._applied()
            self._refuse_unknown(applied)
            if exists is None or not wanted <= applied:  # an open that changes nothing waits for no one
                with self._tx(lock=True):
                    conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(self.schema)))
                    self._migrate()
        else:
            self._set_search_path()
            self._check_migrated()
        if self.has_pgvector:
            from pgvector.psycopg import register_vector

            register_vector(conn)
            # filtered HNSW scans go on until they have enough rows (pgvector >= 0.8)
            conn.execute("SET hnsw.iterative_scan = relaxed_order")
            conn.execute(sql.SQL("SET hnsw.ef_search = {}").format(sql.Literal(_EF_SEARCH)))
        with self._tx():
            missing = self._settle(capacity, retention, seed, write=False)
        if missing:
            with self._tx(lock=True):
                self._settle(capacity, retention, seed, write=True)

    def _set_search_path(self) -> None:
        sql = self._pg.sql
        self._cx.execute(sql.SQL("SET search_path TO {}, public").format(sql.Identifier(self.schema)))

    def _take_writer_lock(self) -> bool:
        """A shared session lock held while open; whether no other writer held one (like SQLite's flock)."""
        key = f"{self._lock_key}:writers"
        conn = self._cx
        alone = bool(self._scalar("SELECT pg_try_advisory_lock(hashtext(%s))", (key,)))
        conn.execute("SELECT pg_advisory_lock_shared(hashtext(%s))", (key,))
        if alone:
            conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (key,))
        return alone

    def _applied(self) -> set[int]:
        table = self._cx.execute(
            "SELECT 1 FROM information_schema.tables WHERE table_schema = %s AND table_name = 'migrations'",
            (self.schema,),
        ).fetchone()
        if table is None:
            return set()
        return {int(row[0]) for row in self._cx.execute("SELECT version FROM migrations")}

    def _wanted_migrations(self) -> list[tuple[int, str, str]]:
        return [*MIGRATIONS, PGVECTOR_MIGRATION] if self.has_pgvector else list(MIGRATIONS)

    def _migrate(self) -> None:
        conn = self._cx
        tables = {
            str(row[0])
            for row in conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = %s", (self.schema,)
            )
        }
        if tables and "migrations" not in tables:
            raise StoreError(
                f"schema {self.schema} at {self.path} holds tables of its own ({', '.join(sorted(tables)[:5])}) "
                "and no countermem migrations; it was not changed. Give another ?schema= or database"
            )
        conn.execute(
            "CREATE TABLE IF NOT EXISTS migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
            "applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        applied = self._applied()
        self._refuse_unknown(applied)
        for version, name, script in self._wanted_migrations():
            if version in applied:
                continue
            for statement in script.split(";"):
                if statement.strip():
                    conn.execute(statement)  # fixed text above
            conn.execute("INSERT INTO migrations (version, name) VALUES (%s, %s)", (version, name))

    def _refuse_unknown(self, applied: set[int]) -> None:
        known = {version for version, _, _ in (*MIGRATIONS, PGVECTOR_MIGRATION)}
        if applied - known:
            raise StoreError(
                f"{self.path} has store migrations {sorted(applied - known)} this countermem does not know; "
                "open it with the countermem that wrote it"
            )

    def _check_migrated(self) -> None:
        applied = self._applied()
        self._refuse_unknown(applied)
        needed = {version for version, _, _ in MIGRATIONS}
        if not needed <= applied:
            raise StoreError(
                f"{self.path} is not a complete memory store (migrations {sorted(applied)} of "
                f"{sorted(needed)}); open it once for writing to migrate it"
            )
        if self.has_pgvector and PGVECTOR_MIGRATION[0] not in applied:
            self.has_pgvector = False  # a reader leaves the schema as it is

    def _settle(
        self, capacity: int | None, retention: str | RetentionRule | None, seed: int | None, *, write: bool
    ) -> list[str]:
        """Read the settings, refuse a change while other writers are open; the keys that need writing."""
        return self._settle_settings(self._meta(), capacity, retention, seed, write=write)

    def _write_meta(self, key: str, value: str) -> None:
        self._cx.execute(
            "INSERT INTO meta (key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            (key, value),
        )

    # --- connection and transactions -----------------------------------------------------------

    @property
    def _cx(self) -> psycopg.Connection[Any]:
        if self._conn is None:
            raise StoreError(f"the store {self.path} is closed; open it again")
        return self._conn

    @contextlib.contextmanager
    def _tx(self, *, lock: bool = False) -> Iterator[psycopg.Connection[Any]]:
        """One transaction; with `lock`, under the store's advisory lock (admissions, evictions,
        migrations: whatever must see and change the set of live records as one step)."""
        conn = self._cx
        with self._errors(), conn.transaction():
            if lock:
                conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self._lock_key,))
            yield conn

    @contextlib.contextmanager
    def _errors(self) -> Iterator[None]:
        """psycopg's errors as `StoreError`s that say what to do."""
        pg = self._pg
        try:
            yield
        except (pg.errors.LockNotAvailable, pg.errors.QueryCanceled) as error:
            raise StoreError(
                f"another writer held the memory store {self.path} for longer than {self.busy_timeout:g} s "
                f"({_first_line(error)}); retry, or open the store with a longer busy_timeout"
            ) from error
        except pg.errors.CheckViolation as error:
            raise StoreError(
                f"cannot update counters in {self.path}: succeeded and harmed count outcomes of selected uses "
                "and cannot exceed selected; count the selection first"
            ) from error
        except pg.OperationalError as error:
            raise StoreError(
                f"the Postgres store {self.path} failed: {_first_line(error)}; check that the server is up"
            ) from error
        except pg.Error as error:
            raise StoreError(f"writing to the memory store {self.path} failed: {_first_line(error)}") from error

    def _scalar(self, query: Any, params: Any = None) -> Any:
        row = self._cx.execute(query, params).fetchone()
        if row is None:
            raise StoreError(f"the Postgres store {self.path} returned no row for a query that always has one")
        return row[0]

    def _bump(self, *, keys: bool = True) -> None:
        """Tell other writers something changed (last statement of a write, so the row is held briefly);
        `keys`: records came, went or changed their key text (not only their counters)."""
        if keys:
            self._cx.execute("UPDATE changes SET n = n + 1, k = k + 1")
        else:
            self._cx.execute("UPDATE changes SET n = n + 1")

    def change_number(self) -> int:
        """A number every committed write changes; equal numbers mean nothing was written between."""
        with self._mutex:
            return int(self._scalar("SELECT n FROM changes"))

    def key_change_number(self) -> int:
        """A number that changes when records are admitted, evicted or revised, not when only their
        counters move: what retrieval's keys depend on."""
        with self._mutex:
            return int(self._scalar("SELECT k FROM changes"))

    # --- the records held in memory ------------------------------------------------------------

    def _loaded(self) -> dict[str, Record]:
        """The live records, loaded on first need and brought up to date with other writers."""
        if self._records is None:
            self._records = {}
            self._versions = {}
            self._changes = -1
        self._sync()
        return self._records

    def _sync(self) -> None:
        if self._records is None:
            return
        conn = self._cx
        if conn.info.transaction_status != self._pg.pq.TransactionStatus.IDLE:
            self._take_in_changes()
            return
        if int(self._scalar("SELECT n FROM changes")) == self._changes:
            return
        with self._tx():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            self._take_in_changes()

    def _take_in_changes(self) -> None:
        conn = self._cx
        held = self._records
        assert held is not None
        self._changes = int(self._scalar("SELECT n FROM changes"))

        def bodies(ids: list[str]) -> Iterable[tuple[Any, Any]]:
            return conn.execute("SELECT id, body::text FROM records WHERE id = ANY(%s)", (ids,))

        self._records = dict(self._take_in(bodies, held.get))
        capacity = conn.execute("SELECT value FROM meta WHERE key = 'capacity'").fetchone()
        if capacity is not None:
            self._capacity = int(capacity[0])

    def _remember(self, record: Record) -> None:
        if self._records is not None:
            self._records[record.id] = record
            self._versions[record.id] = record.version

    def _forget(self, record_id: str) -> None:
        if self._records is not None:
            self._records.pop(record_id, None)
            self._versions.pop(record_id, None)
        if self._index is not None and record_id in self._index:
            self._index.remove(record_id)

    # --- lifecycle -----------------------------------------------------------------------------

    def close(self) -> None:
        with self._mutex:
            if self._conn is not None:
                with contextlib.suppress(Exception):
                    self._conn.close()
                self._conn = None

    @property
    def closed(self) -> bool:
        return self._conn is None

    @property
    def in_memory(self) -> bool:
        return False

    # --- scopes and retirement ----------------------------------------------------------------

    @property
    def _scopes(self) -> list[str] | None:
        """The readable scopes as a query parameter (None: every scope)."""
        return None if self.access is None else sorted(self.access.readable)

    def _live(self) -> list[Record]:
        return [r for r in self._loaded().values() if r.live and self._may_read(r)]

    def _retired_records(self) -> list[Record]:
        return [r for r in self._loaded().values() if not r.live and self._may_read(r)]

    @locked
    def __contains__(self, record_id: object) -> bool:
        """Whether the record is stored, live or retired (and readable by this object)."""
        if not isinstance(record_id, str) or record_id in self._quarantined:
            return False
        if self._records is not None:
            found = self._loaded().get(record_id)
            return found is not None and self._may_read(found)
        row = self._cx.execute(
            "SELECT 1 FROM records WHERE id = %s AND (%s::text[] IS NULL OR scope = ANY(%s))",
            (record_id, self._scopes, self._scopes),
        ).fetchone()
        return row is not None

    # --- reading -------------------------------------------------------------------------------

    def _find(self, record_id: str) -> Record | None:
        if self._records is not None:
            found = self._loaded().get(record_id)
        else:
            row = self._cx.execute("SELECT body::text FROM records WHERE id = %s", (record_id,)).fetchone()
            found = None if row is None else self._parse_row(record_id, str(row[0]))
        return None if found is None or not self._may_read(found) else found

    def _rows(self, query: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self._cx.execute(query, tuple(params)).fetchall()

    @contextlib.contextmanager
    def _snapshot(self) -> Iterator[None]:
        with self._tx() as conn:
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            yield

    def _visible_evictions(
        self, columns: str, where: str = "", params: Sequence[Any] = (), *, newest_first: bool = False
    ) -> list[tuple[Any, ...]]:
        """Filtered on the server by the scope each logged body names."""
        scope = "(%s::text[] IS NULL OR coalesce(body ->> 'scope', 'default') = ANY(%s))"
        query = (
            f"SELECT {columns} FROM evictions WHERE {f'{where} AND ' if where else ''}{scope} "
            f"ORDER BY seq{' DESC' if newest_first else ''}"
        )
        return self._rows(query, (*params, self._scopes, self._scopes))

    def _evictions_by_reason(self) -> dict[str, int]:
        return {
            str(k): int(v)
            for k, v in self._cx.execute(
                "SELECT reason, COUNT(*) FROM evictions WHERE %s::text[] IS NULL OR "
                "coalesce(body ->> 'scope', 'default') = ANY(%s) GROUP BY reason ORDER BY 1",
                (self._scopes, self._scopes),
            )
        }

    @locked
    def get_many(self, record_ids: Sequence[str]) -> dict[str, Record]:
        """The live records among `record_ids` (one query when they are not held in memory)."""
        if self._records is not None:
            held = self._loaded()
            pairs = [(i, held[i]) for i in record_ids if i in held]
        else:
            rows = self._cx.execute("SELECT id, body::text FROM records WHERE id = ANY(%s)", (list(record_ids),))
            parsed = [(str(i), self._parse_row(str(i), str(body))) for i, body in rows]
            pairs = [(i, r) for i, r in parsed if r is not None]
        return {i: r for i, r in pairs if r.live and self._may_read(r)}

    # --- writing -------------------------------------------------------------------------------

    @locked
    def add(self, record: Record) -> list[EvictionEvent]:
        """Admit `record`, then evict by the retention rule while its scope is over capacity (one transaction).

        Only the live records of `record`'s scope are counted and are candidates (`plan_evictions`),
        so an admission never evicts another scope's record. A record whose id is stored already
        (live or retired) is not stored again and nothing is evicted.
        """
        self._require_writable()
        self._require_record(record)
        self._refuse_foreign_scope(record)
        if record.id in self._quarantined:
            raise StoreError(
                f"record {record.id} is already stored, but quarantined (it does not parse: "
                f"{self._quarantined[record.id]}); it cannot be replaced in this store, so add the record "
                "to a new one"
            )
        events: list[EvictionEvent] = []
        try:
            with self._tx(lock=True) as conn:
                inserted = conn.execute(
                    f"INSERT INTO records ({_COLUMNS}) VALUES ({_VALUES}) ON CONFLICT (id) DO NOTHING RETURNING seq",
                    _record_params(record),
                ).fetchone()
                if inserted is None:
                    return []
                count = int(self._scalar(
                    "SELECT COUNT(*) FROM records WHERE scope = %s AND status = 'live'", (record.scope,)
                ))
                if count > self._capacity:
                    events = self._evict_to_capacity(record)
                self._bump()
        except BaseException:
            self._index = None
            if self._records is not None:
                self._changes = -1  # re-read on next use: the transaction's reads were rolled back
            raise
        self._remember(record)
        if self._index is not None and record.live and record.id not in self._index:
            self._index.add(record)
        for event in events:
            self._forget(event.record_id)
        return events

    @locked
    def add_or_merge(self, record: Record) -> MergeOutcome:
        """Admit `record`, or merge it with the equivalent live records of its scope, as `SQLiteStore`
        does (`countermem.memory._merge`): one transaction under the store lock, the members' rows
        locked (`FOR UPDATE`) so that the summed counters lose no concurrent increment."""
        self._require_writable()
        self._require_record(record)
        self._refuse_foreign_scope(record)
        key = merge_key(record)
        if key is None or record.id in self:
            return MergeOutcome(evictions=self.add(record))
        group: MergeGroup | None = None
        with self._tx(lock=True):
            equivalent = [r for r in self._locked_fresh(self._live()) if merge_key(r) == key]
            if equivalent:
                group = merge_groups([*equivalent, record])[0]
                new = merged_record(group)
                if group.kept.id == record.id:
                    self._cx.execute(
                        f"INSERT INTO records ({_COLUMNS}) VALUES ({_VALUES})", _record_params(new)
                    )
                elif not self._write_over(group.kept, new):
                    raise StoreError(f"record {group.kept.id} changed underneath a merge; retry it")
                events = [self._log_merged(r, new.id) for r in group.merged]
                self._bump()
        if group is None:
            return MergeOutcome(evictions=self.add(record))
        for other in group.merged:
            self._forget(other.id)
        self._replaced(new)
        return MergeOutcome.of_merge(record, group, new, events)

    @locked
    def merge(self, *, dry_run: bool = False) -> list[MergeGroup]:
        """Merge every group of equivalent records of this object's own scope (every scope, each
        apart, for the owner's view) in one transaction; the plan, unchanged, with `dry_run`."""
        own = [r for r in self._live() if self.access is None or r.scope == self.access.own]
        if dry_run:
            return merge_groups(own)
        self._require_writable()
        done: list[tuple[MergeGroup, Record]] = []
        with self._tx(lock=True):
            for group in merge_groups(self._locked_fresh(own)):
                new = merged_record(group)
                if not self._write_over(group.kept, new):
                    raise StoreError(f"record {group.kept.id} changed underneath a merge; retry it")
                for other in group.merged:
                    self._log_merged(other, new.id)
                done.append((group, new))
            if done:
                self._bump()
        for group, new in done:
            for other in group.merged:
                self._forget(other.id)
            self._replaced(new)
        return [MergeGroup(new, group.merged) for group, new in done]

    def _locked_fresh(self, records: Sequence[Record]) -> list[Record]:
        """Inside a transaction: the current live versions of `records`, their rows locked."""
        rows = self._cx.execute(
            "SELECT id, body::text FROM records WHERE id = ANY(%s) AND status = 'live' ORDER BY seq FOR UPDATE",
            ([r.id for r in records],),
        ).fetchall()
        fresh = [self._parse_row(str(i), str(body)) for i, body in rows]
        return [r for r in fresh if r is not None]

    def _log_merged(self, record: Record, into: str) -> EvictionEvent:
        """Log a merged member in the eviction log (rule `merge`); a stored one leaves `records`."""
        reason = f"merged into {into}"
        if self._current_version(record.id) is not None:
            return self._log_eviction(record.id, "merge", reason, {})
        at = utc_now()
        self._cx.execute(
            "INSERT INTO evictions (record_id, rule, reason, scores, at, version, body) "
            "VALUES (%s, 'merge', %s, '{}'::jsonb, %s, %s, %s::jsonb)",
            (record.id, reason, at.isoformat(), record.version, record.model_dump_json()),
        )
        return EvictionEvent(record_id=record.id, rule="merge", reason=reason, scores={}, at=at, version=record.version)

    def _evict_to_capacity(self, record: Record) -> list[EvictionEvent]:
        """Evict `plan_evictions`' victims (live records of `record`'s scope, `record` included) until
        the scope fits; inside the admission's transaction, so the rows are current."""
        records = self._loaded()
        index: ScopedRedundancyIndex | None = None
        if self._rule.needs_redundancy:
            if self._index is None:
                self._index = ScopedRedundancyIndex(r for r in records.values() if r.live)
            index = self._index
            if record.id not in index:
                index.add(record)
        planned = plan_evictions(
            self._rule,
            [r for r in records.values() if r.id != record.id],
            record,
            self._capacity,
            seed=self._seed,
            evicted_before=int(self._scalar("SELECT COUNT(*) FROM evictions")),
            index=index,
        )
        return [
            self._log_eviction(victim.id, self._rule.name, reason, scores)
            for victim, (_, reason, scores) in planned
        ]

    def _log_eviction(self, record_id: str, rule: str, reason: str, scores: dict[str, float]) -> EvictionEvent:
        """Delete the row and log the body it had at that moment (counts other writers added included)."""
        at = utc_now()
        row = self._cx.execute(
            "WITH gone AS (DELETE FROM records WHERE id = %s RETURNING id, version, body) "
            "INSERT INTO evictions (record_id, rule, reason, scores, at, version, body) "
            "SELECT id, %s, %s, %s::jsonb, %s, version, body FROM gone RETURNING version",
            (record_id, rule, reason, json.dumps(scores), at.isoformat()),
        ).fetchone()
        if row is None:
            raise StoreError(f"record {record_id} vanished from {self.path} while it was being evicted")
        return EvictionEvent(record_id=record_id, rule=rule, reason=reason, scores=scores, at=at, version=int(row[0]))

    def _evict(self, record_id: str, reason: str) -> EvictionEvent:
        with self._tx(lock=True):
            exists = self._cx.execute(
                "SELECT 1 FROM records WHERE id = %s AND (%s::text[] IS NULL OR scope = ANY(%s))",
                (record_id, self._scopes, self._scopes),
            ).fetchone()
            if exists is None or record_id in self._quarantined:
                raise StoreError(f"no record {record_id!r} in {self.path}; `countermem memory list` shows the ids")
            event = self._log_eviction(record_id, "manual", reason, {})
            self._bump()
        self._forget(record_id)
        return event

    def _add_counts(self, record_id: str, counts: CountIncrements) -> Record:
        """On the server (`selected = selected + n`), the old version copied to `record_history` and
        any retirement by use done by the same statement (so in the same version and transaction)."""
        retrieved, selected, succeeded, harmed, at = counts
        if min(retrieved, selected, succeeded, harmed) < 0:
            raise StoreError(f"cannot update counters of {record_id}: reuse counters only grow; got a negative increment")
        any_use = bool(retrieved or selected or succeeded or harmed)
        stamp = ReuseCounters(last_used_at=at or utc_now()).model_dump(mode="json")["last_used_at"]
        rule = self.retire_by_use
        with self._errors():  # one statement, so one transaction and one round trip
            row = self._cx.execute(_COUNT_SQL, {
                "id": record_id, "r": retrieved, "s": selected, "ok": succeeded, "h": harmed,
                "used": any_use, "at": stamp, "now": utc_now().isoformat(), "scopes": self._scopes,
                "retire": rule is not None, "rate": rule.harm_rate if rule else 1.0,
                "rate_text": f"{rule.harm_rate:g}" if rule else "1", "min_uses": rule.min_uses if rule else 1,
            }).fetchone()
        if row is None:
            raise StoreError(f"no record {record_id!r} in {self.path}; `countermem memory list` shows the ids")
        new = parse_body(str(row[0]), f"record {record_id}")
        if row[1]:
            logger.info("record %s in %s is retired: %s", record_id, self.path, new.retired_reason)
        self._replaced(new)
        return new

    def _retire(self, record_id: str, reason: str, expected_version: int | None) -> Record:
        def retired(old: Record) -> Record:
            if not old.live:
                raise StoreError(f"record {record_id} is already retired ({old.retired_reason})")
            return _retired(old, reason)

        return self._with_retries(record_id, expected_version, retired)

    @locked
    def revise(self, record_id: str, *, expected_version: int | None = None, **changes: Any) -> Record:
        """Change a record's fields; stores a new version over exactly the one read (see the module docstring)."""
        self._require_writable()

        return self._with_retries(record_id, expected_version, lambda old: self._revised(record_id, old, changes))

    def _with_retries(
        self, record_id: str, expected_version: int | None, change: Callable[[Record], Record]
    ) -> Record:
        """Apply `change` over the version read; redo it on a newer one unless `expected_version` was given."""
        for _ in range(20):
            try:
                new = self._rewrite(record_id, expected_version, change)
            except _StaleVersion:
                if expected_version is not None:
                    raise self._stale(record_id, expected_version, self._current_version(record_id)) from None
                continue
            self._replaced(new)
            return new
        raise StoreError(f"record {record_id} kept changing underneath this revision; retry it")

    def _current_version(self, record_id: str) -> int | None:
        row = self._cx.execute("SELECT version FROM records WHERE id = %s", (record_id,)).fetchone()
        return None if row is None else int(row[0])

    def _rewrite(self, record_id: str, expected_version: int | None, change: Callable[[Record], Record]) -> Record:
        """One optimistic write: read the row, compute the next version, write it only over the one read."""
        with self._tx() as conn:
            row = conn.execute("SELECT body::text FROM records WHERE id = %s", (record_id,)).fetchone()
            old = None if row is None else self._parse_row(record_id, str(row[0]))
            if old is None or not self._may_read(old):
                raise StoreError(f"no record {record_id!r} in {self.path}; `countermem memory list` shows the ids")
            if expected_version is not None and old.version != expected_version:
                raise _StaleVersion
            new = change(old)
            if not self._write_over(old, new):
                raise _StaleVersion
            self._bump()
        return new

    def _write_over(self, old: Record, new: Record) -> bool:
        """Inside a transaction: keep `old` in `record_history` and store `new` only over `old`'s
        version (whether it was still there); the key embedding is made again."""
        conn = self._cx
        conn.execute(
            "INSERT INTO record_history (id, version, replaced_at, body) VALUES (%s, %s, %s, %s::jsonb)",
            (old.id, old.version, utc_now().isoformat(), old.model_dump_json()),
        )
        fields = body_fields(new.model_dump_json())
        changed = conn.execute(
            "UPDATE records SET domain = %s, benchmark = %s, version = %s, utility_gain = %s, condition = %s, "
            "status = %s, retrieved = %s, selected = %s, succeeded = %s, harmed = %s, body = %s::jsonb "
            "WHERE id = %s AND version = %s",
            (
                new.domain, new.benchmark, new.version, new.utility_gain, fields["condition"], fields["status"],
                fields["retrieved"], fields["selected"], fields["succeeded"], fields["harmed"],
                new.model_dump_json(), old.id, old.version,
            ),
        ).rowcount
        conn.execute("DELETE FROM record_keys WHERE id = %s", (old.id,))
        return changed == 1

    def _replaced(self, new: Record) -> None:
        old = self._records.get(new.id) if self._records is not None else None
        self._remember(new)
        self._reindex(old, new)

    # --- copies --------------------------------------------------------------------------------

    @locked
    def freeze(self, path: str | Path) -> FrozenSnapshot:
        """A frozen SQLite snapshot of this store (a server database cannot be frozen in place)."""
        target = self._freeze_target(path)
        rows = self.dump_rows()
        with (
            tempfile.TemporaryDirectory(dir=target.parent, prefix=f".{target.name}.") as folder,
            SQLiteStore(Path(folder) / "copy.sqlite", retention=self._rule) as copy,
        ):
            copy.load_rows(rows)
            return copy.freeze(target)

    @locked
    def content_sha256(self) -> str:
        """sha256 of the live records (ids and bodies as canonical JSON, in admission order): what a
        stage manifest pins for a server store, which has no file to hash."""
        digest = hashlib.sha256()
        for record_id, body in self._cx.execute("SELECT id, body::text FROM records ORDER BY seq"):
            canonical = json.dumps(json.loads(str(body)), sort_keys=True, separators=(",", ":"))
            digest.update(f"{record_id}\t{canonical}\n".encode())
        return digest.hexdigest()

    @locked
    def load_rows(self, rows: StoreRows) -> None:
        """Fill this empty store with `rows` (settings included); refused when it holds anything."""
        self._require_writable()
        with self._tx(lock=True) as conn:
            if (
                self._scalar("SELECT (SELECT COUNT(*) FROM records) + (SELECT COUNT(*) FROM record_history) "
                             "+ (SELECT COUNT(*) FROM evictions)")
            ):
                raise StoreError(f"{self.path} is not empty; copy into a new store (another ?schema= or database)")
            with conn.cursor() as cursor:
                cursor.executemany(
                    f"INSERT INTO records ({_COLUMNS}) VALUES ({_VALUES})",
                    [_row_params(row.id, row.body) for row in rows.records],
                )
                cursor.executemany(
                    "INSERT INTO record_history (id, version, replaced_at, body) VALUES (%s, %s, %s, %s::jsonb)",
                    [(h.id, h.version, h.replaced_at, h.body) for h in rows.history],
                )
                cursor.executemany(
                    "INSERT INTO evictions (record_id, rule, reason, scores, at, version, body) "
                    "VALUES (%s, %s, %s, %s::jsonb, %s, %s, %s::jsonb)",
                    [
                        (e.record_id, e.rule, e.reason, e.scores, e.at, body_fields(e.body)["version"], e.body)
                        for e in rows.evictions
                    ],
                )
            for key, value in rows.meta.items():
                if key not in NOT_COPIED_META:
                    self._write_meta(key, value)
            self._bump()
            self._settle(None, None, None, write=True)
        self._records = None
        self._index = None
        self._quarantined = {}
        self._quarantined_scope = {}

    # --- key embeddings for ServerRetriever ----------------------------------------------------

    @locked
    def ids_without_key(self, embedder: str) -> list[str]:
        """Live records this object may read with no key embedding for `embedder` yet (new, or revised since)."""
        column = "k.embedding" if self.has_pgvector else "k.vector"
        query = (
            "SELECT r.id FROM records r LEFT JOIN record_keys k ON k.id = r.id AND k.embedder = %s "
            f"WHERE (k.id IS NULL OR {column} IS NULL) AND r.status = 'live' "
            "AND (%s::text[] IS NULL OR r.scope = ANY(%s)) ORDER BY r.seq"
        )
        return [str(row[0]) for row in self._cx.execute(query, (embedder, self._scopes, self._scopes))]

    @locked
    def put_keys(self, embedder: str, records: Sequence[Record], vectors: np.ndarray[Any, Any]) -> None:
        """Store unit key vectors (one row per record); with pgvector, in an HNSW-indexed column too."""
        if not records:
            return
        dim = int(vectors.shape[1])
        rows = []
        for record, vector in zip(records, vectors, strict=True):
            row: tuple[Any, ...] = (
                record.id, embedder, dim, record.domain, record.benchmark, record.condition.canonical,
                record.scope, record.utility_gain, np.asarray(vector, dtype=np.float32).tobytes(),
            )
            rows.append((*row, np.asarray(vector, dtype=np.float32)) if self.has_pgvector else row)
        columns = "id, embedder, dim, domain, benchmark, condition, scope, gain, vector"
        values = "%s, %s, %s, %s, %s, %s, %s, %s, %s"
        update = "dim = EXCLUDED.dim, condition = EXCLUDED.condition, gain = EXCLUDED.gain, vector = EXCLUDED.vector"
        if self.has_pgvector:
            columns += ", embedding"
            values += ", %s"
            update += ", embedding = EXCLUDED.embedding"
        query = (
            f"INSERT INTO record_keys ({columns}) SELECT * FROM (VALUES ({values})) AS v "
            f"WHERE EXISTS (SELECT 1 FROM records WHERE id = v.column1 AND status = 'live') "
            f"ON CONFLICT (id, embedder) DO UPDATE SET {update}"
        )
        with self._tx(), self._cx.cursor() as cursor:
            cursor.executemany(query, rows)

    @locked
    def ensure_key_index(self, embedder: str, dim: int) -> None:
        """With pgvector, the HNSW index over `embedder`'s keys (built once, after the first keys are
        in, so a large store is indexed in bulk rather than row by row); nothing without pgvector."""
        if not self.has_pgvector:
            return
        sql = self._pg.sql
        name = f"record_keys_hnsw_{re.sub(r'[^a-z0-9]', '_', embedder.lower())}_{dim}"
        statement = sql.SQL(
            "CREATE INDEX IF NOT EXISTS {} ON record_keys USING hnsw ((embedding::vector({})) vector_cosine_ops) "
            "WHERE embedder = {} AND dim = {}"
        ).format(sql.Identifier(name), sql.Literal(dim), sql.Literal(embedder), sql.Literal(dim))
        if (embedder, dim) in self._hnsw:
            return
        with contextlib.suppress(StoreError), self._tx(lock=True):
            self._cx.execute(statement)
        self._hnsw.add((embedder, dim))

    @locked
    def key_conditions(self, embedder: str, domain: str, benchmark: str | None) -> dict[str, int]:
        """Distinct conditions of the keyed records in a pool and how many records carry each."""
        rows = self._cx.execute(
            "SELECT condition, COUNT(*) FROM record_keys WHERE embedder = %s AND domain = %s "
            "AND (%s::text IS NULL OR benchmark = %s) AND (%s::text[] IS NULL OR scope = ANY(%s)) GROUP BY condition",
            (embedder, domain, benchmark, benchmark, self._scopes, self._scopes),
        )
        return {str(condition): int(n) for condition, n in rows}

    @locked
    def nearest_keys(
        self,
        embedder: str,
        vector: np.ndarray[Any, Any],
        *,
        domain: str,
        benchmark: str | None,
        conditions: Sequence[str],
        limit: int,
        gain_weight: float = 0.0,
    ) -> list[tuple[str, float, float]]:
        """(id, cosine similarity, gain) of the closest keyed records whose condition is one of
        `conditions`: pgvector's HNSW index with iterative scan where the database has it (so the
        filter still yields `limit` rows; approximate, by distance alone), else every matching key
        ranked here exactly as `Retriever` ranks (float64 cosine plus `gain_weight` times the gain,
        ties by the record's stable key)."""
        dim = int(vector.shape[0])
        query_vector = np.asarray(vector, dtype=np.float32)
        if self.has_pgvector:
            # filters as literals, and only those that apply, so that the planner sees their real
            # selectivity and keeps the HNSW index scan (a generic "$1 IS NULL OR ..." hides it)
            sql = self._pg.sql
            where = [
                sql.SQL("embedder = {}").format(sql.Literal(embedder)),
                sql.SQL("dim = {}").format(sql.Literal(dim)),
                sql.SQL("domain = {}").format(sql.Literal(domain)),
                sql.SQL("condition = ANY({})").format(sql.Literal(list(conditions))),
            ]
            if benchmark is not None:
                where.append(sql.SQL("benchmark = {}").format(sql.Literal(benchmark)))
            if self._scopes is not None:
                where.append(sql.SQL("scope = ANY({})").format(sql.Literal(self._scopes)))
            statement = sql.SQL(
                "SELECT id, 1 - (embedding::vector({dim}) <=> %s::vector({dim})), gain FROM record_keys "
                "WHERE {where} ORDER BY embedding::vector({dim}) <=> %s::vector({dim}) LIMIT {limit}"
            ).format(dim=sql.Literal(dim), where=sql.SQL(" AND ").join(where), limit=sql.Literal(limit))
            params = (query_vector, query_vector)
            if limit <= _EF_SEARCH:  # the session's settings (see _setup): one round trip
                with self._errors():
                    rows = self._cx.execute(statement, params).fetchall()
            else:
                with self._tx() as conn:
                    conn.execute(sql.SQL("SET LOCAL hnsw.ef_search = {}").format(sql.Literal(limit)))
                    rows = conn.execute(statement, params).fetchall()
            return [(str(i), float(s), float(g)) for i, s, g in rows]
        fetched = self._cx.execute(
            "SELECT id, gain, vector FROM record_keys WHERE embedder = %s AND dim = %s AND domain = %s "
            "AND (%s::text IS NULL OR benchmark = %s) AND (%s::text[] IS NULL OR scope = ANY(%s)) "
            "AND condition = ANY(%s)",
            (embedder, dim, domain, benchmark, benchmark, self._scopes, self._scopes, list(conditions)),
        ).fetchall()
        if not fetched:
            return []
        matrix = np.frombuffer(b"".join(bytes(row[2]) for row in fetched), dtype=np.float32).reshape(len(fetched), dim)
        sims = (matrix.astype(np.float64) * query_vector.astype(np.float64)).sum(axis=1)
        gains = np.array([float(row[1]) for row in fetched])
        keys = np.array([_stable_key(str(row[0])) for row in fetched], dtype=np.uint64)
        top = np.lexsort((keys, -(sims + gain_weight * gains)))[:limit]
        return [(str(fetched[i][0]), float(sims[i]), float(gains[i])) for i in top.tolist()]


_COUNT_SQL = """
WITH old AS (
    SELECT id, version, body, status, selected, harmed FROM records
    WHERE id = %(id)s AND (%(scopes)s::text[] IS NULL OR scope = ANY(%(scopes)s)) FOR UPDATE
), crossing AS (
    SELECT id, selected + %(s)s AS sel, harmed + %(h)s AS harm,
        (%(retire)s AND status = 'live' AND selected + %(s)s >= %(min_uses)s
         AND (harmed + %(h)s)::float8 > %(rate)s::float8 * (selected + %(s)s)::float8 + 1e-9::float8) AS retiring
    FROM old
), kept AS (
    INSERT INTO record_history (id, version, replaced_at, body) SELECT id, version, %(now)s, body FROM old
), unkeyed AS (
    DELETE FROM record_keys WHERE id IN (SELECT id FROM crossing WHERE retiring)
), bumped AS (
    UPDATE changes SET n = n + 1, k = k + (SELECT CASE WHEN retiring THEN 1 ELSE 0 END FROM crossing)
    WHERE EXISTS (SELECT 1 FROM old)
)
UPDATE records r SET
    version = r.version + 1,
    retrieved = r.retrieved + %(r)s,
    selected = r.selected + %(s)s,
    succeeded = r.succeeded + %(ok)s,
    harmed = r.harmed + %(h)s,
    status = CASE WHEN c.retiring THEN 'retired' ELSE r.status END,
    body = r.body || jsonb_build_object(
        'version', r.version + 1,
        'counters', jsonb_build_object(
            'retrieved', r.retrieved + %(r)s,
            'selected', r.selected + %(s)s,
            'succeeded', r.succeeded + %(ok)s,
            'harmed', r.harmed + %(h)s,
            'last_used_at', CASE WHEN %(used)s THEN to_jsonb(%(at)s::text) ELSE r.body -> 'counters' -> 'last_used_at' END
        )
    ) || CASE WHEN c.retiring THEN jsonb_build_object(
        'status', 'retired',
        'retired_at', to_jsonb(%(at)s::text),
        'retired_reason', format(
            'retired by use: harmed %%s of %%s selected uses (%%s > retire_harm_rate %%s after at least %%s uses)',
            c.harm, c.sel, to_char((round(c.harm::float8 / c.sel::float8 * 100) / 100)::numeric, 'FM999990.00'),
            %(rate_text)s::text, %(min_uses)s
        )
    ) ELSE '{}'::jsonb END
FROM old JOIN crossing c ON c.id = old.id WHERE r.id = old.id
RETURNING r.body::text, c.retiring
"""
"""One counter update in one statement: the old version to history, the increments, retirement by
use (`RetireByUse.reason`'s test, in float8 as in Python, and its reason text) with the record's
key dropped from ranking, and the change numbers bumped."""


def _retired(old: Record, reason: str, at: datetime | None = None) -> Record:
    return old.marked_retired(reason, at).model_copy(update={"version": old.version + 1})


_COLUMNS = (
    "id, domain, benchmark, created_at, version, utility_gain, condition, scope, status, "
    "retrieved, selected, succeeded, harmed, body"
)
_VALUES = "%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::jsonb"


def _record_params(record: Record) -> tuple[Any, ...]:
    return _row_params(record.id, record.model_dump_json())


def _row_params(record_id: str, body: str) -> tuple[Any, ...]:
    f = body_fields(body)
    return (
        record_id, f["domain"], f["benchmark"], f["created_at"], f["version"], f["utility_gain"], f["condition"],
        f["scope"], f["status"], f["retrieved"], f["selected"], f["succeeded"], f["harmed"], body,
    )


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
