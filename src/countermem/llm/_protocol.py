"""The one protocol every language-model backend implements.

Agents, the generator and baselines only see `LLM.complete`; which server or file answers is
the backend's business. Every backend reports the usage its engine counted: nothing here
estimates tokens.
"""

from __future__ import annotations

from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from countermem.core import Usage

Role = Literal["system", "user", "assistant"]


class Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    role: Role
    content: str


class GenerationParams(BaseModel):
    """Sampling settings; part of the response-cache key."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    temperature: float = 0.0
    max_tokens: int = 512
    seed: int | None = 0
    stop: tuple[str, ...] = ()
    grammar: str | None = None
    """A GBNF grammar the answer must follow (llama.cpp backends); None: free text."""


class Completion(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    usage: Usage
    model: str
    backend: str
    cached: bool = False
    latency_s: float = 0.0
    reasoning: str | None = Field(default=None, description="reasoning text, where a server returns it")


@runtime_checkable
class LLM(Protocol):
    """A chat model. `name` identifies backend and model in logs and the cache key."""

    @property
    def name(self) -> str: ...

    def complete(self, messages: list[Message], params: GenerationParams | None = None) -> Completion: ...
