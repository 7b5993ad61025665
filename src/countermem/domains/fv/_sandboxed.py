"""Run `coqc` inside the project's bubblewrap sandbox (countermem.domains.sandbox).

The sandbox runs Python, so a short driver script starts `coqc` in the sandbox's private /tmp
and reports its exit status and output tails on the side channel, which coqc's own output
cannot flood. The sandbox sees /usr read-only (coqc and Coq's standard library live there) but
not /etc, so findlib's configuration is passed in as a file. Whether this works on a machine
(coqc outside /usr, an unusual findlib) is probed once with a one-line theorem.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

from countermem.core import SandboxError
from countermem.domains._protocol import Availability
from countermem.domains.fv._coqc import MODULE_NAME, CoqcLimits, CoqcRun, coqc_path
from countermem.domains.sandbox import SandboxPolicy, run_python, sandbox_availability

_FINDLIB_CONF = "ocamlfind.conf"
_TAIL = 256 * 1024
_DRIVER = rf"""
import json, os, subprocess
with open("stdout.txt", "wb") as out, open("stderr.txt", "wb") as err:
    code = subprocess.run(
        ["coqc", "-q", "-noglob", "{MODULE_NAME}.v"], stdin=subprocess.DEVNULL, stdout=out, stderr=err
    ).returncode
def tail(name):
    with open(name, "rb") as handle:
        handle.seek(max(0, os.path.getsize(name) - {_TAIL}))
        return handle.read().decode("utf-8", errors="replace")
with os.fdopen(int(os.environ["COUNTERMEM_CHANNEL_FD"]), "w") as channel:
    json.dump({{"returncode": code, "stdout": tail("stdout.txt"), "stderr": tail("stderr.txt")}}, channel)
"""
_PROBE = "Theorem countermem_probe : 1 + 1 = 2.\nProof. reflexivity. Qed.\n"


def _findlib_config() -> str | None:
    path = Path(os.environ.get("OCAMLFIND_CONF", "/etc/ocamlfind.conf"))
    return path.read_text(encoding="utf-8") if path.is_file() else None


def _policy(limits: CoqcLimits) -> tuple[SandboxPolicy, dict[str, str]]:
    files: dict[str, str] = {}
    env: dict[str, str] = {}
    config = _findlib_config()
    if config is not None:
        files[_FINDLIB_CONF] = config
        env["OCAMLFIND_CONF"] = f"/tmp/{_FINDLIB_CONF}"
    policy = SandboxPolicy(
        timeout_s=limits.timeout_s,
        memory_mb=limits.memory_mb,
        max_output_bytes=16 * 1024,
        disk_mb=128,
        env=env,
    )
    return policy, files


def run_coqc_sandboxed(source: str, limits: CoqcLimits) -> CoqcRun:
    """Compile `source` as `Candidate.v` in the sandbox; raises SandboxError only if the sandbox
    itself cannot start (never for anything the source does)."""
    policy, files = _policy(limits)
    files[f"{MODULE_NAME}.v"] = source
    result = run_python(_DRIVER, policy, files)
    if result.timed_out:
        return CoqcRun(returncode=None, stdout="", stderr="", seconds=result.seconds, timed_out=True)
    if not result.channel.strip():
        return CoqcRun(
            returncode=-result.signal if result.signal else (result.returncode or 1),
            stdout="",
            stderr=f"the coqc driver ended without a report ({result.describe()}): {result.stderr[-500:]}",
            seconds=result.seconds,
            timed_out=False,
        )
    report = json.loads(result.channel)
    return CoqcRun(
        returncode=int(report["returncode"]),
        stdout=str(report["stdout"]),
        stderr=str(report["stderr"]),
        seconds=result.seconds,
        timed_out=False,
    )


@lru_cache(maxsize=1)
def coq_sandbox_availability() -> Availability:
    """Whether coqc runs in the sandbox here, probed once per process."""
    if coqc_path() is None:
        return Availability(False, "coqc is not on PATH: install Coq 8.16 (apt-get install coq)")
    base = sandbox_availability()
    if not base.available:
        return base
    try:
        run = run_coqc_sandboxed(_PROBE, CoqcLimits(timeout_s=60))
    except SandboxError as error:
        return Availability(False, str(error))
    if run.returncode != 0:
        return Availability(
            False,
            f"coqc does not run inside the sandbox (exit {run.returncode}): {run.stderr.strip()[-300:]}. "
            "The sandbox shows only /usr; a coqc installed elsewhere cannot be sandboxed",
        )
    return Availability(True, "coqc runs inside bubblewrap")
