"""Any OpenAI-compatible chat endpoint (vLLM, SGLang, Ollama, llama.cpp server, OpenAI itself).

Retries are ours, not the SDK's (its own are switched off), so that one documented policy holds
for every server: exponential backoff on 429, 5xx, 408 and time-outs, no retry on any other 4xx
because resending a bad request cannot fix it. A server that cannot be reached at all raises
`LLMUnreachableError` with one line naming the URL, since that is almost always a server that
was not started or a wrong `--base-url`. Any other 4xx raises `LLMRequestRejectedError`: a base
URL without `/v1`, a wrong model name or API key fails every later call alike, so the caller
stops the run instead of recording one failed task after another. The exception is a prompt
longer than the server's context window (400 or 413 naming the context), which only this
request has; it stays a plain `LLMError`, as in the local backend.

Sampling: the llama.cpp sampler settings of `_sampling` go into every request body, so a
`llama_cpp.server` answers as the embedded `local` backend does (see that module).

Usage is taken as the server reports it. OpenAI-style servers count reasoning tokens inside
`completion_tokens` and report them separately in `completion_tokens_details.reasoning_tokens`;
we keep both numbers as given. A response without a usage block is an error: countermem never
estimates tokens.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Mapping
from typing import Any

import openai
from openai.types.chat import ChatCompletion, ChatCompletionMessage, ChatCompletionMessageParam
from pydantic import BaseModel, ConfigDict, Field

from countermem.core import ConfigError, LLMError, LLMRequestRejectedError, LLMUnreachableError, Usage
from countermem.llm._protocol import Completion, GenerationParams, Message
from countermem.llm._sampling import SAMPLING_ENV, SamplingValue, resolve_sampling

_LOCAL_DUMMY_KEY = "countermem-no-key"
_RETRY_STATUS = frozenset({408, 429})
_SERVER_TEXT_CHARS = 200
_CONTEXT_OVERFLOW = re.compile(
    r"context[ _](length|window|size)|maximum context|too many tokens|prompt is too long", re.IGNORECASE
)
"""How vLLM, SGLang, OpenAI and both llama.cpp servers word a prompt that does not fit."""


class RetryPolicy(BaseModel):
    """Exponential backoff: retry n waits `initial_s * multiplier**(n-1)`, capped at `max_s`.

    A `Retry-After` header from the server replaces the computed wait (still capped at `max_s`).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_retries: int = Field(default=4, ge=0)
    initial_s: float = Field(default=1.0, ge=0.0)
    multiplier: float = Field(default=2.0, ge=1.0)
    max_s: float = Field(default=30.0, ge=0.0)
    max_connect_retries: int = Field(default=1, ge=0)
    """A refused connection is retried at most this often (within `max_retries`): a server that is
    not running will not start in the next seconds, and the user should hear so fast."""

    def delay(self, retry: int) -> float:
        return float(min(self.max_s, self.initial_s * self.multiplier ** (retry - 1)))


def _first_env(*names: str) -> str | None:
    for name in names:
        value = os.environ.get(name)
        if value:
            return value
    return None


def _retry_after(error: openai.APIStatusError) -> float | None:
    header = error.response.headers.get("retry-after")
    try:
        return float(header) if header is not None else None
    except ValueError:
        return None


