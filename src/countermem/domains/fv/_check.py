"""Judge one proof: screen the text, compile it with `coqc`, then read `Print Assumptions`.

The generated file is

    <benchmark prelude (tactic libraries)>
    <task preamble>
    Module CM_<nonce>.
    <task statement>
    <agent's proof>
    End CM_<nonce>.
    Definition CM_<nonce>_end : Prop := True.
    Print CM_<nonce>_end.
    Print Assumptions CM_<nonce>.<theorem>.

The module makes every name the proof could introduce print as `CM_<nonce>.name`, so a local
assumption cannot pass for a library axiom (`Print Assumptions` prints imported axioms without
their path). The random nonce also marks where the real `Print Assumptions` output starts, so a
proof that prints "Closed under the global context" itself (`idtac "..."`) fools nothing.

Utility is 1.0 for a checked proof and 0.0 otherwise. We tried the obvious partial credit,
the share of sentences run before the first error, and dropped it: it rises when a proof is
padded with `idtac.` or `simpl.` in front of the failing tactic, so a "better" edit could be a
longer wrong proof. The error's proof line and message go into `details` instead.
"""

from __future__ import annotations

import re
import secrets
import signal
from dataclasses import dataclass

from countermem.core import CheckResult, CheckStatus, Cost, SandboxError
from countermem.domains.fv._coqc import CoqcLimits, CoqcRun, CoqcRunner
from countermem.domains.fv._problem import CoqProblem
from countermem.domains.fv._script import ProofScript, Refusal, parse_proof

_MESSAGE_LIMIT = 1200
_ERROR_AT = re.compile(r'File "[^"]*", line (\d+), characters (\d+)-(\d+):\s*\n(?=Error)')
_SYNTAX = re.compile(r"^(?:Error:)?\s*(?:Syntax error|Lexer error)")
_ENTRY = re.compile(r"^([A-Za-z_][\w'.]*)(?:\s*:.*)?$")


@dataclass(frozen=True)
class _Layout:
    source: str
    module: str
    marker: str
    proof_first_line: int
    proof_last_line: int


def _layout(problem: CoqProblem, proof: ProofScript) -> _Layout:
    nonce = secrets.token_hex(6)
    module = f"CM_{nonce}"
    marker = f"{module}_end"
    head = f"{problem.context.rstrip()}\n\nModule {module}.\n{problem.statement.strip()}\n"
    first = head.count("\n") + 1
    body = proof.text.rstrip() + "\n"
    tail = (
        f"End {module}.\n"
        f"Definition {marker} : Prop := True.\n"
        f"Print {marker}.\n"
        f"Print Assumptions {module}.{problem.theorem}.\n"
    )
    return _Layout(
        source=head + body + tail,
        module=module,
        marker=marker,
        proof_first_line=first,
        proof_last_line=first + body.count("\n") - 1,
    )


def _result(
    status: CheckStatus, details: str, seconds: float, completed: bool = True
) -> CheckResult:
    passed = status == "passed"
    return CheckResult(
        utility=1.0 if passed else 0.0,
        passed=passed,
        completed=completed,
        status=status,
        details=details,
        cost=Cost(seconds=seconds, calls=1),
    )


def check_proof(problem: CoqProblem, content: str, limits: CoqcLimits, runner: CoqcRunner) -> CheckResult:
    parsed = parse_proof(content, problem.statement, problem.context)
    if isinstance(parsed, Refusal):
        return _result("error" if parsed.syntax else "rejected", parsed.reason, 0.0)
    layout = _layout(problem, parsed)
    try:
        run = runner(layout.source, limits)
    except (SandboxError, OSError) as error:
        return _result("error", f"coqc could not be started: {error}", 0.0, completed=False)
    return _judge(problem, parsed, layout, run, limits)


def _judge(
    problem: CoqProblem, proof: ProofScript, layout: _Layout, run: CoqcRun, limits: CoqcLimits
) -> CheckResult:
    notes = f" (note: {'; '.join(proof.notes)})" if proof.notes else ""
    if run.timed_out or run.killed_by_signal == signal.SIGXCPU:
        return _result(
            "timeout",
            f"coqc did not finish within {limits.timeout_s:g} s; a tactic may loop (repeat, "
            f"auto with a large depth) or a computation may be too large{notes}",
            run.seconds,
            completed=False,
        )
    if run.returncode != 0:
        return _failure(proof, layout, run, limits) if run.returncode is not None else _result(
            "error", "coqc ended without a status", run.seconds, completed=False
        )
    verdict = _assumptions_verdict(problem, layout, run.stdout)
    if verdict is not None:
        return _result("rejected", verdict + notes, run.seconds)
    return _result("passed", f"proof of {problem.theorem} checked by coqc{notes}", run.seconds)


