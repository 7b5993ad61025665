"""SATLIB: find a satisfying assignment of a stored DIMACS formula, or prove there is none.

Utility is the share of clauses an assignment satisfies; it passes only when all are. A claim
of unsatisfiability is judged by MiniSat within a conflict budget: a proof passes, a found
model fails with utility 0, and an exhausted budget leaves the check incomplete, because then
nobody knows.

What the agent is not told: the SATLIB family name, since `uf50` and `uuf50` differ only in
satisfiability and their names say which. The rendered formula is the canonical DIMACS
without the original comments; `facts` name the instance shape (`random-3sat-50-218`), not
the family. Task ids and environments do keep SATLIB's names (the split runner needs them), so
they must not be shown to an agent.
"""

from __future__ import annotations

import random
import time
from functools import lru_cache
from pathlib import Path

from countermem.core import (
    Action,
    CheckResult,
    CheckStatus,
    ConfigError,
    DataUnavailableError,
    Facts,
    FactValue,
    ParseError,
    Task,
)
from countermem.domains._protocol import Availability, BenchmarkOptions
from countermem.domains.sat._answer import (
    Assignment,
    UnsatClaim,
    count_literal_tokens,
    is_unsat_claim,
    parse_answer,
)
from countermem.domains.sat._base import SolverBenchmark, SolverWorldModel, timed_result
from countermem.domains.sat._cnf import CNF, parse_dimacs
from countermem.domains.sat._render import cnf_statistics, render_cnf, violated_clauses_report
from countermem.domains.sat._satlib_data import FAMILIES, SatlibInstance, load_family, satlib_root
from countermem.domains.sat._solver import SolverBudget, solve, solver_available

UNSAT = "UNSAT"
GOLD_BUDGET = SolverBudget(conflicts=10_000_000, seconds=None)
"""Budget for computing gold answers at load time; every shipped instance needs far less."""
LOOKALIKES_PER_TASK = 3


@lru_cache(maxsize=4096)
def _cnf_of(dimacs: str) -> CNF:
    return parse_dimacs(dimacs, require_header=True)


def task_cnf(task: Task) -> CNF:
    dimacs = task.metadata.get("cnf")
    if not isinstance(dimacs, str):
        raise ConfigError(f"task {task.id!r} carries no 'cnf' in its metadata; it is not a satlib task")
    return _cnf_of(dimacs)


class SATLibWorldModel(SolverWorldModel):
    """Judges answers to one formula; the state is the formula itself, so a copy is trivial."""

    payload_type = CNF

    def _payload(self, task: Task) -> tuple[CNF, str]:
        cnf = task_cnf(task)
        return cnf, cnf.fingerprint

    def check(self, action: Action) -> CheckResult:
        started = time.perf_counter()
        cnf: CNF = self._current().payload
        try:
            answer = parse_answer(action.content, cnf.n_vars)
        except ParseError as error:
            return timed_result("error", 0.0, f"malformed answer: {error}", started)
        if isinstance(answer, UnsatClaim):
            return self._check_unsat_claim(cnf, started)
        satisfied = cnf.satisfied(answer.true_literals)
        utility = sum(satisfied) / len(satisfied) if satisfied else 1.0
        status: CheckStatus = "passed" if all(satisfied) else "wrong"
        return timed_result(status, utility, violated_clauses_report(cnf, satisfied), started)

    def _check_unsat_claim(self, cnf: CNF, started: float) -> CheckResult:
        outcome = solve(cnf.clauses, self.budget)
        if outcome.status == "unsat":
            return timed_result("passed", 1.0, "correct: the solver proved the formula unsatisfiable.", started)
        if outcome.status == "sat":
            return timed_result(
                "wrong",
                0.0,
                "wrong: the formula is satisfiable (the solver found a model); give an assignment instead.",
                started,
            )
        return timed_result(
            "timeout",
            0.0,
            f"the UNSAT claim could not be checked: {outcome.reason}.",
            started,
            completed=False,
        )


