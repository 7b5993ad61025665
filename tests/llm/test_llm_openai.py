"""OpenAIChat against a real HTTP server on 127.0.0.1 that answers from a script."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from countermem.core import ConfigError, LLMError, LLMUnreachableError
from countermem.llm import GenerationParams, Message, OpenAIChat, RetryPolicy

FAST = RetryPolicy(max_retries=3, initial_s=0.01, max_s=0.05)
HELLO = [Message(role="system", content="be brief"), Message(role="user", content="say hi")]


@dataclass
class Reply:
    status: int = 200
    body: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


def ok_body(
    text: str = "hi", *, prompt: int = 7, completion: int = 3, reasoning_tokens: int | None = None, **message: Any
) -> dict[str, Any]:
    usage: dict[str, Any] = {"prompt_tokens": prompt, "completion_tokens": completion,
                             "total_tokens": prompt + completion}
    if reasoning_tokens is not None:
        usage["completion_tokens_details"] = {"reasoning_tokens": reasoning_tokens}
    return {
        "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "served-model",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": text, **message}}],
        "usage": usage,
    }


class ScriptedServer:
    def __init__(self) -> None:
        self.replies: list[Reply] = []
        self.requests: list[dict[str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                server.requests.append({"path": self.path, "json": json.loads(self.rfile.read(length))})
                reply = server.replies.pop(0) if server.replies else Reply(500, {"error": "script empty"})
                time.sleep(reply.delay_s)
                payload = json.dumps(reply.body or {"error": {"message": "scripted failure"}}).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(payload)))
                    for key, value in reply.headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, *args: object) -> None:
                return None

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True)

    def client(self, **kwargs: Any) -> OpenAIChat:
        kwargs.setdefault("retry", FAST)
        return OpenAIChat("test-model", base_url=self.url, api_key="k", **kwargs)


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    scripted = ScriptedServer()
    scripted.thread.start()
    yield scripted
    scripted.httpd.shutdown()
    scripted.httpd.server_close()


def test_usage_text_and_params_pass_through(server: ScriptedServer) -> None:
    server.replies = [Reply(body=ok_body("SELECT 1", prompt=11, completion=5))]
    params = GenerationParams(temperature=0.3, max_tokens=64, seed=7, stop=("\n\n",))
    result = server.client().complete(HELLO, params)
    assert result.text == "SELECT 1"
    assert (result.usage.prompt_tokens, result.usage.completion_tokens, result.usage.reasoning_tokens) == (11, 5, 0)
    assert result.backend == "openai" and result.model == "served-model" and not result.cached
    sent = server.requests[0]
    assert sent["path"] == "/v1/chat/completions"
    body = sent["json"]
    assert body["model"] == "test-model"
    assert body["messages"] == [{"role": "system", "content": "be brief"}, {"role": "user", "content": "say hi"}]
    assert (body["temperature"], body["max_tokens"], body["seed"], body["stop"]) == (0.3, 64, 7, ["\n\n"])


def test_reasoning_tokens_and_text_are_kept(server: ScriptedServer) -> None:
    server.replies = [
        Reply(body=ok_body("42", prompt=9, completion=40, reasoning_tokens=31, reasoning_content="6 times 7")),
        Reply(body=ok_body("43", reasoning="gpt-oss style thinking")),
    ]
    llm = server.client()
    first = llm.complete(HELLO)
    assert first.usage.reasoning_tokens == 31 and first.usage.completion_tokens == 40
    assert first.reasoning == "6 times 7"
    assert llm.complete(HELLO).reasoning == "gpt-oss style thinking"


def test_server_error_then_success_is_retried(server: ScriptedServer) -> None:
    server.replies = [Reply(500), Reply(503), Reply(body=ok_body("fine"))]
    waits: list[float] = []
    result = server.client(sleep=waits.append).complete(HELLO)
    assert result.text == "fine"
    assert len(server.requests) == 3
    assert waits == [0.01, 0.02]


def test_rate_limit_is_retried_and_honours_retry_after(server: ScriptedServer) -> None:
    server.replies = [Reply(429, headers={"retry-after": "0.04"}), Reply(body=ok_body("after wait"))]
    waits: list[float] = []
    assert server.client(sleep=waits.append).complete(HELLO).text == "after wait"
    assert waits == [0.04]


def test_retries_exhausted_raise_llm_error(server: ScriptedServer) -> None:
    server.replies = [Reply(500)] * 4
    with pytest.raises(LLMError, match="failed 4 time") as caught:
        server.client().complete(HELLO)
    assert not isinstance(caught.value, LLMUnreachableError)
    assert len(server.requests) == 4


@pytest.mark.parametrize("status", [400, 401, 404, 422])
def test_other_client_errors_are_not_retried(server: ScriptedServer, status: int) -> None:
    server.replies = [Reply(status), Reply(body=ok_body())]
    with pytest.raises(LLMError, match=f"HTTP {status}"):
        server.client().complete(HELLO)
    assert len(server.requests) == 1


def test_read_timeout_is_retried(server: ScriptedServer) -> None:
    server.replies = [Reply(body=ok_body("late"), delay_s=0.6), Reply(body=ok_body("on time"))]
    result = server.client(timeout_s=0.3).complete(HELLO)
    assert result.text == "on time"


def test_missing_usage_block_is_an_error(server: ScriptedServer) -> None:
    body = ok_body()
    del body["usage"]
    server.replies = [Reply(body=body)]
    with pytest.raises(LLMError, match="no usage block"):
        server.client().complete(HELLO)


def test_closed_port_raises_unreachable_fast() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    llm = OpenAIChat("m", base_url=url, api_key="k", timeout_s=1.0, connect_timeout_s=0.5, retry=FAST)
    started = time.perf_counter()
    with pytest.raises(LLMUnreachableError) as caught:
        llm.complete(HELLO)
    assert time.perf_counter() - started < 3.0
    message = str(caught.value)
    assert "\n" not in message and url in message and "COUNTERMEM_BASE_URL" in message


def test_settings_fall_back_to_environment(monkeypatch: pytest.MonkeyPatch, server: ScriptedServer) -> None:
    monkeypatch.setenv("COUNTERMEM_BASE_URL", server.url)
    monkeypatch.setenv("COUNTERMEM_MODEL", "env-model")
    monkeypatch.delenv("COUNTERMEM_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    server.replies = [Reply(body=ok_body())]
    llm = OpenAIChat(retry=FAST)
    assert llm.name == "openai:env-model"
    llm.complete(HELLO)
    assert server.requests[0]["json"]["model"] == "env-model"


def test_missing_model_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COUNTERMEM_MODEL", raising=False)
    with pytest.raises(ConfigError, match="COUNTERMEM_MODEL"):
        OpenAIChat(base_url="http://127.0.0.1:9/v1")
