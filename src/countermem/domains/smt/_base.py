"""What the two z3 benchmarks share: the check budget, z3's presence, and how a check runs.

Both run z3 in a fresh, hard-limited process with the same budgets, so one place says how a
budget becomes z3 parameters and a kill deadline, and what a check earns when that process
gives no usable answer (killed, died, or refused the action).
"""

from __future__ import annotations

from countermem.core import CheckerUnavailableError, CheckResult, ConfigError, Cost, package_version
from countermem.domains._protocol import Availability, Benchmark
from countermem.domains.smt._errors import error_kind
from countermem.domains.smt._process import DEFAULT_MEMORY_MB, ProcessOutcome, RunnerReply, run_runner

DEFAULT_TIMEOUT_S = 5.0
EFFORT_PER_SECOND = 5_000_000
HARD_MARGIN_S = 2.0
"""Seconds past the budget before the checking process is killed: interpreter start-up,
reading the instance and validating a model happen outside z3's own timeout."""


def _z3_missing(error: ImportError) -> str:
    return f"z3 is not installed ({error}): pip install 'countermem[domains]'"


def z3_availability() -> Availability:
    try:
        import z3  # noqa: F401
    except ImportError as error:
        return Availability(False, _z3_missing(error))
    return Availability(True)


def require_z3() -> None:
    try:
        import z3  # noqa: F401
    except ImportError as error:
        raise CheckerUnavailableError(_z3_missing(error)) from error


def effort_for(timeout_s: float) -> int:
    return int(timeout_s * EFFORT_PER_SECOND)


def run_budgeted(fields: dict[str, object], timeout_s: float) -> ProcessOutcome:
    """Run one check (`fields` say what to check) under `timeout_s` and its effort budget."""
    request: dict[str, object] = {
        **fields,
        "timeout_ms": int(timeout_s * 1000),
        "rlimit": effort_for(timeout_s),
        "memory_mb": DEFAULT_MEMORY_MB,
    }
    return run_runner(request, timeout_s + HARD_MARGIN_S)


def usable_reply(outcome: ProcessOutcome, budget: str) -> RunnerReply | CheckResult:
    """z3's reply, or the verdict when there is none to judge; `budget` is how a kill names it."""
    cost = Cost(seconds=outcome.wall_seconds, calls=1)
    reply = outcome.reply
    if outcome.killed:
        return CheckResult(
            utility=0.0, passed=False, completed=False, status="timeout", cost=cost,
            details=f"killed after {outcome.wall_seconds:.2f} s (budget {budget})",
        )
    if reply is None:
        return CheckResult(
            utility=0.0, passed=False, completed=False, status="error", cost=cost,
            details=f"the checking process died (exit {outcome.returncode}): {outcome.stderr_tail.strip()[-200:]}",
        )
    if reply.answer == "error":
        own_fault = reply.error_kind == "action"
        return CheckResult(
            utility=0.0, passed=False, completed=own_fault, status="error", cost=cost,
            details=reply.error if own_fault else f"checker failure ({reply.error_kind}): {reply.error}",
        )
    return reply


class Z3Benchmark(Benchmark):
    checker_name = "z3"

    def checker_version(self) -> str | None:
        return package_version("z3-solver")

    @property
    def timeout_s(self) -> float:
        value = self.options.timeout_s if self.options.timeout_s is not None else DEFAULT_TIMEOUT_S
        if value <= 0:
            raise ConfigError(f"timeout_s must be positive, got {value}")
        return float(value)

    def error_kind(self, result: CheckResult) -> str | None:
        return error_kind(result.status, result.details)
