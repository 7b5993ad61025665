"""DIMACS parsing, the assignment answer format and the budgeted solver, without benchmark data."""

from __future__ import annotations

import pytest

from countermem.core import ParseError
from countermem.domains.sat import (
    CNF,
    Assignment,
    SolverBudget,
    UnsatClaim,
    parse_answer,
    parse_dimacs,
    solve,
    strip_fence,
)


def _pigeonhole(holes: int) -> list[tuple[int, ...]]:
    """holes+1 pigeons into `holes` holes: unsatisfiable and hard for resolution."""
    pigeons = holes + 1

    def var(p: int, h: int) -> int:
        return p * holes + h + 1

    clauses: list[tuple[int, ...]] = [tuple(var(p, h) for h in range(holes)) for p in range(pigeons)]
    for h in range(holes):
        for a in range(pigeons):
            for b in range(a + 1, pigeons):
                clauses.append((-var(a, h), -var(b, h)))
    return clauses


def test_parse_satlib_file_with_trailer() -> None:
    text = "c comment\np cnf 3 2\n 1 -2 3 0\n-1 2 0\n%\n0\n\n"
    cnf = parse_dimacs(text, allow_satlib_trailer=True, require_header=True)
    assert cnf == CNF(n_vars=3, clauses=((1, -2, 3), (-1, 2)), declared_clauses=2)
    assert cnf.to_dimacs() == "p cnf 3 2\n1 -2 3 0\n-1 2 0\n"


def test_trailer_refused_for_agents() -> None:
    with pytest.raises(ParseError, match="'%'"):
        parse_dimacs("p cnf 1 1\n1 0\n%\n0\n")


def test_clauses_may_span_lines_and_header_is_optional() -> None:
    cnf = parse_dimacs("1 2\n3 0 -1 0")
    assert cnf.clauses == ((1, 2, 3), (-1,))
    assert cnf.n_vars == 3
    assert cnf.declared_clauses is None


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("p cnf 2 1\n1 3 0\n", "exceeds the header"),
        ("1 x 0\n", "not an integer"),
        ("1 2\n", "does not end with 0"),
        ("1 0\np cnf 1 1\n", "before every clause"),
        ("p cnf 2\n1 0\n", "header must read"),
        ("p cnf 2 1\np cnf 2 1\n1 0\n", "second"),
    ],
)
def test_malformed_dimacs_names_the_problem(text: str, reason: str) -> None:
    with pytest.raises(ParseError, match=reason):
        parse_dimacs(text)


def test_strip_fence() -> None:
    assert strip_fence("```dimacs\np cnf 1 1\n1 0\n```") == "p cnf 1 1\n1 0"
    assert strip_fence("  1 0  ") == "1 0"


def test_answer_formats() -> None:
    expected = Assignment((1, -2, 3))
    assert parse_answer("v 1 -2 3 0", 3) == expected
    assert parse_answer("s SATISFIABLE\nv 1 -2\nv 3 0\n", 3) == expected
    assert parse_answer("3, -2, 1", 3) == expected
    assert parse_answer("```\n-2 3 1\n```", 3) == expected
    assert parse_answer("UNSAT", 3) == UnsatClaim()
    assert parse_answer("  s unsatisfiable ", 3) == UnsatClaim()


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("v 1 -2 0", r"have no value \(3\)"),
        ("1 2 3 -2", "both true and false"),
        ("1 2 3 2", "more than once"),
        ("1 -2 3 4", "out of range"),
        ("1 -2 true", "not a signed integer"),
        ("1 0 -2 3", "only end the list"),
        ("", "empty"),
        ("maybe unsat", "not a signed integer"),
    ],
)
def test_bad_answers_name_the_problem(text: str, reason: str) -> None:
    with pytest.raises(ParseError, match=reason):
        parse_answer(text, 3)


def test_solver_sat_unsat_and_model() -> None:
    sat = solve([(1, 2), (-1,)], SolverBudget())
    assert sat.status == "sat"
    assert sat.model is not None and 2 in sat.model and -1 in sat.model
    assert solve([(1,), (-1,)], SolverBudget()).status == "unsat"
    assert solve([()], SolverBudget()).status == "unsat"


def test_conflict_budget_exhaustion_is_unknown() -> None:
    outcome = solve(_pigeonhole(7), SolverBudget(conflicts=10))
    assert outcome.status == "unknown"
    assert "10 conflicts" in outcome.reason


def test_time_limit_interrupts() -> None:
    outcome = solve(_pigeonhole(11), SolverBudget(conflicts=10_000_000, seconds=0.2))
    assert outcome.status == "unknown"
    assert "time limit" in outcome.reason
    assert outcome.seconds < 5


def test_budget_must_be_positive() -> None:
    with pytest.raises(ValueError):
        SolverBudget(conflicts=0)
