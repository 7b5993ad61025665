"""Opening a store by location: a file path is SQLite, a `postgresql://` URL is Postgres.

Why one entry point: the CLI's `--store`, a config's `store = ...` and `open_memory` all take a
location, and the backend follows from it, so nothing else in countermem names a backend.
`copy_store` moves a whole store between any two locations, losslessly (`StoreRows`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from countermem.core import StoreError
from countermem.memory._pgstore import PostgresStore, is_postgres_url
from countermem.memory._store import SQLiteStore

AnyStore = SQLiteStore | PostgresStore
"""Either backend; both answer the `Store` protocol and the rest of `SQLiteStore`'s calls."""

StoreLocation = str | Path


def open_store(location: StoreLocation, *, read_only: bool = False, **options: Any) -> AnyStore:
    """Open (or, when writable, create) the store at `location`: a file path or a postgresql:// URL.

    Options are the backend's (`capacity`, `retention`, `seed`, `busy_timeout`; `durable` is SQLite's).
    """
    if is_postgres_url(location):
        options.pop("durable", None)
        return PostgresStore(str(location), read_only=read_only, **options)
    if isinstance(location, str) and "://" in location:
        scheme = location.split("://", 1)[0]
        raise StoreError(
            f"unknown store location scheme {scheme!r}; give a file path (SQLite) or postgresql://user@host/db"
        )
    return SQLiteStore(location, read_only=read_only, **options)


def describe_location(location: StoreLocation) -> str:
    """The location as shown to people (a URL without its password)."""
    from countermem.memory._pgstore import display_url

    return display_url(str(location)) if is_postgres_url(location) else str(location)


def copy_store(source: StoreLocation, target: StoreLocation) -> int:
    """Copy every record, earlier version, eviction and setting from `source` into a new (empty)
    store at `target`; returns the number of live records copied."""
    with open_store(source, read_only=True) as reader:
        rows = reader.dump_rows()
    if not is_postgres_url(target) and Path(target).exists():
        raise StoreError(f"{target} already exists; copy into a new store file")
    capacity = int(rows.meta.get("capacity", "0")) or None
    with open_store(target, capacity=capacity) as writer:
        writer.load_rows(rows)
    return len(rows.records)
