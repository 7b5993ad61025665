"""The paired test printed beside every memory-vs-none cell: exact McNemar and a paired bootstrap."""

from __future__ import annotations

import math

import pytest

from countermem.experiment import mcnemar_exact, paired_bootstrap_ci, paired_test
from countermem.experiment._significance import format_test


def test_mcnemar_matches_the_binomial_tail_by_hand() -> None:
    # 7 rescued, 1 broken: 2 * P(X <= 1), X ~ Binomial(8, 1/2) = 2 * 9/256
    assert mcnemar_exact(7, 1) == pytest.approx(18 / 256)
    assert mcnemar_exact(1, 7) == mcnemar_exact(7, 1)
    assert mcnemar_exact(10, 0) == pytest.approx(2 / 1024)
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(4, 4) == 1.0  # capped at 1, not 2 * P(X <= 4) > 1


def test_mcnemar_only_reads_discordant_tasks() -> None:
    many = paired_test(6, 0, 200)
    few = paired_test(6, 0, 6)
    assert many.p_value == few.p_value == pytest.approx(2 / 64)
    assert many.ci_high < few.ci_high  # the interval does shrink with more concordant tasks


def test_bootstrap_interval_contains_the_observed_difference_and_is_seeded() -> None:
    low, high = paired_bootstrap_ci(12, 3, 40)
    assert low < 100 * (12 - 3) / 40 < high
    assert low > 0  # 12 against 3 of 40 is clearly positive
    assert paired_bootstrap_ci(12, 3, 40) == (low, high)
    # close to the normal approximation of the paired difference (steps of 2.5 pp at n = 40)
    half = 1.96 * math.sqrt(15 - 9**2 / 40) / 40 * 100
    assert abs(low - (22.5 - half)) <= 2.5 and abs(high - (22.5 + half)) <= 2.5


def test_no_discordant_task_means_no_difference_and_no_evidence() -> None:
    test = paired_test(0, 0, 40)
    assert (test.ci_low, test.ci_high) == (0.0, 0.0)
    assert test.p_value == 1.0 and not test.significant


def test_significance_needs_both_the_test_and_the_interval() -> None:
    assert paired_test(12, 0, 40).significant
    assert not paired_test(3, 0, 40).significant  # p = 0.25
    assert not paired_test(5, 4, 40).significant


@pytest.mark.parametrize(("rescued", "broken", "n"), [(-1, 0, 5), (3, 3, 5), (0, 1, 0)])
def test_impossible_counts_are_refused(rescued: int, broken: int, n: int) -> None:
    with pytest.raises(ValueError, match="paired counts"):
        paired_bootstrap_ci(rescued, broken, n)


def test_report_cells() -> None:
    p, ci = format_test(paired_test(7, 1, 40))
    assert p == "0.070" and ci.startswith("[+") and ci.endswith("]")
    assert format_test(paired_test(0, 0, 10))[0] == "1"
    assert "e-" in format_test(paired_test(30, 0, 40))[0]
