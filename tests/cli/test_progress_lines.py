"""Progress without a terminal: plain lines per finished task (rate-limited), none with --quiet."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from countermem.cli import app
from countermem.cli._common import ProgressLines, eta, format_duration

runner = CliRunner()


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_lines_are_rate_limited_per_key_but_the_last_always_prints(capsys: object) -> None:
    clock = Clock()
    lines = ProgressLines(interval_s=5.0, clock=clock)
    assert lines.print("a", "1/3")
    clock.now += 1
    assert not lines.print("a", "2/3"), "within the interval"
    assert lines.print("b", "1/2"), "another job has its own interval"
    assert lines.print("a", "3/3", final=True), "the last task always gets its line"
    clock.now += 5
    assert lines.print("a", "again")
    assert lines.elapsed() == 6


def test_durations_and_eta() -> None:
    assert format_duration(75) == "1m15s" and format_duration(3720) == "1h02m"
    assert eta(60.0, 0, 10) == "?" and eta(60.0, 2, 10) == "4m00s" and eta(60.0, 10, 10) == "0m00s"


def test_a_run_without_a_terminal_prints_a_line_per_task_unless_quiet(tmp_path: Path) -> None:
    command = ["run", "--benchmark", "sql-shop", "--backbone", "scripted", "--limit", "3"]
    result = runner.invoke(app, [*command, "--out", str(tmp_path / "a")])
    assert result.exit_code == 0, result.output
    progress = [line for line in result.output.splitlines() if line.startswith("progress:")]
    assert progress[0].startswith("progress: 1/3 tasks, solved 1,") and "elapsed, ETA" in progress[0]
    assert progress[-1].startswith("progress: 3/3 tasks, solved 3,")
    quiet = runner.invoke(app, [*command, "--out", str(tmp_path / "b"), "--quiet"])
    assert quiet.exit_code == 0, quiet.output
    assert "progress:" not in quiet.output and "success" in quiet.output


def test_a_study_job_without_a_terminal_prints_its_tasks_and_records(tmp_path: Path) -> None:
    toml = tmp_path / "study.toml"
    toml.write_text(
        'name = "lines"\nbenchmarks = ["sql-shop"]\nmethods = ["none", "countermem"]\nseeds = [1]\n'
        '[backbones.s]\nkind = "scripted"\n[split]\nconstruct = 3\ntrain = 2\nheldout = 3\n'
        '[memory]\nembedder = "lexical"\nselector = "top1"\n'
    )
    result = runner.invoke(app, ["study", str(toml), "--out", str(tmp_path / "s"), "--no-report"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    construct = [line for line in lines if line.startswith("progress: construct/")]
    assert construct and re.search(r": 3/3 tasks, solved \d+, \d+ records admitted; study \d+/\d+ task runs", construct[-1])
    assert any(re.match(r"progress: evaluate/\S+: 3/3 tasks, solved \d+; study", line) for line in lines)
    assert any(line.startswith("started construct/") for line in lines)
    narrow = runner.invoke(app, ["study", str(toml), "--out", str(tmp_path / "n"), "--no-report"], env={"COLUMNS": "30"})
    assert narrow.exit_code == 0, narrow.output
    started = [line for line in narrow.output.splitlines() if line.startswith("started ")]
    assert started and all(line.endswith(" tasks)") for line in started), "a log line is never cut mid-word"
    assert any(line.startswith("study lines into ") and line.endswith("worker(s)") for line in narrow.output.splitlines())
    quiet = runner.invoke(app, ["study", str(toml), "--out", str(tmp_path / "q"), "--no-report", "--quiet"])
    assert quiet.exit_code == 0, quiet.output
    assert not any(line.startswith(("progress:", "started ")) for line in quiet.output.splitlines())
    assert "jobs run" in quiet.output


def test_each_kind_of_job_is_paced_by_its_own_runs() -> None:
    from countermem.cli._pace import KindPace

    clock = Clock()
    pace = KindPace(clock=clock)
    pace.plan([("c", "construct", 4), ("e1", "evaluate", 10), ("e2", "evaluate", 10)], done_runs=0)
    assert pace.eta() == "?"
    clock.now += 300
    pace.finished("c", "construct", 1)  # 5 minutes a construction run (generation and checks)
    assert pace.eta() == "15m00s + 20 evaluate runs not yet timed"  # not 23 runs at 5 minutes each
    for done in (2, 3, 4):
        clock.now += 300
        pace.finished("c", "construct", done)
    clock.now += 30
    pace.finished("e1", "evaluate", 1)
    assert pace.eta() == "9m30s"  # 19 evaluation runs at 30 s
    pace.finished("e1", "evaluate", 1)  # the same count again adds nothing
    assert pace.runs == {"construct": 4, "evaluate": 1}


def test_a_resumed_study_counts_only_the_runs_it_makes() -> None:
    from countermem.cli._pace import KindPace

    clock = Clock()
    pace = KindPace(clock=clock)
    pace.plan([("c", "construct", 40), ("e", "evaluate", 20)], done_runs=13)  # stopped in construction
    assert pace.remaining == {"construct": 27, "evaluate": 20}
    clock.now += 120
    pace.finished("c", "construct", 14)  # its first count includes the 13 runs made before
    assert pace.runs == {"construct": 1} and pace.remaining["construct"] == 26
    assert pace.eta() == "52m00s + 20 evaluate runs not yet timed"


def test_the_pace_follows_the_latest_runs_after_cached_replays() -> None:
    from countermem.cli._pace import KindPace

    clock = Clock()
    pace = KindPace(clock=clock)
    pace.plan([("e", "evaluate", 20)], done_runs=0)
    for done in range(1, 11):  # replayed from the reply cache: a tenth of a second each
        clock.now += 0.1
        pace.finished("e", "evaluate", done)
    assert pace.per_run("evaluate") < 0.2 and pace.eta() in ("0m00s", "0m01s")
    for done in range(11, 16):  # real runs: a minute each
        clock.now += 60
        pace.finished("e", "evaluate", done)
    assert pace.eta() == "5m00s", "5 runs left at the pace of the last 5, not of all 15"
    assert pace.runs == {"evaluate": 15}
