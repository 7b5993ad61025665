"""The coding world model: run a task's tests against a candidate function in the sandbox.

State is only the task: every check gets a fresh sandbox with a fresh private directory, so
nothing one check does can leak into the next, and snapshot/restore are plain references to
the (immutable) task.
"""

from __future__ import annotations

import json
import uuid
from functools import cached_property
from pathlib import Path

from countermem.core import Action, CheckResult, ConfigError, Cost, Task
from countermem.domains._protocol import State
from countermem.domains.coding._instrument import InstrumentedTest, instrument_asserts
from countermem.domains.coding._source import compile_error, parse, top_level_names
from countermem.domains.coding._spec import TestSpec
from countermem.domains.coding._verdict import verdict
from countermem.domains.sandbox import SandboxPolicy, run_python

_HARNESS_FILE = Path(__file__).with_name("_harness_script.py")


class CodingWorldModel:
    def __init__(self, policy: SandboxPolicy | None = None) -> None:
        self.policy = policy or SandboxPolicy(max_output_bytes=16 * 1024)
        self._task: Task | None = None

    @cached_property
    def _harness(self) -> str:
        return _HARNESS_FILE.read_text(encoding="utf-8")

    def reset(self, task: Task) -> State:
        TestSpec.from_task(task)
        self._task = task
        return self.snapshot()

    def snapshot(self) -> State:
        task = self._current()
        return State(task_id=task.id, payload=task, fingerprint=TestSpec.from_task(task).fingerprint)

    def restore(self, state: State) -> None:
        if not isinstance(state.payload, Task):
            raise ConfigError(f"state for {state.task_id!r} was not made by a coding world model")
        self._task = state.payload

    def check(self, action: Action) -> CheckResult:
        spec = TestSpec.from_task(self._current())
        static = self._static_error(action.content, spec.entry_point)
        if static is not None:
            return CheckResult(
                utility=0.0, passed=False, completed=True, status="error", details=static, cost=Cost(calls=1)
            )
        tests = self._instrumented(spec)
        nonce = uuid.uuid4().hex
        payload = {
            "nonce": nonce,
            "preamble": spec.preamble,
            "solution": action.content,
            "entry_point": spec.entry_point,
            "test": tests.source,
            "call": spec.call,
        }
        result = run_python(self._harness, self.policy, {"spec.json": json.dumps(payload)})
        return verdict(result, nonce, tests.sites)

    def _current(self) -> Task:
        if self._task is None:
            raise ConfigError("call reset(task) on the coding world model before snapshot or check")
        return self._task

    @staticmethod
    def _instrumented(spec: TestSpec) -> InstrumentedTest:
        try:
            return instrument_asserts(spec.test)
        except SyntaxError as error:
            raise ConfigError(f"the task's own tests do not parse: {error}") from error

    @staticmethod
    def _static_error(source: str, entry_point: str) -> str | None:
        """Errors found without running anything: they are certain, and they cost no sandbox."""
        problem = compile_error(source)
        if problem is not None:
            return f"the solution does not compile: {problem}"
        tree = parse(source)
        if tree is None or entry_point not in top_level_names(tree):
            return f"the solution defines no top-level function named {entry_point!r}"
        return None
