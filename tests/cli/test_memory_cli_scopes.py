"""`countermem memory ... --scope`: list, show, stats and export never show another scope's records;
`memory import` admits a file's records into a scope, counters at 0."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from countermem.cli._memory import memory_app
from countermem.memory import Record, SQLiteStore
from sql_records import sql_record

runner = CliRunner()
SECRET = "SECRET-OF-TEAM-A"


def make(i: int, scope: str) -> Record:
    return sql_record(
        f"Question {i} {SECRET if scope == 'team-a' else ''}",
        f"SELECT * FROM user{i}",
        f"SELECT * FROM users{i}",
        task_id=f"spider-{i}",
        scope=scope,
    )


A = [make(0, "team-a"), make(1, "team-a")]
B = [make(2, "team-b")]


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    path = tmp_path / "memory.db"
    with SQLiteStore(path) as store:
        for record in [*A, *B]:
            store.add(record)
        store.update_counters(A[0].id, retrieved=3, selected=3, harmed=2)
    return path


def _leaks(text: str) -> bool:
    return SECRET in text or "team-a" in text or any(r.id in text for r in A)


def test_list_show_stats_and_export_of_scope_b_show_nothing_of_scope_a(store_path: Path, tmp_path: Path) -> None:
    scoped = ["--scope", "team-b"]
    listed = runner.invoke(memory_app, ["list", str(store_path), *scoped])
    assert listed.exit_code == 0 and B[0].id in listed.output and "1 of 1 records" in listed.output
    assert not _leaks(listed.output)
    stats = runner.invoke(memory_app, ["stats", str(store_path), "--json", *scoped])
    assert stats.exit_code == 0 and json.loads(stats.output)["count"] == 1
    assert json.loads(stats.output)["reuse"]["harmed"] == 0 and not _leaks(stats.output)
    for record in A:
        shown = runner.invoke(memory_app, ["show", str(store_path), record.id, *scoped])
        assert shown.exit_code == 1 and "no record" in shown.output and SECRET not in shown.output
        prefix = runner.invoke(memory_app, ["show", str(store_path), record.id[:4], *scoped])
        assert SECRET not in prefix.output
    out = tmp_path / "b.jsonl"
    exported = runner.invoke(memory_app, ["export", str(store_path), str(out), *scoped])
    assert exported.exit_code == 0 and "wrote 1 records" in exported.output
    assert not _leaks(out.read_text())
    shared = runner.invoke(memory_app, ["list", str(store_path), *scoped, "--read-scope", "team-a"])
    assert shared.exit_code == 0 and "3 of 3 records" in shared.output
    owner = runner.invoke(memory_app, ["stats", str(store_path)])
    assert "team-a: 2 / 200, team-b: 1 / 200" in owner.output  # each scope against the per-scope capacity


def test_bad_scope_names_and_a_read_scope_alone_are_refused(store_path: Path) -> None:
    bad = runner.invoke(memory_app, ["list", str(store_path), "--scope", "Team A"])
    assert bad.exit_code == 2 and "not a valid scope name" in bad.output
    alone = runner.invoke(memory_app, ["list", str(store_path), "--read-scope", "team-a"])
    assert alone.exit_code == 2 and "give --scope too" in alone.output


def test_import_admits_records_into_a_scope_with_counters_reset(store_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "a.jsonl"
    assert runner.invoke(memory_app, ["export", str(store_path), str(out), "--scope", "team-a"]).exit_code == 0
    target = tmp_path / "target.db"
    done = runner.invoke(memory_app, ["import", str(target), str(out), "--scope", "team-c"])
    assert done.exit_code == 0, done.output
    assert "imported 2 records into scope team-c" in done.output
    with SQLiteStore(target, read_only=True) as store:
        records = store.all()
        assert {r.scope for r in records} == {"team-c"}
        assert all(r.counters.selected == 0 and r.counters.harmed == 0 and r.version == 1 for r in records)
        assert not {r.id for r in records} & {r.id for r in A}
    again = runner.invoke(memory_app, ["import", str(target), str(out), "--scope", "team-c"])
    assert "imported 0 records" in again.output and "2 already stored" in again.output
    broken = tmp_path / "broken.jsonl"
    broken.write_text(out.read_text() + "{not json}\n")
    refused = runner.invoke(memory_app, ["import", str(tmp_path / "other.db"), str(broken)])
    assert refused.exit_code == 1 and "line 3 is not a record" in refused.output
    assert not (tmp_path / "other.db").exists()
