"""The kind of mistake a failed proof check reports (`check_error`), read from coqc's message in
the details: a syntax error, an unknown name, a failed unification or type, a tactic that failed,
a rewrite with nothing to match, open goals at `Qed.`, a bullet or goal out of place, a refused
proof (admit, Axiom) or the time limit. The names in coqc's message stay out. A checker's own
failure (coqc could not start, the task itself does not compile, out of memory) has no kind."""

from __future__ import annotations

import re

_KINDS: tuple[tuple[str, str], ...] = (
    (r"Syntax error|Lexer error", "syntax_error"),
    (r"The reference .* was not found|was not found in the current environment", "unknown_reference"),
    (r"No such hypothesis|not a (?:hypothesis|variable)", "unknown_hypothesis"),
    (r"Attempt to save an incomplete proof", "incomplete_proof"),
    (r"No such goal|No more goals|Wrong bullet|Expected a single focused goal", "goal_structure"),
    (r"Found no subterm matching|Nothing to rewrite|nothing to rewrite", "rewrite_no_match"),
    (r"Unable to unify|Impossible to unify", "unification_failed"),
    (r"has type .* while it is expected to have type|expected to have type", "type_mismatch"),
    (r"Cannot find witness|Tactic failure|Omega can't solve|No applicable tactic|Cannot solve", "tactic_failed"),
    (r"Not an inductive|not an inductive|Cannot recognize|Unable to find an instance", "tactic_misapplied"),
)


def error_kind(status: str, details: str) -> str | None:
    if status == "passed":
        return None
    if status == "timeout":
        return "timeout"
    if status == "rejected":
        return "uses_axiom" if details.startswith("refused by `Print Assumptions`") else "refused"
    if details.startswith("coqc rejected the proof"):
        message = details.split("\n", 1)[1] if "\n" in details else details
        for pattern, kind in _KINDS:
            if re.search(pattern, message, re.DOTALL):
                return kind
        return "coq_error"
    if status == "error" and (details.startswith("malformed proof") or details.startswith("the action")):
        return "malformed_proof"
    return None
