"""Skips for a missing system tool, which become failures where the tools were installed.

bubblewrap (and Python inside it), coqc and headless Chromium with its driver (the viewer's
browser tests) are system packages, not Python ones: a machine without them skips the tests
that need them, saying why. `.ci/run` installs them and sets
$COUNTERMEM_REQUIRE_TOOLS=1, and there a missing or broken tool must fail the run instead of
turning a hundred tests into skips that nobody reads.

Importable from every test module because pytest puts this folder (which has no __init__.py)
on sys.path when it loads tests/conftest.py.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

REQUIRE_TOOLS_ENV = "COUNTERMEM_REQUIRE_TOOLS"


def tools_required() -> bool:
    return os.environ.get(REQUIRE_TOOLS_ENV, "") == "1"


def missing_tool(reason: str) -> NoReturn:
    """Skip with `reason`, or fail with it when this run promised the tools."""
    if tools_required():
        pytest.fail(f"{reason} (${REQUIRE_TOOLS_ENV}=1: this run installed the tools, so a missing one fails)")
    pytest.skip(reason)


def require_sandbox() -> None:
    """bubblewrap is present and runs Python in a sandbox here."""
    from countermem.domains.sandbox import sandbox_availability

    availability = sandbox_availability()
    if not availability.available:
        missing_tool(f"the sandbox does not work here: {availability.reason}")


def require_coqc() -> None:
    from countermem.domains.fv import coqc_path

    if coqc_path() is None:
        missing_tool("coqc is not installed (apt-get install coq)")


def require_sandboxed_coqc() -> None:
    """coqc is installed and runs inside the sandbox."""
    from countermem.domains.fv._sandboxed import coq_sandbox_availability

    require_coqc()
    availability = coq_sandbox_availability()
    if not availability.available:
        missing_tool(f"coqc cannot run sandboxed here: {availability.reason}")


CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def require_chromium() -> tuple[str, str]:
    """Headless Chromium and its driver (Debian `chromium`, `chromium-driver`) and selenium are
    installed; returns the browser and driver paths (found on PATH, else the Debian ones)."""
    import importlib.util
    import shutil

    browser = shutil.which("chromium") or (CHROMIUM if os.path.exists(CHROMIUM) else None)
    driver = shutil.which("chromedriver") or (CHROMEDRIVER if os.path.exists(CHROMEDRIVER) else None)
    if browser is None or driver is None:
        missing_tool("chromium or chromedriver is not installed (apt-get install chromium chromium-driver)")
    if importlib.util.find_spec("selenium") is None:
        missing_tool("selenium is not installed (pip install -e '.[view]')")
    return browser, driver


def require_ray() -> None:
    """ray (the `ray` extra) is importable: the study's Ray executor needs it."""
    import importlib.util

    if importlib.util.find_spec("ray") is None:  # not imported here: ray reads its settings when imported
        missing_tool("ray is not installed (pip install 'countermem[ray]'); the Ray executor cannot be tested")
