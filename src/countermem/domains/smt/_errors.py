"""The kind of mistake a failed SMT check reports (`check_error`), read from its details: a
malformed encoding or strategy, an error z3 raised on the script, an unsatisfiable encoding,
broken rules, a bogus or wrong sat/unsat answer, a strategy that gave up, or the budget. A
checker's own failure (the process died, z3 failed for its own reasons) has no kind."""

from __future__ import annotations


def error_kind(status: str, details: str) -> str | None:
    if status == "passed":
        return None
    if status == "timeout":
        return "timeout"
    if details.startswith("malformed encoding"):
        return "malformed_encoding"
    if details.startswith("malformed strategy"):
        return "malformed_strategy"
    if details.startswith("checker failure") or details.startswith("the checking process died"):
        return None
    if details.startswith("the encoding is unsat"):
        return "unsat_encoding"
    if "rules hold. Broken:" in details:
        return "broken_rules"
    if details.startswith("BOGUS SAT"):
        return "bogus_sat"
    if details.startswith("WRONG ANSWER"):
        return "wrong_answer"
    if details.startswith("the strategy gave up"):
        return "gave_up"
    if status == "error":
        return "script_error"
    return status
