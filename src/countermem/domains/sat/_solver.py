"""A budgeted call to MiniSat 2.2 through python-sat.

The conflict budget is what makes a check reproducible: MiniSat is deterministic, so the same
formula under the same budget gives the same answer (and the same model) on every machine. The
wall-clock limit is only a guard for formulas where even the budget takes too long; when it
fires the outcome is `unknown`, which a world model reports as an incomplete check.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from countermem.core import CheckerUnavailableError

DEFAULT_CONFLICT_BUDGET = 100_000
DEFAULT_TIMEOUT_S = 10.0

SolveStatus = Literal["sat", "unsat", "unknown"]


@dataclass(frozen=True)
class SolverBudget:
    conflicts: int = DEFAULT_CONFLICT_BUDGET
    """Most conflicts one call may spend (MiniSat's `conf_budget`); must be positive."""
    seconds: float | None = DEFAULT_TIMEOUT_S
    """Wall-clock guard; MiniSat is interrupted when it runs out. None: no clock (gold answers only)."""

    def __post_init__(self) -> None:
        if self.conflicts <= 0:
            raise ValueError(f"the conflict budget must be positive, got {self.conflicts}")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"the time limit must be positive, got {self.seconds}")


@dataclass(frozen=True)
class SolveOutcome:
    status: SolveStatus
    model: tuple[int, ...] | None
    seconds: float
    reason: str = ""
    """Why the outcome is unknown (budget or clock), empty otherwise."""


def solver_available() -> tuple[bool, str]:
    try:
        from pysat.solvers import Minisat22
    except ImportError as error:
        return False, f"python-sat is not importable ({error}); install it: pip install 'countermem[domains]'"
    del Minisat22
    return True, ""


def solve(clauses: Sequence[Sequence[int]], budget: SolverBudget) -> SolveOutcome:
    """Decide `clauses` within `budget`; the model lists every variable the formula mentions."""
    try:
        from pysat.solvers import Minisat22
    except ImportError as error:
        raise CheckerUnavailableError(
            f"python-sat is not importable ({error}); install it: pip install 'countermem[domains]'"
        ) from error
    start = time.perf_counter()
    interrupted = threading.Event()
    with Minisat22(bootstrap_with=[list(clause) for clause in clauses]) as solver:
        solver.conf_budget(budget.conflicts)

        if budget.seconds is None:
            answer = solver.solve_limited()
        else:

            def _stop() -> None:
                interrupted.set()
                solver.interrupt()

            timer = threading.Timer(budget.seconds, _stop)
            timer.daemon = True
            timer.start()
            try:
                answer = solver.solve_limited(expect_interrupt=True)
            finally:
                timer.cancel()
        model = solver.get_model() if answer is True else None
    seconds = time.perf_counter() - start
    if answer is True:
        return SolveOutcome("sat", tuple(model or ()), seconds)
    if answer is False:
        return SolveOutcome("unsat", None, seconds)
    reason = (
        f"the solver hit the {budget.seconds} s time limit"
        if interrupted.is_set()
        else f"the solver used its budget of {budget.conflicts} conflicts without an answer"
    )
    return SolveOutcome("unknown", None, seconds, reason)
