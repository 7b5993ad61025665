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

from countermem.core import ConfigError, LLMError, LLMRequestRejectedError, LLMUnreachableError
from countermem.llm import (
    LLAMA_CPP_SAMPLING,
    SAMPLING_ENV,
    GenerationParams,
    Message,
    OpenAIChat,
    RetryPolicy,
    parse_sampling,
)

FAST = RetryPolicy(max_retries=3, initial_s=0.01, max_s=0.05)
HELLO = [Message(role="system", content="be brief"), Message(role="user", content="say hi")]


@dataclass
class Reply:
    status: int = 200
    body: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


def ok_body(
    text: str = "hi",
    *,
    prompt: int = 7,
    completion: int = 3,
    reasoning_tokens: int | None = None,
    **message: Any,
) -> dict[str, Any]:
    usage: dict[str, Any] = {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }
    if reasoning_tokens is not None:
        usage["completion_tokens_details"] = {"reasoning_tokens": reasoning_tokens}
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "served-model",
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": text, **message},
            }
        ],
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
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedServer]:
    monkeypatch.delenv(SAMPLING_ENV, raising=False)
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
    assert (result.usage.prompt_tokens, result.usage.completion_tokens, result.usage.reasoning_tokens) == (
        11,
        5,
        0,
    )
    assert result.backend == "openai" and result.model == "served-model" and not result.cached
    sent = server.requests[0]
    assert sent["path"] == "/v1/chat/completions"
    body = sent["json"]
    assert body["model"] == "test-model"
    assert body["messages"] == [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "say hi"},
    ]
    assert (body["temperature"], body["max_tokens"], body["seed"], body["stop"]) == (0.3, 64, 7, ["\n\n"])


