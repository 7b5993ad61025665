"""`countermem memory reverify` against the real sql-shop checker, and `memory list --retired`."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from countermem.cli import app
from countermem.core import Action, CheckResult
from countermem.domains import load_benchmark
from countermem.memory import Record, RecordSource, SQLiteStore

runner = CliRunner()


def _sql_records(n: int) -> list[Record]:
    """Records checked by the sql-shop world model now: the known-wrong query, then the gold one."""
    bench = load_benchmark("sql-shop")
    world = bench.world_model()
    records = []
    for task in bench.tasks()[:n]:
        state = world.reset(task)
        wrong, gold = bench.wrong_action(task), bench.gold_action(task)
        failed = world.check(wrong)
        world.restore(state)
        records.append(
            Record(
                domain="sql", benchmark="sql-shop", situation=task.prompt, original_action=wrong,
                improved_action=gold, original_check=failed, improved_check=world.check(gold),
                source=RecordSource(task_id=task.id, benchmark="sql-shop"),
            )
        )
    return records


def _stale(record: Record) -> Record:
    """A record whose improved query passed under the checker of its day and is wrong under today's."""
    passed = CheckResult(utility=1.0, passed=True, completed=True, status="passed")
    return record.revised(improved_action=Action(content=record.original_action.content + " "),
                          improved_check=passed)


def _store(tmp_path: Path) -> tuple[Path, list[Record]]:
    live = _sql_records(4)
    stale = _stale(live.pop())
    custom = live[0].model_copy(update={"id": "", "benchmark": "my-bench",
                                        "source": RecordSource(task_id="q1", benchmark="my-bench")})
    records = [*live, stale, Record.model_validate(custom.model_dump())]
    path = tmp_path / "memory.db"
    with SQLiteStore(path) as store:
        for record in records:
            store.add(record)
    return path, records


def test_reverify_retires_the_stale_record_and_lists_it_with_the_reason(tmp_path: Path) -> None:
    path, records = _store(tmp_path)
    stale, custom = records[3], records[4]
    result = runner.invoke(app, ["memory", "reverify", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert sum(line.startswith("holds") for line in lines) == 3
    (retired_line,) = [line for line in lines if line.startswith("RETIRED")]
    assert stale.id in retired_line and "gain +0.775 -> +0.000" in retired_line
    assert "improved action passed 1.00 -> wrong" in retired_line
    (unchecked_line,) = [line for line in lines if line.startswith("unchecked")]
    assert custom.id in unchecked_line and "benchmark unknown" in unchecked_line
    assert "checked 5 records" in result.output
    assert "3 still hold, 1 retired, 1 could not be checked (benchmark unknown: 1)" in result.output

    listed = runner.invoke(app, ["memory", "list", str(path)])
    assert listed.exit_code == 0 and "4 of 4 records" in listed.output and stale.id not in listed.output
    retired = runner.invoke(app, ["memory", "list", str(path), "--retired"], env={"COLUMNS": "300"})
    assert retired.exit_code == 0, retired.output
    assert "1 of 1 retired records" in retired.output and stale.id in retired.output
    assert "re-verified gain 0.000" in retired.output
    stats = runner.invoke(app, ["memory", "stats", str(path), "--json"])
    assert json.loads(stats.output)["retired"] == 1
    shown = runner.invoke(app, ["memory", "show", str(path), stale.id], env={"COLUMNS": "300"})
    assert shown.exit_code == 0 and "never offered: re-verified gain" in shown.output


def test_reverify_resumes_with_limit_and_restarts(tmp_path: Path) -> None:
    path, records = _store(tmp_path)
    first = runner.invoke(app, ["memory", "reverify", str(path), "--limit", "2"])
    assert first.exit_code == 0, first.output
    assert "checked 2 records" in first.output and "3 remaining" in first.output
    progress = Path(str(path) + ".reverify.jsonl")
    assert len(progress.read_text().splitlines()) == 3  # the pass line and two records
    second = runner.invoke(app, ["memory", "reverify", str(path)])
    assert second.exit_code == 0, second.output
    assert "checked 3 records" in second.output
    assert "resumed: 2 records already checked" in second.output
    for record in records[:2]:
        assert record.id not in second.output
    again = runner.invoke(app, ["memory", "reverify", str(path), "--restart", "--benchmark", "sql-shop", "--json"])
    assert again.exit_code == 0, again.output
    summary = json.loads(again.output[again.output.index("{"):])
    assert summary["run"]["checked"] == 3 and summary["retired_before"] == 1


def test_reverify_refuses_a_missing_store_without_creating_it(tmp_path: Path) -> None:
    missing = tmp_path / "nope.db"
    result = runner.invoke(app, ["memory", "reverify", str(missing)])
    assert result.exit_code == 2 and "no memory store" in result.output
    assert not missing.exists()


def test_ctrl_c_keeps_what_was_checked_and_the_same_command_goes_on(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import countermem.cli._reverify as command

    path, records = _store(tmp_path)
    printed = command._print_line

    def interrupt_after_two(line):  # type: ignore[no-untyped-def]
        printed(line)
        if line.record_id == records[1].id:
            raise KeyboardInterrupt

    monkeypatch.setattr(command, "_print_line", interrupt_after_two)
    stopped = runner.invoke(app, ["memory", "reverify", str(path)])
    assert stopped.exit_code == 130 and "run the same command again" in stopped.output
    monkeypatch.setattr(command, "_print_line", printed)
    resumed = runner.invoke(app, ["memory", "reverify", str(path)])
    assert resumed.exit_code == 0, resumed.output
    assert "checked 3 records" in resumed.output and "resumed: 2 records" in resumed.output
