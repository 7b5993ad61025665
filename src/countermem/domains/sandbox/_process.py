"""Start the interpreter (inside bwrap or not), feed it, read it under caps, and kill it on time.

One loop multiplexes stdin, stdout, stderr and the side channel, so that a chatty or silent
program can neither dead-lock us nor outlast the wall-clock limit. Output past the cap is still
read (and dropped) so the program is never blocked on a full pipe while its clock runs.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from countermem.core import SandboxError
from countermem.domains.sandbox._bwrap import (
    bwrap_command,
    python_argv,
    resolve_python,
    run_as,
    sandbox_env,
)
from countermem.domains.sandbox._launcher import LAUNCHER
from countermem.domains.sandbox._policy import SandboxPolicy, SandboxResult

CHANNEL_CAP_BYTES = 1 << 20
_POLL_S = 0.25
_EXIT_GRACE_S = 0.5
_DRAIN_S = 1.0


@dataclass
class _Stream:
    cap: int
    kept: bytearray = field(default_factory=bytearray)
    total: int = 0

    def add(self, chunk: bytes) -> None:
        room = self.cap - len(self.kept)
        if room > 0:
            self.kept += chunk[:room]
        self.total += len(chunk)

    @property
    def truncated(self) -> bool:
        return self.total > len(self.kept)

    def text(self) -> str:
        return self.kept.decode("utf-8", errors="replace")


def _check_file_names(files: Mapping[str, str]) -> None:
    for name in files:
        path = PurePosixPath(name)
        if path.is_absolute() or ".." in path.parts or not path.parts or name == "main.py":
            raise SandboxError(
                f"input file name {name!r} must be a relative path inside the working directory "
                "(no '..', not 'main.py', which holds the code)"
            )


def _limits(policy: SandboxPolicy) -> dict[str, tuple[int, int]]:
    disk = policy.disk_mb * 1024 * 1024
    memory = policy.memory_mb * 1024 * 1024
    cpu = policy.cpu_limit_s
    return {
        "RLIMIT_CORE": (0, 0),
        "RLIMIT_CPU": (cpu, cpu + 1),
        "RLIMIT_FSIZE": (disk, disk),
        "RLIMIT_NOFILE": (policy.max_open_files, policy.max_open_files),
        "RLIMIT_AS": (memory, memory),
        "RLIMIT_NPROC": (policy.max_processes, policy.max_processes),
    }


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def _signal_of(returncode: int, sandboxed: bool) -> int | None:
    if returncode < 0:
        return -returncode
    if sandboxed and 128 < returncode <= 128 + 64:
        return returncode - 128
    return None


def execute(
    code: str, policy: SandboxPolicy, files: Mapping[str, str], bwrap: str | None
) -> SandboxResult:
    """Run `code` once; `bwrap=None` means the unsafe, rlimits-only mode the policy asked for."""
    _check_file_names(files)
    python = resolve_python(policy)
    payload = json.dumps({"code": code, "files": dict(files), "limits": _limits(policy)}).encode("utf-8")
    user = run_as()
    channel_r, channel_w = os.pipe()
    info_r, info_w = os.pipe()
    workdir: str | None = None
    try:
        if bwrap is not None:
            argv = bwrap_command(bwrap, python, policy, LAUNCHER, channel_w, info_w)
            env: dict[str, str] | None = {}
            cwd: str | None = "/"
        else:
            workdir = tempfile.mkdtemp(prefix="countermem-unsafe-")
            if user is not None:
                os.chown(workdir, *user)
            argv = python_argv(python, LAUNCHER)
            env = sandbox_env(policy, workdir, channel_w)
            cwd = workdir
        started = time.monotonic()
        process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            pass_fds=(channel_w, info_w),
            start_new_session=True,
            cwd=cwd,
            env=env,
            user=user[0] if user else None,
            group=user[1] if user else None,
            extra_groups=[] if user else None,
        )
        os.close(channel_w)
        os.close(info_w)
        channel_w = info_w = -1
        streams, timed_out = _pump(process, payload, channel_r, policy, started)
        _kill_group(process)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        seconds = time.monotonic() - started
        info = _read_available(info_r)
    finally:
        for fd in (channel_r, channel_w, info_r, info_w):
            if fd >= 0:
                os.close(fd)
        if workdir is not None:
            shutil.rmtree(workdir, ignore_errors=True)
    stdout, stderr, channel = streams
    sandboxed = bwrap is not None
    if sandboxed and not info.strip() and not timed_out:
        raise SandboxError(
            f"bwrap could not set up the sandbox (exit code {process.returncode}): "
            f"{stderr.text().strip()[-500:]}"
        )
    sig = _signal_of(process.returncode, sandboxed)
    return SandboxResult(
        returncode=process.returncode,
        stdout=stdout.text(),
        stderr=stderr.text(),
        timed_out=timed_out,
        killed=timed_out or sig is not None,
        truncated=stdout.truncated or stderr.truncated,
        seconds=seconds,
        sandboxed=sandboxed,
        signal=sig,
        channel=channel.text(),
        stdout_bytes=stdout.total,
        stderr_bytes=stderr.total,
    )


def _read_available(fd: int) -> str:
    os.set_blocking(fd, False)
    chunks: list[bytes] = []
    try:
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
    except BlockingIOError:
        pass
    return b"".join(chunks).decode("utf-8", errors="replace")


def _pump(
    process: subprocess.Popen[bytes], payload: bytes, channel_r: int, policy: SandboxPolicy, started: float
) -> tuple[tuple[_Stream, _Stream, _Stream], bool]:
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    out, err, chan = (
        _Stream(policy.max_output_bytes),
        _Stream(policy.max_output_bytes),
        _Stream(CHANNEL_CAP_BYTES),
    )
    readers = {process.stdout.fileno(): out, process.stderr.fileno(): err, channel_r: chan}
    stdin_fd = process.stdin.fileno()
    selector = selectors.DefaultSelector()
    for fd in (*readers, stdin_fd):
        os.set_blocking(fd, False)
    for fd in readers:
        selector.register(fd, selectors.EVENT_READ)
    selector.register(stdin_fd, selectors.EVENT_WRITE)
    pending = memoryview(payload)
    deadline = started + policy.timeout_s
    exited_at: float | None = None
    timed_out = False
    try:
        while selector.get_map():
            now = time.monotonic()
            if now >= deadline:
                timed_out = True
                break
            if exited_at is None and process.poll() is not None:
                exited_at = now
            if exited_at is not None and now - exited_at > _EXIT_GRACE_S:
                break
            for key, _ in selector.select(timeout=min(deadline - now, _POLL_S)):
                fd = int(key.fd)
                if fd == stdin_fd:
                    pending = _feed(fd, pending)
                    if not pending:
                        selector.unregister(fd)
                        process.stdin.close()
                    continue
                chunk = _read_chunk(fd)
                if chunk is None:
                    continue
                if chunk:
                    readers[fd].add(chunk)
                else:
                    selector.unregister(fd)
    finally:
        if stdin_fd in selector.get_map():
            selector.unregister(stdin_fd)
        selector.close()
        process.stdin.close()
    if timed_out:
        _kill_group(process)
        _drain(readers, time.monotonic() + _DRAIN_S)
    return (out, err, chan), timed_out


def _feed(fd: int, pending: memoryview) -> memoryview:
    """Write what the pipe takes now; a program that exits without reading gets the rest dropped."""
    try:
        return pending[os.write(fd, pending[:65536]) :]
    except BlockingIOError:
        return pending
    except BrokenPipeError:
        return pending[len(pending) :]


def _read_chunk(fd: int) -> bytes | None:
    """Bytes read, b'' at end of file, None when nothing is there after all."""
    try:
        return os.read(fd, 65536)
    except BlockingIOError:
        return None
    except OSError:
        return b""


def _drain(readers: dict[int, _Stream], until: float) -> None:
    """After a kill, keep what the dying program had already written."""
    open_fds = set(readers)
    while open_fds and time.monotonic() < until:
        for fd in list(open_fds):
            chunk = _read_chunk(fd)
            if chunk is None:
                continue
            if chunk:
                readers[fd].add(chunk)
            else:
                open_fds.discard(fd)
        time.sleep(0.01)
