"""Selectors that do not learn: the baselines a learned selector has to beat.

`AlwaysSkip` is "no memory at all" at the same retrieval cost; `TopOne` trusts retrieval's
ranking blindly (what most retrieval-augmented agents do); `RandomChoice` shows how much of a
result comes from merely putting some record in the prompt.
"""

from __future__ import annotations

import numpy as np

from countermem.selector._observation import Observation
from countermem.selector._protocol import SKIP


class AlwaysSkip:
    @property
    def name(self) -> str:
        return "skip"

    def choose(self, observation: Observation) -> int:
        return SKIP


class TopOne:
    @property
    def name(self) -> str:
        return "top1"

    def choose(self, observation: Observation) -> int:
        return 0 if observation.candidates else SKIP


class RandomChoice:
    """Uniform over SKIP and the offered candidates, from its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = np.random.default_rng(seed)

    @property
    def name(self) -> str:
        return "random"

    def choose(self, observation: Observation) -> int:
        pick = int(self._rng.integers(0, len(observation.candidates) + 1))
        return SKIP if pick == 0 else pick - 1
