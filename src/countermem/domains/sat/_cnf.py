"""DIMACS CNF: one parser for benchmark files and agent-written formulas, one canonical writer.

The same parser serves both sides so that what an agent writes and what SATLIB ships obey the
same rules; only the SATLIB `%` trailer is accepted on request, because it is an artefact of
those files and not DIMACS. Every rejection is a `ParseError` whose message says what to fix,
so a world model can turn it into an error result the agent can act on.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property

from countermem.core import ParseError

MAX_CNF_CHARS = 1_000_000
"""Longest CNF text accepted; a longer one is refused rather than parsed."""
MAX_CNF_VARIABLES = 100_000
MAX_CNF_CLAUSES = 200_000

Clause = tuple[int, ...]


@dataclass(frozen=True)
class CNF:
    """A formula in conjunctive normal form; `declared_clauses` is the header's count, if any."""

    n_vars: int
    clauses: tuple[Clause, ...]
    declared_clauses: int | None = None

    @property
    def n_clauses(self) -> int:
        return len(self.clauses)

    @property
    def n_literals(self) -> int:
        return sum(len(clause) for clause in self.clauses)

    def to_dimacs(self) -> str:
        """Canonical text: header, then one clause per line; comments and trailers are dropped."""
        lines = [f"p cnf {self.n_vars} {self.n_clauses}"]
        lines.extend(" ".join(str(lit) for lit in clause) + " 0" for clause in self.clauses)
        return "\n".join(lines) + "\n"

    @cached_property
    def fingerprint(self) -> str:
        return hashlib.sha256(self.to_dimacs().encode("ascii")).hexdigest()

    def satisfied(self, true_literals: frozenset[int]) -> list[bool]:
        """Per clause, whether some literal of it is in `true_literals`."""
        return [any(lit in true_literals for lit in clause) for clause in self.clauses]


def strip_fence(text: str) -> str:
    """Drop one enclosing Markdown code fence, which agents often keep around their answer."""
    stripped = text.strip()
    if not stripped.startswith("```"):
        return stripped
    lines = stripped.splitlines()
    body = lines[1:]
    if body and body[-1].strip() == "```":
        body = body[:-1]
    return "\n".join(body).strip()


def parse_dimacs(text: str, *, allow_satlib_trailer: bool = False, require_header: bool = False) -> CNF:
    """Parse DIMACS CNF; clauses may span lines and must each end with `0`.

    A header is optional for agents (the variable count is then the largest variable used);
    when present, no clause may use a variable above its count. A clause count that differs
    from the header is kept in `declared_clauses` for the caller to mention, not refused,
    because miscounting clauses changes nothing about the formula.
    """
    if len(text) > MAX_CNF_CHARS:
        raise ParseError(f"the CNF has {len(text)} characters; at most {MAX_CNF_CHARS} are accepted")
    declared_vars: int | None = None
    declared_clauses: int | None = None
    clauses: list[Clause] = []
    current: list[int] = []
    max_var = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("c"):
            continue
        if line.startswith("%"):
            if allow_satlib_trailer:
                break
            raise ParseError(f"line {number}: '%' is not DIMACS; end the formula with its last clause")
        if line.startswith("p"):
            if declared_vars is not None:
                raise ParseError(f"line {number}: a second 'p cnf' header; give exactly one")
            if clauses or current:
                raise ParseError(f"line {number}: the 'p cnf' header must come before every clause")
            declared_vars, declared_clauses = _header(line, number)
            continue
        try:
            values = [int(token) for token in line.split()]
        except ValueError:
            bad = next(token for token in line.split() if not _is_int(token))
            raise ParseError(
                f"line {number}: {bad!r} is not an integer literal; clauses are signed integers "
                "ending in 0, comments start with 'c'"
            ) from None
        largest = max(map(abs, values))
        if declared_vars is not None and largest > declared_vars:
            raise ParseError(
                f"line {number}: variable {largest} exceeds the header's {declared_vars} variables; "
                "raise the count in 'p cnf' or renumber"
            )
        if largest > MAX_CNF_VARIABLES:
            raise ParseError(f"line {number}: variable {largest} is above the limit {MAX_CNF_VARIABLES}")
        max_var = max(max_var, largest)
        if values[-1] == 0 and values.count(0) == 1:
            current.extend(values[:-1])
            clauses.append(tuple(current))
            current = []
        else:
            for literal in values:
                if literal == 0:
                    clauses.append(tuple(current))
                    current = []
                else:
                    current.append(literal)
        if len(clauses) > MAX_CNF_CLAUSES:
            raise ParseError(f"more than {MAX_CNF_CLAUSES} clauses; at most that many are accepted")
    if current:
        raise ParseError("the last clause does not end with 0; terminate every clause with 0")
    if require_header and declared_vars is None:
        raise ParseError("no 'p cnf <variables> <clauses>' header")
    return CNF(
        n_vars=declared_vars if declared_vars is not None else max_var,
        clauses=tuple(clauses),
        declared_clauses=declared_clauses,
    )


def _is_int(token: str) -> bool:
    try:
        int(token)
    except ValueError:
        return False
    return True


def _header(line: str, number: int) -> tuple[int, int]:
    parts = line.split()
    if len(parts) != 4 or parts[0] != "p" or parts[1] != "cnf":
        raise ParseError(f"line {number}: the header must read 'p cnf <variables> <clauses>', got {line!r}")
    try:
        n_vars, n_clauses = int(parts[2]), int(parts[3])
    except ValueError:
        raise ParseError(f"line {number}: header counts must be integers, got {line!r}") from None
    if n_vars < 0 or n_clauses < 0:
        raise ParseError(f"line {number}: header counts must not be negative")
    if n_vars > MAX_CNF_VARIABLES:
        raise ParseError(f"line {number}: {n_vars} variables is above the limit {MAX_CNF_VARIABLES}")
    return n_vars, n_clauses
