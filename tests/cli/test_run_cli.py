"""`countermem run` (and the stage commands) on mistakes a person makes: each ends in one line, no traceback."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from countermem.cli import app

runner = CliRunner()
RUN = ["run", "--benchmark", "sql-shop", "--backbone", "scripted"]


def _said(result: Result) -> str:
    """The command's output with rich's line wrapping undone."""
    return " ".join(result.output.split())


def _one_line_error(result: Result) -> str:
    assert result.exit_code not in (0, None), result.output
    assert isinstance(result.exception, SystemExit), result.exception
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.output
    return lines[0]


def test_run_refuses_a_folder_that_holds_no_run(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "report.md").write_text("my notes\n")
    (out / "results.jsonl").write_text('{"mine": 1}\n')
    for extra in ([], ["--resume"]):
        line = _one_line_error(runner.invoke(app, [*RUN, "--limit", "2", "--out", str(out), *extra]))
        assert "holds no countermem run" in line and "--out" in line
    assert sorted(p.name for p in out.iterdir()) == ["report.md", "results.jsonl"]
    assert (out / "results.jsonl").read_text() == '{"mine": 1}\n'


def test_run_resumes_only_its_own_config(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert runner.invoke(app, [*RUN, "--limit", "2", "--out", str(out)]).exit_code == 0
    again = _one_line_error(runner.invoke(app, [*RUN, "--limit", "2", "--out", str(out)]))
    assert "already holds a run" in again
    other = _one_line_error(runner.invoke(app, [*RUN, "--limit", "3", "--out", str(out), "--resume"]))
    assert "different config" in other
    resumed = runner.invoke(app, [*RUN, "--limit", "2", "--out", str(out), "--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert len((out / "results.jsonl").read_text().splitlines()) == 2


@pytest.mark.parametrize("command", ["run", "construct", "train", "evaluate"])
@pytest.mark.parametrize("limit", ["0", "-1"])
def test_limit_below_one_is_refused(command: str, limit: str, tmp_path: Path) -> None:
    args = [
        command,
        "--benchmark",
        "sql-shop",
        "--backbone",
        "scripted",
        "--limit",
        limit,
        "--out",
        str(tmp_path / "o"),
    ]
    if command != "run":
        args += ["--store", str(tmp_path / "s.sqlite")]
    if command in ("train", "evaluate"):
        args += ["--checkpoint", str(tmp_path / "c.pt")]
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert "'--limit'" in _said(result) and "greater than or equal to 1" in _said(result)
    assert not (tmp_path / "o").exists()


def test_unwritable_out_is_refused_before_the_model_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Tests run as root, where a chmod-ed folder stays writable; a path under a regular file fails for everyone.
    loaded: list[str] = []
    monkeypatch.setattr("countermem.llm.make_llm", lambda *a, **k: loaded.append("llm"))
    (tmp_path / "afile").write_text("x")
    line = _one_line_error(
        runner.invoke(app, [*RUN, "--limit", "2", "--out", str(tmp_path / "afile" / "run")])
    )
    assert "cannot write" in line and "afile" in line and "--out" in line
    assert not loaded


def test_a_split_typo_is_one_line(tmp_path: Path) -> None:
    line = _one_line_error(runner.invoke(app, [*RUN, "--split", "heldot", "--out", str(tmp_path / "o")]))
    assert "'heldot'" in line and "heldout" in line


def test_ctrl_c_prints_the_resume_command_and_exits_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from countermem.experiment import RunDir

    out = tmp_path / "my run"
    real_append = RunDir.append_result
    appended: list[str] = []

    def interrupted(self: RunDir, outcome) -> None:  # type: ignore[no-untyped-def]
        if len(appended) == 2:
            raise KeyboardInterrupt
        appended.append(outcome.task_id)
        real_append(self, outcome)

    monkeypatch.setattr(RunDir, "append_result", interrupted)
    args = [*RUN, "--limit", "4", "--max-steps", "3", "--split-by-task", "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 130, result.output
    said = _said(result)
    assert "Traceback" not in result.output and "interrupted" in said
    hint = next(line for line in result.output.splitlines() if line.startswith("countermem "))
    words = shlex.split(hint)
    assert words[:2] == ["countermem", "run"] and words[-1] == "--resume"
    assert {"--max-steps", "3", "--split-by-task", str(out), "--limit", "4"} <= set(words)
    monkeypatch.setattr(RunDir, "append_result", real_append)
    resumed = runner.invoke(app, words[1:])
    assert resumed.exit_code == 0, resumed.output
    ids = [json.loads(line)["task_id"] for line in (out / "results.jsonl").read_text().splitlines()]
    assert ids[:2] == appended and len(ids) == len(set(ids)) == 4
