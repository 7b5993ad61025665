"""Word-problem families for `smt-encode`: statement, Python validator and gold encoding.

Each rule of a problem is written twice, side by side: once as a Python predicate over the
decoded answer (the validator) and once as an SMT-LIB assertion (for the gold encoding).
The validator never looks at an agent's encoding, only at the values decoded from its model,
so an encoding is judged by what it answers, not by how it is written. Tests check that every
gold encoding passes its own validator and fails its look-alike partner's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

Sort = Literal["Int", "Bool"]
Value = int | bool | None


class MissingValue(Exception):
    """An answer constant has no usable value; every rule that reads it counts as violated."""


class Answer:
    """Read-only view of decoded values that refuses missing or mistyped ones."""

    def __init__(self, values: Mapping[str, Value]) -> None:
        self._values = values

    def int(self, name: str) -> int:
        value = self._values.get(name)
        if value is None or isinstance(value, bool):
            raise MissingValue(name)
        return value

    def bool(self, name: str) -> bool:
        value = self._values.get(name)
        if not isinstance(value, bool):
            raise MissingValue(name)
        return value


@dataclass(frozen=True)
class Rule:
    text: str
    holds: Callable[[Answer], bool]
    smt: str

    def check(self, answer: Answer) -> bool:
        try:
            return bool(self.holds(answer))
        except MissingValue:
            return False


@dataclass(frozen=True)
class AnswerVar:
    name: str
    sort: Sort
    meaning: str


@dataclass(frozen=True)
class Problem:
    id: str
    family: str
    title: str
    story: str
    answers: tuple[AnswerVar, ...]
    rules: tuple[Rule, ...]
    entities: int
    partner: str
    """The look-alike: same shape, one rule changed so that this problem's answers fail it."""

    def statement(self) -> str:
        lines = [self.title, "", self.story, "", "Rules:"]
        lines.extend(f"{number}. {rule.text}" for number, rule in enumerate(self.rules, 1))
        return "\n".join(lines)

    def gold_encoding(self) -> str:
        lines = [f"; gold encoding of {self.id} ({self.family})"]
        lines.extend(f"(declare-const {var.name} {var.sort})" for var in self.answers)
        for number, rule in enumerate(self.rules, 1):
            lines.append(f"; rule {number}")
            lines.append(f"(assert {rule.smt})")
        lines.append("(check-sat)")
        lines.append("(get-model)")
        return "\n".join(lines) + "\n"

    def validate(self, values: Mapping[str, Value]) -> list[bool]:
        answer = Answer(values)
        return [rule.check(answer) for rule in self.rules]


def _pred(check: Callable[..., bool], *bound: object) -> Callable[[Answer], bool]:
    """Bind loop values into a rule's predicate (a lambda default would hide them from mypy)."""
    return lambda answer: check(answer, *bound)


def _sum(terms: Sequence[str]) -> str:
    return terms[0] if len(terms) == 1 else "(+ " + " ".join(terms) + ")"


def _and(terms: Sequence[str]) -> str:
    return terms[0] if len(terms) == 1 else "(and " + " ".join(terms) + ")"


def _range_rule(names: Sequence[str], low: int, high: int, text: str) -> Rule:
    return Rule(
        text=text,
        holds=lambda a: all(low <= a.int(n) <= high for n in names),
        smt=_and([f"(and (>= {n} {low}) (<= {n} {high}))" for n in names]),
    )


def _distinct_rule(names: Sequence[str], text: str) -> Rule:
    return Rule(
        text=text,
        holds=lambda a: len({a.int(n) for n in names}) == len(names),
        smt="(distinct " + " ".join(names) + ")",
    )


# --- seating -------------------------------------------------------------------------------

SeatRule = tuple[str, ...]


