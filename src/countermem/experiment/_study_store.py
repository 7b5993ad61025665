"""Where a study job's memory store lives: a SQLite file in its folder, or a schema on a Postgres server.

With `[memory] store = "postgresql://..."` each construct job writes its store into a schema of
its own, named from the study's name and the store's place in the study folder, so that two cells
(and two studies) never share one, and a rerun finds the same one. A server store is not a file,
so the construct job pins it in a small file beside its outputs (`store.json`: the URL without
its password and the sha256 of the store's content, as the stage code computes it); the job
record hashes that file like any other output, and the jobs that read the store check the
content against the pin. A construct job starts from an empty schema (it drops what an
interrupted attempt left), as a SQLite job starts from a fresh file.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from pydantic import BaseModel, ConfigDict

from countermem.core import ArtifactMismatchError, StoreError, sha256_file
from countermem.experiment._rundir import write_json_atomic
from countermem.experiment._study_config import StudyConfig
from countermem.experiment._study_plan import Cell, construct_store
from countermem.memory import StoreLocation
from countermem.memory._open import store_sha256
from countermem.memory._pgstore import _psycopg, display_url, split_url

STORE_PIN = "store.json"
_MAX_SCHEMA = 63
_HASH_CHARS = 12


class StorePin(BaseModel):
    """What a construct job made on the server: where (no password) and the content's sha256."""

    model_config = ConfigDict(frozen=True)

    store: str
    schema_name: str
    store_sha256: str


def server_schema(study_name: str, store_path: Path) -> str:
    """`<study name, made safe>_<12 hex of the store's path in the study>`: stable, at most 63 characters
    (a name Postgres would refuse, one starting `pg_` or not with a letter, gets `s_` in front)."""
    safe = re.sub(r"[^a-z0-9_]+", "_", study_name.lower()).strip("_") or "study"
    if not re.match(r"[a-z]", safe) or safe.startswith("pg_"):  # Postgres keeps pg_* schemas to itself
        safe = f"s_{safe}"
    digest = hashlib.sha256(store_path.as_posix().encode()).hexdigest()[:_HASH_CHARS]
    return f"{safe[: _MAX_SCHEMA - _HASH_CHARS - 1]}_{digest}"


def with_schema(url: str, schema: str) -> str:
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "schema"]
    return urlunsplit(parts._replace(query=urlencode([*query, ("schema", schema)])))


def job_store(root: Path, config: StudyConfig, cell: Cell, family: str) -> StoreLocation:
    """The store a cell's family is built into and read from."""
    relative = construct_store(cell, family)
    if config.memory.store is None:
        return root / relative
    return with_schema(config.memory.store, server_schema(config.name, relative))


def store_pin(cell: Cell, family: str) -> Path:
    """The pin of a server store, relative to the study root (beside where the SQLite file would be)."""
    return construct_store(cell, family).parent / STORE_PIN


def reset_server_store(url: str) -> None:
    """Drop the URL's schema (and everything in it), so the construct job starts from an empty store."""
    pg = _psycopg()
    conninfo, schema = split_url(url)
    try:
        with pg.connect(conninfo, autocommit=True, connect_timeout=10) as conn:
            conn.execute(pg.sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(pg.sql.Identifier(schema)))
    except pg.Error as error:
        raise StoreError(f"cannot empty the Postgres store {display_url(url)}: {error}") from error


def write_pin(url: str, target: Path) -> Path:
    _, schema = split_url(url)
    pin = StorePin(store=display_url(url), schema_name=schema, store_sha256=store_sha256(url))
    write_json_atomic(target, pin.model_dump(mode="json"))
    return target


def read_pin(path: Path, recorded_sha256: str) -> StorePin:
    """The pin a construct job wrote, refused if the file is not the bytes its job record hashed."""
    actual = sha256_file(path)
    if actual != recorded_sha256:
        raise ArtifactMismatchError(
            f"{path} has sha256 {actual}, but its construct job recorded {recorded_sha256}; rebuild the store"
        )
    return StorePin.model_validate(json.loads(path.read_text()))
