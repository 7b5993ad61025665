"""Observable facts of a Coq decision, for applicability conditions.

They are read off the text with regular expressions, not from Coq's elaborated terms, so they
are cheap and deterministic but approximate: `uses_real` is true when the statement or its
context mentions `R`, `R_scope`, `INR`, `sqrt`... A numeral with no type and no opened scope is
a `nat` in Coq, so a statement that names no number type counts as `uses_nat`.

Statement facts: `quantifiers` (number of `forall`/`exists`), `binders` (parenthesised groups
before the theorem's colon), `implications`, `has_exists`, `uses_nat`, `uses_int`, `uses_real`,
`uses_rational`, `uses_list`, `uses_bool`, `has_inequality`, `has_division`, `has_modulo`,
`has_power`, `context_definitions` (Definition/Fixpoint in the fixed context), `imports`
(library names), `environment`. Action facts (when an action is given): `tactics` (known tactic
names used), `tactic_<name>` for induction, destruct, lia, nia, lra, ring, field, simpl,
rewrite, reflexivity, auto, apply; `proof_sentences`.
"""

from __future__ import annotations

import re

from countermem.core import Action, Facts, FactValue
from countermem.domains.fv._problem import CoqProblem
from countermem.domains.fv._script import (
    blank_comments_and_strings,
    split_sentences,
    strip_code_fence,
    tactics_used,
)

_REQUIRE = re.compile(
    r"^\s*(?:From\s+(\S+)\s+)?Require\s+(?:Import\s+|Export\s+)?([^.]*(?:\.[A-Za-z_][\w]*)*)\s*\.",
    re.M,
)
_FLAG_TACTICS = (
    "induction", "destruct", "lia", "nia", "lra", "ring", "field", "simpl", "rewrite", "reflexivity",
    "auto", "apply",
)


def imports_of(preamble: str) -> tuple[str, ...]:
    """Library names the context requires, by their last component (`Coq.Arith.Arith` -> `Arith`)."""
    blanked, _ = blank_comments_and_strings(preamble)
    libraries: set[str] = set()
    for match in _REQUIRE.finditer(blanked):
        for library in match.group(2).split():
            libraries.add(library.split(".")[-1])
    return tuple(sorted(libraries))


def _has(pattern: str, text: str) -> bool:
    return re.search(pattern, text) is not None


def _header_binders(statement: str) -> int:
    """Parenthesised binder groups between the theorem's name and its main colon."""
    groups = depth = 0
    for char in statement:
        if char == "(":
            if depth == 0:
                groups += 1
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == ":" and depth == 0:
            break
    return groups


def statement_facts(problem: CoqProblem, environment: str | None) -> dict[str, FactValue]:
    statement = " ".join(blank_comments_and_strings(problem.statement)[0].split())
    context = " ".join(blank_comments_and_strings(problem.preamble)[0].split())
    both = f"{context} {statement}"
    arrows_removed = re.sub(r"<->|->|<-|=>", " ", statement)
    uses_real = _has(r"(?<![\w'.])(R|INR|IZR|Rabs|sqrt|Rpower|ln|exp|cos|sin|tan|PI|Rdiv|Rmult)(?![\w'])"
                     r"|R_scope|%R\b", both)
    uses_int = _has(r"(?<![\w'.])Z(?![\w'])|Z_scope|%Z\b|(?<![\w'])Z\.", both)
    uses_rational = _has(r"(?<![\w'.])Q(?![\w'])|Q_scope|%Q\b|==", both)
    names_nat = _has(r"(?<![\w'.])(nat|S|O|fact|Nat)(?![\w'])|%nat\b|Nat\.", statement)
    return {
        "quantifiers": len(re.findall(r"(?<![\w'])(forall|exists)(?![\w'])|[∀∃]", statement)),
        "binders": _header_binders(statement),
        "implications": len(re.findall(r"->", statement)),
        "has_exists": _has(r"(?<![\w'])exists(?![\w'])|∃", statement),
        "uses_nat": names_nat or not (uses_real or uses_int or uses_rational),
        "uses_int": uses_int,
        "uses_real": uses_real,
        "uses_rational": uses_rational,
        "uses_list": _has(r"(?<![\w'.])(list|List|In|length|map|rev|seq|app|fold_left|fold_right|nil)"
                          r"(?![\w'])|::|\+\+|\[\s*\]", statement),
        "uses_bool": _has(r"(?<![\w'.])(bool|true|false|negb|andb|orb|xorb|eqb|leb|ltb)(?![\w'])"
                          r"|&&|\|\||=\?|<=\?|<\?", statement),
        "has_inequality": _has(r"<=|>=|<>|<|>|≤|≥|≠", arrows_removed),
        "has_division": _has(r"(?<![/\\])/(?![\\/])|(?<![\w'])(div|Rdiv|Qdiv)(?![\w'])|\.div\b", statement),
        "has_modulo": _has(r"(?<![\w'])(mod|modulo|rem)(?![\w'])", statement),
        "has_power": _has(r"\^|(?<![\w'])(pow|Rpower|Z\.pow|Nat\.pow)(?![\w'])", statement),
        "context_definitions": len(re.findall(r"(?<![\w'.])(Definition|Fixpoint)(?![\w'])", context)),
        "imports": imports_of(problem.preamble),
        "environment": environment or "",
    }


def action_facts(action: Action) -> dict[str, FactValue]:
    blanked, _ = blank_comments_and_strings(strip_code_fence(action.content))
    tactics = tactics_used(blanked)
    facts: dict[str, FactValue] = {"tactics": tactics, "proof_sentences": len(split_sentences(blanked))}
    for name in _FLAG_TACTICS:
        facts[f"tactic_{name}"] = name in tactics
    return facts


def coq_facts(problem: CoqProblem, environment: str | None, action: Action | None) -> Facts:
    values = statement_facts(problem, environment)
    if action is not None:
        values.update(action_facts(action))
    return Facts(values=values)
