"""Applicability conditions: a tiny, deterministic predicate language over a decision's `Facts`.

Why a language of our own: a record must only be offered where it applies, and that test has to
be cheap, reproducible and readable by a person. Code evaluates it; no LLM judges it.

Grammar (keywords are case-insensitive; fact names are matched exactly as written)::

    condition  := "none" | "always" | "" | expr        -- universal; "none"/"always" are reserved
    expr       := and_expr ( ("or" | "||") and_expr )*
    and_expr   := not_expr ( ("and" | "&&") not_expr )*
    not_expr   := ("not" | "!") not_expr | atom
    atom       := "(" expr ")"
                | "has" "(" FACT "," STRING ")"        -- same as  STRING in FACT
                | STRING ["not"] "in" FACT              -- membership
                | operand OP operand                    -- at least one side is a FACT
                | FACT                                  -- the fact is truthy
    operand    := FACT | STRING | NUMBER | "true" | "false"
    OP         := "==" | "!=" | "<" | "<=" | ">" | ">="
    FACT       := [A-Za-z_][A-Za-z0-9_]*  (snake_case by convention, e.g. n_vars, columns)
    STRING     := "..." | '...'  (backslash escapes the quote and the backslash)
    NUMBER     := -?digits[.digits][e[+-]digits]

Leniency for what small LLMs write: `&&`, `||`, `!`, `AND`/`OR`/`NOT`, `=` for `==`, `<>` for `!=`,
one trailing period, and backticks around the whole condition are accepted. Anything else that
does not parse raises `ConditionError` with the position; an unparseable condition is NEVER
treated as universal, because a record offered everywhere by accident is the harm we guard against.

Semantics (three-valued, Kleene): a comparison whose fact is missing, or whose types do not fit
(a number against a string, `<` on strings), is *unknown*; `not unknown` is unknown, `false and
unknown` is false, `true or unknown` is true, and an unknown result at the top means the condition
does NOT apply. So a condition about a fact the domain does not report never applies, even under
`not`. Numbers compare numerically (bool is not a number). String equality and membership compare
case-insensitively (casefold): conditions name SQL columns, logics and identifiers that LLMs write
in varying case, and a record wrongly withheld costs less than never matching at all. Membership in
a tuple fact tests its elements; membership in a string fact tests for a substring. A bare fact is
truthy as in Python (non-zero number, non-empty string or tuple, `true`); so a stray word such as
`universal` is a test of a fact nobody reports, and never applies.

`str(condition)` prints a canonical form that parses back to an equal condition.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Literal as TypingLiteral
from typing import NamedTuple

from countermem.core import Facts, FactValue, ParseError

LiteralValue = bool | int | float | str
CompareOp = TypingLiteral["==", "!=", "<", "<=", ">", ">="]
MAX_DEPTH = 32
"""Most nested parentheses and `not`s a condition may have: deeper text is refused as it is parsed,
so no condition (written by an LLM or read back from a store) can exhaust Python's stack here or
in evaluating and printing it. Real conditions nest two or three levels."""
_EXAMPLE = 'e.g. `n_vars > 20 and "id" in columns`, or `none` for a universal condition'


class ConditionError(ParseError):
    """An applicability condition does not follow the grammar in `countermem.memory._conditions`."""

    def __init__(self, message: str, text: str, position: int) -> None:
        self.text = text
        self.position = position
        super().__init__(f"{message} at position {position} in condition {text!r}; write {_EXAMPLE}")


class Condition:
    """Base of the condition AST; every node is a frozen dataclass."""

    def evaluate(self, facts: Facts) -> bool:
        """Whether the record applies; unknown (missing fact, mismatched types) means it does not."""
        return self._eval3(facts) is True

    def _eval3(self, facts: Facts) -> bool | None:
        raise NotImplementedError

    def facts_used(self) -> frozenset[str]:
        raise NotImplementedError

    @property
    def is_universal(self) -> bool:
        return False


@dataclass(frozen=True)
class Universal(Condition):
    def _eval3(self, facts: Facts) -> bool | None:
        return True

    def facts_used(self) -> frozenset[str]:
        return frozenset()

    @property
    def is_universal(self) -> bool:
        return True

    def __str__(self) -> str:
        return "none"


@dataclass(frozen=True)
class FactRef:
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Literal:
    value: LiteralValue

    def __str__(self) -> str:
        return _format_literal(self.value)


Operand = FactRef | Literal


@dataclass(frozen=True)
class Compare(Condition):
    left: Operand
    op: CompareOp
    right: Operand

    def _eval3(self, facts: Facts) -> bool | None:
        left = _resolve(self.left, facts)
        right = _resolve(self.right, facts)
        if left is None or right is None:
            return None
        return _compare(left, self.op, right)

    def facts_used(self) -> frozenset[str]:
        return frozenset(o.name for o in (self.left, self.right) if isinstance(o, FactRef))

    def __str__(self) -> str:
        return f"{self.left} {self.op} {self.right}"


@dataclass(frozen=True)
class Member(Condition):
    item: str
    container: FactRef

    def _eval3(self, facts: Facts) -> bool | None:
        value = facts.get(self.container.name)
        needle = self.item.casefold()
        if isinstance(value, tuple):
            return any(isinstance(v, str) and v.casefold() == needle for v in value)
        if isinstance(value, str):
            return needle in value.casefold()
        return None

    def facts_used(self) -> frozenset[str]:
        return frozenset({self.container.name})

    def __str__(self) -> str:
        return f"{_format_literal(self.item)} in {self.container}"


@dataclass(frozen=True)
class Truthy(Condition):
    fact: FactRef

    def _eval3(self, facts: Facts) -> bool | None:
        value = facts.get(self.fact.name)
        if value is None:
            return None
        return bool(value)

    def facts_used(self) -> frozenset[str]:
        return frozenset({self.fact.name})

    def __str__(self) -> str:
        return str(self.fact)


@dataclass(frozen=True)
class Not(Condition):
    operand: Condition

    def _eval3(self, facts: Facts) -> bool | None:
        inner = self.operand._eval3(facts)
        return None if inner is None else not inner

    def facts_used(self) -> frozenset[str]:
        return self.operand.facts_used()

    def __str__(self) -> str:
        if isinstance(self.operand, And | Or):
            return f"not ({self.operand})"
        return f"not {self.operand}"


@dataclass(frozen=True)
class And(Condition):
    operands: tuple[Condition, ...]

    def _eval3(self, facts: Facts) -> bool | None:
        result: bool | None = True
        for operand in self.operands:
            value = operand._eval3(facts)
            if value is False:
                return False
            if value is None:
                result = None
        return result

    def facts_used(self) -> frozenset[str]:
        return frozenset().union(*(o.facts_used() for o in self.operands))

    def __str__(self) -> str:
        return " and ".join(f"({o})" if isinstance(o, Or) else str(o) for o in self.operands)


@dataclass(frozen=True)
class Or(Condition):
    operands: tuple[Condition, ...]

    def _eval3(self, facts: Facts) -> bool | None:
        result: bool | None = False
        for operand in self.operands:
            value = operand._eval3(facts)
            if value is True:
                return True
            if value is None:
                result = None
        return result

    def facts_used(self) -> frozenset[str]:
        return frozenset().union(*(o.facts_used() for o in self.operands))

    def __str__(self) -> str:
        return " or ".join(str(o) for o in self.operands)


def _format_literal(value: LiteralValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)


def _resolve(operand: Operand, facts: Facts) -> FactValue | None:
    if isinstance(operand, FactRef):
        return facts.get(operand.name)
    return operand.value


def _is_number(value: FactValue) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _compare(left: FactValue, op: CompareOp, right: FactValue) -> bool | None:
    if _is_number(left) and _is_number(right):
        a, b = float(left), float(right)  # type: ignore[arg-type]
        if op == "==":
            return a == b
        if op == "!=":
            return a != b
        if op == "<":
            return a < b
        if op == "<=":
            return a <= b
        if op == ">":
            return a > b
        return a >= b
    if op not in ("==", "!="):
        return None
    if isinstance(left, bool) and isinstance(right, bool):
        equal = left == right
    elif isinstance(left, str) and isinstance(right, str):
        equal = left.casefold() == right.casefold()
    else:
        return None
    return equal if op == "==" else not equal


# --- tokenizer -------------------------------------------------------------------------------

TokenKind = TypingLiteral[
    "lparen", "rparen", "comma", "op", "and", "or", "not", "in", "ident", "string", "number", "bool", "end"
]


class _Token(NamedTuple):
    kind: TokenKind
    text: str
    position: int
    value: LiteralValue | None = None


_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
    | (?P<string>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
    | (?P<number>-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
    | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<symbol>&&|\|\||==|!=|<>|<=|>=|<|>|=|!|\(|\)|,)
    """,
    re.VERBOSE | re.DOTALL,
)
_ESCAPE = re.compile(r"""\\([\\"'])""")
_WORDS: dict[str, TokenKind] = {"and": "and", "or": "or", "not": "not", "in": "in"}
_SYMBOLS: dict[str, tuple[TokenKind, str]] = {
    "&&": ("and", "and"),
    "||": ("or", "or"),
    "==": ("op", "=="),
    "!=": ("op", "!="),
    "<>": ("op", "!="),
    "<=": ("op", "<="),
    ">=": ("op", ">="),
    "<": ("op", "<"),
    ">": ("op", ">"),
    "=": ("op", "=="),
    "!": ("not", "not"),
    "(": ("lparen", "("),
    ")": ("rparen", ")"),
    ",": ("comma", ","),
}


