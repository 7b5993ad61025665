"""Which build of countermem (and of a checker package) is running, for provenance.

Kept in core so that memory can stamp records without importing the experiment layer, which
has the run-directory manifest that records the same facts.
"""

from __future__ import annotations

import importlib.metadata
import subprocess
from functools import lru_cache
from pathlib import Path


def package_version(name: str) -> str | None:
    """The installed version of distribution `name`, or None when it is not installed."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def countermem_version() -> str:
    return package_version("countermem") or "unknown"


@lru_cache(maxsize=1)
def git_commit() -> str:
    """HEAD of the checkout countermem is imported from, or `unknown` outside a git checkout."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5,
            cwd=Path(__file__).resolve().parent, check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else "unknown"
