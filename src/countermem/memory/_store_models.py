"""What a store returns, whichever backend holds the records: evictions, stats, merge outcomes, snapshots.

Why a module of their own: `SQLiteStore`, `PostgresStore` and the read paths they share
(`countermem.memory._store_base`) all build these, and every caller reads them the same way
whichever backend it opened.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from countermem.memory._merge import MergeGroup
from countermem.memory._record import Record


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class EvictionEvent(_Frozen):
    """One eviction: `rule` is the retention rule (or `manual`), `reason` the category stats group by."""

    record_id: str
    rule: str
    reason: str
    scores: dict[str, float] = Field(default_factory=dict)
    at: datetime
    version: int


class ReuseTotals(_Frozen):
    retrieved: int = 0
    selected: int = 0
    succeeded: int = 0
    harmed: int = 0


class StoreStats(_Frozen):
    path: str
    count: int
    capacity: int
    """The most live records each scope holds (`by_scope` counts them against it)."""
    retention: str
    frozen: bool
    by_domain: dict[str, int]
    by_benchmark: dict[str, int]
    mean_gain: float | None
    universal_conditions: int
    evictions_by_reason: dict[str, int]
    reuse: ReuseTotals
    quarantined: dict[str, str] = Field(default_factory=dict)
    """Records set aside because they no longer parse: id -> why (they are not in `count`)."""
    redactions: dict[str, int] = Field(default_factory=dict)
    """Secrets replaced by placeholders in the stored records, by kind (`Record.redactions`)."""
    retired: int = 0
    """Records kept but never offered (not in `count`, not against the capacity)."""
    by_scope: dict[str, int] = Field(default_factory=dict)
    """Records by scope (only the scopes the store object may read)."""


class MergeOutcome(_Frozen):
    """What `add_or_merge` did: `merged_into` names the stored record that now holds the new one's
    content (None when the new record was stored under its own id); `merged` are stored records it
    absorbed; `evictions` are the retention rule's (or the merges of stored records)."""

    evictions: list[EvictionEvent] = Field(default_factory=list)
    merged_into: str | None = None
    merged: list[str] = Field(default_factory=list)

    @classmethod
    def of_merge(
        cls, record: Record, group: MergeGroup, new: Record, events: Sequence[EvictionEvent]
    ) -> MergeOutcome:
        """The outcome of merging the incoming `record` into `group` (kept as `new`): what the caller
        did not already hold, so the incoming record itself is never reported as merged or evicted."""
        return cls(
            evictions=[e for e in events if e.record_id != record.id],
            merged_into=None if new.id == record.id else new.id,
            merged=[r.id for r in group.merged if r.id != record.id],
        )


class FrozenSnapshot(_Frozen):
    """A frozen copy of a store and the sha256 of its bytes (what a stage manifest pins)."""

    path: Path
    sha256: str
    records: int
