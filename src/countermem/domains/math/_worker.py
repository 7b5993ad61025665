"""A separate process that compares two LaTeX answers with math-verify, under a deadline.

Why a process: math-verify and sympy can run for minutes on pathological input (`9^{9^{9^9}}`),
and math-verify's own time limit uses `signal.alarm`, which only works in the main thread of
the main interpreter, where an agent runner that checks from worker threads is not. Here the
comparison always runs in this process's main thread under `setitimer` (a soft limit that lets
the process answer "timeout"), and the parent kills the process if even that does not return
(a hard limit, for time spent inside C code).

This file imports nothing from countermem so that it runs as a plain script:
`python _worker.py`. Protocol: one JSON object per line on stdin and stdout. After start-up
the worker prints `{"ready": true}`; each request `{"gold", "answer", "timeout_s"}` gets one
reply `{"verdict", "detail"}` with verdict `equal`, `different`, `unparsable_answer`,
`unparsable_gold`, `timeout` or `crash`. After a timeout the worker exits, since an
interrupted sympy call may leave its caches half-written.
"""

from __future__ import annotations

import json
import logging
import signal
import sys
from types import FrameType
from typing import Any


class _Deadline(BaseException):
    """A BaseException on purpose: math-verify catches Exception and its own TimeoutException."""


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise _Deadline


def _has_math(parsed: list[Any]) -> bool:
    return any(not isinstance(item, str) for item in parsed)


def compare(gold: str, answer: str) -> tuple[str, str]:
    from math_verify import parse, verify

    gold_parsed = parse("\\boxed{" + gold + "}", parsing_timeout=None)
    if not gold_parsed:
        return "unparsable_gold", f"math-verify could not read the reference answer {gold!r}"
    answer_parsed = parse("\\boxed{" + answer + "}", parsing_timeout=None)
    if not answer_parsed or (_has_math(gold_parsed) and not _has_math(answer_parsed)):
        return "unparsable_answer", f"math-verify could not read {answer!r} as a mathematical expression"
    if verify(gold_parsed, answer_parsed, timeout_seconds=None):
        return "equal", "math-verify: equivalent to the reference answer"
    return "different", "math-verify: not equivalent to the reference answer"


def _reply(payload: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(payload) + "\n")
    sys.stdout.flush()


def main() -> int:
    logging.disable(logging.CRITICAL)
    import math_verify  # noqa: F401  (imported before "ready" so start-up is not charged to a check)

    signal.signal(signal.SIGALRM, _on_alarm)
    _reply({"ready": True})
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        timed_out = False
        try:
            signal.setitimer(signal.ITIMER_REAL, float(request["timeout_s"]))
            try:
                verdict, detail = compare(str(request["gold"]), str(request["answer"]))
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0.0)
        except _Deadline:
            timed_out = True
            verdict, detail = "timeout", f"math-verify did not finish within {request['timeout_s']} s"
        except Exception as error:
            verdict, detail = "crash", f"math-verify raised {type(error).__name__}: {str(error)[:200]}"
        _reply({"verdict": verdict, "detail": detail})
        if timed_out:
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
