"""Versioned trajectory events, written one JSON line each, so a run can be read and resumed."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from countermem.core import Action, CheckResult, Usage
from countermem.llm import Message

TRAJECTORY_VERSION = 1
MODEL_CALLS = frozenset({"llm", "reflection"})
"""The event kinds that are model calls, and so carry `Event.messages`."""


class Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["llm", "check", "submit", "parse_error", "advice", "reflection", "limit", "final"]
    step: int
    trial: int = 0
    text: str = ""
    action: Action | None = None
    result: CheckResult | None = None
    usage: Usage | None = None
    cached: bool = False
    seconds: float = 0.0
    record_id: str | None = None
    messages: list[Message] | None = None
    """On a model call (`llm`, `reflection`): the messages added to the conversation since the
    trial's previous model call, the whole prompt on its first; the earlier calls' replies are
    their events' `text`. So the prompt of any call is rebuilt from the transcript without
    writing the growing conversation out again at every step (see `prompt_of`). None in
    transcripts written before prompts were recorded."""


def prompt_of(events: list[Event], index: int) -> list[Message] | None:
    """The whole prompt the model saw at `events[index]` (a model call), or None when the
    transcript did not record prompts: each earlier call of the same conversation contributes its
    new messages and its reply, in order. A conversation is one trial; a call whose messages
    open with the system prompt starts a new one (the runner's best-of-N attempts write several
    conversations with the same trial number into one transcript)."""
    target = events[index]
    if target.messages is None:
        return None
    prompt: list[Message] | None = []
    for event in [*events[:index], target]:
        if event.trial != target.trial or event.kind not in MODEL_CALLS:
            continue
        if event.messages and event.messages[0].role == "system":
            prompt = []
        if event is target:
            break
        if event.messages is None or prompt is None:
            prompt = None
            continue
        prompt += [*event.messages, Message(role="assistant", content=event.text)]
    return None if prompt is None else prompt + target.messages


class TaskOutcome(BaseModel):
    """Everything the metrics need about one task run; one line of results.jsonl."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    version: int = TRAJECTORY_VERSION
    task_id: str
    benchmark: str
    solved: bool
    final_utility: float
    final_status: str
    submitted: bool
    forced_submit: bool
    steps: int
    trials: int = 1
    evaluator_calls: int
    failed_attempts: int
    parse_errors: int
    usage: Usage
    retrieval_tokens: int = 0
    augmentation_tokens: int = 0
    advice_record_ids: list[str] = Field(default_factory=list)
    stop_reason: str
    seconds: float
    final_action: Action | None = None
    notes: list[str] = Field(default_factory=list)

    @property
    def reasoning_tokens(self) -> int:
        """The agent's own tokens with the augmentation share taken out (DESIGN.md's 'reasoning')."""
        return max(0, self.usage.total - self.augmentation_tokens)

    @property
    def task_run_tokens(self) -> int:
        return self.reasoning_tokens + self.retrieval_tokens + self.augmentation_tokens
