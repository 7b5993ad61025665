"""Where CI installs bubblewrap, coqc and chromium, a missing or broken one fails the run (`required_tools`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from countermem.domains.sandbox import run_python
from required_tools import REQUIRE_TOOLS_ENV, missing_tool

REPO = Path(__file__).resolve().parents[1]


def test_ci_requires_the_tools_it_installs() -> None:
    script = (REPO / ".ci" / "run").read_text()
    assert "bubblewrap" in script and "coq" in script
    assert "need+=(chromium)" in script and "need+=(chromium-driver)" in script
    exported = re.search(rf"^export {REQUIRE_TOOLS_ENV}=1$", script, re.MULTILINE)
    assert exported is not None and exported.start() < script.index("make test")


def test_a_missing_tool_skips_unless_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(REQUIRE_TOOLS_ENV, raising=False)
    with pytest.raises(pytest.skip.Exception, match="no bwrap here"):
        missing_tool("no bwrap here")
    monkeypatch.setenv(REQUIRE_TOOLS_ENV, "1")
    with pytest.raises(pytest.fail.Exception, match=f"no bwrap here .*{REQUIRE_TOOLS_ENV}=1"):
        missing_tool("no bwrap here")


def test_the_sandbox_isolates_where_the_tools_are_required(sandbox: None) -> None:
    """Runs wherever the sandbox works; under $COUNTERMEM_REQUIRE_TOOLS=1 the fixture fails instead of
    skipping, so CI cannot pass without having shown that model code is shut in."""
    code = f"""
import json, os, socket
outcome = {{"repo_visible": os.path.exists({str(REPO)!r})}}
for path in ("/usr/countermem-escape", "/countermem-escape", "/etc/countermem-escape"):
    try:
        open(path, "w").close()
        outcome[path] = "written"
    except OSError as error:
        outcome[path] = type(error).__name__
try:
    socket.create_connection(("1.1.1.1", 53), timeout=2).close()
    outcome["network"] = "connected"
except OSError as error:
    outcome["network"] = type(error).__name__
print(json.dumps(outcome))
"""
    result = run_python(code)
    assert result.ok and result.sandboxed, result.stderr
    outcome = json.loads(result.stdout)
    assert outcome.pop("repo_visible") is False
    assert outcome.pop("network") != "connected"
    assert all(value != "written" for value in outcome.values()), outcome
    assert not any(Path(path).exists() for path in outcome)


def test_a_missing_browser_skips_unless_required(monkeypatch: pytest.MonkeyPatch) -> None:
    import required_tools

    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setattr(required_tools, "CHROMIUM", "/nonexistent/chromium")
    monkeypatch.delenv(REQUIRE_TOOLS_ENV, raising=False)
    with pytest.raises(pytest.skip.Exception, match="chromium or chromedriver is not installed"):
        required_tools.require_chromium()
    monkeypatch.setenv(REQUIRE_TOOLS_ENV, "1")
    with pytest.raises(pytest.fail.Exception, match="chromium or chromedriver is not installed"):
        required_tools.require_chromium()
