"""How much room a run leaves for memory to rescue a task: each task's checks, classified.

Issue 24 asks why verified content records rescue so few held-out tasks. A ReAct agent is shown
its failed check and may try again, so a task it fails at first and then solves by itself
(`self_repaired`) can at best be solved sooner by a record, never rescued; only the tasks it never
solves (`never_solved`) can be. The share of first failures an agent repairs on its own is the
part of the headroom that the check result alone already gives it, per model size. Classes:

- `first_try`: the first checked action passed;
- `self_repaired`: a checked action failed, a later one passed (without memory in a `none` run);
- `never_solved`: at least one action was checked and none passed;
- `no_check`: no action reached the checker (no `Action:` line in any answer, or limits hit).

Tokens are the model-reported usage of the task's model calls (prompt + completion), so the cost
of repairing by trial and error is visible beside the count. Pure functions over saved files.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from countermem.agents import Event, TaskOutcome
from countermem.core import CheckResult
from countermem.experiment._rundir import RunDir, read_transcript, safe_name
from countermem.experiment._significance import PairedTest, paired_test

RepairClass = Literal["first_try", "self_repaired", "never_solved", "no_check"]
REPAIR_CLASSES: tuple[RepairClass, ...] = ("first_try", "self_repaired", "never_solved", "no_check")


class TaskRepair(BaseModel):
    """One task's checks in order, and what they add up to."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task_id: str
    repair: RepairClass
    checks: int
    failed_before_pass: int
    """Failed checks before the first passing one (all of them when none passed)."""
    first_failure: str | None = None
    """The kind of the first check when it failed (`failure_kind`), else None."""
    failures: list[str] = []
    """The kind of every failed check, in order."""
    repeated: int = 0
    """Checked actions identical (up to white space) to one checked before in the task: the agent
    sent a failed action back to the checker instead of editing it."""
    reusable: int = 0
    """Checks `AgentLimits.reuse_checks` would have answered without the world model: the action
    was checked earlier in the same trial and that check completed."""
    tokens: int


class RepairTable(BaseModel):
    """A run's tasks by class, with the tokens each class spent."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tasks: int
    counts: dict[RepairClass, int]
    tokens: dict[RepairClass, int]
    checks: dict[RepairClass, int]
    repeated: dict[RepairClass, int]

    @property
    def first_failures(self) -> int:
        """Tasks whose first checked action failed: the ones memory could help at all."""
        return self.counts["self_repaired"] + self.counts["never_solved"]

    @property
    def self_repair_share(self) -> float | None:
        """Of the first failures, the share the agent repaired by itself (None: no first failure)."""
        return self.counts["self_repaired"] / self.first_failures if self.first_failures else None


def classify_task(task_id: str, events: Sequence[Event]) -> TaskRepair:
    """The task's class from its transcript's checked actions (`check` events with a result)."""
    results = [e.result for e in events if e.kind == "check" and e.result is not None]
    tokens = sum(e.usage.total for e in events if e.usage is not None)
    passed_at = next((i for i, r in enumerate(results) if r.passed), None)
    if not results:
        repair: RepairClass = "no_check"
    elif passed_at == 0:
        repair = "first_try"
    elif passed_at is not None:
        repair = "self_repaired"
    else:
        repair = "never_solved"
    kinds = [failure_kind(r) for r in results if not r.passed]
    checked = [(e.trial, " ".join(e.action.content.split()), e.result.completed)
               for e in events if e.kind == "check" and e.result is not None and e.action]
    actions = [action for _, action, _ in checked]
    completed: set[tuple[int, str]] = set()
    reusable = 0
    for trial, action, done in checked:
        if (trial, action) in completed:
            reusable += 1
        elif done:
            completed.add((trial, action))
    return TaskRepair(
        task_id=task_id, repair=repair, checks=len(results),
        failed_before_pass=len(results) if passed_at is None else passed_at,
        first_failure=kinds[0] if results and not results[0].passed else None, failures=kinds,
        repeated=len(actions) - len(set(actions)), reusable=reusable, tokens=tokens,
    )


_ERROR_PREFIX = re.compile(r"^\s*[\w ]{0,20}error:\s*", re.IGNORECASE)
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|`[^`]*`")


def failure_kind(result: CheckResult) -> str:
    """A failed check's kind: its status, and for an error the message's head without names
    (`error: no such column`), so that failures can be counted by what the checker said."""
    if result.status != "error":
        return result.status
    head = _QUOTED.sub("…", _ERROR_PREFIX.sub("", result.details.strip().splitlines()[0] if result.details.strip() else ""))
    head = head.split(":", 1)[0].strip()
    return f"error: {head[:40]}" if head else "error"


def failure_counts(tasks: Iterable[TaskRepair]) -> tuple[Counter[str], Counter[str]]:
    """How the first checks failed (every task whose first check failed) and how the checks of the
    never-solved tasks failed: what kind of failure a record would have to correct."""
    rows = list(tasks)
    first = Counter(t.first_failure for t in rows if t.first_failure is not None)
    never = Counter(k for t in rows if t.repair == "never_solved" for k in t.failures)
    return first, never


def run_repairs(run: Path) -> list[TaskRepair]:
    """Every finished task of a run folder, in task-id order.

    A task is finished when `results.jsonl` has its line: the transcript of the task in flight
    when a run stopped would otherwise count as never solved."""
    folder = run / "transcripts"
    if not folder.is_dir():
        raise FileNotFoundError(f"{run} has no transcripts/ folder: give a run folder written by `countermem run`")
    results = run / "results.jsonl"
    finished = None
    if results.is_file():
        lines = (line for line in results.read_text().splitlines() if line.strip())
        finished = {safe_name(str(json.loads(line)["task_id"])) for line in lines}
    return [
        classify_task(path.stem, list(read_transcript(path)))
        for path in sorted(folder.glob("*.jsonl"))
        if finished is None or path.stem in finished
    ]


def repair_table(tasks: Iterable[TaskRepair]) -> RepairTable:
    rows = list(tasks)
    counts: dict[RepairClass, int] = {c: 0 for c in REPAIR_CLASSES}
    tokens: dict[RepairClass, int] = {c: 0 for c in REPAIR_CLASSES}
    checks: dict[RepairClass, int] = {c: 0 for c in REPAIR_CLASSES}
    repeated: dict[RepairClass, int] = {c: 0 for c in REPAIR_CLASSES}
    for row in rows:
        counts[row.repair] += 1
        tokens[row.repair] += row.tokens
        checks[row.repair] += row.checks
        repeated[row.repair] += row.repeated
    return RepairTable(tasks=len(rows), counts=counts, tokens=tokens, checks=checks, repeated=repeated)


class RunPair(BaseModel):
    """Two runs of one agent on the same tasks that differ in one setting (e.g. `after_failure`):
    which tasks the second solves that the first does not, and what each spends."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tasks: int
    solved_first: int
    solved_second: int
    test: PairedTest
    tokens_first: int
    tokens_second: int
    """Task-run tokens (prompt + completion + retrieval) over the common tasks."""
    rescued_ids: list[str]
    broken_ids: list[str]


