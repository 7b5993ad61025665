"""A small S-expression reader for agent-written text (strategies and SMT-LIB scripts).

Agent text is untrusted, so it is read by this pure-Python reader with explicit size and depth
limits before anything reaches z3: a strategy is built from the parsed tree, never evaluated,
and an encoding's top-level commands are filtered by name before z3 sees the script.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from countermem.core import ParseError

MAX_DEPTH = 64
_FENCE = re.compile(r"```[A-Za-z0-9_+.-]*[ \t]*\n?(.*?)```", re.DOTALL)


@dataclass(frozen=True)
class Atom:
    text: str
    quoted: bool = False
    """True for a `|quoted symbol|` or a `"string"`; such atoms never name a keyword."""
    is_string: bool = False


SExpr = Atom | tuple["SExpr", ...]


@dataclass(frozen=True)
class TopLevel:
    """One top-level S-expression and the exact source text it came from."""

    expr: SExpr
    source: str


def _tokens(text: str) -> list[tuple[str, int, int]]:
    """Split into `(kind, start, end)`: kind is '(', ')', 'atom', 'qsym' or 'string'."""
    tokens: list[tuple[str, int, int]] = []
    index, size = 0, len(text)
    while index < size:
        char = text[index]
        if char.isspace():
            index += 1
        elif char == ";":
            newline = text.find("\n", index)
            index = size if newline < 0 else newline + 1
        elif char in "()":
            tokens.append((char, index, index + 1))
            index += 1
        elif char == "|":
            end = text.find("|", index + 1)
            if end < 0:
                raise ParseError(f"unterminated |quoted symbol| starting at character {index}")
            tokens.append(("qsym", index, end + 1))
            index = end + 1
        elif char == '"':
            end = index + 1
            while True:
                end = text.find('"', end)
                if end < 0:
                    raise ParseError(f'unterminated "string" starting at character {index}')
                if end + 1 < size and text[end + 1] == '"':
                    end += 2
                    continue
                break
            tokens.append(("string", index, end + 1))
            index = end + 1
        else:
            end = index
            while end < size and not text[end].isspace() and text[end] not in '();|"':
                end += 1
            tokens.append(("atom", index, end))
            index = end
    return tokens


def read_all(text: str, max_chars: int) -> list[TopLevel]:
    """Read every top-level S-expression; raise ParseError saying where the text is malformed."""
    if len(text) > max_chars:
        raise ParseError(f"text has {len(text)} characters; the limit is {max_chars}")
    tokens = _tokens(text)
    out: list[TopLevel] = []
    stack: list[tuple[list[SExpr], int]] = []
    for kind, start, end in tokens:
        if kind == "(":
            if len(stack) >= MAX_DEPTH:
                raise ParseError(f"expression nests deeper than {MAX_DEPTH} levels")
            stack.append(([], start))
            continue
        if kind == ")":
            if not stack:
                raise ParseError(f"unbalanced ')' at character {start}")
            items, opened = stack.pop()
            node: SExpr = tuple(items)
            if stack:
                stack[-1][0].append(node)
            else:
                out.append(TopLevel(expr=node, source=text[opened:end]))
            continue
        raw = text[start:end]
        atom = Atom(
            text=raw[1:-1] if kind in ("qsym", "string") else raw,
            quoted=kind in ("qsym", "string"),
            is_string=kind == "string",
        )
        if stack:
            stack[-1][0].append(atom)
        else:
            out.append(TopLevel(expr=atom, source=raw))
    if stack:
        raise ParseError(f"{len(stack)} unclosed '(' (first opened at character {stack[0][1]})")
    return out


def head(expr: SExpr) -> str | None:
    """The unquoted leading symbol of a list, if it has one."""
    if isinstance(expr, tuple) and expr and isinstance(expr[0], Atom) and not expr[0].quoted:
        return expr[0].text
    return None


def render(expr: SExpr) -> str:
    if isinstance(expr, Atom):
        if expr.is_string:
            return '"' + expr.text + '"'
        return f"|{expr.text}|" if expr.quoted else expr.text
    return "(" + " ".join(render(item) for item in expr) + ")"


def strip_fence(text: str) -> str:
    """The content of the first markdown code fence, or the text itself when it has none."""
    fence = _FENCE.search(text)
    return fence.group(1) if fence is not None else text


def symbols(expr: SExpr) -> set[str]:
    """Every unquoted symbol in an expression (for facts such as "uses ite")."""
    if isinstance(expr, Atom):
        return set() if expr.quoted else {expr.text}
    found: set[str] = set()
    for item in expr:
        found |= symbols(item)
    return found
