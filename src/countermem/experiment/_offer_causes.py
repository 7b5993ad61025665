"""Why an offered record did or did not help: every offer of a run, classified from its transcript.

Issue 24 asks why content records change the next action and the task still fails. Each offer
(an `advice` event with a record id) is paired with the agent's action before it and the first
action after it, and classified by the first rule that holds:

- `no_action`: no checkable action followed (an answer with no `Action:` line, or the run ended);
- `copied_correction`: the next action is the record's corrected action (the source task's
  answer, for another question);
- `copied_mistake`: the next action is the record's failed action;
- `unchanged`: the next action repeats the agent's previous one (the advice was ignored);
- `source_names`: the next action uses an identifier or value of the record's actions that the
  current task's own text never mentions (a table, column or literal of the source task);
- `own_edit`: a changed action of the agent's own making.

`reoffered` marks an offer of a record already offered earlier in the same task, and `passed`
whether the next action passed its check. On a look-alike task, `own_source` marks an offer of a
record built on the very task it is a look-alike of (the best fit a store can hold); elsewhere it
is None. A form repair is classified like any other record
but counted apart (`form_repair`), since its correction is the agent's own block by design.
Pure functions over saved files: no model, no checker.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from countermem.agents import Event
from countermem.experiment._rundir import read_transcript, safe_name
from countermem.memory import Record, is_form_repair, normalise_action, source_names

Cause = Literal["no_action", "copied_correction", "copied_mistake", "unchanged", "source_names", "own_edit"]
CAUSES: tuple[Cause, ...] = ("no_action", "copied_correction", "copied_mistake", "unchanged", "source_names", "own_edit")
_ACTION_EVENTS = ("check", "submit")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Offer(BaseModel):
    """One offered record and what the agent did next."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task_id: str
    record_id: str
    step: int
    cause: Cause
    reoffered: bool
    passed: bool
    task_solved: bool
    form_repair: bool
    names: list[str]
    """Source-task names the next action used that the task's text never mentions."""
    own_source: bool | None = None
    """On a look-alike task: whether the record was built on the task it is a look-alike of."""


class CauseTable(BaseModel):
    """Counts over a run's offers; `failed_changed` are offers that changed the action in a failed task."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    offers: int
    content_offers: int
    changed: int
    passed_next: int
    reoffered: int
    failed_changed: int
    causes: dict[str, int]
    """Over content offers (form repairs left out), every offer by its cause."""
    failed_changed_causes: dict[str, int]
    """Over content offers whose action changed in a task that ended unsolved."""
    own_source_offers: int = 0
    """Content offers, on look-alike tasks, of the record built on the task's own source task."""
    own_source_passed: int = 0
    own_source_causes: dict[str, int] = Field(default_factory=dict)
    """Those offers by cause: what the agent did with the best-fitting record."""


def classify_offers(
    events: Iterable[Event],
    *,
    task_id: str,
    task_text: str,
    task_solved: bool,
    records: dict[str, Record],
    action_language: str,
    source_of: str | None = None,
) -> list[Offer]:
    """Every offer in one task's events, in order; offers of records not in `records` are skipped.

    `source_of`: the source task this task is a look-alike of (None: not a look-alike)."""
    sequence = list(events)
    own_words = {w.lower() for w in _WORD.findall(task_text)} | {task_text.lower()}
    offers: list[Offer] = []
    seen: set[str] = set()
    previous: str | None = None
    for index, event in enumerate(sequence):
        if event.kind in _ACTION_EVENTS and event.action is not None:
            previous = event.action.content
            continue
        if event.kind != "advice" or not event.record_id or event.record_id not in records:
            continue
        record = records[event.record_id]
        following = next(
            (e for e in sequence[index + 1:] if e.kind in (*_ACTION_EVENTS, "parse_error", "advice")), None
        )
        nxt = following.action.content if following is not None and following.kind in _ACTION_EVENTS and following.action else None
        names: list[str] = []
        cause: Cause
        if nxt is None:
            cause = "no_action"
        elif normalise_action(nxt) == normalise_action(record.improved_action.content):
            cause = "copied_correction"
        elif normalise_action(nxt) == normalise_action(record.original_action.content):
            cause = "copied_mistake"
        elif previous is not None and normalise_action(nxt) == normalise_action(previous):
            cause = "unchanged"
        else:
            source = source_names([record.original_action.content, record.improved_action.content], action_language)
            used = {w.lower() for w in _WORD.findall(nxt)}
            names = sorted(n for n in source & used if n not in own_words and not any(n in w for w in own_words))
            cause = "source_names" if names else "own_edit"
        offers.append(
            Offer(
                task_id=task_id, record_id=record.id, step=event.step, cause=cause,
                reoffered=record.id in seen,
                passed=bool(following is not None and following.result is not None and following.result.passed),
                task_solved=task_solved, form_repair=is_form_repair(record), names=names,
                own_source=None if source_of is None else record.source.task_id == source_of,
            )
        )
        seen.add(record.id)
    return offers


def run_offers(
    run_dir: Path,
    records: dict[str, Record],
    task_text: Callable[[str], str],
    action_language: str,
    lookalike_of: dict[str, str] | None = None,
) -> list[Offer]:
    """Every offer of a run folder (its results.jsonl and transcripts/); `lookalike_of` maps the
    run's look-alike task ids to their source tasks (`CellTasks.lookalike_of`)."""
    results = run_dir / "results.jsonl"
    if not results.is_file():
        return []
    offers: list[Offer] = []
    for line in results.read_text().splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        transcript = run_dir / "transcripts" / f"{safe_name(row['task_id'])}.jsonl"
        if not transcript.is_file():
            continue
        offers.extend(
            classify_offers(
                read_transcript(transcript), task_id=row["task_id"], task_text=task_text(row["task_id"]),
                task_solved=bool(row["solved"]), records=records, action_language=action_language,
                source_of=None if lookalike_of is None else lookalike_of.get(row["task_id"]),
            )
        )
    return offers


def cause_table(offers: Iterable[Offer]) -> CauseTable:
    all_offers = list(offers)
    content = [o for o in all_offers if not o.form_repair]
    changed = [o for o in content if o.cause not in ("unchanged", "no_action")]
    failed_changed = [o for o in changed if not o.task_solved]
    own = [o for o in content if o.own_source]
    order = {c: 0 for c in CAUSES}
    return CauseTable(
        offers=len(all_offers), content_offers=len(content), changed=len(changed),
        passed_next=sum(o.passed for o in content), reoffered=sum(o.reoffered for o in content),
        failed_changed=len(failed_changed),
        causes=dict(order | Counter(o.cause for o in content)),
        failed_changed_causes=dict(order | Counter(o.cause for o in failed_changed)),
        own_source_offers=len(own), own_source_passed=sum(o.passed for o in own),
        own_source_causes=dict(order | Counter(o.cause for o in own)),
    )
