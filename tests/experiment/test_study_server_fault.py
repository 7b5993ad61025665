"""A server fault stops a study: the job keeps no record, and running the study again redoes it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from countermem.cli import app
from countermem.cli._common import SERVER_FAULT_EXIT_CODE
from countermem.core import ConfigError, LLMServerFaultError
from countermem.experiment._study import run_study
from countermem.experiment._study_config import parse_study_config
from countermem.experiment._study_jobs import JOBS_DIR
from countermem.llm import RetryPolicy
from fake_chat_server import Reply, Responder, completion, serving


class SwitchServer(Responder):
    """Answers every request with one wrong SQL action (tasks finish, unsolved), or 503 while `down`."""

    def __init__(self) -> None:
        self.down = True


    def __call__(self, body: dict[str, Any]) -> Reply:
        if self.down:
            return 503, "application/json", b'{"error": {"message": "model is loading"}}'
        return completion("Action: submit\n```sql\nSELECT 1\n```")


@pytest.fixture
def switch(monkeypatch: pytest.MonkeyPatch) -> Iterator[SwitchServer]:
    monkeypatch.delenv("COUNTERMEM_SAMPLING", raising=False)
    monkeypatch.setattr(RetryPolicy, "delay", lambda self, retry: 0.0)  # the default waits 1+2+4+8 s
    switch = SwitchServer()
    with serving(switch):
        yield switch


def _config(url: str, **backbone: object) -> dict[str, object]:
    return {
        "name": "fault",
        "benchmarks": ["sql-shop"],
        "methods": ["none"],
        "seeds": [1],
        "backbones": {"b": {"kind": "openai", "model": "m", "base_url": url, **backbone}},
        "split": {"construct": 2, "train": 1, "heldout": 2},
        "memory": {"embedder": "lexical"},
    }


def test_a_server_fault_stops_the_study_and_a_rerun_redoes_the_job(switch: SwitchServer, tmp_path: Path) -> None:
    config = parse_study_config(_config(switch.url, timeout=30))
    with pytest.raises(LLMServerFaultError) as caught:
        run_study(config, tmp_path, write_report=False)
    message = str(caught.value)
    assert message.startswith("job ") and "HTTP 503" in message and "\n" not in message
    assert switch.requests == 5, "one task's five attempts, then the study stopped"
    assert not any((tmp_path / JOBS_DIR).glob("*.json")), "the faulted job is not marked done"

    switch.down = False
    outcome = run_study(config, tmp_path, write_report=False)
    assert outcome.ok and outcome.finished and not outcome.reused
    assert any((tmp_path / JOBS_DIR).glob("*.json"))


def test_cli_study_prints_one_line_and_exits_3(switch: SwitchServer, tmp_path: Path) -> None:
    toml = tmp_path / "s.toml"
    toml.write_text(
        f'name = "fault"\nbenchmarks = ["sql-shop"]\nmethods = ["none"]\nseeds = [1]\n'
        f'[backbones.b]\nkind = "openai"\nmodel = "m"\nbase_url = "{switch.url}"\n'
        '[split]\nconstruct = 2\ntrain = 1\nheldout = 2\n[memory]\nembedder = "lexical"\n'
    )
    result = CliRunner().invoke(app, ["study", str(toml), "--out", str(tmp_path / "out")])
    assert result.exit_code == SERVER_FAULT_EXIT_CODE, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: LLMServerFaultError: job "), result.stderr
    assert f"countermem study {toml} --out {tmp_path / 'out'}" in lines[0]


def test_a_timeout_on_a_backbone_without_a_server_is_refused() -> None:
    data = _config("http://127.0.0.1:9/v1")
    data["backbones"] = {"b": {"kind": "scripted", "timeout": 5}}
    with pytest.raises(ConfigError, match="timeout bounds requests to a model server"):
        parse_study_config(data)
