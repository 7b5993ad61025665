"""Run one untrusted SQL query against a SQLite file, read-only, with a deadline and a row cap.

Three independent locks keep a query from changing the database: the file is opened with
`mode=ro`, the connection sets `PRAGMA query_only`, and an authorizer allows only reading
actions (select, read, function, recursive CTE). The authorizer is what lets us say *why* a
statement was refused ("INSERT into orders is not allowed") instead of relaying SQLite's
"attempt to write a readonly database". The deadline is enforced by a progress handler, so
a runaway query (an unbounded recursive CTE, a huge cross join) stops within a few thousand
virtual-machine steps of its limit rather than hanging the agent.
"""

from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

DEFAULT_TIMEOUT_S = 5.0
DEFAULT_MAX_ROWS = 100_000
MAX_VALUE_BYTES = 10_000_000
"""SQLITE_LIMIT_LENGTH for a check: a query cannot build strings or blobs larger than this."""
_PROGRESS_STEPS = 1_000

OutcomeStatus = Literal["ok", "error", "timeout", "rejected"]
Row = tuple[object, ...]

_ALLOWED_ACTIONS = frozenset(
    {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION, sqlite3.SQLITE_RECURSIVE}
)
_REFUSED_ACTIONS = (
    "INSERT", "UPDATE", "DELETE", "CREATE_TABLE", "CREATE_INDEX", "CREATE_VIEW", "CREATE_TRIGGER",
    "CREATE_TEMP_TABLE", "CREATE_TEMP_INDEX", "CREATE_TEMP_VIEW", "CREATE_TEMP_TRIGGER", "CREATE_VTABLE",
    "DROP_TABLE", "DROP_INDEX", "DROP_VIEW", "DROP_TRIGGER", "DROP_TEMP_TABLE", "DROP_TEMP_INDEX",
    "DROP_TEMP_VIEW", "DROP_TEMP_TRIGGER", "DROP_VTABLE", "ALTER_TABLE", "ATTACH", "DETACH", "PRAGMA",
    "TRANSACTION", "SAVEPOINT", "REINDEX", "ANALYZE",
)  # fmt: skip
_ACTION_NAMES: dict[int, str] = {
    getattr(sqlite3, f"SQLITE_{name}"): name.replace("_", " ") for name in _REFUSED_ACTIONS
}


_WRITE_KEYWORDS = frozenset(
    """
    INSERT UPDATE DELETE REPLACE UPSERT CREATE DROP ALTER ATTACH DETACH PRAGMA VACUUM REINDEX ANALYZE
    BEGIN COMMIT END ROLLBACK SAVEPOINT RELEASE
    """.split()  # noqa: SIM905
)
"""A statement starting with one of these is refused even when SQLite fails on it for another reason
(DELETE FROM a missing table is still a write)."""
_LEADING_COMMENTS = re.compile(r"^(?:\s+|--[^\n]*(?:\n|$)|/\*.*?\*/)*", re.DOTALL)


def _leading_keyword(sql: str) -> str:
    rest = _LEADING_COMMENTS.sub("", sql, count=1)
    match = re.match(r"[A-Za-z]+", rest)
    return match.group(0).upper() if match else ""


@dataclass(frozen=True)
class QueryOutcome:
    """What running one query produced; `rows` holds at most `max_rows` rows."""

    status: OutcomeStatus
    columns: tuple[str, ...] = ()
    rows: tuple[Row, ...] = ()
    truncated: bool = False
    """More than `max_rows` rows came back; only the first `max_rows` are kept."""
    message: str = ""
    seconds: float = 0.0


@dataclass
class _Guard:
    deadline: float
    denied: list[str] = field(default_factory=list)
    timed_out: bool = False

    def progress(self) -> int:
        if time.monotonic() > self.deadline:
            self.timed_out = True
            return 1
        return 0

    def authorize(
        self, action: int, arg1: str | None, arg2: str | None, db: str | None, source: str | None
    ) -> int:
        if action in _ALLOWED_ACTIONS:
            return sqlite3.SQLITE_OK
        what = _ACTION_NAMES.get(action, f"action {action}")
        target = arg1 or ""
        self.denied.append(f"{what} {target}".strip())
        return sqlite3.SQLITE_DENY


def open_read_only(path: Path) -> sqlite3.Connection:
    """A connection that cannot write `path`, even before the authorizer is installed."""
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    connection.execute("PRAGMA query_only = ON")
    connection.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
    connection.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
    return connection


def run_query(
    path: Path,
    sql: str,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> QueryOutcome:
    """Run `sql` read-only against the SQLite file at `path`; never raises for a bad query."""
    start = time.monotonic()
    if not sql.strip().rstrip(";").strip():
        return QueryOutcome("error", message="empty query: write one SELECT statement")
    guard = _Guard(deadline=start + timeout_s)
    try:
        connection = open_read_only(path)
    except sqlite3.Error as error:
        return QueryOutcome("error", message=f"cannot open the database: {error}")
    try:
        connection.set_authorizer(guard.authorize)
        connection.set_progress_handler(guard.progress, _PROGRESS_STEPS)
        cursor = connection.execute(sql)
        if cursor.description is None:
            return QueryOutcome(
                "rejected",
                message="the statement returns no result set; write one SELECT statement",
                seconds=time.monotonic() - start,
            )
        columns = tuple(str(d[0]) for d in cursor.description)
        rows = cursor.fetchmany(max_rows + 1)
        truncated = len(rows) > max_rows
        return QueryOutcome(
            "ok",
            columns=columns,
            rows=tuple(tuple(r) for r in rows[:max_rows]),
            truncated=truncated,
            seconds=time.monotonic() - start,
        )
    except (sqlite3.Error, sqlite3.Warning, OverflowError, MemoryError) as error:
        return _failure(error, sql, guard, timeout_s, time.monotonic() - start)
    finally:
        connection.close()


def _failure(error: Exception, sql: str, guard: _Guard, timeout_s: float, seconds: float) -> QueryOutcome:
    if guard.timed_out:
        message = f"the query ran past its {timeout_s:g} s limit and was stopped"
        return QueryOutcome("timeout", message=message, seconds=seconds)
    if guard.denied:
        refused = ", ".join(dict.fromkeys(guard.denied))
        keyword = _leading_keyword(sql)
        return QueryOutcome(
            "rejected",
            message=f"only a read-only SELECT is allowed; a {keyword} statement was refused ({refused})",
            seconds=seconds,
        )
    text = str(error)
    keyword = _leading_keyword(sql)
    if keyword in _WRITE_KEYWORDS:
        message = f"only a read-only SELECT is allowed; a {keyword} statement was refused ({text})"
        return QueryOutcome("rejected", message=message, seconds=seconds)
    if isinstance(error, sqlite3.ProgrammingError) and "one statement" in text:
        return QueryOutcome(
            "rejected", message="several statements were given; write exactly one SELECT", seconds=seconds
        )
    if "readonly" in text or "read-only" in text:
        message = f"only a read-only SELECT is allowed: {text}"
        return QueryOutcome("rejected", message=message, seconds=seconds)
    return QueryOutcome("error", message=f"SQLite error: {text}", seconds=seconds)
