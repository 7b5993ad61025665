"""A failed SMT check's error kind (`check_error`) from real z3 runs, for both SMT benchmarks; a
checker's own failure has no kind."""

from __future__ import annotations

import pytest

from countermem.core import Action
from countermem.domains import load_benchmark
from countermem.domains.smt._errors import error_kind


def _bench(name: str):  # type: ignore[no-untyped-def]
    benchmark = load_benchmark(name)
    if not benchmark.availability().available:
        pytest.skip(benchmark.availability().reason)
    task = benchmark.tasks()[0]
    world = benchmark.world_model()
    world.reset(task)
    return benchmark, task, world


def test_smt_encode_kinds() -> None:
    benchmark, task, world = _bench("smt-encode")
    cases = {
        "hello": "malformed_encoding",
        "(declare-const x Int)\n(assert (> x 1))\n(assert (< x 0))": "unsat_encoding",
        benchmark.wrong_action(task).content: "broken_rules",
    }
    assert {a: benchmark.error_kind(world.check(Action(content=a))) for a in cases} == cases
    assert benchmark.error_kind(world.check(benchmark.gold_action(task))) is None


def test_smtlib_kinds() -> None:
    benchmark, task, world = _bench("smtlib")
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
