"""What the world model needs to judge an action on a task, read from `Task.metadata`.

Keeping the whole test specification in the task (not in the benchmark object) is what lets a
look-alike task, built by changing only its metadata, be judged by the same world model.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass

from countermem.core import ConfigError, Task


@dataclass(frozen=True)
class TestSpec:
    __test__ = False

    entry_point: str
    """The function the tests call."""
    test: str
    """Test source: a module whose asserts are the tests (MBPP), or one defining `call` (HumanEval)."""
    call: str | None = None
    """A function of `test` to call with the solution's entry point, as HumanEval's `check`."""
    preamble: str = ""
    """Code run before the solution (HumanEval's prompt, which may define helpers the tests use)."""

    @classmethod
    def from_task(cls, task: Task) -> TestSpec:
        meta = task.metadata
        try:
            return cls(
                entry_point=str(meta["entry_point"]),
                test=str(meta["test"]),
                call=None if meta.get("call") is None else str(meta["call"]),
                preamble=str(meta.get("preamble") or ""),
            )
        except KeyError as error:
            raise ConfigError(f"task {task.id} is not a coding task: metadata lacks {error}") from error

    def metadata(self) -> dict[str, str | None]:
        return asdict(self)

    @property
    def fingerprint(self) -> str:
        return hashlib.sha256(json.dumps(asdict(self), sort_keys=True).encode("utf-8")).hexdigest()
