"""The one hook through which memory reaches an agent: retrieve, select, render — or skip.

These types live in core because both sides use them: agents call the hook, memory implements
it, and neither may import the other's layer upward.

Agents do not know how advice is found; they describe the decision they are at and put
whatever text comes back into the prompt, counting its tokens as augmentation. After the
task they report the outcome so that reuse statistics and the selector can learn.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from countermem.core._types import Action, CheckResult, Facts, Task


class Decision(BaseModel):
    """What an agent knows at the moment it asks for advice."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task: Task
    situation: str
    facts: Facts
    step: int = 0
    trial: int = 0
    last_action: Action | None = None
    last_result: CheckResult | None = None
    salvaged: str | None = None
    """When `last_result` is malformed: the action that answer holds (`Benchmark.salvage`); when it
    is a check that failed on form alone: the action made well-formed (`Benchmark.form_fix`). What
    a form repair is shown applied to. None: nothing to salvage, so no form repair is shown (an
    agent of your own sets it to offer them: `benchmark.salvage(answer)`, or
    `benchmark.form_fix(action, result)` after a failed check)."""


class Advice(BaseModel):
    """Rendered advice and what it cost; `record_id` is None when memory was skipped."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    record_id: str | None
    candidates: int = 0
    eligible: int = 0
    retrieval_tokens: int = 0
    augmentation_tokens: int = 0
    details: dict[str, float | int | str] = Field(default_factory=dict)
    header: str | None = None
    """The line the agent puts above the text; None keeps the agent's own (verified-corrections)
    header, so advice that was never checked can say so instead of borrowing that claim."""
    expires: bool = False
    """Shown for one model reply only: the agent takes the text out of its prompt once the model
    has answered it, so later steps do not pay for it again (`AdvisorOptions.advice_lifetime`)."""
    holds_last_answer: bool = False
    """The text shows the agent's own last answer (a form repair applied to it), so the agent puts a
    one-line note in that answer's place in its history, a copy no later step pays for again
    (`AdvisorOptions.answer_once`)."""


class Outcome(BaseModel):
    """How the task went after advice was (or was not) used."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task_id: str
    solved: bool
    final_utility: float
    evaluator_calls: int
    failed_attempts: int
    tokens: int
    final_action: Action | None = None
    final_result: CheckResult | None = None


@runtime_checkable
class MemoryHook(Protocol):
    def advise(self, decision: Decision) -> Advice | None: ...

    def feedback(self, decision: Decision, advice: Advice | None, outcome: Outcome) -> None: ...
