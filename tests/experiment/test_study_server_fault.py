"""A server fault stops a study: the job keeps no record, and running the study again redoes it."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from typer.testing import CliRunner

from countermem.cli import app
from countermem.cli._common import SERVER_FAULT_EXIT_CODE
from countermem.core import ConfigError, LLMServerFaultError
from countermem.experiment._study import run_study
from countermem.experiment._study_config import parse_study_config
from countermem.experiment._study_jobs import JOBS_DIR
from countermem.llm import RetryPolicy


class SwitchServer:
    """Answers every request with one wrong SQL action (tasks finish, unsolved), or 503 while `down`."""

    def __init__(self) -> None:
        self.down = True
        self.requests = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("content-length", 0)))
                server.requests += 1
                if server.down:
                    status, payload = 503, b'{"error": {"message": "model is loading"}}'
                else:
                    status, payload = 200, json.dumps({
                        "id": "c", "object": "chat.completion", "created": 0, "model": "m",
                        "choices": [{"index": 0, "finish_reason": "stop", "message": {
                            "role": "assistant", "content": "Action: submit\n```sql\nSELECT 1\n```"}}],
                        "usage": {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7},
                    }).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: object) -> None:
                return None

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True)


@pytest.fixture
def switch(monkeypatch: pytest.MonkeyPatch) -> Iterator[SwitchServer]:
    monkeypatch.delenv("COUNTERMEM_SAMPLING", raising=False)
    monkeypatch.setattr(RetryPolicy, "delay", lambda self, retry: 0.0)  # the default waits 1+2+4+8 s
    served = SwitchServer()
    served.thread.start()
    yield served
    served.httpd.shutdown()
    served.httpd.server_close()


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
