"""Merging equivalent records: one correction learned on several tasks becomes one record.

Two records are equivalent when they agree on scope, domain, benchmark and canonical condition,
and their corrections make the same normalised edit: the token-level difference between the
original and the improved action (whitespace ignored, tokens compared exactly), with the
unchanged context left out. `SELECT name FROM t` -> `SELECT DISTINCT name FROM t` and
`SELECT city FROM u` -> `SELECT DISTINCT city FROM u` make the same edit (insert `DISTINCT`
after nothing that changed). A record whose edit is empty (the action unchanged, e.g. a form
repair, which shows the agent's own code) never merges: there is no edit to be the same.

A merged record is the best-verified member (passed check first, then the higher improved
utility, then the higher gain, then a verified lesson, then the earliest), with the reuse
counters of all members summed and every other member's id, version and source task listed in
`merged_from`. The other members leave the store through the eviction log (rule `merge`, reason
`merged into <id>`), so their full bodies stay readable. Records of different scopes never
merge. Conditions are never generalised: members share one canonical condition by construction,
and the merged record keeps it.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from countermem.memory._form_repair import is_form_repair
from countermem.memory._record import MergedSource, Record, ReuseCounters

_TOKEN = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\w+|[^\w\s]")

Edit = tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]
MergeKey = tuple[str, str, str, str, Edit]


def tokens(text: str) -> tuple[str, ...]:
    return tuple(_TOKEN.findall(text))


def normalised_edit(original: str, improved: str) -> Edit:
    """What changed from `original` to `improved`, as (operation, removed tokens, added tokens)."""
    before, after = tokens(original), tokens(improved)
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return tuple(
        (tag, before[i1:i2], after[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"
    )


def merge_key(record: Record) -> MergeKey | None:
    """What equivalent records share; None for a record that never merges (no edit, a form repair)."""
    if is_form_repair(record):
        return None
    edit = normalised_edit(record.original_action.content, record.improved_action.content)
    if not edit:
        return None
    return (record.scope, record.domain, record.benchmark, record.condition.canonical, edit)


def best_verified(records: Sequence[Record]) -> Record:
    """The member a merge keeps: the strongest check of its improved action."""

    def strength(r: Record) -> tuple[bool, float, float, bool, float]:
        lesson = r.lesson is not None and r.lesson.verified
        return (r.improved_check.passed, r.improved_check.utility, r.utility_gain, lesson, -r.created_at.timestamp())

    return max(records, key=strength)


@dataclass(frozen=True)
class MergeGroup:
    """Equivalent records: `kept` (the best-verified) absorbs `merged`."""

    kept: Record
    merged: tuple[Record, ...]

    @property
    def ids(self) -> list[str]:
        return [self.kept.id, *(r.id for r in self.merged)]


def merge_groups(records: Iterable[Record]) -> list[MergeGroup]:
    """Every group of two or more equivalent records, in admission order of their first member."""
    groups: dict[MergeKey, list[Record]] = {}
    for record in records:
        key = merge_key(record)
        if key is not None:
            groups.setdefault(key, []).append(record)
    out = []
    for members in groups.values():
        if len(members) > 1:
            kept = best_verified(members)
            out.append(MergeGroup(kept, tuple(r for r in members if r is not kept)))
    return out


def merged_record(group: MergeGroup) -> Record:
    """The kept record's next version: counters summed, every member's source listed."""
    members = [group.kept, *group.merged]
    if len({r.scope for r in members}) != 1:
        raise ValueError("records of different scopes never merge")
    used = [r.counters.last_used_at for r in members if r.counters.last_used_at is not None]
    counters = ReuseCounters(
        retrieved=sum(r.counters.retrieved for r in members),
        selected=sum(r.counters.selected for r in members),
        succeeded=sum(r.counters.succeeded for r in members),
        harmed=sum(r.counters.harmed for r in members),
        last_used_at=max(used) if used else None,
    )
    sources = list(group.kept.merged_from)
    for record in group.merged:
        sources.append(MergedSource(record_id=record.id, version=record.version, source=record.source))
        sources.extend(record.merged_from)
    data = group.kept.model_dump()
    data.update(counters=counters.model_dump(), merged_from=[s.model_dump() for s in sources])
    data["version"] = group.kept.version + 1
    return Record.model_validate(data)
