"""The judge/solution wire: values cross as plain data and come back as builtins only."""

from __future__ import annotations

import collections
import decimal
import fractions
import math
from typing import Any

import pytest

from countermem.domains.coding._source import free_globals
from countermem.domains.coding._wire import MAX_DEPTH, WireError, decode, describe, encode


def _no_objects(value: object) -> list[Any]:
    raise WireError(f"unexpected object {value!r}")


def _no_refs(data: list[Any]) -> object:
    raise WireError(f"unexpected reference {data!r}")


def _round_trip(value: object) -> object:
    return decode(encode(value, _no_objects), _no_refs)


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        False,
        0,
        -7,
        10**400,
        -(2**70),
        1.5,
        -0.0,
        math.inf,
        "text ✓",
        b"\x00\xff",
        bytearray(b"ab"),
        3 + 4j,
        [1, [2.0, "x"], (3, None)],
        (1, (2, (3,))),
        {(1, 2): {"a": [1]}, frozenset({1}): None},
        {1, 2, 3},
        frozenset({"a"}),
        collections.Counter("abca"),
        collections.OrderedDict([("b", 1), ("a", 2)]),
        collections.deque([1, 2], maxlen=5),
        fractions.Fraction(-(10**30), 7),
        decimal.Decimal("-1.2500E+7"),
        [int, str, len, ValueError],
    ],
)
def test_builtin_values_round_trip_with_their_types(value: object) -> None:
    back = _round_trip(value)
    assert back == value and type(back) is type(value)


def test_bool_stays_distinct_from_int_and_nan_survives() -> None:
    assert _round_trip([True, 1]) == [True, 1]
    assert [type(x) for x in _round_trip([True, 1])] == [bool, int]  # type: ignore[attr-defined]
    assert math.isnan(_round_trip(math.nan))  # type: ignore[arg-type]


def test_defaultdict_keeps_a_builtin_factory_only() -> None:
    plain = _round_trip(collections.defaultdict(list, {"a": [1]}))
    assert (
        isinstance(plain, collections.defaultdict) and plain.default_factory is list and plain == {"a": [1]}
    )
    custom = _round_trip(collections.defaultdict(lambda: 0, {"a": 1}))
    assert isinstance(custom, collections.defaultdict) and custom.default_factory is None


class _LyingList(list[int]):
    def __eq__(self, other: object) -> bool:
        return True

    def __iter__(self) -> Any:
        return iter([42])


class _LyingInt(int):
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = int.__hash__


class _Point(collections.namedtuple("_Point", "x y")):
    pass


def test_subclasses_cross_as_their_base_types_data() -> None:
    lying = _LyingList([1, 2])
    back = _round_trip(lying)
    assert type(back) is list and back == [1, 2]
    number = _round_trip(_LyingInt(5))
    assert type(number) is int and number == 5 and number != 6
    point = _round_trip(_Point(1, 2))
    assert type(point) is tuple and point == (1, 2)


def test_other_objects_go_through_the_opaque_hook() -> None:
    seen: list[object] = []

    def keep(value: object) -> list[Any]:
        seen.append(value)
        return ["r", len(seen) - 1, type(value).__name__, callable(value)]

    marker = object()
    function = lambda: 0  # noqa: E731
    data = encode([marker, function], keep)
    assert data == ["l", [["r", 0, "object", False], ["r", 1, "function", True]]]
    assert decode(data, lambda ref: seen[ref[1]]) == [marker, function]


def test_nesting_is_bounded_both_ways() -> None:
    looped: list[object] = []
    looped.append(looped)
    with pytest.raises(WireError):
        encode(looped, _no_objects)
    deep: Any = 0
    for _ in range(MAX_DEPTH + 5):
        deep = ["l", [deep]]
    with pytest.raises(WireError):
        decode(deep, _no_refs)


@pytest.mark.parametrize(
    "data",
    [
        ["zz", []],
        ["l", "not a list"],
        ["d", [[1]]],
        ["d", [[["l", []], 1]]],
        ["I", 5],
        ["F", 1.5],
        ["D", "os.system", []],
        ["Q", [], "3"],
        ["Fr", "0x1", "0x0"],
        ["B", "__name__"],
        ["B", "no_such_builtin"],
        ["De", "not a number"],
        {"a": 1},
        1.5,
        [],
    ],
)
def test_malformed_data_is_refused(data: object) -> None:
    with pytest.raises(WireError):
        decode(data, _no_refs)


def test_describe_names_the_solutions_line() -> None:
    namespace: dict[str, Any] = {}
    exec(compile("def f():\n    return 1 // 0\n", "solution.py", "exec"), namespace)
    try:
        namespace["f"]()
    except ZeroDivisionError as error:
        text = describe(error)
    assert text == "ZeroDivisionError: integer division or modulo by zero (solution.py line 2)"


def test_free_globals_are_what_the_tests_read_but_do_not_define() -> None:
    source = (
        "import math\nroot = Node(1)\ndef check(candidate):\n    x = [candidate(i) for i in range(3)]\n"
        "    assert poly(x) == math.pi\n    global seen\n    seen = 1\nassert f(seen) == 2\n"
    )
    assert free_globals(source) == ("Node", "f", "poly")


_STATEFUL_BUILTINS = ["exec", "eval", "compile", "open", "__import__", "getattr", "setattr", "delattr", "hasattr",
                      "dir", "vars", "globals", "locals", "print", "input", "breakpoint", "__build_class__"]


@pytest.mark.parametrize("name", _STATEFUL_BUILTINS)
def test_a_builtin_that_acts_on_its_process_never_crosses_by_name(name: str) -> None:
    """Decoded in the judge, `["B", "exec"]` would hand the solution's choice of exec to the tests."""
    import builtins

    with pytest.raises(WireError, match="crosses only as a reference"):
        decode(["B", name], _no_refs)
    kept: list[object] = []

    def keep(value: object) -> list[Any]:
        kept.append(value)
        return ["r", 0, type(value).__name__, True]

    assert encode(vars(builtins)[name], keep) == ["r", 0, "builtin_function_or_method", True]
    assert kept == [vars(builtins)[name]]


def test_builtin_types_and_pure_functions_still_cross_by_name() -> None:
    assert encode([int, type, ValueError, len, sorted], _no_objects) == [
        "l", [["B", "int"], ["B", "type"], ["B", "ValueError"], ["B", "len"], ["B", "sorted"]]
    ]
