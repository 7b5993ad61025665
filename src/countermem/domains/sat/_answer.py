"""The agent's answer to a SATLIB instance: a full assignment, or a claim that none exists.

Format (documented to the agent in `SATLib.instructions`):

- `UNSAT` (also `UNSATISFIABLE`, `s UNSATISFIABLE`, any case) claims the formula has no model;
- otherwise one signed literal per variable, each variable 1..n exactly once: `3` sets x3 true,
  `-3` sets it false. Literals are separated by spaces, commas or newlines; lines may start
  with the solver-competition prefix `v`; a single `0` may end the list; an optional
  `s SATISFIABLE` line and `c` comment lines are ignored.

Anything else is refused with a reason, never guessed at: an agent that half-answers learns
more from "variable 7 has no value" than from a silent default.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from countermem.core import ParseError
from countermem.domains.sat._cnf import strip_fence

_UNSAT_WORDS = frozenset({"unsat", "unsatisfiable", "s unsatisfiable", "s unsat"})
_SAT_LINES = frozenset({"s satisfiable", "sat", "satisfiable", "s sat"})
_SEPARATORS = re.compile(r"[\s,;]+")
_MAX_LISTED = 10


@dataclass(frozen=True)
class UnsatClaim:
    """The agent says the formula is unsatisfiable."""


@dataclass(frozen=True)
class Assignment:
    """A complete truth assignment: `literals[i]` is `i+1` (true) or `-(i+1)` (false)."""

    literals: tuple[int, ...]

    @property
    def true_literals(self) -> frozenset[int]:
        return frozenset(self.literals)

    def to_text(self) -> str:
        return "v " + " ".join(str(lit) for lit in self.literals) + " 0"


SatAnswer = UnsatClaim | Assignment


def is_unsat_claim(text: str) -> bool:
    return " ".join(strip_fence(text).lower().split()) in _UNSAT_WORDS


def count_literal_tokens(text: str) -> int:
    """How many integer literals the text holds (0 excluded); for facts, never raises."""
    count = 0
    for token in _SEPARATORS.split(strip_fence(text)):
        if token.lstrip("+-").isdigit() and int(token) != 0:
            count += 1
    return count


def parse_answer(text: str, n_vars: int) -> SatAnswer:
    """Parse an answer for a formula over variables 1..`n_vars`; raise ParseError with the reason."""
    if is_unsat_claim(text):
        return UnsatClaim()
    tokens: list[str] = []
    for raw in strip_fence(text).splitlines():
        line = raw.strip()
        lowered = " ".join(line.lower().split())
        if not line or lowered in _SAT_LINES or lowered.startswith("c ") or lowered == "c":
            continue
        if lowered.startswith("v ") or lowered == "v":
            line = line[1:]
        tokens.extend(token for token in _SEPARATORS.split(line) if token)
    if not tokens:
        raise ParseError("the answer is empty: give one signed literal per variable, or UNSAT")
    literals: list[int] = []
    for position, token in enumerate(tokens):
        try:
            literal = int(token)
        except ValueError:
            raise ParseError(
                f"{token!r} is not a signed integer literal; write e.g. 'v 1 -2 3 0' or 'UNSAT'"
            ) from None
        if literal == 0:
            if position != len(tokens) - 1:
                raise ParseError("0 may only end the list of literals; remove the 0 in the middle")
            continue
        literals.append(literal)
    return Assignment(literals=_complete(literals, n_vars))


def _complete(literals: list[int], n_vars: int) -> tuple[int, ...]:
    out_of_range = sorted({abs(lit) for lit in literals if abs(lit) > n_vars})
    if out_of_range:
        raise ParseError(
            f"variables {_listed(out_of_range)} are out of range; this formula has variables 1..{n_vars}"
        )
    seen: dict[int, int] = {}
    duplicates: set[int] = set()
    contradictory: set[int] = set()
    for literal in literals:
        previous = seen.get(abs(literal))
        if previous is None:
            seen[abs(literal)] = literal
        elif previous == literal:
            duplicates.add(abs(literal))
        else:
            contradictory.add(abs(literal))
    if contradictory:
        raise ParseError(
            f"variables {_listed(sorted(contradictory))} are given both true and false; give each once"
        )
    if duplicates:
        raise ParseError(f"variables {_listed(sorted(duplicates))} are given more than once; give each once")
    missing = [var for var in range(1, n_vars + 1) if var not in seen]
    if missing:
        raise ParseError(
            f"{len(missing)} variables have no value ({_listed(missing)}); give every variable 1..{n_vars}"
        )
    return tuple(seen[var] for var in range(1, n_vars + 1))


def _listed(values: list[int]) -> str:
    shown = ", ".join(str(value) for value in values[:_MAX_LISTED])
    return shown + (f" and {len(values) - _MAX_LISTED} more" if len(values) > _MAX_LISTED else "")
