"""Is a paired difference in success more than luck? Exact McNemar test and a paired bootstrap.

Why these two: a memory run and its no-memory twin solve the same tasks, so only the discordant
tasks (rescued: solved only with memory; broken: solved only without) carry evidence. The exact
McNemar test asks whether rescued and broken could be a fair coin's split of the discordant
tasks; it needs no large-sample approximation, which matters at 6 to 40 tasks a cell. The paired
bootstrap resamples tasks (each one rescued, broken or concordant) and gives a percentile
interval for the success difference in percentage points. Both depend only on the counts, so
cells pooled over seeds are tested on their summed counts (each task-seed pair one pair).

Resampling n tasks with replacement from the three kinds is one multinomial draw of their
counts, so the bootstrap needs no per-task loop. It is seeded, so a report rewritten from the
same runs prints the same interval.
"""

from __future__ import annotations

import math

import numpy as np
from pydantic import BaseModel, ConfigDict

BOOTSTRAP_RESAMPLES = 10_000
CONFIDENCE = 0.95


class PairedTest(BaseModel):
    """The paired test of one cell; `p_value` is two-sided, the interval in percentage points."""

    model_config = ConfigDict(frozen=True)

    n_paired: int
    rescued: int
    broken: int
    p_value: float
    ci_low: float
    ci_high: float
    confidence: float = CONFIDENCE

    @property
    def significant(self) -> bool:
        """At the 5% level by McNemar, and the interval excludes no difference."""
        return self.p_value < 1.0 - self.confidence and (self.ci_low > 0.0 or self.ci_high < 0.0)


def _check_counts(rescued: int, broken: int, n_paired: int) -> None:
    if rescued < 0 or broken < 0 or rescued + broken > n_paired:
        raise ValueError(
            f"paired counts must satisfy 0 <= rescued + broken <= n_paired, got rescued={rescued}, "
            f"broken={broken}, n_paired={n_paired}"
        )


def mcnemar_exact(rescued: int, broken: int) -> float:
    """Two-sided exact McNemar p-value: P(a split at least this uneven) under Binomial(b + c, 1/2)."""
    _check_counts(rescued, broken, rescued + broken)
    discordant = rescued + broken
    if discordant == 0:
        return 1.0
    smaller = min(rescued, broken)
    tail = sum(math.comb(discordant, k) for k in range(smaller + 1)) / (1 << discordant)
    return min(1.0, 2.0 * tail)


def paired_bootstrap_ci(
    rescued: int,
    broken: int,
    n_paired: int,
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    confidence: float = CONFIDENCE,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile interval of the success difference (memory minus none, percentage points)."""
    _check_counts(rescued, broken, n_paired)
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")
    if resamples < 1:
        raise ValueError(f"resamples must be at least 1, got {resamples}")
    if n_paired == 0:
        return (0.0, 0.0)
    rng = np.random.default_rng(seed)
    concordant = n_paired - rescued - broken
    counts = rng.multinomial(n_paired, [rescued / n_paired, broken / n_paired, concordant / n_paired], resamples)
    deltas = np.sort(100.0 * (counts[:, 0] - counts[:, 1]) / n_paired)
    tail = (1.0 - confidence) / 2.0
    low = float(deltas[max(0, math.floor(tail * resamples))])
    high = float(deltas[min(resamples - 1, math.ceil((1.0 - tail) * resamples) - 1)])
    return (low, high)


def paired_test(rescued: int, broken: int, n_paired: int, *, seed: int = 0) -> PairedTest:
    low, high = paired_bootstrap_ci(rescued, broken, n_paired, seed=seed)
    return PairedTest(
        n_paired=n_paired, rescued=rescued, broken=broken, p_value=mcnemar_exact(rescued, broken),
        ci_low=low, ci_high=high,
    )


def format_test(test: PairedTest) -> tuple[str, str]:
    """The p-value and interval as report cells."""
    p = "1" if test.p_value >= 0.9995 else f"{test.p_value:.3f}" if test.p_value >= 0.001 else f"{test.p_value:.1e}"
    return p, f"[{test.ci_low:+.1f}, {test.ci_high:+.1f}]"
