"""`countermem run` against a failing server: one line, exit 3, and the printed resume command works."""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from countermem.cli import app
from countermem.cli._common import SERVER_FAULT_EXIT_CODE
from countermem.domains import load_benchmark
from countermem.experiment import RunConfig, oracle_script, select_tasks
from countermem.llm import Message, RetryPolicy
from fake_chat_server import Reply, Responder, completion, serving


class FlakyServer(Responder):
    """Answers sql-shop's oracle actions, or with an HTML error page while `broken` is set."""

    def __init__(self) -> None:
        bench = load_benchmark("sql-shop")
        tasks = select_tasks(bench, RunConfig(benchmark="sql-shop", backbone="openai", model="m", limit=2))
        self.script = oracle_script(bench, tasks)
        self.broken = True


    def __call__(self, body: dict[str, Any]) -> Reply:
        if self.broken:
            return 200, "text/html", b"<html><h1>502 Bad Gateway</h1></html>"
        return completion(self.script([Message(**m) for m in body["messages"]]))


@pytest.fixture
def flaky(monkeypatch: pytest.MonkeyPatch) -> Iterator[FlakyServer]:
    monkeypatch.delenv("COUNTERMEM_SAMPLING", raising=False)
    monkeypatch.setattr(RetryPolicy, "delay", lambda self, retry: 0.0)  # the default waits 1+2+4+8 s
    flaky = FlakyServer()
    with serving(flaky):
        yield flaky


def test_a_server_fault_stops_the_run_in_one_line_and_the_printed_resume_finishes_it(
    flaky: FlakyServer, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    args = ["run", "--benchmark", "sql-shop", "--backbone", "openai", "--model", "m", "--base-url", flaky.url,
            "--limit", "2", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == SERVER_FAULT_EXIT_CODE == 3, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: LLMServerFaultError: "), result.stderr
    assert "failed 5 time(s)" in lines[0] and "<html><h1>502 Bad Gateway" in lines[0]
    assert flaky.url in lines[0] and "finished tasks are saved" in lines[0]
    results = out / "results.jsonl"
    assert not results.exists() or results.read_text() == "", "the server's fault is no task's result"

    resume = shlex.split(lines[0].split("run again with: ", 1)[1])
    assert resume[0] == "countermem" and resume[-1] == "--resume"
    flaky.broken = False
    again = CliRunner().invoke(app, resume[1:])
    assert again.exit_code == 0, again.output
    assert len(results.read_text().splitlines()) == 2
    assert "success:" in again.stdout and "100.0 (2/2)" in again.stdout


def test_request_timeout_is_refused_for_a_backbone_without_a_server(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, [
        "run", "--benchmark", "sql-shop", "--backbone", "scripted", "--request-timeout", "5",
        "--limit", "1", "--out", str(tmp_path / "r"),
    ])
    assert result.exit_code == 2
    assert "--request-timeout bounds requests to a model server" in result.stderr
    assert not (tmp_path / "r" / "manifest.json").exists()
