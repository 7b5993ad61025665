"""What GSM8K and MATH-500 share: data loading with checksums, the judge, the answer contract."""

from __future__ import annotations

import importlib.util
import json
import re
import threading
from abc import abstractmethod
from pathlib import Path
from typing import Any, ClassVar, Literal

from countermem.core import (
    CLOSED_FENCE,
    Action,
    CheckResult,
    CountermemError,
    DataUnavailableError,
    Facts,
    Task,
    package_version,
    salvaged_block,
)
from countermem.domains._data import dataset_dir, verified_file
from countermem.domains._protocol import Availability, Benchmark, BenchmarkOptions
from countermem.domains.math._answer import MAX_ANSWER_CHARS, extract_final_answer
from countermem.domains.math._errors import error_kind
from countermem.domains.math._facts import math_facts
from countermem.domains.math._judge import DEFAULT_TIMEOUT_S, AnswerJudge
from countermem.domains.math._world import MathWorldModel

INSTRUCTIONS = """\
Solve the problem. The action is your solution: inside its code block write the short working
and end it with a last line `Answer: <answer>` (or `\\boxed{<answer>}`), for example
```text
2 boxes of 6 eggs hold 2 * 6 = 12 eggs.
Answer: 12
```
The last such marker in the action is the one graded, and nothing else is read. Put only the
answer after the marker, not a sentence. {form}"""
EXAMPLE_ACTION = "2 boxes of 6 eggs hold 2 * 6 = 12 eggs.\nAnswer: 12"
_NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?")
"""A number as working writes it (`1,200.50`, `-3`), not one inside a name (`x2`)."""
"""The example action of `INSTRUCTIONS`, which a small model sometimes copies into its answer."""


def without_example(answer: str) -> str:
    """`answer` with every code block that is the instructions' example removed: it is no answer.
    The 1.5B copied it after its own working in 2 of 4 gsm8k form-repair uses, and `Answer: 12`
    was checked for it (docs/results.md)."""
    example = " ".join(EXAMPLE_ACTION.split())
    return CLOSED_FENCE.sub(lambda m: "" if " ".join(m.group(2).split()) == example else m.group(0), answer)


