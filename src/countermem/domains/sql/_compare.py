"""Compare a candidate query's result with the gold result, and score near misses.

Rules (they decide what "the same answer" means, so they are spelled out here):

- Values are normalised before comparison: a float that is a whole number equals the int
  (1 == 1.0); other floats are rounded to `FLOAT_DIGITS` decimal places, so that `SUM(a*b)`
  and `SUM(a)*b`-style rewrites agree despite floating-point noise. Text is compared exactly
  (case and spaces matter, as SQLite's `=` does). NULL equals NULL.
- Rows are compared as a multiset, unless the gold query has a top-level ORDER BY, in which
  case the row order must match too.
- Column order does not matter ("name, age" answers "age and name?"), and column names never
  matter: a candidate passes if some permutation of its columns gives the gold rows. At most
  `MAX_PERMUTATIONS` permutations are tried, each consistent with per-column value multisets.
- An exact match scores 1.0 and passes. Anything else scores in [0, 0.9]:
  `0.9 * (0.25 * same_column_count + 0.75 * row_f1)`, where `row_f1` is the multiset F1 of
  normalised rows (under the best column permutation; 0 when column counts differ). Right rows
  in the wrong order score 0.9; an empty answer to a non-empty question scores at most 0.225.
  The partial score is a gradient for memory's "did the edit help" test, never a pass.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

FLOAT_DIGITS = 6
MAX_PERMUTATIONS = 720
PARTIAL_CEILING = 0.9

Value = object
Row = tuple[Value, ...]


@dataclass(frozen=True)
class Comparison:
    utility: float
    passed: bool
    details: str


def normalise_value(value: Value) -> Value:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if value.is_integer() and abs(value) < 2**53:
            return int(value)
        return round(value, FLOAT_DIGITS)
    if isinstance(value, memoryview):
        return bytes(value)
    return value


def normalise_rows(rows: Sequence[Sequence[Value]]) -> list[Row]:
    return [tuple(normalise_value(v) for v in row) for row in rows]


def has_top_level_order_by(sql: str) -> bool:
    """True when ORDER BY appears outside every parenthesis, string literal and comment."""
    depth = 0
    words: list[str] = []
    word: list[str] = []
    index = 0
    text = sql
    while index < len(text):
        char = text[index]
        if char in "'\"`[":
            closing = "]" if char == "[" else char
            end = text.find(closing, index + 1)
            while end != -1 and closing != "]" and text[end + 1 : end + 2] == closing:
                end = text.find(closing, end + 2)
            index = len(text) if end == -1 else end + 1
            word = _flush(word, words, depth)
            continue
        if text.startswith("--", index):
            end = text.find("\n", index)
            index = len(text) if end == -1 else end + 1
            word = _flush(word, words, depth)
            continue
        if text.startswith("/*", index):
            end = text.find("*/", index + 2)
            index = len(text) if end == -1 else end + 2
            word = _flush(word, words, depth)
            continue
        if char == "(":
            word = _flush(word, words, depth)
            depth += 1
        elif char == ")":
            word = _flush(word, words, depth)
            depth = max(0, depth - 1)
        elif char.isalnum() or char == "_":
            word.append(char)
        else:
            word = _flush(word, words, depth)
        index += 1
    _flush(word, words, depth)
    return any(a == "ORDER" and b == "BY" for a, b in itertools.pairwise(words))


def _flush(word: list[str], words: list[str], depth: int) -> list[str]:
    if word:
        words.append("".join(word).upper() if depth == 0 else "\0")
    return []


def compare_results(
    gold_rows: Sequence[Row],
    gold_width: int,
    rows: Sequence[Row],
    width: int,
    ordered: bool,
) -> Comparison:
    """Compare normalised rows; `width` is the column count (an empty result still has one)."""
    counts = f"{len(rows)} rows returned, {len(gold_rows)} expected"
    if width != gold_width:
        f1 = 1.0 if not (gold_rows or rows) else 0.0
        message = f"returned {width} columns, the question needs {gold_width}; {counts}"
        return Comparison(PARTIAL_CEILING * 0.75 * f1, False, message)
    gold_counter = Counter(gold_rows)
    best_f1 = 0.0
    wrong_order = False
    for permutation in _bijections(gold_rows, rows, width):
        permuted = [tuple(row[i] for i in permutation) for row in rows]
        if Counter(permuted) == gold_counter:
            if not ordered or permuted == list(gold_rows):
                return Comparison(1.0, True, f"result matches the gold result ({len(gold_rows)} rows)")
            wrong_order = True
            continue
        best_f1 = max(best_f1, _multiset_f1(gold_counter, Counter(permuted)))
    if wrong_order:
        message = "the right rows in the wrong order (the question asks for a specific order)"
        return Comparison(PARTIAL_CEILING, False, message)
    utility = PARTIAL_CEILING * (0.25 + 0.75 * best_f1)
    return Comparison(utility, False, f"wrong rows: row overlap F1 {best_f1:.2f}; {counts}")


def _multiset_f1(gold: Counter[Row], candidate: Counter[Row]) -> float:
    gold_size, size = sum(gold.values()), sum(candidate.values())
    if gold_size == 0 and size == 0:
        return 1.0
    common = sum((gold & candidate).values())
    if common == 0:
        return 0.0
    precision, recall = common / size, common / gold_size
    return 2 * precision * recall / (precision + recall)


def _bijections(gold_rows: Sequence[Row], rows: Sequence[Row], width: int) -> Iterator[tuple[int, ...]]:
    """Column permutations worth trying: identity first, then those mapping equal value multisets."""
    identity = tuple(range(width))
    yield identity
    if width <= 1:
        return
    gold_columns = [Counter(_sortable(row[j]) for row in gold_rows) for j in range(width)]
    columns = [Counter(_sortable(row[j]) for row in rows) for j in range(width)]
    options = [[i for i in range(width) if columns[i] == gold_columns[j]] for j in range(width)]
    produced = 0
    chosen: list[int] = []
    used: set[int] = set()

    def extend(position: int) -> Iterator[tuple[int, ...]]:
        if position == width:
            yield tuple(chosen)
            return
        for column in options[position]:
            if column not in used:
                chosen.append(column)
                used.add(column)
                yield from extend(position + 1)
                used.discard(column)
                chosen.pop()

    for permutation in extend(0):
        if permutation == identity:
            continue
        produced += 1
        if produced > MAX_PERMUTATIONS:
            return
        yield permutation


def _sortable(value: Value) -> tuple[str, str]:
    return (type(value).__name__, repr(value))
