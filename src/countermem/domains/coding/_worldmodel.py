"""The coding world model: run a task's tests against a candidate function in the sandbox.

State is only the task: every check gets a fresh sandbox with a fresh private directory, so
nothing one check does can leak into the next, and snapshot/restore are plain references to
the (immutable) task. Inside the sandbox the judge runs the tests and the solution runs in a
process of its own (see `_harness_script.py`); three files travel with it: the test spec (read
and deleted by the judge before the solution starts), the solution's script and the wire codec.
"""

from __future__ import annotations

import json
import uuid
from functools import cached_property
from pathlib import Path

from countermem.core import Action, CheckResult, ConfigError, Cost, Task
from countermem.domains._simple import TaskCopyWorldModel
from countermem.domains.coding._instrument import InstrumentedTest, instrument_asserts
from countermem.domains.coding._source import compile_error, free_globals, parse, top_level_names
from countermem.domains.coding._spec import TestSpec
from countermem.domains.coding._verdict import verdict
from countermem.domains.sandbox import SandboxPolicy, run_python

_HERE = Path(__file__).parent
_HARNESS_FILE = _HERE / "_harness_script.py"
_SANDBOX_MODULES = {"cm_solution.py": _HERE / "_solution_script.py", "cm_wire.py": _HERE / "_wire.py"}


class CodingWorldModel(TaskCopyWorldModel):
    foreign_state_message = "state for {task_id!r} was not made by a coding world model"
    no_task_message = "call reset(task) on the coding world model before snapshot or check"

    def __init__(self, policy: SandboxPolicy | None = None) -> None:
        super().__init__()
        self.policy = policy or SandboxPolicy(max_output_bytes=16 * 1024)

    @cached_property
    def _harness(self) -> str:
        return _HARNESS_FILE.read_text(encoding="utf-8")

    @cached_property
    def _modules(self) -> dict[str, str]:
        return {name: path.read_text(encoding="utf-8") for name, path in _SANDBOX_MODULES.items()}

    def _accept(self, task: Task) -> None:
        TestSpec.from_task(task)

    def _fingerprint(self, task: Task) -> str:
        return TestSpec.from_task(task).fingerprint

    def check(self, action: Action) -> CheckResult:
        spec = TestSpec.from_task(self._require_task())
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
            "free_names": list(free_globals(spec.test)),
        }
        result = run_python(self._harness, self.policy, {**self._modules, "spec.json": json.dumps(payload)})
        return verdict(result, nonce, tests.sites)

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
