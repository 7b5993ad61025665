"""`smtlib`: choose a z3 strategy that decides a real SMT-LIB instance within a budget.

Budget and utility. Each check has a wall-clock budget `timeout_s` (default 5 s,
`BenchmarkOptions.timeout_s` overrides) and an effort budget of `timeout_s * EFFORT_PER_SECOND`
units of z3's deterministic resource counter ("rlimit count"; about 4-10 million units per
second of solving on the development machine). z3 gets both as its `timeout` and `rlimit`
parameters, and the checking process is killed at `timeout_s + HARD_MARGIN_S` whatever z3 does.

A correct answer (sat with a model that makes every assertion true, or unsat where the file
declares unsat) earns utility `1 - 0.5 * min(1, effort / effort_budget)`, so in [0.5, 1]:
faster strategies earn more. Effort, not wall time, scales the utility because wall time
jitters from run to run and the world-model protocol needs the same action to get the same
result from the same state. Everything else earns 0:

- `wrong`, completed: the answer contradicts the declared status (details say WRONG ANSWER),
  or a sat model falsifies an assertion (details say BOGUS SAT);
- `wrong`, not completed: the strategy gave up (z3 answered unknown, e.g. the `fail` or
  `skip` tactic, or an incomplete tactic);
- `timeout`, not completed: the soft timeout, the effort budget, or the hard kill ended it;
- `error`, completed: the strategy is malformed or z3 refused it (unknown tactic, parameter);
- `error`, not completed: the checking process crashed or hit its memory limit.
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

from countermem.core import (
    Action,
    CheckerUnavailableError,
    CheckResult,
    ConfigError,
    Cost,
    CountermemError,
    DataUnavailableError,
    Facts,
    FactValue,
    ParseError,
    Task,
)
from countermem.domains._protocol import Availability, BenchmarkOptions
from countermem.domains._simple import TaskCopyWorldModel
from countermem.domains.smt._base import (
    HARD_MARGIN_S,
    Z3Benchmark,
    effort_for,
    require_z3,
    run_budgeted,
    usable_reply,
    z3_availability,
)
from countermem.domains.smt._gold import gold_table
from countermem.domains.smt._instances import (
    RENDER_CHAR_LIMIT,
    Instance,
    agent_view,
    data_folder,
    instance_file,
    instance_stats,
    read_index,
    select_instances,
    size_bucket,
)
from countermem.domains.smt._process import ProcessOutcome, RunnerReply
from countermem.domains.smt._strategy import Strategy, parse_strategy

WRONG_STRATEGY = "fail"
"""z3's `fail` tactic gives up on every goal: a strategy known to solve nothing."""


class GoldUnknownError(DataUnavailableError):
    """No strategy is known to solve this task within the budget (a hard instance)."""


def _incomplete(reason: str) -> bool:
    lowered = reason.lower()
    return any(word in lowered for word in ("timeout", "canceled", "cancelled", "resource limit", "memout"))


def judge_strategy_reply(
    outcome: ProcessOutcome, declared: str, effort_budget: int, timeout_s: float
) -> CheckResult:
    """Turn the checking process's reply into a CheckResult (see the module docstring)."""
    reply = usable_reply(outcome, f"{timeout_s:g} s + {HARD_MARGIN_S:g} s margin")
    if isinstance(reply, CheckResult):
        return reply
    cost = Cost(seconds=outcome.wall_seconds, calls=1)
    if reply.answer == "unknown":
        if _incomplete(reply.reason) or reply.effort >= effort_budget:
            return CheckResult(
                utility=0.0, passed=False, completed=False, status="timeout", cost=cost,
                details=f"budget exhausted ({reply.reason}; effort {reply.effort:,} of {effort_budget:,})",
            )
        return CheckResult(
            utility=0.0, passed=False, completed=False, status="wrong", cost=cost,
            details=f"the strategy gave up: z3 answered unknown ({reply.reason or 'no reason given'})",
        )
    stats = f"effort {reply.effort:,} of {effort_budget:,}; {reply.solve_seconds:.3f} s solving"
    if reply.answer == "sat" and reply.violated:
        return CheckResult(
            utility=0.0, passed=False, completed=True, status="wrong", cost=cost,
            details=(
                f"BOGUS SAT: the model falsifies {reply.violated} of {reply.assertions} assertions; "
                f"first: {reply.first_violation[:200]}"
            ),
        )
    if reply.answer != declared:
        extra = " (its model satisfies every assertion: the declared status may be wrong)" if reply.answer == "sat" else ""
        return CheckResult(
            utility=0.0, passed=False, completed=True, status="wrong", cost=cost,
            details=f"WRONG ANSWER: z3 said {reply.answer}, the file declares {declared}{extra}; {stats}",
        )
    utility = round(1.0 - 0.5 * min(1.0, reply.effort / effort_budget), 6)
    checked = f", model checked against all {reply.assertions} assertions" if reply.answer == "sat" else ""
    return CheckResult(
        utility=utility, passed=True, completed=True, status="passed", cost=cost,
        details=f"{reply.answer} as declared{checked}; {stats}",
    )


