"""Reading a store, a run folder and a study folder into the plain models the pages draw.

Everything is read, never written: the store is opened read-only (safe while a construct run
writes it), a run's results.jsonl is read without repairing a torn last line, and nothing is
created beside what is viewed.
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from countermem.agents import Event, TaskOutcome
from countermem.core import StoreError, UnviewablePathError
from countermem.experiment import RunDir
from countermem.experiment._rundir import safe_name
from countermem.memory import (
    EvictionEvent,
    Record,
    ReverifyLine,
    ReverifyPass,
    ScopeAccess,
    SQLiteStore,
    StoreStats,
    progress_path,
)
from countermem.view._detect import read_manifest

SKIPPED_FOLDERS = frozenset({"cache", "jobs", "report", "__pycache__"})
"""Folders of a study that hold no runs or stores (the response cache, job records, the report)."""


@dataclass(frozen=True)
class HistoryEntry:
    """One replaced version of a record and when it was replaced."""

    record: Record
    replaced_at: str


@dataclass(frozen=True)
class ReverifyData:
    """The store's re-verification sidecar (`STORE.reverify.jsonl`): the pass it belongs to and
    the last verdict on each record this view may read."""

    header: ReverifyPass | None
    latest: dict[str, ReverifyLine]
    unreadable: int
    """Lines that did not read (a torn last line of a pass in progress, an edit)."""

    def counts(self) -> dict[str, int]:
        found: dict[str, int] = {}
        for line in self.latest.values():
            found[line.verdict] = found.get(line.verdict, 0) + 1
        return dict(sorted(found.items()))


@dataclass
class StoreData:
    path: Path
    stats: StoreStats
    records: list[Record]
    """The live records (the ones that may be offered), in admission order."""
    evictions: list[EvictionEvent]
    frozen: bool
    retired: list[Record] = field(default_factory=list)
    """Retired records: kept, never offered (`memory reverify`, retirement by use)."""
    access: ScopeAccess | None = None
    """The reader the store was opened as (None: the owner's view of every scope)."""
    reverify: ReverifyData | None = None

    @property
    def listed(self) -> list[Record]:
        """What the record list shows: the live records, then the retired ones."""
        return self.records + self.retired

    def find(self, record_id: str) -> Record | None:
        return next((r for r in self.listed if r.id == record_id), None)


def load_store(path: Path, access: ScopeAccess | None = None) -> StoreData:
    with SQLiteStore(path, read_only=True, access=access) as store:
        data = StoreData(
            path=path, stats=store.stats(), records=store.all(), evictions=store.evictions(), frozen=store.frozen,
            retired=store.retired(), access=access,
        )
    readable = {r.id for r in data.listed} | {e.record_id for e in data.evictions}
    data.reverify = read_reverify(progress_path(path), readable)
    return data


def read_reverify(path: Path, readable: set[str]) -> ReverifyData | None:
    """The sidecar's last line per record, for the `readable` ids only (the sidecar names every
    scope's records); None when there is no sidecar. Only read: a torn line is skipped, not cut."""
    if not path.is_file():
        return None
    try:
        text = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as error:
        raise UnviewablePathError(f"{path} cannot be read ({error}); move it aside to view the store") from error
    header: ReverifyPass | None = None
    latest: dict[str, ReverifyLine] = {}
    unreadable = 0
    for number, line in enumerate(text):
        if not line.strip():
            continue
        try:
            if number == 0:
                header = ReverifyPass.model_validate_json(line)
                continue
            entry = ReverifyLine.model_validate_json(line)
        except (ValidationError, ValueError):
            unreadable += 1
            continue
        if entry.record_id in readable:
            latest[entry.record_id] = entry
    return ReverifyData(header=header, latest=latest, unreadable=unreadable)


def record_history(path: Path, record_id: str, access: ScopeAccess | None = None) -> list[HistoryEntry]:
    """Every replaced version of a record, oldest first, live or evicted (the store's own
    `history` covers live records only, and does not say when a version was replaced); with
    `access`, only versions of the scopes it may read."""
    conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
    try:
        rows = conn.execute(
            "SELECT body, replaced_at FROM record_history WHERE id = ? ORDER BY seq", (record_id,)
        ).fetchall()
    finally:
        conn.close()
    entries = []
    for body, at in rows:
        try:
            entries.append(HistoryEntry(Record.model_validate_json(body), str(at)))
        except (ValidationError, ValueError, RecursionError):  # a damaged old version: the others still show
            continue
    return [e for e in entries if access is None or access.can_read(e.record)]


def evicted_record(path: Path, record_id: str, access: ScopeAccess | None = None) -> Record | None:
    with SQLiteStore(path, read_only=True, access=access) as store:
        try:
            return store.evicted_record(record_id)
        except StoreError:  # never evicted: the page says the record is unknown
            return None


@dataclass
class RunData:
    path: Path
    manifest: dict[str, object]
    outcomes: list[TaskOutcome]
    unfinished: list[str]
    """Tasks with a transcript but no result line (in flight, or cut off by a crash)."""
    stage: dict[str, object] | None
    store: Path | None
    """The memory store the run read or wrote, where it can be found (see `find_run_store`)."""
    admitted: dict[str, list[str]] | None = None
    """A construct run's records admitted from each task (admissions.jsonl), by task id; None
    for a run that admits nothing (no admissions.jsonl)."""

    @property
    def config(self) -> dict[str, object]:
        config = self.manifest.get("config")
        return config if isinstance(config, dict) else {}

    def transcript(self, task_id: str) -> tuple[list[Event], int]:
        """The task's events, and how many lines did not read as one (a torn last line, an edit)."""
        path = self.path / "transcripts" / f"{safe_name(task_id)}.jsonl"
        events: list[Event] = []
        unreadable = 0
        if not path.is_file():
            return events, unreadable
        for line in path.read_text(errors="replace").splitlines():
            if not line.strip():
                continue
            try:
                events.append(Event.model_validate_json(line))
            except (ValidationError, ValueError):
                unreadable += 1
        return events, unreadable


def load_run(path: Path, *, store: Path | None = None, study_root: Path | None = None) -> RunData:
    outcomes = RunDir(path).finished()
    finished = {safe_name(o.task_id) for o in outcomes}
    transcripts = path / "transcripts"
    unfinished = sorted(
        p.stem for p in transcripts.glob("*.jsonl") if p.stem not in finished
    ) if transcripts.is_dir() else []
    stage = _read_json(path / "stage.json")
    found = store if store is not None else find_run_store(path, stage, study_root)
    return RunData(
        path=path, manifest=read_manifest(path), outcomes=outcomes, unfinished=unfinished, stage=stage, store=found,
        admitted=_admitted(path / "admissions.jsonl"),
    )


def _admitted(path: Path) -> dict[str, list[str]] | None:
    """Record ids admitted per task; a line that does not read (a torn last line) adds nothing."""
    if not path.is_file():
        return None
    found: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        try:
            entry = json.loads(line)
            task, record = entry["task_id"], (entry.get("report") or {}).get("admitted_record_id")
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
        if isinstance(task, str) and isinstance(record, str):
            found.setdefault(task, []).append(record)
    return found


def find_run_store(path: Path, stage: dict[str, object] | None, study_root: Path | None) -> Path | None:
    """The store a stage run names in stage.json, tried as written, inside the run folder and,
    for a study that was moved, from its `work/` part under the study root; else a store file
    inside the run folder; else None."""
    candidates: list[Path] = []
    named = stage.get("store") if stage else None
    if isinstance(named, str) and named:
        written = Path(named)
        candidates += [written, path / written.name]
        if study_root is not None and "work" in written.parts:
            candidates.append(study_root.joinpath(*written.parts[written.parts.index("work"):]))
    candidates += sorted(path.glob("*.sqlite"))
    return next((c for c in candidates if c.is_file()), None)


@dataclass
class RunRef:
    """A run of a study: where it is (relative to the study root) and what it came to."""

    rel: str
    path: Path
    n_tasks: int
    solved: int
    config: dict[str, object] = field(default_factory=dict)
    """The run's config from its manifest (stage, method, agent, benchmark, seed ...)."""

    def setting(self, name: str) -> str:
        value = self.config.get(name)
        return "" if value is None else str(value)


@dataclass
class StudyData:
    path: Path
    manifest: dict[str, object]
    report_md: str | None
    runs: list[RunRef] = field(default_factory=list)
    stores: list[str] = field(default_factory=list)
    """Memory stores under the study root, relative paths."""


def load_study(path: Path) -> StudyData:
    report = path / "report" / "report.md"
    runs: list[RunRef] = []
    stores: list[str] = []
    for folder, names in _walk(path):
        rel = folder.relative_to(path).as_posix()
        if "results.jsonl" in names and rel != ".":  # a study root is no run
            lines = [line for line in (folder / "results.jsonl").read_text().splitlines() if line.strip()]
            solved = sum(_solved(line) for line in lines)
            config = read_manifest(folder).get("config")
            runs.append(RunRef(
                rel=rel, path=folder, n_tasks=len(lines), solved=solved, config=config if isinstance(config, dict) else {}
            ))
        stores += [
            (folder / n).relative_to(path).as_posix() for n in names if n.endswith(".sqlite") and _is_store(folder / n)
        ]
    return StudyData(
        path=path,
        manifest=read_manifest(path),
        report_md=report.read_text() if report.is_file() else None,
        runs=sorted(runs, key=lambda r: r.rel),
        stores=sorted(stores),
    )


def _walk(root: Path) -> list[tuple[Path, list[str]]]:
    """Every folder under the study root with its file names; links are not followed (a study
    links results/ into work/, and each run must be listed once)."""
    found: list[tuple[Path, list[str]]] = []
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        dirs[:] = sorted(d for d in dirs if not (here == root and d in SKIPPED_FOLDERS))
        found.append((here, files))
    return found


def _solved(line: str) -> bool:
    try:
        return bool(json.loads(line).get("solved"))
    except ValueError:
        return False


def _is_store(path: Path) -> bool:
    try:
        SQLiteStore(path, read_only=True).close()
    except StoreError:  # not a memory store (another SQLite file, the response cache): not listed
        return False
    return True


def _read_json(path: Path) -> dict[str, object] | None:
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise UnviewablePathError(f"{path} cannot be read as JSON ({error})") from error
    return data if isinstance(data, dict) else None


def modified(path: Path) -> float:
    """When a store or a run last changed (its journal included), so a served page is read again."""
    stamps = [p.stat().st_mtime for p in (path, Path(f"{path}-wal")) if p.exists()]
    return max(stamps, default=0.0)

