"""What crosses the pipe between the judge and the solution's process: values as plain data.

Both sandboxed scripts import this file (stdlib only: it is copied into the sandbox as
`cm_wire.py`). The judge compares only what it decodes here, and decoding builds nothing but
builtin values and a few `collections` types, so no object of the solution's making (an
`__eq__` that always says True, a list subclass that lies about its length) ever reaches a
comparison. A subclass of a builtin type travels as its base type's data (a namedtuple as a
tuple, an IntEnum as an int), read through the base type's own methods; any other object stays
in the solution's process and crosses as an opaque reference, which equals only itself.

Builtins cross by name only when holding one gives nothing the tests did not already have: the
builtin types and the pure functions in `PURE_BUILTIN_FUNCTIONS`. `exec`, `open`, `getattr`,
`globals` and the like stay in the solution's process as references, and a message that names
one anyway (the solution can rewrite its copy of this file) is refused when decoded, so no
callable of the solution's choosing ever runs in the judge.
"""

from __future__ import annotations

import builtins
import collections
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs milliseconds to import, paid on every check in both processes
    from collections.abc import Callable
    from typing import Any

    Opaque = Callable[[object], list[Any]]
    """Encodes an object that is not plain data (the solution side keeps it, sends a reference)."""
    Resolve = Callable[[list[Any]], object]
    """Decodes a reference back to an object (the judge's handle, or the solution's original)."""

MAX_DEPTH = 64
"""Containers nested deeper than this are refused (a self-containing list would never end)."""
MAX_LINE_BYTES = 16 << 20
"""The longest message either side reads; a longer one ends the conversation."""
DETAIL_CHARS = 400
SOLUTION_FILE = "solution.py"
_SMALL_INT = 1 << 62
_BUILTIN_FUNCTION = type(len)
PURE_BUILTIN_FUNCTIONS = frozenset(
    {
        "abs", "aiter", "all", "anext", "any", "ascii", "bin", "callable", "chr", "divmod", "format",
        "hash", "hex", "id", "isinstance", "issubclass", "iter", "len", "max", "min", "next", "oct",
        "ord", "pow", "repr", "round", "sorted", "sum",
    }
)
"""Builtin functions that only compute on the arguments they are given, so one named by the
solution can be rebuilt in the judge. The others (exec, eval, compile, open, __import__, getattr,
setattr, delattr, hasattr, dir, vars, globals, locals, print, input, breakpoint, __build_class__)
read or change the state of the process they run in."""


class WireError(ValueError):
    """A value that cannot be sent, or a message that is not a well-formed value."""


def _factory_name(factory: object) -> str | None:
    for name, made in _FACTORIES.items():
        if made is not None and factory is made:
            return name
    return None


def encode(value: object, opaque: Opaque, depth: int = 0) -> Any:
    """`value` as JSON-ready data; objects that are not data go through `opaque`.

    Every container and scalar is read through its builtin base type's own methods, so a
    subclass's overrides (`__iter__`, `__eq__`, `__str__`) have no say in what is sent.
    """
    if depth > MAX_DEPTH:
        raise WireError(f"the value is nested more than {MAX_DEPTH} levels deep")
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        number = int.__index__(value)
        return number if -_SMALL_INT < number < _SMALL_INT else ["I", hex(number)]
    if isinstance(value, float):
        return ["F", repr(float.__float__(value))]
    if isinstance(value, str):
        return str.__str__(value)
    down = depth + 1
    if isinstance(value, list):
        return ["l", [encode(item, opaque, down) for item in list.__iter__(value)]]
    if isinstance(value, tuple):
        return ["t", [encode(item, opaque, down) for item in tuple.__iter__(value)]]
    if isinstance(value, dict):
        return _encode_mapping(value, opaque, down)
    if isinstance(value, set):
        return ["s", [encode(item, opaque, down) for item in set.__iter__(value)]]
    if isinstance(value, frozenset):
        return ["f", [encode(item, opaque, down) for item in frozenset.__iter__(value)]]
    if isinstance(value, collections.deque):
        items = [encode(item, opaque, down) for item in collections.deque.__iter__(value)]
        return ["Q", items, value.maxlen]
    if type(value) is complex:
        return ["c", repr(value.real), repr(value.imag)]
    if isinstance(value, bytes):
        return ["b", bytes.hex(value)]
    if isinstance(value, bytearray):
        return ["ba", bytearray.hex(value)]
    return _encode_builtin(value) or _encode_number(value) or opaque(value)


def _encode_builtin(value: object) -> list[Any] | None:
    """A builtin type or pure function (MBPP passes `int` as an argument) as its name."""
    if isinstance(value, type | _BUILTIN_FUNCTION):
        name = getattr(value, "__name__", None)
        if isinstance(name, str) and builtins.__dict__.get(name) is value and _rebuildable(name):
            return ["B", name]
    return None


def _rebuildable(name: str) -> bool:
    found = builtins.__dict__.get(name)
    return isinstance(found, type) or (isinstance(found, _BUILTIN_FUNCTION) and name in PURE_BUILTIN_FUNCTIONS)


