"""Task-run tokens per solved task: every task's tokens over the solved ones, undefined when none was solved."""

from __future__ import annotations

from countermem.agents import TaskOutcome
from countermem.core import Usage
from countermem.experiment import RunMetrics
from countermem.experiment._metrics import compute_metrics


def outcome(task_id: str, solved: bool, tokens: int, augmentation: int = 0) -> TaskOutcome:
    return TaskOutcome(
        task_id=task_id, benchmark="toy", solved=solved, final_utility=float(solved),
        final_status="passed" if solved else "wrong", submitted=True, forced_submit=False, steps=1,
        evaluator_calls=1, failed_attempts=int(not solved), parse_errors=0,
        usage=Usage(prompt_tokens=tokens, completion_tokens=0), augmentation_tokens=augmentation,
        stop_reason="submitted", seconds=0.0,
    )


def test_tokens_per_solved_task_count_the_failures_too() -> None:
    metrics = compute_metrics([outcome("a", True, 100), outcome("b", False, 300, 50), outcome("c", True, 200)],
                              benchmark="toy", backbone="scripted", model="m")
    assert metrics.task_run_tokens.total == 600
    assert metrics.task_run_tokens_per_task == 200
    assert metrics.task_run_tokens_per_solved == 300
    none_solved = compute_metrics([outcome("b", False, 300)], benchmark="toy", backbone="scripted", model="m")
    assert none_solved.task_run_tokens_per_solved is None


def test_metrics_saved_before_the_measure_still_load() -> None:
    saved = compute_metrics([outcome("a", True, 100)], benchmark="toy", backbone="scripted", model="m")
    data = saved.model_dump(mode="json")
    del data["task_run_tokens_per_solved"]
    assert RunMetrics.model_validate(data).task_run_tokens_per_solved is None
