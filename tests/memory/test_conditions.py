import random

import pytest

from countermem.core import CountermemError, Facts, ParseError
from countermem.memory import (
    And,
    Compare,
    Condition,
    ConditionError,
    FactRef,
    Literal,
    Member,
    Not,
    Or,
    Truthy,
    Universal,
    parse_condition,
)

FACTS = Facts(
    values={
        "n_vars": 30,
        "ratio": 0.25,
        "logic": "QF_LIA",
        "columns": ("id", "Name", "created_at"),
        "query": "SELECT name FROM users JOIN orders",
        "uses_join": True,
        "has_limit": False,
        "n_empty": 0,
    }
)


def holds(text: str) -> bool:
    return parse_condition(text).evaluate(FACTS)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("n_vars > 20", "n_vars > 20"),
        ("n_vars>20", "n_vars > 20"),
        ("logic = 'QF_LIA'", 'logic == "QF_LIA"'),
        ('logic <> "QF_BV"', 'logic != "QF_BV"'),
        ('"id" in columns', '"id" in columns'),
        ('has(columns, "id")', '"id" in columns'),
        ('"id" not in columns', 'not "id" in columns'),
        ("a && b || !c", "a and b or not c"),
        ("a AND NOT (b OR c)", "a and not (b or c)"),
        ("(a and b) and c", "a and b and c"),
        ("a or (b or c)", "a or b or c"),
        ("a and (b or c)", "a and (b or c)"),
        ("`n_vars >= 3`", "n_vars >= 3"),
        ("n_vars <= 3.", "n_vars <= 3"),
        ("ratio < 2.5e-1", "ratio < 0.25"),
        ("n > -3", "n > -3"),
        ("uses_join == TRUE", "uses_join == true"),
        ("3 < n_vars", "3 < n_vars"),
        ("not not a", "not not a"),
        ('s == "say \\"hi\\""', 's == "say \\"hi\\""'),
        ("none", "none"),
        ("None.", "none"),
        ("  ", "none"),
        ("always", "none"),
    ],
)
def test_canonical_form_round_trips(text: str, canonical: str) -> None:
    condition = parse_condition(text)
    assert str(condition) == canonical
    assert parse_condition(str(condition)) == condition


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("n_vars > 20", True),
        ("n_vars > 30", False),
        ("n_vars >= 30 and ratio < 0.5", True),
        ('logic == "qf_lia"', True),
        ('logic != "qf_lia"', False),
        ('"NAME" in columns', True),
        ('"email" in columns', False),
        ('"email" not in columns', True),
        ('has(columns, "created_at")', True),
        ('"join orders" in query', True),
        ("uses_join", True),
        ("has_limit", False),
        ("!has_limit", True),
        ("n_empty", False),
        ("uses_join == true and has_limit == false", True),
        ("n_vars > 100 or uses_join", True),
        ("(n_vars > 100 or uses_join) and not has_limit", True),
        ("10 < n_vars", True),
    ],
)
def test_evaluation(text: str, expected: bool) -> None:
    assert holds(text) is expected


@pytest.mark.parametrize(
    "text",
    [
        "missing > 3",
        "not missing > 3",
        "missing != 3",
        "not (missing > 3)",
        '"x" not in missing',
        "missing",
        "not missing",
        "missing > 3 and uses_join",
        "logic > 3",  # ordering on a string
        'n_vars == "30"',  # number against string
        "uses_join > 0",  # bool is not a number
        '"id" in n_vars',  # membership in a number
        'columns == "id"',  # tuple against string
    ],
)
def test_unknown_never_applies(text: str) -> None:
    assert holds(text) is False


def test_kleene_logic_decides_when_unknown_cannot_matter() -> None:
    assert holds("missing > 3 or uses_join") is True
    assert holds("not (missing > 3 and has_limit)") is True