class SMTLibWorldModel(TaskCopyWorldModel):
    """Judges strategies on one instance; stateless between checks apart from the task."""

    foreign_state_message = "this State was not made by an smtlib world model"

    def __init__(self, benchmark: SMTLib) -> None:
        super().__init__()
        self._benchmark = benchmark

    def _accept(self, task: Task) -> None:
        self._benchmark.instance_for(task)

    def _fingerprint(self, task: Task) -> str:
        return hashlib.sha256(f"{task.id}:{task.metadata.get('sha256', '')}".encode()).hexdigest()

    def check(self, action: Action) -> CheckResult:
        task = self._require_task()
        try:
            strategy = parse_strategy(action.content)
        except ParseError as error:
            return CheckResult(
                utility=0.0, passed=False, completed=True, status="error",
                details=f"malformed strategy: {error}", cost=Cost(calls=1),
            )
        return self.evaluate(task, strategy)[0]

    def evaluate(self, task: Task, strategy: Strategy) -> tuple[CheckResult, RunnerReply | None]:
        """The check result and the checking process's raw reply (for calibration and reports)."""
        instance = self._benchmark.instance_for(task)
        path = instance_file(self._benchmark.folder, instance)
        timeout_s = self._benchmark.timeout_s
        fields: dict[str, object] = {
            "mode": "strategy",
            "instance": str(path),
            "logic": instance.logic,
            "strategy": strategy.to_json(),
        }
        outcome = run_budgeted(fields, timeout_s)
        declared = str(task.metadata.get("declared_status", instance.status))
        return judge_strategy_reply(outcome, declared, effort_for(timeout_s), timeout_s), outcome.reply


