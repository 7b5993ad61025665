"""The judge's hard limits, with stand-in worker scripts that hang or die."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from countermem.core import Action, Task
from countermem.domains.math import AnswerJudge, MathWorldModel
from countermem.domains.math import _judge as judge_module

HANGS = """
import signal, sys, time
signal.signal(signal.SIGALRM, signal.SIG_IGN)
print('{"ready": true}', flush=True)
sys.stdin.readline()
time.sleep(60)
"""
DIES = """
import sys
print('{"ready": true}', flush=True)
sys.stdin.readline()
sys.exit(3)
"""

BABBLES = """
import sys
print('{"ready": true}', flush=True)
sys.stdin.readline()
print('Traceback (most recent call last): oops', flush=True)
"""
NEVER_READY = """
import sys
sys.exit(5)
"""


def _world(script: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[MathWorldModel, AnswerJudge]:
    monkeypatch.setattr(judge_module, "_WORKER_SCRIPT", script)
    judge = AnswerJudge(timeout_s=0.5)
    world = MathWorldModel(judge)
    world.reset(Task(id="t", benchmark="math500", domain="math", prompt="?", gold="\\sqrt{2}"))
    return world, judge


def test_a_worker_that_ignores_its_soft_limit_is_killed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "hangs.py"
    script.write_text(HANGS)
    world, judge = _world(script, monkeypatch)
    try:
        started = time.monotonic()
        result = world.check(Action(content="\\boxed{2^{1/2}}"))
        assert time.monotonic() - started < 0.5 + judge_module.HARD_GRACE_S + 2.0
        assert (result.status, result.completed, result.passed) == ("timeout", False, False)
        assert "worker killed" in result.details
    finally:
        judge.close()


def test_a_worker_that_dies_gives_an_incomplete_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "dies.py"
    script.write_text(DIES)
    world, judge = _world(script, monkeypatch)
    try:
        result = world.check(Action(content="\\boxed{2^{1/2}}"))
        assert (result.status, result.completed, result.passed) == ("error", False, False)
        assert "exited with code 3" in result.details
    finally:
        judge.close()


@pytest.mark.parametrize(("script_text", "said"), [(BABBLES, "unreadable reply"), (NEVER_READY, "exited with code 5")])
def test_a_confused_worker_gives_an_incomplete_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script_text: str, said: str
) -> None:
    script = tmp_path / "confused.py"
    script.write_text(script_text)
    world, judge = _world(script, monkeypatch)
    try:
        result = world.check(Action(content="\\boxed{2^{1/2}}"))
        assert (result.status, result.completed, result.passed) == ("error", False, False)
        assert said in result.details
    finally:
        judge.close()
