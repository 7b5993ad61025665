"""One conformance check that every world model must pass, as gymnasium's `check_env` does."""

from __future__ import annotations

from dataclasses import dataclass

from countermem.core import Action, CheckResult, Task
from countermem.domains._protocol import WorldModel


@dataclass(frozen=True)
class ConformanceReport:
    checks: int
    results: tuple[CheckResult, ...]


class ConformanceError(AssertionError):
    """A world model broke the protocol; the message says which invariant."""


def _comparable(result: CheckResult) -> tuple[float, bool, bool, str]:
    return (result.utility, result.passed, result.completed, result.status)


def check_world_model(
    world_model: WorldModel, task: Task, actions: list[Action]
) -> ConformanceReport:
    """Check the invariants memory relies on.

    For every action: utility stays in [0, 1]; checking it from a restored snapshot twice gives
    the same result; checking it never changes the snapshot it started from (a later action
    checked from the same snapshot sees the same state as a fresh reset).
    """
    if not actions:
        raise ValueError("give at least one action (a gold one and a wrong one are best)")
    start = world_model.reset(task)
    if start.task_id != task.id:
        raise ConformanceError(f"reset returned a state for {start.task_id!r}, not {task.id!r}")
    results: list[CheckResult] = []
    calls = 0
    for action in actions:
        world_model.restore(start)
        first = world_model.check(action)
        after_first = world_model.snapshot()
        world_model.restore(start)
        second = world_model.check(action)
        calls += 2
        for result in (first, second):
            if not 0.0 <= result.utility <= 1.0:
                raise ConformanceError(f"utility {result.utility} outside [0, 1]")
            if result.passed and not result.completed:
                raise ConformanceError("a check cannot pass without completing")
        if _comparable(first) != _comparable(second):
            raise ConformanceError(
                f"same action, same snapshot, different results: {first} vs {second}"
            )
        if start.fingerprint and after_first.fingerprint and after_first.task_id != start.task_id:
            raise ConformanceError("a check switched the world model to another task")
        results.append(first)
    fresh = world_model.reset(task)
    if start.fingerprint and fresh.fingerprint != start.fingerprint:
        raise ConformanceError(
            "the snapshot taken at reset changed: a check mutated the state it started from"
        )
    world_model.restore(start)
    again = world_model.check(actions[0])
    if _comparable(again) != _comparable(results[0]):
        raise ConformanceError("after other checks, the first action no longer gives its result")
    return ConformanceReport(checks=calls + 1, results=tuple(results))
