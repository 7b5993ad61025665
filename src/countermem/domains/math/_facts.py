"""Observable facts of a math decision, for applicability conditions.

Facts are lexical (regular expressions over the problem text), so a condition such as
"has_percent and mentions_remaining" is cheap and deterministic. They are heuristics: numbers
written as words ("three") are not counted, and `has_fraction` sees `3/4`, `\\frac`, "half",
"quarter" and "two-thirds" but not "a third" (too often an ordinal).

No fact is derived from the reference answer: a condition must test only what the agent can
observe at the decision (an earlier version exposed the gold's answer form, which leaked
held-out information into retrieval).
"""

from __future__ import annotations

import re

from countermem.core import Action, Facts, FactValue, Task
from countermem.domains.math._answer import MAX_ANSWER_CHARS, answer_form, extract_final_answer

KEYWORDS = ("total", "each", "remaining", "ratio", "probability")
_KEYWORD_PATTERNS = {
    "total": re.compile(r"\b(?:total|altogether|in all|combined|sum)\b", re.IGNORECASE),
    "each": re.compile(r"\b(?:each|every|per)\b", re.IGNORECASE),
    "remaining": re.compile(r"\b(?:remain(?:s|ing|der)?|left(?:over)?|rest)\b", re.IGNORECASE),
    "ratio": re.compile(r"\b(?:ratios?|proportion(?:al)?|rates?)\b|\d+\s*:\s*\d+", re.IGNORECASE),
    "probability": re.compile(r"\b(?:probability|chance|odds|likely|random(?:ly)?)\b", re.IGNORECASE),
}
_NUMBER = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d])|(?<![\w.])\d+(?:\.\d+)?|(?<![\w\d])\.\d+")
_PERCENT = re.compile(r"%|\bpercent(?:age)?\b", re.IGNORECASE)
_FRACTION = re.compile(
    r"\d+\s*/\s*\d+|\\[dt]?frac|\b(?:half|halves|quarters?)\b|\b(?:one|two)[- ]thirds?\b", re.IGNORECASE
)
_MONEY_WORDS = r"\b(?:dollars?|cents?|euros?|pounds?|price|cost|costs|paid|pay|earns?)\b"
_MONEY = re.compile(r"\$|" + _MONEY_WORDS, re.IGNORECASE)
_LATEX_MONEY = re.compile(r"\\\$|" + _MONEY_WORDS, re.IGNORECASE)
"""In LaTeX problems a bare `$` delimits mathematics; only `\\$` is a dollar sign."""
MAX_NUMBERS = 20


def problem_numbers(text: str) -> list[str]:
    """Numbers written with digits, in order of appearance, commas removed."""
    return [m.group(0).replace(",", "") for m in _NUMBER.finditer(text)]


def problem_facts(question: str, latex: bool = False) -> dict[str, FactValue]:
    numbers = problem_numbers(question)
    keywords = tuple(word for word in KEYWORDS if _KEYWORD_PATTERNS[word].search(question))
    values: dict[str, FactValue] = {
        "numbers": tuple(numbers[:MAX_NUMBERS]),
        "n_numbers": len(numbers),
        "has_percent": bool(_PERCENT.search(question)),
        "has_fraction": bool(_FRACTION.search(question)),
        "has_money": bool((_LATEX_MONEY if latex else _MONEY).search(question)),
        "keywords": keywords,
        "question_chars": len(question),
    }
    for word in KEYWORDS:
        values[f"mentions_{word}"] = word in keywords
    return values


def action_facts(action: Action, word_units: bool) -> dict[str, FactValue]:
    final = extract_final_answer(action.content)
    if final is None or len(final.text) > MAX_ANSWER_CHARS:
        return {"has_final_answer": False, "answer_marker": "none", "answer_form": "none"}
    return {
        "has_final_answer": True,
        "answer_marker": final.marker,
        "answer_form": answer_form(final.text, word_units),
    }


def math_facts(task: Task, action: Action | None, question: str, word_units: bool, latex: bool) -> Facts:
    values = problem_facts(question, latex)
    values["benchmark"] = task.benchmark
    subject = task.metadata.get("subject")
    if isinstance(subject, str):
        values["subject"] = subject
    level = task.metadata.get("level")
    if isinstance(level, int):
        values["level"] = level
    if action is not None:
        values.update(action_facts(action, word_units))
    return Facts(values=values)