def gold_answer(instance: SatlibInstance) -> str:
    """MiniSat's answer (deterministic), cross-checked against the family's declared status."""
    cnf = instance.cnf
    outcome = solve(cnf.clauses, GOLD_BUDGET)
    declared = instance.family.satisfiable
    if outcome.status == "unknown":
        raise DataUnavailableError(
            f"{instance.member}: no gold answer within the gold budget ({outcome.reason})"
        )
    if (outcome.status == "sat") != declared:
        raise DataUnavailableError(
            f"{instance.member}: declared {'satisfiable' if declared else 'unsatisfiable'} by SATLIB, "
            f"but MiniSat says {outcome.status}; the data is not what SOURCE.md describes"
        )
    if outcome.model is None:
        return UNSAT
    true_vars = {lit for lit in outcome.model if lit > 0}
    return Assignment(
        literals=tuple(var if var in true_vars else -var for var in range(1, cnf.n_vars + 1))
    ).to_text()


class SATLib(SolverBenchmark):
    name = "satlib"
    domain = "sat"
    description = (
        "SATLIB uniform random 3-SAT (uf20-91, uf50-218, unsatisfiable uuf50-218) and flat graph "
        "colouring (flat100-239): give a satisfying assignment or claim UNSAT"
    )
    action_language = "text"

    def __init__(self, options: BenchmarkOptions | None = None) -> None:
        super().__init__(options)
        self._by_shape: dict[str, list[Task]] | None = None

    def availability(self) -> Availability:
        ok, reason = solver_available()
        if not ok:
            return Availability(False, reason)
        try:
            folder = satlib_root(self.options.data_dir)
        except DataUnavailableError as error:
            return Availability(False, str(error))
        missing = [f.archive for f in FAMILIES if not (folder / f.archive).is_file()]
        if missing:
            return Availability(False, f"{folder} lacks {', '.join(missing)}; see its SOURCE.md")
        return Availability(True)

    def data_source(self) -> Path | None:
        return satlib_root(self.options.data_dir)

    def tasks(self) -> list[Task]:
        return list(_load_tasks(satlib_root(self.options.data_dir)))

    def world_model(self) -> SATLibWorldModel:
        return SATLibWorldModel(self.budget())

    def gold_action(self, task: Task) -> Action:
        if task.gold is None:
            raise ConfigError(f"task {task.id!r} has no gold answer; load it through SATLib.tasks()")
        return Action(content=task.gold)

    def wrong_action(self, task: Task) -> Action:
        """UNSAT gold: the all-true assignment (wrong on an unsatisfiable formula by definition).

        Satisfiable gold: the gold assignment with 1-3 flips, the first of a variable that is the
        only true literal of some clause, so at least one clause is violated.
        """
        gold = self.gold_action(task).content
        cnf = task_cnf(task)
        if is_unsat_claim(gold):
            return Action(content=Assignment(tuple(range(1, cnf.n_vars + 1))).to_text())
        answer = parse_answer(gold, cnf.n_vars)
        assert isinstance(answer, Assignment)
        flipped = _flip_to_violate(cnf, answer, random.Random(task.id))
        if flipped is None:
            return Action(content=UNSAT)
        return Action(content=flipped.to_text())

    def lookalikes(self, task: Task, rng: random.Random) -> list[Task]:
        """Same instance shape (uf50 and uuf50 share one), where this task's gold answer is wrong."""
        by_shape = self._shapes()
        candidates = [t for t in by_shape.get(str(task.metadata.get("shape")), []) if t.id != task.id]
        rng.shuffle(candidates)
        gold = self.gold_action(task).content
        found: list[Task] = []
        for candidate in candidates:
            if not _answer_passes(gold, candidate):
                found.append(candidate)
                if len(found) == LOOKALIKES_PER_TASK:
                    break
        return found

    def _shapes(self) -> dict[str, list[Task]]:
        if self._by_shape is None:
            by_shape: dict[str, list[Task]] = {}
            for t in self.tasks():
                by_shape.setdefault(str(t.metadata["shape"]), []).append(t)
            self._by_shape = by_shape
        return self._by_shape

    def instructions(self) -> str:
        return (
            "You are given a propositional formula in DIMACS CNF: 'p cnf <variables> <clauses>', then "
            "one clause per line as signed integers ending in 0 (3 means x3, -3 means NOT x3). A clause "
            "is satisfied when at least one of its literals is true.\n"
            "Answer with EITHER a complete assignment: every variable 1..n exactly once as a signed "
            "literal (positive = true, negative = false), separated by spaces, e.g. 'v 1 -2 3 -4 0' "
            "(the 'v' prefix and the final 0 are optional); OR the single word UNSAT if you claim no "
            "assignment satisfies all clauses.\n"
            "Scoring: an assignment scores the share of clauses it satisfies and succeeds only when it "
            "satisfies all; the check lists the violated clauses (numbered from 1 in the given order). "
            "An UNSAT claim is verified by a SAT solver and scores 0 if the formula is satisfiable. "
            "Missing, repeated or contradictory variables are rejected."
        )

    def render_task(self, task: Task) -> str:
        cnf = task_cnf(task)
        return f"{task.prompt}\n\nStatistics: {cnf_statistics(cnf)}.\n\n```dimacs\n{render_cnf(cnf)}```"

    def facts(self, task: Task, action: Action | None = None) -> Facts:
        cnf = task_cnf(task)
        lengths = [len(clause) for clause in cnf.clauses] or [0]
        values: dict[str, FactValue] = {
            "benchmark": self.name,
            "family": str(task.metadata.get("shape", "")),
            "n_vars": cnf.n_vars,
            "n_clauses": cnf.n_clauses,
            "clause_var_ratio": round(cnf.n_clauses / cnf.n_vars, 3) if cnf.n_vars else 0.0,
            "max_clause_length": max(lengths),
            "min_clause_length": min(lengths),
        }
        if action is not None:
            values["is_unsat_claim"] = is_unsat_claim(action.content)
            values["n_literals"] = count_literal_tokens(action.content)
            try:
                parse_answer(action.content, cnf.n_vars)
                values["well_formed"] = True
            except ParseError:
                values["well_formed"] = False
        return Facts(values=values)


