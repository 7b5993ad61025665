"""Textbook clause patterns used by the gold encoders (pairwise, no auxiliary variables).

The gold encodings are deliberately plain: they exist to prove each problem is encodable
under its numbering convention, not to be clever.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from countermem.domains.sat._cnf import Clause


def at_least_one(variables: Sequence[int]) -> list[Clause]:
    return [tuple(variables)]


def at_most_one(variables: Sequence[int]) -> list[Clause]:
    return [(-a, -b) for a, b in combinations(variables, 2)]


def exactly_one(variables: Sequence[int]) -> list[Clause]:
    return at_least_one(variables) + at_most_one(variables)


def at_most(variables: Sequence[int], limit: int) -> list[Clause]:
    """No `limit + 1` of `variables` true together: one clause per subset, fine for a handful."""
    if limit >= len(variables):
        return []
    return [tuple(-v for v in subset) for subset in combinations(variables, limit + 1)]


def equal(a: int, b: int) -> list[Clause]:
    return [(-a, b), (a, -b)]
