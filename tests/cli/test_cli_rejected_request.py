"""`countermem run` against a server that refuses every request: one error line, exit 2, no task recorded."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from typer.testing import CliRunner

from countermem.cli import app

# Servers quote paths in brackets; rich would read "[/v1/...]" as a closing markup tag and crash.
REFUSAL = "File Not Found [/chat/completions] [error]"


@pytest.fixture
def refusing_server() -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("content-length", 0)))
            payload = json.dumps({"error": {"message": REFUSAL}}).encode()
            self.send_response(404)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: object) -> None:
            return None

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"  # the root, as if /v1 were forgotten
    httpd.shutdown()
    httpd.server_close()


def test_base_url_without_v1_stops_the_run_in_one_line(
    refusing_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COUNTERMEM_SAMPLING", raising=False)
    out = tmp_path / "run"
    args = ["run", "--benchmark", "sql-shop", "--backbone", "openai", "--model", "m"]
    result = CliRunner().invoke(
        app, [*args, "--base-url", refusing_server, "--limit", "2", "--out", str(out)]
    )
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: LLMRequestRejectedError: "), result.stderr
    line = lines[0]
    assert f"HTTP 404 to {refusing_server}/chat/completions: {REFUSAL};" in line
    assert "base URL ends in /v1" in line and "model name 'm'" in line
    results = out / "results.jsonl"
    assert not results.exists() or results.read_text() == "", "the refused task must stay unfinished"
    assert not (out / "metrics.json").exists()
