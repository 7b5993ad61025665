"""Small shared value types that cross every layer.

They are pydantic models so that transcripts, records and results serialise to JSON without
hand-written converters, and frozen so that a task or a check result cannot change after it
has been logged.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

JSONValue = Any
FactValue = bool | int | float | str | tuple[str, ...]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Task(_Frozen):
    """One problem of a benchmark.

    `environment` names what the task runs against (a database, a Coq import set) so that
    splits can keep environments disjoint. `gold` is never shown to an agent.
    """

    id: str
    benchmark: str
    domain: str
    prompt: str
    environment: str | None = None
    gold: str | None = None
    metadata: dict[str, JSONValue] = Field(default_factory=dict)


class Action(_Frozen):
    """What an agent proposes to the world model: the artifact itself (a query, code, a proof)."""

    content: str


class Cost(_Frozen):
    seconds: float = 0.0
    calls: int = 0

    def __add__(self, other: Cost) -> Cost:
        return Cost(seconds=self.seconds + other.seconds, calls=self.calls + other.calls)


CheckStatus = Literal["passed", "wrong", "error", "timeout", "rejected", "unchecked", "malformed"]
"""`unchecked` is never a world model's verdict: it marks a result nobody checked (the
unverified-advice baseline stores alternatives that way, with `completed=False`). Nor is
`malformed`: an agent gives it to an answer that broke its output contract (no `Action:` line),
which no checker saw (see `countermem.core._malformed`)."""


class CheckResult(_Frozen):
    """The world model's judgement of one action.

    `completed` is False when the check could not finish (time-out, checker crash): admission
    only trusts completed checks. `status` names the outcome so that a person and the metrics
    can tell a wrong answer from malformed input.
    """

    utility: float
    passed: bool
    completed: bool
    status: CheckStatus
    details: str = ""
    cost: Cost = Field(default_factory=Cost)

    @field_validator("utility")
    @classmethod
    def _in_unit_interval(cls, value: float) -> float:
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"utility must lie in [0, 1], got {value}")
        return value


class Usage(_Frozen):
    """Token usage as the backend reported it; reasoning tokens are those a model spent thinking.

    `unknown_calls` counts the calls whose server sent no usage (some OpenAI-compatible proxies
    leave it out). Their tokens are unknown, not 0: they add nothing to the token fields, and
    every sum carries the count, so any total with `unknown_calls > 0` is a lower bound and is
    reported as one (see `known`).
    """

    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    unknown_calls: int = 0

    @classmethod
    def unknown(cls) -> Usage:
        """One call whose usage the server did not report."""
        return cls(unknown_calls=1)

    @property
    def known(self) -> bool:
        """False when some call behind these numbers reported no usage (the totals are lower bounds)."""
        return self.unknown_calls == 0

    @property
    def total(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            reasoning_tokens=self.reasoning_tokens + other.reasoning_tokens,
            unknown_calls=self.unknown_calls + other.unknown_calls,
        )


class Facts(_Frozen):
    """Observable facts of one decision, which applicability conditions may test.

    A domain decides which facts exist (tables and columns of a schema, the number of
    variables of a formula); memory code evaluates conditions over them without knowing
    the domain.
    """

    values: dict[str, FactValue] = Field(default_factory=dict)

    def get(self, name: str) -> FactValue | None:
        return self.values.get(name)