def test_universal_applies_everywhere() -> None:
    condition = parse_condition("none")
    assert isinstance(condition, Universal)
    assert condition.is_universal
    assert condition.evaluate(Facts())
    assert condition.facts_used() == frozenset()
    assert not parse_condition("n_vars > 1").is_universal


def test_facts_used() -> None:
    condition = parse_condition('n_vars > 3 and ("id" in columns or not uses_join) and a == b')
    assert condition.facts_used() == {"n_vars", "columns", "uses_join", "a", "b"}


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("n_vars >", 8),
        ("n_vars > > 3", 9),
        ("1 == 2", 5),
        ("applies to all tasks", 8),
        ('"unterminated', 0),
        ("n_vars @ 3", 7),
        ("id in columns", 0),
        ("(n_vars > 3", 11),
        ("has(columns, id)", 13),
        ("n_vars > 3 and", 14),
        ("none and n_vars > 3", 0),
        ("n_vars > 3 or always", 14),
    ],
)
def test_unparseable_conditions_raise_with_position(text: str, position: int) -> None:
    with pytest.raises(ConditionError) as caught:
        parse_condition(text)
    assert caught.value.position == position
    assert f"position {position}" in str(caught.value)
    assert isinstance(caught.value, ParseError)
    assert isinstance(caught.value, CountermemError)


def test_a_bare_unknown_word_is_a_fact_test_that_never_applies_not_universal() -> None:
    condition = parse_condition("universal")
    assert condition == Truthy(FactRef("universal"))
    assert not condition.is_universal
    assert condition.evaluate(FACTS) is False


def _random_condition(rng: random.Random, depth: int) -> Condition:
    names = ["a", "n_vars", "columns", "logic"]
    literals: list[bool | int | float | str] = [
        3,
        -2,
        0.5,
        1e-05,
        "QF_LIA",
        'it"s',
        "back\\slash",
        True,
        False,
    ]
    if depth == 0 or rng.random() < 0.3:
        kind = rng.randrange(3)
        if kind == 0:
            op = rng.choice(["==", "!=", "<", "<=", ">", ">="])
            left = FactRef(rng.choice(names))
            right: FactRef | Literal = Literal(rng.choice(literals)) if rng.random() < 0.8 else FactRef("b")
            return Compare(left, op, right) if rng.random() < 0.7 else Compare(right, op, left)  # type: ignore[arg-type]
        if kind == 1:
            return Member(rng.choice(["id", "x y", 'q"']), FactRef(rng.choice(names)))
        return Truthy(FactRef(rng.choice(names)))
    kind = rng.randrange(3)
    if kind == 0:
        return Not(_random_condition(rng, depth - 1))
    parts = tuple(_random_condition(rng, depth - 1) for _ in range(rng.randint(2, 3)))
    flat: list[Condition] = []
    cls = And if kind == 1 else Or
    for part in parts:
        flat.extend(part.operands if isinstance(part, cls) else (part,))
    return cls(tuple(flat))


def test_random_conditions_round_trip_through_text() -> None:
    rng = random.Random(7)
    for _ in range(300):
        condition = _random_condition(rng, 4)
        assert parse_condition(str(condition)) == condition, str(condition)


def test_nesting_is_limited_so_no_condition_can_exhaust_the_stack() -> None:
    from countermem.memory._conditions import MAX_DEPTH

    ok = "(" * MAX_DEPTH + "n_vars > 1" + ")" * MAX_DEPTH
    assert parse_condition(ok).evaluate(Facts(values={"n_vars": 2}))
    assert str(parse_condition("not " * MAX_DEPTH + "flag")) == "not " * MAX_DEPTH + "flag"
    for deep in (
        "(" * 300 + "n_vars > 1" + ")" * 300,
        "not " * 300 + "flag",
        "(" * (MAX_DEPTH + 1) + "n_vars > 1" + ")" * (MAX_DEPTH + 1),
        "(not " * 20 + "(flag" + ")" * 21,
    ):
        with pytest.raises(ConditionError, match="nested too deeply"):
            parse_condition(deep)
