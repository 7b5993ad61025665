"""The SQLite world model: judge a query by running it against a private copy of the task's database.

Each world model owns a temporary folder with one database file. `reset` writes the task's
database bytes there, `snapshot` reads the bytes back, `restore` writes them again: a state is
a real copy, never a shared handle, so no check can leak into another. Checks are read-only
anyway (see `_execution`), which the fingerprint (sha256 of the database bytes) lets the
conformance test confirm.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from countermem.core import Action, CheckResult, CheckStatus, ConfigError, Cost, Task
from countermem.domains._protocol import State
from countermem.domains.sql._compare import compare_results, has_top_level_order_by, normalise_rows
from countermem.domains.sql._execution import DEFAULT_MAX_ROWS, DEFAULT_TIMEOUT_S, QueryOutcome, run_query

GOLD_TIMEOUT_S = 30.0
"""The gold query gets at least this long (it runs once per task and database, then is cached)."""


class DatabaseSource(Protocol):
    """Whoever knows where a task's database comes from (a benchmark)."""

    def database_bytes(self, task: Task) -> bytes: ...


@dataclass(frozen=True)
class GoldResult:
    outcome: QueryOutcome
    rows: tuple[tuple[object, ...], ...]
    ordered: bool

    @property
    def usable(self) -> bool:
        return self.outcome.status == "ok" and not self.outcome.truncated


class GoldCache:
    """Gold results keyed by task, gold query and database fingerprint; shared by a benchmark's world models."""

    def __init__(self) -> None:
        self._results: dict[tuple[str, str, str], GoldResult] = {}

    def get(self, key: tuple[str, str, str]) -> GoldResult | None:
        return self._results.get(key)

    def put(self, key: tuple[str, str, str], result: GoldResult) -> None:
        self._results[key] = result

    def __len__(self) -> int:
        return len(self._results)


@dataclass(frozen=True)
class _Payload:
    task: Task
    database: bytes


def fingerprint(database: bytes) -> str:
    return hashlib.sha256(database).hexdigest()


def strip_fence(sql: str) -> str:
    """Accept a query wrapped in a Markdown fence, as agents often write it."""
    text = sql.strip()
    if text.startswith("```"):
        lines = text.splitlines()
        body = lines[1:-1] if len(lines) > 1 and lines[-1].strip() == "```" else lines[1:]
        return "\n".join(body).strip()
    return text


class SQLiteWorldModel:
    """Checks one SQLite query per call against the current task's gold result."""

    def __init__(
        self,
        source: DatabaseSource,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        max_rows: int = DEFAULT_MAX_ROWS,
        gold_cache: GoldCache | None = None,
    ) -> None:
        if timeout_s <= 0:
            raise ConfigError(f"timeout_s must be positive, got {timeout_s}")
        self._source = source
        self.timeout_s = timeout_s
        self.max_rows = max_rows
        self._gold_cache = gold_cache if gold_cache is not None else GoldCache()
        self._folder = Path(tempfile.mkdtemp(prefix="countermem-sql-"))
        self._path = self._folder / "world.sqlite"
        self._task: Task | None = None
        self._fingerprint = ""
        self._finalizer = weakref.finalize(self, shutil.rmtree, self._folder, True)

    @property
    def database_path(self) -> Path:
        return self._path

    def close(self) -> None:
        """Delete the private database copy now rather than at garbage collection."""
        self._finalizer()

    def reset(self, task: Task) -> State:
        if task.gold is None:
            raise ConfigError(f"task {task.id} has no gold query; the SQL world model needs one")
        database = self._source.database_bytes(task)
        self._write(database)
        self._task = task
        return State(task_id=task.id, payload=_Payload(task, database), fingerprint=self._fingerprint)

    def snapshot(self) -> State:
        task = self._current()
        database = self._path.read_bytes()
        return State(task_id=task.id, payload=_Payload(task, database), fingerprint=fingerprint(database))

    def restore(self, state: State) -> None:
        payload = state.payload
        if not isinstance(payload, _Payload):
            raise ConfigError(f"state for {state.task_id} was not made by a SQLiteWorldModel")
        self._write(payload.database)
        self._task = payload.task

    def check(self, action: Action) -> CheckResult:
        task = self._current()
        start = time.monotonic()
        gold = self.gold_result()
        if not gold.usable:
            reason = gold.outcome.message or f"more than {self.max_rows} rows"
            return _result(
                start, 0.0, False, "error", f"the gold query of {task.id} cannot be evaluated: {reason}"
            )
        outcome = run_query(self._path, strip_fence(action.content), self.timeout_s, self.max_rows)
        if outcome.status == "timeout":
            return _result(start, 0.0, False, "timeout", outcome.message)
        if outcome.status == "error":
            return _result(start, 0.0, True, "error", outcome.message)
        if outcome.status == "rejected":
            return _result(start, 0.0, True, "rejected", outcome.message)
        comparison = compare_results(
            gold.rows,
            len(gold.outcome.columns),
            normalise_rows(outcome.rows),
            len(outcome.columns),
            gold.ordered,
        )
        details = comparison.details
        if outcome.truncated:
            details += f" (stopped reading after {self.max_rows} rows)"
        status: CheckStatus = "passed" if comparison.passed else "wrong"
        return _result(start, comparison.utility, True, status, details, passed=comparison.passed)

    def gold_result(self) -> GoldResult:
        """The gold query's result on the current database, computed once per task and database."""
        task = self._current()
        gold_sql = task.gold or ""
        key = (task.id, gold_sql, self._fingerprint)
        cached = self._gold_cache.get(key)
        if cached is not None:
            return cached
        outcome = run_query(self._path, gold_sql, max(self.timeout_s, GOLD_TIMEOUT_S), self.max_rows)
        result = GoldResult(outcome, tuple(normalise_rows(outcome.rows)), has_top_level_order_by(gold_sql))
        self._gold_cache.put(key, result)
        return result

    def _current(self) -> Task:
        if self._task is None:
            raise ConfigError("call reset(task) before snapshot() or check()")
        return self._task

    def _write(self, database: bytes) -> None:
        partial = self._path.with_suffix(".partial")
        partial.write_bytes(database)
        os.replace(partial, self._path)
        self._fingerprint = fingerprint(database)


def _result(
    start: float, utility: float, completed: bool, status: CheckStatus, details: str, passed: bool = False
) -> CheckResult:
    return CheckResult(
        utility=utility,
        passed=passed,
        completed=completed,
        status=status,
        details=details,
        cost=Cost(seconds=time.monotonic() - start, calls=1),
    )
