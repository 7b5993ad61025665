"""smt-encode: gold encodings pass, look-alike encodings fail, malformed input is an error."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from countermem.core import Action, ParseError
from countermem.domains import BenchmarkOptions, check_world_model, load_benchmark, split_tasks
from countermem.domains.smt import HARD_MARGIN_S, SMTEncode, SMTEncodeWorldModel, read_encoding
from countermem.domains.smt._encode import GOLD_FOLDER, catalog

pytest.importorskip("z3")

BUDGET_S = 2.0
SAMPLE = ["seating-1a", "scheduling-2b", "assignment-1a", "sudoku-1b", "knapsack-2a", "roster-1a"]


@pytest.fixture(scope="module")
def bench() -> SMTEncode:
    benchmark = load_benchmark("smt-encode", BenchmarkOptions(timeout_s=BUDGET_S))
    assert isinstance(benchmark, SMTEncode)
    return benchmark


@pytest.fixture(scope="module")
def world(bench: SMTEncode) -> SMTEncodeWorldModel:
    return bench.world_model()


def _task(bench: SMTEncode, task_id: str):  # type: ignore[no-untyped-def]
    return next(task for task in bench.tasks() if task.id == task_id)


def test_catalog_has_a_hundred_plus_problems_in_lookalike_pairs(bench: SMTEncode) -> None:
    tasks = bench.tasks()
    assert len(tasks) >= 100, "a study takes 30 source, 10 training and 40 held-out tasks (0.4/0.2/0.4 splits)"
    problems = catalog()
    families = {problem.family for problem in problems.values()}
    assert {"seating", "scheduling", "assignment", "sudoku-mini", "knapsack"} <= families
    for problem in problems.values():
        partner = problems[problem.partner]
        assert partner.partner == problem.id
        assert partner.family == problem.family
        changed = [a.text for a, b in zip(problem.rules, partner.rules, strict=True) if a.text != b.text]
        assert len(changed) == 1, (problem.id, changed)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_splits_leave_40_held_out_tasks(bench: SMTEncode, seed: int) -> None:
    counts = split_tasks(bench.tasks(), seed=seed).counts()
    assert counts["construct"] >= 30 and counts["train"] >= 10 and counts["heldout"] >= 40


def test_shipped_gold_files_match_the_problem_definitions() -> None:
    folder = Path(__file__).resolve().parents[3] / "src/countermem/domains/smt" / GOLD_FOLDER
    shipped = {path.stem for path in folder.glob("*.smt2")}
    assert shipped == set(catalog())
    for problem_id, problem in catalog().items():
        assert (folder / f"{problem_id}.smt2").read_text(encoding="utf-8") == problem.gold_encoding(), (
            f"{problem_id}.smt2 is stale: run python -m countermem.domains.smt._encode_gold"
        )


def test_validators_accept_a_known_answer_and_reject_a_changed_one() -> None:
    queens = catalog()["queens-1a"]
    solution = {f"queen_col{c}": row for c, row in enumerate((2, 4, 6, 1, 3, 5), 1)}
    assert all(queens.validate(solution))
    swapped = {**solution, "queen_col1": 4, "queen_col2": 2}
    verdicts = queens.validate(swapped)
    assert not all(verdicts) and any(verdicts)
    missing = {**solution, "queen_col3": None}
    assert sum(queens.validate(missing)) < len(queens.rules)


def test_conformance(bench: SMTEncode, world: SMTEncodeWorldModel) -> None:
    task = _task(bench, "seating-1a")
    report = check_world_model(world, task, [bench.gold_action(task), bench.wrong_action(task)])
    gold, wrong = report.results
    assert gold.passed and gold.utility == 1.0
    assert not wrong.passed and wrong.completed and wrong.status == "wrong"


@pytest.mark.parametrize("task_id", SAMPLE)
def test_gold_passes_and_the_lookalike_gold_fails(bench: SMTEncode, world: SMTEncodeWorldModel, task_id: str) -> None:
    task = _task(bench, task_id)
    world.reset(task)
    gold = world.check(bench.gold_action(task))
    assert gold.passed, gold.details
    assert gold.status == "passed" and gold.utility == 1.0
    wrong = world.check(bench.wrong_action(task))
    assert not wrong.passed and wrong.completed and wrong.status == "wrong"
    assert 0.0 < wrong.utility < 1.0, "partial credit: the look-alike answer keeps all but the changed rule"
    assert "Broken" in wrong.details


@pytest.mark.slow
def test_every_gold_encoding_passes(bench: SMTEncode, world: SMTEncodeWorldModel) -> None:
    for task in bench.tasks():
        world.reset(task)
        result = world.check(bench.gold_action(task))
        assert result.passed, (task.id, result.details)


@pytest.mark.slow
def test_every_lookalike_gold_encoding_fails(bench: SMTEncode, world: SMTEncodeWorldModel) -> None:
    for task in bench.tasks():
        world.reset(task)
        result = world.check(bench.wrong_action(task))
        assert not result.passed and result.status == "wrong", (task.id, result.details)
        assert 0.0 < result.utility < 1.0, (task.id, result.details)


def test_malformed_and_refused_encodings_are_error_results(bench: SMTEncode, world: SMTEncodeWorldModel) -> None:
    world.reset(_task(bench, "coins-1a"))
    for text, needle in [
        ("(declare-const count_penny Int)\n(assert (> count_penny", "unclosed"),
        ('(set-option :regular-output-channel "x.txt")\n(declare-const a Int)', "not allowed"),
        ("(declare-const a Int)\n(push 1)", "not allowed"),
        ("", "no declarations"),
    ]:
        result = world.check(Action(content=text))
        assert result.status == "error" and result.completed and not result.passed, text
        assert needle in result.details
    z3_error = world.check(Action(content="(declare-const count_penny Int)\n(assert (> count_penny y))"))
    assert z3_error.status == "error" and "unknown constant" in z3_error.details


def test_unsat_encoding_scores_zero(bench: SMTEncode, world: SMTEncodeWorldModel) -> None:
    world.reset(_task(bench, "coins-1a"))
    result = world.check(Action(content="(declare-const count_penny Int)\n(assert (> count_penny 3))\n(assert (< count_penny 2))"))
    assert result.status == "wrong" and result.utility == 0.0 and result.completed
    assert "unsat" in result.details


def test_partial_encoding_earns_partial_credit_and_names_missing_constants(
    bench: SMTEncode, world: SMTEncodeWorldModel
) -> None:
    task = _task(bench, "coins-1a")
    world.reset(task)
    partial = "\n".join([
        "(declare-const count_penny Int)", "(declare-const count_nickel Int)",
        "(declare-const count_dime Int)", "(declare-const count_quarter Int)",
        "(assert (= (+ count_penny (* 5 count_nickel) (* 10 count_dime) (* 25 count_quarter)) 87))",
        "(assert (and (>= count_penny 0) (>= count_nickel 1) (>= count_dime 0) (>= count_quarter 0)))",
    ])
    result = world.check(Action(content=partial))
    assert 0.5 <= result.utility <= 1.0
    undeclared = world.check(Action(content="(declare-const count_penny Int)\n(assert (= count_penny 87))"))
    assert undeclared.status == "wrong" and undeclared.utility < 0.5
    assert "count_quarter=None" in undeclared.details


def test_a_hard_encoding_is_stopped_within_budget(bench: SMTEncode, world: SMTEncodeWorldModel) -> None:
    world.reset(_task(bench, "coins-1a"))
    hard = "\n".join([
        "(declare-const count_penny Int)", "(declare-const y Int)", "(declare-const z Int)",
        "(assert (> count_penny 1000))", "(assert (> y 1000))", "(assert (> z 1000))",
        "(assert (= (+ (* count_penny count_penny count_penny) (* y y y)) (* z z z)))",
    ])
    started = time.monotonic()
    result = world.check(Action(content=hard))
    elapsed = time.monotonic() - started
    assert result.status == "timeout" and not result.completed and result.utility == 0.0
    assert elapsed < BUDGET_S + HARD_MARGIN_S + 1.5


def test_read_encoding_summarises_declarations() -> None:
    script = read_encoding("(set-logic QF_LIA)(declare-const x Int)(declare-fun b () Bool)(assert (ite b (> x 1) (< x 0)))")
    assert script.constants == {"x": "Int", "b": "Bool"}
    assert script.n_asserts == 1 and "ite" in script.symbols
    with pytest.raises(ParseError):
        read_encoding("(eval x)")


def test_render_facts_and_lookalikes(bench: SMTEncode) -> None:
    task = _task(bench, "scheduling-1a")
    text = bench.render_task(task)
    assert "start_cut : Int" in text and "cut must end before weld starts." in text
    facts = bench.facts(task, bench.gold_action(task))
    assert facts.get("problem_type") == "scheduling"
    assert facts.get("n_entities") == 5
    assert facts.get("action_declares_all_answers") is True
    assert facts.get("action_n_asserts") == len(catalog()["scheduling-1a"].rules)
    assert bench.facts(task, Action(content="(assert")).get("action_parses") is False
    looks = bench.lookalikes(task, random.Random(0))
    assert looks[0].id == "scheduling-1b"
    assert all(other.metadata["family"] == "scheduling" for other in looks)
