"""How far each stored record's condition was from holding where the agent alone failed.

Issue 24 measured *reach*: verified lessons turn most of the failures they reach, but reach few
(3 of 15 on the 1.5B's sql-shop cell), and broader conditions reach everything and break more.
This module says why a failure was not reached, from the no-memory run's own transcripts: at each
decision where the agent could have asked memory (the first, and the one after every checked
action), every live content record's condition is evaluated on that decision's facts, and the
atoms of its top-level conjunction that do not hold are named. A failure one atom away from a
record is a near miss, and the missing atom says what kept it out: a fact of the *action* (the
agent made another kind of mistake than the record corrects) or of the *task* (the question or
schema differs). Pure functions over saved files and the domain's facts: no model, no checker.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from countermem.agents import Event
from countermem.core import Action, CheckResult, Facts, Salvage, Task, Usage, facts_after, salvaged_block
from countermem.memory import (
    ApplicabilityCondition,
    ConditionContext,
    Record,
    derive_for_proposal,
    is_form_repair,
)
from countermem.memory._conditions import And, Condition
from countermem.memory._generator import Alternative, Proposal

AtomSide = Literal["action", "task"]
FactsOf = Callable[[Task, Action | None], Facts]
ErrorKind = Callable[[CheckResult], str | None]


class AtomMiss(BaseModel):
    """One atom of a record's condition that did not hold, and whose facts it reads."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    atom: str
    side: AtomSide
    """`task`: every fact it reads is a fact of the task alone; `action`: it reads the action's."""
    facts: list[str]


class NearestRecord(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    record_id: str
    missing: list[AtomMiss]
    """At the decision where the fewest atoms failed (empty: the condition held there)."""
    decision: int
    """0: the task's first decision; n: the one after the n-th checked action."""


class TaskMisses(BaseModel):
    """One task the no-memory run failed: the records nearest to holding at any of its decisions."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task_id: str
    decisions: int
    nearest: list[NearestRecord]
    """The records with the fewest missing atoms (all tied ones); empty when the store had none."""

    @property
    def distance(self) -> int | None:
        """Missing atoms of the nearest record; 0 = reached by a condition; None: no record."""
        return len(self.nearest[0].missing) if self.nearest else None


class MissTable(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    failures: int
    records: int
    reached: int
    one_atom: int
    further: int
    one_atom_sides: dict[str, int]
    """Of the near misses' missing atoms (one per tied record), how many read task or action facts."""
    one_atom_facts: dict[str, int]
    """The same atoms by fact name, most common first."""


def conjuncts(condition: Condition) -> tuple[Condition, ...]:
    """The top-level atoms of a condition: a conjunction's operands, anything else whole."""
    return condition.operands if isinstance(condition, And) else (condition,)


def decision_facts(
    events: Sequence[Event],
    task: Task,
    facts_of: FactsOf,
    error_kind: ErrorKind | None = None,
    salvage: Salvage = salvaged_block,
) -> list[Facts]:
    """The facts of every decision where the agent asks memory: the first, then one after each check
    (the same `facts_after` the agent uses, so a malformed answer and the check's error count)."""
    points: list[tuple[Action | None, CheckResult | None]] = [(None, None)]
    points += [(e.action, e.result) for e in events if e.kind == "check" and e.action is not None]
    return [facts_after(facts_of, task, action, result, error_kind, salvage) for action, result in points]


def missing_atoms(condition: Condition, facts: Facts, task_facts: Facts) -> list[AtomMiss]:
    misses = []
    for atom in conjuncts(condition):
        if atom.evaluate(facts):
            continue
        used = sorted(atom.facts_used())
        reads_action = any(name not in task_facts.values for name in used)
        misses.append(AtomMiss(atom=str(atom), side="action" if reads_action else "task", facts=used))
    return misses


def content_records(records: Iterable[Record]) -> list[Record]:
    """Live records that correct content (form repairs are left out: they fire on a slip)."""
    return [r for r in records if r.live and not is_form_repair(r)]


def task_misses(
    task: Task,
    events: Sequence[Event],
    records: Sequence[Record],
    facts_of: FactsOf,
    error_kind: ErrorKind | None = None,
    salvage: Salvage = salvaged_block,
) -> TaskMisses:
    points = decision_facts(events, task, facts_of, error_kind, salvage)
    task_facts = facts_of(task, None)
    best: list[NearestRecord] = []
    for record in records:
        condition = record.condition.parsed
        candidates = [
            NearestRecord(record_id=record.id, missing=missing_atoms(condition, facts, task_facts), decision=i)
            for i, facts in enumerate(points)
        ]
        nearest = min(candidates, key=lambda c: (len(c.missing), c.decision))
        if not best or len(nearest.missing) < len(best[0].missing):
            best = [nearest]
        elif len(nearest.missing) == len(best[0].missing):
            best.append(nearest)
    return TaskMisses(task_id=task.id, decisions=len(points), nearest=best)


def miss_table(rows: Sequence[TaskMisses], n_records: int) -> MissTable:
    near = [r for r in rows if r.distance == 1]
    atoms = [n.missing[0] for r in near for n in r.nearest]
    return MissTable(
        failures=len(rows),
        records=n_records,
        reached=sum(1 for r in rows if r.distance == 0),
        one_atom=len(near),
        further=sum(1 for r in rows if r.distance is None or r.distance > 1),
        one_atom_sides=dict(Counter(a.side for a in atoms).most_common()),
        one_atom_facts=dict(Counter(",".join(a.facts) for a in atoms).most_common()),
    )


def rederived(record: Record, task: Task, context: ConditionContext) -> Record:
    """The record with the condition construction would derive for it under `context` (from its
    own failed action, check and correction), to ask what other condition settings would have
    reached without building the store again. Raises ValueError when no rung holds."""
    decision = facts_after(
        context.facts_of, task, record.original_action, record.original_check, context.error_kind, context.salvage
    )
    proposal = Proposal(alternatives=[Alternative(action=record.improved_action)], usage=Usage(), raw_text="",
                        condition_source="derived")
    derived = derive_for_proposal(proposal, task=task, failed_action=record.original_action, decision=decision,
                                  context=context)
    text = derived.alternatives[0].condition_text
    if text is None:
        raise ValueError(f"no derived condition holds on the source decision of {record.id}")
    return record.model_copy(update={"condition": ApplicabilityCondition.from_text(text)})
