"""What the SQLite and Postgres stores share: settings, the records held in memory, and every read path.

Why one base class: the two backends differ in how rows are stored, locked and brought up to date
(one file under SQLite's write lock; a server under advisory locks, loaded lazily), not in what a
record, its history, the eviction log, the stats, an export or a copy's rows are. So each read
path exists once, here, over a small row-access interface each backend implements:

- `_PARAM`, `_TEXT`, `_EVICTED_VERSION`: its placeholder, the cast that reads a JSON column as text,
  and how an eviction row names the evicted version (the queries here are built from them);
- `_rows(query, params)`: run a read query; `_snapshot()`: one consistent view for several reads;
- `_find(record_id)`, `_live()`, `_retired_records()`: the readable records, up to date with other writers;
- `_visible_evictions(...)`, `_evictions_by_reason()`: the eviction log, filtered to the readable scopes;
- `_write_meta`, `close`, `_SCOPED_COPY` (why a scoped object copies nothing), and `_is_own_file`
  where a store is made of files.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import tempfile
import threading
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar, NamedTuple, Self, TypeVar, cast

from pydantic import ValidationError

from countermem.core import CountermemError, StoreError, clip_middle
from countermem.memory._record import Record
from countermem.memory._retention import (
    RetentionRule,
    ScopedRedundancyIndex,
    UtilityRetention,
    UtilityWeights,
    make_retention,
)
from countermem.memory._retire_by_use import RetireByUse
from countermem.memory._scope import DEFAULT_SCOPE, ScopeAccess
from countermem.memory._store_models import EvictionEvent, ReuseTotals, StoreStats
from countermem.memory._store_rows import NOT_COPIED_META, EvictionRow, HistoryRow, RecordRow, StoreRows

logger = logging.getLogger(__name__)

DEFAULT_CAPACITY = 200
SETTINGS = ("capacity", "retention", "retention_weights", "seed")
"""The meta keys every writer of one store must agree on."""
_QUARANTINE_REASON_LIMIT = 300

_Method = TypeVar("_Method", bound=Callable[..., Any])


def locked(method: _Method) -> _Method:
    """Run the method holding the store object's lock (a store object may be shared by threads)."""

    @functools.wraps(method)
    def wrapper(self: StoreBase, *args: Any, **kwargs: Any) -> Any:
        with self._mutex:
            return method(self, *args, **kwargs)

    return cast(_Method, wrapper)


class CountIncrements(NamedTuple):
    """What one `update_counters` call adds (`at`: when the use was; None is now)."""

    retrieved: int
    selected: int
    succeeded: int
    harmed: int
    at: datetime | None


