"""sat-encode: the agent writes a CNF for a small combinatorial problem; a solver picks a model.

The judge never trusts the encoding. MiniSat (within a conflict budget) finds one model of the
agent's CNF, the model is decoded through the problem's numbering convention, and the decoded
solution is checked against the problem's own constraints. Utility is the share of constraints
the decoded solution satisfies. Every problem here is satisfiable (the tests prove it with the
gold encodings), so an unsatisfiable CNF or an UNSAT answer scores 0.

A CNF can be right for the model the solver happens to pick and still admit wrong models; the
judge sees only the one it gets. That is the price of checking by decoding, and it is why the
instructions ask for a CNF whose every model is a solution.
"""

from __future__ import annotations

import random
import time

from countermem.core import (
    Action,
    CheckResult,
    ConfigError,
    Facts,
    FactValue,
    ParseError,
    Task,
)
from countermem.domains._protocol import Availability
from countermem.domains.sat._answer import count_literal_tokens, is_unsat_claim
from countermem.domains.sat._base import SolverBenchmark, SolverWorldModel, timed_result
from countermem.domains.sat._catalog import PROBLEMS, partners, problem_by_id
from countermem.domains.sat._cnf import CNF, parse_dimacs, strip_fence
from countermem.domains.sat._problems import EncodeProblem
from countermem.domains.sat._render import listed_with_limit
from countermem.domains.sat._solver import SolverBudget, solve, solver_available

GOLD_BUDGET = SolverBudget(conflicts=1_000_000, seconds=None)


def task_problem(task: Task) -> EncodeProblem:
    pid = task.metadata.get("problem_id")
    problem = problem_by_id(pid) if isinstance(pid, str) else None
    if problem is None:
        raise ConfigError(f"task {task.id!r} names no known sat-encode problem (problem_id={pid!r})")
    return problem


class SATEncodeWorldModel(SolverWorldModel):
    """Judges CNF encodings of one problem; the state is the (immutable) problem."""

    payload_type = EncodeProblem

    def _payload(self, task: Task) -> tuple[EncodeProblem, str]:
        problem = task_problem(task)
        return problem, problem.fingerprint()

    def check(self, action: Action) -> CheckResult:
        started = time.perf_counter()
        problem: EncodeProblem = self._current().payload
        if is_unsat_claim(action.content):
            return timed_result(
                "wrong", 0.0, "wrong: every sat-encode problem has a solution; answer with a CNF.", started
            )
        try:
            cnf = parse_dimacs(strip_fence(action.content))
        except ParseError as error:
            return timed_result("error", 0.0, f"malformed CNF: {error}", started)
        outcome = solve(cnf.clauses, self.budget)
        if outcome.status == "unknown":
            return timed_result(
                "timeout", 0.0, f"the CNF could not be solved: {outcome.reason}.", started, completed=False
            )
        note = _header_note(cnf)
        if outcome.status == "unsat":
            return timed_result(
                "wrong",
                0.0,
                "wrong: your CNF is unsatisfiable, but the problem has a solution; some clauses "
                f"over-constrain it.{note}",
                started,
            )
        true_vars = frozenset(lit for lit in outcome.model or () if 0 < lit <= problem.n_vars)
        total, violated = problem.violations(true_vars)
        decoded = problem.decode(true_vars)
        if not violated:
            return timed_result(
                "passed",
                1.0,
                f"correct: the solver's model decodes to a valid solution. {decoded}.{note}",
                started,
            )
        return timed_result(
            "wrong",
            (total - len(violated)) / total,
            f"the solver's model decodes to: {decoded}. {total - len(violated)} of {total} constraints hold; "
            f"violated: {listed_with_limit(violated)}.{note}",
            started,
        )


def _header_note(cnf: CNF) -> str:
    if cnf.declared_clauses is not None and cnf.declared_clauses != cnf.n_clauses:
        return f" (note: the header declares {cnf.declared_clauses} clauses, the CNF has {cnf.n_clauses})"
    return ""


