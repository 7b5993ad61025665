"""Turn what the judge reported into a CheckResult.

Only the judge (`_harness_script.py`) holds the report channel; the solution runs in another
process and cannot write to it, so "done" means the tests ran to their end.

Utility is the share of assert sites that hold. A site that ran and never failed holds; a site
that never ran holds only if the tests ran to the end (it sat in a branch this input did not
take). When the tests stop early on an exception outside any assert, or because the solution's
process ended, the sites not reached fail, and if every site had been reached the last one to
run fails too (the stop interrupted its loop), so a run that stopped never scores 1. When the
judge itself dies without a word, the last site it entered fails as well: it may have been the
one running.
"""

from __future__ import annotations

import json
import signal
from dataclasses import dataclass, field

from countermem.core import CheckResult, Cost, SandboxError
from countermem.domains.coding._instrument import AssertSite
from countermem.domains.sandbox import SandboxResult

_DETAIL_CHARS = 600


@dataclass
class _Report:
    error: tuple[str, str] | None = None
    started: bool = False
    reached: list[int] = field(default_factory=list)
    failures: dict[int, str] = field(default_factory=dict)
    abort: tuple[str, int] | None = None
    exited: tuple[str, int | None, int] | None = None
    """The solution's process ended before the tests did: (how, signal, last site entered)."""
    broken: str | None = None
    done: bool = False


def _read(channel: str, nonce: str) -> _Report:
    report = _Report()
    for line in channel.splitlines():
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(event, dict) or event.get("nonce") != nonce:
            continue
        kind = event.get("event")
        if kind == "error":
            report.error = (str(event.get("phase")), str(event.get("message")))
        elif kind == "start":
            report.started = True
        elif kind == "reach":
            report.reached.append(int(event["site"]))
        elif kind == "fail":
            report.failures.setdefault(int(event["site"]), str(event.get("detail", "")))
        elif kind == "abort":
            report.abort = (str(event.get("message")), int(event.get("last_site", -1)))
        elif kind == "exited":
            number = event.get("signal")
            report.exited = (
                str(event.get("message")),
                number if isinstance(number, int) else None,
                int(event.get("last_site", -1)),
            )
        elif kind == "broken":
            report.broken = str(event.get("message"))
        elif kind == "done":
            report.done = True
    return report


def _site_text(site: AssertSite) -> str:
    return f"test line {site.line}: {site.source}"


def _failed_sites(report: _Report, n_sites: int) -> set[int]:
    failed = set(report.failures)
    if report.done:
        return failed
    unreached = set(range(n_sites)) - set(report.reached)
    failed |= unreached
    stop = report.abort[1] if report.abort else report.exited[2] if report.exited else None
    if stop is None:
        if report.reached:
            failed.add(report.reached[-1])
    elif not unreached and n_sites:
        failed.add(stop if stop >= 0 else report.reached[-1])
    return failed


def _first_failure(report: _Report, sites: tuple[AssertSite, ...]) -> str:
    if not report.failures:
        return ""
    index = min(report.failures)
    return f"first failing assert, {_site_text(sites[index])} -> {report.failures[index]}"


def _trim(text: str) -> str:
    return text if len(text) <= _DETAIL_CHARS else text[: _DETAIL_CHARS - 3] + "..."


def verdict(result: SandboxResult, nonce: str, sites: tuple[AssertSite, ...]) -> CheckResult:
    cost = Cost(seconds=result.seconds, calls=1)
    report = _read(result.channel, nonce)
    if report.broken is not None:
        raise SandboxError(report.broken)
    n = len(sites)
    if report.error is not None:
        phase, message = report.error
        where = "the task's prompt code" if phase == "preamble" else "the solution"
        return CheckResult(
            utility=0.0,
            passed=False,
            completed=True,
            status="error",
            details=_trim(f"running {where} failed: {message}"),
            cost=cost,
        )
    solution_cpu = report.exited is not None and report.exited[1] == signal.SIGXCPU
    if result.timed_out or result.signal == signal.SIGXCPU or solution_cpu:
        how = report.exited[0] if report.exited is not None and solution_cpu else result.describe()
        last = f"; last assert entered: {_site_text(sites[report.reached[-1]])}" if report.reached else ""
        return CheckResult(
            utility=0.0,
            passed=False,
            completed=False,
            status="timeout",
            details=_trim(f"tests did not finish: {how}; {len(report.reached)}/{n} asserts entered{last}"),
            cost=cost,
        )
    failed = _failed_sites(report, n)
    utility = (n - len(failed)) / n if n else (1.0 if report.done else 0.0)
    summary = f"{n - len(failed)}/{n} asserts passed"
    first = _first_failure(report, sites)
    if report.done:
        passed = not failed
        details = "all asserts passed" if passed else f"{summary}; {first}"
        return CheckResult(
            utility=utility,
            passed=passed,
            completed=True,
            status="passed" if passed else "wrong",
            details=_trim(details),
            cost=cost,
        )
    if report.exited is not None:
        details = f"{report.exited[0]} before the tests finished; {summary}"
        return CheckResult(
            utility=utility,
            passed=False,
            completed=True,
            status="error",
            details=_trim(f"{details}; {first}" if first else details),
            cost=cost,
        )
    if report.abort is not None:
        details = f"{summary}; the tests stopped on an exception outside any assert: {report.abort[0]}"
        return CheckResult(
            utility=utility,
            passed=False,
            completed=True,
            status="wrong",
            details=_trim(f"{details}; {first}" if first else details),
            cost=cost,
        )
    stderr = result.stderr.strip().splitlines()
    tail = f" ({stderr[-1]})" if stderr else ""
    what = "before the tests started" if not report.started else "before the tests finished"
    return CheckResult(
        utility=utility if report.started else 0.0,
        passed=False,
        completed=True,
        status="error",
        details=_trim(f"the test process {result.describe()} {what}{tail}; {summary}"),
        cost=cost,
    )
