"""`countermem report` on a single run directory, on a study folder, and on folders it must refuse."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from countermem.agents import Advice, Decision, Outcome
from countermem.cli import app
from countermem.experiment import RunConfig, RunDir, oracle_script, run_tasks, select_tasks
from countermem.llm import ScriptedLLM

runner = CliRunner()


class OfferEveryTask:
    """Offers one record at the start of every task; the oracle script ignores it."""

    def advise(self, decision: Decision) -> Advice | None:
        if decision.last_action is not None:
            return None
        return Advice(text="ADVICE: add carefully", record_id="rec-1", candidates=1, eligible=1)

    def feedback(self, decision: Decision, advice: Advice | None, outcome: Outcome) -> None:
        return None


def _said(result) -> str:  # type: ignore[no-untyped-def]
    """The command's output with rich's line wrapping undone."""
    return " ".join(result.output.split())


def _run(benchmark, path: Path, *, memory: bool, seed: int = 0) -> None:  # type: ignore[no-untyped-def]
    config = RunConfig(benchmark="toy-add", backbone="scripted", model="oracle-script", limit=4, seed=seed,
                       stage="evaluate" if memory else "run", memory={"selector": "fake"} if memory else None)
    tasks = select_tasks(benchmark, config)
    run_tasks(config, ScriptedLLM(oracle_script(benchmark, tasks)), benchmark, tasks, RunDir(path),
              memory=OfferEveryTask() if memory else None)


def test_report_rewrites_a_single_run_report(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _run(toy_benchmark, tmp_path / "run", memory=False)
    (tmp_path / "run" / "report.md").unlink()
    result = runner.invoke(app, ["report", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "run" / "report.md").read_text().count("| toy-") == 4
    result = runner.invoke(app, ["report", str(tmp_path / "run"), "--out", str(tmp_path / "elsewhere")])
    assert result.exit_code == 0, result.output
    assert "success (0-100) | 100.0 (4/4)" in (tmp_path / "elsewhere" / "report.md").read_text()
    assert (tmp_path / "elsewhere" / "utility_per_task.png").stat().st_size > 1000


def test_report_writes_a_study_report(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    study = tmp_path / "study"
    for seed in (0, 1):
        _run(toy_benchmark, study / "none" / "react" / "toy-add" / f"seed-{seed}", memory=False, seed=seed)
        _run(toy_benchmark, study / "offer" / "react" / "toy-add" / f"seed-{seed}", memory=True, seed=seed)
    result = runner.invoke(app, ["report", str(study), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "study report over 4 runs" in _said(result)
    md = (tmp_path / "out" / "study_report.md").read_text()
    assert "| offer | react | 100.0 ± 0.0 (n=2) | 100.0 |" in md
    # the oracle ignores advice: nothing rescued, broken or harmed; 8 uses over 2 seeds of 4 tasks
    assert "| offer | react | toy-add | 8 | 0 | 0 | +0.0 ± 0.0 (n=2) | 1 | [+0.0, +0.0] | 0.00 (0/8) | 0.00 (0/8) |" in md
    assert (tmp_path / "out" / "study_report.html").stat().st_size > 1000
    assert (tmp_path / "out" / "harmful_use_by_method.png").stat().st_size > 1000


def test_report_refuses_empty_unknown_and_unfinished_folders(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "empty").mkdir()
    result = runner.invoke(app, ["report", str(tmp_path / "empty")])
    assert result.exit_code == 2 and "is empty" in _said(result)
    (tmp_path / "junk" / "a").mkdir(parents=True)
    (tmp_path / "junk" / "notes.txt").write_text("hello")
    result = runner.invoke(app, ["report", str(tmp_path / "junk")])
    assert result.exit_code == 2 and "no run directories in the study layout" in _said(result)
    result = runner.invoke(app, ["report", str(tmp_path / "missing")])
    assert result.exit_code == 2 and "does not exist" in _said(result)
    _run(toy_benchmark, tmp_path / "cut", memory=False)
    (tmp_path / "cut" / "metrics.json").unlink()
    result = runner.invoke(app, ["report", str(tmp_path / "cut")])
    assert result.exit_code == 2 and "did not finish" in _said(result)
