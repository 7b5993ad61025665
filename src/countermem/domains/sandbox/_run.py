"""The one entry point for running untrusted Python: sandboxed, or refused."""

from __future__ import annotations

from collections.abc import Mapping

from countermem.core import SandboxError
from countermem.domains.sandbox._bwrap import find_bwrap, sandbox_availability
from countermem.domains.sandbox._policy import SandboxPolicy, SandboxResult
from countermem.domains.sandbox._process import execute


def run_python(
    code: str, policy: SandboxPolicy | None = None, files: Mapping[str, str] | None = None
) -> SandboxResult:
    """Run `code` as a script in a fresh private working directory holding `files`.

    Raises SandboxError when bubblewrap is missing or does not work here, unless the policy says
    `unsafe_no_sandbox`; then the code runs under rlimits only and the result says
    `sandboxed=False`, so that whoever logs the run can record that it was not isolated.
    """
    policy = policy or SandboxPolicy()
    if policy.unsafe_no_sandbox:
        return execute(code, policy, files or {}, bwrap=None)
    availability = sandbox_availability(policy)
    if not availability.available:
        raise SandboxError(
            f"refusing to run model-written code without a sandbox: {availability.reason}. "
            "Only if you accept running it with rlimits alone, pass unsafe_no_sandbox=True."
        )
    bwrap = find_bwrap(policy)
    assert bwrap is not None
    return execute(code, policy, files or {}, bwrap=bwrap)