def seating(pid: str, partner: str, story: str, people: Sequence[str], rules: Sequence[SeatRule]) -> Problem:
    """People in a row of seats 1..n, left to right. Rule kinds: left, right, next, apart, seat,
    end, not_end."""
    n = len(people)
    var = {p: f"seat_{p.lower()}" for p in people}
    out = [
        _range_rule(list(var.values()), 1, n, f"Everyone sits in one of the seats 1 to {n}."),
        _distinct_rule(list(var.values()), "No two people share a seat."),
    ]
    for rule in rules:
        kind = rule[0]
        a = var[rule[1]]
        if kind == "left":
            b = var[rule[2]]
            out.append(Rule(f"{rule[1]} sits somewhere to the left of {rule[2]}.",
                            _pred(lambda x, a, b: x.int(a) < x.int(b), a, b), f"(< {a} {b})"))
        elif kind == "right":
            b = var[rule[2]]
            out.append(Rule(f"{rule[1]} sits somewhere to the right of {rule[2]}.",
                            _pred(lambda x, a, b: x.int(a) > x.int(b), a, b), f"(> {a} {b})"))
        elif kind == "next":
            b = var[rule[2]]
            out.append(Rule(f"{rule[1]} sits right next to {rule[2]}.",
                            _pred(lambda x, a, b: abs(x.int(a) - x.int(b)) == 1, a, b),
                            f"(or (= (- {a} {b}) 1) (= (- {b} {a}) 1))"))
        elif kind == "apart":
            b = var[rule[2]]
            out.append(Rule(f"{rule[1]} does not sit next to {rule[2]}.",
                            _pred(lambda x, a, b: abs(x.int(a) - x.int(b)) != 1, a, b),
                            f"(not (or (= (- {a} {b}) 1) (= (- {b} {a}) 1)))"))
        elif kind == "seat":
            k = int(rule[2])
            out.append(Rule(f"{rule[1]} sits in seat {k}.", _pred(lambda x, a, k: x.int(a) == k, a, k), f"(= {a} {k})"))
        elif kind == "end":
            out.append(Rule(f"{rule[1]} sits at one of the two ends of the row.",
                            _pred(lambda x, a: x.int(a) in (1, n), a), f"(or (= {a} 1) (= {a} {n}))"))
        elif kind == "not_end":
            out.append(Rule(f"{rule[1]} does not sit at either end of the row.",
                            _pred(lambda x, a: x.int(a) not in (1, n), a), f"(and (distinct {a} 1) (distinct {a} {n}))"))
        else:
            raise ValueError(f"unknown seating rule {kind}")
    answers = tuple(AnswerVar(var[p], "Int", f"the seat number of {p}") for p in people)
    return Problem(pid, "seating", f"Seating: {len(people)} people in a row", story, answers, tuple(out), n, partner)


# --- scheduling ----------------------------------------------------------------------------


