"""What a domain must supply: a world model that judges actions and a benchmark of tasks.

Memory never imports a particular domain; it asks a `Benchmark` for the observable facts of
a decision and for a readable rendering of an action, and it asks a `WorldModel` to check an
action from a snapshot. The world-model protocol follows gymnasium's reset/step idea, with an
explicit snapshot/restore so that a counterfactual edit is checked from the state the failed
action was taken in, never from the state after it.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal, Protocol, runtime_checkable

from countermem.core import Action, CheckResult, CountermemError, Facts, Task, salvaged_block, sha256_file


@dataclass(frozen=True)
class State:
    """An opaque, immutable copy of a world model's state; only its own world model reads it."""

    task_id: str
    payload: Any = field(compare=False, repr=False)
    fingerprint: str = ""


@runtime_checkable
class WorldModel(Protocol):
    """An executable judge of actions.

    Invariant (checked by `check_world_model`): after `restore(s)`, checking the same action
    twice gives the same result, and a check never changes the state `s` it started from.
    """

    def reset(self, task: Task) -> State: ...

    def snapshot(self) -> State: ...

    def restore(self, state: State) -> None: ...

    def check(self, action: Action) -> CheckResult: ...


@dataclass(frozen=True)
class BenchmarkOptions:
    """Options every benchmark accepts; a benchmark ignores those that do not concern it."""

    data_dir: Path | None = None
    """Overrides the data root (a folder holding `<benchmark>/SOURCE.md`)."""
    timeout_s: float | None = None
    """Overrides the world model's per-check wall-clock limit."""
    unsafe_no_sandbox: bool = False
    """Run model-written code without bubblewrap; only on the user's explicit request."""


@dataclass(frozen=True)
class CheckerInfo:
    """Which checker judges a benchmark's actions, and which data its tasks came from.

    A memory record keeps this as its provenance, so that a record verified under one checker
    or data version can be told from one verified under another. `data_sha256` is the sha256 of
    the data folder's SOURCE.md (which lists every file's own checksum), `packaged` when the
    tasks ship inside countermem (its version and commit pin them), or `unknown`.
    """

    name: str = "unknown"
    version: str = "unknown"
    data_sha256: str = "unknown"


@dataclass(frozen=True)
class Availability:
    available: bool
    reason: str = ""


class Benchmark(ABC):
    """A named set of tasks with its world model, prompts and decision facts."""

    name: ClassVar[str]
    domain: ClassVar[str]
    description: ClassVar[str]
    action_language: ClassVar[str]
    """The fence language an agent wraps its action in (sql, python, coq, smt2, dimacs...)."""
    repair_mode: ClassVar[Literal["edit", "resolve"]] = "edit"
    """How memory's generator repairs a failed action: `edit` it locally, or `resolve` the task
    (a worked math answer is no code to edit; its judge reads only the final answer)."""

    checker_name: ClassVar[str] = "unknown"
    """The executable that judges actions (sqlite3, z3, coqc, python...), for provenance."""

    def __init__(self, options: BenchmarkOptions | None = None) -> None:
        self.options = options or BenchmarkOptions()

    def checker_version(self) -> str | None:
        """The checker's version, or None when it cannot be told (e.g. not installed); never raises."""
        return None

    def data_source(self) -> Path | None:
        """The data folder holding SOURCE.md, or None when the tasks ship inside countermem.

        Raises `DataUnavailableError` when the data is missing.
        """
        return None

    def checker(self) -> CheckerInfo:
        """Checker name and version and the data's fingerprint; never raises (missing = `unknown`)."""
        version = self.checker_version() or "unknown"
        try:
            folder = self.data_source()
            data = "packaged" if folder is None else sha256_file(folder / "SOURCE.md")
        except (CountermemError, OSError):
            data = "unknown"
        return CheckerInfo(self.checker_name, version, data)

    @abstractmethod
    def availability(self) -> Availability:
        """Whether data and checker are present; the reason says what is missing and how to fix it."""

    @abstractmethod
    def tasks(self) -> list[Task]:
        """All tasks, in a stable order; raises DataUnavailableError with the reason."""

    @abstractmethod
    def world_model(self) -> WorldModel: ...

    @abstractmethod
    def gold_action(self, task: Task) -> Action: ...

    @abstractmethod
    def instructions(self) -> str:
        """Domain-specific instructions for the agent's system prompt (what a good action is)."""

    @abstractmethod
    def render_task(self, task: Task) -> str:
        """Everything the agent may see of a task (question plus its environment, e.g. a schema)."""

    @abstractmethod
    def facts(self, task: Task, action: Action | None = None) -> Facts:
        """Observable facts of a decision, for applicability conditions."""

    def error_kind(self, result: CheckResult) -> str | None:
        """The kind of mistake a failed check reports, named without the task's own names (SQL:
        `no_such_column`, `wrong_rows`), or None when the domain names none. It becomes the
        `check_error` fact of the decision after that check (`facts_after`)."""
        return None

    def salvage(self, answer: str) -> str | None:
        """The action a malformed answer holds when only the output contract's form was missing
        (no `Action:` line), or None. Construction checks it as a form repair and advice shows it
        applied to a later agent's own slip (`countermem.core._malformed`). Default: the answer's
        longest closed code block."""
        return salvaged_block(answer)

    def form_fix(self, action: str, result: CheckResult) -> str | None:
        """The action `action` becomes when `result` failed it on the form of its answer alone
        (math: working with no final answer line), or None. Learned and shown like `salvage`'s
        action, after a failed check instead of a malformed answer. Default: no such failure."""
        return None

    def wrong_action(self, task: Task) -> Action:
        """A known-wrong action for `task`, for tests and checker-speed figures."""
        raise NotImplementedError(f"{self.name} has no known-wrong action")

    def naive_action(self, task: Task) -> Action:
        """The action a simulated backbone with this domain's recurring, feature-dependent mistakes writes."""
        raise NotImplementedError(f"{self.name} has no naive action, so the simulated backbone cannot run it")

    def lookalikes(self, task: Task, rng: random.Random) -> list[Task]:
        """Tasks that resemble `task` but where a correction learned on it would be wrong."""
        return []

    def render_action_diff(self, original: Action, improved: Action) -> str:
        import difflib

        diff = difflib.unified_diff(
            original.content.splitlines(),
            improved.content.splitlines(),
            fromfile="original",
            tofile="improved",
            lineterm="",
        )
        return "\n".join(diff)
