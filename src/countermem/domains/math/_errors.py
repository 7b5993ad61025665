"""The kind of mistake a failed math check reports (`check_error`), read from its details.

Only what the check tells the agent is read, never the reference answer, so a kind is a fact the
agent could see: no final answer, an answer too long to be one, an answer that is no number, or a
wrong value. A checker's own failure (math-verify died) is no mistake of the answer and has no kind.
"""

from __future__ import annotations


def error_kind(status: str, details: str) -> str | None:
    if status == "passed":
        return None
    if status == "timeout":
        return "timeout"
    if details.startswith("no final answer found"):
        return "no_final_answer"
    if "characters long (limit" in details or "answer longer than" in details:
        return "answer_too_long"
    if "has no digits" in details:
        return "not_a_number"
    if "the reference is words" in details:
        return "not_words"
    if status == "error":
        return "unparsable_answer" if "[math-verify]" in details and "worker failed" not in details else None
    return "wrong_value"
