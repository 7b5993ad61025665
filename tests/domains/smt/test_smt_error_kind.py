"""A failed SMT check's error kind (`check_error`) from real z3 runs, for both SMT benchmarks; a
checker's own failure has no kind."""

from __future__ import annotations

from countermem.core import Action
from countermem.domains.smt._errors import error_kind
from error_kinds import first_task_world


def test_smt_encode_kinds() -> None:
    benchmark, task, world = first_task_world("smt-encode")
    cases = {
        "hello": "malformed_encoding",
        "(declare-const x Int)\n(assert (> x 1))\n(assert (< x 0))": "unsat_encoding",
        benchmark.wrong_action(task).content: "broken_rules",
    }
    assert {a: benchmark.error_kind(world.check(Action(content=a))) for a in cases} == cases
    assert benchmark.error_kind(world.check(benchmark.gold_action(task))) is None


def test_smtlib_kinds() -> None:
    benchmark, task, world = first_task_world("smtlib")
    cases = {"hello": "malformed_strategy", "fail": "gave_up"}
    assert {a: benchmark.error_kind(world.check(Action(content=a))) for a in cases} == cases
    assert benchmark.error_kind(world.check(benchmark.gold_action(task))) is None


def test_kinds_read_from_the_details_alone() -> None:
    assert error_kind("wrong", "BOGUS SAT: the model falsifies 2 of 9 assertions; first: (> x 1)") == "bogus_sat"
    assert error_kind("wrong", "WRONG ANSWER: z3 said unsat, the file declares sat; effort 1") == "wrong_answer"
    assert error_kind("error", "checker failure (internal): z3 crashed") is None
    assert error_kind("error", "the checking process died (exit 9): ") is None
    assert error_kind("error", "unknown constant y") == "script_error"
    assert error_kind("timeout", "killed after 12.00 s (budget 10 s)") == "timeout"