class SMTLib(Z3Benchmark):
    name = "smtlib"
    domain = "smt"
    description = "Pick a z3 tactic strategy that decides a real SMT-LIB 2.6 instance within a time budget"
    action_language = "smt2"

    def __init__(self, options: BenchmarkOptions | None = None) -> None:
        super().__init__(options)
        self._instances: dict[str, Instance] | None = None
        self._tasks: list[Task] | None = None

    @property
    def folder(self) -> Path:
        return data_folder(self.options.data_dir)

    def data_source(self) -> Path | None:
        return self.folder

    def availability(self) -> Availability:
        z3_present = z3_availability()
        if not z3_present.available:
            return z3_present
        try:
            self.tasks()
        except CountermemError as error:
            return Availability(False, str(error))
        return Availability(True)

    def _load(self) -> dict[str, Instance]:
        if self._instances is None:
            rows = select_instances(read_index(self.folder))
            self._instances = {row.task_id: row for row in rows}
        return self._instances

    def instance_for(self, task: Task) -> Instance:
        instance = self._load().get(task.id)
        if instance is None:
            raise ConfigError(f"{task.id!r} is not an smtlib task")
        return instance

    def tasks(self) -> list[Task]:
        if self._tasks is None:
            table = gold_table()
            out: list[Task] = []
            for task_id, row in self._load().items():
                entry = table.entries.get(task_id) if table else None
                out.append(
                    Task(
                        id=task_id,
                        benchmark=self.name,
                        domain=self.domain,
                        prompt=(
                            f"Write a z3 strategy that decides this {row.logic} instance "
                            f"(sat or unsat) within {self.timeout_s:g} seconds."
                        ),
                        environment=row.logic,
                        gold=entry.strategy if entry else None,
                        metadata={
                            "path": row.path,
                            "logic": row.logic,
                            "family": row.family,
                            "declared_status": row.status,
                            "bytes": row.bytes,
                            "sha256": row.sha256,
                            "reference_z3_result": row.z3_reference_result,
                            "reference_z3_seconds": row.z3_reference_seconds,
                            "gold_effort": entry.effort if entry else None,
                        },
                    )
                )
            self._tasks = out
        return list(self._tasks)

    def world_model(self) -> SMTLibWorldModel:
        require_z3()
        return SMTLibWorldModel(self)

    def gold_action(self, task: Task) -> Action:
        """The calibrated strategy; raises GoldUnknownError for instances no tried strategy solved."""
        table = gold_table()
        if table is None:
            raise GoldUnknownError(
                "smtlib_gold.json is missing: run `python -m countermem.domains.smt._calibrate` to calibrate"
            )
        entry = table.entries.get(task.id)
        if entry is None:
            seen = table.unsolved.get(task.id, "not calibrated")
            raise GoldUnknownError(
                f"no strategy is known to solve {task.id} within {table.timeout_s:g} s with z3 "
                f"{table.z3_version} (calibration: {seen})"
            )
        return Action(content=entry.strategy)

    def wrong_action(self, task: Task) -> Action:
        return Action(content=WRONG_STRATEGY)

    def lookalikes(self, task: Task, rng: random.Random) -> list[Task]:
        """Same family, opposite declared status: a strategy that proved one may not refute the other."""
        instance = self.instance_for(task)
        pool = [
            other for other in self.tasks()
            if other.metadata["family"] == instance.family and other.metadata["declared_status"] != instance.status
        ]
        pool.sort(key=lambda other: other.id)
        return rng.sample(pool, min(3, len(pool)))

    def instructions(self) -> str:
        return INSTRUCTIONS.format(timeout=self.timeout_s)

    def render_task(self, task: Task) -> str:
        instance = self.instance_for(task)
        path = instance_file(self.folder, instance)
        stats = instance_stats(path)
        note, body, cut = agent_view(path.read_text(encoding="utf-8"))
        lines = [
            f"Instance {task.id}",
            f"Logic: {instance.logic}    family: {instance.family}    file size: {instance.bytes:,} bytes",
            (
                f"Declared constants: {stats.n_declared_consts}    top-level assertions: {stats.n_assertions}    "
                f"expression nodes: {stats.n_exprs}"
            ),
            (
                f"Nonlinear arithmetic: {'yes' if stats.uses_nonlinear else 'no'}    quantifiers: "
                f"{'yes' if stats.has_quantifiers else 'no'}    widest bit-vector: {stats.bit_width or '-'}"
            ),
            f"Budget: {self.timeout_s:g} s wall clock and {effort_for(self.timeout_s):,} z3 effort units.",
        ]
        if note:
            lines.append(f"Source note: {note}")
        lines.append(f"Instance text without its set-info commands, first {RENDER_CHAR_LIMIT} characters:")
        lines.append(body)
        if cut:
            lines.append(f"[... {cut:,} more characters not shown]")
        return "\n".join(lines)

    def facts(self, task: Task, action: Action | None = None) -> Facts:
        instance = self.instance_for(task)
        stats = instance_stats(instance_file(self.folder, instance))
        values: dict[str, FactValue] = {
            "logic": instance.logic,
            "family": instance.family,
            "size_bucket": size_bucket(instance.bytes),
            **stats.as_facts(),
        }
        if action is not None:
            values.update(strategy_facts(action))
        return Facts(values=values)


def strategy_facts(action: Action) -> dict[str, FactValue]:
    try:
        strategy = parse_strategy(action.content)
    except (ParseError, CheckerUnavailableError):
        return {"action_parses": False}
    return {
        "action_parses": True,
        "action_tactics": strategy.tactics_used(),
        "action_combinators": strategy.combinators_used(),
        "action_n_options": len(strategy.options),
        "action_default_solver": strategy.tactic is None,
    }


INSTRUCTIONS = """\
You choose how z3 solves an SMT-LIB instance. Your action is a z3 STRATEGY, not a formula:
a tactic expression in z3's tactic language, optionally preceded by global options.

    (set-option :smt.random_seed 7)           ; zero or more options (true/false/number/symbol values)
    (then simplify solve-eqs (or-else smt sat))

Forms: a tactic name (smt, simplify, propagate-values, solve-eqs, qflia, qfidl, qfbv, qfnia,
qfnra, nlsat, bit-blast, sat, nla2bv, lia2pb, ...); (then T1 T2 ...); (or-else T1 T2 ...);
(try-for T MILLISECONDS); (repeat T [MAX]); (using-params T :key value ...);
(if PROBE T1 T2); (when PROBE T); (fail-if PROBE), where a PROBE is a number, a probe name
(size, num-consts, arith-max-deg, is-qflia, ...) or (> P P), (< P P), (and P P), (not P), ...
(check-sat) alone means z3's default solver for the instance's logic; (check-sat-using T) = T.
Parallel tactics, and options about files, logs, output, timeouts or memory, are refused.

The instance is checked with your strategy within {timeout:g} s. A sat answer counts only if
its model makes every assertion true; unsat counts only if the instance is unsat. Utility is
1 - 0.5 * (share of the effort budget used) for a correct answer and 0 otherwise, so a
strategy that is both correct and fast scores best. Unknown or a timeout scores 0.
Answer with the strategy alone in a ```smt2 code block."""
