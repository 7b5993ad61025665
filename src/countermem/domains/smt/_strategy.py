"""The strategy language an agent writes for the `smtlib` benchmark, and its safe parser.

A strategy is a small subset of z3's own tactic language (the argument of SMT-LIB's
`check-sat-using`), so a model that knows z3 can write it and a local edit (swap a tactic,
add a preprocessing step, change a seed) improves it. The text is parsed here into a typed
tree; the checking process builds z3 objects from that tree with z3's combinator functions.
Nothing is ever evaluated as code.

Grammar (whitespace and `;` comments are free; one action is one strategy):

    strategy := option* body
    option   := (set-option :KEY VALUE)          ; a z3 global parameter for this check only
    body     := (check-sat)                      ; z3's own default solver for the logic
              | (check-sat-using TACTIC)
              | TACTIC
    TACTIC   := NAME                             ; a z3 tactic: smt, simplify, qflia, nlsat, ...
              | (then TACTIC+)                   ; also spelled and-then
              | (or-else TACTIC+)
              | (try-for TACTIC MILLISECONDS)
              | (repeat TACTIC [MAX])
              | (using-params TACTIC :KEY VALUE ...)   ; also spelled !
              | (if PROBE TACTIC TACTIC)         ; also spelled cond
              | (when PROBE TACTIC)
              | (fail-if PROBE)
    PROBE    := NUMBER | PROBE-NAME              ; size, num-consts, is-qflia, arith-max-deg, ...
              | (> P P) | (< P P) | (>= P P) | (<= P P) | (= P P)
              | (and P P+) | (or P P+) | (not P)
    VALUE    := true | false | INTEGER | DECIMAL | SYMBOL   (no strings)

A body without parentheses such as `then simplify smt` is read as `(then simplify smt)`,
because one-line agent actions often lose their outer parentheses. A surrounding
markdown code fence is removed.

Refused, with the reason: parallel combinators and tactics (par-or, par-then, psat, psmt,
pqffd: the checking machines are shared), `collect-statistics` (prints), and parameters
whose name mentions files, logs, dumps, traces, proofs, output, verbosity, timeouts, resource
or memory limits, threads or parallelism: the world model owns the budget and the file system.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from countermem.core import CheckerUnavailableError, ParseError
from countermem.domains.smt._sexpr import Atom, SExpr, head, read_all, render, strip_fence

MAX_STRATEGY_CHARS = 4000
MAX_NODES = 200
MAX_TRY_FOR_MS = 3_600_000
MAX_REPEAT = 100

ParamValue = bool | int | float | str

REFUSED_TACTICS = frozenset({"psat", "psmt", "pqffd", "collect-statistics"})
PARALLEL_COMBINATORS = frozenset({"par-or", "par-then", "par-and-then"})
REFUSED_PARAM_WORDS = (
    "file", "log", "dump", "trace", "verbose", "proof", "output", "timeout", "rlimit",
    "memory", "thread", "parallel", "dot", "smtlib2", "debug", "stats", "print", "html",
)
_KEY = re.compile(r"^:[A-Za-z][A-Za-z0-9_.]*$")
_INT = re.compile(r"^-?\d+$")
_DEC = re.compile(r"^-?\d+\.\d+$")
_SYMBOL = re.compile(r"^[A-Za-z][A-Za-z0-9_\-]*$")
_COMPARISONS = frozenset({">", "<", ">=", "<=", "="})


@dataclass(frozen=True)
class ProbeNum:
    value: float


@dataclass(frozen=True)
class ProbeRef:
    name: str


@dataclass(frozen=True)
class ProbeOp:
    op: str
    args: tuple[Probe, ...]


Probe = ProbeNum | ProbeRef | ProbeOp


@dataclass(frozen=True)
class Named:
    name: str


@dataclass(frozen=True)
class Sequence:
    op: Literal["then", "or-else"]
    parts: tuple[TacticNode, ...]


@dataclass(frozen=True)
class TryFor:
    body: TacticNode
    ms: int


@dataclass(frozen=True)
class Repeat:
    body: TacticNode
    max: int


@dataclass(frozen=True)
class UsingParams:
    body: TacticNode
    params: tuple[tuple[str, ParamValue], ...]


@dataclass(frozen=True)
class IfProbe:
    probe: Probe
    then: TacticNode
    otherwise: TacticNode | None
    """None for `when`: the goal is left unchanged when the probe is false."""


@dataclass(frozen=True)
class FailIf:
    probe: Probe


TacticNode = Named | Sequence | TryFor | Repeat | UsingParams | IfProbe | FailIf


@dataclass(frozen=True)
class Catalog:
    """The tactic and probe names the installed z3 offers; a strategy may only use these."""

    tactics: frozenset[str]
    probes: frozenset[str]


@lru_cache(maxsize=1)
def z3_catalog() -> Catalog:
    try:
        import z3
    except ImportError as error:
        raise CheckerUnavailableError(
            f"z3 is not installed ({error}): pip install 'countermem[domains]'"
        ) from error
    return Catalog(tactics=frozenset(z3.tactics()), probes=frozenset(z3.probes()))


@dataclass(frozen=True)
class Strategy:
    """A parsed strategy: global options and a tactic (None means z3's default solver)."""

    options: tuple[tuple[str, ParamValue], ...]
    tactic: TacticNode | None

    def to_text(self) -> str:
        lines = [f"(set-option :{key} {_value_text(value)})" for key, value in self.options]
        lines.append("(check-sat)" if self.tactic is None else _tactic_text(self.tactic))
        return "\n".join(lines)

    def tactics_used(self) -> tuple[str, ...]:
        return tuple(sorted(_collect(self.tactic, "tactic"))) if self.tactic else ()

    def combinators_used(self) -> tuple[str, ...]:
        return tuple(sorted(_collect(self.tactic, "combinator"))) if self.tactic else ()

    def to_json(self) -> dict[str, object]:
        """The tree as plain JSON for the checking process (which imports only z3)."""
        return {
            "options": [[key, value] for key, value in self.options],
            "tactic": None if self.tactic is None else _tactic_json(self.tactic),
        }


def parse_strategy(text: str, catalog: Catalog | None = None) -> Strategy:
    """Parse and validate a strategy; raise ParseError with what is wrong and how to fix it."""
    catalog = catalog or z3_catalog()
    forms = [top.expr for top in read_all(strip_fence(text), MAX_STRATEGY_CHARS)]
    if not forms:
        raise ParseError("empty strategy: write a tactic such as smt or (then simplify smt), or (check-sat)")
    if all(isinstance(form, Atom) for form in forms) and len(forms) > 1:
        forms = [tuple(forms)]
    options: list[tuple[str, ParamValue]] = []
    bodies: list[SExpr] = []
    for form in forms:
        if head(form) == "set-option":
            options.append(_option(form))
        else:
            bodies.append(form)
    if len(bodies) != 1:
        raise ParseError(
            f"a strategy has exactly one tactic or (check-sat) after its set-option lines; found {len(bodies)}"
        )
    body = bodies[0]
    builder = _Builder(catalog)
    if head(body) == "check-sat":
        if isinstance(body, tuple) and len(body) != 1:
            raise ParseError("(check-sat) takes no arguments; use (check-sat-using TACTIC) to give a tactic")
        return Strategy(options=tuple(options), tactic=None)
    if head(body) == "check-sat-using":
        assert isinstance(body, tuple)
        if len(body) != 2:
            raise ParseError("(check-sat-using TACTIC) takes exactly one tactic")
        body = body[1]
    return Strategy(options=tuple(options), tactic=builder.tactic(body))


def _option(form: SExpr) -> tuple[str, ParamValue]:
    assert isinstance(form, tuple)
    if len(form) != 3:
        raise ParseError("write an option as (set-option :KEY VALUE)")
    return _param(form[1], form[2])


def _param(key_expr: SExpr, value_expr: SExpr) -> tuple[str, ParamValue]:
    if not isinstance(key_expr, Atom) or key_expr.quoted or not _KEY.match(key_expr.text):
        raise ParseError(f"parameter names look like :random_seed or :arith.solver, got {_show(key_expr)}")
    key = key_expr.text[1:]
    lowered = key.lower()
    for word in REFUSED_PARAM_WORDS:
        if word in lowered:
            raise ParseError(
                f"parameter :{key} is refused (names mentioning {word!r} are reserved: the world model "
                "owns the time budget, output and file system)"
            )
    return key, _value(value_expr, key)


def _value(expr: SExpr, key: str) -> ParamValue:
    if not isinstance(expr, Atom) or expr.quoted:
        raise ParseError(f"the value of :{key} must be true, false, a number or a plain symbol")
    text = expr.text
    if text in ("true", "false"):
        return text == "true"
    if _INT.match(text):
        return int(text)
    if _DEC.match(text):
        return float(text)
    if _SYMBOL.match(text):
        return text
    raise ParseError(f"the value of :{key} must be true, false, a number or a plain symbol, got {text!r}")


class _Builder:
    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.nodes = 0

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise ParseError(f"strategy has more than {MAX_NODES} nodes; simplify it")

    def tactic(self, expr: SExpr) -> TacticNode:
        self._count()
        if isinstance(expr, Atom):
            return self._named(expr)
        op = head(expr)
        if op is None:
            raise ParseError(f"expected a tactic, got {_show(expr)}")
        args = expr[1:]
        if op in PARALLEL_COMBINATORS:
            raise ParseError(f"{op} is refused: parallel combinators would share cores with other checks")
        if op in ("then", "and-then", "or-else"):
            if not args:
                raise ParseError(f"({op} ...) needs at least one tactic")
            kind: Literal["then", "or-else"] = "or-else" if op == "or-else" else "then"
            return Sequence(op=kind, parts=tuple(self.tactic(arg) for arg in args))
        if op == "try-for":
            if len(args) != 2:
                raise ParseError("write (try-for TACTIC MILLISECONDS)")
            return TryFor(body=self.tactic(args[0]), ms=_bounded_int(args[1], "try-for", 1, MAX_TRY_FOR_MS))
        if op == "repeat":
            if len(args) not in (1, 2):
                raise ParseError("write (repeat TACTIC) or (repeat TACTIC MAX)")
            limit = _bounded_int(args[1], "repeat", 1, MAX_REPEAT) if len(args) == 2 else MAX_REPEAT
            return Repeat(body=self.tactic(args[0]), max=limit)
        if op in ("using-params", "!"):
            if len(args) < 3 or len(args) % 2 == 0:
                raise ParseError(f"write ({op} TACTIC :KEY VALUE ...) with at least one :KEY VALUE pair")
            params = tuple(_param(args[i], args[i + 1]) for i in range(1, len(args), 2))
            return UsingParams(body=self.tactic(args[0]), params=params)
        if op in ("if", "cond"):
            if len(args) != 3:
                raise ParseError(f"write ({op} PROBE TACTIC TACTIC)")
            return IfProbe(probe=self.probe(args[0]), then=self.tactic(args[1]), otherwise=self.tactic(args[2]))
        if op == "when":
            if len(args) != 2:
                raise ParseError("write (when PROBE TACTIC)")
            return IfProbe(probe=self.probe(args[0]), then=self.tactic(args[1]), otherwise=None)
        if op == "fail-if":
            if len(args) != 1:
                raise ParseError("write (fail-if PROBE)")
            return FailIf(probe=self.probe(args[0]))
        if op in self.catalog.tactics and not args:
            return self._named(expr[0])  # type: ignore[arg-type]
        raise ParseError(
            f"unknown combinator ({op} ...); use then, or-else, try-for, repeat, using-params, if, when, fail-if"
        )

    def _named(self, atom: Atom) -> Named:
        name = atom.text
        if atom.quoted:
            raise ParseError(f"tactic names are plain symbols, got |{name}|")
        if name in REFUSED_TACTICS:
            raise ParseError(f"tactic {name!r} is refused (parallel or printing); choose a sequential tactic")
        if name not in self.catalog.tactics:
            raise ParseError(f"unknown tactic {name!r}; the installed z3 offers e.g. {_examples(self.catalog)}")
        return Named(name=name)

    def probe(self, expr: SExpr) -> Probe:
        self._count()
        if isinstance(expr, Atom):
            if _INT.match(expr.text) or _DEC.match(expr.text):
                return ProbeNum(value=float(expr.text))
            if expr.quoted or expr.text not in self.catalog.probes:
                known = ", ".join(sorted(self.catalog.probes)[:12])
                raise ParseError(f"unknown probe {expr.text!r}; known probes include {known}")
            return ProbeRef(name=expr.text)
        op = head(expr)
        args = expr[1:]
        if op in _COMPARISONS:
            if len(args) != 2:
                raise ParseError(f"probe comparison ({op} P P) takes two arguments")
        elif op in ("and", "or"):
            if len(args) < 2:
                raise ParseError(f"probe ({op} ...) takes at least two arguments")
        elif op == "not":
            if len(args) != 1:
                raise ParseError("probe (not P) takes one argument")
        else:
            raise ParseError(f"expected a probe, got {_show(expr)}")
        return ProbeOp(op=op, args=tuple(self.probe(arg) for arg in args))


def _bounded_int(expr: SExpr, where: str, low: int, high: int) -> int:
    if not isinstance(expr, Atom) or not _INT.match(expr.text):
        raise ParseError(f"{where} needs an integer, got {_show(expr)}")
    value = int(expr.text)
    if not low <= value <= high:
        raise ParseError(f"{where} needs an integer between {low} and {high}, got {value}")
    return value


def _examples(catalog: Catalog) -> str:
    common = ("smt", "simplify", "solve-eqs", "propagate-values", "qflia", "qfnia", "qfnra", "qfbv", "sat")
    return ", ".join(name for name in common if name in catalog.tactics)


def _show(expr: SExpr) -> str:
    text = render(expr)
    return text if len(text) <= 60 else text[:57] + "..."


def _value_text(value: ParamValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _probe_text(probe: Probe) -> str:
    if isinstance(probe, ProbeNum):
        return str(int(probe.value)) if probe.value.is_integer() else str(probe.value)
    if isinstance(probe, ProbeRef):
        return probe.name
    return "(" + " ".join([probe.op, *(_probe_text(arg) for arg in probe.args)]) + ")"


def _tactic_text(node: TacticNode) -> str:
    if isinstance(node, Named):
        return node.name
    if isinstance(node, Sequence):
        return "(" + " ".join([node.op, *(_tactic_text(part) for part in node.parts)]) + ")"
    if isinstance(node, TryFor):
        return f"(try-for {_tactic_text(node.body)} {node.ms})"
    if isinstance(node, Repeat):
        return f"(repeat {_tactic_text(node.body)} {node.max})"
    if isinstance(node, UsingParams):
        pairs = " ".join(f":{key} {_value_text(value)}" for key, value in node.params)
        return f"(using-params {_tactic_text(node.body)} {pairs})"
    if isinstance(node, IfProbe):
        if node.otherwise is None:
            return f"(when {_probe_text(node.probe)} {_tactic_text(node.then)})"
        return f"(if {_probe_text(node.probe)} {_tactic_text(node.then)} {_tactic_text(node.otherwise)})"
    return f"(fail-if {_probe_text(node.probe)})"


def _probe_json(probe: Probe) -> object:
    if isinstance(probe, ProbeNum):
        return {"num": probe.value}
    if isinstance(probe, ProbeRef):
        return {"probe": probe.name}
    return {"op": probe.op, "args": [_probe_json(arg) for arg in probe.args]}


def _tactic_json(node: TacticNode) -> object:
    if isinstance(node, Named):
        return {"tactic": node.name}
    if isinstance(node, Sequence):
        return {"seq": node.op, "parts": [_tactic_json(part) for part in node.parts]}
    if isinstance(node, TryFor):
        return {"try_for": _tactic_json(node.body), "ms": node.ms}
    if isinstance(node, Repeat):
        return {"repeat": _tactic_json(node.body), "max": node.max}
    if isinstance(node, UsingParams):
        return {"using": _tactic_json(node.body), "params": [[key, value] for key, value in node.params]}
    if isinstance(node, IfProbe):
        return {
            "if": _probe_json(node.probe),
            "then": _tactic_json(node.then),
            "else": None if node.otherwise is None else _tactic_json(node.otherwise),
        }
    return {"fail_if": _probe_json(node.probe)}


def _collect(node: TacticNode, kind: Literal["tactic", "combinator"]) -> set[str]:
    found: set[str] = set()
    if isinstance(node, Named):
        if kind == "tactic":
            found.add(node.name)
        return found
    if kind == "combinator":
        found.add(_combinator_name(node))
    children: list[TacticNode] = []
    if isinstance(node, Sequence):
        children.extend(node.parts)
    elif isinstance(node, TryFor | Repeat | UsingParams):
        children.append(node.body)
    elif isinstance(node, IfProbe):
        children.append(node.then)
        if node.otherwise is not None:
            children.append(node.otherwise)
    for child in children:
        found |= _collect(child, kind)
    return found


def _combinator_name(node: TacticNode) -> str:
    if isinstance(node, Sequence):
        return node.op
    if isinstance(node, TryFor):
        return "try-for"
    if isinstance(node, Repeat):
        return "repeat"
    if isinstance(node, UsingParams):
        return "using-params"
    if isinstance(node, IfProbe):
        return "if" if node.otherwise is not None else "when"
    return "fail-if"
