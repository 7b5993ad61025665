"""The action contract and the textual screen, without running coqc."""

from __future__ import annotations

import pytest

from countermem.core import Action
from countermem.domains.fv import ProofScript, Refusal, parse_proof
from countermem.domains.fv._check import _assumptions_verdict, _Layout
from countermem.domains.fv._facts import _header_binders, action_facts, imports_of
from countermem.domains.fv._problem import CoqProblem
from countermem.domains.fv._script import blank_comments_and_strings, split_sentences

STATEMENT = "Theorem add_0_r : forall n : nat, n + 0 = n."
PREAMBLE = "Require Import Arith Lia.\n"


def parse(text: str) -> ProofScript | Refusal:
    return parse_proof(text, STATEMENT, PREAMBLE)


def test_plain_proof_is_accepted_unchanged() -> None:
    proof = "Proof.\n  induction n; simpl; auto.\nQed."
    parsed = parse(proof)
    assert isinstance(parsed, ProofScript)
    assert parsed.text == proof
    assert parsed.notes == ()


def test_missing_proof_and_qed_are_added_and_noted() -> None:
    parsed = parse("intros n. lia.")
    assert isinstance(parsed, ProofScript)
    assert parsed.text.startswith("Proof.\n") and parsed.text.endswith("\nQed.")
    assert len(parsed.notes) == 2


def test_code_fence_is_stripped() -> None:
    parsed = parse("```coq\nProof.\n  lia.\nQed.\n```")
    assert isinstance(parsed, ProofScript)
    assert parsed.text == "Proof.\n  lia.\nQed."


@pytest.mark.parametrize(
    "proof",
    [
        "Proof. intros. admit. Qed.",
        "Proof. admit. Admitted.",
        "Proof.\nAdmitted.",
        "Proof. Axiom cheat : forall P : Prop, P. apply cheat. Qed.",
        "Proof. Parameter p : nat. Qed.",
        "Proof. Hypothesis h : False. Qed.",
        "Proof. Variable v : False. Qed.",
        "Proof. intros. Qed. Lemma x : False. Admitted.",
        "Proof. Abort.",
        "Proof. Require Import Reals. lia. Qed.",
        "Proof. Unset Guard Checking. lia. Qed.",
        "Proof. Load \"/etc/x\". Qed.",
        "Proof. Redirect \"out\" Print nat. lia. Qed.",
        "#[bypass_check(guard)] Proof. lia. Qed.",
    ],
)
def test_cheats_and_escapes_are_refused(proof: str) -> None:
    parsed = parse(proof)
    assert isinstance(parsed, Refusal), proof
    assert not parsed.syntax
    assert parsed.reason.startswith("refused")


def test_cheat_words_in_comments_and_strings_are_ignored() -> None:
    parsed = parse('Proof. (* no admit here, no Admitted *) idtac "Axiom". lia. Qed.')
    assert isinstance(parsed, ProofScript)


def test_unclosed_comment_is_a_syntax_error_not_a_cheat() -> None:
    parsed = parse("Proof. lia. (* unclosed Qed.")
    assert isinstance(parsed, Refusal)
    assert parsed.syntax


def test_restated_theorem_must_match_exactly() -> None:
    same = parse("Lemma add_0_r :\n  forall n : nat,\n  n + 0 = n.\nProof. lia. Qed.")
    assert isinstance(same, ProofScript)
    assert same.text == "Proof. lia. Qed."
    changed = parse("Theorem add_0_r : forall n : nat, n + 0 = n + 0.\nProof. reflexivity. Qed.")
    assert isinstance(changed, Refusal)
    assert "changes the theorem statement" in changed.reason
    renamed = parse("Theorem easy : forall n : nat, n + 0 = n.\nProof. lia. Qed.")
    assert isinstance(renamed, Refusal)


def test_context_lines_before_the_theorem_must_come_from_the_task() -> None:
    echoed = parse(f"{PREAMBLE}{STATEMENT}\nProof. lia. Qed.")
    assert isinstance(echoed, ProofScript)
    extra = parse(f"Require Import Classical.\n{STATEMENT}\nProof. lia. Qed.")
    assert isinstance(extra, Refusal)


def test_sentences_ignore_qualified_names_and_bullets() -> None:
    blanked, error = blank_comments_and_strings("Proof.\n  - rewrite Nat.add_0_r.\n  + { reflexivity. }\nQed.")
    assert error is None
    texts = [s.text for s in split_sentences(blanked)]
    assert texts == ["Proof", "rewrite Nat.add_0_r", "reflexivity", "Qed"]
    assert [s.line for s in split_sentences(blanked)] == [1, 2, 3, 4]


def test_action_facts_name_the_tactics() -> None:
    facts = action_facts(Action(content="Proof. induction n; simpl; [reflexivity | rewrite IHn; lia]. Qed."))
    assert facts["tactic_induction"] is True
    assert facts["tactic_lia"] is True
    assert facts["tactic_nia"] is False
    assert facts["tactics"] == ("induction", "lia", "reflexivity", "rewrite", "simpl")


def test_imports_use_the_last_name_component() -> None:
    assert imports_of("Require Import Coq.Reals.Reals.\nFrom Coq Require Import Lia List.\n") == (
        "Lia",
        "List",
        "Reals",
    )


def _layout() -> _Layout:
    return _Layout(source="", module="CM_ab12", marker="CM_ab12_end", proof_first_line=1, proof_last_line=1)


def _stdout(report: str) -> str:
    return 'idtac output\nCM_ab12_end = True\n     : Prop\n' + report


def test_assumption_report_rules() -> None:
    closed = CoqProblem(theorem="t", preamble="", statement="Theorem t : True.", policy="closed")
    library = CoqProblem(
        theorem="t", preamble="Parameter Rfloor : nat -> nat.\n", statement="Theorem t : True.", policy="library"
    )
    layout = _layout()
    assert _assumptions_verdict(closed, layout, _stdout("Closed under the global context\n")) is None
    classic = _stdout("Axioms:\nclassic : forall P : Prop, P \\/ ~ P\n")
    assert _assumptions_verdict(library, layout, classic) is None
    assert _assumptions_verdict(closed, layout, classic) is not None
    assert _assumptions_verdict(library, layout, _stdout("Axioms:\nRfloor : nat -> nat\n")) is None
    local = _stdout("Axioms:\nCM_ab12.helper : 1 = 2\n")
    verdict = _assumptions_verdict(library, layout, local)
    assert verdict is not None and "helper" in verdict and "CM_ab12" not in verdict
    guard = _stdout("Axioms:\nCM_ab12.t is assumed to be guarded.\n")
    assert _assumptions_verdict(library, layout, guard) is not None
    forged = "Closed under the global context\n"
    assert _assumptions_verdict(closed, layout, forged) is not None


def test_restated_theorem_without_proof_keyword_keeps_its_tactics() -> None:
    parsed = parse(f"{STATEMENT}\n  intros n. lia.\nQed.")
    assert isinstance(parsed, ProofScript)
    assert parsed.text == "Proof.\nintros n. lia.\nQed."


def test_header_binders_are_counted_at_top_level() -> None:
    assert _header_binders("Theorem t (a b : R) (h : (a > b)) : a <> b.") == 2
    assert _header_binders("Theorem t : forall (x : R), x = x.") == 0
