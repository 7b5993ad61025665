"""Re-verification: check every live record again against today's checker, data and environment.

Why: a record was admitted because its improved action beat its original one by more than the
threshold under the checker, the data and the environment of that day. A checker upgrade, a
corrected gold answer or a changed database can make the correction wrong, or no longer a
correction, while it keeps being offered. `reverify` re-runs both actions of each live record
from its source task's reset state (the state construction checked them from, see
`countermem.memory._construct`) and retires the records whose gain no longer exceeds
`min_gain`, with the reason. Retiring keeps the record (a new version, the old one in the
store's history); it is only never offered again.

A record that cannot be checked now (its benchmark is not installed, its data or task is gone,
the improved action's check did not complete, its actions hold redacted secrets) is left live and
reported as `unchecked` with the reason: being unable to check a record is no evidence against
it. As in admission, the original action's check need not complete (a strategy that gave up is
a failed action with its utility).

An answer an agent could not parse (`malformed`) was never judged by a checker: its utility 0 is
the agent's verdict, kept as it is, and only the improved action is checked again.

Resumable: every record checked appends one JSON line to the progress file (by default
`STORE.reverify.jsonl`, after the store change it reports), so an interrupted pass goes on where
it stopped; records with a `holds` or `retired` line are not checked again, `unchecked` ones
are retried. `restart=True` begins a new pass.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from countermem.core import (
    Action,
    CheckResult,
    ConfigError,
    CountermemError,
    StoreError,
    Task,
    clip_middle,
    is_malformed,
)
from countermem.domains import BenchmarkOptions, CheckerInfo, WorldModel, check_action, load_benchmark
from countermem.memory._admission import GAIN_EPSILON, MIN_GAIN
from countermem.memory._record import UNKNOWN, Record, utc_now
from countermem.memory._store import SQLiteStore

ReverifyVerdict = Literal["holds", "retired", "unchecked"]
PROGRESS_SUFFIX = ".reverify.jsonl"
_DETAILS_LIMIT = 160
_REDACTION_MARK = "<SECRET:"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ReverifyLine(_Frozen):
    """One record checked: one line of the progress file and of the command's output."""

    kind: Literal["record"] = "record"
    record_id: str
    benchmark: str
    task_id: str
    version: int
    """The version that was checked (a retirement stores the next one)."""
    old_gain: float
    new_gain: float | None = None
    verdict: ReverifyVerdict
    reason: str
    changed: list[str] = Field(default_factory=list)
    """What differs from when the record was admitted: checker version, data, each action's result."""
    seconds: float = 0.0
    at: datetime = Field(default_factory=utc_now)


class ReverifyPass(_Frozen):
    """The first line of a progress file: the settings every line of the pass was judged by."""

    kind: Literal["pass"] = "pass"
    store: str
    min_gain: float
    started_at: datetime = Field(default_factory=utc_now)


class ReverifyCounts(_Frozen):
    checked: int = 0
    holds: int = 0
    retired: int = 0
    unchecked: int = 0
    unchecked_reasons: dict[str, int] = Field(default_factory=dict)
    """Why records could not be checked (the reason up to its first colon), with how many."""


class ReverifySummary(_Frozen):
    """What one `reverify` call did (`run`) and where the whole pass stands (`total`)."""

    store: str
    progress: str
    min_gain: float
    run: ReverifyCounts
    total: ReverifyCounts
    resumed: int = 0
    """Live records skipped because the progress file already holds their verdict."""
    remaining: int = 0
    """Live records of the selected benchmarks still to check (past `limit`, or to retry)."""
    retired_before: int = 0
    """Records already retired when this call began (by use, by hand, or by an earlier pass)."""
    seconds: float = 0.0


class ReverifyUnavailable(CountermemError):
    """A record's source task or world model cannot be had here; the record stays live, unchecked."""


@dataclass
class Resolved:
    """What re-checking a record needs: its source task, a world model for it, today's checker."""

    task: Task
    world_model: WorldModel
    checker: CheckerInfo | None = None


class TaskWorlds(Protocol):
    """Finds a record's source task and a world model to check it with."""

    def resolve(self, record: Record) -> Resolved: ...