def _clean(text: str, layout: _Layout) -> str:
    text = text.replace(f"{layout.module}.", "")
    lines = [line.rstrip() for line in text.strip().splitlines()]
    cleaned = "\n".join(line for line in lines if line)
    if len(cleaned) > _MESSAGE_LIMIT:
        cleaned = cleaned[: _MESSAGE_LIMIT - 15] + " ...[trimmed]"
    return cleaned


def _failure(proof: ProofScript, layout: _Layout, run: CoqcRun, limits: CoqcLimits) -> CheckResult:
    signal_number = run.killed_by_signal
    if signal_number is not None:
        try:
            name = signal.Signals(signal_number).name
        except ValueError:
            name = str(signal_number)
        return _result(
            "error",
            f"coqc was killed by {name} (memory limit {limits.memory_mb} MiB or file-size limit)",
            run.seconds,
            completed=False,
        )
    matches = list(_ERROR_AT.finditer(run.stderr))
    if not matches:
        message = _clean(run.stderr or run.stdout, layout)
        if "Out of memory" in message:
            return _result(
                "error", f"coqc ran out of memory (limit {limits.memory_mb} MiB)", run.seconds, completed=False
            )
        return _result("error", f"coqc failed: {message}", run.seconds, completed=False)
    match = matches[-1]
    line = int(match.group(1))
    message = _clean(run.stderr[match.end() :], layout)
    if "Out of memory" in message:
        return _result(
            "error", f"coqc ran out of memory (limit {limits.memory_mb} MiB)", run.seconds, completed=False
        )
    if not layout.proof_first_line <= line <= layout.proof_last_line:
        return _result(
            "error",
            f"the task itself does not compile (line {line} of the generated file is outside the proof): "
            f"{message}",
            run.seconds,
            completed=False,
        )
    proof_line = line - layout.proof_first_line + 1
    where = _snippet(proof.text, proof_line, int(match.group(2)), int(match.group(3)))
    status: CheckStatus = "error" if _SYNTAX.match(message) else "wrong"
    notes = f"\n(note: {'; '.join(proof.notes)})" if proof.notes else ""
    return _result(
        status,
        f"coqc rejected the proof at proof line {proof_line}, at `{where}`:\n{message}{notes}",
        run.seconds,
    )


def _snippet(text: str, line: int, start: int, end: int) -> str:
    """The text coqc points at; its `characters a-b` are byte offsets within the line."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return ""
    raw = lines[line - 1].encode("utf-8")
    piece = raw[start:end].decode("utf-8", errors="replace").strip()
    return piece or lines[line - 1].strip()


def _assumptions_verdict(problem: CoqProblem, layout: _Layout, stdout: str) -> str | None:
    """None when the assumptions are acceptable, else why the proof is refused."""
    lines = stdout.splitlines()
    start = next(
        (i for i, text in enumerate(lines) if text.startswith(f"{layout.marker} = ")), None
    )
    if start is None:
        return "coqc printed no `Print Assumptions` result; the proof cannot be trusted"
    report = [text for text in lines[start + 1 :] if text.strip()]
    if report and report[0].strip().startswith(":"):
        report = report[1:]
    if report and report[0].strip() == "Closed under the global context":
        return None
    if not report or report[0].strip() != "Axioms:":
        return f"unexpected `Print Assumptions` output: {_clean(chr(10).join(report[:5]), layout)}"
    refused: list[str] = []
    declared = problem.declared_assumptions
    for text in report[1:]:
        if text[:1].isspace():
            continue
        entry = _ENTRY.match(text.strip())
        if entry is None:
            refused.append(text.strip().replace(f"{layout.module}.", ""))
            continue
        name = entry.group(1)
        if name.startswith(f"{layout.module}."):
            refused.append(f"{name[len(layout.module) + 1 :]} (unproved, introduced by the proof)")
        elif name in declared:
            continue
        elif problem.policy == "closed":
            refused.append(f"{name} (an axiom; this task requires a proof closed under the global context)")
    if refused:
        return "refused by `Print Assumptions`: the proof rests on " + "; ".join(refused)
    return None
