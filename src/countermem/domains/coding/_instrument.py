"""Rewrite a test suite so that every `assert` is judged on its own.

HumanEval's `check(candidate)` stops at the first failing assert, which would make utility
all-or-nothing. Each non-constant `assert` becomes a try/except that reports to a recorder and
carries on, so that utility can be the share of assert *sites* that hold. For `assert a <op> b`
the left value is kept, so a failure can say what the function returned. The rewrite runs here,
not in the sandbox, so a site's number and source line are known before the code runs.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import lru_cache

from countermem.domains.coding._source import quiet_parse

RECORDER = "_cm_record"
ENTER = "_cm_enter"
_SITE_SOURCE_CHARS = 240

_COMPARE_TEMPLATE = f"""
try:
    {ENTER}(_CM_SITE)
    _cm_got = _CM_LEFT
    _cm_ok = bool(_cm_got == _CM_RIGHT)
except BaseException as _cm_exc:
    {RECORDER}(_CM_SITE, False, _cm_exc, None)
else:
    {RECORDER}(_CM_SITE, _cm_ok, None, _cm_got)
"""

_PLAIN_TEMPLATE = f"""
try:
    {ENTER}(_CM_SITE)
    _cm_ok = bool(_CM_TEST)
except BaseException as _cm_exc:
    {RECORDER}(_CM_SITE, False, _cm_exc, None)
else:
    {RECORDER}(_CM_SITE, _cm_ok, None, None)
"""


@dataclass(frozen=True)
class AssertSite:
    index: int
    line: int
    source: str


@dataclass(frozen=True)
class InstrumentedTest:
    source: str
    sites: tuple[AssertSite, ...]


class _Fill(ast.NodeTransformer):
    def __init__(self, values: dict[str, ast.expr], op: ast.cmpop | None) -> None:
        self.values = values
        self.op = op

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return self.values.get(node.id, node)

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        self.generic_visit(node)
        if self.op is not None and isinstance(node.left, ast.Name) and node.left.id == "_cm_got":
            node.ops = [self.op]
        return node


class _Rewrite(ast.NodeTransformer):
    def __init__(self) -> None:
        self.sites: list[AssertSite] = []

    def visit_Assert(self, node: ast.Assert) -> ast.stmt:
        if isinstance(node.test, ast.Constant):
            return node
        index = len(self.sites)
        self.sites.append(AssertSite(index, node.lineno, ast.unparse(node)[:_SITE_SOURCE_CHARS]))
        site = ast.Constant(index)
        if isinstance(node.test, ast.Compare) and len(node.test.ops) == 1:
            template = ast.parse(_COMPARE_TEMPLATE).body[0]
            values = {"_CM_LEFT": node.test.left, "_CM_RIGHT": node.test.comparators[0], "_CM_SITE": site}
            filled = _Fill(values, node.test.ops[0]).visit(template)
        else:
            template = ast.parse(_PLAIN_TEMPLATE).body[0]
            filled = _Fill({"_CM_TEST": node.test, "_CM_SITE": site}, None).visit(template)
        assert isinstance(filled, ast.stmt)
        return ast.copy_location(filled, node)


@lru_cache(maxsize=2048)
def instrument_asserts(test_source: str) -> InstrumentedTest:
    """Rewrite every non-constant assert of `test_source`; raises SyntaxError if it does not parse."""
    tree = quiet_parse(test_source)
    rewrite = _Rewrite()
    tree = rewrite.visit(tree)
    return InstrumentedTest(ast.unparse(ast.fix_missing_locations(tree)) + "\n", tuple(rewrite.sites))
