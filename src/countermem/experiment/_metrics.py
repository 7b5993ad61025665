"""The run's measures, with the denominators DESIGN.md fixes (docs/measures.md says more).

- success: percent of tasks solved (0-100).
- task-run tokens: reasoning (the agent's own prompt+completion tokens, minus the
  augmentation share) + retrieval + augmentation. The model-reported usage (prompt,
  completion, and the model's hidden reasoning tokens) is kept beside it, unmixed.
- a model call whose server reported no usage is counted in `usage.unknown_calls`, never as 0
  tokens; the token totals are then lower bounds, and the metrics carry a warning that says so.
- task-run tokens, evaluator calls and failed attempts per solved task: totals over all tasks divided by the
  number solved; None when nothing was solved (never a made-up number).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from countermem.agents import TaskOutcome
from countermem.core import Usage


class TokenSplit(BaseModel):
    model_config = ConfigDict(frozen=True)

    reasoning: int
    retrieval: int
    augmentation: int
    total: int


class PerTask(BaseModel):
    model_config = ConfigDict(frozen=True)

    task_id: str
    solved: bool
    utility: float
    status: str
    evaluator_calls: int
    failed_attempts: int
    tokens: int
    stop_reason: str


class RunMetrics(BaseModel):
    model_config = ConfigDict(frozen=True)

    benchmark: str
    backbone: str
    model: str
    simulated: bool = False
    n_tasks: int
    n_solved: int
    success: float
    usage: Usage
    task_run_tokens: TokenSplit
    task_run_tokens_per_task: float
    task_run_tokens_per_solved: float | None = None
    """All task-run tokens over the solved tasks: what a solved task cost, failures included (None
    when nothing was solved, or for metrics saved before this measure existed)."""
    evaluator_calls: int
    evaluator_calls_per_solved: float | None
    failed_attempts: int
    failed_attempts_per_solved: float | None
    parse_errors: int
    forced_submits: int
    cached_llm_calls: int = 0
    seconds: float
    per_task: list[PerTask]
    warnings: list[str] = Field(default_factory=list)
    """What makes these numbers mean less than they seem (e.g. a selector that never trained);
    kept with the metrics so that a rewritten report still says it."""


def _per_solved(total: int, solved: int) -> float | None:
    return None if solved == 0 else total / solved


def unknown_usage_warning(usage: Usage) -> str:
    return (
        f"{usage.unknown_calls} model call(s) came back without usage from the server; their tokens are "
        "unknown (not 0), so every token count here is a lower bound"
    )


def compute_metrics(
    outcomes: list[TaskOutcome],
    *,
    benchmark: str,
    backbone: str,
    model: str,
    simulated: bool = False,
    cached_llm_calls: int = 0,
) -> RunMetrics:
    solved = sum(1 for o in outcomes if o.solved)
    usage = sum((o.usage for o in outcomes), Usage())
    reasoning = sum(o.reasoning_tokens for o in outcomes)
    retrieval = sum(o.retrieval_tokens for o in outcomes)
    augmentation = sum(o.augmentation_tokens for o in outcomes)
    split = TokenSplit(
        reasoning=reasoning, retrieval=retrieval, augmentation=augmentation,
        total=reasoning + retrieval + augmentation,
    )
    calls = sum(o.evaluator_calls for o in outcomes)
    failed = sum(o.failed_attempts for o in outcomes)
    n = len(outcomes)
    return RunMetrics(
        benchmark=benchmark,
        backbone=backbone,
        model=model,
        simulated=simulated,
        n_tasks=n,
        n_solved=solved,
        success=100.0 * solved / n if n else 0.0,
        usage=usage,
        task_run_tokens=split,
        task_run_tokens_per_task=split.total / n if n else 0.0,
        task_run_tokens_per_solved=_per_solved(split.total, solved),
        evaluator_calls=calls,
        evaluator_calls_per_solved=_per_solved(calls, solved),
        failed_attempts=failed,
        failed_attempts_per_solved=_per_solved(failed, solved),
        parse_errors=sum(o.parse_errors for o in outcomes),
        forced_submits=sum(1 for o in outcomes if o.forced_submit),
        cached_llm_calls=cached_llm_calls,
        seconds=sum(o.seconds for o in outcomes),
        warnings=[unknown_usage_warning(usage)] if not usage.known else [],
        per_task=[
            PerTask(
                task_id=o.task_id, solved=o.solved, utility=o.final_utility, status=o.final_status,
                evaluator_calls=o.evaluator_calls, failed_attempts=o.failed_attempts,
                tokens=o.task_run_tokens, stop_reason=o.stop_reason,
            )
            for o in outcomes
        ],
    )


def format_per_solved(value: float | None, digits: int = 2) -> str:
    return "n/a (none solved)" if value is None else f"{value:.{digits}f}"
