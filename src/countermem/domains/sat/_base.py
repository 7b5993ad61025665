"""What the two SAT benchmarks share: a solver budget from the options, and a world model whose
state is one immutable solver input (a stored formula or an encode problem).

Neither checker has anything an action can change, so a snapshot is the state made at reset
and a restore only chooses which input the next check is for.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from countermem.core import Action, CheckResult, CheckStatus, ConfigError, Cost, Task, package_version
from countermem.domains._protocol import Benchmark, State
from countermem.domains.sat._errors import error_kind
from countermem.domains.sat._solver import SolverBudget


def timed_result(
    status: CheckStatus, utility: float, details: str, started: float, *, completed: bool = True
) -> CheckResult:
    """One solver check's result; its cost is the wall time since `started` (a perf_counter)."""
    return CheckResult(
        utility=utility,
        passed=status == "passed",
        completed=completed,
        status=status,
        details=details,
        cost=Cost(seconds=time.perf_counter() - started, calls=1),
    )


class SolverWorldModel(ABC):
    payload_type: ClassVar[type]
    """What `reset` stores as the state's payload; `restore` refuses any other."""

    def __init__(self, budget: SolverBudget | None = None) -> None:
        self.budget = budget or SolverBudget()
        self._state: State | None = None

    def reset(self, task: Task) -> State:
        payload, fingerprint = self._payload(task)
        self._state = State(task_id=task.id, payload=payload, fingerprint=fingerprint)
        return self._state

    def snapshot(self) -> State:
        return self._current()

    def restore(self, state: State) -> None:
        if not isinstance(state.payload, self.payload_type):
            raise ConfigError(f"state for {state.task_id!r} was not made by a {type(self).__name__}")
        self._state = state

    @abstractmethod
    def check(self, action: Action) -> CheckResult: ...

    @abstractmethod
    def _payload(self, task: Task) -> tuple[Any, str]:
        """The task's solver input and its fingerprint; raises ConfigError for a foreign task."""

    def _current(self) -> State:
        if self._state is None:
            raise ConfigError("call reset(task) before snapshot() or check()")
        return self._state


class SolverBenchmark(Benchmark):
    checker_name = "python-sat"

    def checker_version(self) -> str | None:
        return package_version("python-sat")

    def budget(self) -> SolverBudget:
        """The default budget, with the options' timeout (if any) as the wall-clock guard."""
        if self.options.timeout_s is None:
            return SolverBudget()
        return SolverBudget(seconds=self.options.timeout_s)

    def error_kind(self, result: CheckResult) -> str | None:
        return error_kind(result.status, result.details)
