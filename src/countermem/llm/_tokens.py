"""Counting the tokens of a piece of text the way a backend would, for augmentation tokens.

A rendered memory record sits in the agent's prompt; its share of the prompt tokens is the
'augmentation' part of task-run tokens. Backends that hold their tokenizer count it directly
(`count_tokens`). An OpenAI-compatible server has no tokenizer endpoint in the protocol, so the
count is measured: one request with the text as the only user message and `max_tokens=1`, minus
the prompt tokens of the same request with an empty message (the chat template's overhead).
Each text is measured once per process; the probe requests are real calls and are not part of
task-run tokens. A server that answers the probe without usage stops the run (ConfigError):
the count would otherwise read 0.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from countermem.core import ConfigError
from countermem.llm._protocol import LLM, GenerationParams, Message

TokenCounter = Callable[[str], int]


class _ProbeCounter:
    def __init__(self, llm: LLM) -> None:
        self.llm = llm
        self._cache: dict[str, int] = {}
        self._lock = threading.Lock()
        self._params = GenerationParams(max_tokens=1, temperature=0.0)

    def _prompt_tokens(self, text: str) -> int:
        completion = self.llm.complete([Message(role="user", content=text)], self._params)
        if not completion.usage.known:
            raise ConfigError(
                f"{self.llm.name} answered a token-count probe without usage, so the augmentation tokens of "
                "memory cannot be measured (they would read 0); use a server that reports usage (vLLM, "
                "SGLang, llama.cpp server and Ollama do), or run without memory"
            )
        return completion.usage.prompt_tokens

    def __call__(self, text: str) -> int:
        with self._lock:
            if "" not in self._cache:
                self._cache[""] = self._prompt_tokens("")
            if text not in self._cache:
                self._cache[text] = max(0, self._prompt_tokens(text) - self._cache[""])
            return self._cache[text]


def token_counter(llm: LLM) -> TokenCounter:
    """The backend's own counter where it has one, else a measured probe (see the module docstring)."""
    inner = getattr(llm, "inner", None)
    counter = getattr(llm, "count_tokens", None)
    if counter is None and inner is not None:
        counter = getattr(inner, "count_tokens", None)
    if callable(counter):
        return counter  # type: ignore[no-any-return]
    return _ProbeCounter(llm)