@dataclass
class RegistryWorlds:
    """Source tasks and world models from the benchmark registry, one world model per benchmark."""

    options: BenchmarkOptions = field(default_factory=BenchmarkOptions)
    _loaded: dict[str, tuple[dict[str, Task], WorldModel, CheckerInfo] | str] = field(default_factory=dict)
    _opened: list[object] = field(default_factory=list)

    def close(self) -> None:
        """Release what the benchmarks and world models hold (a judge process, a database copy) now."""
        for opened in reversed(self._opened):
            close = getattr(opened, "close", None)
            if callable(close):
                close()
        self._opened.clear()
        self._loaded.clear()

    def resolve(self, record: Record) -> Resolved:
        name = record.source.benchmark
        if name not in self._loaded:
            self._loaded[name] = self._load(name)
        loaded = self._loaded[name]
        if isinstance(loaded, str):
            raise ReverifyUnavailable(loaded)
        tasks, world_model, checker = loaded
        task = tasks.get(record.source.task_id)
        if task is None:
            raise ReverifyUnavailable(
                f"task missing: {record.source.task_id} is no longer among {name}'s tasks"
            )
        return Resolved(task=task, world_model=world_model, checker=checker)

    def _load(self, name: str) -> tuple[dict[str, Task], WorldModel, CheckerInfo] | str:
        try:
            benchmark = load_benchmark(name, self.options)
        except ConfigError:
            return f"benchmark unknown: {name} is not in the registry (re-verify it from Python with its world model)"
        except CountermemError as error:
            return f"benchmark unavailable: {error}"
        self._opened.append(benchmark)
        availability = benchmark.availability()
        if not availability.available:
            return f"data or checker missing: {availability.reason}"
        try:
            tasks = {task.id: task for task in benchmark.tasks()}
            world_model = benchmark.world_model()
            self._opened.append(world_model)
        except CountermemError as error:
            return f"data or checker missing: {error}"
        return tasks, world_model, benchmark.checker()


def progress_path(store: SQLiteStore | str | Path) -> Path:
    """`STORE.reverify.jsonl` beside the store file."""
    path = store.path if isinstance(store, SQLiteStore) else str(store)
    return Path(path + PROGRESS_SUFFIX)


def reverify(
    store: SQLiteStore,
    worlds: TaskWorlds | None = None,
    *,
    min_gain: float = MIN_GAIN,
    benchmarks: Sequence[str] | None = None,
    limit: int | None = None,
    progress: Path | None = None,
    restart: bool = False,
    on_line: Callable[[ReverifyLine], None] | None = None,
) -> ReverifySummary:
    """Check the live records again and retire those whose gain no longer exceeds `min_gain`.

    `worlds` finds each record's task and world model (default: the benchmark registry, closed
    again when the call returns). `benchmarks` limits the pass to records of those benchmarks;
    `limit` checks at most that many records in this call (a later call resumes). `on_line`
    hears each record as it is decided.
    """
    if store.read_only or store.frozen:
        raise StoreError(f"{store.path} is read-only or frozen; re-verification retires records, so open it writable")
    if store.in_memory and progress is None:
        raise ConfigError("an in-memory store has no file to keep progress beside; give progress=PATH")
    if not 0.0 <= min_gain < 1.0:
        raise ConfigError(f"min_gain must lie in [0, 1), got {min_gain}; admission uses 0.05")
    if limit is not None and limit < 1:
        raise ConfigError(f"limit must be at least 1, got {limit}")
    if worlds is None:
        own = RegistryWorlds()
        try:
            return reverify(store, own, min_gain=min_gain, benchmarks=benchmarks, limit=limit,
                            progress=progress, restart=restart, on_line=on_line)
        finally:
            own.close()
    started = time.perf_counter()
    path = progress or progress_path(store)
    log = _ProgressLog(path, str(store.path), min_gain, restart=restart)
    wanted = None if benchmarks is None else set(benchmarks)
    live = [r for r in store.all() if wanted is None or r.benchmark in wanted]
    retired_before = sum(1 for r in store.retired() if wanted is None or r.benchmark in wanted)
    done = log.decided()
    todo = [r for r in live if r.id not in done]
    run: list[ReverifyLine] = []
    for record in todo if limit is None else todo[:limit]:
        line = _reverify_one(store, worlds, record, min_gain)
        log.append(line)
        run.append(line)
        if on_line is not None:
            on_line(line)
    total = log.latest()
    still_live = {r.id for r in store.all()}
    remaining = sum(
        1 for r in live if r.id in still_live and (r.id not in total or total[r.id].verdict == "unchecked")
    )
    return ReverifySummary(
        store=str(store.path),
        progress=str(path),
        min_gain=min_gain,
        run=_counts(run),
        total=_counts(list(total.values())),
        resumed=len(live) - len(todo),
        remaining=remaining,
        retired_before=retired_before,
        seconds=time.perf_counter() - started,
    )


