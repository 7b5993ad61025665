"""A failed SAT check's error kind (`check_error`) from the real solver's verdicts, for both SAT
benchmarks; no clause number or variable in a kind."""

from __future__ import annotations

from countermem.core import Action
from countermem.domains.sat._errors import error_kind
from error_kinds import first_task_world


def test_satlib_kinds() -> None:
    benchmark, task, world = first_task_world("satlib")
    cases = {"hello": "malformed_answer", "UNSAT": "false_unsat_claim", benchmark.wrong_action(task).content: "violated_clauses"}
    assert {a: benchmark.error_kind(world.check(Action(content=a))) for a in cases} == cases
    assert benchmark.error_kind(world.check(benchmark.gold_action(task))) is None


def test_sat_encode_kinds() -> None:
    benchmark, task, world = first_task_world("sat-encode")
    n_vars = int(benchmark.gold_action(task).content.split()[2])
    contradiction = f"p cnf {n_vars} 2\n1 0\n-1 0\n"
    cases = {
        "hello": "malformed_cnf",
        "UNSAT": "false_unsat_claim",
        contradiction: "over_constrained",
        benchmark.wrong_action(task).content: "under_constrained",
    }
    assert {a: benchmark.error_kind(world.check(Action(content=a))) for a in cases} == cases
    assert benchmark.error_kind(world.check(benchmark.gold_action(task))) is None
    assert error_kind("timeout", "the CNF could not be solved: budget") == "timeout"
