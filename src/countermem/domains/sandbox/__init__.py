"""Running untrusted, model-written Python under bubblewrap with rlimits, a time-out and output caps."""

from countermem.domains.sandbox._bwrap import BWRAP_ENV, CHANNEL_ENV, find_bwrap, sandbox_availability
from countermem.domains.sandbox._policy import SandboxPolicy, SandboxResult
from countermem.domains.sandbox._run import run_python

__all__ = [
    "BWRAP_ENV",
    "CHANNEL_ENV",
    "SandboxPolicy",
    "SandboxResult",
    "find_bwrap",
    "run_python",
    "sandbox_availability",
]