@lru_cache(maxsize=2)
def _load_tasks(folder: Path) -> tuple[Task, ...]:
    """Parsed once per process and data folder: parsing and solving 2480 formulas takes seconds."""
    return tuple(_task(instance) for family in FAMILIES for instance in load_family(folder, family))


def _task(instance: SatlibInstance) -> Task:
    cnf = instance.cnf
    return Task(
        id=f"satlib/{instance.family.environment}/{instance.stem}",
        benchmark=SATLib.name,
        domain=SATLib.domain,
        prompt=(
            f"Find a truth assignment that satisfies every clause of the CNF formula below "
            f"({cnf.n_vars} variables, {cnf.n_clauses} clauses), or answer UNSAT if no assignment "
            "satisfies it."
        ),
        environment=instance.family.environment,
        gold=gold_answer(instance),
        metadata={
            "cnf": cnf.to_dimacs(),
            "shape": instance.family.shape,
            "source_member": instance.member,
            "n_vars": cnf.n_vars,
            "n_clauses": cnf.n_clauses,
        },
    )


def _answer_passes(answer_text: str, task: Task) -> bool:
    """Whether `answer_text` would pass on `task`, using the task's verified gold for UNSAT claims."""
    cnf = task_cnf(task)
    try:
        answer = parse_answer(answer_text, cnf.n_vars)
    except ParseError:
        return False
    if isinstance(answer, UnsatClaim):
        return task.gold is not None and is_unsat_claim(task.gold)
    return all(cnf.satisfied(answer.true_literals))


def _flip_to_violate(cnf: CNF, gold: Assignment, rng: random.Random) -> Assignment | None:
    true_literals = gold.true_literals
    critical = sorted(
        {
            abs(true[0])
            for clause in cnf.clauses
            if len(true := [lit for lit in clause if lit in true_literals]) == 1
        }
    )
    if not critical:
        return None
    flips = [rng.choice(critical)]
    others = [var for var in range(1, cnf.n_vars + 1) if var != flips[0]]
    flips.extend(rng.sample(others, k=min(2, len(others))))
    for count in (3, 2, 1):
        chosen = set(flips[:count])
        candidate = Assignment(tuple(-lit if abs(lit) in chosen else lit for lit in gold.literals))
        if not all(cnf.satisfied(candidate.true_literals)):
            return candidate
    return None
