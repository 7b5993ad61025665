"""A whole store as rows, the form `countermem memory copy` moves between backends.

Why rows and not records: a copy must be lossless, so it carries the stored JSON bodies as they
are (a quarantined body that this countermem cannot parse included), every earlier version
(`record_history`), the eviction log with its scores, and the store's settings (`meta`). Both
backends write and read this one form, so SQLite -> Postgres -> SQLite gives back what it started with.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict

from countermem.core import StoreError

NOT_COPIED_META = frozenset({"schema_version", "frozen", "frozen_at", "frozen_from"})
"""Meta keys that describe one file or server, not the store's contents."""


class _Row(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RecordRow(_Row):
    id: str
    body: str


class HistoryRow(_Row):
    id: str
    version: int
    replaced_at: str
    body: str


class EvictionRow(_Row):
    record_id: str
    rule: str
    reason: str
    scores: str
    at: str
    body: str


class StoreRows(_Row):
    """Live records in admission order, earlier versions and evictions in write order, settings."""

    meta: dict[str, str]
    records: tuple[RecordRow, ...]
    history: tuple[HistoryRow, ...]
    evictions: tuple[EvictionRow, ...]

    def is_empty(self) -> bool:
        return not (self.records or self.history or self.evictions)


def body_fields(body: str) -> dict[str, Any]:
    """The indexed columns of a stored body, read from its JSON (a body that no longer parses as a
    record still has them, so it can be copied and set aside again at the other end)."""
    try:
        data = json.loads(body)
    except ValueError as error:
        raise StoreError(f"a stored record body is not JSON ({error}); the store may be corrupt") from error
    if not isinstance(data, dict):
        raise StoreError("a stored record body is not a JSON object; the store may be corrupt")
    counters: dict[str, Any] = data["counters"] if isinstance(data.get("counters"), dict) else {}
    condition: dict[str, Any] = data["condition"] if isinstance(data.get("condition"), dict) else {}
    return {
        "domain": str(data.get("domain", "")),
        "benchmark": str(data.get("benchmark", "")),
        "created_at": str(data.get("created_at", "")),
        "version": int(data.get("version", 1)),
        "utility_gain": float(data.get("utility_gain", 0.0)),
        "condition": str(condition.get("canonical", "")),
        "scope": str(data.get("scope") or "default"),
        "status": str(data.get("status") or "live"),
        "retrieved": int(counters.get("retrieved", 0)),
        "selected": int(counters.get("selected", 0)),
        "succeeded": int(counters.get("succeeded", 0)),
        "harmed": int(counters.get("harmed", 0)),
    }


def same_json(left: str, right: str) -> bool:
    """Equal as JSON values (Postgres' jsonb orders keys its own way)."""
    return bool(json.loads(left) == json.loads(right))
