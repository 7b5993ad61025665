"""The kind of mistake a failed SAT check reports (`check_error`), read from its details: a
malformed answer or CNF, an UNSAT claim for a satisfiable formula, violated clauses, an encoding
that over-constrains (unsatisfiable) or under-constrains (its model breaks the problem's
constraints). Clause numbers and variables stay out: they belong to one formula."""

from __future__ import annotations


def error_kind(status: str, details: str) -> str | None:
    if status == "passed":
        return None
    if status == "timeout":
        return "timeout"
    if details.startswith("malformed answer"):
        return "malformed_answer"
    if details.startswith("malformed CNF"):
        return "malformed_cnf"
    if "the formula is satisfiable" in details or "every sat-encode problem has a solution" in details:
        return "false_unsat_claim"
    if "your CNF is unsatisfiable" in details:
        return "over_constrained"
    if "constraints hold; violated" in details:
        return "under_constrained"
    if "clauses satisfied" in details:
        return "violated_clauses"
    return status
