"""coq-basics data: the shipped lemma files, their tasks, look-alike pairs and every proof."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from countermem.core import Action, Task
from countermem.domains import load_benchmark, split_tasks
from countermem.domains.fv import CoqBasics, CoqcLimits, run_coqc
from countermem.domains.fv._lemma_files import data_files, read_data_text
from required_tools import require_sandboxed_coqc

needs_coqc = pytest.mark.usefixtures("coqc")


@pytest.fixture(scope="module")
def basics() -> CoqBasics:
    benchmark = load_benchmark("coq-basics")
    assert isinstance(benchmark, CoqBasics)
    return benchmark


def _world_or_skip(benchmark: CoqBasics) -> None:
    require_sandboxed_coqc()
    availability = benchmark.availability()
    if not availability.available:
        pytest.skip(availability.reason)


def test_at_least_110_lemmas_in_ten_environments(basics: CoqBasics) -> None:
    tasks = basics.tasks()
    assert len(tasks) >= 110
    assert f"{len(tasks)} hand-written" in basics.description
    assert len({t.id for t in tasks}) == len(tasks)
    environments = Counter(t.environment for t in tasks)
    assert set(environments) == {
        "bool", "list_basic", "list_fun", "nat_add", "nat_max_min", "nat_mul", "nat_order", "nat_rec",
        "option_pair", "tree",
    }
    assert all(10 <= count <= 14 for count in environments.values())
    assert f"in {len(environments)} environments" in basics.description
    assert all(t.gold and t.gold.startswith("Proof.") and t.gold.endswith("Qed.") for t in tasks)
    with_induction = [t for t in tasks if basics.facts(t, basics.gold_action(t)).get("tactic_induction")]
    assert len(with_induction) >= 20


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_whole_environment_splits_leave_40_held_out_tasks(basics: CoqBasics, seed: int) -> None:
    counts = split_tasks(basics.tasks(), seed=seed).counts()
    assert counts["construct"] >= 30
    assert counts["train"] >= 10
    assert counts["heldout"] >= 40


def test_lookalikes_come_in_groups_of_two(basics: CoqBasics) -> None:
    groups = Counter(str(t.metadata["lookalike_group"]) for t in basics.tasks() if t.metadata["lookalike_group"])
    assert len(groups) >= 15
    assert set(groups.values()) == {2}
    for task in basics.tasks():
        partners = basics.lookalikes(task, random.Random(1))
        assert len(partners) == (1 if task.metadata["lookalike_group"] else 0)
        assert all(p.environment == task.environment and p.id != task.id for p in partners)


@needs_coqc
@pytest.mark.parametrize("filename", data_files("basics_"))
def test_each_lemma_file_compiles_as_a_whole(filename: str) -> None:
    run = run_coqc(read_data_text(filename), CoqcLimits(timeout_s=60))
    assert run.returncode == 0, run.stderr


def _check(basics: CoqBasics, task: Task, content: str) -> tuple[bool, str]:
    _world_or_skip(basics)
    world = basics.world_model()
    world.reset(task)
    result = world.check(Action(content=content))
    return result.passed, result.details


@needs_coqc
@pytest.mark.slow
def test_every_gold_passes_and_every_wrong_fails_alone(basics: CoqBasics) -> None:
    failures: list[str] = []
    for task in basics.tasks():
        passed, details = _check(basics, task, basics.gold_action(task).content)
        if not passed:
            failures.append(f"gold {task.id}: {details}")
        passed, details = _check(basics, task, basics.wrong_action(task).content)
        if passed:
            failures.append(f"wrong action passed on {task.id}")
    assert not failures, "\n".join(failures)


@needs_coqc
@pytest.mark.slow
def test_in_every_lookalike_pair_a_proof_fails_on_its_partner(basics: CoqBasics) -> None:
    transferable: list[str] = []
    for task in basics.tasks():
        for partner in basics.lookalikes(task, random.Random(0)):
            if task.id < partner.id:
                one, _ = _check(basics, partner, basics.gold_action(task).content)
                two, _ = _check(basics, task, basics.gold_action(partner).content)
                if one and two:
                    transferable.append(f"{task.id} <-> {partner.id}")
    assert not transferable, "both proofs transfer: " + ", ".join(transferable)
