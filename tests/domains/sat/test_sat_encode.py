"""sat-encode: every gold encoding passes, the judge catches wrong ones, look-alikes really differ."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from countermem.core import Action, ConfigError, Task
from countermem.domains import check_world_model, load_benchmark
from countermem.domains.sat import (
    LOOKALIKE_PAIRS,
    PROBLEMS,
    GraphColouring,
    LatinSquare,
    Queens,
    SATEncode,
    SATEncodeWorldModel,
    SolverBudget,
    problem_by_id,
)


@pytest.fixture(scope="module")
def bench() -> SATEncode:
    benchmark = load_benchmark("sat-encode")
    available = benchmark.availability()
    if not available.available:
        pytest.skip(f"python-sat missing: {available.reason}")
    assert isinstance(benchmark, SATEncode)
    return benchmark


@pytest.fixture(scope="module")
def tasks(bench: SATEncode) -> list[Task]:
    return bench.tasks()


def _by_pid(tasks: list[Task]) -> dict[str, Task]:
    return {str(t.metadata["problem_id"]): t for t in tasks}


def test_catalog_size_and_kinds(tasks: list[Task]) -> None:
    assert len(tasks) >= 30
    assert len({t.id for t in tasks}) == len(tasks)
    kinds = Counter(t.metadata["problem_type"] for t in tasks)
    assert set(kinds) == {"graph-colouring", "n-queens", "latin-square", "placement", "scheduling"}
    assert len(LOOKALIKE_PAIRS) >= 10
    ids = set(_by_pid(tasks))
    assert all(a in ids and b in ids for a, b in LOOKALIKE_PAIRS)


def test_every_gold_encoding_passes(bench: SATEncode, tasks: list[Task]) -> None:
    world = bench.world_model()
    for task in tasks:
        world.reset(task)
        result = world.check(bench.gold_action(task))
        assert result.passed and result.utility == 1.0 and result.completed, (task.id, result.details)
        assert bench.gold_action(task).content == task.gold


def test_wrong_action_gets_partial_utility(bench: SATEncode, tasks: list[Task]) -> None:
    world = bench.world_model()
    for task in tasks:
        world.reset(task)
        result = world.check(bench.wrong_action(task))
        assert result.status == "wrong" and result.completed, (task.id, result)
        assert 0.0 < result.utility < 1.0, (task.id, result.utility)
        assert "violated:" in result.details


def test_lookalike_golds_fail_on_each_other(bench: SATEncode, tasks: list[Task]) -> None:
    world = bench.world_model()
    by_pid = _by_pid(tasks)
    for a, b in LOOKALIKE_PAIRS:
        assert type(problem_by_id(a)) is type(problem_by_id(b))
        assert problem_by_id(a).n_vars == problem_by_id(b).n_vars  # type: ignore[union-attr]
        for source, target in ((a, b), (b, a)):
            world.reset(by_pid[target])
            result = world.check(bench.gold_action(by_pid[source]))
            assert not result.passed and result.completed, f"gold of {source} passes on {target}"
    found = bench.lookalikes(by_pid["queens4-block-01"], random.Random(0))
    assert [t.metadata["problem_id"] for t in found] == ["queens4-block-02"]
    assert bench.lookalikes(by_pid["k4-4"], random.Random(0)) == []


def test_conformance(bench: SATEncode, tasks: list[Task]) -> None:
    world = bench.world_model()
    for task in tasks[::8]:
        actions = [
            bench.gold_action(task),
            bench.wrong_action(task),
            Action(content="1 0\n-1 0\n"),
            Action(content="p cnf"),
        ]
        report = check_world_model(world, task, actions)
        assert [r.status for r in report.results] == ["passed", "wrong", "wrong", "error"]


def test_unsat_cnf_and_unsat_claim_score_zero(bench: SATEncode, tasks: list[Task]) -> None:
    world = bench.world_model()
    world.reset(tasks[0])
    unsat = world.check(Action(content="p cnf 1 2\n1 0\n-1 0\n"))
    assert (unsat.status, unsat.utility, unsat.completed) == ("wrong", 0.0, True)
    assert "unsatisfiable" in unsat.details
    claim = world.check(Action(content="UNSAT"))
    assert (claim.status, claim.utility) == ("wrong", 0.0)


@pytest.mark.parametrize("content", ["1 2 three 0", "p cnf 2 1\n1 5 0\n", "1 2", "% 0", "p dnf 1 1\n1 0"])
def test_malformed_cnf_is_an_error_result(bench: SATEncode, tasks: list[Task], content: str) -> None:
    world = bench.world_model()
    world.reset(tasks[0])
    result = world.check(Action(content=content))
    assert (result.status, result.utility, result.passed, result.completed) == ("error", 0.0, False, True)
    assert result.details.startswith("malformed CNF:")


def test_solver_budget_exhaustion_is_incomplete(tasks: list[Task]) -> None:
    world = SATEncodeWorldModel(SolverBudget(conflicts=5))
    world.reset(tasks[0])
    holes = 7
    clauses = [" ".join(str(p * holes + h + 100) for h in range(holes)) + " 0" for p in range(holes + 1)]
    clauses += [
        f"-{a * holes + h + 100} -{b * holes + h + 100} 0"
        for h in range(holes)
        for a in range(holes + 1)
        for b in range(a + 1, holes + 1)
    ]
    result = world.check(Action(content="\n".join(clauses)))
    assert (result.status, result.completed, result.passed, result.utility) == ("timeout", False, False, 0.0)


def test_partial_credit_counts_constraints(bench: SATEncode, tasks: list[Task]) -> None:
    """Forcing every 4-queens square empty leaves 4 row rules broken and everything else intact."""
    task = _by_pid(tasks)["queens4"]
    problem = problem_by_id("queens4")
    assert isinstance(problem, Queens)
    world = bench.world_model()
    world.reset(task)
    result = world.check(Action(content="\n".join(f"-{v} 0" for v in range(1, 17))))
    total = len(problem.constraints())
    assert result.utility == pytest.approx((total - 4) / total)
    assert "queens at (row,col): none" in result.details


def test_auxiliary_variables_are_ignored_by_the_judge(bench: SATEncode, tasks: list[Task]) -> None:
    """A gold CNF plus a free auxiliary variable still passes; missing problem variables count false."""
    task = _by_pid(tasks)["cycle5-pin-0"]
    world = bench.world_model()
    world.reset(task)
    gold = bench.gold_action(task).content.splitlines()
    assert world.check(Action(content="\n".join([*gold[1:], "99 -99 0"]))).passed


def test_numbering_examples_match_the_var_functions() -> None:
    for problem in PROBLEMS:
        match = re.search(r"is variable (\d+)", problem.convention())
        assert match, problem.pid
        if isinstance(problem, GraphColouring):
            assert int(match.group(1)) == problem.var(2, 1)
        if isinstance(problem, LatinSquare):
            assert int(match.group(1)) == problem.var(1, 2, min(3, problem.n))
        assert 1 <= int(match.group(1)) <= problem.n_vars


def test_render_and_facts(bench: SATEncode, tasks: list[Task]) -> None:
    task = _by_pid(tasks)["australia-same"]
    text = bench.render_task(task)
    assert "Variable numbering" in text and "1..21" in text and "has at least one solution" in text
    assert "SA" in text and "Edges (9)" in text
    facts = bench.facts(task, bench.gold_action(task))
    assert facts.get("problem_type") == "graph-colouring" and facts.get("n_colours") == 3
    assert facts.get("declared_satisfiable") is True and facts.get("well_formed") is True
    assert facts.get("is_unsat_claim") is False and facts.get("uses_auxiliary_vars") is False
    assert bench.facts(task, Action(content="UNSAT")).get("is_unsat_claim") is True
    assert "UNSAT" in bench.instructions() and "auxiliary" in bench.instructions()


def test_unknown_problem_is_a_named_error(bench: SATEncode) -> None:
    task = Task(id="x", benchmark="sat-encode", domain="sat", prompt="", metadata={"problem_id": "nope"})
    with pytest.raises(ConfigError, match="nope"):
        bench.world_model().reset(task)
