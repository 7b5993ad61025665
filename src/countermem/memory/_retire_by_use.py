"""Retirement by use: a record that harmed too often when it was selected is retired.

Why a rate after a minimum number of uses: one harmful use out of two says little about a
record, while four out of six says it misleads more often than it helps. The rule reads only the
record's own counters, which the store updates under its write lock, so it is applied inside the
same transaction as the update that crossed the line (`SQLiteStore.update_counters`).
"""

from __future__ import annotations

from dataclasses import dataclass

from countermem.core import ConfigError
from countermem.memory._record import ReuseCounters

DEFAULT_RETIRE_HARM_RATE = 0.5
DEFAULT_RETIRE_MIN_USES = 5
_EPSILON = 1e-9


@dataclass(frozen=True)
class RetireByUse:
    """Retire a record once `harmed / selected > harm_rate` with `selected >= min_uses`."""

    harm_rate: float = DEFAULT_RETIRE_HARM_RATE
    min_uses: int = DEFAULT_RETIRE_MIN_USES

    def __post_init__(self) -> None:
        if not 0.0 <= self.harm_rate <= 1.0:
            raise ConfigError(
                f"retire_harm_rate must lie in [0, 1], got {self.harm_rate}; 1 never retires a record by use"
            )
        if self.min_uses < 1:
            raise ConfigError(f"retire_min_uses must be at least 1, got {self.min_uses}")

    def reason(self, counters: ReuseCounters) -> str | None:
        """Why these counters retire their record, or None when they do not."""
        if counters.selected < self.min_uses or counters.harmed <= self.harm_rate * counters.selected + _EPSILON:
            return None
        return (
            f"retired by use: harmed {counters.harmed} of {counters.selected} selected uses "
            f"({counters.harmed / counters.selected:.2f} > retire_harm_rate {self.harm_rate:g} "
            f"after at least {self.min_uses} uses)"
        )
