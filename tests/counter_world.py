"""A world model of one counter, for tests of the drop-in API (`learn`, `open_memory`) that need a
real check without a domain: `add N` moves the counter from zero, which must end at the task's gold."""

from __future__ import annotations

from countermem.core import Action, CheckResult, Task
from countermem.domains import State


class CounterWorld:
    """`add N` moves a counter, which must end at the task's gold value."""

    def __init__(self) -> None:
        self.task: Task | None = None
        self.counter = 0

    def reset(self, task: Task) -> State:
        self.task, self.counter = task, 0
        return self.snapshot()

    def snapshot(self) -> State:
        assert self.task is not None
        return State(task_id=self.task.id, payload=self.counter)

    def restore(self, state: State) -> None:
        self.counter = state.payload

    def check(self, action: Action) -> CheckResult:
        assert self.task is not None and self.task.gold is not None
        self.counter += int(action.content.split()[1])
        ok = self.counter == int(self.task.gold)
        return CheckResult(utility=float(ok), passed=ok, completed=True, status="passed" if ok else "wrong")