def _tokenize(text: str, source: str, offset: int) -> list[_Token]:
    tokens: list[_Token] = []
    i = 0
    while i < len(text):
        match = _TOKEN.match(text, i)
        position = offset + i
        if match is None:
            if text[i] in "\"'":
                raise ConditionError("unterminated string literal", source, position)
            raise ConditionError(f"unexpected character {text[i]!r}", source, position)
        group, raw = match.lastgroup, match.group()
        i = match.end()
        if group == "string":
            value = _ESCAPE.sub(r"\1", raw[1:-1])
            tokens.append(_Token("string", value, position, value))
        elif group == "number":
            number = float(raw) if any(c in raw for c in ".eE") else int(raw)
            tokens.append(_Token("number", raw, position, number))
        elif group == "word":
            lower = raw.lower()
            if lower in _WORDS:
                tokens.append(_Token(_WORDS[lower], lower, position))
            elif lower in ("true", "false"):
                tokens.append(_Token("bool", lower, position, lower == "true"))
            else:
                tokens.append(_Token("ident", raw, position))
        elif group == "symbol":
            kind, canonical = _SYMBOLS[raw]
            tokens.append(_Token(kind, canonical, position))
    tokens.append(_Token("end", "", offset + len(text)))
    return tokens


# --- parser ----------------------------------------------------------------------------------


