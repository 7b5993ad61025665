"""GSM8K: grade-school word problems with an integer answer, and lookalikes by solution replay."""

from __future__ import annotations

import hashlib
import random
import re
from fractions import Fraction
from typing import Any

from countermem.core import Action, Task
from countermem.domains.math._base import MathBenchmark
from countermem.domains.math._replay import ReplayPlan, Unsupported, analyse

LOOKALIKES_PER_TASK = 2
_ANNOTATION = re.compile(r"<<[^<>]*>>")


def _readable(solution: str) -> str:
    """The reference solution without calculator annotations and without its '####' line."""
    return _ANNOTATION.sub("", solution.rpartition("####")[0]).strip()


class GSM8K(MathBenchmark):
    """GSM8K (test split, shared part): the answer is a number, compared exactly.

    Task ids are `gsm8k-` plus the first 12 hex digits of the question's sha256, so they do not
    depend on which items a data folder holds. Lookalikes replay the reference solution's
    calculator steps with new numbers (see `_replay.py` for when that is honest); on the shared
    part about a third of the tasks qualify, the rest get none.
    """

    name = "gsm8k"
    description = "GSM8K grade-school math word problems (numeric answer, exact comparison)"
    data_name = "gsm8k"
    numeric_answers = True
    answer_form_hint = "The answer is a number; units, `$` and thousands commas are ignored."

    def __init__(self, options: Any = None) -> None:
        super().__init__(options)
        self._raw: dict[str, str] = {}
        self._plans: dict[str, ReplayPlan | str] = {}

    def _task(self, row: dict[str, Any]) -> tuple[Task, str]:
        question: str = row["question"]
        answer: str = row["answer"]
        final = answer.rpartition("####")[2].strip().replace(",", "")
        task_id = "gsm8k-" + hashlib.sha256(question.encode("utf-8")).hexdigest()[:12]
        self._raw[task_id] = answer
        task = Task(
            id=task_id, benchmark=self.name, domain=self.domain, prompt=question, environment=None,
            gold=final, metadata={"line": row["_line"]},
        )
        return task, _readable(answer)

    def gold_action(self, task: Task) -> Action:
        gold = self._require_gold(task)
        solution = self.solution(task)
        body = f"{solution}\n" if solution else ""
        return Action(content=f"{body}Answer: {gold}")

    def wrong_action(self, task: Task) -> Action:
        gold = Fraction(self._require_gold(task))
        wrong = gold + 1
        shown = str(wrong.numerator) if wrong.denominator == 1 else format(float(wrong), "g")
        return Action(content=f"Answer: {shown}")

    def _plan(self, task: Task) -> ReplayPlan | str:
        if task.id not in self._plans:
            if self._tasks is None:
                self.tasks()
            raw = self._raw.get(task.id)
            if raw is None:
                self._plans[task.id] = "not a task of this benchmark's data (no reference solution to replay)"
            else:
                try:
                    self._plans[task.id] = analyse(task.prompt, raw)
                except Unsupported as error:
                    self._plans[task.id] = str(error)
        return self._plans[task.id]

    def lookalike_refusal(self, task: Task) -> str | None:
        """Why `task` gets no lookalikes, or None when its solution can be replayed."""
        plan = self._plan(task)
        return plan if isinstance(plan, str) else None

    def lookalikes(self, task: Task, rng: random.Random) -> list[Task]:
        """Up to two same-wording tasks with other numbers and a replayed reference answer."""
        plan = self._plan(task)
        if isinstance(plan, str):
            return []
        out: list[Task] = []
        for index, variant in enumerate(plan.variants(rng, LOOKALIKES_PER_TASK)):
            digest = hashlib.sha256(variant.question.encode("utf-8")).hexdigest()[:8]
            look = Task(
                id=f"{task.id}~{digest}", benchmark=self.name, domain=self.domain, prompt=variant.question,
                environment=task.environment, gold=variant.gold,
                metadata={
                    "lookalike_of": task.id,
                    "lookalike_method": "gsm8k-calculator-replay",
                    "substitutions": [list(pair) for pair in variant.substitutions],
                    "variant": index,
                },
            )
            self._solutions[look.id] = "\n".join(variant.steps)
            out.append(look)
        return out