def compare_runs(first: Path, second: Path) -> RunPair:
    """The paired comparison over the tasks both runs finished (their `results.jsonl`)."""
    return pool_pairs([(first, second)])


def pool_pairs(pairs: Sequence[tuple[Path, Path]]) -> RunPair:
    """Several (first, second) run pairs, e.g. one per seed or per study, as one paired comparison:
    each task of each pair is one pair of the test (a task id is prefixed with its pair's index)."""
    if not pairs:
        raise ValueError("no run pair to compare")
    outcomes = []
    for first, second in pairs:
        left, right = RunDir(first).finished(), RunDir(second).finished()
        if not left or not right:
            empty = first if not left else second
            raise FileNotFoundError(f"{empty} has no finished task (results.jsonl): give a run folder of `countermem run`")
        outcomes.append((left, right, f"{first} and {second}"))
    return pool_outcomes(outcomes)


def pool_outcomes(pairs: Sequence[tuple[Sequence[TaskOutcome], Sequence[TaskOutcome], str]]) -> RunPair:
    """`pool_pairs` on outcomes already read, each pair with a name for its errors: the same test
    whether the runs' folders are here or only their kept outcomes are (`_pair_ledger`)."""
    if not pairs:
        raise ValueError("no run pair to compare")
    a: dict[str, TaskOutcome] = {}
    b: dict[str, TaskOutcome] = {}
    for index, (first, second, name) in enumerate(pairs):
        left = {o.task_id: o for o in first}
        right = {o.task_id: o for o in second}
        shared = set(left) & set(right)
        if not shared:
            raise ValueError(f"{name} share no finished task: they cannot be paired")
        prefix = f"{index}:" if len(pairs) > 1 else ""
        a.update({prefix + t: left[t] for t in shared})
        b.update({prefix + t: right[t] for t in shared})
    common = sorted(a)
    rescued = [t for t in common if b[t].solved and not a[t].solved]
    broken = [t for t in common if a[t].solved and not b[t].solved]
    return RunPair(
        tasks=len(common),
        solved_first=sum(a[t].solved for t in common),
        solved_second=sum(b[t].solved for t in common),
        test=paired_test(len(rescued), len(broken), len(common)),
        tokens_first=sum(a[t].task_run_tokens for t in common),
        tokens_second=sum(b[t].task_run_tokens for t in common),
        rescued_ids=rescued,
        broken_ids=broken,
    )
