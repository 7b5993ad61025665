"""What HumanEval and MBPP share: the world model, prompts, facts, gold and wrong actions."""

from __future__ import annotations

import platform
import random
from abc import abstractmethod

from countermem.core import Action, CheckResult, DataUnavailableError, Facts, FactValue, Task
from countermem.domains._protocol import Availability, Benchmark, BenchmarkOptions
from countermem.domains.coding._facts import action_facts, error_kind
from countermem.domains.coding._lookalike import Transform, applicable
from countermem.domains.coding._source import with_body_returning_none
from countermem.domains.coding._spec import TestSpec
from countermem.domains.coding._worldmodel import CodingWorldModel
from countermem.domains.sandbox import SandboxPolicy, sandbox_availability

DEFAULT_TIMEOUT_S = 10.0
"""Per check, for all of a task's tests together; generous because the machine may be shared."""


class CodingBenchmark(Benchmark):
    domain = "coding"
    action_language = "python"
    checker_name = "python"

    def __init__(self, options: BenchmarkOptions | None = None) -> None:
        super().__init__(options)
        self._tasks: list[Task] | None = None

    def checker_version(self) -> str | None:
        return platform.python_version()

    @abstractmethod
    def _load(self) -> list[Task]: ...

    @abstractmethod
    def _task_facts(self, task: Task) -> dict[str, FactValue]: ...

    @abstractmethod
    def _test_sources(self, task: Task) -> list[str]:
        """The assert statements a look-alike transforms (in their task's own layout)."""

    @abstractmethod
    def _test_caller(self, task: Task) -> str:
        """The name the asserts call the solution by."""

    @abstractmethod
    def _lookalike(self, task: Task, transform: Transform) -> Task | None: ...

    def policy(self) -> SandboxPolicy:
        return SandboxPolicy(
            timeout_s=self.options.timeout_s or DEFAULT_TIMEOUT_S,
            unsafe_no_sandbox=self.options.unsafe_no_sandbox,
            max_output_bytes=16 * 1024,
        )

    def availability(self) -> Availability:
        try:
            count = len(self.tasks())
        except DataUnavailableError as error:
            return Availability(False, str(error))
        if self.options.unsafe_no_sandbox:
            return Availability(True, f"{count} tasks; UNSAFE: model code runs without a sandbox (rlimits only)")
        sandbox = sandbox_availability(self.policy())
        if not sandbox.available:
            return Availability(False, sandbox.reason)
        return Availability(True, f"{count} tasks; {sandbox.reason}")

    def tasks(self) -> list[Task]:
        if self._tasks is None:
            self._tasks = self._load()
        return list(self._tasks)

    def world_model(self) -> CodingWorldModel:
        return CodingWorldModel(self.policy())

    def gold_action(self, task: Task) -> Action:
        if task.gold is None:
            raise DataUnavailableError(f"task {task.id} has no reference solution")
        return Action(content=task.gold)

    def wrong_action(self, task: Task) -> Action:
        """The reference solution with its function's body replaced by `return None`."""
        entry = TestSpec.from_task(task).entry_point
        return Action(content=with_body_returning_none(self.gold_action(task).content, entry))

    def instructions(self) -> str:
        seconds = self.options.timeout_s or DEFAULT_TIMEOUT_S
        return (
            "Write Python 3 code. Your action is the complete source of the requested function, in one "
            "```python fence: keep the exact function name and parameters, and include every import and "
            "helper function it needs (standard library only). Do not read input, do not include tests, "
            "example calls or a __main__ block. The function is run against the task's assert-based tests "
            f"in an isolated sandbox without network or files, with {seconds:g} seconds for all tests "
            "together; the score is the share of asserts that pass, and the task is solved only when all pass."
        )

    def error_kind(self, result: CheckResult) -> str | None:
        return error_kind(result.status, result.details)

    def facts(self, task: Task, action: Action | None = None) -> Facts:
        values = self._task_facts(task)
        if action is not None:
            values.update(action_facts(action.content, TestSpec.from_task(task).entry_point))
        return Facts(values=values)

    def lookalikes(self, task: Task, rng: random.Random) -> list[Task]:
        if task.gold is None or "lookalike_of" in task.metadata:
            return []
        found = []
        for transform in applicable(self._test_sources(task), self._test_caller(task), rng):
            lookalike = self._lookalike(task, transform)
            if lookalike is not None:
                found.append(lookalike)
        return found
