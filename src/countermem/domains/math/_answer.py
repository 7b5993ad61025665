"""The answer contract of the math domain: where an action's final answer is, and what form it has.

An action is plain text: an optional short solution that ENDS with a final answer. The final
answer is the last of these markers in the text (by position):

- `\\boxed{...}` or `\\fbox{...}` (braces balanced, may nest), e.g. `$\\boxed{\\frac{1}{2}}$`;
- a line `Answer: ...` or `Final answer: ...` (case-insensitive; leading `*`, `#`, `>` or `-`
  from markdown is ignored), the rest of that line;
- a line `#### ...` (the GSM8K reference style);
- with none of these, an action that is nothing but one number (`255000`, `$1,200`, `-3.5`,
  `3/4`), which can mean nothing else: the 1.5B submitted bare numbers and was told it gave no
  answer (docs/results.md, the math instructions).

Everything after the last marker is ignored, so a model that states an answer and then
rambles is judged on the answer it stated last. Surrounding `$...$`, `\\(...\\)`, `\\[...\\]`,
markdown bold and a trailing full stop are removed. Extraction is plain string scanning (no
sympy), so it is safe to run on any text in the calling process; only the symbolic comparison
runs in the time-limited worker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

MAX_ANSWER_CHARS = 500
"""A longer 'final answer' is not an answer but a solution that lost its marker."""

MAX_NUMBER_DIGITS = 60

Marker = Literal["boxed", "answer_line", "hashes", "bare"]


@dataclass(frozen=True)
class FinalAnswer:
    text: str
    marker: Marker


_BOX = re.compile(r"\\(?:boxed|fbox)\s*\{")
_ANSWER_LINE = re.compile(r"(?im)^[ \t>*#_-]*(?:final[ \t]+answer|answer)[ \t*_]*[:：][ \t*_]*(.*)$")
_HASHES = re.compile(r"(?m)^[ \t]*####(.*)$")


def _balanced(text: str, open_at: int) -> int | None:
    """Index just after the brace that closes the one at `open_at`, or None if it never closes."""
    depth = 0
    index = open_at
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text):
            index += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return None


def _boxes(text: str) -> list[tuple[int, str, Marker]]:
    """Every closed box, in one pass over the text (nested or unclosed boxes cannot make it quadratic)."""
    opening = {match.end() - 1: match for match in _BOX.finditer(text)}
    if not opening:
        return []
    found: list[tuple[int, str, Marker]] = []
    stack: list[int] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == "{":
            stack.append(index)
        elif char == "}" and stack:
            start = stack.pop()
            match = opening.get(start)
            if match is not None:
                found.append((match.start(), text[match.end() : index], "boxed"))
        index += 1
    return found


def _candidates(text: str) -> list[tuple[int, str, Marker]]:
    found = _boxes(text)
    found.extend((m.start(), m.group(1), "answer_line") for m in _ANSWER_LINE.finditer(text))
    found.extend((m.start(), m.group(1), "hashes") for m in _HASHES.finditer(text))
    return found


_WRAPPERS = (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]"), ("**", "**"), ("`", "`"))


def clean_answer(text: str) -> str:
    """Strip the presentation around an answer (math delimiters, bold, a full stop)."""
    value = text.strip()
    changed = True
    while changed and value:
        changed = False
        for left, right in _WRAPPERS:
            if len(value) >= len(left) + len(right) and value.startswith(left) and value.endswith(right):
                value = value[len(left) : len(value) - len(right)].strip()
                changed = True
        stripped = value.rstrip(" .;")
        if stripped != value:
            value = stripped
            changed = True
    return value


def extract_final_answer(text: str) -> FinalAnswer | None:
    """The final answer by the contract above, or None when the text states none.

    A box inside an `Answer:` line starts after the line, so the box's content wins, which is
    what a reader of `Answer: $\\boxed{5}$` means.
    """
    candidates = _candidates(text)
    if not candidates:
        bare = clean_answer(text)
        if "\n" not in bare and plain_number(bare) is not None:
            return FinalAnswer(text=bare, marker="bare")
        return None
    _, raw, marker = max(candidates, key=lambda item: item[0])
    if len(raw.strip()) > MAX_ANSWER_CHARS:
        return FinalAnswer(text=raw.strip(), marker=marker)
    value = clean_answer(raw)
    inner = _BOX.match(value)
    if inner and marker != "boxed":
        end = _balanced(value, inner.end() - 1)
        if end == len(value):
            value = clean_answer(value[inner.end() : end - 1])
            marker = "boxed"
    if not value:
        return None
    return FinalAnswer(text=value, marker=marker)


_TEXT_WRAP = re.compile(r"\\(?:text|textbf|mbox|mathrm|textrm|operatorname)\s*\{([^{}]*)\}")
_SPACING = re.compile(r"\\[,!;: ]|~|\\quad|\\qquad")
_LEFT_RIGHT = re.compile(r"\\(?:left|right)\b\s*")
_DEGREES = re.compile(r"\^\s*\{?\s*\\circ\s*\}?|°")
_DOLLAR = re.compile(r"\\?\$")
_PERCENT = re.compile(r"\s*(?:\\?%|\s+percent)\s*$", re.IGNORECASE)
_NUMBER = re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?")
_FRAC = re.compile(r"\\[dt]?frac\s*\{\s*([+-]?\d+)\s*\}\s*\{\s*([+-]?\d+)\s*\}")
_SLASH = re.compile(r"([+-]?\d+)\s*/\s*([+-]?\d+)")
_WORD_UNITS = re.compile(r"\s+[A-Za-z][A-Za-z .'/-]{0,40}$")
_UNIT_TEXT = re.compile(r"\s*\\(?:text|mbox|mathrm|textrm)\s*\{\s*[A-Za-z][A-Za-z .'/^0-9-]{0,40}\}\s*$")


def _strip_presentation(text: str) -> str:
    value = text.replace("{,}", ",").replace("−", "-")
    value = _SPACING.sub("", value)
    value = _LEFT_RIGHT.sub("", value)
    value = _DEGREES.sub("", value)
    value = _DOLLAR.sub("", value)
    return value.strip()


def _parse_number(token: str) -> Fraction | None:
    token = token.strip()
    if not token or len(token) > MAX_NUMBER_DIGITS or not _NUMBER.fullmatch(token):
        return None
    digits = token.lstrip("+-").replace(",", "")
    if not digits or digits == ".":
        return None
    value = Fraction(digits)
    return -value if token.startswith("-") else value


def plain_number(text: str, word_units: bool = False) -> Fraction | None:
    """The exact value of an answer that is just a number, else None.

    A plain number is an integer, a decimal, `a/b` or `\\frac{a}{b}` with integer a, b, optionally
    signed, with thousands commas (`1,000`; groups of exactly three digits, no space), a dollar
    sign, a percent sign (`50%` counts as 50: the question's unit decides, as math-verify does),
    degrees, and trailing `\\text{units}`. With `word_units`, trailing plain words (`18 apples`)
    are units too; the math-500 benchmark keeps them off because `3 pi` or `2 k` are not units.
    """
    value = _strip_presentation(text)
    value = _UNIT_TEXT.sub("", value)
    value = _PERCENT.sub("", value)
    if word_units:
        value = _WORD_UNITS.sub("", value)
        value = _PERCENT.sub("", value)
    value = _DOLLAR.sub("", value).strip()
    if value.startswith("{") and value.endswith("}"):
        value = value[1:-1].strip()
    sign = 1
    if value.startswith("-") and (_FRAC.fullmatch(value[1:].strip()) or _SLASH.fullmatch(value[1:].strip())):
        sign, value = -1, value[1:].strip()
    for pattern in (_FRAC, _SLASH):
        match = pattern.fullmatch(value)
        if match:
            numerator, denominator = _parse_number(match.group(1)), _parse_number(match.group(2))
            if numerator is None or denominator is None or denominator == 0:
                return None
            return sign * numerator / denominator
    return _parse_number(value)


def plain_text(text: str) -> str | None:
    """Lower-case words of an answer that is words (a name, a direction, a choice), else None."""
    value = _TEXT_WRAP.sub(lambda m: m.group(1), _strip_presentation(text))
    value = value.strip().strip("()").strip()
    if not value or not re.fullmatch(r"[A-Za-z][A-Za-z '.-]*", value):
        return None
    return " ".join(value.lower().replace(".", " ").split())


def is_text_answer(latex: str) -> bool:
    """A reference answer that is only `\\text{...}` words, e.g. `\\text{Evelyn}` or `\\text{(C)}`."""
    return bool(re.fullmatch(r"\s*\\text\s*\{[^{}\d]*\}\s*", latex)) and plain_text(latex) is not None


AnswerForm = Literal[
    "integer", "decimal", "fraction", "radical", "expression", "equation", "interval", "tuple", "set",
    "matrix", "text",
]


def _top_level_commas(text: str) -> int:
    depth = 0
    commas = 0
    for char in text:
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            commas += 1
    return commas


def answer_form(text: str, word_units: bool = False) -> AnswerForm:
    """The kind of mathematical object an answer is, judged from its written form alone."""
    value = _strip_presentation(text)
    if re.search(r"\\begin\s*\{[pbvB]?matrix\}", value):
        return "matrix"
    number = plain_number(text, word_units)
    if number is not None:
        core = _PERCENT.sub("", _UNIT_TEXT.sub("", value))
        if "frac" in core or "/" in core:
            return "fraction"
        return "decimal" if "." in core else "integer"
    if is_text_answer(value) or (plain_text(value) is not None and re.search(r"[A-Za-z]{3}", value)):
        return "text"
    if "\\cup" in value or "\\infty" in value or "\\in " in value or value.startswith("[") or value.endswith("]"):
        return "interval"
    if re.search(r"(?<![<>!\\])=", value):
        return "equation"
    if value.startswith("\\{") or "\\pm" in value:
        return "set"
    inner_commas = _top_level_commas(value[1:-1]) if value[:1] == "(" and value[-1:] == ")" else 0
    if inner_commas:
        return "tuple"
    if _top_level_commas(value):
        return "set"
    letters = re.sub(r"\\[A-Za-z]+", "", value)
    if "\\sqrt" in value and not re.search(r"[A-Za-z]", letters):
        return "radical"
    return "expression"
