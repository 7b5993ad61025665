"""The checking process: run one z3 job under hard limits and print one JSON reply.

It is started as a fresh interpreter (`python -E -s _runner.py`) for every check, so a z3
tactic that ignores its soft timeout is still stopped (the parent kills the process group at
the deadline), global z3 parameters set by one strategy never leak into the next check, and
a crash or memory blow-up costs only this process. It imports nothing but the standard library
and z3 on purpose: importing countermem (pydantic, ...) would cost more than most checks.

Request (stdin, JSON): `mode` is "strategy" (instance path, logic, the parsed strategy tree)
or "encode" (an SMT-LIB script already filtered by the parent, the answer constants and
their sorts); both carry `timeout_ms`, `rlimit` and `memory_mb`.
Reply (the original stdout, JSON): `answer` sat/unsat/unknown/error and the evidence. z3 and
anything it prints go to stderr, because fd 1 is pointed at stderr before z3 is imported.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import sys
import time
from typing import Any


def _limit(kind: int, value: int) -> None:
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(kind, (value, value))


def _probe(z3: Any, node: dict[str, Any]) -> Any:
    if "num" in node:
        return z3.Probe(float(node["num"]))
    if "probe" in node:
        return z3.Probe(node["probe"])
    args = [_probe(z3, arg) for arg in node["args"]]
    op = node["op"]
    if op == ">":
        return args[0] > args[1]
    if op == "<":
        return args[0] < args[1]
    if op == ">=":
        return args[0] >= args[1]
    if op == "<=":
        return args[0] <= args[1]
    if op == "=":
        return args[0] == args[1]
    if op == "and":
        return z3.And(*args)
    if op == "or":
        return z3.Or(*args)
    return z3.Not(args[0])


def _tactic(z3: Any, node: dict[str, Any]) -> Any:
    if "tactic" in node:
        return z3.Tactic(node["tactic"])
    if "seq" in node:
        parts = [_tactic(z3, part) for part in node["parts"]]
        if len(parts) == 1:
            return parts[0]
        return z3.Then(*parts) if node["seq"] == "then" else z3.OrElse(*parts)
    if "try_for" in node:
        return z3.TryFor(_tactic(z3, node["try_for"]), int(node["ms"]))
    if "repeat" in node:
        return z3.Repeat(_tactic(z3, node["repeat"]), int(node["max"]))
    if "using" in node:
        params = z3.ParamsRef()
        for key, value in node["params"]:
            params.set(key, value)
        return z3.WithParams(_tactic(z3, node["using"]), params)
    if "if" in node:
        probe = _probe(z3, node["if"])
        if node["else"] is None:
            return z3.When(probe, _tactic(z3, node["then"]))
        return z3.Cond(probe, _tactic(z3, node["then"]), _tactic(z3, node["else"]))
    return z3.FailIf(_probe(z3, node["fail_if"]))


def _rlimit_count(z3: Any, solver: Any) -> int:
    """z3's deterministic resource counter, shared by everything in the process's context."""
    try:
        return int(solver.statistics().get_key_value("rlimit count"))
    except z3.Z3Exception:
        return 0


def _first_line(error: BaseException) -> str:
    text = error.value if hasattr(error, "value") else str(error)
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    text = str(text).strip()
    return text.splitlines()[0][:300] if text else type(error).__name__


def _solve(z3: Any, solver: Any, assertions: Any, request: dict[str, Any]) -> dict[str, Any]:
    solver.set("timeout", int(request["timeout_ms"]))
    solver.set("rlimit", int(request["rlimit"]))
    before = _rlimit_count(z3, z3.Solver())
    solver.add(assertions)
    started = time.monotonic()
    result = solver.check()
    seconds = time.monotonic() - started
    reply: dict[str, Any] = {
        "answer": str(result),
        "solve_seconds": round(seconds, 4),
        "effort": max(0, _rlimit_count(z3, solver) - before),
        "assertions": len(conjuncts(z3, assertions)),
    }
    if result == z3.unknown:
        reply["reason"] = solver.reason_unknown()
    return reply


def conjuncts(z3: Any, assertions: Any) -> list[Any]:
    """Top-level conjuncts, so that a violation names a small formula rather than the whole file."""
    out: list[Any] = []
    for assertion in assertions:
        out.extend(assertion.children() if z3.is_and(assertion) else [assertion])
    return out


def validate_model(z3: Any, model: Any, assertions: Any) -> tuple[int, str]:
    """Count assertions that the model (completed) does not make true; return the first one."""
    violated, first = 0, ""
    for assertion in conjuncts(z3, assertions):
        value = model.eval(assertion, model_completion=True)
        if not z3.is_true(value):
            violated += 1
            if not first:
                first = str(assertion)[:300]
    return violated, first


def _strategy(z3: Any, request: dict[str, Any]) -> dict[str, Any]:
    tree = request["strategy"]
    try:
        for key, value in tree["options"]:
            z3.get_param(key)
            z3.set_param(key, value)
    except z3.Z3Exception as error:
        return {"answer": "error", "error_kind": "action", "error": f"bad option: {_first_line(error)}"}
    assertions = z3.parse_smt2_file(request["instance"])
    try:
        if tree["tactic"] is None:
            solver = z3.SolverFor(request["logic"])
        else:
            solver = _tactic(z3, tree["tactic"]).solver()
    except z3.Z3Exception as error:
        return {"answer": "error", "error_kind": "action", "error": f"bad strategy: {_first_line(error)}"}
    try:
        reply = _solve(z3, solver, assertions, request)
    except z3.Z3Exception as error:
        return {"answer": "error", "error_kind": "action", "error": f"z3 rejected the strategy: {_first_line(error)}"}
    if reply["answer"] == "sat":
        violated, first = validate_model(z3, solver.model(), assertions)
        reply["violated"] = violated
        reply["first_violation"] = first
    return reply


def _decode(z3: Any, value: Any, sort: str) -> tuple[Any, str]:
    if sort == "Bool":
        if z3.is_true(value):
            return True, ""
        if z3.is_false(value):
            return False, ""
        return None, f"not a Boolean value: {str(value)[:60]}"
    if z3.is_int_value(value) or z3.is_bv_value(value):
        return int(value.as_long()), ""
    if z3.is_rational_value(value) and value.denominator_as_long() == 1:
        return int(value.numerator_as_long()), ""
    return None, f"not an integer value: {str(value)[:60]}"


def _encode(z3: Any, request: dict[str, Any]) -> dict[str, Any]:
    try:
        assertions = z3.parse_smt2_string(request["script"])
    except z3.Z3Exception as error:
        return {"answer": "error", "error_kind": "action", "error": f"z3 cannot read the encoding: {_first_line(error)}"}
    solver = z3.Solver()
    try:
        reply = _solve(z3, solver, assertions, request)
    except z3.Z3Exception as error:
        return {"answer": "error", "error_kind": "action", "error": f"z3 failed on the encoding: {_first_line(error)}"}
    if reply["answer"] != "sat":
        return reply
    model = solver.model()
    declared = {decl.name(): decl for decl in model.decls() if decl.arity() == 0}
    values: dict[str, Any] = {}
    notes: list[str] = []
    for name, sort in request["answers"]:
        if name in declared:
            value, note = _decode(z3, model.eval(declared[name](), model_completion=True), sort)
        else:
            value = False if sort == "Bool" else 0
            note = f"does not occur in the model (declared but unconstrained); read as {value}"
        values[name] = value
        if note:
            notes.append(f"{name}: {note}")
    reply["values"] = values
    reply["notes"] = notes
    return reply


def main() -> None:
    reply_channel = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    request = json.loads(sys.stdin.read())
    _limit(resource.RLIMIT_AS, int(request["memory_mb"]) * 1024 * 1024)
    _limit(resource.RLIMIT_CPU, int(request["timeout_ms"]) // 1000 + 10)
    _limit(resource.RLIMIT_FSIZE, 0)
    _limit(resource.RLIMIT_CORE, 0)
    try:
        import z3

        reply = _strategy(z3, request) if request["mode"] == "strategy" else _encode(z3, request)
    except MemoryError:
        reply = {"answer": "error", "error_kind": "resource", "error": "the memory limit was reached"}
    except Exception as error:
        reply = {"answer": "error", "error_kind": "internal", "error": f"{type(error).__name__}: {_first_line(error)}"}
    reply_channel.write(json.dumps(reply))
    reply_channel.flush()


if __name__ == "__main__":
    main()