def _reverify_one(store: SQLiteStore, worlds: TaskWorlds, record: Record, min_gain: float) -> ReverifyLine:
    started = time.perf_counter()

    def decided(verdict: ReverifyVerdict, reason: str, changed: list[str], gain: float | None = None) -> ReverifyLine:
        return ReverifyLine(
            record_id=record.id, benchmark=record.benchmark, task_id=record.source.task_id,
            version=record.version, old_gain=record.utility_gain, new_gain=gain, verdict=verdict,
            reason=reason, changed=changed, seconds=time.perf_counter() - started,
        )

    def unchecked(reason: str, changed: list[str] | None = None) -> ReverifyLine:
        return decided("unchecked", reason, changed or [])

    if _REDACTION_MARK in record.original_action.content or _REDACTION_MARK in record.improved_action.content:
        return unchecked("actions redacted: a secret was replaced by a placeholder, so the stored actions "
                         "cannot reproduce their checks")
    try:
        resolved = worlds.resolve(record)
        original, improved = _check_both(resolved, record)
    except ReverifyUnavailable as error:
        return unchecked(str(error))
    except CountermemError as error:
        return unchecked(f"check failed: {type(error).__name__}: {_short(str(error))}")
    changed = _changes(record, resolved.checker, original, improved)
    if not improved.completed:  # as in admission: only the improved action's check must complete
        return unchecked(f"check incomplete: the improved action's check did not complete "
                         f"(status {improved.status})", changed)
    gain = improved.utility - original.utility
    if gain > min_gain + GAIN_EPSILON:
        why = f"gain {gain:.3f} ({improved.utility:.3f} - {original.utility:.3f}) is above {min_gain:.3f}"
        return decided("holds", why, changed, gain)
    reason = (
        f"re-verified gain {gain:.3f} ({improved.utility:.3f} - {original.utility:.3f}) is not above "
        f"{min_gain:.3f} (was {record.utility_gain:.3f})"
        + (f"; changed: {'; '.join(changed)}" if changed else "")
    )
    try:
        _retire_as_checked(store, record, reason)
    except StoreError as error:
        return unchecked(f"not retired: {_short(str(error))}", changed)
    return decided("retired", reason, changed, gain)


def _retire_as_checked(store: SQLiteStore, record: Record, reason: str) -> None:
    """Retire the version checked; a newer one (counters moved meanwhile) only if its actions are the same."""
    try:
        store.retire(record.id, reason, expected_version=record.version)
        return
    except StoreError:
        now = store.get(record.id)
        same = (now.original_action, now.improved_action) == (record.original_action, record.improved_action)
        if not now.live or not same:
            raise
    store.retire(record.id, reason, expected_version=now.version)


def _check_both(resolved: Resolved, record: Record) -> tuple[CheckResult, CheckResult]:
    """Both actions from the source task's reset state; a malformed original keeps its verdict."""
    world_model = resolved.world_model
    state = world_model.reset(resolved.task)
    if is_malformed(record.original_check):
        original = record.original_check
    else:
        original = check_action(world_model, Action(content=record.original_action.content))
        world_model.restore(state)
    improved = check_action(world_model, Action(content=record.improved_action.content))
    world_model.restore(state)
    return original, improved


