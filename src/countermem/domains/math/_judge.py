"""Judges whether an extracted answer equals a reference answer, never hanging and never raising.

Cheap exact paths run in the calling process: two plain numbers compare as exact rationals
(`1,000` = `1000`, `\\$18` = `18`, `0.5` = `\\frac{1}{2}`; but `0.333333` != `\\frac{1}{3}`, a
rounded decimal is not the number), and a reference that is only words (`\\text{Evelyn}`)
compares as lower-cased words. Everything else goes to math-verify in a child process
(`_worker.py`) with a soft and a hard deadline, so that a pathological answer costs at most
`timeout_s` plus a grace period, from any thread.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Literal

from countermem.domains.math._answer import MAX_ANSWER_CHARS, is_text_answer, plain_number, plain_text

Verdict = Literal["equal", "different", "unparsable", "timeout", "checker_error"]
Method = Literal["exact-number", "text", "math-verify"]

DEFAULT_TIMEOUT_S = 5.0
HARD_GRACE_S = 2.0
STARTUP_TIMEOUT_S = 120.0
_WORKER_SCRIPT = Path(__file__).with_name("_worker.py")


@dataclass(frozen=True)
class Judgement:
    verdict: Verdict
    method: Method
    detail: str


class _WorkerGone(Exception):
    pass


def _stop(process: subprocess.Popen[bytes], owner_pid: int) -> None:
    if os.getpid() != owner_pid:
        return
    if process.poll() is None:
        process.kill()
        process.wait(timeout=10)
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            stream.close()


class _Worker:
    """One child process running `_worker.py`, with a line reader that honours a deadline."""

    def __init__(self) -> None:
        self.pid_of_parent = os.getpid()
        self.process = subprocess.Popen(
            [sys.executable, "-u", str(_WORKER_SCRIPT)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            close_fds=True,
        )
        self._buffer = b""
        self._finalizer = weakref.finalize(self, _stop, self.process, self.pid_of_parent)
        try:
            ready = self.read(STARTUP_TIMEOUT_S)
        except TimeoutError as error:
            self.close()
            raise _WorkerGone(f"math-verify worker did not start within {STARTUP_TIMEOUT_S:.0f} s") from error
        except _WorkerGone:
            self.close()
            raise
        if not ready.get("ready"):
            self.close()
            raise _WorkerGone(f"math-verify worker did not start: {ready}")

    def read(self, timeout_s: float) -> dict[str, Any]:
        stdout: IO[bytes] | None = self.process.stdout
        assert stdout is not None
        deadline = time.monotonic() + timeout_s
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            readable, _, _ = select.select([stdout], [], [], left)
            if not readable:
                raise TimeoutError
            chunk = os.read(stdout.fileno(), 65536)
            if not chunk:
                raise _WorkerGone(f"math-verify worker exited with code {self.process.wait(timeout=10)}")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            reply = json.loads(line)
        except ValueError as error:
            raise _WorkerGone(f"math-verify worker sent an unreadable reply: {line[:100]!r}") from error
        if not isinstance(reply, dict):
            raise _WorkerGone(f"math-verify worker sent {type(reply).__name__}, not an object")
        return reply

    def send(self, payload: dict[str, Any]) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write((json.dumps(payload) + "\n").encode())
            stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise _WorkerGone(f"math-verify worker is gone: {error}") from error

    def alive(self) -> bool:
        return self.process.poll() is None and os.getpid() == self.pid_of_parent

    def close(self) -> None:
        self._finalizer()


class AnswerJudge:
    """Compares answers; thread-safe (one comparison at a time per judge), restarts its worker.

    `numeric_answers` is for benchmarks whose answers are numbers (GSM8K): a plain number may
    carry trailing words as units (`18 apples`), and an answer without a digit is unreadable
    rather than wrong. Without it (MATH) words are not units, since `3 pi` or `2 k` are not.
    """

    def __init__(self, timeout_s: float = DEFAULT_TIMEOUT_S, numeric_answers: bool = False) -> None:
        if timeout_s <= 0:
            raise ValueError(f"timeout_s must be positive, got {timeout_s}")
        self.timeout_s = timeout_s
        self.numeric_answers = numeric_answers
        self._lock = threading.Lock()
        self._worker: _Worker | None = None

    def judge(self, gold: str, answer: str) -> Judgement:
        if len(answer) > MAX_ANSWER_CHARS:
            return Judgement("unparsable", "exact-number", f"answer longer than {MAX_ANSWER_CHARS} characters")
        gold_number = plain_number(gold, self.numeric_answers)
        answer_number = plain_number(answer, self.numeric_answers)
        if gold_number is not None and answer_number is not None:
            if gold_number == answer_number:
                return Judgement("equal", "exact-number", f"{answer!r} equals the reference number")
            return Judgement("different", "exact-number", f"{answer!r} is not the reference number")
        if self.numeric_answers and not any(char.isdigit() for char in answer):
            return Judgement("unparsable", "exact-number", f"{answer!r} has no digits; the answer must be a number")
        if is_text_answer(gold):
            expected, given = plain_text(gold), plain_text(answer)
            if given is None:
                return Judgement("different", "text", f"the reference is words; {answer!r} is not words")
            if expected == given:
                return Judgement("equal", "text", f"{answer!r} names the reference answer")
            return Judgement("different", "text", f"{answer!r} does not name the reference answer")
        return self._math_verify(gold, answer)

    def _math_verify(self, gold: str, answer: str) -> Judgement:
        with self._lock:
            try:
                worker = self._ensure_worker()
                worker.send({"gold": gold, "answer": answer, "timeout_s": self.timeout_s})
                reply = worker.read(self.timeout_s + HARD_GRACE_S)
            except TimeoutError:
                self._discard_worker()
                return Judgement(
                    "timeout", "math-verify",
                    f"math-verify did not answer within {self.timeout_s + HARD_GRACE_S:.1f} s; worker killed",
                )
            except (_WorkerGone, OSError) as error:
                self._discard_worker()
                return Judgement("checker_error", "math-verify", f"math-verify worker failed: {error}")
            verdict = str(reply.get("verdict"))
            detail = str(reply.get("detail", ""))
            if verdict == "timeout":
                self._discard_worker()
                return Judgement("timeout", "math-verify", detail)
            if verdict in ("equal", "different"):
                return Judgement(verdict, "math-verify", detail)  # type: ignore[arg-type]
            if verdict == "unparsable_answer":
                return Judgement("unparsable", "math-verify", detail)
            return Judgement("checker_error", "math-verify", detail)

    def _ensure_worker(self) -> _Worker:
        if self._worker is not None and not self._worker.alive():
            self._discard_worker()
        if self._worker is None:
            self._worker = _Worker()
        return self._worker

    def _discard_worker(self) -> None:
        worker, self._worker = self._worker, None
        if worker is not None and os.getpid() == worker.pid_of_parent:
            worker.close()

    def close(self) -> None:
        """Stop the worker now; the judge starts a new one if used again."""
        with self._lock:
            self._discard_worker()
