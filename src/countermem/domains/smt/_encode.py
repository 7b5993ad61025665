"""`smt-encode`: turn a word problem into SMT-LIB 2 so that z3's model answers it.

The agent writes declarations and assertions; the task names the answer constants and their
sorts (the convention: declare each one with exactly that name, `(declare-const seat_ana Int)`;
helpers are free). z3 solves the filtered script in a fresh process under a deadline, the
answer constants are read from the model, and the problem's own Python validator judges the
values. Utility is the share of the problem's rules the decoded answer satisfies (1.0 and
`passed` when all hold), 0 when the encoding is unsat, unreadable or times out. An answer
constant that is not declared (or declared with a sort that cannot hold the value) counts as
missing and every rule reading it fails; one declared but absent from the model is
unconstrained and read as 0 / false, as z3's model completion would.
"""

from __future__ import annotations

import hashlib
import random
from functools import lru_cache
from importlib import resources

from countermem.core import (
    Action,
    CheckResult,
    ConfigError,
    Cost,
    DataUnavailableError,
    Facts,
    FactValue,
    ParseError,
    Task,
)
from countermem.domains._protocol import Availability
from countermem.domains._simple import TaskCopyWorldModel
from countermem.domains.smt._base import Z3Benchmark, require_z3, run_budgeted, usable_reply, z3_availability
from countermem.domains.smt._encode_catalog import build_catalog
from countermem.domains.smt._encode_problems import Problem, Value
from countermem.domains.smt._encode_script import EncodingScript, read_encoding
from countermem.domains.smt._process import ProcessOutcome

GOLD_FOLDER = "encode_gold"
_INT_SORTS = ("Int", "Real")


@lru_cache(maxsize=1)
def catalog() -> dict[str, Problem]:
    return {problem.id: problem for problem in build_catalog()}


def gold_encoding_text(problem_id: str) -> str:
    """The shipped gold encoding (package data `encode_gold/<id>.smt2`)."""
    source = resources.files("countermem.domains.smt").joinpath(GOLD_FOLDER, f"{problem_id}.smt2")
    if not source.is_file():
        raise DataUnavailableError(
            f"gold encoding {GOLD_FOLDER}/{problem_id}.smt2 is missing from the package; "
            "regenerate with `python -m countermem.domains.smt._encode_gold`"
        )
    return source.read_text(encoding="utf-8")


def _accepts(sort_text: str, wanted: str) -> bool:
    if wanted == "Bool":
        return sort_text == "Bool"
    return sort_text in _INT_SORTS or sort_text.startswith("(_ BitVec")


def judge_encoding(problem: Problem, script: EncodingScript, outcome: ProcessOutcome, timeout_s: float) -> CheckResult:
    reply = usable_reply(outcome, f"{timeout_s:g} s")
    if isinstance(reply, CheckResult):
        return reply
    cost = Cost(seconds=outcome.wall_seconds, calls=1)
    if reply.answer == "unknown":
        return CheckResult(utility=0.0, passed=False, completed=False, status="timeout", cost=cost,
                           details=f"z3 could not decide the encoding in budget ({reply.reason})")
    if reply.answer == "unsat":
        return CheckResult(utility=0.0, passed=False, completed=True, status="wrong", cost=cost,
                           details="the encoding is unsat: there is no model to read an answer from")
    values: dict[str, Value] = {var.name: reply.values.get(var.name) for var in problem.answers}
    verdicts = problem.validate(values)
    satisfied = sum(verdicts)
    utility = round(satisfied / len(verdicts), 6)
    shown = ", ".join(f"{name}={value}" for name, value in values.items())
    if satisfied == len(verdicts):
        return CheckResult(utility=1.0, passed=True, completed=True, status="passed", cost=cost,
                           details=f"all {len(verdicts)} rules hold for the decoded answer: {shown}"[:1500])
    broken = [f"{number}. {rule.text}" for number, (rule, ok) in enumerate(zip(problem.rules, verdicts, strict=True), 1)
              if not ok]
    notes = "; ".join(reply.notes)
    details = (
        f"{satisfied} of {len(verdicts)} rules hold. Broken: " + " | ".join(broken[:5])
        + (f" (+{len(broken) - 5} more)" if len(broken) > 5 else "")
        + (f" Notes: {notes}." if notes else "") + f" Decoded: {shown}"
    )
    return CheckResult(utility=utility, passed=False, completed=True, status="wrong", cost=cost, details=details[:1500])


class SMTEncodeWorldModel(TaskCopyWorldModel):
    foreign_state_message = "this State was not made by an smt-encode world model"

    def __init__(self, benchmark: SMTEncode) -> None:
        super().__init__()
        self._benchmark = benchmark

    def _accept(self, task: Task) -> None:
        self._benchmark.problem_for(task)

    def _fingerprint(self, task: Task) -> str:
        return hashlib.sha256(f"{task.id}\n{task.prompt}".encode()).hexdigest()

    def check(self, action: Action) -> CheckResult:
        task = self._require_task()
        problem = self._benchmark.problem_for(task)
        try:
            script = read_encoding(action.content)
        except ParseError as error:
            return CheckResult(utility=0.0, passed=False, completed=True, status="error",
                               details=f"malformed encoding: {error}", cost=Cost(calls=1))
        answers = [
            [var.name, var.sort] for var in problem.answers
            if var.name in script.constants and _accepts(script.constants[var.name], var.sort)
        ]
        timeout_s = self._benchmark.timeout_s
        outcome = run_budgeted({"mode": "encode", "script": script.text, "answers": answers}, timeout_s)
        return judge_encoding(problem, script, outcome, timeout_s)