def test_reasoning_tokens_and_text_are_kept(server: ScriptedServer) -> None:
    server.replies = [
        Reply(
            body=ok_body("42", prompt=9, completion=40, reasoning_tokens=31, reasoning_content="6 times 7")
        ),
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


def test_missing_usage_block_is_unknown_usage(server: ScriptedServer) -> None:
    body = ok_body()
    del body["usage"]
    server.replies = [Reply(body=body)]
    usage = server.client().complete(HELLO).usage
    assert usage.unknown_calls == 1 and usage.total == 0 and not usage.known


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


def _error(message: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": "invalid_request_error", "code": None}}


@pytest.mark.parametrize(
    ("status", "body", "server_text", "advice"),
    [
        (404, {"detail": "Not Found"}, "Not Found", "base URL ends in /v1"),
        (404, _error("The model `test-model` does not exist."), "does not exist", "model name 'test-model'"),
        (401, _error("Incorrect API key provided"), "Incorrect API key", "check the API key"),
        (403, _error("not allowed"), "not allowed", "may use the model 'test-model'"),
        (405, {"detail": "Method Not Allowed"}, "Method Not Allowed", "base URL ends in /v1"),
        (400, _error("Unrecognized request argument supplied: top_k"), "top_k", f"{SAMPLING_ENV}=none"),
        (422, {"detail": [{"loc": ["body", "top_k"], "msg": "bad"}]}, "top_k", "check the model name"),
    ],
)
def test_repeating_client_errors_are_rejections_in_one_line(
    server: ScriptedServer, status: int, body: dict[str, Any], server_text: str, advice: str
) -> None:
    server.replies = [Reply(status, body), Reply(body=ok_body())]
    with pytest.raises(LLMRequestRejectedError) as caught:
        server.client().complete(HELLO)
    message = str(caught.value)
    assert "\n" not in message and f"HTTP {status}" in message
    assert f"{server.url}/chat/completions" in message
    assert server_text in message and advice in message
    assert len(server.requests) == 1


def test_base_url_without_v1_names_the_url_it_posted_to(server: ScriptedServer) -> None:
    root = server.url.removesuffix("/v1")
    server.replies = [Reply(404, {"detail": "Not Found"})]
    llm = OpenAIChat("test-model", base_url=root, api_key="k", retry=FAST)
    with pytest.raises(LLMRequestRejectedError, match=f"HTTP 404 to {root}/chat/completions: Not Found;"):
        llm.complete(HELLO)
    assert server.requests[0]["path"] == "/chat/completions"


def test_long_server_text_is_cut_short(server: ScriptedServer) -> None:
    server.replies = [Reply(400, _error("bad field " + "x" * 5000))]
    with pytest.raises(LLMRequestRejectedError) as caught:
        server.client().complete(HELLO)
    message = str(caught.value)
    assert "bad field xxx" in message and "x..." in message and len(message) < 700


def test_context_overflow_is_an_error_of_this_request_only(server: ScriptedServer) -> None:
    too_long = "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens."
    server.replies = [Reply(400, _error(too_long))]
    with pytest.raises(LLMError, match="does not fit the server's context") as caught:
        server.client().complete(HELLO)
    assert not isinstance(caught.value, LLMRequestRejectedError)


def test_request_timeout_status_is_retried(server: ScriptedServer) -> None:
    server.replies = [Reply(408), Reply(body=ok_body("second try"))]
    assert server.client().complete(HELLO).text == "second try"


def test_llama_cpp_sampling_is_sent_by_default(server: ScriptedServer) -> None:
    server.replies = [Reply(body=ok_body())]
    server.client().complete(HELLO, GenerationParams(temperature=0.0))
    body = server.requests[0]["json"]
    assert {name: body.get(name) for name in LLAMA_CPP_SAMPLING} == dict(LLAMA_CPP_SAMPLING)
    assert body["repeat_penalty"] == 1.0 and body["top_k"] == 40 and body["temperature"] == 0.0


def test_a_grammar_goes_in_the_body_only_when_given(server: ScriptedServer) -> None:
    server.replies = [Reply(body=ok_body()), Reply(body=ok_body())]
    server.client().complete(HELLO, GenerationParams(grammar='root ::= "a"'))
    server.client().complete(HELLO)
    assert server.requests[0]["json"]["grammar"] == 'root ::= "a"'
    assert "grammar" not in server.requests[1]["json"]


@pytest.mark.parametrize("setting", ["none", "", "  None "])
def test_sampling_none_sends_no_extras(server: ScriptedServer, setting: str) -> None:
    server.replies = [Reply(body=ok_body())]
    server.client(sampling=setting).complete(HELLO)
    assert not set(server.requests[0]["json"]) & set(LLAMA_CPP_SAMPLING)


def test_sampling_from_the_environment(monkeypatch: pytest.MonkeyPatch, server: ScriptedServer) -> None:
    server.replies = [Reply(body=ok_body()), Reply(body=ok_body())]
    monkeypatch.setenv(SAMPLING_ENV, "top_k=1, min_p=0.1")
    server.client().complete(HELLO)
    monkeypatch.setenv(SAMPLING_ENV, "")
    server.client().complete(HELLO)
    first, second = (r["json"] for r in server.requests)
    assert (first["top_k"], first["min_p"]) == (1, 0.1) and "repeat_penalty" not in first
    assert not set(second) & set(LLAMA_CPP_SAMPLING)


def test_extra_body_wins_over_sampling(server: ScriptedServer) -> None:
    server.replies = [Reply(body=ok_body())]
    server.client(extra_body={"top_k": 5, "chat_template_kwargs": {"enable_thinking": False}}).complete(HELLO)
    body = server.requests[0]["json"]
    assert body["top_k"] == 5 and body["min_p"] == 0.05
    assert body["chat_template_kwargs"] == {"enable_thinking": False}


def test_sampling_text_is_checked() -> None:
    assert parse_sampling("default") == dict(LLAMA_CPP_SAMPLING)
    assert parse_sampling("top_k=40,top_p=0.9") == {"top_k": 40, "top_p": 0.9}
    assert isinstance(parse_sampling("top_k=40")["top_k"], int)
    for bad in ("top_k", "top_k=", "top_k=forty", "top_p=nan"):
        with pytest.raises(ConfigError, match="sampling setting"):
            parse_sampling(bad)


def test_llama_cpp_server_reads_the_body_as_the_local_call() -> None:
    """What llama_cpp.server hands to create_chat_completion equals what LocalLLM passes."""
    llama_cpp = pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed")
    try:
        from llama_cpp.server.types import CreateChatCompletionRequest
    except ImportError as error:
        pytest.skip(f"llama_cpp.server is not importable ({error})")
    import inspect

    local_defaults = {
        name: parameter.default
        for name, parameter in inspect.signature(llama_cpp.Llama.create_chat_completion).parameters.items()
    }
    body = {"messages": [{"role": "user", "content": "hi"}], **LLAMA_CPP_SAMPLING}
    served = CreateChatCompletionRequest(**body).model_dump()
    for name in (
        "top_p",
        "top_k",
        "min_p",
        "repeat_penalty",
        "presence_penalty",
        "frequency_penalty",
        "mirostat_mode",
    ):
        assert served[name] == local_defaults[name], name
    bare = CreateChatCompletionRequest(messages=body["messages"]).model_dump()
    assert bare["repeat_penalty"] != local_defaults["repeat_penalty"], "the server's own default differs"
