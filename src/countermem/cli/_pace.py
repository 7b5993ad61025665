"""Time left in a study, paced per kind of job.

A construction task run also generates and verifies edits (minutes with a local 1.5B generator);
an evaluation task run is the agent alone. One pace for all runs turned 40 construction tasks
into "ETA 26h12m" for a study of about 4 hours. Each kind is paced by its own finished runs, and
a kind with none yet is named instead of guessed. The pace is that of a kind's most recent runs: a
study resumed with its reply cache replays its first runs in a second each, and a pace over all runs
said "ETA 0m37s" for the 25 minutes of real runs that followed.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from countermem.cli._common import format_duration


@dataclass
class KindPace:
    """Seconds per task run for each kind of job (construct, train, evaluate), from what finished."""

    clock: Callable[[], float] = time.monotonic
    remaining: dict[str, int] = field(default_factory=dict)
    runs: dict[str, int] = field(default_factory=dict)
    window: int = 5
    _recent: dict[str, deque[tuple[float, int]]] = field(default_factory=dict)
    _done: dict[str, int] = field(default_factory=dict)
    _last: float | None = None

    def plan(self, jobs: Iterable[tuple[str, str, int]], done_runs: int) -> None:
        """`jobs`: (job id, kind, planned runs) in the order they run; the first `done_runs` runs
        are taken to be finished (a resumed study finished its earliest jobs first, and a job it
        stopped in reports its earlier runs in its first count)."""
        self.remaining, self._done = {}, {}
        left = done_runs
        for job_id, kind, planned in jobs:
            skipped = min(left, planned)
            left -= skipped
            self._done[job_id] = skipped
            self.remaining[kind] = self.remaining.get(kind, 0) + planned - skipped
        self._last = self.clock()

    def finished(self, job_id: str, kind: str, done: int) -> None:
        """A job reports `done` runs; the time since the last report goes to its kind."""
        now = self.clock()
        new = done - self._done.get(job_id, 0)
        if new <= 0:
            return
        self._done[job_id] = done
        if self._last is not None:
            self.runs[kind] = self.runs.get(kind, 0) + new
            recent = self._recent.setdefault(kind, deque())
            recent.append((now - self._last, new))
            while len(recent) > 1 and sum(n for _, n in recent) - recent[0][1] >= self.window:
                recent.popleft()
        self._last = now
        self.remaining[kind] = max(0, self.remaining.get(kind, 0) - new)

    def per_run(self, kind: str) -> float:
        """Seconds per run over the kind's last `window` runs (at least one report); the kind must be timed."""
        recent = self._recent[kind]
        return sum(s for s, _ in recent) / sum(n for _, n in recent)

    def eta(self) -> str:
        """Time left at each kind's pace; a kind not yet timed is named (`+ 120 evaluate runs not yet timed`)."""
        known = 0.0
        untimed: list[str] = []
        for kind, left in self.remaining.items():
            if left <= 0:
                continue
            if self.runs.get(kind):
                known += self.per_run(kind) * left
            else:
                untimed.append(f"{left} {kind} runs")
        if not untimed:
            return format_duration(known)
        if known == 0.0:
            return "?"
        return f"{format_duration(known)} + {', '.join(untimed)} not yet timed"