def schedule(
    pid: str,
    partner: str,
    story: str,
    jobs: Sequence[tuple[str, int]],
    horizon: int,
    before: Sequence[tuple[str, str]],
    release: Mapping[str, int],
    deadline: Mapping[str, int],
) -> Problem:
    """Jobs with durations on one machine, no overlap, all done by `horizon`."""
    dur = dict(jobs)
    var = {j: f"start_{j}" for j, _ in jobs}
    out = [
        Rule(
            f"Every job starts at time 0 or later and ends by time {horizon}.",
            lambda x: all(x.int(var[j]) >= 0 and x.int(var[j]) + dur[j] <= horizon for j in dur),
            _and([f"(and (>= {var[j]} 0) (<= (+ {var[j]} {dur[j]}) {horizon}))" for j in dur]),
        ),
        Rule(
            "The machine runs one job at a time: no two jobs overlap (a job may start when another ends).",
            lambda x: all(
                x.int(var[p]) + dur[p] <= x.int(var[q]) or x.int(var[q]) + dur[q] <= x.int(var[p])
                for p, q in combinations(dur, 2)
            ),
            _and([
                f"(or (<= (+ {var[p]} {dur[p]}) {var[q]}) (<= (+ {var[q]} {dur[q]}) {var[p]}))"
                for p, q in combinations(dur, 2)
            ]),
        ),
    ]
    for p, q in before:
        out.append(Rule(f"{p} must end before {q} starts.",
                        _pred(lambda x, p, q: x.int(var[p]) + dur[p] <= x.int(var[q]), p, q),
                        f"(<= (+ {var[p]} {dur[p]}) {var[q]})"))
    for j, t in release.items():
        out.append(Rule(f"{j} cannot start before time {t}.", _pred(lambda x, j, t: x.int(var[j]) >= t, j, t),
                        f"(>= {var[j]} {t})"))
    for j, t in deadline.items():
        out.append(Rule(f"{j} must end by time {t}.", _pred(lambda x, j, t: x.int(var[j]) + dur[j] <= t, j, t),
                        f"(<= (+ {var[j]} {dur[j]}) {t})"))
    listing = ", ".join(f"{j} ({d} h)" for j, d in jobs)
    answers = tuple(AnswerVar(var[j], "Int", f"the start time of {j} in hours") for j, _ in jobs)
    return Problem(pid, "scheduling", f"Scheduling: {len(jobs)} jobs on one machine",
                   f"{story} Jobs and durations: {listing}.", answers, tuple(out), len(jobs), partner)


# --- assignment ----------------------------------------------------------------------------


def assignment(
    pid: str,
    partner: str,
    story: str,
    workers: Sequence[str],
    jobs: Sequence[str],
    cost: Sequence[Sequence[int]],
    budget: int,
    forbidden: Sequence[tuple[str, int]],
    required: Sequence[tuple[str, int]],
) -> Problem:
    """Each worker gets exactly one job (numbered 1..n), all jobs covered, total cost bounded."""
    n = len(workers)
    var = {w: f"job_{w.lower()}" for w in workers}
    out = [
        _range_rule(list(var.values()), 1, n, f"Each worker gets one job numbered 1 to {n}."),
        _distinct_rule(list(var.values()), "No two workers get the same job."),
    ]
    for w, j in forbidden:
        out.append(Rule(f"{w} must not get job {j} ({jobs[j - 1]}).", _pred(lambda x, v, j: x.int(v) != j, var[w], j),
                        f"(distinct {var[w]} {j})"))
    for w, j in required:
        out.append(Rule(f"{w} must get job {j} ({jobs[j - 1]}).", _pred(lambda x, v, j: x.int(v) == j, var[w], j),
                        f"(= {var[w]} {j})"))

    def total(x: Answer) -> int:
        spent = 0
        for i, w in enumerate(workers):
            j = x.int(var[w])
            if not 1 <= j <= n:
                raise MissingValue(var[w])
            spent += cost[i][j - 1]
        return spent

    def cost_term(i: int, w: str) -> str:
        term = str(cost[i][n - 1])
        for j in range(n - 1, 0, -1):
            term = f"(ite (= {var[w]} {j}) {cost[i][j - 1]} {term})"
        return term

    out.append(Rule(f"The total cost is at most {budget}.", lambda x: total(x) <= budget,
                    f"(<= {_sum([cost_term(i, w) for i, w in enumerate(workers)])} {budget})"))
    header = "Jobs: " + ", ".join(f"{k} = {name}" for k, name in enumerate(jobs, 1)) + "."
    table = "\n".join(
        f"  {w}: " + ", ".join(f"job {k} costs {cost[i][k - 1]}" for k in range(1, n + 1))
        for i, w in enumerate(workers)
    )
    answers = tuple(AnswerVar(var[w], "Int", f"the number of the job {w} gets") for w in workers)
    return Problem(pid, "assignment", f"Assignment: {n} workers, {n} jobs", f"{story} {header}\nCosts:\n{table}",
                   answers, tuple(out), n, partner)


# --- 4x4 sudoku ----------------------------------------------------------------------------


