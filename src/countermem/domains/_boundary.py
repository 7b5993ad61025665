"""Where a check result crosses from a world model into countermem: validated, and time-limited.

Why: a world model may be a user's own object. Its `check` can return something that only looks
like a `CheckResult` (a `model_construct`ed one with `utility=inf`, NaN, or another type); stored,
such a utility became JSON `null` and made the whole store unreadable. So every result is
validated here, where it comes back, and a bad one is a `WorldModelError` that names the world
model, never a record.

A check that never returns would block its caller forever. `TimeLimitedWorldModel` runs each
check on a helper thread and gives up after its limit; the abandoned thread cannot be killed, so
the world model is then treated as broken: its later `restore`/`snapshot`/`check` calls are not
made (an error or nothing), and the caller gets a `WorldModelError`. A world model whose `check`
must run on the caller's own thread (it holds thread-bound objects) cannot be time-limited so.
"""

from __future__ import annotations

import math
import threading
from typing import Any

from pydantic import ValidationError

from countermem.core import Action, CheckResult, Task, WorldModelError
from countermem.domains._protocol import State, WorldModel


def world_model_name(world_model: object) -> str:
    return type(world_model).__name__


def validated_check(result: Any, world_model: object) -> CheckResult:
    """`result` as a valid `CheckResult` (utility a finite number in [0, 1]), or a `WorldModelError`."""
    name = world_model_name(world_model)
    if not isinstance(result, CheckResult):
        raise WorldModelError(
            f"world model {name} returned a {type(result).__name__} from check(), not a CheckResult; "
            "return countermem.core.CheckResult(...)"
        )
    utility = result.__dict__.get("utility")
    if isinstance(utility, bool) or not isinstance(utility, int | float) or not math.isfinite(utility):
        raise WorldModelError(
            f"world model {name} returned utility {utility!r}; a utility must be a finite number in [0, 1]"
        )
    try:
        return CheckResult.model_validate(dict(result.__dict__))
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "result"
        raise WorldModelError(
            f"world model {name} returned an invalid check result ({where}: {first['msg']}); "
            "a utility must be a finite number in [0, 1]"
        ) from None


def check_action(world_model: WorldModel, action: Action) -> CheckResult:
    """`world_model.check(action)`, validated (see `validated_check`)."""
    return validated_check(world_model.check(action), world_model)


class TimeLimitedWorldModel:
    """Wraps a world model so that no `check` takes longer than `timeout_s` seconds of waiting."""

    def __init__(self, inner: WorldModel, timeout_s: float) -> None:
        if not (isinstance(timeout_s, int | float) and math.isfinite(timeout_s) and timeout_s > 0):
            raise WorldModelError(f"a check time limit must be a positive number of seconds, got {timeout_s!r}")
        self.inner = inner
        self.timeout_s = float(timeout_s)
        self.abandoned = False

    @property
    def name(self) -> str:
        return world_model_name(self.inner)

    def reset(self, task: Task) -> State:
        self._require_usable()
        return self.inner.reset(task)

    def snapshot(self) -> State:
        self._require_usable()
        return self.inner.snapshot()

    def restore(self, state: State) -> None:
        if self.abandoned:
            return  # a check may still be running on it; touching it now would race that check
        self.inner.restore(state)

    def check(self, action: Action) -> CheckResult:
        self._require_usable()
        outcome: list[Any] = []
        failure: list[BaseException] = []

        def run() -> None:
            try:
                outcome.append(self.inner.check(action))
            except BaseException as error:  # handed to the caller's thread below
                failure.append(error)

        worker = threading.Thread(target=run, name=f"countermem-check-{self.name}", daemon=True)
        worker.start()
        worker.join(self.timeout_s)
        if worker.is_alive():
            self.abandoned = True
            raise WorldModelError(
                f"world model {self.name} did not return from check() within {self.timeout_s:g} s; "
                "nothing was admitted and the world model is not used again. Give its check a time "
                "limit of its own, or raise check_timeout"
            )
        if failure:
            raise failure[0]
        return validated_check(outcome[0], self.inner)

    def _require_usable(self) -> None:
        if self.abandoned:
            raise WorldModelError(
                f"world model {self.name} timed out in an earlier check and may still be running; "
                "make a new one"
            )
