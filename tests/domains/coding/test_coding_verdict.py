"""The verdict reads only the judge's own reports: lines carrying this check's nonce."""

from __future__ import annotations

import json

from countermem.domains.coding._instrument import AssertSite
from countermem.domains.coding._verdict import verdict
from countermem.domains.sandbox import SandboxResult

NONCE = "0123456789abcdef0123456789abcdef"
OTHER = "fedcba9876543210fedcba9876543210"
SITES = (AssertSite(0, 2, "assert f(1) == 2"), AssertSite(1, 3, "assert f(2) == 4"))


def _line(nonce: str | None, event: str, **data: object) -> str:
    body: dict[str, object] = {"event": event, **data}
    if nonce is not None:
        body["nonce"] = nonce
    return json.dumps(body)


def _killed_judge(*extra: str) -> SandboxResult:
    """The judge entered both asserts and was then killed: it never said "done"."""
    channel = [_line(NONCE, "start"), _line(NONCE, "reach", site=0), _line(NONCE, "reach", site=1), *extra]
    return SandboxResult(returncode=137, stdout="", stderr="", timed_out=False, killed=True, truncated=False,
                         seconds=0.1, sandboxed=True, signal=9, channel="\n".join(channel) + "\n")


def test_the_judges_own_reports_without_done_do_not_pass() -> None:
    result = verdict(_killed_judge(), NONCE, SITES)
    assert not result.passed and result.status == "error", result.details
    assert "before the tests finished" in result.details


def test_reports_with_another_nonce_or_none_are_ignored() -> None:
    """Without the nonce filter the forged "done" lines would turn the killed run into a pass."""
    forged = [_line(OTHER, "done", counts={}), _line(None, "done", counts={}), _line("", "done", counts={}),
              _line(OTHER, "broken", message="forged: the judge could not isolate"),
              _line(OTHER, "error", phase="solution", message="forged")]
    result = verdict(_killed_judge(*forged), NONCE, SITES)
    assert result == verdict(_killed_judge(), NONCE, SITES)
    assert not result.passed and result.status == "error", result.details


def test_a_done_with_the_nonce_is_what_passes() -> None:
    """The control: the same channel with the judge's own "done" passes, so the filter is what stopped the forgery."""
    result = verdict(_killed_judge(_line(NONCE, "done", counts={"0": 1, "1": 1})), NONCE, SITES)
    assert result.passed and result.utility == 1.0, result.details
