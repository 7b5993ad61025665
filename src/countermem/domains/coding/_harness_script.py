"""The test runner that executes *inside* the sandbox; its source is sent there as the program.

It is a plain script (stdlib only, no countermem imports) because the sandbox's interpreter
cannot see this project. It reports through the side channel, not stdout, so a solution's own
prints can neither flood nor forge the report; every line carries a nonce that the checker
chose for this run. Code in the same process could still reach the recorder on purpose: the
sandbox is the security boundary, this is only a measurement.
"""

from __future__ import annotations

import json
import os
import reprlib
import traceback
from types import TracebackType
from typing import Any

_REPR = reprlib.Repr()
_REPR.maxstring = 120
_REPR.maxother = 120
_DETAIL_CHARS = 400


def _describe(error: BaseException) -> str:
    where = ""
    tb: TracebackType | None = error.__traceback__
    for frame, line in traceback.walk_tb(tb):
        if frame.f_code.co_filename == "solution.py":
            where = f" (solution.py line {line})"
    text = "".join(traceback.format_exception_only(type(error), error)).strip()
    return (text + where)[:_DETAIL_CHARS]


def _show(value: object) -> str:
    try:
        return _REPR.repr(value)[:_DETAIL_CHARS]
    except Exception as error:
        return f"<unprintable {type(value).__name__}: {type(error).__name__}>"


def main() -> None:
    with open("spec.json", encoding="utf-8") as handle:
        spec = json.load(handle)
    os.remove("spec.json")
    channel = os.fdopen(int(os.environ.pop("COUNTERMEM_CHANNEL_FD")), "w", buffering=1, encoding="utf-8")
    nonce = spec["nonce"]

    def emit(event: str, **data: Any) -> None:
        channel.write(json.dumps({"nonce": nonce, "event": event, **data}) + "\n")
        channel.flush()

    namespace: dict[str, Any] = {"__name__": "solution", "__builtins__": __builtins__}
    for phase, filename in (("preamble", "prompt.py"), ("solution", "solution.py")):
        if not spec[phase]:
            continue
        try:
            exec(compile(spec[phase], filename, "exec"), namespace)
        except BaseException as error:
            emit("error", phase=phase, message=_describe(error))
            return
    entry = spec["entry_point"]
    candidate = namespace.get(entry)
    if not callable(candidate):
        emit("error", phase="solution", message=f"{entry} is not a function after running the solution")
        return

    reached: set[int] = set()
    failed: set[int] = set()
    counts: dict[int, int] = {}
    last = [-1]

    def enter(site: int) -> None:
        last[0] = site
        if site not in reached:
            reached.add(site)
            emit("reach", site=site)

    def record(site: int, ok: bool, error: BaseException | None, got: object) -> None:
        counts[site] = counts.get(site, 0) + 1
        if not ok and site not in failed:
            failed.add(site)
            detail = _describe(error) if error is not None else f"got {_show(got)}"
            emit("fail", site=site, detail=detail)

    namespace["_cm_enter"] = enter
    namespace["_cm_record"] = record
    emit("start")
    try:
        exec(compile(spec["test"], "test.py", "exec"), namespace)
        if spec["call"]:
            namespace[spec["call"]](candidate)
    except BaseException as error:
        emit("abort", message=_describe(error), last_site=last[0])
        return
    emit("done", counts={str(k): v for k, v in counts.items()})


if __name__ == "__main__":
    main()
