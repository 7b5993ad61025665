"""A study with `[memory] store = "postgresql://..."` keeps its stores in server schemas.

On a real local server (tests/postgres_fixtures.py; skipped with the reason where there are no
server binaries): the study completes, each construct job's records are in a schema of its own
(no store file in the study folder), its held-out results equal those of the same study on SQLite
files, the URL's password is written nowhere in the study folder, and a resumed construct job
starts from an empty schema.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from countermem.core import ConfigError
from countermem.experiment._study import run_study
from countermem.experiment._study_config import StudyConfig, parse_study_config
from countermem.experiment._study_store import StorePin, server_schema
from countermem.memory import SQLiteStore, open_store
from postgres_fixtures import StoreAt

PASSWORD = "pw-never-in-the-folder"
METHODS = ["none", "countermem"]


def _config(store: str | None = None, name: str = "pg study", **extra: Any) -> StudyConfig:
    memory: dict[str, Any] = {"embedder": "lexical"}
    if store is not None:
        memory["store"] = store
    return parse_study_config({
        "name": name, "benchmarks": ["sql-shop"], "methods": METHODS, "seeds": [1],
        "backbones": {"sim": {"kind": "simulated"}},
        "split": {"construct": 6, "train": 3, "heldout": 4},
        "memory": memory, **extra,
    })


def _server_url(pg_url: StoreAt) -> str:
    """The fixture's database, without its ?schema= and with a password (the local server trusts, so it is unused)."""
    url = pg_url().split("?", 1)[0]
    return url.replace("postgresql://postgres@", f"postgresql://postgres:{PASSWORD}@", 1)


def _heldout(root: Path) -> dict[str, list[tuple[str, bool, float]]]:
    found: dict[str, list[tuple[str, bool, float]]] = {}
    for path in sorted([*(root / "results").rglob("results.jsonl"), *(root / "analyses").rglob("results.jsonl")]):
        rows = [json.loads(line) for line in path.read_text().splitlines() if line]
        found[str(path.relative_to(root))] = [(r["task_id"], r["solved"], r["final_utility"]) for r in rows]
    return found


def _records(store: Any) -> list[tuple[str, float, str]]:
    return sorted((r.id, r.utility_gain, str(r.condition)) for r in store.all())


def test_a_study_keeps_its_stores_in_server_schemas(pg_url: StoreAt, tmp_path: Path) -> None:
    url = _server_url(pg_url)
    on_files, on_server = tmp_path / "files", tmp_path / "server"
    accumulation = {"analyses": {"accumulation": [0, 3], "accumulation_methods": ["countermem"]}}
    assert run_study(_config(**accumulation), on_files, write_report=False).ok
    outcome = run_study(_config(url, **accumulation), on_server, write_report=False)
    assert outcome.ok, outcome.failed

    assert not list((on_server / "work").rglob("store.sqlite")), "a server study wrote a store file"
    pins = sorted((on_server / "work").rglob("store.json"))
    assert len(pins) == 1  # one cell, one store family (countermem's)
    pin = StorePin.model_validate_json(pins[0].read_text())
    assert pin.schema_name == server_schema("pg study", pins[0].parent.relative_to(on_server) / "store.sqlite")
    assert pin.schema_name.startswith("s_pg_study_") and PASSWORD not in pin.store and "***" in pin.store
    sqlite_store = on_files / pins[0].parent.relative_to(on_server) / "store.sqlite"
    with SQLiteStore(sqlite_store, read_only=True) as expected, \
            open_store(f"{url}?schema={pin.schema_name}", read_only=True) as actual:
        records = _records(actual)
        assert records and records == _records(expected)
        assert actual.content_sha256() == pin.store_sha256

    heldout = _heldout(on_server)
    assert any("countermem" in key for key in heldout) and any("accumulation" in key for key in heldout)
    snapshots = sorted(p.name for p in (on_server / "work").rglob("snapshots/*.sqlite"))
    assert snapshots == ["after-0.sqlite", "after-3.sqlite"]  # copied out of the schema as SQLite files
    assert heldout == _heldout(on_files)

    leaked = [p for p in on_server.rglob("*") if p.is_file() and PASSWORD.encode() in p.read_bytes()]
    assert not leaked, f"the password is written in {leaked}"
    manifest = json.loads((on_server / "manifest.json").read_text())
    assert manifest["config"]["memory"]["store"] == url.replace(PASSWORD, "***")


def test_a_rerun_construct_job_starts_from_an_empty_schema(pg_url: StoreAt, tmp_path: Path) -> None:
    psycopg = pytest.importorskip("psycopg")
    url = _server_url(pg_url)
    root = tmp_path / "s"
    config = _config(url, name="rerun")
    assert run_study(config, root, write_report=False).ok
    pin = StorePin.model_validate_json(next((root / "work").rglob("store.json")).read_text())
    location = f"{url}?schema={pin.schema_name}"
    with open_store(location, read_only=True) as store:
        first = sorted((r.utility_gain, str(r.condition)) for r in store.all())
    with psycopg.connect(url, autocommit=True) as conn:  # what a dead attempt might have left behind
        conn.execute(f"CREATE TABLE {pin.schema_name}.leftover (x int)")
    for record in (root / "jobs").glob("*.json"):  # as if every job had died before writing its record
        record.unlink()
    assert run_study(config, root, write_report=False).ok
    with psycopg.connect(url, autocommit=True) as conn:
        tables = {row[0] for row in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s", (pin.schema_name,))}
    assert "records" in tables and "leftover" not in tables, "the rerun construct job kept the old schema"
    with open_store(location, read_only=True) as store:
        assert sorted((r.utility_gain, str(r.condition)) for r in store.all()) == first


def test_a_changed_server_store_is_refused(pg_url: StoreAt, tmp_path: Path) -> None:
    url = _server_url(pg_url)
    root = tmp_path / "s"
    config = _config(url, name="changed")
    assert run_study(config, root, write_report=False).ok
    pin = StorePin.model_validate_json(next((root / "work").rglob("store.json")).read_text())
    with open_store(f"{url}?schema={pin.schema_name}") as store:
        store.retire(store.all()[0].id, "changed behind the study")
    evaluations = [p for p in (root / "jobs").glob("evaluate*.json") if "countermem" in p.name]
    assert evaluations
    for record in evaluations:
        record.unlink()
    outcome = run_study(config, root, write_report=False)
    assert not outcome.ok and "sha256" in " ".join(outcome.failed.values())


@pytest.mark.parametrize("store", ["/tmp/stores.sqlite", "mysql://u@h/db", "postgresql://u@h/db?schema=mine"])
def test_a_store_that_is_not_a_server_url_is_refused(store: str) -> None:
    with pytest.raises(ConfigError, match=r"memory\.store"):
        _config(store)


def test_the_password_is_not_in_the_config_identity() -> None:
    with_password = _config("postgresql://u:secret@h/db")
    assert "secret" not in with_password.identity_json()
    assert "secret" in with_password.model_dump_json()  # the jobs still connect with it
    assert _config("postgresql://u:other@h/db").identity_json() == with_password.identity_json()
    assert _config("postgresql://u@h/other").identity_json() != with_password.identity_json()
