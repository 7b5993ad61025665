"""Gold strategies for `smtlib`, calibrated once and shipped as package data.

`smtlib_gold.json` is written by `python -m countermem.domains.smt._calibrate`: for every task
it tries a fixed list of strategies through the real world model and keeps the passing one
with the least z3 effort. Tasks where none passed are listed as unsolved with what was tried,
so `gold_action` can say honestly that no gold is known.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from pydantic import BaseModel, ConfigDict, Field

GOLD_FILE = "smtlib_gold.json"


class GoldEntry(BaseModel):
    model_config = ConfigDict(frozen=True)

    strategy: str
    answer: str
    effort: int
    utility: float


class GoldTable(BaseModel):
    model_config = ConfigDict(frozen=True)

    z3_version: str
    timeout_s: float
    effort_per_second: int
    candidates: list[str]
    entries: dict[str, GoldEntry] = Field(default_factory=dict)
    unsolved: dict[str, str] = Field(default_factory=dict)
    """task id -> what the calibration saw (status per candidate)."""
    baseline: dict[str, str] = Field(default_factory=dict)
    """task id -> status and utility of z3's default solver, `(check-sat)`."""


@lru_cache(maxsize=1)
def gold_table() -> GoldTable | None:
    """The shipped table, or None when it has not been calibrated (gold is then unknown)."""
    source = resources.files("countermem.domains.smt").joinpath(GOLD_FILE)
    if not source.is_file():
        return None
    return GoldTable.model_validate(json.loads(source.read_text(encoding="utf-8")))
