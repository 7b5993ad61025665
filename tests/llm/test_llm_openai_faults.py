"""Server faults of an OpenAI-compatible server: named, one line, and bounded in time.

Each test talks to a real HTTP server on 127.0.0.1 that sends raw bytes (an HTML page, broken
JSON, a reply trickled one byte at a time). Calls that could hang run under a hang guard: a
thread joined with a generous bound, so a regression fails instead of blocking the suite.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from countermem.core import ConfigError, LLMError, LLMServerFaultError, Usage
from countermem.llm import SAMPLING_ENV, Completion, Message, OpenAIChat, RetryPolicy

FAST = RetryPolicy(max_retries=2, initial_s=0.01, max_s=0.02)
HELLO = [Message(role="user", content="say hi")]
HANG_GUARD_S = 30.0
"""Far above any deadline used here; reached only when a request never ends."""


def chat_body(text: str = "hi", usage: dict[str, object] | None = None, **fields: object) -> bytes:
    body: dict[str, object] = {
        "id": "c", "object": "chat.completion", "created": 0, "model": "served",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
    }
    if usage is not None:
        body["usage"] = usage
    body.update(fields)
    return json.dumps(body).encode()


OK = chat_body(usage={"prompt_tokens": 4, "completion_tokens": 2, "total_tokens": 6})


@dataclass
class Raw:
    body: bytes
    status: int = 200
    content_type: str = "application/json"
    trickle_s: float = 0.0
    """Seconds between single bytes of the body (0: all at once)."""
    trickle_headers: bool = False


class RawServer:
    def __init__(self) -> None:
        self.replies: list[Raw] = []
        self.requests = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("content-length", 0)))
                server.requests += 1
                reply = server.replies.pop(0) if server.replies else Raw(OK)
                head = (
                    f"HTTP/1.1 {reply.status} X\r\ncontent-type: {reply.content_type}\r\n"
                    f"content-length: {len(reply.body)}\r\n\r\n"
                ).encode()
                try:
                    if reply.trickle_s and reply.trickle_headers:
                        self._trickle(head + reply.body, reply.trickle_s)
                    elif reply.trickle_s:
                        self.wfile.write(head)
                        self._trickle(reply.body, reply.trickle_s)
                    else:
                        self.wfile.write(head + reply.body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def _trickle(self, data: bytes, every_s: float) -> None:
                for i in range(min(len(data), 400)):  # bounded: ends by itself even if nobody hangs up
                    self.wfile.write(data[i : i + 1])
                    self.wfile.flush()
                    time.sleep(every_s)

            def log_message(self, *args: object) -> None:
                return None

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True)

    def client(self, **kwargs: object) -> OpenAIChat:
        kwargs.setdefault("retry", FAST)
        return OpenAIChat("test-model", base_url=self.url, api_key="k", **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[RawServer]:
    monkeypatch.delenv(SAMPLING_ENV, raising=False)
    raw = RawServer()
    raw.thread.start()
    yield raw
    raw.httpd.shutdown()
    raw.httpd.server_close()


def guarded(call: Callable[[], Completion]) -> BaseException | Completion:
    """Run `call` in a thread; fail the test (instead of hanging) if it has not ended in HANG_GUARD_S."""
    result: list[BaseException | Completion] = []

    def target() -> None:
        try:
            result.append(call())
        except BaseException as error:
            result.append(error)

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(HANG_GUARD_S)
    assert not worker.is_alive(), f"the request did not end within the hang guard of {HANG_GUARD_S} s"
    return result[0]


def _fault(server: RawServer, **client: object) -> str:
    with pytest.raises(LLMServerFaultError) as caught:
        server.client(**client).complete(HELLO)
    message = str(caught.value)
    assert "\n" not in message and server.url in message and "'test-model'" in message
    assert "not a result of the task" in message
    return message


def test_exhausted_retries_are_a_server_fault(server: RawServer) -> None:
    server.replies = [Raw(b'{"error": {"message": "overloaded"}}', status=503)] * 3
    message = _fault(server)
    assert "failed 3 time(s)" in message and "HTTP 503" in message
    assert server.requests == 3


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        (Raw(b'{"choices": [{"message": '), "not JSON (JSONDecodeError"),
        (Raw(b"<html><body>502 Bad Gateway</body></html>", content_type="text/html"), "<html><body>502"),
        (Raw(chat_body(choices=[])), "no choices"),
        (Raw(chat_body(choices=[{"index": 0, "message": "hi"}])), "has no message"),
        (Raw(chat_body(choices=[{"index": 0, "message": {"role": "assistant", "content": 7}}])), "content is a int"),
        (Raw(b'["not", "an", "object"]'), "not a chat completion (list)"),
    ],
)
def test_a_200_that_is_not_a_chat_completion_is_retried_then_a_server_fault(
    server: RawServer, reply: Raw, said: str
) -> None:
    server.replies = [reply] * 3
    message = _fault(server)
    assert said in message
    assert server.requests == 3, "a garbled reply may be a proxy's passing fault, so it is retried"


def test_a_garbled_reply_then_a_good_one_answers(server: RawServer) -> None:
    server.replies = [Raw(b"<html>busy</html>", content_type="text/html"), Raw(OK)]
    assert server.client().complete(HELLO).text == "hi"


@pytest.mark.parametrize(
    "usage", [None, {"prompt_tokens": None, "completion_tokens": 2}, {"prompt_tokens": 3}],
)
def test_missing_usage_is_counted_as_unknown_never_as_zero(
    server: RawServer, usage: dict[str, object] | None
) -> None:
    server.replies = [Raw(chat_body("hi", usage=usage))]
    completion = server.client().complete(HELLO)
    assert completion.text == "hi"
    assert completion.usage == Usage(unknown_calls=1) and not completion.usage.known
    total = completion.usage + Usage(prompt_tokens=5, completion_tokens=1)
    assert total.unknown_calls == 1 and not total.known, "a sum with an unknown call stays a lower bound"


@pytest.mark.parametrize("headers_too", [False, True], ids=["body", "headers"])
def test_a_trickling_server_meets_the_request_deadline(server: RawServer, headers_too: bool) -> None:
    server.replies = [Raw(OK, trickle_s=0.05, trickle_headers=headers_too)] * 2
    llm = server.client(timeout_s=1.0, retry=RetryPolicy(max_retries=1, initial_s=0.0))
    outcome = guarded(lambda: llm.complete(HELLO))
    assert isinstance(outcome, LLMServerFaultError), outcome
    assert "request deadline of 1 s" in str(outcome) and "failed 2 time(s)" in str(outcome)


def test_the_retry_budget_bounds_all_attempts_together(server: RawServer) -> None:
    server.replies = [Raw(b"{}", status=500)] * 1000
    llm = server.client(retry=RetryPolicy(max_retries=999, initial_s=0.02, multiplier=1.0, budget_s=0.3))
    outcome = guarded(lambda: llm.complete(HELLO))
    assert isinstance(outcome, LLMServerFaultError), outcome
    assert "retry budget of 0.3 s" in str(outcome)
    assert server.requests < 1000


def test_a_deadline_must_be_positive() -> None:
    with pytest.raises(ConfigError, match="positive number of seconds"):
        OpenAIChat("m", base_url="http://127.0.0.1:9/v1", api_key="k", timeout_s=0)


def test_an_unused_port_is_still_unreachable_not_a_fault() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    llm = OpenAIChat("m", base_url=f"http://127.0.0.1:{port}/v1", api_key="k", timeout_s=1.0, retry=FAST)
    with pytest.raises(LLMError) as caught:
        llm.complete(HELLO)
    assert type(caught.value).__name__ == "LLMUnreachableError"
