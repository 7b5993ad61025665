"""A second `countermem run` on a folder a live process writes: one line naming it, no model request."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from typer.testing import CliRunner

import countermem
from countermem.cli import app

HOLDER = """
import sys
from pathlib import Path
from countermem.experiment._lock import hold_folder
hold_folder(Path(sys.argv[1]))
print("held", flush=True)
sys.stdin.read()  # until the test closes our stdin
"""


@pytest.fixture
def counting_server() -> Iterator[list[int]]:
    seen: list[int] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            seen.append(1)
            self.send_response(500)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            return None

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    seen.append(httpd.server_address[1])  # first item: the port
    yield seen
    httpd.shutdown()
    httpd.server_close()


def test_a_second_writer_gets_one_line_naming_the_holder_and_sends_nothing(
    counting_server: list[int], tmp_path: Path
) -> None:
    port = counting_server[0]
    out = tmp_path / "run"
    out.mkdir()
    env = {**os.environ, "PYTHONPATH": str(Path(countermem.__file__).parents[1])}
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(out)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        args = ["run", "--benchmark", "sql-shop", "--backbone", "openai", "--model", "m",
                "--base-url", f"http://127.0.0.1:{port}/v1", "--limit", "1", "--out", str(out), "--resume"]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "is being written by another countermem process" in lines[0], result.stderr
        assert f"pid {holder.pid} on " in lines[0]
        assert counting_server[1:] == [], "the refused run sent no model request"
        assert not (out / "manifest.json").exists()
    finally:
        holder.communicate(input="", timeout=60)  # closing stdin ends the holder, and with it the lock

    scripted = CliRunner().invoke(app, ["run", "--benchmark", "sql-shop", "--backbone", "scripted", "--limit", "1",
                                        "--out", str(out)])
    assert scripted.exit_code == 0, scripted.output  # the holder is gone: its lock file blocks nothing