def _encode_number(value: object) -> list[Any] | None:
    """Fractions and Decimals as their exact parts (imported only when already loaded: a value
    of one exists only if the solution imported its module, and the import would cost every check)."""
    if "fractions" in sys.modules:
        from fractions import Fraction

        if type(value) is Fraction:
            return ["Fr", hex(value.numerator), hex(value.denominator)]
    if "decimal" in sys.modules:
        from decimal import Decimal

        if type(value) is Decimal:
            return ["De", str(value)]
    return None


def _encode_mapping(value: dict[Any, Any], opaque: Opaque, depth: int) -> list[Any]:
    pairs = [[encode(key, opaque, depth), encode(item, opaque, depth)] for key, item in dict.items(value)]
    if isinstance(value, collections.defaultdict):
        return ["D", _factory_name(value.default_factory), pairs]
    if isinstance(value, collections.Counter):
        return ["C", pairs]
    if isinstance(value, collections.OrderedDict):
        return ["O", pairs]
    return ["d", pairs]


_FACTORIES: dict[str | None, Callable[[], object] | None] = {
    None: None,
    "list": list,
    "dict": dict,
    "set": set,
    "int": int,
    "float": float,
    "str": str,
    "tuple": tuple,
}


def decode(data: Any, resolve: Resolve, depth: int = 0) -> object:
    """The value `encode` made; raises WireError on anything that is not such data."""
    if depth > MAX_DEPTH + 1:
        raise WireError(f"the value is nested more than {MAX_DEPTH} levels deep")
    if data is None or type(data) in (bool, str):
        return data
    if type(data) is int:
        return data
    if type(data) is not list or not data or type(data[0]) is not str:
        raise WireError(f"not a value: {str(data)[:80]}")
    try:
        return _decode_tagged(data, resolve, depth + 1)
    except (TypeError, ValueError, IndexError, OverflowError, KeyError, ArithmeticError) as error:
        if isinstance(error, WireError):
            raise
        raise WireError(f"not a value: {type(error).__name__}: {error}") from error


def _decode_tagged(data: list[Any], resolve: Resolve, depth: int) -> object:
    tag = data[0]
    if tag == "I":
        return int(data[1], 16)
    if tag == "F":
        return float(_text(data[1]))
    if tag == "c":
        return complex(float(_text(data[1])), float(_text(data[2])))
    if tag in ("b", "ba"):
        raw = bytes.fromhex(_text(data[1]))
        return raw if tag == "b" else bytearray(raw)
    if tag == "r":
        return resolve(data)
    if tag == "B":
        name = _text(data[1])
        if not _rebuildable(name):
            raise WireError(
                f"{name[:40]!r} is not a builtin type or pure builtin function; a builtin such as exec or "
                "open crosses only as a reference to the process that holds it"
            )
        return builtins.__dict__[name]
    if tag == "Fr":
        import fractions

        return fractions.Fraction(int(_text(data[1]), 16), int(_text(data[2]), 16))
    if tag == "De":
        import decimal

        return decimal.Decimal(_text(data[1]))
    if tag == "D":
        factory = _FACTORIES[data[1]]
        return collections.defaultdict(factory, _decode_pairs(_items(data[2]), resolve, depth))
    items = _items(data[1])
    if tag == "l":
        return [decode(item, resolve, depth) for item in items]
    if tag == "t":
        return tuple(decode(item, resolve, depth) for item in items)
    if tag in ("s", "f"):
        members = [decode(item, resolve, depth) for item in items]
        return set(members) if tag == "s" else frozenset(members)
    if tag == "Q":
        maxlen = data[2]
        if maxlen is not None and type(maxlen) is not int:
            raise WireError("a deque's maxlen must be an int")
        return collections.deque((decode(item, resolve, depth) for item in items), maxlen)
    if tag in ("d", "C", "O"):
        pairs = _decode_pairs(items, resolve, depth)
        if tag == "C":
            return collections.Counter(dict(pairs))  # Counter(pairs) would count the pairs
        return dict(pairs) if tag == "d" else collections.OrderedDict(pairs)
    raise WireError(f"unknown value tag {tag!r}")


def _decode_pairs(items: list[Any], resolve: Resolve, depth: int) -> list[tuple[object, object]]:
    pairs = []
    for pair in items:
        if type(pair) is not list or len(pair) != 2:
            raise WireError("a mapping entry must be a [key, value] pair")
        pairs.append((decode(pair[0], resolve, depth), decode(pair[1], resolve, depth)))
    return pairs


def _items(data: object) -> list[Any]:
    if not isinstance(data, list):
        raise WireError("a container's items must be a list")
    return data


def _text(data: object) -> str:
    if not isinstance(data, str):
        raise WireError("expected text")
    return data


def describe(error: BaseException) -> str:
    """One line for an exception, naming the solution's line where it passed through it."""
    import traceback  # only errors need it

    where = ""
    for frame, line in traceback.walk_tb(error.__traceback__):
        if frame.f_code.co_filename == SOLUTION_FILE:
            where = f" ({SOLUTION_FILE} line {line})"
    text = "".join(traceback.format_exception_only(type(error), error)).strip()
    return (text + where)[:DETAIL_CHARS]
