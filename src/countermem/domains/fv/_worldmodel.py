"""The Coq world model: a task's fixed context and statement, judged by `coqc`.

A Coq check has no state that an action changes (each check compiles a fresh file in a fresh
folder), so the state is the task itself and the fingerprint a hash of its context and
statement; snapshot and restore only choose which task the next check is for.
"""

from __future__ import annotations

from countermem.core import Action, CheckResult, ConfigError, Task
from countermem.domains._protocol import State
from countermem.domains.fv._check import check_proof
from countermem.domains.fv._coqc import CoqcLimits, CoqcRunner, require_coqc
from countermem.domains.fv._problem import CoqProblem


class CoqWorldModel:
    def __init__(self, limits: CoqcLimits, runner: CoqcRunner, sandboxed: bool) -> None:
        require_coqc()
        self.limits = limits
        self.runner = runner
        self.sandboxed = sandboxed
        """False only when the user asked for `unsafe_no_sandbox`; a run manifest should say so."""
        self._task: Task | None = None
        self._problem: CoqProblem | None = None

    def reset(self, task: Task) -> State:
        self._problem = CoqProblem.from_task(task)
        self._task = task
        return self.snapshot()

    def snapshot(self) -> State:
        if self._task is None or self._problem is None:
            raise ConfigError("the Coq world model has no task yet: call reset(task) first")
        return State(task_id=self._task.id, payload=self._task, fingerprint=self._problem.fingerprint)

    def restore(self, state: State) -> None:
        if not isinstance(state.payload, Task):
            raise ConfigError(f"state for {state.task_id!r} was not made by a Coq world model")
        self.reset(state.payload)

    def check(self, action: Action) -> CheckResult:
        if self._problem is None:
            raise ConfigError("the Coq world model has no task yet: call reset(task) first")
        return check_proof(self._problem, action.content, self.limits, self.runner)
