"""Opening a store by location: a file path is SQLite, a `postgresql://` URL is Postgres.

Why one entry point: the CLI's `--store`, a config's `store = ...` and `open_memory` all take a
location, and the backend follows from it, so nothing else in countermem names a backend.
`copy_store` moves a whole store between any two locations, losslessly (`StoreRows`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from pydantic import BeforeValidator

from countermem.core import StoreError
from countermem.memory._pgstore import PostgresStore, is_postgres_url
from countermem.memory._store import SQLiteStore, file_sha256

AnyStore = SQLiteStore | PostgresStore
"""Either backend; both answer the `Store` protocol and the rest of `SQLiteStore`'s calls."""

StoreLocation = str | Path


def _as_location(value: object) -> object:
    if is_postgres_url(value) or isinstance(value, Path):
        return value
    return Path(value) if isinstance(value, str) else value


StoreLocationField = Annotated[Path | str, BeforeValidator(_as_location)]
"""A settings field holding a store: a `Path` for a file, the URL text for postgresql://."""


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


def store_sha256(location: StoreLocation) -> str:
    """What a manifest pins: the file's sha256 for SQLite, the content's (`content_sha256`) for Postgres."""
    if is_postgres_url(location):
        with PostgresStore(str(location), read_only=True) as store:
            return store.content_sha256()
    return file_sha256(Path(location))


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
