"""Parent side of a check: start `_runner.py` in a fresh process and enforce the deadline.

z3's `timeout` parameter is a soft limit that some tactics (and some preprocessing steps)
only look at now and then, so the hard guarantee comes from here: the runner gets its own
process group and is killed with SIGKILL at `hard_timeout_s`. The runner also runs with an
address-space limit, no file writes (RLIMIT_FSIZE 0) and a throw-away working directory.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

RUNNER = Path(__file__).with_name("_runner.py")
DEFAULT_MEMORY_MB = 3072


class RunnerReply(BaseModel):
    """What the checking process reports; see `_runner.py` for who fills which field."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    answer: Literal["sat", "unsat", "unknown", "error"]
    reason: str = ""
    error: str = ""
    error_kind: Literal["action", "internal", "resource", ""] = ""
    effort: int = 0
    solve_seconds: float = 0.0
    assertions: int = 0
    violated: int = 0
    first_violation: str = ""
    values: dict[str, int | bool | None] = Field(default_factory=dict)
    notes: list[str] = Field(default_factory=list)


@dataclass(frozen=True)
class ProcessOutcome:
    reply: RunnerReply | None
    """None when the process was killed or died without a readable reply."""
    killed: bool
    wall_seconds: float
    returncode: int
    stderr_tail: str


def run_runner(request: dict[str, object], hard_timeout_s: float) -> ProcessOutcome:
    payload = json.dumps(request).encode("utf-8")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="countermem-smt-") as workdir:
        process = subprocess.Popen(
            [sys.executable, "-E", "-s", str(RUNNER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=workdir,
            start_new_session=True,
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C.UTF-8"},
        )
        killed = False
        try:
            stdout, stderr = process.communicate(payload, timeout=hard_timeout_s)
        except subprocess.TimeoutExpired:
            killed = True
            _kill_group(process)
            stdout, stderr = process.communicate()
    wall = time.monotonic() - started
    reply: RunnerReply | None = None
    if not killed and stdout.strip():
        try:
            reply = RunnerReply.model_validate_json(stdout)
        except ValidationError:
            reply = None
    tail = stderr.decode("utf-8", "replace")[-400:]
    return ProcessOutcome(reply=reply, killed=killed, wall_seconds=wall, returncode=process.returncode, stderr_tail=tail)


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