def sudoku4(pid: str, partner: str, story: str, givens: Mapping[tuple[int, int], int]) -> Problem:
    cell = {(r, c): f"cell_{r}_{c}" for r in range(1, 5) for c in range(1, 5)}
    out = [_range_rule(list(cell.values()), 1, 4, "Every cell holds a number from 1 to 4.")]
    for r in range(1, 5):
        out.append(_distinct_rule([cell[r, c] for c in range(1, 5)], f"Row {r} holds four different numbers."))
    for c in range(1, 5):
        out.append(_distinct_rule([cell[r, c] for r in range(1, 5)], f"Column {c} holds four different numbers."))
    for br in (1, 3):
        for bc in (1, 3):
            names = [cell[r, c] for r in (br, br + 1) for c in (bc, bc + 1)]
            out.append(_distinct_rule(
                names, f"The 2x2 box with rows {br}-{br + 1} and columns {bc}-{bc + 1} holds four different numbers."
            ))
    for (r, c), v in sorted(givens.items()):
        out.append(Rule(f"Row {r}, column {c} holds {v}.", _pred(lambda x, n, v: x.int(n) == v, cell[r, c], v),
                        f"(= {cell[r, c]} {v})"))
    answers = tuple(AnswerVar(name, "Int", f"the number in row {r}, column {c}") for (r, c), name in cell.items())
    return Problem(pid, "sudoku-mini", "Mini sudoku (4x4)", story, answers, tuple(out), 16, partner)


# --- knapsack ------------------------------------------------------------------------------


def knapsack(
    pid: str,
    partner: str,
    story: str,
    items: Sequence[tuple[str, int, int]],
    capacity: int,
    target: int,
    must_take: Sequence[str] = (),
    must_leave: Sequence[str] = (),
    max_items: int | None = None,
    min_items: int | None = None,
) -> Problem:
    var = {name: f"take_{name}" for name, _, _ in items}
    weight = {name: w for name, w, _ in items}
    value = {name: v for name, _, v in items}
    out = [
        Rule(f"The packed items weigh at most {capacity} kg in total.",
             lambda x: sum(weight[i] for i in var if x.bool(var[i])) <= capacity,
             f"(<= {_sum([f'(ite {var[i]} {weight[i]} 0)' for i in var])} {capacity})"),
        Rule(f"The packed items are worth at least {target} points in total.",
             lambda x: sum(value[i] for i in var if x.bool(var[i])) >= target,
             f"(>= {_sum([f'(ite {var[i]} {value[i]} 0)' for i in var])} {target})"),
    ]
    for name in must_take:
        out.append(Rule(f"The {name} must be packed.", _pred(lambda x, v: x.bool(v), var[name]), var[name]))
    for name in must_leave:
        out.append(Rule(f"The {name} must be left behind.", _pred(lambda x, v: not x.bool(v), var[name]),
                        f"(not {var[name]})"))
    count = _sum([f"(ite {var[i]} 1 0)" for i in var])
    if max_items is not None:
        out.append(Rule(f"At most {max_items} items are packed.",
                        lambda x: sum(1 for i in var if x.bool(var[i])) <= max_items, f"(<= {count} {max_items})"))
    if min_items is not None:
        out.append(Rule(f"At least {min_items} items are packed.",
                        lambda x: sum(1 for i in var if x.bool(var[i])) >= min_items, f"(>= {count} {min_items})"))
    listing = ", ".join(f"{name} ({w} kg, {v} points)" for name, w, v in items)
    answers = tuple(AnswerVar(var[name], "Bool", f"true if the {name} is packed") for name, _, _ in items)
    return Problem(pid, "knapsack", f"Packing: choose among {len(items)} items", f"{story} Items: {listing}.",
                   answers, tuple(out), len(items), partner)


# --- map colouring -------------------------------------------------------------------------


