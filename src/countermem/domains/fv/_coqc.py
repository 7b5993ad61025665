"""Run `coqc` on one generated file, in a private temporary folder, under hard limits.

A proof script is untrusted input: a tactic can loop forever (`repeat` of a step that always
progresses), blow up memory (`vm_compute` on a huge term) or flood the output. So each run gets
its own temporary folder (deleted afterwards), its own process group (killed as a whole at the
wall-clock limit, so no stray `coqc` outlives the check), resource limits (address space, CPU
seconds, size of any file written, no core dumps) and an environment holding only PATH and a
HOME inside the temporary folder. Output goes to files, not pipes, and only the tail is read
back, so a script that prints without end cannot exhaust our memory.

This runner alone is not a sandbox: `coqc` runs with the user's rights and could read what the
user can. It is used only when the user asks for `unsafe_no_sandbox`; by default coqc runs
inside bubblewrap (`_sandboxed.py`). Either way, Coq vernacular that reads or writes files
(`Load`, `Redirect`, `Require`, `Extraction`) is refused before a script gets here (`_script.py`).
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from countermem.core import CheckerUnavailableError

MODULE_NAME = "Candidate"
"""The file is `Candidate.v`; coqc requires a valid module name."""

_OUTPUT_TAIL_BYTES = 256 * 1024
_FILE_SIZE_LIMIT = 64 * 1024 * 1024


@dataclass(frozen=True)
class CoqcLimits:
    timeout_s: float = 20.0
    memory_mb: int = 4096
    """Address-space limit of the coqc process (virtual memory, not resident)."""


@dataclass(frozen=True)
class CoqcRun:
    returncode: int | None
    """None when the run was killed at the wall-clock limit."""
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool

    @property
    def killed_by_signal(self) -> int | None:
        if self.returncode is not None and self.returncode < 0:
            return -self.returncode
        return None


CoqcRunner = Callable[[str, CoqcLimits], CoqcRun]
"""Compiles one source under limits: `run_coqc` (rlimits only) or `run_coqc_sandboxed`."""


def coqc_path() -> str | None:
    return shutil.which("coqc")


def coqc_version() -> str | None:
    path = coqc_path()
    if path is None:
        return None
    try:
        out = subprocess.run(
            [path, "--print-version"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip().split()[0] if out.stdout.strip() else None


def require_coqc() -> str:
    path = coqc_path()
    if path is None:
        raise CheckerUnavailableError(
            "coqc is not on PATH: install Coq 8.16 (Debian/Ubuntu: apt-get install coq) to check proofs"
        )
    return path


def _limit_child(limits: CoqcLimits) -> None:
    memory = limits.memory_mb * 1024 * 1024
    cpu = int(limits.timeout_s) + 2
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    resource.setrlimit(resource.RLIMIT_FSIZE, (_FILE_SIZE_LIMIT, _FILE_SIZE_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _tail(path: Path) -> str:
    size = path.stat().st_size
    with path.open("rb") as handle:
        if size > _OUTPUT_TAIL_BYTES:
            handle.seek(size - _OUTPUT_TAIL_BYTES)
        return handle.read().decode("utf-8", errors="replace")


def run_coqc(source: str, limits: CoqcLimits) -> CoqcRun:
    """Compile `source` as `Candidate.v` with rlimits only (no sandbox); never raises for
    anything the source does."""
    coqc = require_coqc()
    with tempfile.TemporaryDirectory(prefix="countermem-coq-") as folder:
        work = Path(folder)
        (work / f"{MODULE_NAME}.v").write_text(source, encoding="utf-8")
        out_path, err_path = work / "stdout.txt", work / "stderr.txt"
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": folder, "LC_ALL": "C.UTF-8"}
        start = time.monotonic()
        timed_out = False
        with out_path.open("wb") as out, err_path.open("wb") as err:
            process = subprocess.Popen(
                [coqc, "-q", "-noglob", f"{MODULE_NAME}.v"],
                cwd=folder,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                env=env,
                start_new_session=True,
                preexec_fn=lambda: _limit_child(limits),
            )
            try:
                returncode: int | None = process.wait(timeout=limits.timeout_s)
            except subprocess.TimeoutExpired:
                timed_out = True
                returncode = None
                _kill_group(process)
        seconds = time.monotonic() - start
        return CoqcRun(
            returncode=returncode,
            stdout=_tail(out_path),
            stderr=_tail(err_path),
            seconds=seconds,
            timed_out=timed_out,
        )


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()
