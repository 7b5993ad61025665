"""MATH-500: competition problems with LaTeX answers, compared by math-verify."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from countermem.core import Action, Task
from countermem.domains.math._answer import answer_form, plain_number
from countermem.domains.math._base import MathBenchmark


def _latex_number(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    return f"{sign}\\frac{{{abs(value.numerator)}}}{{{value.denominator}}}"


def wrong_answer(gold: str) -> str:
    """A different answer: gold + 1 for numbers and expressions, another word for words, else 0.

    Tuples, sets, intervals and matrices get `0`, an answer of another shape, because "plus one"
    has no single meaning for them.
    """
    number = plain_number(gold)
    if number is not None:
        return _latex_number(number + 1)
    form = answer_form(gold)
    if form in ("radical", "expression", "equation"):
        return f"{gold} + 1"
    if form == "text":
        return "\\text{none of these}"
    return "0"


class Math500(MathBenchmark):
    """MATH-500 (shared part). The environment is the MATH subject, so splits can keep subjects apart.

    Task ids come from MATH's own `unique_id` (`test/precalculus/807.json` becomes
    `math500-precalculus-807`). Look-alikes are other MATH-500 problems of the same subject and
    level whose answer has the same written form (an integer for an integer, an interval for an
    interval) but a value the judge finds different, so a stored final answer would be wrong on
    them. No problem is rewritten: a MATH solution is prose, not a program, so a reference answer
    cannot be recomputed honestly after changing a problem.
    """

    LOOKALIKES_PER_TASK = 3

    name = "math500"
    description = "MATH-500 competition problems (LaTeX answers, math-verify equivalence)"
    data_name = "math500"
    numeric_answers = False
    latex_problems = True
    answer_form_hint = (
        "Write the answer in LaTeX in simplest exact form (fractions, radicals, pi), e.g. "
        "`\\boxed{\\frac{3}{4}}`, `\\boxed{2\\sqrt{5}}`, `\\boxed{(-\\infty, 2) \\cup (3, \\infty)}`."
    )

    def _task(self, row: dict[str, Any]) -> tuple[Task, str]:
        unique: str = row["unique_id"]
        stem = unique.removeprefix("test/").removesuffix(".json").replace("/", "-")
        task = Task(
            id=f"math500-{stem}", benchmark=self.name, domain=self.domain, prompt=row["problem"],
            environment=row["subject"], gold=row["answer"],
            metadata={"subject": row["subject"], "level": int(row["level"]), "unique_id": unique,
                      "line": row["_line"]},
        )
        return task, str(row["solution"])

    def gold_action(self, task: Task) -> Action:
        gold = self._require_gold(task)
        solution = self.solution(task)
        body = f"{solution}\n\n" if solution else ""
        return Action(content=f"{body}Answer: $\\boxed{{{gold}}}$")

    def wrong_action(self, task: Task) -> Action:
        return Action(content=f"Answer: $\\boxed{{{wrong_answer(self._require_gold(task))}}}$")

    def lookalikes(self, task: Task, rng: random.Random) -> list[Task]:
        gold = self._require_gold(task)
        form = answer_form(gold)
        level = task.metadata.get("level")
        pool = [
            other for other in self.tasks()
            if other.id != task.id and other.environment == task.environment
            and other.metadata.get("level") == level and other.gold is not None
            and answer_form(other.gold) == form
        ]
        rng.shuffle(pool)
        judge = self.judge()
        found: list[Task] = []
        for other in pool:
            assert other.gold is not None
            if judge.judge(other.gold, gold).verdict == "different":
                found.append(other)
            if len(found) == self.LOOKALIKES_PER_TASK:
                break
        return found