def coloring(
    pid: str,
    partner: str,
    story: str,
    regions: Sequence[str],
    borders: Sequence[tuple[str, str]],
    colors: int,
    fixed: Mapping[str, int],
    same: Sequence[tuple[str, str]] = (),
    differ: Sequence[tuple[str, str]] = (),
) -> Problem:
    var = {r: f"color_{r.lower()}" for r in regions}
    out = [_range_rule(list(var.values()), 1, colors, f"Every region gets one of the colours 1 to {colors}.")]
    for a, b in borders:
        out.append(Rule(f"{a} and {b} share a border, so they get different colours.",
                        _pred(lambda x, a, b: x.int(a) != x.int(b), var[a], var[b]), f"(distinct {var[a]} {var[b]})"))
    for a, b in same:
        out.append(Rule(f"{a} and {b} must get the same colour.",
                        _pred(lambda x, a, b: x.int(a) == x.int(b), var[a], var[b]), f"(= {var[a]} {var[b]})"))
    for a, b in differ:
        out.append(Rule(f"{a} and {b} must get different colours.",
                        _pred(lambda x, a, b: x.int(a) != x.int(b), var[a], var[b]), f"(distinct {var[a]} {var[b]})"))
    for region, color in fixed.items():
        out.append(Rule(f"{region} gets colour {color}.", _pred(lambda x, v, c: x.int(v) == c, var[region], color),
                        f"(= {var[region]} {color})"))
    answers = tuple(AnswerVar(var[r], "Int", f"the colour number of {r}") for r in regions)
    return Problem(pid, "map-coloring", f"Map colouring: {len(regions)} regions, {colors} colours", story,
                   answers, tuple(out), len(regions), partner)


# --- coins ---------------------------------------------------------------------------------


def coins(
    pid: str,
    partner: str,
    story: str,
    kinds: Sequence[tuple[str, int]],
    amount: int,
    max_coins: int,
    at_least: Mapping[str, int],
    at_most: Mapping[str, int] | None = None,
) -> Problem:
    """Count how many coins of each kind make `amount`; `at_most` rules follow the `at_least` ones."""
    var = {name: f"count_{name}" for name, _ in kinds}
    cents = dict(kinds)
    out = [
        Rule("Every count is a whole number, zero or more.", lambda x: all(x.int(v) >= 0 for v in var.values()),
             _and([f"(>= {v} 0)" for v in var.values()])),
        Rule(f"The coins add up to exactly {amount} cents.",
             lambda x: sum(cents[k] * x.int(var[k]) for k in var) == amount,
             f"(= {_sum([f'(* {cents[k]} {var[k]})' for k in var])} {amount})"),
        Rule(f"At most {max_coins} coins are used.", lambda x: sum(x.int(v) for v in var.values()) <= max_coins,
             f"(<= {_sum(list(var.values()))} {max_coins})"),
    ]
    for name, least in at_least.items():
        out.append(Rule(f"At least {least} {name} coin(s) are used.", _pred(lambda x, v, n: x.int(v) >= n, var[name], least),
                        f"(>= {var[name]} {least})"))
    for name, most in (at_most or {}).items():
        out.append(Rule(f"At most {most} {name} coin(s) are used.", _pred(lambda x, v, n: x.int(v) <= n, var[name], most),
                        f"(<= {var[name]} {most})"))
    listing = ", ".join(f"{name} = {c} cents" for name, c in kinds)
    answers = tuple(AnswerVar(var[name], "Int", f"how many {name} coins are used") for name, _ in kinds)
    return Problem(pid, "coins", "Making change", f"{story} Coins: {listing}.", answers, tuple(out), len(kinds), partner)


# --- ages (linear relations) ---------------------------------------------------------------

Linear = tuple[str, Mapping[str, int], Literal["=", "<=", ">="], int]


