"""The math world model: the state is the task itself, a check is one answer comparison.

A math task has nothing to mutate, so a snapshot is the task and a restore puts it back; the
fingerprint is a hash of the reference answer, so the shared conformance check would notice a
check that changed which answer counts as right.
"""

from __future__ import annotations

import hashlib
import time

from countermem.core import Action, CheckResult, ConfigError, Cost, Task
from countermem.domains._protocol import State
from countermem.domains.math._answer import MAX_ANSWER_CHARS, extract_final_answer
from countermem.domains.math._judge import AnswerJudge, Judgement


def gold_fingerprint(gold: str) -> str:
    return hashlib.sha256(gold.encode("utf-8")).hexdigest()[:32]


def _result(judgement: Judgement, answer: str, seconds: float) -> CheckResult:
    cost = Cost(seconds=seconds, calls=1)
    detail = f"final answer {answer!r}: {judgement.detail} [{judgement.method}]"
    if judgement.verdict == "equal":
        return CheckResult(utility=1.0, passed=True, completed=True, status="passed", details=detail, cost=cost)
    if judgement.verdict == "different":
        return CheckResult(utility=0.0, passed=False, completed=True, status="wrong", details=detail, cost=cost)
    if judgement.verdict == "unparsable":
        return CheckResult(utility=0.0, passed=False, completed=True, status="error", details=detail, cost=cost)
    if judgement.verdict == "timeout":
        return CheckResult(utility=0.0, passed=False, completed=False, status="timeout", details=detail, cost=cost)
    return CheckResult(utility=0.0, passed=False, completed=False, status="error", details=detail, cost=cost)


class MathWorldModel:
    """Judges a final answer against the task's reference answer (utility 1 or 0, no partial credit).

    No partial credit because a math answer is right or wrong; a nearly right number is as wrong
    as any other, and a graded score would invite rewarding rounding.
    """

    def __init__(self, judge: AnswerJudge) -> None:
        self._judge = judge
        self._state: State | None = None

    def reset(self, task: Task) -> State:
        if task.gold is None:
            raise ConfigError(f"task {task.id!r} has no reference answer; a math task needs one to be checked")
        self._state = State(task_id=task.id, payload=task, fingerprint=gold_fingerprint(task.gold))
        return self._state

    def snapshot(self) -> State:
        if self._state is None:
            raise ConfigError("call reset(task) before snapshot()")
        return self._state

    def restore(self, state: State) -> None:
        if not isinstance(state.payload, Task) or state.payload.gold is None:
            raise ConfigError(f"state for {state.task_id!r} was not made by a math world model")
        self._state = state

    def check(self, action: Action) -> CheckResult:
        if self._state is None:
            raise ConfigError("call reset(task) before check(action)")
        task: Task = self._state.payload
        assert task.gold is not None
        started = time.perf_counter()
        final = extract_final_answer(action.content)
        if final is None:
            return CheckResult(
                utility=0.0, passed=False, completed=True, status="error", cost=Cost(calls=1),
                details="no final answer found: end the action with \\boxed{...} or a line 'Answer: ...'",
            )
        if len(final.text) > MAX_ANSWER_CHARS:
            return CheckResult(
                utility=0.0, passed=False, completed=True, status="error", cost=Cost(calls=1),
                details=f"final answer is {len(final.text)} characters long (limit {MAX_ANSWER_CHARS}); "
                "state only the answer after the marker",
            )
        judgement = self._judge.judge(task.gold, final.text)
        return _result(judgement, final.text, time.perf_counter() - started)
