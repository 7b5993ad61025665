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

Server faults are not task results. When the retries for 429, 5xx, 408 and time-outs run out,
or a 200 reply is not a chat completion (not JSON, an HTML page from a proxy, no `choices`, no
message, a message that is not text; such replies are retried like a 5xx first), the call
raises `LLMServerFaultError`: the runner stops the run and leaves the task in flight for
`--resume` instead of scoring the server's failure as the agent's.

Time: `timeout_s` is a total deadline for one HTTP request (connect, send, wait, read the whole
answer; see `_deadline`), not httpx's per-read time-out, so a server that trickles bytes cannot
hold a run forever. `RetryPolicy.budget_s` bounds one call's attempts and waits together.

Usage is taken as the server reports it. OpenAI-style servers count reasoning tokens inside
`completion_tokens` and report them separately in `completion_tokens_details.reasoning_tokens`;
we keep both numbers as given. countermem never estimates tokens: a 200 reply without a usage
block (or with token counts that are not integers) is counted as a call of unknown usage
(`Usage.unknown()`), never as 0 tokens; sums carry the count and reports call such totals
lower bounds.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeGuard

import openai
from openai.types import CompletionUsage
from openai.types.chat import ChatCompletion, ChatCompletionMessage, ChatCompletionMessageParam
from pydantic import BaseModel, ConfigDict, Field

from countermem.core import (
    ConfigError,
    LLMError,
    LLMRequestRejectedError,
    LLMServerFaultError,
    LLMUnreachableError,
    Usage,
)
from countermem.llm._deadline import deadline_http_client, request_deadline
from countermem.llm._protocol import Completion, GenerationParams, Message
from countermem.llm._sampling import SAMPLING_ENV, SamplingValue, resolve_sampling

