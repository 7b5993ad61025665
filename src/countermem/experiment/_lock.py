"""One writer per run folder and per study folder.

Two processes writing one folder (two `run ... --resume` on the same `--out`) both run every
task and interleave their results. So the process that writes a folder holds an exclusive
`flock` on `.countermem.lock` inside it for the rest of its life; a second process is refused
with one line naming the holder (pid, host and start time, which the holder writes into the
lock file; never its command line, which may hold an API key). The operating system drops
the lock when the holder exits, crashed or not, so a stale lock file needs no cleaning: only a
live holder blocks.

A held folder covers everything beneath it: a study's inline jobs, a training stage's epoch
folders. Before taking a folder, the folders above it that hold a lock file are tried too, so a
run cannot be started inside a folder another process holds. A study's worker processes work
under their parent's lock (`work_under_parent_lock`); the parent is alive while they run, since
they end when it does.

flock is advisory and local: it holds between countermem processes on one machine, and on
network file systems only as far as they implement it.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
from datetime import UTC, datetime
from pathlib import Path

from countermem.core import ConfigError

LOCK_NAME = ".countermem.lock"
_held: dict[Path, int] = {}
"""Folders this process holds -> the open lock file (kept open for the process's life)."""
_covered: set[Path] = set()
"""Folders a parent process holds for this one (a study's workers)."""


def hold_folder(folder: Path) -> None:
    """Take `folder` for this process, or raise ConfigError naming the process that has it.

    Idempotent within a process; the folder must exist."""
    resolved = folder.resolve()
    if _is_ours(resolved):
        return
    for above in reversed(resolved.parents):
        holder = _holder_if_taken(above / LOCK_NAME)
        if holder is not None:
            raise _in_use(folder, above, holder)
    fd = os.open(resolved / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _read_holder(fd)
        os.close(fd)
        raise _in_use(folder, resolved, holder) from None
    except OSError as error:
        os.close(fd)
        raise ConfigError(f"cannot lock {folder} ({error.strerror or error}); choose another folder") from error
    os.ftruncate(fd, 0)
    os.pwrite(fd, (json.dumps(_me()) + "\n").encode(), 0)
    _held[resolved] = fd


def work_under_parent_lock(folder: Path) -> None:
    """This process writes inside `folder`, which its parent process holds (a study's worker)."""
    _covered.add(folder.resolve())


def release_folder(folder: Path) -> None:
    """Give up a folder this process holds (tests, and a library caller done with a folder)."""
    fd = _held.pop(folder.resolve(), None)
    if fd is not None:
        os.close(fd)


def _is_ours(resolved: Path) -> bool:
    mine = (*_held, *_covered)
    return any(resolved == folder or folder in resolved.parents for folder in mine)


def _holder_if_taken(lock_file: Path) -> str | None:
    if not lock_file.is_file():
        return None
    try:
        fd = os.open(lock_file, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return _read_holder(fd)
    except OSError:
        return None
    finally:
        os.close(fd)  # closing also drops the shared lock taken just to test
    return None


def _me() -> dict[str, object]:
    return {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def _read_holder(fd: int) -> str:
    try:
        data = json.loads(os.pread(fd, 65536, 0) or b"{}")
    except (OSError, ValueError):
        data = {}
    if not isinstance(data, dict) or "pid" not in data:
        return "a process that has not named itself yet"
    return f"pid {data['pid']} on {data.get('host', '?')} since {data.get('started_at', '?')}"


def _in_use(folder: Path, held: Path, holder: str) -> ConfigError:
    where = "" if held == folder.resolve() else f" (through {held}, which holds it)"
    return ConfigError(
        f"{folder} is being written by another countermem process{where}, {holder}; wait until it ends, "
        "or choose another folder"
    )