def ages(pid: str, partner: str, story: str, people: Sequence[str], relations: Sequence[Linear]) -> Problem:
    """Each relation is `(text, {person: coefficient}, op, constant)`: sum(coef * age) op constant."""
    var = {p: f"age_{p.lower()}" for p in people}
    out = [Rule("Every age is a whole number of years, at least 1.", lambda x: all(x.int(v) >= 1 for v in var.values()),
                _and([f"(>= {v} 1)" for v in var.values()]))]
    for text, coef, op, constant in relations:
        def holds(x: Answer, coef: Mapping[str, int] = coef, op: str = op, constant: int = constant) -> bool:
            total = sum(k * x.int(var[p]) for p, k in coef.items())
            return total == constant if op == "=" else (total <= constant if op == "<=" else total >= constant)

        terms = [var[p] if k == 1 else f"(* {k} {var[p]})" for p, k in coef.items()]
        constant_text = str(constant) if constant >= 0 else f"(- {-constant})"
        out.append(Rule(text, holds, f"({op} {_sum(terms)} {constant_text})"))
    answers = tuple(AnswerVar(var[p], "Int", f"the age of {p} in years") for p in people)
    return Problem(pid, "ages", f"Ages of {len(people)} people", story, answers, tuple(out), len(people), partner)


# --- bin packing ---------------------------------------------------------------------------


def binpack(
    pid: str,
    partner: str,
    story: str,
    items: Sequence[tuple[str, int]],
    bins: int,
    capacity: int,
    together: Sequence[tuple[str, str]] = (),
    apart: Sequence[tuple[str, str]] = (),
) -> Problem:
    var = {name: f"box_{name}" for name, _ in items}
    size = dict(items)
    out = [_range_rule(list(var.values()), 1, bins, f"Every item goes into one of the boxes 1 to {bins}.")]
    for box in range(1, bins + 1):
        out.append(Rule(
            f"Box {box} holds at most {capacity} kg.",
            _pred(lambda x, b: sum(size[i] for i in var if x.int(var[i]) == b) <= capacity, box),
            f"(<= {_sum([f'(ite (= {var[i]} {box}) {size[i]} 0)' for i in var])} {capacity})",
        ))
    for a, b in together:
        out.append(Rule(f"The {a} and the {b} go into the same box.",
                        _pred(lambda x, a, b: x.int(a) == x.int(b), var[a], var[b]), f"(= {var[a]} {var[b]})"))
    for a, b in apart:
        out.append(Rule(f"The {a} and the {b} go into different boxes.",
                        _pred(lambda x, a, b: x.int(a) != x.int(b), var[a], var[b]), f"(distinct {var[a]} {var[b]})"))
    listing = ", ".join(f"{name} ({s} kg)" for name, s in items)
    answers = tuple(AnswerVar(var[name], "Int", f"the box number of the {name}") for name, _ in items)
    return Problem(pid, "bin-packing", f"Packing {len(items)} items into {bins} boxes", f"{story} Items: {listing}.",
                   answers, tuple(out), len(items), partner)


# --- queens --------------------------------------------------------------------------------


def queens(pid: str, partner: str, story: str, n: int, fixed: Mapping[int, int]) -> Problem:
    var = {c: f"queen_col{c}" for c in range(1, n + 1)}
    names = list(var.values())
    out = [
        _range_rule(names, 1, n, f"Each column has exactly one queen, in a row from 1 to {n}."),
        _distinct_rule(names, "No two queens share a row."),
        Rule(
            "No two queens share a diagonal.",
            lambda x: all(abs(x.int(var[p]) - x.int(var[q])) != q - p for p, q in combinations(var, 2)),
            _and([
                f"(and (distinct (- {var[q]} {var[p]}) {q - p}) (distinct (- {var[p]} {var[q]}) {q - p}))"
                for p, q in combinations(var, 2)
            ]),
        ),
    ]
    for c, r in fixed.items():
        out.append(Rule(f"The queen in column {c} stands in row {r}.", _pred(lambda x, v, r: x.int(v) == r, var[c], r),
                        f"(= {var[c]} {r})"))
    answers = tuple(AnswerVar(var[c], "Int", f"the row of the queen in column {c}") for c in var)
    return Problem(pid, "queens", f"{n} queens", story, answers, tuple(out), n, partner)


