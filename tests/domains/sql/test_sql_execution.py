"""Read-only execution with a deadline: refusals, errors and time-outs are results, never exceptions."""

from __future__ import annotations

import hashlib
import sqlite3
import time
from pathlib import Path

import pytest

from countermem.domains.sql import run_query


@pytest.fixture()
def database(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        "CREATE TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, 'z');"
    )
    connection.commit()
    connection.close()
    return path


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_select_returns_columns_and_rows(database: Path) -> None:
    outcome = run_query(database, "SELECT a, b FROM t ORDER BY a;")
    assert outcome.status == "ok"
    assert outcome.columns == ("a", "b")
    assert outcome.rows == ((1, "x"), (2, "y"), (3, "z"))


@pytest.mark.parametrize(
    ("sql", "fragment"),
    [
        ("SELEC a FROM t", "syntax error"),
        ("SELECT a FROM missing_table", "no such table: missing_table"),
        ("SELECT nope FROM t", "no such column: nope"),
        ("   ", "empty query"),
    ],
)
def test_bad_sql_is_an_error_with_the_reason(database: Path, sql: str, fragment: str) -> None:
    outcome = run_query(database, sql)
    assert outcome.status == "error"
    assert fragment in outcome.message


@pytest.mark.parametrize(
    "sql",
    [
        "INSERT INTO t VALUES (4, 'w')",
        "UPDATE t SET a = 0",
        "DELETE FROM t",
        "DROP TABLE t",
        "CREATE TABLE u (c INTEGER)",
        "ALTER TABLE t ADD COLUMN c INTEGER",
        "PRAGMA writable_schema = ON",
        "ATTACH DATABASE 'other.sqlite' AS other",
        "VACUUM",
        "BEGIN",
    ],
)
def test_writes_are_refused_and_the_file_is_unchanged(database: Path, sql: str) -> None:
    before = _digest(database)
    outcome = run_query(database, sql)
    assert outcome.status == "rejected", outcome
    assert "read-only" in outcome.message
    assert _digest(database) == before
    assert run_query(database, "SELECT COUNT(*) FROM t").rows == ((3,),)


def test_a_write_to_a_missing_table_is_still_refused(database: Path) -> None:
    outcome = run_query(database, "-- tidy up\nDELETE FROM no_such_table")
    assert outcome.status == "rejected"
    assert "DELETE" in outcome.message


def test_several_statements_are_refused(database: Path) -> None:
    before = _digest(database)
    outcome = run_query(database, "SELECT 1; DELETE FROM t")
    assert outcome.status == "rejected"
    assert "several statements" in outcome.message
    assert _digest(database) == before


def test_an_unbounded_recursive_query_stops_at_its_limit(database: Path) -> None:
    limit = 0.5
    start = time.monotonic()
    outcome = run_query(
        database,
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT COUNT(*) FROM r",
        timeout_s=limit,
    )
    elapsed = time.monotonic() - start
    assert outcome.status == "timeout"
    assert elapsed < limit + 1.0
    assert elapsed >= limit * 0.9


def test_the_row_cap_truncates_and_says_so(database: Path) -> None:
    outcome = run_query(database, "SELECT x.a FROM t AS x, t AS y", max_rows=4)
    assert outcome.status == "ok"
    assert outcome.truncated
    assert len(outcome.rows) == 4
