"""What every selector answers, and what a trainable one learns from.

A selector returns an index into the offered candidates or `SKIP`. Skipping is a first-class
answer, not a failure: a record that does not fit the decision costs prompt tokens and can
break a task the agent would have solved alone, so "use no memory" must always be available.

Decisions within one task form an episode: the reward is only known when the task ends, so
every decision but the last gets reward 0 and points at the next decision's observation, and
the last is `done` with the task's reward. `episode_transitions` builds exactly that.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from countermem.core import ConfigError

if TYPE_CHECKING:
    from countermem.selector._observation import Observation

SKIP = -1
"""The answer that means "use no memory record at this decision"."""


@runtime_checkable
class Selector(Protocol):
    @property
    def name(self) -> str: ...

    def choose(self, observation: Observation) -> int:
        """An index into `observation.candidates`, or `SKIP`; never an index of an absent candidate."""
        ...


@dataclass(frozen=True)
class Transition:
    """One decision's experience: what was seen, what was chosen, the reward, and what came next.

    `action` is a `choose` answer (SKIP or a candidate index). `next_observation` is the task's
    next decision, or None when `done` (the task ended at this decision).
    """

    observation: Observation
    action: int
    reward: float
    next_observation: Observation | None
    done: bool

    def __post_init__(self) -> None:
        n = len(self.observation.candidates)
        if self.action != SKIP and not 0 <= self.action < n:
            raise ConfigError(
                f"transition action {self.action} is neither SKIP ({SKIP}) nor an index of the {n} candidates"
            )
        if not self.done and self.next_observation is None:
            raise ConfigError(
                "a transition that is not done needs next_observation (the task's next decision)"
            )


@runtime_checkable
class TrainableSelector(Selector, Protocol):
    """A selector that learns: `observe` stores experience, `update` takes one learning step.

    `train()` switches to exploring choices that may be recorded; `eval()` freezes it to greedy,
    deterministic choices for held-out evaluation.
    """

    def observe(self, transition: Transition) -> None: ...

    def update(self) -> float | None:
        """One learning step; the loss, or None when there is not enough experience yet."""
        ...

    def train(self, mode: bool = True) -> None: ...

    def eval(self) -> None: ...


def episode_transitions(
    observations: Sequence[Observation], actions: Sequence[int], final_reward: float
) -> list[Transition]:
    """Transitions of one task: reward 0 until the last decision, which carries `final_reward`."""
    if len(observations) != len(actions):
        raise ConfigError(
            f"{len(observations)} observations but {len(actions)} actions; pass one action per decision"
        )
    out: list[Transition] = []
    for i, (observation, action) in enumerate(zip(observations, actions, strict=True)):
        last = i == len(observations) - 1
        out.append(
            Transition(
                observation=observation,
                action=action,
                reward=final_reward if last else 0.0,
                next_observation=None if last else observations[i + 1],
                done=last,
            )
        )
    return out
