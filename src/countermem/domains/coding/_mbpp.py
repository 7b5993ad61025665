"""MBPP from the shared data folder (779 of the 974 problems; see its SOURCE.md), checksum-verified.

The prompt follows the MBPP paper: the description plus the three test asserts, which is also
how the agent learns the function's name. `challenge_test_list` is not used (empty for most
items). Some reference solutions do not pass their own tests; they are kept, not hidden, and
the tests report them.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

from countermem.core import DataUnavailableError, FactValue, Task
from countermem.domains._data import dataset_dir, verified_file
from countermem.domains.coding._benchmark import CodingBenchmark
from countermem.domains.coding._facts import example_facts
from countermem.domains.coding._lookalike import Transform, transformed_tests, wrapped_reference
from countermem.domains.coding._source import parse, quiet_parse
from countermem.domains.coding._spec import TestSpec

DATA_FILE = "mbpp.jsonl"


def entry_point_of(code: str, tests: list[str]) -> str:
    """The function the tests call: the first name called in the first assert that the code defines."""
    tree = parse(code)
    defined = [n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)] if tree else []
    called = [
        node.func.id
        for node in ast.walk(quiet_parse(tests[0]))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    ]
    for name in called:
        if name in defined:
            return name
    if called:
        return called[0]
    raise DataUnavailableError(f"cannot tell which function the MBPP test {tests[0]!r} calls")


def test_module(setup: str, tests: list[str]) -> str:
    return "\n".join([setup, *tests]) if setup.strip() else "\n".join(tests)


class MBPP(CodingBenchmark):
    name = "mbpp"
    description = "MBPP: short Python programming problems, each with three assert tests"

    def data_source(self) -> Path | None:
        return self.options.data_dir / self.name if self.options.data_dir else dataset_dir(self.name)

    def _load(self) -> list[Task]:
        folder = self.data_source()
        assert folder is not None
        path = verified_file(folder, DATA_FILE)
        tasks = []
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                tasks.append(self._task(json.loads(line)))
            except (json.JSONDecodeError, KeyError, SyntaxError) as error:
                raise DataUnavailableError(f"{path} line {number} is not an MBPP record: {error}") from error
        return tasks

    def _task(self, record: dict[str, Any]) -> Task:
        tests = [str(t) for t in record["test_list"]]
        setup = str(record["test_setup_code"])
        entry = entry_point_of(record["code"], tests)
        spec = TestSpec(entry_point=entry, test=test_module(setup, tests))
        return Task(
            id=f"mbpp-{record['task_id']}",
            benchmark=self.name,
            domain=self.domain,
            prompt=record["text"],
            gold=record["code"],
            metadata={
                **spec.metadata(),
                "source_id": record["task_id"],
                "test_list": tests,
                "test_setup_code": setup,
            },
        )

    def render_task(self, task: Task) -> str:
        entry = TestSpec.from_task(task).entry_point
        tests = "\n".join(task.metadata["test_list"])
        setup = str(task.metadata.get("test_setup_code") or "").strip()
        setup_text = f"The tests first run this setup code:\n\n```python\n{setup}\n```\n\n" if setup else ""
        return (
            f"{task.prompt.strip()}\n\nWrite a Python function named `{entry}`. "
            f"{setup_text}Your code should pass these tests:\n\n```python\n{tests}\n```"
        )

    def _task_facts(self, task: Task) -> dict[str, FactValue]:
        entry = TestSpec.from_task(task).entry_point
        return example_facts(task.prompt, list(task.metadata["test_list"]), entry)

    def _test_sources(self, task: Task) -> list[str]:
        return list(task.metadata["test_list"])

    def _test_caller(self, task: Task) -> str:
        return TestSpec.from_task(task).entry_point

    def _lookalike(self, task: Task, transform: Transform) -> Task | None:
        if task.gold is None:
            return None
        entry = TestSpec.from_task(task).entry_point
        tests = [transformed_tests(t, entry, transform) for t in task.metadata["test_list"]]
        setup = str(task.metadata.get("test_setup_code") or "")
        prompt = (
            f"{task.prompt.strip()}\nCHANGED CONTRACT: {transform.contract} "
            "The tests below already reflect this change."
        )
        return task.model_copy(
            update={
                "id": f"{task.id}~{transform.name}",
                "prompt": prompt,
                "gold": wrapped_reference(task.gold, entry, transform),
                "metadata": {
                    **task.metadata,
                    **TestSpec(entry_point=entry, test=test_module(setup, tests)).metadata(),
                    "test_list": tests,
                    "lookalike_of": task.id,
                    "transform": transform.name,
                },
            }
        )
