"""A study job that runs away from the study folder: its inputs go out as bytes, its outputs come back.

Why: a cluster's nodes share no file system with the machine that holds the study folder. A job
there gets, as one bundle, every file it may read (the manifest, the records and folders of the
jobs it depends on, directly or not, and a consistent copy of its backbone's response caches),
runs in a temporary folder laid out like the study folder, and returns its whole folder, its
record and the cache rows it added. The driver then commits that as `execute_job` would have:
the cache rows first (additive, harmless if the commit stops), then the job's folder in one
rename, the outputs checked against the record's hashes, and the record last, so that a record
still means every output is complete. Nothing here imports ray: the executor only ships these
functions and bytes.
"""

from __future__ import annotations

import os
import pickle
import shutil
import sqlite3
import tempfile
import traceback
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from countermem.core import ArtifactMismatchError, CountermemError, countermem_version, sha256_file
from countermem.experiment._lock import LOCK_NAME, hold_folder, release_folder
from countermem.experiment._rundir import write_json_atomic
from countermem.experiment._study_config import StudyConfig
from countermem.experiment._study_jobs import JobRecord, execute_job, job_record_path
from countermem.experiment._study_plan import Job

MANIFEST = "manifest.json"
CACHE_DIR = "cache"
INCOMING = ".incoming"
"""Where the driver unpacks a returned job before moving it into place; removed after each commit."""

CacheRow = tuple[str, str, str, float]


@dataclass(frozen=True)
class JobInputs:
    """Every file a job may read, relative to the study root, as bytes."""

    files: dict[str, bytes]

    @property
    def size(self) -> int:
        return sum(len(b) for b in self.files.values())


@dataclass(frozen=True)
class JobResult:
    """What a job run elsewhere sends back: its files and record, or why it failed."""

    version: str
    record: JobRecord | None = None
    files: dict[str, bytes] = field(default_factory=dict)
    cache_rows: dict[str, list[CacheRow]] = field(default_factory=dict)
    """Cache file (relative) -> rows the job added (key, llm, completion, created_at)."""
    error: CountermemError | None = None
    """A countermem error, raised again at the driver (a backbone fault stops the study there too)."""
    crash: str | None = None
    """Any other exception, as `Type: message` and its traceback (a bug; the job fails)."""


def _dependencies(job: Job, jobs: dict[str, Job]) -> list[Job]:
    """The jobs `job` depends on, directly or not (a merge reads its shards, an evaluation its
    construct job's record even when it depends on it through a training job)."""
    seen: dict[str, Job] = {}
    stack = list(job.depends)
    while stack:
        job_id = stack.pop()
        if job_id in seen:
            continue
        dependency = jobs[job_id]
        seen[job_id] = dependency
        stack.extend(dependency.depends)
    return list(seen.values())


def _cache_snapshot(path: Path) -> bytes:
    """A consistent copy of a live SQLite cache (WAL included), as the bytes of one file."""
    with tempfile.TemporaryDirectory(prefix="countermem-cache-") as folder:
        copy = Path(folder) / path.name
        source = sqlite3.connect(path, timeout=30)
        try:
            target = sqlite3.connect(copy)
            try:
                source.backup(target)
            finally:
                target.close()
        finally:
            source.close()
        return copy.read_bytes()


def collect_inputs(root: Path, job: Job, jobs: dict[str, Job]) -> JobInputs:
    files: dict[str, bytes] = {MANIFEST: (root / MANIFEST).read_bytes()}
    for dependency in _dependencies(job, jobs):
        record = job_record_path(root, dependency.id)
        files[str(record.relative_to(root))] = record.read_bytes()
        for path in sorted((root / dependency.out).rglob("*")):
            if path.is_file() and not path.is_symlink() and path.name != LOCK_NAME:
                files[str(path.relative_to(root))] = path.read_bytes()
    backbone = job.cell.backbone
    for name in (f"{backbone}.sqlite", f"{backbone}-generator.sqlite"):
        cache = root / CACHE_DIR / name
        if cache.is_file():
            files[f"{CACHE_DIR}/{name}"] = _cache_snapshot(cache)
    return JobInputs(files)


def _max_rowid(path: Path) -> int:
    if not path.is_file():
        return 0
    db = sqlite3.connect(path)
    try:
        row = db.execute("SELECT MAX(rowid) FROM completions").fetchone()
    except sqlite3.OperationalError:
        return 0
    finally:
        db.close()
    return int(row[0] or 0)


def _rows_after(path: Path, rowid: int) -> list[CacheRow]:
    db = sqlite3.connect(path)
    try:
        rows = db.execute(
            "SELECT key, llm, completion, created_at FROM completions WHERE rowid > ? ORDER BY rowid", (rowid,)
        ).fetchall()
    finally:
        db.close()
    return [(str(k), str(m), str(c), float(t)) for k, m, c, t in rows]