def _changes(record: Record, checker: CheckerInfo | None, original: CheckResult, improved: CheckResult) -> list[str]:
    stamp = record.provenance
    changes: list[str] = []
    if checker is not None:
        if stamp.checker_version != UNKNOWN and checker.version not in (UNKNOWN, stamp.checker_version):
            changes.append(f"checker {stamp.checker} {stamp.checker_version} -> {checker.version}")
        if stamp.data_sha256 != UNKNOWN and checker.data_sha256 not in (UNKNOWN, stamp.data_sha256):
            changes.append(f"data sha256 {stamp.data_sha256[:12]} -> {checker.data_sha256[:12]}")
    for name, before, now in (
        ("original", record.original_check, original),
        ("improved", record.improved_check, improved),
    ):
        if abs(before.utility - now.utility) > GAIN_EPSILON or before.status != now.status:
            detail = f": {_short(now.details)}" if now.details else ""
            changes.append(
                f"{name} action {before.status} {before.utility:.2f} -> {now.status} {now.utility:.2f}{detail}"
            )
    return changes


def _short(text: str) -> str:
    """One line: a long text is clipped in the middle (the clip marker's own newlines removed too)."""
    return " ".join(clip_middle(" ".join(text.split()), _DETAILS_LIMIT)[0].split())


def _counts(lines: list[ReverifyLine]) -> ReverifyCounts:
    verdicts = Counter(line.verdict for line in lines)
    reasons = Counter(line.reason.split(":", 1)[0] for line in lines if line.verdict == "unchecked")
    return ReverifyCounts(
        checked=len(lines),
        holds=verdicts["holds"],
        retired=verdicts["retired"],
        unchecked=verdicts["unchecked"],
        unchecked_reasons=dict(sorted(reasons.items())),
    )


class _ProgressLog:
    """The append-only progress file: a `pass` line, then one `record` line per record checked."""

    def __init__(self, path: Path, store: str, min_gain: float, *, restart: bool) -> None:
        self.path = path
        if path.is_dir():
            raise ConfigError(f"the progress file {path} is a folder; give a file path")
        if restart or not path.exists() or path.stat().st_size == 0:
            self.lines: list[ReverifyLine] = []
            self._write_fresh(ReverifyPass(store=store, min_gain=min_gain))
            return
        header, self.lines = self._read()
        if abs(header.min_gain - min_gain) > GAIN_EPSILON:
            raise ConfigError(
                f"{path} holds a pass judged with min_gain {header.min_gain:g}, not {min_gain:g}; resume it "
                "with the same min_gain, or restart the pass (--restart)"
            )

    def _write_fresh(self, header: ReverifyPass) -> None:
        partial = self.path.with_name(self.path.name + ".partial")
        partial.write_text(header.model_dump_json() + "\n", encoding="utf-8")
        os.replace(partial, self.path)

    def _read(self) -> tuple[ReverifyPass, list[ReverifyLine]]:
        raw = self.path.read_bytes()
        if not raw.endswith(b"\n"):  # cut off mid-line by a crash: drop the partial line
            raw = raw[: raw.rfind(b"\n") + 1]
            with open(self.path, "r+b") as handle:
                handle.truncate(len(raw))
        text = raw.decode("utf-8").splitlines()
        try:
            header = ReverifyPass.model_validate_json(text[0]) if text else None
        except ValidationError:
            header = None
        if header is None:
            raise ConfigError(
                f"{self.path} is not a reverify progress file (its first line is no `pass` line); "
                "give another path, or --restart to begin a new pass there"
            )
        lines: list[ReverifyLine] = []
        for number, line in enumerate(text[1:], start=2):
            try:
                lines.append(ReverifyLine.model_validate_json(line))
            except ValidationError as error:
                raise ConfigError(
                    f"{self.path} line {number} is not a reverify line ({_short(str(error))}); "
                    "--restart begins a new pass"
                ) from error
        return header, lines

    def append(self, line: ReverifyLine) -> None:
        data = (json.dumps(line.model_dump(mode="json")) + "\n").encode("utf-8")
        with open(self.path, "ab") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        self.lines.append(line)

    def latest(self) -> dict[str, ReverifyLine]:
        return {line.record_id: line for line in self.lines}

    def decided(self) -> set[str]:
        return {record_id for record_id, line in self.latest().items() if line.verdict != "unchecked"}