class SMTEncode(Z3Benchmark):
    name = "smt-encode"
    domain = "smt"
    description = "Encode a small word problem (scheduling, seating, puzzles, packing) in SMT-LIB 2 for z3"
    action_language = "smt2"

    def availability(self) -> Availability:
        return z3_availability()

    def problem_for(self, task: Task) -> Problem:
        problem = catalog().get(task.id)
        if problem is None:
            raise ConfigError(f"{task.id!r} is not an smt-encode task")
        return problem

    def tasks(self) -> list[Task]:
        return [
            Task(
                id=problem.id,
                benchmark=self.name,
                domain=self.domain,
                prompt=problem.statement(),
                environment=None,
                gold=gold_encoding_text(problem.id),
                metadata={
                    "family": problem.family,
                    "partner": problem.partner,
                    "answers": [[var.name, var.sort] for var in problem.answers],
                    "n_rules": len(problem.rules),
                },
            )
            for problem in catalog().values()
        ]

    def world_model(self) -> SMTEncodeWorldModel:
        require_z3()
        return SMTEncodeWorldModel(self)

    def gold_action(self, task: Task) -> Action:
        return Action(content=gold_encoding_text(self.problem_for(task).id))

    def wrong_action(self, task: Task) -> Action:
        """The look-alike partner's gold encoding: well formed, satisfiable, and wrong here."""
        return Action(content=gold_encoding_text(self.problem_for(task).partner))

    def lookalikes(self, task: Task, rng: random.Random) -> list[Task]:
        """The partner first (one rule changed), then up to two more problems of the same family."""
        problem = self.problem_for(task)
        by_id = {other.id: other for other in self.tasks()}
        same_family = sorted(
            other_id for other_id, other in catalog().items()
            if other.family == problem.family and other_id not in (problem.id, problem.partner)
        )
        extra = rng.sample(same_family, min(2, len(same_family)))
        return [by_id[problem.partner], *(by_id[other_id] for other_id in extra)]

    def instructions(self) -> str:
        return INSTRUCTIONS.format(timeout=self.timeout_s)

    def render_task(self, task: Task) -> str:
        problem = self.problem_for(task)
        lines = [f"Problem {problem.id}", problem.statement(), "", "Answer constants (declare each with exactly this name and sort):"]
        lines.extend(f"  {var.name} : {var.sort}  - {var.meaning}" for var in problem.answers)
        return "\n".join(lines)

    def facts(self, task: Task, action: Action | None = None) -> Facts:
        problem = self.problem_for(task)
        values: dict[str, FactValue] = {
            "problem_type": problem.family,
            "n_entities": problem.entities,
            "n_answer_consts": len(problem.answers),
            "n_rules": len(problem.rules),
            "answer_sorts": tuple(sorted({var.sort for var in problem.answers})),
        }
        if action is not None:
            values.update(encoding_facts(problem, action))
        return Facts(values=values)


def encoding_facts(problem: Problem, action: Action) -> dict[str, FactValue]:
    try:
        script = read_encoding(action.content)
    except ParseError:
        return {"action_parses": False}
    declared = [var.name for var in problem.answers if var.name in script.constants]
    return {
        "action_parses": True,
        "action_n_asserts": script.n_asserts,
        "action_n_declared": len(script.constants),
        "action_declares_all_answers": len(declared) == len(problem.answers),
        "action_uses_quantifiers": bool(script.symbols & {"forall", "exists"}),
        "action_uses_ite": "ite" in script.symbols,
        "action_uses_distinct": "distinct" in script.symbols,
        "action_defines_functions": any(h.startswith("define-fun") for h in script.heads),
    }


INSTRUCTIONS = """\
You encode a word problem in SMT-LIB 2 so that the z3 solver finds its answer.
Write declarations and assertions only:

    (declare-const seat_ana Int)                 ; every answer constant the task lists,
    (assert (and (>= seat_ana 1) (<= seat_ana 5))) ; with exactly that name and sort
    (assert (distinct seat_ana seat_ben))

Allowed commands: set-logic, declare-const, declare-fun, define-fun, define-fun-rec,
define-sort, declare-sort, declare-datatype(s), assert. (check-sat), (get-model), (get-value ...),
(exit) and set-info are optional and ignored; any other command (set-option, push, pop, echo,
eval, include, ...) makes the encoding malformed. Helper constants and functions are fine.

z3 solves your encoding within {timeout:g} s; the answer constants are read from its model and
checked against every rule of the problem by an independent checker. Utility is the share of
rules the answer satisfies (1.0 when all hold); an unsat encoding, a timeout or a malformed
script scores 0. Encode every rule: an encoding that forgets one may yield a model that breaks it.
Answer with the encoding alone in a ```smt2 code block."""