class MathBenchmark(Benchmark):
    """A JSON-lines benchmark of problems with one reference answer each."""

    domain: ClassVar[str] = "math"
    action_language: ClassVar[str] = "text"
    repair_mode: ClassVar[Literal["edit", "resolve"]] = "resolve"
    data_name: ClassVar[str]
    data_file: ClassVar[str] = "test.jsonl"
    numeric_answers: ClassVar[bool] = False
    latex_problems: ClassVar[bool] = False
    answer_form_hint: ClassVar[str] = ""

    def __init__(self, options: BenchmarkOptions | None = None) -> None:
        super().__init__(options)
        self._tasks: list[Task] | None = None
        self._solutions: dict[str, str] = {}
        self._judge: AnswerJudge | None = None
        self._judge_lock = threading.Lock()

    checker_name: ClassVar[str] = "math-verify"

    def checker_version(self) -> str | None:
        return package_version("math-verify")

    def data_source(self) -> Path | None:
        return self._folder()

    def _folder(self) -> Path:
        if self.options.data_dir is not None:
            folder = Path(self.options.data_dir) / self.data_name
            if not (folder / "SOURCE.md").is_file():
                raise DataUnavailableError(f"{folder} has no SOURCE.md: benchmark {self.name!r} data is missing")
            return folder
        return dataset_dir(self.data_name)

    def _rows(self) -> list[dict[str, Any]]:
        path = verified_file(self._folder(), self.data_file)
        rows: list[dict[str, Any]] = []
        with path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle):
                if line.strip():
                    row = json.loads(line)
                    row["_line"] = number
                    rows.append(row)
        return rows

    @abstractmethod
    def _task(self, row: dict[str, Any]) -> tuple[Task, str]:
        """A task and its reference solution (kept out of the task so no prompt can leak it)."""

    def availability(self) -> Availability:
        if importlib.util.find_spec("math_verify") is None:
            return Availability(False, "math-verify is not installed: pip install 'countermem[domains]'")
        try:
            verified_file(self._folder(), self.data_file)
        except CountermemError as error:
            return Availability(False, str(error))
        return Availability(True)

    def tasks(self) -> list[Task]:
        if self._tasks is None:
            tasks: list[Task] = []
            for row in self._rows():
                task, solution = self._task(row)
                tasks.append(task)
                self._solutions[task.id] = solution
            if len({t.id for t in tasks}) != len(tasks):
                raise DataUnavailableError(f"{self.name}: task ids are not unique; the data file changed shape")
            self._tasks = tasks
        return list(self._tasks)

    def judge(self) -> AnswerJudge:
        """The benchmark's one answer judge (one worker process), shared by its world models."""
        with self._judge_lock:
            if self._judge is None:
                timeout = self.options.timeout_s or DEFAULT_TIMEOUT_S
                self._judge = AnswerJudge(timeout_s=timeout, numeric_answers=self.numeric_answers)
            return self._judge

    def close(self) -> None:
        """Stop the judge's worker process (it is also stopped when the benchmark is collected)."""
        with self._judge_lock:
            if self._judge is not None:
                self._judge.close()

    def world_model(self) -> MathWorldModel:
        return MathWorldModel(self.judge())

    def instructions(self) -> str:
        return INSTRUCTIONS.replace("{form}", self.answer_form_hint)

    def render_task(self, task: Task) -> str:
        return f"Problem:\n{task.prompt}"

    def solution(self, task: Task) -> str | None:
        """The reference solution, if this benchmark has one for `task` (never shown to an agent)."""
        if self._tasks is None:
            self.tasks()
        return self._solutions.get(task.id)

    def facts(self, task: Task, action: Action | None = None) -> Facts:
        return math_facts(task, action, task.prompt, self.numeric_answers, latex=self.latex_problems)

    def error_kind(self, result: CheckResult) -> str | None:
        return error_kind(result.status, result.details)

    def salvage(self, answer: str) -> str | None:
        """A closed code block that states a final answer, else a final answer the answer states:
        then the action is that answer alone, `Answer: <answer>`, all the judge reads. The 1.5B
        wrote its whole working in the Thought, boxed the reference answer and wrote no `Action:`
        line; once it put `Action: check` itself in the block (docs/results.md, gsm8k). A block
        that states no answer holds nothing the judge could pass, and the instructions' example,
        copied, is not the model's answer (`without_example`)."""
        answer = without_example(answer)
        block = salvaged_block(answer)
        if block is not None and extract_final_answer(block) is not None:
            return block
        final = extract_final_answer(answer)
        if final is None or len(final.text) > MAX_ANSWER_CHARS:
            return None
        return "Answer: " + " ".join(final.text.split())

    def form_fix(self, action: str, result: CheckResult) -> str | None:
        """Working the judge refused for want of a final answer line (`no final answer found`),
        with one added: `Answer: <the working's last number>`. Why: in the 1.5B's 40 held-out gsm8k
        tasks, 12 of its 51 such checks ended their working on the reference number, on 6 tasks it
        never solved; told `end the action with ... a line 'Answer: ...'`, it broke the output
        contract in 47 of its 49 next replies (docs/results.md). Only a check decides whether the
        number is the answer."""
        if self.error_kind(result) != "no_final_answer":
            return None
        numbers = _NUMBER.findall(action)
        if not numbers:
            return None
        return f"{action.rstrip()}\nAnswer: {numbers[-1].replace(',', '')}"

    def _require_gold(self, task: Task) -> str:
        if task.gold is None:
            raise DataUnavailableError(f"task {task.id!r} has no reference answer")
        return task.gold