logger = logging.getLogger(__name__)
_LOCAL_DUMMY_KEY = "countermem-no-key"
DEFAULT_REQUEST_TIMEOUT_S = 120.0
"""Total seconds one HTTP request may take (connect, wait and read the whole answer)."""
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
    budget_s: float = Field(default=600.0, gt=0.0)
    """Seconds one call may spend on all its attempts and waits together; each attempt's deadline
    is cut to what is left, and no retry starts once it is spent."""

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
        timeout_s: float = DEFAULT_REQUEST_TIMEOUT_S,
        connect_timeout_s: float = 5.0,
        retry: RetryPolicy | None = None,
        extra_body: Mapping[str, Any] | None = None,
        sampling: Mapping[str, SamplingValue] | str | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        resolved_model = model or _first_env("COUNTERMEM_MODEL")
        if not resolved_model:
            raise ConfigError("no model name for the openai backend; pass --model or set COUNTERMEM_MODEL")
        if not timeout_s > 0:
            raise ConfigError(f"the request time-out must be a positive number of seconds, got {timeout_s}")
        self.model = resolved_model
        self.timeout_s = float(timeout_s)
        self.retry = retry or RetryPolicy()
        self.sampling = resolve_sampling(sampling)
        self._extra_body = dict(extra_body or {})
        self._sleep = sleep
        self._client = openai.OpenAI(
            base_url=base_url or _first_env("COUNTERMEM_BASE_URL", "OPENAI_BASE_URL"),
            api_key=api_key or _first_env("COUNTERMEM_API_KEY", "OPENAI_API_KEY") or _LOCAL_DUMMY_KEY,
            timeout=openai.Timeout(timeout_s, connect=min(connect_timeout_s, timeout_s)),
            max_retries=0,
            http_client=deadline_http_client(),
        )
        self.base_url = str(self._client.base_url)
        self._warned_unknown_usage = False

    @property
    def name(self) -> str:
        return f"{self.backend}:{self.model}"

    def complete(self, messages: list[Message], params: GenerationParams | None = None) -> Completion:
        params = params or GenerationParams()
        policy = self.retry
        attempts = policy.max_retries + 1
        started = time.monotonic()
        connect_failures = 0
        failure = "none"
        for attempt in range(1, attempts + 1):
            left = policy.budget_s - (time.monotonic() - started)
            if left <= 0:
                raise self._fault(f"gave no answer within the retry budget of {policy.budget_s:g} s "
                                  f"({attempt - 1} attempt(s))", failure)
            began = time.perf_counter()
            deadline = min(self.timeout_s, left)
            try:
                with request_deadline(deadline):
                    response = self._create(messages, params)
                return self._to_completion(response, time.perf_counter() - began)
            except _BadReply as error:
                failure = str(error)
                wait = policy.delay(attempt)
            except (json.JSONDecodeError, UnicodeDecodeError) as error:
                failure = f"a 200 reply whose body is not JSON ({type(error).__name__}: {_shorten(str(error), 80)})"
                wait = policy.delay(attempt)
            except openai.APIConnectionError as error:
                cause = error.__cause__ or error
                reason = " ".join(str(cause).split()) or type(cause).__name__
                if isinstance(error, openai.APITimeoutError) and type(cause).__name__ != "ConnectTimeout":
                    failure = f"no complete answer within the request deadline of {deadline:g} s ({reason})"
                else:
                    connect_failures += 1
                    if connect_failures > policy.max_connect_retries or attempt == attempts:
                        raise LLMUnreachableError(
                            f"cannot reach the model server at {self.base_url} ({reason}); check "
                            "that the server is running and that --base-url / COUNTERMEM_BASE_URL points at "
                            "its /v1 endpoint"
                        ) from error
                    failure = f"connection failed ({reason})"
                wait = policy.delay(attempt)
            except openai.APIStatusError as error:
                status = error.status_code
                if status not in _RETRY_STATUS and status < 500:
                    raise self._client_error(error) from error
                failure = f"HTTP {status}: {_shorten(' '.join(error.message.split()))}"
                hinted = _retry_after(error)
                wait = policy.delay(attempt) if hinted is None else min(hinted, policy.max_s)
            if attempt < attempts:
                self._sleep(max(0.0, min(wait, policy.budget_s - (time.monotonic() - started))))
        raise self._fault(f"failed {attempts} time(s)", failure)

    def _fault(self, what: str, failure: str) -> LLMServerFaultError:
        return LLMServerFaultError(
            f"model server at {self.base_url} {what} for model {self.model!r}; last error: {failure}; "
            "this is a fault of the server, not a result of the task: retry later, or raise "
            "--request-timeout / the retry settings"
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

    def _to_completion(self, response: object, latency: float) -> Completion:
        """The reply as a Completion, or `_BadReply` when a 200 carried something else.

        The SDK does not validate replies: an HTML page comes back as a str, a JSON object
        without the expected fields as a half-built model, so each field is checked here.
        """
        if not isinstance(response, ChatCompletion):
            shown = _shorten(" ".join(response.split()), 80) if isinstance(response, str) else type(response).__name__
            raise _BadReply(f"a 200 reply that is not a chat completion ({shown})")
        choices = response.choices
        if not isinstance(choices, list) or not choices:
            raise _BadReply("a 200 reply with no choices")
        message = getattr(choices[0], "message", None)
        if not isinstance(message, ChatCompletionMessage):
            raise _BadReply("a 200 reply whose first choice has no message")
        if not isinstance(message.content, str | None):
            raise _BadReply(f"a 200 reply whose message content is a {type(message.content).__name__}, not text")
        model = response.model if isinstance(response.model, str) and response.model else self.model
        return Completion(
            text=message.content or "",
            usage=self._usage(response.usage),
            model=model,
            backend=self.backend,
            latency_s=latency,
            reasoning=_reasoning_text(message),
        )

    def _usage(self, usage: object) -> Usage:
        prompt = getattr(usage, "prompt_tokens", None)
        completion = getattr(usage, "completion_tokens", None)
        if not isinstance(usage, CompletionUsage) or not _count(prompt) or not _count(completion):
            if not self._warned_unknown_usage:
                self._warned_unknown_usage = True
                logger.warning(
                    "model server at %s sent a reply without usage; such calls are counted as unknown "
                    "usage (token totals become lower bounds), never as 0 tokens", self.base_url,
                )
            return Usage.unknown()
        details = usage.completion_tokens_details
        reasoning = getattr(details, "reasoning_tokens", None)
        return Usage(
            prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens,
            reasoning_tokens=reasoning if _count(reasoning) else 0,
        )


class _BadReply(Exception):
    """A 200 reply that is not a chat completion; retried, and a server fault when retries run out."""


def _count(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


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
