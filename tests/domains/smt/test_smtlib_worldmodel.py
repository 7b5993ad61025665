"""smtlib: calibrated gold strategies pass, wrong ones fail, budgets hold, sat models are checked."""

from __future__ import annotations

import random
import time

import pytest

from countermem.core import Action, DataUnavailableError, Task
from countermem.domains import BenchmarkOptions, check_world_model, load_benchmark
from countermem.domains.smt import (
    HARD_MARGIN_S,
    GoldUnknownError,
    ProcessOutcome,
    RunnerReply,
    SMTLib,
    SMTLibWorldModel,
    judge_strategy_reply,
    parse_strategy,
    run_runner,
)
from countermem.domains.smt._gold import gold_table
from countermem.domains.smt._instances import RENDER_CHAR_LIMIT, instance_file

z3 = pytest.importorskip("z3")

BUDGET_S = 2.0
LOGICS = ("QF_LIA", "QF_IDL", "QF_NRA", "QF_NIA", "QF_BV")


@pytest.fixture(scope="module")
def bench() -> SMTLib:
    benchmark = load_benchmark("smtlib", BenchmarkOptions(timeout_s=BUDGET_S))
    assert isinstance(benchmark, SMTLib)
    availability = benchmark.availability()
    if not availability.available:
        pytest.skip(f"smtlib data or z3 missing: {availability.reason}")
    return benchmark


@pytest.fixture(scope="module")
def world(bench: SMTLib) -> SMTLibWorldModel:
    return bench.world_model()


def _easiest(bench: SMTLib, logic: str, status: str | None = None) -> Task:
    """The task of a logic whose calibrated gold needs the least effort (quick even on a busy machine)."""
    table = gold_table()
    assert table is not None, "smtlib_gold.json is missing"
    candidates = [
        task for task in bench.tasks()
        if task.metadata["logic"] == logic and task.id in table.entries
        and (status is None or task.metadata["declared_status"] == status)
    ]
    if not candidates:
        pytest.skip(f"no calibrated gold for {logic}")
    return min(candidates, key=lambda task: (table.entries[task.id].effort, task.id))


