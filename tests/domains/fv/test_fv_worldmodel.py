"""The Coq world model against the real coqc: conformance, refusals, time-outs, messages."""

from __future__ import annotations

import random

import pytest

from countermem.core import Action, ConfigError, Task
from countermem.domains import BenchmarkOptions, check_world_model, load_benchmark
from countermem.domains.fv import (
    CoqBasics,
    CoqcLimits,
    CoqProblem,
    CoqWorldModel,
    check_proof,
    run_coqc,
    run_coqc_sandboxed,
)
from required_tools import require_sandboxed_coqc

pytestmark = pytest.mark.usefixtures("coqc")


@pytest.fixture(scope="module")
def basics() -> CoqBasics:
    benchmark = load_benchmark("coq-basics")
    assert isinstance(benchmark, CoqBasics)
    require_sandboxed_coqc()
    availability = benchmark.availability()
    if not availability.available:
        pytest.skip(availability.reason)
    return benchmark


def basics_task(benchmark: CoqBasics, theorem: str) -> Task:
    return next(t for t in benchmark.tasks() if t.metadata["theorem"] == theorem)


def test_conformance_with_gold_and_wrong(basics: CoqBasics) -> None:
    task = basics_task(basics, "andb_true_right")
    world = basics.world_model()
    report = check_world_model(world, task, [basics.gold_action(task), basics.wrong_action(task)])
    gold, wrong = report.results
    assert gold.passed and gold.utility == 1.0 and gold.status == "passed"
    assert not wrong.passed and wrong.utility == 0.0 and wrong.completed


def test_state_is_the_task_and_its_fingerprint(basics: CoqBasics) -> None:
    one, two = basics_task(basics, "add_0_l"), basics_task(basics, "add_0_r")
    world = basics.world_model()
    first = world.reset(one)
    second = world.reset(two)
    assert first.task_id == one.id and first.fingerprint != second.fingerprint
    world.restore(first)
    assert world.snapshot().fingerprint == first.fingerprint
    with pytest.raises(ConfigError):
        CoqWorldModel(CoqcLimits(), run_coqc, sandboxed=False).check(Action(content="Proof. Qed."))


@pytest.mark.parametrize(
    "theorem", ["add_0_r", "double_injective", "lt_pow2", "my_rev_involutive", "evenb_S"]
)
def test_gold_proofs_check(basics: CoqBasics, theorem: str) -> None:
    task = basics_task(basics, theorem)
    world = basics.world_model()
    world.reset(task)
    result = world.check(basics.gold_action(task))
    assert result.passed, result.details
    assert result.cost.calls == 1 and result.cost.seconds > 0


def test_wrong_proof_fails_with_the_coqc_message(basics: CoqBasics) -> None:
    task = basics_task(basics, "add_0_r")
    world = basics.world_model()
    world.reset(task)
    result = world.check(basics.wrong_action(task))
    assert result.status == "wrong" and result.completed and not result.passed
    assert "proof line 3, at `reflexivity`" in result.details
    assert 'Unable to unify "n" with "n + 0"' in result.details
    assert "CM_" not in result.details


def test_syntax_error_is_an_error_status(basics: CoqBasics) -> None:
    task = basics_task(basics, "add_0_r")
    world = basics.world_model()
    world.reset(task)
    result = world.check(Action(content="Proof. intros n. induction n as [| n IH. Qed."))
    assert result.status == "error" and result.completed and not result.passed
    assert "Syntax error" in result.details


@pytest.mark.parametrize(
    "proof",
    [
        "Proof. intros. admit. Admitted.",
        "Proof.\nAdmitted.",
        "Proof. Axiom cheat : forall P : Prop, P. apply cheat. Qed.",
        "Proof. intros. Qed. Axiom x : False.",
    ],
)
def test_admit_and_axioms_are_rejected(basics: CoqBasics, proof: str) -> None:
    task = basics_task(basics, "add_0_r")
    world = basics.world_model()
    world.reset(task)
    result = world.check(Action(content=proof))
    assert result.status == "rejected" and result.utility == 0.0 and not result.passed


def test_changing_the_statement_is_rejected(basics: CoqBasics) -> None:
    task = basics_task(basics, "add_0_r")
    world = basics.world_model()
    world.reset(task)
    changed = "Theorem add_0_r : forall n : nat, 0 + n = n.\nProof. reflexivity. Qed."
    result = world.check(Action(content=changed))
    assert result.status == "rejected"
    assert "changes the theorem statement" in result.details


@pytest.mark.usefixtures("sandboxed_coqc")
def test_print_assumptions_refuses_axioms_the_text_screen_cannot_see() -> None:
    problem = CoqProblem(
        theorem="excluded_middle",
        preamble="Require Import Classical.\n",
        statement="Theorem excluded_middle : forall P : Prop, P \\/ ~ P.",
        policy="closed",
    )
    forged = 'Proof. idtac "Closed under the global context". intros P. apply classic. Qed.'
    refused = check_proof(problem, forged, CoqcLimits(timeout_s=20), run_coqc_sandboxed)
    assert refused.status == "rejected", refused.details
    assert "classic" in refused.details
    library = CoqProblem(**{**problem.__dict__, "policy": "library"})
    accepted = check_proof(library, forged, CoqcLimits(timeout_s=20), run_coqc_sandboxed)
    assert accepted.passed, accepted.details


@pytest.mark.parametrize("unsafe", [False, True])
def test_a_looping_tactic_is_stopped_by_the_time_out(basics: CoqBasics, unsafe: bool) -> None:
    task = basics_task(basics, "add_0_r")
    world = load_benchmark("coq-basics", BenchmarkOptions(timeout_s=2.0, unsafe_no_sandbox=unsafe)).world_model()
    assert world.sandboxed is not unsafe
    world.reset(task)
    result = world.check(Action(content="Proof. repeat (assert True by exact I). Qed."))
    assert result.status == "timeout" and not result.completed and not result.passed
    assert result.cost.seconds < 10


def test_the_rlimits_only_runner_gives_the_same_verdicts(basics: CoqBasics) -> None:
    task = basics_task(basics, "add_0_r")
    world = load_benchmark("coq-basics", BenchmarkOptions(unsafe_no_sandbox=True)).world_model()
    assert not world.sandboxed
    world.reset(task)
    assert world.check(basics.gold_action(task)).passed
    assert world.check(basics.wrong_action(task)).status == "wrong"


def test_lookalike_partner_proof_fails(basics: CoqBasics) -> None:
    task = basics_task(basics, "add_0_r")
    partners = basics.lookalikes(task, random.Random(0))
    assert [p.metadata["theorem"] for p in partners] == ["add_0_l"]
    world = basics.world_model()
    world.reset(task)
    result = world.check(basics.gold_action(partners[0]))
    assert not result.passed and result.status == "wrong"