class StoreBase(ABC):
    """The state and read paths both backends share; see the module docstring for the hooks."""

    _PARAM: ClassVar[str]
    """The query placeholder (`?` or `%s`)."""
    _TEXT: ClassVar[str]
    """Appended to a JSON column to read it as text (`""` or `::text`)."""
    _EVICTED_VERSION: ClassVar[str]
    """The expression that reads an eviction row's record version."""
    _SCOPED_COPY: ClassVar[str]
    """Why an object opened for some scopes cannot copy the store (`{path}`, `{scopes}` filled in)."""

    _capacity: int
    _rule: RetentionRule
    _seed: int

    retire_by_use: RetireByUse | None
    """This object's policy for counter updates (None retires nothing by use)."""

    def __init__(self, path: str, *, read_only: bool, access: ScopeAccess | None) -> None:
        if access is not None and not isinstance(access, ScopeAccess):
            raise StoreError(f"access must be a ScopeAccess, got {type(access).__name__}")
        self.access = access
        """The scopes this object shows and writes (None: every scope, the store owner's view)."""
        self.path = path
        self.read_only = read_only
        self.frozen = False
        self._mutex = threading.RLock()
        self._alone = True
        self._quarantined: dict[str, str] = {}
        self._quarantined_scope: dict[str, str | None] = {}
        self._versions: dict[str, int] = {}
        self._index: ScopedRedundancyIndex | None = None

    # --- what each backend supplies ------------------------------------------------------------

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def _rows(self, query: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one read query (built with `_PARAM` and `_TEXT`)."""

    @abstractmethod
    def _snapshot(self) -> contextlib.AbstractContextManager[object]:
        """Several reads that see one consistent state of the store."""

    @abstractmethod
    def _find(self, record_id: str) -> Record | None:
        """The record, live or retired, if it is stored and this object may read it."""

    @abstractmethod
    def _live(self) -> list[Record]:
        """The live records this object may read, in admission order, up to date with other writers."""

    @abstractmethod
    def _retired_records(self) -> list[Record]:
        """The retired records this object may read, in admission order."""

    @abstractmethod
    def _visible_evictions(
        self, columns: str, where: str = "", params: Sequence[Any] = (), *, newest_first: bool = False
    ) -> list[tuple[Any, ...]]:
        """`SELECT columns FROM evictions [WHERE where]` in log order, only the rows whose record this
        object may read."""

    @abstractmethod
    def _evictions_by_reason(self) -> dict[str, int]:
        """How many readable evictions each reason has, by reason."""

    @abstractmethod
    def _write_meta(self, key: str, value: str) -> None: ...

    @abstractmethod
    def _evict(self, record_id: str, reason: str) -> EvictionEvent:
        """Move a readable record to the eviction log with rule `manual` and `reason`, in one transaction."""

    @abstractmethod
    def _add_counts(self, record_id: str, counts: CountIncrements) -> Record:
        """Store the next version of a readable record with `counts` added (retired when it crosses
        `retire_by_use`), keeping the old one, so that no writer's increment is lost."""

    @abstractmethod
    def _retire(self, record_id: str, reason: str, expected_version: int | None) -> Record:
        """Store the retired next version of a readable live record, over the version read."""

    def _is_own_file(self, target: Path) -> bool:
        """Whether `target` is one of the files this store is made of (an export must not replace it)."""
        return False

    # --- lifecycle -----------------------------------------------------------------------------

    def __enter__(self) -> Self:
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

    # --- settings ------------------------------------------------------------------------------

    def _meta(self) -> dict[str, str]:
        return {str(k): str(v) for k, v in self._rows("SELECT key, value FROM meta")}

    def _settle_settings(
        self,
        stored: Mapping[str, str],
        capacity: int | None,
        retention: str | RetentionRule | None,
        seed: int | None,
        *,
        write: bool,
    ) -> list[str]:
        """Take the settings given, else the stored ones; refuse a change while other writers are
        open; the keys that need writing (written with `write`)."""
        self._capacity = capacity if capacity is not None else int(stored.get("capacity") or DEFAULT_CAPACITY)
        if self._capacity < 1:
            raise StoreError(f"store capacity must be at least 1, got {self._capacity}")
        self._rule = self._resolve_rule(retention, stored)
        self._seed = seed if seed is not None else int(stored.get("seed") or 0)
        if self.read_only:
            return []
        weights = self._rule.weights if isinstance(self._rule, UtilityRetention) else None
        wanted = {
            "capacity": str(self._capacity),
            "retention": self._rule.name,
            "retention_weights": json.dumps(weights.__dict__ if weights else None),
            "seed": str(self._seed),
        }
        changed = [key for key in SETTINGS if key in stored and stored[key] != wanted[key]]
        if changed and not self._alone:
            shown = ", ".join(f"{key} {stored[key]}" for key in changed)
            raise StoreError(
                f"{self.path} is open for writing elsewhere with {shown}; open it with the same "
                "settings (or none, to take the stored ones), or close the other writers to change them"
            )
        missing = [key for key in SETTINGS if stored.get(key) != wanted[key]]
        if write:
            for key in missing:
                self._write_meta(key, wanted[key])
        return missing

    def _resolve_rule(self, retention: str | RetentionRule | None, stored: Mapping[str, str]) -> RetentionRule:
        if retention is not None and not isinstance(retention, str):
            return retention
        try:
            if retention is not None:
                return make_retention(retention)
            raw_weights = json.loads(stored.get("retention_weights") or "null")
            weights = UtilityWeights(**raw_weights) if raw_weights else None
            return make_retention(stored.get("retention") or "utility", weights)
        except CountermemError as error:
            raise StoreError(f"{self.path}: {error}; pass the retention rule explicitly") from error

    # --- the records held in memory ------------------------------------------------------------

    def _parse_row(self, record_id: str, body: str) -> Record | None:
        """The stored body as a record, or None when it no longer parses (it is then quarantined)."""
        try:
            record = Record.model_validate_json(body)
        except (ValidationError, ValueError, RecursionError) as error:
            reason = why_unreadable(error)
            self._quarantined[record_id] = reason
            self._quarantined_scope[record_id] = raw_scope(body)
            logger.warning("record %s in %s cannot be read and is set aside: %s", record_id, self.path, reason)
            return None
        self._quarantined.pop(record_id, None)
        return record

    def _take_in(
        self,
        bodies: Callable[[list[str]], Iterable[tuple[Any, Any]]],
        previous: Callable[[str], Record | None],
    ) -> list[tuple[str, Record]]:
        """Bring the held versions, the quarantine and the redundancy index up to date with the rows
        stored now, parsing only the rows that are new or changed (`bodies` reads them by id);
        `previous` gives an unchanged record as held. The records, in admission order."""
        rows = [(str(i), int(v)) for i, v in self._rows("SELECT id, version FROM records ORDER BY seq")]
        changed = [record_id for record_id, version in rows if self._versions.get(record_id) != version]
        fresh: dict[str, Record | None] = {}
        if changed:
            for record_id, body in bodies(changed):
                fresh[str(record_id)] = self._parse_row(str(record_id), str(body))
        present = {record_id for record_id, _ in rows}
        gone = [record_id for record_id in self._versions if record_id not in present]
        records: list[tuple[str, Record]] = []
        for record_id, _ in rows:
            record = fresh[record_id] if record_id in fresh else previous(record_id)
            if record is not None:
                records.append((record_id, record))
        for record_id in gone:
            self._quarantined.pop(record_id, None)
        if self._index is not None:
            for record_id in gone:
                if record_id in self._index:
                    self._index.remove(record_id)
            for record_id, fresh_record in fresh.items():
                if fresh_record is not None and fresh_record.live:
                    self._index.add(fresh_record)
                elif record_id in self._index:
                    self._index.remove(record_id)
        self._versions = dict(rows)
        return records

    def _reindex(self, old: Record | None, new: Record) -> None:
        """Keep the redundancy index in line with a record's new version (`old`: the one held, if any)."""
        if self._index is None:
            return
        if not new.live:
            if new.id in self._index:
                self._index.remove(new.id)
        elif old is not None and (
            new.situation != old.situation
            or new.improved_action != old.improved_action
            or new.embedding != old.embedding
        ):
            self._index.add(new)

    @property
    def quarantined(self) -> dict[str, str]:
        """Records set aside because they no longer parse (of the scopes this object may read): id -> why.

        They stay stored untouched (an older or newer countermem may read them); this object neither
        offers nor counts them.
        """
        return {k: v for k, v in self._quarantined.items() if self._may_read_scope(self._quarantined_scope.get(k))}

    # --- scopes --------------------------------------------------------------------------------

    def _may_read_scope(self, scope: str | None) -> bool:
        return self.access is None or scope in self.access.readable

    def _may_read(self, record: Record) -> bool:
        return self.access is None or self.access.can_read(record)

    def _refuse_foreign_scope(self, record: Record) -> None:
        if self.access is not None and record.scope != self.access.own:
            raise StoreError(
                f"record {record.id} is of scope {record.scope!r}, but this store was opened to write "
                f"{self.access.describe()}; build the record with scope={self.access.own!r}, or open the "
                "store with that record's scope"
            )

    def _refuse_scoped_copy(self) -> None:
        """Refuse a copy of every scope from an object opened for some scopes only."""
        if self.access is not None:
            raise StoreError(self._SCOPED_COPY.format(path=self.path, scopes=self.access.describe()))

    # --- writing checks ------------------------------------------------------------------------

    def _require_writable(self) -> None:
        if self.frozen:
            raise StoreError(f"{self.path} is a frozen snapshot; it cannot change")
        if self.read_only:
            raise StoreError(f"{self.path} was opened read-only; open it without read_only=True to change it")

    @staticmethod
    def _require_record(record: object) -> None:
        if not isinstance(record, Record):
            raise StoreError(f"a store holds Record objects, got {type(record).__name__}")

    @staticmethod
    def _stale(record_id: str, expected_version: int, current: int | None) -> StoreError:
        return StoreError(
            f"record {record_id} was read at version {expected_version} but is now at version "
            f"{current} (another writer changed it); read it again and redo the change"
        )

    @staticmethod
    def _revised(record_id: str, old: Record, changes: dict[str, Any]) -> Record:
        try:
            return old.revised(**changes)
        except (ValueError, ValidationError) as error:
            raise StoreError(f"cannot revise {record_id}: {error}") from error

    # --- writing -------------------------------------------------------------------------------

    @locked
    def evict(self, record_id: str, reason: str) -> EvictionEvent:
        """Remove a record by hand; it is logged with rule `manual` and the reason given."""
        self._require_writable()
        if not reason.strip():
            raise StoreError("say why the record is evicted; the reason is kept in the eviction log")
        return self._evict(record_id, reason.strip())

    @locked
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

        The increments apply to the version current when they are written, so increments from any
        number of processes all count. A live record whose new counters cross the `retire_by_use`
        line is retired in the same version.
        """
        self._require_writable()
        return self._add_counts(record_id, CountIncrements(retrieved, selected, succeeded, harmed, at))

    @locked
    def retire(self, record_id: str, reason: str, *, expected_version: int | None = None) -> Record:
        """Retire a live record: a new version that is kept (with the reason) but never offered.

        Nothing is deleted: the previous version moves to `record_history`, and `retired()`,
        `get` and `memory list --retired` still show it. Retiring a retired record is refused, and
        with `expected_version` so is retiring a record another writer changed since.
        """
        self._require_writable()
        if not reason.strip():
            raise StoreError("say why the record is retired; the reason is kept with it")
        return self._retire(record_id, reason, expected_version)

    # --- reading -------------------------------------------------------------------------------

    @locked
    def __len__(self) -> int:
        return len(self._live())

    @locked
    def get(self, record_id: str) -> Record:
        """The record, live or retired."""
        record = self._find(record_id)
        if record is None:
            where = "" if self.access is None else f" readable in {self.access.describe()}"
            raise StoreError(
                f"no record {record_id!r}{where} in {self.path}; `countermem memory list` shows the ids"
            )
        return record

    @locked
    def all(self) -> list[Record]:
        """The live records (the ones that may be offered), in admission order."""
        return self._live()

    @locked
    def retired(self) -> list[Record]:
        """The retired records, in admission order: kept, never offered."""
        return self._retired_records()

    @locked
    def search(
        self, *, domain: str | None = None, benchmark: str | None = None, limit: int | None = None
    ) -> list[Record]:
        """Records in admission order, filtered by domain and benchmark (from memory: a quarantined
        row must not be offered)."""
        found = [
            r
            for r in self._live()
            if (domain is None or r.domain == domain) and (benchmark is None or r.benchmark == benchmark)
        ]
        return found if limit is None else found[:limit]

    @locked
    def history(self, record_id: str) -> list[Record]:
        """Every stored version of a record, oldest first, ending with the current one."""
        current = self.get(record_id)
        rows = self._rows(
            f"SELECT body{self._TEXT} FROM record_history WHERE id = {self._PARAM} ORDER BY seq", (record_id,)
        )
        older = [parse_body(str(row[0]), f"history of {record_id}") for row in rows]
        return [r for r in older if r.created_at == current.created_at] + [current]

    @locked
    def evictions(self) -> list[EvictionEvent]:
        rows = self._visible_evictions(f"record_id, rule, reason, scores{self._TEXT}, at, {self._EVICTED_VERSION}")
        return [
            EvictionEvent(
                record_id=str(record_id),
                rule=str(rule),
                reason=str(reason),
                scores=json.loads(scores),
                at=datetime.fromisoformat(str(at)),
                version=int(version),
            )
            for record_id, rule, reason, scores, at, version in rows
        ]

    @locked
    def evicted_record(self, record_id: str) -> Record:
        """The last evicted copy of a record, for a person asking what was dropped."""
        rows = self._visible_evictions(
            f"body{self._TEXT}", f"record_id = {self._PARAM}", (record_id,), newest_first=True
        )
        if not rows:
            raise StoreError(f"record {record_id!r} was never evicted from {self.path}")
        return parse_body(str(rows[0][0]), f"evicted record {record_id}")

    @locked
    def stats(self) -> StoreStats:
        records = self.all()
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
            evictions_by_reason=self._evictions_by_reason(),
            reuse=ReuseTotals(
                retrieved=sum(r.counters.retrieved for r in records),
                selected=sum(r.counters.selected for r in records),
                succeeded=sum(r.counters.succeeded for r in records),
                harmed=sum(r.counters.harmed for r in records),
            ),
            quarantined=self.quarantined,
            redactions=dict(sorted(sum((Counter(r.redactions) for r in records), Counter[str]()).items())),
            retired=len(self.retired()),
        )

    # --- copies --------------------------------------------------------------------------------

    @locked
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
        records = [*self._live(), *self._retired_records()]
        handle = tempfile.NamedTemporaryFile(  # noqa: SIM115 - renamed into place below
            "w", encoding="utf-8", dir=target.parent, prefix=f".{target.name}.", suffix=".partial", delete=False
        )
        try:
            with handle:
                for record in records:
                    handle.write(record.model_dump_json() + "\n")
            os.replace(handle.name, target)
        except BaseException:
            Path(handle.name).unlink(missing_ok=True)
            raise
        return len(records)

    @staticmethod
    def _freeze_target(path: str | Path) -> Path:
        target = Path(path)
        if target.exists():
            raise StoreError(f"{target} already exists; freeze to a new path (snapshots are never overwritten)")
        if not target.parent.is_dir():
            raise StoreError(f"cannot freeze to {target}: folder {target.parent} does not exist")
        return target

    @locked
    def dump_rows(self) -> StoreRows:
        """Everything stored, bodies as stored (a quarantined one too), in one consistent view, for
        `countermem memory copy`; the owner's view only."""
        self._refuse_scoped_copy()
        text = self._TEXT
        with self._snapshot():
            meta = {k: v for k, v in self._meta().items() if k not in NOT_COPIED_META}
            records = tuple(
                RecordRow(id=str(i), body=str(b))
                for i, b in self._rows(f"SELECT id, body{text} FROM records ORDER BY seq")
            )
            history = tuple(
                HistoryRow(id=str(i), version=int(v), replaced_at=str(t), body=str(b))
                for i, v, t, b in self._rows(
                    f"SELECT id, version, replaced_at, body{text} FROM record_history ORDER BY seq"
                )
            )
            evictions = tuple(
                EvictionRow(record_id=str(i), rule=str(r), reason=str(why), scores=str(s), at=str(t), body=str(b))
                for i, r, why, s, t, b in self._rows(
                    f"SELECT record_id, rule, reason, scores{text}, at, body{text} FROM evictions ORDER BY seq"
                )
            )
        return StoreRows(meta=meta, records=records, history=history, evictions=evictions)


def raw_scope(body: str) -> str | None:
    """The scope a stored body names (`default` when it names none), None when it cannot be read."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    scope = data.get("scope", DEFAULT_SCOPE)
    return scope if isinstance(scope, str) else None


def parse_body(body: str, what: str) -> Record:
    """A stored body that must parse (a history or eviction copy): a `StoreError` naming `what` if not."""
    try:
        return Record.model_validate_json(body)
    except (ValidationError, ValueError) as error:
        raise StoreError(f"{what} does not parse as a record ({error}); the store may be corrupt") from error
    except RecursionError:
        raise StoreError(f"{what} is nested too deeply to parse; the store may be corrupt") from None


def why_unreadable(error: Exception) -> str:
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
