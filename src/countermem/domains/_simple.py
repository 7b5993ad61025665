"""A world model whose whole state is the task it was reset to.

Several checkers (the coding sandbox, both z3 benchmarks) start every check from scratch: a
fresh process, a fresh folder. Nothing an action does survives it, so the only state worth
copying is which (immutable) task the next check is for, and snapshot/restore are plain
references to that task. This base keeps that bookkeeping in one place; a subclass says how
to validate a task, how to fingerprint it, how its errors read, and how to check an action.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from countermem.core import Action, CheckResult, ConfigError, Task
from countermem.domains._protocol import State


class TaskCopyWorldModel(ABC):
    foreign_state_message: ClassVar[str]
    """Raised by `restore` for a state another world model made; `{task_id}` names its task."""
    no_task_message: ClassVar[str] = "call reset(task) before snapshot() or check()"

    def __init__(self) -> None:
        self._task: Task | None = None

    def reset(self, task: Task) -> State:
        self._accept(task)
        self._task = task
        return self.snapshot()

    def snapshot(self) -> State:
        task = self._require_task()
        return State(task_id=task.id, payload=task, fingerprint=self._fingerprint(task))

    def restore(self, state: State) -> None:
        if not isinstance(state.payload, Task):
            raise ConfigError(self.foreign_state_message.format(task_id=state.task_id))
        self._task = state.payload

    @abstractmethod
    def check(self, action: Action) -> CheckResult: ...

    @abstractmethod
    def _accept(self, task: Task) -> None:
        """Raise (before the task becomes current) when this world model cannot judge `task`."""

    @abstractmethod
    def _fingerprint(self, task: Task) -> str: ...

    def _require_task(self) -> Task:
        if self._task is None:
            raise ConfigError(self.no_task_message)
        return self._task