class OpenAIChat:
    """Chat completions over HTTP through the `openai` SDK.

    Arguments fall back to COUNTERMEM_BASE_URL / OPENAI_BASE_URL, COUNTERMEM_MODEL and
    COUNTERMEM_API_KEY / OPENAI_API_KEY; local servers accept any key, so a placeholder is used
    when none is set. `sampling` (a mapping, a `parse_sampling` text, else $COUNTERMEM_SAMPLING,
    else the local backend's llama.cpp settings) and `extra_body` (e.g. vLLM's
    `chat_template_kwargs`) go into the request body; `extra_body` wins where both name a field.
    """

    backend = "openai"

    def __init__(
        self,
        model: str | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 120.0,
        connect_timeout_s: float = 5.0,
        retry: RetryPolicy | None = None,
        extra_body: Mapping[str, Any] | None = None,
        sampling: Mapping[str, SamplingValue] | str | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        resolved_model = model or _first_env("COUNTERMEM_MODEL")
        if not resolved_model:
            raise ConfigError("no model name for the openai backend; pass --model or set COUNTERMEM_MODEL")
        self.model = resolved_model
        self.retry = retry or RetryPolicy()
        self.sampling = resolve_sampling(sampling)
        self._extra_body = dict(extra_body or {})
        self._sleep = sleep
        self._client = openai.OpenAI(
            base_url=base_url or _first_env("COUNTERMEM_BASE_URL", "OPENAI_BASE_URL"),
            api_key=api_key or _first_env("COUNTERMEM_API_KEY", "OPENAI_API_KEY") or _LOCAL_DUMMY_KEY,
            timeout=openai.Timeout(timeout_s, connect=min(connect_timeout_s, timeout_s)),
            max_retries=0,
        )
        self.base_url = str(self._client.base_url)

    @property
    def name(self) -> str:
        return f"{self.backend}:{self.model}"

    def complete(self, messages: list[Message], params: GenerationParams | None = None) -> Completion:
        params = params or GenerationParams()
        started = time.perf_counter()
        response = self._create_with_retries(messages, params)
        latency = time.perf_counter() - started
        return self._to_completion(response, latency)

    def _create_with_retries(self, messages: list[Message], params: GenerationParams) -> ChatCompletion:
        attempts = self.retry.max_retries + 1
        connect_failures = 0
        for attempt in range(1, attempts + 1):
            try:
                return self._create(messages, params)
            except openai.APIConnectionError as error:
                cause = error.__cause__ or error
                reason = " ".join(str(cause).split()) or type(cause).__name__
                if isinstance(error, openai.APITimeoutError) and type(cause).__name__ != "ConnectTimeout":
                    failure: str = "timed out waiting for the answer"
                else:
                    connect_failures += 1
                    if connect_failures > self.retry.max_connect_retries or attempt == attempts:
                        raise LLMUnreachableError(
                            f"cannot reach the model server at {self.base_url} ({reason}); check "
                            "that the server is running and that --base-url / COUNTERMEM_BASE_URL points at "
                            "its /v1 endpoint"
                        ) from error
                    failure = f"connection failed ({reason})"
                wait = self.retry.delay(attempt)
            except openai.APIStatusError as error:
                status = error.status_code
                if status not in _RETRY_STATUS and status < 500:
                    raise self._client_error(error) from error
                failure = f"HTTP {status}: {error.message}"
                hinted = _retry_after(error)
                wait = self.retry.delay(attempt) if hinted is None else min(hinted, self.retry.max_s)
            if attempt < attempts:
                self._sleep(wait)
        raise LLMError(
            f"model server at {self.base_url} failed {attempts} time(s) for model {self.model!r}; "
            f"last error: {failure}; retry later or raise the retry/time-out settings"
        )

    def _create(self, messages: list[Message], params: GenerationParams) -> ChatCompletion:
        return self._client.chat.completions.create(
            model=self.model,
            messages=[_message_param(m) for m in messages],
            temperature=params.temperature,
            max_tokens=params.max_tokens,
            seed=params.seed,
            stop=list(params.stop) or None,
            extra_body={**self.sampling, **self._extra_body, **_grammar_field(params)} or None,
        )

    def _client_error(self, error: openai.APIStatusError) -> LLMError:
        status = error.status_code
        text = _server_text(error)
        said = f"model server answered HTTP {status} to {error.request.url}: {_shorten(text)}"
        if status in (400, 413) and _CONTEXT_OVERFLOW.search(text):
            return LLMError(
                f"{said}; this prompt does not fit the server's context, shorten it or serve a longer context"
            )
        if status == 401:
            hint = "check the API key (--api-key, COUNTERMEM_API_KEY or OPENAI_API_KEY)"
        elif status == 403:
            hint = f"check that the API key may use the model {self.model!r}"
        elif status in (404, 405):
            hint = (
                f"check that the base URL ends in /v1 (now {self.base_url}) and the model name "
                f"{self.model!r} (GET <base URL>/models lists what the server serves)"
            )
        else:
            hint = f"check the model name {self.model!r} and the request settings"
            if self.sampling:
                hint += (
                    f"; a server that refuses unknown fields needs {SAMPLING_ENV}=none (sent: "
                    f"{', '.join(self.sampling)})"
                )
        return LLMRequestRejectedError(f"{said}; {hint}; every call would fail alike")

    def _to_completion(self, response: ChatCompletion, latency: float) -> Completion:
        if not response.choices:
            raise LLMError(f"model server at {self.base_url} returned no choices for model {self.model!r}")
        usage = response.usage
        if usage is None:
            raise LLMError(
                f"model server at {self.base_url} returned no usage block; countermem never estimates "
                "tokens, so use a server that reports usage (vLLM, SGLang, llama.cpp server and Ollama do)"
            )
        details = usage.completion_tokens_details
        reasoning_tokens = (details.reasoning_tokens if details is not None else None) or 0
        message = response.choices[0].message
        return Completion(
            text=message.content or "",
            usage=Usage(
                prompt_tokens=usage.prompt_tokens or 0,
                completion_tokens=usage.completion_tokens or 0,
                reasoning_tokens=reasoning_tokens,
            ),
            model=response.model or self.model,
            backend=self.backend,
            latency_s=latency,
            reasoning=_reasoning_text(message),
        )


def _server_text(error: openai.APIStatusError) -> str:
    """The server's own words: OpenAI-style `error.message`, FastAPI's `detail`, else the raw body."""
    body: object = error.body  # the SDK has already unwrapped a top-level "error" object
    if isinstance(body, Mapping):
        body = body.get("message") or body.get("detail") or body
    text = " ".join(str(body if body is not None else "").split())
    return text or "(no error text)"


def _shorten(text: str, limit: int = _SERVER_TEXT_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _message_param(message: Message) -> ChatCompletionMessageParam:
    if message.role == "system":
        return {"role": "system", "content": message.content}
    if message.role == "user":
        return {"role": "user", "content": message.content}
    return {"role": "assistant", "content": message.content}


def _reasoning_text(message: ChatCompletionMessage) -> str | None:
    """vLLM/SGLang put thinking in `reasoning_content`; newer vLLM (gpt-oss) in `reasoning`."""
    extra: dict[str, Any] = message.model_extra or {}
    for field in ("reasoning_content", "reasoning"):
        value = extra.get(field)
        if isinstance(value, str) and value:
            return value
    return None


def _grammar_field(params: GenerationParams) -> dict[str, str]:
    """llama.cpp's server reads a GBNF grammar from `grammar` in the request body."""
    return {"grammar": params.grammar} if params.grammar else {}
