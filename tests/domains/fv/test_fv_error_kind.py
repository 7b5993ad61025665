"""A failed proof's error kind (`check_error`), read from the real coqc's message: one kind per kind
of mistake, none of the proof's names."""

from __future__ import annotations

import pytest

from countermem.core import Action
from countermem.domains import load_benchmark
from countermem.domains.fv import CoqBasics
from countermem.domains.fv._errors import error_kind
from required_tools import require_sandboxed_coqc

pytestmark = pytest.mark.usefixtures("coqc")

PROOFS = {
    "Proof. reflexivity. Qed.": "unification_failed",
    "Proof. intros n. apply foo_bar. Qed.": "unknown_reference",
    "Proof. intros n. induction n. Qed.": "incomplete_proof",
    "Proof. intros n. rewrite Nat.add_comm with (n:=1) (m:=2). Qed.": "rewrite_no_match",
    "Proof. intros n. exact I. Qed.": "type_mismatch",
    "Proof. intros n. induction n as [|n IH]. - reflexivity. - - simpl. Qed.": "goal_structure",
    "Proof. intros n. simpl (. Qed.": "syntax_error",
    "Proof. intros n. exfalso. lia. Qed.": "tactic_failed",
    "Proof. admit. Admitted.": "refused",
    "": "malformed_proof",
}


def test_each_kind_of_failed_proof_gets_its_kind_from_coqc() -> None:
    basics = load_benchmark("coq-basics")
    assert isinstance(basics, CoqBasics)
    require_sandboxed_coqc()
    if not basics.availability().available:
        pytest.skip(basics.availability().reason)
    task = next(t for t in basics.tasks() if t.metadata["theorem"] == "add_0_r")
    world = basics.world_model()
    world.reset(task)
    kinds = {proof: basics.error_kind(world.check(Action(content=proof))) for proof in PROOFS}
    assert kinds == PROOFS
    assert basics.error_kind(world.check(basics.gold_action(task))) is None
    assert "foo_bar" not in {k for k in kinds.values() if k}, "a kind names no name of the proof"


def test_checker_failures_and_axioms_read_from_the_details() -> None:
    assert error_kind("rejected", "refused by `Print Assumptions`: the proof rests on ax (an axiom; ...)") == "uses_axiom"
    assert error_kind("error", "coqc could not be started: no bwrap") is None, "the checker's fault is no mistake"
    assert error_kind("error", "the task itself does not compile (line 3 ...): Error: x") is None
    assert error_kind("timeout", "coqc did not finish within 10 s") == "timeout"
    assert error_kind("wrong", "coqc rejected the proof at proof line 2, at `x`:\nError: Something new.") == "coq_error"
