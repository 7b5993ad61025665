"""A model server that refuses every request (wrong base URL, model or key) stops the run, resumably."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from countermem.core import LLMRequestRejectedError, Task
from countermem.experiment import RunConfig, RunDir, oracle_script, run_tasks, select_tasks
from countermem.llm import Message, OpenAIChat, RetryPolicy


class OracleServer:
    """Answers chat requests from the oracle script until `refuse` is set, then with HTTP 404."""

    def __init__(self, script: Callable[[list[Message]], str]) -> None:
        self.refuse = False
        self.requests = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length))
                server.requests += 1
                if server.refuse:
                    status, reply = 404, {"error": {"message": "The model `wrong-model` does not exist."}}
                else:
                    text = script([Message(**m) for m in body["messages"]])
                    status, reply = (
                        200,
                        {
                            "id": "c",
                            "object": "chat.completion",
                            "created": 0,
                            "model": body["model"],
                            "choices": [
                                {
                                    "index": 0,
                                    "finish_reason": "stop",
                                    "message": {"role": "assistant", "content": text},
                                }
                            ],
                            "usage": {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7},
                        },
                    )
                payload = json.dumps(reply).encode()
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
def toy_run(toy_benchmark: Any) -> Iterator[tuple[OracleServer, list[Task]]]:
    tasks = select_tasks(toy_benchmark, RunConfig(benchmark="toy-add", backbone="openai", model="m", limit=4))
    served = OracleServer(oracle_script(toy_benchmark, tasks))
    served.thread.start()
    yield served, tasks
    served.httpd.shutdown()
    served.httpd.server_close()


def test_rejected_request_stops_the_run_and_resume_redoes_the_task(
    toy_benchmark: Any, toy_run: tuple[OracleServer, list[Task]], tmp_path: Path
) -> None:
    served, tasks = toy_run
    config = RunConfig(benchmark="toy-add", backbone="openai", model="m", base_url=served.url, limit=4)
    llm = OpenAIChat("m", base_url=served.url, api_key="k", retry=RetryPolicy(max_retries=2, initial_s=0.01))
    finished_before_refusal: list[str] = []

    def on_done(outcome: Any, count: int, total: int) -> None:
        finished_before_refusal.append(outcome.task_id)
        if count == 1:
            served.refuse = True  # e.g. the server was restarted with another model

    with pytest.raises(LLMRequestRejectedError) as caught:
        run_tasks(config, llm, toy_benchmark, tasks, RunDir(tmp_path), on_task_done=on_done)
    message = str(caught.value)
    assert "\n" not in message and "HTTP 404" in message and "does not exist" in message
    assert "model name 'm'" in message
    assert finished_before_refusal == [tasks[0].id]
    assert [o.task_id for o in RunDir(tmp_path).finished()] == [tasks[0].id], "the refused task is unfinished"
    assert not (tmp_path / "metrics.json").exists()

    served.refuse, served.requests = False, 0
    metrics = run_tasks(config, llm, toy_benchmark, tasks, RunDir(tmp_path), resume=True)
    assert served.requests == 2 * 3, "resume ran the refused task and the two after it, and only those"
    assert metrics.n_tasks == 4 and metrics.n_solved == 4