# --- nurse rostering -----------------------------------------------------------------------


def roster(
    pid: str,
    partner: str,
    story: str,
    nurses: Sequence[str],
    days: Sequence[str],
    per_day: int,
    max_shifts: int,
    unavailable: Sequence[tuple[str, str]],
    must_work: Sequence[tuple[str, str]],
) -> Problem:
    var = {(n, d): f"on_{n.lower()}_{d.lower()}" for n in nurses for d in days}
    out: list[Rule] = []
    for d in days:
        names = [var[n, d] for n in nurses]
        out.append(Rule(f"Exactly {per_day} nurses work on {d}.",
                        _pred(lambda x, names: sum(1 for v in names if x.bool(v)) == per_day, names),
                        f"(= {_sum([f'(ite {v} 1 0)' for v in names])} {per_day})"))
    for n in nurses:
        names = [var[n, d] for d in days]
        out.append(Rule(f"{n} works at most {max_shifts} days.",
                        _pred(lambda x, names: sum(1 for v in names if x.bool(v)) <= max_shifts, names),
                        f"(<= {_sum([f'(ite {v} 1 0)' for v in names])} {max_shifts})"))
    for n, d in unavailable:
        out.append(Rule(f"{n} cannot work on {d}.", _pred(lambda x, v: not x.bool(v), var[n, d]), f"(not {var[n, d]})"))
    for n, d in must_work:
        out.append(Rule(f"{n} must work on {d}.", _pred(lambda x, v: x.bool(v), var[n, d]), var[n, d]))
    answers = tuple(AnswerVar(var[n, d], "Bool", f"true if {n} works on {d}") for n in nurses for d in days)
    return Problem(pid, "rostering", f"Rostering: {len(nurses)} nurses, {len(days)} days",
                   f"{story} Nurses: {', '.join(nurses)}. Days: {', '.join(days)}.", answers, tuple(out),
                   len(nurses) * len(days), partner)


# --- magic square --------------------------------------------------------------------------


def magic(pid: str, partner: str, story: str, fixed: Mapping[tuple[int, int], int]) -> Problem:
    cell = {(r, c): f"sq_{r}_{c}" for r in range(1, 4) for c in range(1, 4)}
    names = list(cell.values())
    out = [
        _range_rule(names, 1, 9, "Every cell holds a number from 1 to 9."),
        _distinct_rule(names, "All nine numbers are different."),
    ]
    lines: list[tuple[str, list[str]]] = []
    for r in range(1, 4):
        lines.append((f"Row {r}", [cell[r, c] for c in range(1, 4)]))
    for c in range(1, 4):
        lines.append((f"Column {c}", [cell[r, c] for r in range(1, 4)]))
    lines.append(("The main diagonal (top-left to bottom-right)", [cell[i, i] for i in range(1, 4)]))
    lines.append(("The other diagonal (top-right to bottom-left)", [cell[i, 4 - i] for i in range(1, 4)]))
    for label, group in lines:
        out.append(Rule(f"{label} adds up to 15.", _pred(lambda x, g: sum(x.int(v) for v in g) == 15, group),
                        f"(= {_sum(group)} 15)"))
    for (r, c), v in fixed.items():
        out.append(Rule(f"Row {r}, column {c} holds {v}.", _pred(lambda x, n, v: x.int(n) == v, cell[r, c], v),
                        f"(= {cell[r, c]} {v})"))
    answers = tuple(AnswerVar(name, "Int", f"the number in row {r}, column {c}") for (r, c), name in cell.items())
    return Problem(pid, "magic-square", "Magic square (3x3)", story, answers, tuple(out), 9, partner)
