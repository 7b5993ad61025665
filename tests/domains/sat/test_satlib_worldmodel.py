"""The satlib benchmark against the real SATLIB data (skipped when the data is absent)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from countermem.core import Action, Task
from countermem.domains import check_world_model, load_benchmark
from countermem.domains.sat import (
    RENDER_CHAR_LIMIT,
    UNSAT,
    VIOLATED_SHOWN,
    SATLib,
    SATLibWorldModel,
    SolverBudget,
)


@pytest.fixture(scope="module")
def bench() -> SATLib:
    benchmark = load_benchmark("satlib")
    available = benchmark.availability()
    if not available.available:
        pytest.skip(f"satlib data or solver missing: {available.reason}")
    assert isinstance(benchmark, SATLib)
    return benchmark


@pytest.fixture(scope="module")
def tasks(bench: SATLib) -> list[Task]:
    return bench.tasks()


def _by_env(tasks: list[Task]) -> dict[str, list[Task]]:
    out: dict[str, list[Task]] = {}
    for task in tasks:
        out.setdefault(task.environment or "", []).append(task)
    return out


def _sample(tasks: list[Task], per_family: int = 5) -> list[Task]:
    return [t for group in _by_env(tasks).values() for t in group[:per_family]]


def test_all_families_load_in_stable_order(bench: SATLib, tasks: list[Task]) -> None:
    counts = Counter(t.environment for t in tasks)
    assert counts == {"uf20": 800, "uf50": 800, "uuf50": 800, "flat100": 80}
    assert [t.id for t in bench.tasks()] == [t.id for t in tasks]
    assert len({t.id for t in tasks}) == len(tasks)
    assert all((t.gold == UNSAT) == (t.environment == "uuf50") for t in tasks)


def test_gold_passes_on_a_sample(bench: SATLib, tasks: list[Task]) -> None:
    world = bench.world_model()
    for task in _sample(tasks):
        world.reset(task)
        result = world.check(bench.gold_action(task))
        assert result.passed and result.completed and result.utility == 1.0, (task.id, result)


@pytest.mark.slow
def test_gold_passes_on_every_instance(bench: SATLib, tasks: list[Task]) -> None:
    world = bench.world_model()
    passed: Counter[str] = Counter()
    for task in tasks:
        world.reset(task)
        if world.check(bench.gold_action(task)).passed:
            passed[task.environment or ""] += 1
    print(f"\nsatlib gold passes per family: {dict(passed)} of {dict(Counter(t.environment for t in tasks))}")
    assert sum(passed.values()) == len(tasks)


def test_conformance(bench: SATLib, tasks: list[Task]) -> None:
    world = bench.world_model()
    for task in _sample(tasks, per_family=1):
        actions = [
            bench.gold_action(task),
            bench.wrong_action(task),
            Action(content=UNSAT),
            Action(content="1 2 x"),
        ]
        report = check_world_model(world, task, actions)
        assert report.results[0].passed
        assert not report.results[1].passed


def test_flipped_assignment_gets_partial_utility_and_lists_violations(
    bench: SATLib, tasks: list[Task]
) -> None:
    world = bench.world_model()
    for task in _sample(tasks):
        world.reset(task)
        result = world.check(bench.wrong_action(task))
        assert result.completed and not result.passed and result.status == "wrong"
        assert 0.0 < result.utility < 1.0, (task.id, result)
        assert "violated clauses" in result.details and "#" in result.details


def test_violated_clause_listing_is_capped_and_correct(bench: SATLib, tasks: list[Task]) -> None:
    task = next(t for t in tasks if t.environment == "uf20")
    world = bench.world_model()
    world.reset(task)
    all_false = Action(content=" ".join(str(-v) for v in range(1, 21)))
    result = world.check(all_false)
    clauses = [line.split()[:-1] for line in str(task.metadata["cnf"]).splitlines()[1:]]
    violated = [i + 1 for i, c in enumerate(clauses) if all(not lit.startswith("-") for lit in c)]
    assert result.utility == pytest.approx(1 - len(violated) / 91)
    listed = [int(part.split(":")[0]) for part in result.details.split("#")[1:]]
    assert listed == violated[:VIOLATED_SHOWN]


def test_wrong_unsat_claim_fails_with_zero(bench: SATLib, tasks: list[Task]) -> None:
    world = bench.world_model()
    for env in ("uf20", "uf50", "flat100"):
        task = next(t for t in tasks if t.environment == env)
        world.reset(task)
        result = world.check(Action(content="UNSAT"))
        assert (result.status, result.utility, result.passed, result.completed) == ("wrong", 0.0, False, True)


def test_correct_unsat_claim_passes_and_assignment_cannot(bench: SATLib, tasks: list[Task]) -> None:
    world = bench.world_model()
    task = next(t for t in tasks if t.environment == "uuf50")
    world.reset(task)
    assert world.check(Action(content="unsat")).passed
    wrong = world.check(bench.wrong_action(task))
    assert wrong.status == "wrong" and 0.0 < wrong.utility < 1.0


def test_solver_budget_exhaustion_is_incomplete(tasks: list[Task]) -> None:
    world = SATLibWorldModel(SolverBudget(conflicts=1))
    task = next(t for t in tasks if t.environment == "uuf50")
    world.reset(task)
    result = world.check(Action(content=UNSAT))
    assert (result.status, result.completed, result.passed, result.utility) == ("timeout", False, False, 0.0)
    assert "budget" in result.details


@pytest.mark.parametrize(
    "content",
    [
        "",
        "v 1 2 3 0",
        "1 -1 " + " ".join(str(v) for v in range(2, 21)),
        "x y z",
        "21 " + " ".join(str(v) for v in range(1, 21)),
    ],
)
def test_malformed_answers_are_error_results(bench: SATLib, tasks: list[Task], content: str) -> None:
    world = bench.world_model()
    world.reset(tasks[0])
    result = world.check(Action(content=content))
    assert (result.status, result.utility, result.passed, result.completed) == ("error", 0.0, False, True)
    assert result.details.startswith("malformed answer:")


def test_check_before_reset_is_a_named_error() -> None:
    from countermem.core import ConfigError

    with pytest.raises(ConfigError, match="reset"):
        SATLibWorldModel().check(Action(content=UNSAT))


def test_render_hides_family_and_fits_the_limit(bench: SATLib, tasks: list[Task]) -> None:
    for task in _sample(tasks, per_family=2):
        text = bench.render_task(task)
        assert "uuf" not in text and "uf50" not in text and "%" not in text
        assert "Statistics:" in text and "p cnf" in text and "truncated" not in text


def test_render_truncates_with_statistics(bench: SATLib, tasks: list[Task]) -> None:
    from countermem.domains.sat._render import render_cnf
    from countermem.domains.sat._satlib import task_cnf

    cnf = task_cnf(next(t for t in tasks if t.environment == "flat100"))
    text = render_cnf(cnf, limit=2_000)
    assert len(text) < 2_000 + 200
    assert "truncated" in text and f"of {cnf.n_clauses}" in text
    assert max(len(str(t.metadata["cnf"])) for t in tasks) <= RENDER_CHAR_LIMIT


def test_facts(bench: SATLib, tasks: list[Task]) -> None:
    task = next(t for t in tasks if t.environment == "uuf50")
    facts = bench.facts(task)
    assert facts.get("n_vars") == 50 and facts.get("n_clauses") == 218
    assert facts.get("clause_var_ratio") == pytest.approx(4.36)
    assert facts.get("family") == "random-3sat-50-218"
    assert "uuf" not in str(facts.values)
    with_action = bench.facts(task, Action(content="UNSAT"))
    assert with_action.get("is_unsat_claim") is True and with_action.get("n_literals") == 0
    gold = bench.facts(tasks[0], bench.gold_action(tasks[0]))
    assert (
        gold.get("is_unsat_claim") is False
        and gold.get("n_literals") == 20
        and gold.get("well_formed") is True
    )


def test_lookalikes_share_shape_and_reject_the_gold(bench: SATLib, tasks: list[Task]) -> None:
    world = bench.world_model()
    for task in _sample(tasks, per_family=2):
        found = bench.lookalikes(task, random.Random(1))
        assert len(found) == 3
        for other in found:
            assert other.id != task.id and other.metadata["shape"] == task.metadata["shape"]
            world.reset(other)
            assert not world.check(bench.gold_action(task)).passed
        if task.environment == "uuf50":
            assert all(o.environment == "uf50" for o in found)