class SATEncode(SolverBenchmark):
    name = "sat-encode"
    domain = "sat"
    description = (
        "Encode small combinatorial problems (graph colouring, n-queens, Latin squares, pigeonhole-style "
        "placement, scheduling) as DIMACS CNF under a fixed variable numbering; all are satisfiable"
    )
    action_language = "dimacs"

    def availability(self) -> Availability:
        ok, reason = solver_available()
        return Availability(ok, reason)

    def tasks(self) -> list[Task]:
        return [
            Task(
                id=f"{self.name}/{problem.pid}",
                benchmark=self.name,
                domain=self.domain,
                prompt=problem.statement(),
                environment=None,
                gold=problem.gold_cnf().to_dimacs(),
                metadata={
                    "problem_id": problem.pid,
                    "problem_type": problem.kind,
                    "n_problem_vars": problem.n_vars,
                },
            )
            for problem in PROBLEMS
        ]

    def world_model(self) -> SATEncodeWorldModel:
        return SATEncodeWorldModel(self.budget())

    def gold_action(self, task: Task) -> Action:
        return Action(content=task_problem(task).gold_cnf().to_dimacs())

    def wrong_action(self, task: Task) -> Action:
        """Unit clauses pinning a valid solution with one true problem variable switched off.

        Every problem requires "exactly one" of some group, so this violates at least one
        constraint and usually keeps the rest, giving a partial utility.
        """
        problem = task_problem(task)
        outcome = solve(problem.gold_cnf().clauses, GOLD_BUDGET)
        if outcome.model is None:
            raise ConfigError(
                f"{task.id}: the gold encoding has no model ({outcome.status}); the catalog is wrong"
            )
        true_vars = sorted(lit for lit in outcome.model if 0 < lit <= problem.n_vars)
        dropped = random.Random(task.id).choice(true_vars)
        units = [
            (var if var in true_vars and var != dropped else -var,) for var in range(1, problem.n_vars + 1)
        ]
        return Action(content=CNF(n_vars=problem.n_vars, clauses=tuple(units)).to_dimacs())

    def lookalikes(self, task: Task, rng: random.Random) -> list[Task]:
        """The task's look-alike partners: same shape, one constraint stated the opposite way."""
        wanted = set(partners(task_problem(task).pid))
        found = [t for t in self.tasks() if t.metadata.get("problem_id") in wanted]
        rng.shuffle(found)
        return found

    def instructions(self) -> str:
        return (
            "You are given a small combinatorial problem and a fixed numbering of its Boolean variables. "
            "Write a CNF formula in DIMACS format whose models are exactly the solutions: an optional "
            "header 'p cnf <variables> <clauses>', then clauses as signed integers each ending in 0 "
            "(3 means variable 3 is true, -3 that it is false); lines starting with 'c' are comments.\n"
            "Variables 1..N must follow the stated numbering; numbers above N are free auxiliary "
            "variables. A SAT solver picks ONE model of your CNF (any one); it is decoded through the "
            "numbering (problem variables your CNF never mentions count as false) and checked against "
            "every rule of the problem, so make every model a valid solution.\n"
            "Scoring: the share of the problem's constraints the decoded solution satisfies; success "
            "only when all hold. Every problem here has a solution: an unsatisfiable CNF, or answering "
            "UNSAT, scores 0. The check lists the decoded solution and the violated constraints."
        )

    def render_task(self, task: Task) -> str:
        problem = task_problem(task)
        return f"{problem.statement()}\n\nThis problem has at least one solution. Answer with a DIMACS CNF."

    def facts(self, task: Task, action: Action | None = None) -> Facts:
        problem = task_problem(task)
        values: dict[str, FactValue] = {
            "benchmark": self.name,
            "problem_type": problem.kind,
            "n_problem_vars": problem.n_vars,
            "n_constraints": len(problem.constraints()),
            "declared_satisfiable": True,
            **problem.size_facts(),
        }
        if action is not None:
            values["is_unsat_claim"] = is_unsat_claim(action.content)
            try:
                cnf = parse_dimacs(strip_fence(action.content))
            except ParseError:
                values["well_formed"] = False
                values["n_literals"] = count_literal_tokens(action.content)
            else:
                values["well_formed"] = True
                values["n_literals"] = cnf.n_literals
                values["n_clauses"] = cnf.n_clauses
                values["n_vars"] = cnf.n_vars
                values["uses_auxiliary_vars"] = cnf.n_vars > problem.n_vars
        return Facts(values=values)