def test_task_set_spans_the_logics_and_hides_the_answer(bench: SMTLib) -> None:
    tasks = bench.tasks()
    assert {task.environment for task in tasks} == set(LOGICS)
    assert len({task.id for task in tasks}) == len(tasks)
    for task in tasks[:: max(1, len(tasks) // 12)]:
        text = bench.render_task(task)
        assert ":status" not in text and "(set-info" not in text
        assert f"first {RENDER_CHAR_LIMIT} characters" in text


def test_gold_table_covers_every_task(bench: SMTLib) -> None:
    table = gold_table()
    assert table is not None
    ids = {task.id for task in bench.tasks()}
    assert set(table.entries) | set(table.unsolved) == ids
    assert not set(table.entries) & set(table.unsolved)
    assert len(table.entries) >= len(ids) // 2


def test_conformance_with_gold_and_wrong_strategy(bench: SMTLib, world: SMTLibWorldModel) -> None:
    task = _easiest(bench, "QF_LIA")
    report = check_world_model(world, task, [bench.gold_action(task), bench.wrong_action(task)])
    gold, wrong = report.results
    assert gold.passed and 0.5 <= gold.utility <= 1.0
    assert not wrong.passed and wrong.utility == 0.0 and wrong.status == "wrong"
    assert "gave up" in wrong.details


@pytest.mark.parametrize("logic", LOGICS)
def test_gold_passes_on_the_easiest_task_of_each_logic(bench: SMTLib, world: SMTLibWorldModel, logic: str) -> None:
    task = _easiest(bench, logic)
    world.reset(task)
    result = world.check(bench.gold_action(task))
    assert result.passed, result.details
    assert result.status == "passed" and result.utility >= 0.5
    if task.metadata["declared_status"] == "sat":
        assert "model checked against all" in result.details


def test_unsat_gold_passes(bench: SMTLib, world: SMTLibWorldModel) -> None:
    task = _easiest(bench, "QF_LIA", status="unsat")
    world.reset(task)
    assert world.check(bench.gold_action(task)).passed


def test_malformed_strategy_is_an_error_result_not_an_exception(bench: SMTLib, world: SMTLibWorldModel) -> None:
    world.reset(_easiest(bench, "QF_LIA"))
    for text, needle in [
        ("(then simplify", "unclosed"),
        ("no-such-tactic", "unknown tactic"),
        ("(using-params smt :no_such_param 1)", "unknown parameter"),
        ("(set-option :smt.no_such_option 1)\n(check-sat)", "bad option"),
    ]:
        result = world.check(Action(content=text))
        assert result.status == "error" and result.completed and not result.passed, (text, result)
        assert needle in result.details, result.details


def test_wrong_answer_is_marked(bench: SMTLib, world: SMTLibWorldModel) -> None:
    task = _easiest(bench, "QF_LIA", status="sat")
    flipped = task.model_copy(update={"metadata": {**task.metadata, "declared_status": "unsat"}})
    world.reset(flipped)
    result = world.check(bench.gold_action(task))
    assert result.status == "wrong" and result.completed and not result.passed and result.utility == 0.0
    assert "WRONG ANSWER" in result.details


def test_a_slow_strategy_times_out_within_budget(bench: SMTLib, world: SMTLibWorldModel) -> None:
    table = gold_table()
    assert table is not None
    hard = [task for task in bench.tasks() if task.id in table.unsolved]
    if not hard:
        pytest.skip("every task has a gold strategy; no known-hard instance to time out on")
    world.reset(hard[0])
    started = time.monotonic()
    result = world.check(Action(content="smt"))
    elapsed = time.monotonic() - started
    assert result.status == "timeout" and not result.completed and result.utility == 0.0
    assert elapsed < BUDGET_S + HARD_MARGIN_S + 1.5


def test_the_hard_deadline_kills_a_solver_that_ignores_its_soft_timeout(bench: SMTLib) -> None:
    table = gold_table()
    assert table is not None
    hard = next((task for task in bench.tasks() if task.id in table.unsolved), None)
    if hard is None:
        pytest.skip("no known-hard instance")
    path = instance_file(bench.folder, bench.instance_for(hard))
    request: dict[str, object] = {
        "mode": "strategy", "instance": str(path), "logic": hard.metadata["logic"],
        "strategy": parse_strategy("smt").to_json(), "timeout_ms": 60_000, "rlimit": 0, "memory_mb": 2048,
    }
    started = time.monotonic()
    outcome = run_runner(request, hard_timeout_s=1.0)
    assert outcome.killed and outcome.reply is None
    assert time.monotonic() - started < 2.5
    verdict = judge_strategy_reply(outcome, "unsat", 10, 1.0)
    assert verdict.status == "timeout" and not verdict.completed


def test_model_validation_catches_a_bogus_model(bench: SMTLib) -> None:
    from countermem.domains.smt._runner import validate_model

    task = _easiest(bench, "QF_LIA", status="unsat")
    assertions = z3.parse_smt2_file(str(instance_file(bench.folder, bench.instance_for(task))))
    conjuncts = [c for a in assertions for c in (a.children() if z3.is_and(a) else [a])]
    partial = z3.Solver()
    partial.add(conjuncts[0])
    assert partial.check() == z3.sat
    violated, first = validate_model(z3, partial.model(), assertions)
    assert violated >= 1 and first

    sat_task = _easiest(bench, "QF_LIA", status="sat")
    sat_assertions = z3.parse_smt2_file(str(instance_file(bench.folder, bench.instance_for(sat_task))))
    solver = z3.Solver()
    solver.add(sat_assertions)
    assert solver.check() == z3.sat
    assert validate_model(z3, solver.model(), sat_assertions) == (0, "")


def test_a_sat_claim_with_a_falsified_assertion_fails() -> None:
    reply = RunnerReply(answer="sat", effort=10, assertions=5, violated=2, first_violation="(>= x 3)")
    outcome = ProcessOutcome(reply=reply, killed=False, wall_seconds=0.1, returncode=0, stderr_tail="")
    result = judge_strategy_reply(outcome, "sat", 1_000, 1.0)
    assert result.status == "wrong" and result.completed and not result.passed and result.utility == 0.0
    assert "BOGUS SAT" in result.details


def test_utility_falls_with_effort() -> None:
    def utility(effort: int) -> float:
        reply = RunnerReply(answer="unsat", effort=effort)
        outcome = ProcessOutcome(reply=reply, killed=False, wall_seconds=0.1, returncode=0, stderr_tail="")
        return judge_strategy_reply(outcome, "unsat", 1_000, 1.0).utility

    assert utility(0) == 1.0 and utility(500) == 0.75 and utility(1_000) == 0.5


def test_gold_unknown_for_a_hard_instance_raises(bench: SMTLib) -> None:
    table = gold_table()
    assert table is not None
    hard = next((task for task in bench.tasks() if task.id in table.unsolved), None)
    if hard is None:
        pytest.skip("no known-hard instance")
    assert hard.gold is None
    with pytest.raises(GoldUnknownError, match="no strategy is known"):
        bench.gold_action(hard)
    assert issubclass(GoldUnknownError, DataUnavailableError)


def test_facts_and_lookalikes(bench: SMTLib) -> None:
    task = _easiest(bench, "QF_NIA")
    facts = bench.facts(task, Action(content="(then simplify nlsat)"))
    assert facts.get("logic") == "QF_NIA"
    assert facts.get("uses_nonlinear") is True
    assert facts.get("has_quantifiers") is False
    assert isinstance(facts.get("n_declared_consts"), int) and isinstance(facts.get("n_assertions"), int)
    assert facts.get("size_bucket") in ("<2KB", "2-8KB", "8-32KB", ">=32KB")
    assert facts.get("action_tactics") == ("nlsat", "simplify")
    bv = _easiest(bench, "QF_BV")
    width = bench.facts(bv).get("bit_width")
    assert isinstance(width, int) and width > 0
    assert bench.facts(_easiest(bench, "QF_LIA")).get("uses_nonlinear") is False
    lia = _easiest(bench, "QF_LIA")
    for other in bench.lookalikes(lia, random.Random(1)):
        assert other.metadata["family"] == lia.metadata["family"]
        assert other.metadata["declared_status"] != lia.metadata["declared_status"]
