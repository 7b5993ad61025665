"""Make Spider's `dev_gold_check.tsv` again from dev.json and the databases, byte for byte.

The table was made while preparing the shared data folders, not taken from Spider. A folder fetched from
the original source therefore lacks it, and the Spider loader needs it (it marks golds that return
nothing and golds that do not run). Running every gold query once more gives the same table: the fetcher
calls `gold_check_table` and keeps the result only if it matches the sha256 in SOURCE.md. A different
SQLite whose error text differs is refused rather than trusted.

The two folders were written in two dialects, and this keeps both:
- English (`spider_en`): `detail` is `<n> rows` for ok and empty, with ` (all values 0/NULL)` when
  every value returned is 0 or NULL; a db_id with no database file gets
  `no database: <db_id>.sqlite is not in the source repository`.
- German (`spider`): `all_zero_or_null` is its own status; `detail` is `<n> rows` for ok and empty
  otherwise; a failing query gets SQLite's error message.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Sequence
from typing import Literal

from countermem.core import DataUnavailableError

HEADER = "source_index\tdb_id\tgold_exec\tdetail"
QUERY_TIMEOUT_S = 30.0
"""The per-query limit SOURCE.md gives for the original run."""

Dialect = Literal["en", "de"]
DatabaseLoader = Callable[[str], bytes | None]
"""db_id -> the decompressed SQLite file, or None where the folder has no database for it."""


def gold_check_table(
    dev_json: bytes, source_indices: Sequence[int], database: DatabaseLoader, *, dialect: Dialect
) -> bytes:
    """One row per dev.json item (in order): its source index, db_id, gold status and detail."""
    items = json.loads(dev_json.decode("utf-8"))
    if not isinstance(items, list) or len(items) != len(source_indices):
        raise DataUnavailableError(
            f"dev.json holds {len(items) if isinstance(items, list) else 'no list of'} items but "
            f"{len(source_indices)} source indices were given"
        )
    connections: dict[str, sqlite3.Connection | None] = {}
    rows = [HEADER]
    try:
        for index, item in zip(source_indices, items, strict=True):
            db_id = str(item["db_id"])
            if db_id not in connections:
                connections[db_id] = _open(database(db_id))
            connection = connections[db_id]
            if connection is None:
                status, detail = "error", f"no database: {db_id}.sqlite is not in the source repository"
            else:
                status, detail = _check(connection, str(item["query"]), dialect)
            rows.append(f"{index}\t{db_id}\t{status}\t{detail}")
    finally:
        for connection in connections.values():
            if connection is not None:
                connection.close()
    return ("\n".join(rows) + "\n").encode("utf-8")


def _open(data: bytes | None) -> sqlite3.Connection | None:
    if data is None:
        return None
    connection = sqlite3.connect(":memory:")
    connection.deserialize(data)
    return connection


def _check(connection: sqlite3.Connection, query: str, dialect: Dialect) -> tuple[str, str]:
    deadline = time.monotonic() + QUERY_TIMEOUT_S
    connection.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
    try:
        result = connection.execute(query).fetchall()
    except sqlite3.Error as error:
        return "error", str(error)
    finally:
        connection.set_progress_handler(None, 0)
    all_zero = bool(result) and all(value is None or value == 0 for row in result for value in row)
    count = f"{len(result)} rows"
    if dialect == "en":
        if not result:
            return "empty", count
        return "ok", count + (" (all values 0/NULL)" if all_zero else "")
    if not result:
        return "empty", ""
    if all_zero:
        return "all_zero_or_null", ""
    return "ok", count
