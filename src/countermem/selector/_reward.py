"""The reward a selector learns from: solve the task, cheaply.

    reward = success * [solved]
             - evaluator_call * evaluator_calls
             - failed_attempt * failed_attempts
             - per_1k_tokens * tokens / 1000

The success term dominates on purpose: a record is worth using when it turns a failure into a
success. The small penalties break ties between runs that both solve (or both fail) in favour
of fewer world-model calls, fewer failed attempts and shorter prompts, so that a record that
adds tokens but no success is learned to be skipped. Tokens are the task run's tokens
(reasoning + retrieval + augmentation), the same denominator the report uses.

With the defaults, a task solved at the first attempt with 1 call and 2,000 tokens earns
1 - 0.02 - 0.02 = 0.96; a failure after 4 calls, 4 failed attempts and 8,000 tokens earns
-(0.08 + 0.20 + 0.08) = -0.36.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from countermem.core import ConfigError


class RewardWeights(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    success: float = Field(default=1.0, ge=0.0)
    evaluator_call: float = Field(default=0.02, ge=0.0)
    failed_attempt: float = Field(default=0.05, ge=0.0)
    per_1k_tokens: float = Field(default=0.01, ge=0.0)


def reward(
    solved: bool,
    evaluator_calls: int,
    failed_attempts: int,
    tokens: int,
    weights: RewardWeights | None = None,
) -> float:
    """The task's reward from its outcome; see the module docstring for the formula."""
    for name, value in (
        ("evaluator_calls", evaluator_calls),
        ("failed_attempts", failed_attempts),
        ("tokens", tokens),
    ):
        if value < 0:
            raise ConfigError(f"{name} must be >= 0, got {value}; pass the task run's totals")
    w = weights or RewardWeights()
    return (
        (w.success if solved else 0.0)
        - w.evaluator_call * evaluator_calls
        - w.failed_attempt * failed_attempts
        - w.per_1k_tokens * tokens / 1000.0
    )
