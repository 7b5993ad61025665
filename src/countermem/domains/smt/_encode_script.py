"""Reading an agent's SMT-LIB encoding before z3 sees it.

z3's SMT-LIB front end executes commands, and some commands touch the outside world
(`set-option :regular-output-channel` opens a file, `(include ...)` reads one), so the script
is split into top-level commands here and only a fixed list of declaration and assertion
commands is passed on. Commands that only ask for output (`check-sat`, `get-model`,
`get-value`, `exit`) and `set-info` are dropped; anything else is refused with its name.
"""

from __future__ import annotations

from dataclasses import dataclass

from countermem.core import ParseError
from countermem.domains.smt._sexpr import Atom, SExpr, head, read_all, render, strip_fence, symbols

MAX_SCRIPT_CHARS = 20_000
KEPT = frozenset({
    "set-logic", "declare-const", "declare-fun", "define-fun", "define-fun-rec", "define-funs-rec",
    "define-sort", "declare-sort", "declare-datatype", "declare-datatypes", "assert",
})
DROPPED = frozenset({"check-sat", "get-model", "get-value", "exit", "set-info"})


@dataclass(frozen=True)
class EncodingScript:
    """The commands z3 will read, and what the script declares (name -> sort text)."""

    text: str
    constants: dict[str, str]
    n_asserts: int
    heads: tuple[str, ...]
    symbols: frozenset[str]
    """Every unquoted symbol the kept commands use."""


def read_encoding(text: str) -> EncodingScript:
    """Filter and summarise a script; raise ParseError naming what is not allowed."""
    forms = read_all(strip_fence(text), MAX_SCRIPT_CHARS)
    kept: list[str] = []
    constants: dict[str, str] = {}
    heads: list[str] = []
    n_asserts = 0
    used: set[str] = set()
    for form in forms:
        name = head(form.expr)
        if name is None:
            raise ParseError(f"expected a command such as (assert ...), got {form.source[:60]!r}")
        if name in DROPPED:
            continue
        if name not in KEPT:
            raise ParseError(
                f"command ({name} ...) is not allowed in an encoding; use declare-const, declare-fun, "
                "define-fun, assert (check-sat and get-model are optional and ignored)"
            )
        heads.append(name)
        expr = form.expr
        assert isinstance(expr, tuple)
        if name == "declare-const" and len(expr) == 3:
            constants[_atom(expr[1])] = _sort_text(expr[2])
        elif name == "declare-fun" and len(expr) == 4 and expr[2] == ():
            constants[_atom(expr[1])] = _sort_text(expr[3])
        elif name == "assert":
            n_asserts += 1
        used |= symbols(expr)
        kept.append(form.source)
    if not kept:
        raise ParseError("the encoding has no declarations or assertions")
    return EncodingScript(
        text="\n".join(kept), constants=constants, n_asserts=n_asserts, heads=tuple(heads),
        symbols=frozenset(used),
    )


def _atom(expr: SExpr) -> str:
    return expr.text if isinstance(expr, Atom) else ""


def _sort_text(expr: SExpr) -> str:
    return render(expr)
