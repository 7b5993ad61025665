"""`countermem run` against a failing server: one line, exit 3, and the printed resume command works."""

from __future__ import annotations

import json
import shlex
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from typer.testing import CliRunner

from countermem.cli import app
from countermem.cli._common import SERVER_FAULT_EXIT_CODE
from countermem.domains import load_benchmark
from countermem.experiment import RunConfig, oracle_script, select_tasks
from countermem.llm import Message, RetryPolicy


class FlakyServer:
    """Answers sql-shop's oracle actions, or with an HTML error page while `broken` is set."""

    def __init__(self) -> None:
        bench = load_benchmark("sql-shop")
        tasks = select_tasks(bench, RunConfig(benchmark="sql-shop", backbone="openai", model="m", limit=2))
        script = oracle_script(bench, tasks)
        self.broken = True
        self.requests = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
                server.requests += 1
                if server.broken:
                    kind, payload = "text/html", b"<html><h1>502 Bad Gateway</h1></html>"
                else:
                    text = script([Message(**m) for m in body["messages"]])
                    kind, payload = "application/json", json.dumps({
                        "id": "c", "object": "chat.completion", "created": 0, "model": "m",
                        "choices": [{"index": 0, "finish_reason": "stop",
                                     "message": {"role": "assistant", "content": text}}],
                        "usage": {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7},
                    }).encode()
                self.send_response(200)
                self.send_header("content-type", kind)
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: object) -> None:
                return None

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True)


@pytest.fixture
def flaky(monkeypatch: pytest.MonkeyPatch) -> Iterator[FlakyServer]:
    monkeypatch.delenv("COUNTERMEM_SAMPLING", raising=False)
    monkeypatch.setattr(RetryPolicy, "delay", lambda self, retry: 0.0)  # the default waits 1+2+4+8 s
    served = FlakyServer()
    served.thread.start()
    yield served
    served.httpd.shutdown()
    served.httpd.server_close()


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
