"""`countermem memory show` prints a record's lifecycle: its scope, whether it is retired (why and
when), the records merged into it with their source tasks, and its provenance."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from countermem.cli._memory import memory_app
from countermem.memory import Provenance, Record, SQLiteStore
from sql_records import sql_record

runner = CliRunner()
WIDE = {"COLUMNS": "400"}


def make(i: int, *, same_edit: bool = False) -> Record:
    fix = 0 if same_edit else i
    return sql_record(
        f"Question {i}",
        f"SELECT * FROM item{fix}",
        f"SELECT * FROM items{fix}",
        task_id=f"spider-{i}",
        condition='"items" in tables',
        scope="team-a",
        provenance=Provenance(proposing_model="qwen-test", checker="sqlite-exec", checker_version="3.45"),
    )


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    path = tmp_path / "memory.db"
    with SQLiteStore(path) as store:
        for record in (make(1), make(2, same_edit=True), make(3, same_edit=True)):
            store.add(record)
        store.retire(make(1).id, "gain +1.000 -> +0.000: the checker now rejects it")
        store.merge()
    return path


def test_show_of_a_retired_record_says_why_when_and_that_it_is_never_offered(store_path: Path) -> None:
    with SQLiteStore(store_path, read_only=True) as store:
        (retired,) = store.retired()
    assert retired.retired_at is not None
    result = runner.invoke(memory_app, ["show", str(store_path), retired.id[:10]], env=WIDE)  # a prefix finds it too
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"record {retired.id}" in out and "[RETIRED: never offered]" in out
    assert f"retired {retired.retired_at.isoformat(timespec='seconds')}, never offered: gain +1.000 -> +0.000" in out
    assert "team-a" in out and "qwen-test" in out and "sqlite-exec 3.45" in out


def test_show_of_a_merged_record_lists_each_source_task_and_its_scope(store_path: Path) -> None:
    with SQLiteStore(store_path, read_only=True) as store:
        (merged,) = [r for r in store.all() if r.merged_from]
    result = runner.invoke(memory_app, ["show", str(store_path), merged.id, "--scope", "team-a"], env=WIDE)
    assert result.exit_code == 0, result.output
    out = result.output
    (source,) = merged.merged_from
    assert f"{source.record_id} (task {source.source.task_id})" in out
    assert f"task {merged.source.task_id}" in out and {merged.source.task_id, source.source.task_id} == {
        "spider-2", "spider-3"}
    assert "scope" in out and "team-a" in out and "status" in out and "live" in out
    assert "RETIRED" not in out and "provenance" in out
    hidden = runner.invoke(memory_app, ["show", str(store_path), merged.id, "--scope", "team-b"], env=WIDE)
    assert hidden.exit_code == 1 and "no record" in hidden.output