def _new_rows(cache: Path, before: dict[str, int]) -> dict[str, list[CacheRow]]:
    """The rows a job added to each of its cache files (a fault's too: a rerun then replays them)."""
    rows = {
        f"{CACHE_DIR}/{p.name}": _rows_after(p, before.get(p.name, 0))
        for p in (sorted(cache.glob("*.sqlite")) if cache.is_dir() else [])
    }
    return {k: v for k, v in rows.items() if v}


def _portable(error: CountermemError) -> CountermemError:
    """The error itself when it survives pickling (Ray sends it back), else one that says the same."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return CountermemError(f"{type(error).__name__}: {error}")
    return error


def run_job_in_temp(config_json: str, job: Job, inputs: JobInputs, threads: int) -> JobResult:
    """Run `job` in a fresh temporary study folder holding `inputs`; return what it made.

    The entry point of a remote job (it runs on a cluster node). A countermem error comes back
    as a value rather than an exception, so that the driver sees its exact type."""
    folder = Path(tempfile.mkdtemp(prefix="countermem-job-"))
    try:
        for relative, data in inputs.files.items():
            path = folder / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        cache = folder / CACHE_DIR
        before = {p.name: _max_rowid(p) for p in cache.glob("*.sqlite")} if cache.is_dir() else {}
        hold_folder(folder)
        try:
            record = execute_job(folder, StudyConfig.model_validate_json(config_json), job, threads=threads)
        except CountermemError as error:
            return JobResult(version=countermem_version(), error=_portable(error), cache_rows=_new_rows(cache, before))
        except Exception as error:
            crash = f"{type(error).__name__}: {error}\n" + "".join(traceback.format_exception(error))
            return JobResult(version=countermem_version(), crash=crash, cache_rows=_new_rows(cache, before))
        finally:
            release_folder(folder)
        files: dict[str, bytes] = {}
        for path in sorted((folder / job.out).rglob("*")):
            if path.is_file() and not path.is_symlink() and path.name != LOCK_NAME:
                files[str(path.relative_to(folder))] = path.read_bytes()
        for relative in record.outputs:
            files.setdefault(relative, (folder / relative).read_bytes())
        return JobResult(version=countermem_version(), record=record, files=files, cache_rows=_new_rows(cache, before))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


_CACHE_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS completions (key TEXT PRIMARY KEY, llm TEXT NOT NULL, "
    "completion TEXT NOT NULL, created_at REAL NOT NULL)"
)


def _merge_cache(path: Path, rows: list[CacheRow]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=30, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(_CACHE_SCHEMA)
        db.execute("BEGIN")
        db.executemany("INSERT OR IGNORE INTO completions (key, llm, completion, created_at) VALUES (?, ?, ?, ?)", rows)
        db.execute("COMMIT")
    finally:
        db.close()


def merge_cache_rows(root: Path, result: JobResult) -> None:
    """Add the replies a job got to the study's cache, whether or not the job finished."""
    for relative, rows in result.cache_rows.items():
        if Path(relative).parent != Path(CACHE_DIR) or Path(relative).suffix != ".sqlite":
            raise ArtifactMismatchError(f"a job sent back cache rows for {relative}, which is not a cache file")
        _merge_cache(root / relative, rows)


def _inside(relative: str, folder: Path) -> bool:
    return Path(relative).is_relative_to(folder)


def commit_result(root: Path, job: Job, result: JobResult) -> JobRecord:
    """Put a job's returned files into the study folder and write its record last.

    Every output must arrive with the bytes its record hashed (else ArtifactMismatchError and no
    record: the job reruns). The job's folder replaces any unfinished attempt in one rename."""
    record = result.record
    if record is None:
        raise CountermemError(f"job {job.id} returned no record; run the study again to redo it")
    for relative in record.outputs:
        if relative not in result.files:
            raise ArtifactMismatchError(f"job {job.id} did not send back its output {relative}; run the study again")
    merge_cache_rows(root, result)
    staging = root / INCOMING / uuid.uuid4().hex
    try:
        for relative, data in result.files.items():
            if Path(relative).is_absolute() or ".." in Path(relative).parts:
                raise ArtifactMismatchError(f"job {job.id} sent back a file outside the study folder: {relative}")
            path = staging / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        for relative, digest in record.outputs.items():
            actual = sha256_file(staging / relative)
            if actual != digest:
                raise ArtifactMismatchError(
                    f"{relative} of job {job.id} arrived with sha256 {actual}, but the job wrote {digest}; "
                    "run the study again to redo the job"
                )
        target = root / job.out
        if target.exists():
            shutil.rmtree(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        if (staging / job.out).exists():
            os.replace(staging / job.out, target)
        else:
            target.mkdir()
        for relative in result.files:
            if not _inside(relative, job.out):
                (root / relative).parent.mkdir(parents=True, exist_ok=True)
                os.replace(staging / relative, root / relative)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        incoming = root / INCOMING
        if incoming.is_dir() and not any(incoming.iterdir()):
            incoming.rmdir()
    path = job_record_path(root, job.id)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(path, record.model_dump(mode="json"))
    return record


def clear_incoming(root: Path) -> None:
    """Remove what an interrupted commit left unpacked (its job has no record and runs again)."""
    shutil.rmtree(root / INCOMING, ignore_errors=True)

