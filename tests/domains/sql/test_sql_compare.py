"""What counts as the same answer: normalisation, ordering rule, column permutation, partial scores."""

from __future__ import annotations

import pytest

from countermem.domains.sql import PARTIAL_CEILING, compare_results, has_top_level_order_by, normalise_rows


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT a FROM t ORDER BY a", True),
        ("select a from t order  by a desc limit 1", True),
        ("SELECT a FROM (SELECT a FROM t ORDER BY a LIMIT 3)", False),
        ("SELECT a FROM t WHERE b IN (SELECT b FROM u ORDER BY b LIMIT 1)", False),
        ("SELECT 'order by' FROM t", False),
        ('SELECT "order by" FROM t -- order by a', False),
        ("SELECT a FROM t UNION SELECT b FROM u ORDER BY 1", True),
    ],
)
def test_only_a_top_level_order_by_counts(sql: str, expected: bool) -> None:
    assert has_top_level_order_by(sql) is expected


def test_int_and_float_and_float_noise_are_equal() -> None:
    gold = normalise_rows([(1, 0.1 + 0.2, 2.5)])
    assert gold == normalise_rows([(1.0, 0.3, 2.5)])
    assert compare_results(gold, 3, normalise_rows([(1.0, 0.3, 2.5)]), 3, ordered=False).passed
    assert not compare_results(gold, 3, normalise_rows([(1.0, 0.31, 2.5)]), 3, ordered=False).passed


def test_text_is_compared_exactly() -> None:
    gold = normalise_rows([("France",)])
    assert not compare_results(gold, 1, normalise_rows([("france",)]), 1, ordered=False).passed


def test_order_matters_only_when_the_gold_orders() -> None:
    gold = normalise_rows([(1, "a"), (2, "b")])
    swapped = normalise_rows([(2, "b"), (1, "a")])
    assert compare_results(gold, 2, swapped, 2, ordered=False).passed
    result = compare_results(gold, 2, swapped, 2, ordered=True)
    assert not result.passed
    assert result.utility == pytest.approx(PARTIAL_CEILING)
    assert "order" in result.details


def test_column_order_does_not_matter() -> None:
    gold = normalise_rows([(1, "a"), (2, "b")])
    assert compare_results(gold, 2, normalise_rows([("a", 1), ("b", 2)]), 2, ordered=True).passed


def test_duplicates_matter() -> None:
    gold = normalise_rows([("a",), ("a",)])
    assert not compare_results(gold, 1, normalise_rows([("a",)]), 1, ordered=False).passed


def test_partial_scores_stay_below_one_and_rank_near_misses_higher() -> None:
    gold = normalise_rows([(i,) for i in range(10)])
    close = compare_results(gold, 1, normalise_rows([(i,) for i in range(9)]), 1, ordered=False)
    far = compare_results(gold, 1, normalise_rows([(99,)]), 1, ordered=False)
    wrong_width = compare_results(gold, 1, normalise_rows([(i, i) for i in range(10)]), 2, ordered=False)
    assert not close.passed and not far.passed and not wrong_width.passed
    assert 0.0 <= wrong_width.utility < far.utility < close.utility < 1.0
    assert "columns" in wrong_width.details


def test_two_empty_results_of_the_same_width_match() -> None:
    assert compare_results([], 2, [], 2, ordered=False).passed
    assert not compare_results([], 2, [], 1, ordered=False).passed
