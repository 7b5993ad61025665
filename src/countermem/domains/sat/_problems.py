"""Small combinatorial problems an agent must encode as CNF, each with its own judge.

Every problem fixes a variable-numbering convention (stated in its text), so that any model of
the agent's CNF can be decoded without trusting the agent. The judge is a list of named
constraints over the decoded variables, written directly from the rules (not from the gold
encoding), so the gold CNF passing is a real test of both. Variables above `n_vars` are the
agent's auxiliaries and are ignored by the judge; problem variables the CNF never mentions
count as false.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import ClassVar

from countermem.core import FactValue
from countermem.domains.sat._clauses import at_most, at_most_one, equal, exactly_one
from countermem.domains.sat._cnf import CNF, Clause

TrueVars = frozenset[int]
Pair = tuple[int, int]


@dataclass(frozen=True)
class Constraint:
    description: str
    holds: Callable[[TrueVars], bool]


def _count(true_vars: TrueVars, variables: Iterable[int]) -> int:
    return sum(1 for v in variables if v in true_vars)


def _exactly_one(description: str, variables: list[int]) -> Constraint:
    return Constraint(description, lambda t: _count(t, variables) == 1)


def _at_most(description: str, variables: list[int], limit: int) -> Constraint:
    return Constraint(description, lambda t: _count(t, variables) <= limit)


def _is_true(description: str, variable: int) -> Constraint:
    return Constraint(description, lambda t: variable in t)


def _is_false(description: str, variable: int) -> Constraint:
    return Constraint(description, lambda t: variable not in t)


def _never_together(description: str, pairs: list[Pair]) -> Constraint:
    return Constraint(description, lambda t: not any(a in t and b in t for a, b in pairs))


def _same_values(description: str, pairs: list[Pair]) -> Constraint:
    return Constraint(description, lambda t: all((a in t) == (b in t) for a, b in pairs))


def _none_twice(description: str, groups: list[list[int]]) -> Constraint:
    return Constraint(description, lambda t: all(_count(t, group) <= 1 for group in groups))


def _bullets(lines: Iterable[str]) -> str:
    return "\n".join(f"- {line}" for line in lines)


def _names(names: tuple[str, ...]) -> str:
    return ", ".join(f"{i}={name}" for i, name in enumerate(names))


class EncodeProblem(ABC):
    """A satisfiable problem with a numbering convention, a judge and a gold encoder."""

    kind: ClassVar[str]
    pid: str
    title: str

    @property
    @abstractmethod
    def n_vars(self) -> int:
        """Problem variables are 1..n_vars; higher numbers are free auxiliaries."""

    @abstractmethod
    def rules(self) -> str:
        """The problem in words: what must hold of a solution."""

    @abstractmethod
    def convention(self) -> str:
        """How variables 1..n_vars map to the problem, with a worked example."""

    @abstractmethod
    def constraints(self) -> list[Constraint]: ...

    @abstractmethod
    def gold_clauses(self) -> list[Clause]: ...

    @abstractmethod
    def decode(self, true_vars: TrueVars) -> str:
        """The decoded solution as a person would write it, to show the agent what its CNF meant."""

    @abstractmethod
    def size_facts(self) -> dict[str, FactValue]: ...

    def statement(self) -> str:
        return (
            f"{self.title}\n\n{self.rules()}\n\nVariable numbering (your CNF must follow it): "
            f"{self.convention()} Problem variables are 1..{self.n_vars}; you may use variables above "
            f"{self.n_vars} as auxiliaries."
        )

    def gold_cnf(self) -> CNF:
        clauses = tuple(self.gold_clauses())
        top = max((abs(lit) for clause in clauses for lit in clause), default=0)
        return CNF(n_vars=max(self.n_vars, top), clauses=clauses)

    def fingerprint(self) -> str:
        return hashlib.sha256(f"{self.kind}\n{self.statement()}".encode()).hexdigest()

    def violations(self, true_vars: TrueVars) -> tuple[int, list[str]]:
        """(number of constraints, descriptions of the violated ones) for a decoded model."""
        checks = self.constraints()
        return len(checks), [c.description for c in checks if not c.holds(true_vars)]


@dataclass(frozen=True)
class GraphColouring(EncodeProblem):
    kind: ClassVar[str] = "graph-colouring"
    pid: str
    title: str
    n_vertices: int
    edges: tuple[Pair, ...]
    colours: int
    pinned: tuple[Pair, ...] = ()
    """(vertex, colour) pairs that must hold."""
    same: tuple[Pair, ...] = ()
    """Vertex pairs that must share a colour."""
    vertex_names: tuple[str, ...] = ()

    @property
    def n_vars(self) -> int:
        return self.n_vertices * self.colours

    def var(self, vertex: int, colour: int) -> int:
        return vertex * self.colours + colour + 1

    def _row(self, vertex: int) -> list[int]:
        return [self.var(vertex, c) for c in range(self.colours)]

    def rules(self) -> str:
        lines = [
            "every vertex gets exactly one colour",
            "the two ends of every edge get different colours",
            *(f"vertex {v} has colour {c}" for v, c in self.pinned),
            *(f"vertices {u} and {v} get the same colour" for u, v in self.same),
        ]
        names = f"\nVertex names: {_names(self.vertex_names)}." if self.vertex_names else ""
        edges = ", ".join(f"{u}-{v}" for u, v in self.edges)
        return (
            f"Colour the vertices 0..{self.n_vertices - 1} of an undirected graph with colours "
            f"0..{self.colours - 1} so that:\n{_bullets(lines)}\nEdges ({len(self.edges)}): {edges}.{names}"
        )

    def convention(self) -> str:
        k = self.colours
        return (
            f"variable v*{k} + c + 1 is true iff vertex v has colour c (e.g. vertex 2 with colour 1 is "
            f"variable {self.var(2, 1)})."
        )

    def constraints(self) -> list[Constraint]:
        out = [
            _exactly_one(f"vertex {v} has exactly one colour", self._row(v)) for v in range(self.n_vertices)
        ]
        for u, v in self.edges:
            pairs = list(zip(self._row(u), self._row(v), strict=True))
            out.append(_never_together(f"edge {u}-{v} has ends of different colours", pairs))
        out.extend(_is_true(f"vertex {v} has colour {c}", self.var(v, c)) for v, c in self.pinned)
        for u, v in self.same:
            pairs = list(zip(self._row(u), self._row(v), strict=True))
            out.append(_same_values(f"vertices {u} and {v} share a colour", pairs))
        return out

    def gold_clauses(self) -> list[Clause]:
        clauses: list[Clause] = []
        for v in range(self.n_vertices):
            clauses += exactly_one(self._row(v))
        for u, v in self.edges:
            clauses += [(-a, -b) for a, b in zip(self._row(u), self._row(v), strict=True)]
        clauses += [(self.var(v, c),) for v, c in self.pinned]
        for u, v in self.same:
            for a, b in zip(self._row(u), self._row(v), strict=True):
                clauses += equal(a, b)
        return clauses

    def decode(self, true_vars: TrueVars) -> str:
        parts = []
        for v in range(self.n_vertices):
            colours = [c for c in range(self.colours) if self.var(v, c) in true_vars]
            if len(colours) == 1:
                parts.append(f"{v}: colour {colours[0]}")
            else:
                parts.append(
                    f"{v}: " + ("no colour" if not colours else "colours " + ",".join(map(str, colours)))
                )
        return "vertex colours: " + "; ".join(parts)

    def size_facts(self) -> dict[str, FactValue]:
        return {"n_vertices": self.n_vertices, "n_edges": len(self.edges), "n_colours": self.colours}


@dataclass(frozen=True)
class Queens(EncodeProblem):
    kind: ClassVar[str] = "n-queens"
    pid: str
    title: str
    n: int
    placed: tuple[Pair, ...] = ()
    blocked: tuple[Pair, ...] = ()

    @property
    def n_vars(self) -> int:
        return self.n * self.n

    def var(self, row: int, col: int) -> int:
        return row * self.n + col + 1

    def _diagonals(self) -> list[tuple[str, list[int]]]:
        n = self.n
        lines: list[tuple[str, list[int]]] = []
        for d in range(-(n - 1), n):
            cells = [self.var(r, r - d) for r in range(n) if 0 <= r - d < n]
            if len(cells) > 1:
                lines.append((f"diagonal row-col={d}", cells))
        for s in range(2 * n - 1):
            cells = [self.var(r, s - r) for r in range(n) if 0 <= s - r < n]
            if len(cells) > 1:
                lines.append((f"anti-diagonal row+col={s}", cells))
        return lines

    def rules(self) -> str:
        lines = [
            "every row holds exactly one queen",
            "no column holds more than one queen",
            "no diagonal, in either direction, holds more than one queen",
            *(f"a queen stands on row {r}, column {c}" for r, c in self.placed),
            *(f"no queen stands on row {r}, column {c}" for r, c in self.blocked),
        ]
        return (
            f"Place {self.n} queens on a {self.n}x{self.n} chessboard (rows and columns numbered "
            f"0..{self.n - 1}) so that:\n{_bullets(lines)}"
        )

    def convention(self) -> str:
        return (
            f"variable r*{self.n} + c + 1 is true iff a queen stands on row r, column c (e.g. row 1, "
            f"column 2 is variable {self.var(1, 2)})."
        )

    def constraints(self) -> list[Constraint]:
        n = self.n
        out = [
            _exactly_one(f"row {r} has exactly one queen", [self.var(r, c) for c in range(n)])
            for r in range(n)
        ]
        out += [
            _at_most(f"column {c} has at most one queen", [self.var(r, c) for r in range(n)], 1)
            for c in range(n)
        ]
        out += [_at_most(f"{name} has at most one queen", cells, 1) for name, cells in self._diagonals()]
        out += [_is_true(f"a queen on ({r},{c})", self.var(r, c)) for r, c in self.placed]
        out += [_is_false(f"no queen on ({r},{c})", self.var(r, c)) for r, c in self.blocked]
        return out

    def gold_clauses(self) -> list[Clause]:
        n = self.n
        clauses: list[Clause] = []
        for r in range(n):
            clauses += exactly_one([self.var(r, c) for c in range(n)])
        for c in range(n):
            clauses += at_most_one([self.var(r, c) for r in range(n)])
        for _, cells in self._diagonals():
            clauses += at_most_one(cells)
        clauses += [(self.var(r, c),) for r, c in self.placed]
        clauses += [(-self.var(r, c),) for r, c in self.blocked]
        return clauses

    def decode(self, true_vars: TrueVars) -> str:
        queens = [f"({r},{c})" for r in range(self.n) for c in range(self.n) if self.var(r, c) in true_vars]
        return "queens at (row,col): " + (" ".join(queens) or "none")

    def size_facts(self) -> dict[str, FactValue]:
        return {"board_size": self.n, "n_placed": len(self.placed), "n_blocked": len(self.blocked)}


Given = tuple[int, int, int]


@dataclass(frozen=True)
class LatinSquare(EncodeProblem):
    kind: ClassVar[str] = "latin-square"
    pid: str
    title: str
    n: int
    givens: tuple[Given, ...] = ()
    """(row, column, value) with value in 1..n."""
    box: Pair | None = None
    """(box rows, box columns): values must also differ inside each box (a Sudoku rule)."""
    diagonals: bool = False

    @property
    def n_vars(self) -> int:
        return self.n**3

    def var(self, row: int, col: int, value: int) -> int:
        return (row * self.n + col) * self.n + value

    def _groups(self) -> list[tuple[str, list[Pair]]]:
        n = self.n
        groups = [(f"row {r}", [(r, c) for c in range(n)]) for r in range(n)]
        groups += [(f"column {c}", [(r, c) for r in range(n)]) for c in range(n)]
        if self.box is not None:
            h, w = self.box
            for top in range(0, n, h):
                for left in range(0, n, w):
                    cells = [(top + i, left + j) for i in range(h) for j in range(w)]
                    groups.append((f"box at ({top},{left})", cells))
        if self.diagonals:
            groups.append(("main diagonal", [(i, i) for i in range(n)]))
            groups.append(("anti-diagonal", [(i, n - 1 - i) for i in range(n)]))
        return groups

    def rules(self) -> str:
        n = self.n
        lines = [
            "every cell holds exactly one value",
            "no value repeats within a row",
            "no value repeats within a column",
        ]
        if self.box is not None:
            h, w = self.box
            lines.append(
                f"no value repeats within any of the {h}x{w} boxes (boxes start at rows and columns divisible by {h} and {w})"
            )
        if self.diagonals:
            lines.append("no value repeats on the main diagonal (r,r) nor on the anti-diagonal (r,{n - 1}-r)")
        givens = ", ".join(f"({r},{c})={v}" for r, c, v in self.givens) or "none"
        return (
            f"Fill a {n}x{n} grid (rows and columns numbered 0..{n - 1}) with values 1..{n} so that:\n"
            f"{_bullets(lines)}\n- the given cells hold their values: {givens}"
        )

    def convention(self) -> str:
        n = self.n
        return (
            f"variable (r*{n} + c)*{n} + v is true iff cell (r,c) holds value v, for v in 1..{n} (e.g. "
            f"cell (1,2) holding {min(3, n)} is variable {self.var(1, 2, min(3, n))})."
        )

    def constraints(self) -> list[Constraint]:
        n = self.n
        out = [
            _exactly_one(
                f"cell ({r},{c}) holds exactly one value", [self.var(r, c, v) for v in range(1, n + 1)]
            )
            for r in range(n)
            for c in range(n)
        ]
        for name, cells in self._groups():
            per_value = [[self.var(r, c, v) for r, c in cells] for v in range(1, n + 1)]
            out.append(_none_twice(f"{name} repeats no value", per_value))
        out += [_is_true(f"cell ({r},{c}) holds {v}", self.var(r, c, v)) for r, c, v in self.givens]
        return out

    def gold_clauses(self) -> list[Clause]:
        n = self.n
        clauses: list[Clause] = []
        for r in range(n):
            for c in range(n):
                clauses += exactly_one([self.var(r, c, v) for v in range(1, n + 1)])
        for _, cells in self._groups():
            for v in range(1, n + 1):
                clauses += at_most_one([self.var(r, c, v) for r, c in cells])
        clauses += [(self.var(r, c, v),) for r, c, v in self.givens]
        return clauses

    def decode(self, true_vars: TrueVars) -> str:
        rows = []
        for r in range(self.n):
            cells = []
            for c in range(self.n):
                values = [v for v in range(1, self.n + 1) if self.var(r, c, v) in true_vars]
                cells.append(str(values[0]) if len(values) == 1 else ("." if not values else "*"))
            rows.append(" ".join(cells))
        return "grid ('.' no value, '*' several): " + " / ".join(rows)

    def size_facts(self) -> dict[str, FactValue]:
        return {
            "grid_size": self.n,
            "n_givens": len(self.givens),
            "has_boxes": self.box is not None,
            "has_diagonals": self.diagonals,
        }


@dataclass(frozen=True)
class Placement(EncodeProblem):
    """Pigeonhole-style: items into bins with capacities and pairwise rules."""

    kind: ClassVar[str] = "placement"
    pid: str
    title: str
    story: str
    items: tuple[str, ...]
    bins: tuple[str, ...]
    capacity: tuple[int, ...]
    forbidden: tuple[Pair, ...] = ()
    """(item, bin) pairs that must not hold."""
    apart: tuple[Pair, ...] = ()
    together: tuple[Pair, ...] = ()

    @property
    def n_vars(self) -> int:
        return len(self.items) * len(self.bins)

    def var(self, item: int, bin_: int) -> int:
        return item * len(self.bins) + bin_ + 1

    def _row(self, item: int) -> list[int]:
        return [self.var(item, b) for b in range(len(self.bins))]

    def rules(self) -> str:
        p, h = len(self.items), len(self.bins)
        lines = [
            "every item goes into exactly one bin",
            *(
                f"bin {b} holds at most {cap} item{'s' if cap != 1 else ''}"
                for b, cap in enumerate(self.capacity)
            ),
            *(f"item {i} is not in bin {b}" for i, b in self.forbidden),
            *(f"items {i} and {j} are not in the same bin" for i, j in self.apart),
            *(f"items {i} and {j} are in the same bin" for i, j in self.together),
        ]
        return (
            f"{self.story}\nPut items 0..{p - 1} into bins 0..{h - 1} so that:\n{_bullets(lines)}\n"
            f"Items: {_names(self.items)}. Bins: {_names(self.bins)}."
        )

    def convention(self) -> str:
        h = len(self.bins)
        return f"variable i*{h} + b + 1 is true iff item i is in bin b (e.g. item 1 in bin 2 is variable {self.var(1, 2)})."

    def constraints(self) -> list[Constraint]:
        p = len(self.items)
        out = [_exactly_one(f"item {i} is in exactly one bin", self._row(i)) for i in range(p)]
        out += [
            _at_most(f"bin {b} holds at most {cap}", [self.var(i, b) for i in range(p)], cap)
            for b, cap in enumerate(self.capacity)
        ]
        out += [_is_false(f"item {i} is not in bin {b}", self.var(i, b)) for i, b in self.forbidden]
        for i, j in self.apart:
            out.append(
                _never_together(
                    f"items {i} and {j} are apart", list(zip(self._row(i), self._row(j), strict=True))
                )
            )
        for i, j in self.together:
            out.append(
                _same_values(
                    f"items {i} and {j} are together", list(zip(self._row(i), self._row(j), strict=True))
                )
            )
        return out

    def gold_clauses(self) -> list[Clause]:
        p = len(self.items)
        clauses: list[Clause] = []
        for i in range(p):
            clauses += exactly_one(self._row(i))
        for b, cap in enumerate(self.capacity):
            clauses += at_most([self.var(i, b) for i in range(p)], cap)
        clauses += [(-self.var(i, b),) for i, b in self.forbidden]
        for i, j in self.apart:
            clauses += [(-a, -b) for a, b in zip(self._row(i), self._row(j), strict=True)]
        for i, j in self.together:
            for a, b in zip(self._row(i), self._row(j), strict=True):
                clauses += equal(a, b)
        return clauses

    def decode(self, true_vars: TrueVars) -> str:
        parts = []
        for b in range(len(self.bins)):
            members = [str(i) for i in range(len(self.items)) if self.var(i, b) in true_vars]
            parts.append(f"bin {b}: {{{','.join(members)}}}")
        return "bins: " + "; ".join(parts)

    def size_facts(self) -> dict[str, FactValue]:
        return {"n_items": len(self.items), "n_bins": len(self.bins), "total_capacity": sum(self.capacity)}


@dataclass(frozen=True)
class Scheduling(EncodeProblem):
    kind: ClassVar[str] = "scheduling"
    pid: str
    title: str
    story: str
    jobs: tuple[str, ...]
    n_slots: int
    conflicts: tuple[Pair, ...] = ()
    before: tuple[Pair, ...] = ()
    """(a, b): job a's slot is strictly earlier than job b's."""
    same_slot: tuple[Pair, ...] = ()
    forbidden: tuple[Pair, ...] = ()
    """(job, slot) pairs that must not hold."""

    @property
    def n_vars(self) -> int:
        return len(self.jobs) * self.n_slots

    def var(self, job: int, slot: int) -> int:
        return job * self.n_slots + slot + 1

    def _row(self, job: int) -> list[int]:
        return [self.var(job, s) for s in range(self.n_slots)]

    def _not_before(self, a: int, b: int) -> list[Pair]:
        return [
            (self.var(a, i), self.var(b, j))
            for i in range(self.n_slots)
            for j in range(self.n_slots)
            if i >= j
        ]

    def rules(self) -> str:
        lines = [
            "every job gets exactly one slot",
            *(f"jobs {a} and {b} conflict: different slots" for a, b in self.conflicts),
            *(f"job {a} is in an earlier slot than job {b}" for a, b in self.before),
            *(f"jobs {a} and {b} are in the same slot" for a, b in self.same_slot),
            *(f"job {j} is not in slot {s}" for j, s in self.forbidden),
        ]
        return (
            f"{self.story}\nAssign jobs 0..{len(self.jobs) - 1} to time slots 0..{self.n_slots - 1} so that:\n"
            f"{_bullets(lines)}\nJobs: {_names(self.jobs)}."
        )

    def convention(self) -> str:
        s = self.n_slots
        return f"variable j*{s} + t + 1 is true iff job j is in slot t (e.g. job 1 in slot 2 is variable {self.var(1, 2)})."

    def constraints(self) -> list[Constraint]:
        out = [_exactly_one(f"job {j} has exactly one slot", self._row(j)) for j in range(len(self.jobs))]
        for a, b in self.conflicts:
            out.append(
                _never_together(
                    f"jobs {a} and {b} are in different slots",
                    list(zip(self._row(a), self._row(b), strict=True)),
                )
            )
        out += [_never_together(f"job {a} is before job {b}", self._not_before(a, b)) for a, b in self.before]
        for a, b in self.same_slot:
            out.append(
                _same_values(
                    f"jobs {a} and {b} share a slot", list(zip(self._row(a), self._row(b), strict=True))
                )
            )
        out += [_is_false(f"job {j} is not in slot {s}", self.var(j, s)) for j, s in self.forbidden]
        return out

    def gold_clauses(self) -> list[Clause]:
        clauses: list[Clause] = []
        for j in range(len(self.jobs)):
            clauses += exactly_one(self._row(j))
        for a, b in self.conflicts:
            clauses += [(-x, -y) for x, y in zip(self._row(a), self._row(b), strict=True)]
        for a, b in self.before:
            clauses += [(-x, -y) for x, y in self._not_before(a, b)]
        for a, b in self.same_slot:
            for x, y in zip(self._row(a), self._row(b), strict=True):
                clauses += equal(x, y)
        clauses += [(-self.var(j, s),) for j, s in self.forbidden]
        return clauses

    def decode(self, true_vars: TrueVars) -> str:
        parts = []
        for j in range(len(self.jobs)):
            slots = [str(s) for s in range(self.n_slots) if self.var(j, s) in true_vars]
            parts.append(f"{j}: {','.join(slots) or 'none'}")
        return "job slots: " + "; ".join(parts)

    def size_facts(self) -> dict[str, FactValue]:
        return {"n_jobs": len(self.jobs), "n_slots": self.n_slots, "n_precedences": len(self.before)}
