"""A failed math check's error kind (`check_error`), read from what the check told the agent, never
from the reference answer."""

from __future__ import annotations

import pytest

from countermem.core import Action
from countermem.domains.math._errors import error_kind
from error_kinds import first_task_world


@pytest.mark.parametrize("name", ["gsm8k", "math500"])
def test_each_kind_of_failed_answer_gets_its_kind_from_the_checker(name: str) -> None:
    benchmark, task, world = first_task_world(name)
    answers = {
        "I think it is large.": "no_final_answer",
        "Answer: 123456789": "wrong_value",
        "\\boxed{x^{2}+}": "unparsable_answer",
        "Answer: many": "not_a_number" if name == "gsm8k" else "wrong_value",
    }
    assert {a: benchmark.error_kind(world.check(Action(content=a))) for a in answers} == answers
    assert benchmark.error_kind(world.check(benchmark.gold_action(task))) is None


def test_kinds_read_from_the_details_alone() -> None:
    assert error_kind("error", "final answer is 900 characters long (limit 200); state only ...") == "answer_too_long"
    assert error_kind("wrong", "final answer 'x': the reference is words; 'x' is not words [text]") == "not_words"
    assert error_kind("error", "final answer '1': math-verify worker failed: died [math-verify]") is None, (
        "the checker's own failure is no mistake of the answer"
    )
    assert error_kind("timeout", "final answer '1': timed out [math-verify]") == "timeout"
