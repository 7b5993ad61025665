"""Shared fixtures: a toy arithmetic benchmark whose world model is trivially correct, so agent
and experiment tests exercise their own logic rather than a real checker's; and the system tools
(bubblewrap, coqc) that a test may need, skipped where missing unless the run requires them
(`required_tools`); and a PostgreSQL server with store locations on it (`postgres_fixtures`)."""

from __future__ import annotations

import hashlib

import pytest

from countermem.core import Action, CheckResult, Cost, Facts, Task
from countermem.domains import Availability, Benchmark, State
from postgres_fixtures import pg_url, pg_url_each, postgres_server, store_at, store_named  # noqa: F401 - fixtures
from required_tools import require_coqc, require_sandbox, require_sandboxed_coqc


class ToyWorldModel:
    def __init__(self) -> None:
        self.task: Task | None = None
        self.checks = 0

    def reset(self, task: Task) -> State:
        self.task = task
        return self.snapshot()

    def snapshot(self) -> State:
        assert self.task is not None
        digest = hashlib.sha256((self.task.gold or "").encode()).hexdigest()
        return State(task_id=self.task.id, payload=self.task, fingerprint=digest)

    def restore(self, state: State) -> None:
        self.task = state.payload

    def check(self, action: Action) -> CheckResult:
        assert self.task is not None
        self.checks += 1
        try:
            value = int(action.content.strip())
        except ValueError:
            return CheckResult(
                utility=0.0, passed=False, completed=True, status="error",
                details=f"not an integer: {action.content!r}", cost=Cost(calls=1),
            )
        ok = str(value) == self.task.gold
        return CheckResult(
            utility=1.0 if ok else 0.0, passed=ok, completed=True, status="passed" if ok else "wrong",
            details="" if ok else "wrong sum", cost=Cost(calls=1),
        )


class ToyBenchmark(Benchmark):
    name = "toy-add"
    domain = "math"
    description = "add two integers"
    action_language = "text"

    def availability(self) -> Availability:
        return Availability(True)

    def tasks(self) -> list[Task]:
        return [
            Task(id=f"toy-{a}-{b}", benchmark=self.name, domain=self.domain, prompt=f"What is {a} + {b}?",
                 environment=f"env{a % 3}", gold=str(a + b))
            for a in range(1, 9) for b in range(1, 6)
        ]

    def world_model(self) -> ToyWorldModel:
        return ToyWorldModel()

    def gold_action(self, task: Task) -> Action:
        assert task.gold is not None
        return Action(content=task.gold)

    def wrong_action(self, task: Task) -> Action:
        assert task.gold is not None
        return Action(content=str(int(task.gold) + 1))

    def instructions(self) -> str:
        return "Give the integer sum."

    def render_task(self, task: Task) -> str:
        return f"Task {task.id}: {task.prompt}"

    def facts(self, task: Task, action: Action | None = None) -> Facts:
        return Facts(values={"environment": task.environment or "", "large": int(task.gold or 0) > 8})


@pytest.fixture
def toy_benchmark() -> ToyBenchmark:
    return ToyBenchmark()


@pytest.fixture(scope="session")
def sandbox() -> None:
    """bubblewrap runs Python here (else skip, or fail under $COUNTERMEM_REQUIRE_TOOLS=1)."""
    require_sandbox()


@pytest.fixture(scope="session")
def coqc() -> None:
    require_coqc()


@pytest.fixture(scope="session")
def sandboxed_coqc() -> None:
    require_sandboxed_coqc()