class _Parser:
    def __init__(self, tokens: list[_Token], source: str) -> None:
        self.tokens = tokens
        self.source = source
        self.index = 0
        self.depth = 0

    @property
    def current(self) -> _Token:
        return self.tokens[self.index]

    def peek(self, ahead: int = 1) -> _Token:
        return self.tokens[min(self.index + ahead, len(self.tokens) - 1)]

    def take(self) -> _Token:
        token = self.current
        self.index += 1
        return token

    def expect(self, kind: TokenKind, what: str) -> _Token:
        if self.current.kind != kind:
            self.fail(f"expected {what}")
        return self.take()

    def fail(self, message: str) -> None:
        token = self.current
        found = "the end" if token.kind == "end" else repr(token.text)
        raise ConditionError(f"{message}, found {found}", self.source, token.position)

    def parse(self) -> Condition:
        node = self.parse_or()
        if self.current.kind != "end":
            self.fail("expected `and`, `or` or the end of the condition")
        return node

    def parse_or(self) -> Condition:
        items = [self.parse_and()]
        while self.current.kind == "or":
            self.take()
            items.append(self.parse_and())
        return _flatten(Or, items)

    def parse_and(self) -> Condition:
        items = [self.parse_not()]
        while self.current.kind == "and":
            self.take()
            items.append(self.parse_not())
        return _flatten(And, items)

    def parse_not(self) -> Condition:
        if self.current.kind == "not":
            self.deeper()
            self.take()
            node = Not(self.parse_not())
            self.depth -= 1
            return node
        return self.parse_atom()

    def deeper(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ConditionError(
                f"condition nested too deeply (more than {MAX_DEPTH} levels of parentheses or `not`)",
                self.source,
                self.current.position,
            )

    def parse_atom(self) -> Condition:
        token = self.current
        if token.kind == "lparen":
            self.deeper()
            self.take()
            node = self.parse_or()
            self.expect("rparen", "`)`")
            self.depth -= 1
            return node
        if token.kind == "ident" and token.text.lower() == "has" and self.peek().kind == "lparen":
            self.take()
            self.take()
            container = FactRef(self.expect("ident", "a fact name as the first argument of has(...)").text)
            self.expect("comma", "`,` between the arguments of has(...)")
            item = self.expect("string", "a quoted string as the second argument of has(...)")
            self.expect("rparen", "`)` closing has(...)")
            return Member(str(item.value), container)
        left = self.parse_operand()
        if self.current.kind == "not" and self.peek().kind == "in":
            self.take()
            return Not(self.parse_membership(left, token))
        if self.current.kind == "in":
            return self.parse_membership(left, token)
        if self.current.kind == "op":
            op = self.take().text
            right_token = self.current
            right = self.parse_operand()
            if isinstance(left, Literal) and isinstance(right, Literal):
                raise ConditionError(
                    "a comparison of two literals tests no fact; name a fact on one side",
                    self.source,
                    right_token.position,
                )
            return Compare(left, op, right)  # type: ignore[arg-type]
        if isinstance(left, FactRef):
            return Truthy(left)
        self.fail(f"expected a comparison operator after the literal {token.text!r}")
        raise AssertionError("unreachable")

    def parse_membership(self, left: Operand, left_token: _Token) -> Condition:
        self.expect("in", "`in`")
        if not (isinstance(left, Literal) and isinstance(left.value, str)):
            raise ConditionError(
                "the left side of `in` must be a quoted string", self.source, left_token.position
            )
        container = self.expect("ident", "a fact name after `in`")
        return Member(left.value, FactRef(container.text))

    def parse_operand(self) -> Operand:
        token = self.current
        if token.kind == "ident" and token.text.lower() in _UNIVERSAL_WORDS:
            self.fail(f"`{token.text}` (universal) must stand alone, not inside an expression")
        if token.kind == "ident":
            self.take()
            return FactRef(token.text)
        if token.kind in ("string", "number", "bool"):
            self.take()
            assert token.value is not None
            return Literal(token.value)
        self.fail("expected a fact name, a quoted string, a number, `not` or `(`")
        raise AssertionError("unreachable")


def _flatten(kind: type[And] | type[Or], items: list[Condition]) -> Condition:
    if len(items) == 1:
        return items[0]
    flat: list[Condition] = []
    for item in items:
        flat.extend(item.operands if isinstance(item, kind) else (item,))
    return kind(tuple(flat))


_UNIVERSAL_WORDS = frozenset({"", "none", "always"})


@functools.lru_cache(maxsize=4096)
def parse_condition(text: str) -> Condition:
    """Parse an applicability condition; raises `ConditionError` (never returns universal by accident).

    Cached: the AST is immutable, and a store of records repeats a few conditions many times.
    """
    body, offset = _strip_decorations(text)
    if body.strip().lower() in _UNIVERSAL_WORDS:
        return Universal()
    tokens = _tokenize(body, text, offset)
    return _Parser(tokens, text).parse()


def _strip_decorations(text: str) -> tuple[str, int]:
    """Drop what LLMs wrap around a condition: surrounding whitespace, backticks, one final period."""
    start, end = 0, len(text)
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    while end - start >= 2 and text[start] == "`" and text[end - 1] == "`":
        start += 1
        end -= 1
    if end > start and text[end - 1] == ".":
        end -= 1
    return text[start:end], start
