"""A deterministic stand-in for a language model, for tests and dry runs.

Usage is counted by one documented rule so that token metrics in tests are exact and
reproducible: every whitespace-separated word is one token. Prompt tokens are the words of all
message contents; completion tokens are the words of the reply text plus those of its reasoning
(as OpenAI-style servers count reasoning inside completion tokens); reasoning tokens are the
words of the reasoning alone.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from pydantic import BaseModel, ConfigDict

from countermem.core import LLMError, Usage
from countermem.llm._protocol import Completion, GenerationParams, Message


class ScriptedReply(BaseModel):
    """A reply with optional reasoning text, to exercise reasoning-token accounting."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    reasoning: str | None = None


ScriptItem = str | ScriptedReply | Exception
"""An exception in a script is raised by that call, to test how callers handle failures."""

ScriptFunction = Callable[[list[Message]], str | ScriptedReply]


def count_words(text: str) -> int:
    return len(text.split())


def scripted_usage(messages: Sequence[Message], reply: ScriptedReply) -> Usage:
    reasoning = count_words(reply.reasoning or "")
    return Usage(
        prompt_tokens=sum(count_words(m.content) for m in messages),
        completion_tokens=count_words(reply.text) + reasoning,
        reasoning_tokens=reasoning,
    )


class ScriptedLLM:
    """Answers from a list consumed in order (an error once it runs out) or from a function.

    Every call's messages are kept in `calls` so a test can assert what a caller sent.
    """

    backend = "scripted"

    def __init__(self, script: Sequence[ScriptItem] | ScriptFunction, *, model: str = "scripted") -> None:
        self._function: ScriptFunction | None = None
        self._items: list[ScriptItem] = []
        if callable(script):
            self._function = script
        else:
            self._items = list(script)
        self.model = model
        self.calls: list[list[Message]] = []
        self._next = 0
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return f"{self.backend}:{self.model}"

    @property
    def remaining(self) -> int | None:
        """Replies left in a list script; None for a function script."""
        return None if self._function is not None else len(self._items) - self._next

    def count_tokens(self, text: str) -> int:
        """The same word rule as usage, so augmentation tokens are exact in tests."""
        return count_words(text)

    def complete(self, messages: list[Message], params: GenerationParams | None = None) -> Completion:
        with self._lock:
            self.calls.append(list(messages))
            item = self._take(messages)
        if isinstance(item, Exception):
            raise item
        reply = item if isinstance(item, ScriptedReply) else ScriptedReply(text=item)
        return Completion(
            text=reply.text,
            usage=scripted_usage(messages, reply),
            model=self.model,
            backend=self.backend,
            reasoning=reply.reasoning,
        )

    def _take(self, messages: list[Message]) -> ScriptItem:
        if self._function is not None:
            return self._function(list(messages))
        if self._next >= len(self._items):
            raise LLMError(
                f"ScriptedLLM ran out of replies after {len(self._items)} call(s); "
                "give the script one reply per expected call"
            )
        item = self._items[self._next]
        self._next += 1
        return item
