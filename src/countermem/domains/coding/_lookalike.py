"""Look-alike tasks: same function name and signature, a different contract.

A look-alike keeps the task's function but changes what it must return by one documented
transformation of the original result (negate a truth value, add one to an integer, reverse a
string or sequence). The tests are the original asserts with each expected literal transformed,
and the reference solution is the original one wrapped in the same transformation, so both
stay honest by construction: a correction learned on the original task is wrong here.

Only tasks whose every non-constant assert has the form `f(...) == <literal>` can be transformed
this way, and a transformation is used only if it changes at least one expected value; other
tasks have no look-alikes (HumanEval and MBPP have many that qualify).
"""

from __future__ import annotations

import ast
import random
from collections.abc import Callable
from dataclasses import dataclass

from countermem.domains.coding._source import quiet_parse, renamed


@dataclass(frozen=True)
class Transform:
    name: str
    accepts: Callable[[object], bool]
    apply: Callable[[object], object]
    expression: str
    """The transformation as Python over the original result `_r`, for the wrapped reference."""
    contract: str
    """One sentence that states the new contract relative to the original description."""


def _negate(value: object) -> object:
    return not value


def _plus_one(value: object) -> object:
    assert isinstance(value, int)
    return value + 1


def _reverse(value: object) -> object:
    assert isinstance(value, str | list | tuple)
    return value[::-1]


TRANSFORMS: tuple[Transform, ...] = (
    Transform(
        "negated",
        lambda v: isinstance(v, bool),
        _negate,
        "not _r",
        "Return the opposite truth value of what the original description asks for "
        "(True where it would give False, and False where it would give True).",
    ),
    Transform(
        "plus_one",
        lambda v: isinstance(v, int) and not isinstance(v, bool),
        _plus_one,
        "_r + 1",
        "Return one more than the number the original description asks for.",
    ),
    Transform(
        "reversed",
        lambda v: isinstance(v, str | list | tuple),
        _reverse,
        "_r[::-1]",
        "Return the result the original description asks for, reversed (last item first).",
    ),
)


def _expected_literal(node: ast.Assert, caller: str) -> ast.expr | None:
    test = node.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return None
    left = test.left
    if not (isinstance(left, ast.Call) and isinstance(left.func, ast.Name) and left.func.id == caller):
        return None
    return test.comparators[0]


def expected_values(sources: list[str], caller: str) -> list[object] | None:
    """The expected literal of every assert in `sources`, or None if any assert is of another form."""
    values: list[object] = []
    for source in sources:
        for node in ast.walk(quiet_parse(source)):
            if not isinstance(node, ast.Assert) or isinstance(node.test, ast.Constant):
                continue
            literal = _expected_literal(node, caller)
            if literal is None:
                return None
            try:
                values.append(ast.literal_eval(literal))
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                return None
    return values or None


def applicable(sources: list[str], caller: str, rng: random.Random) -> list[Transform]:
    values = expected_values(sources, caller)
    if values is None:
        return []
    found = [
        t for t in TRANSFORMS if all(t.accepts(v) for v in values) and any(t.apply(v) != v for v in values)
    ]
    rng.shuffle(found)
    return found


class _Replace(ast.NodeTransformer):
    def __init__(self, caller: str, transform: Transform) -> None:
        self.caller = caller
        self.transform = transform

    def visit_Assert(self, node: ast.Assert) -> ast.Assert:
        literal = _expected_literal(node, self.caller)
        if literal is not None and isinstance(node.test, ast.Compare):
            value = self.transform.apply(ast.literal_eval(literal))
            node.test.comparators = [ast.parse(repr(value), mode="eval").body]
        return node


def transformed_tests(source: str, caller: str, transform: Transform) -> str:
    tree = _Replace(caller, transform).visit(quiet_parse(source))
    return ast.unparse(ast.fix_missing_locations(tree))


def wrapped_reference(gold: str, entry_point: str, transform: Transform) -> str:
    """The original reference renamed, and a new `entry_point` that transforms its result."""
    inner = f"_cm_original_{entry_point}"
    return (
        renamed(gold, entry_point, inner)
        + f"\n\ndef {entry_point}(*args, **kwargs):\n"
        + f"    _r = {inner}(*args, **kwargs)\n"
        + f"    return {transform.expression}\n"
    )


def docstring_with_contract(prompt: str, entry_point: str, contract: str) -> str | None:
    """`prompt` with `contract` put at the head of `entry_point`'s docstring, or None if it has none."""
    tree = quiet_parse(prompt)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == entry_point and ast.get_docstring(node):
            first = node.body[0]
            segment = ast.get_source_segment(prompt, first)
            if segment is None:
                return None
            quote = min((i for i in (segment.find('"""'), segment.find("'''")) if i >= 0), default=-1)
            if quote < 0:
                return None
            note = f"CHANGED CONTRACT: {contract} The text and examples below describe the original result. "
            updated = segment[: quote + 3] + note + segment[quote + 3 :]
            lines = prompt.splitlines(keepends=True)
            start = sum(len(line) for line in lines[: first.lineno - 1]) + first.col_offset
            if prompt[start : start + len(segment)] != segment:
                return None
            result = prompt[:start] + updated + prompt[start + len(segment) :]
            quiet_parse(result)
            return result
    return None
