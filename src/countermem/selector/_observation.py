"""The compressed observation a selector sees at one decision, and its fixed-size encoding.

A selector never sees the trajectory, the situation text or the records themselves: only a
handful of numbers per offered record and per decision. That keeps the DQN small enough to
train on a few hundred tasks, keeps its input independent of the domain, and keeps a
checkpoint meaningful across stores (the features are statistics, not record ids).

`encode` turns an `Observation` into a float32 vector of a size fixed by
(`max_candidates`, `n_facts`, `n_extra`) and a boolean action mask. Layout and normalisation:

decision block (6 + n_facts values)
    log1p(step), log1p(trial), last_utility clipped to [0, 1], last_check_failed (0/1),
    log1p(n_eligible), len(candidates) / max_candidates, then the caller's facts unchanged
    (the caller scales them to roughly [-1, 1]).

one block per candidate slot (11 + n_extra values), slot i holds `candidates[i]`
    present (1; 0 for a padded slot, whose whole block is 0), similarity, utility_gain,
    log1p(retrieved), log1p(selected), succeeded / (selected + 1), harmed / (selected + 1),
    min(selected / (retrieved + 1), 1), condition_specific (0/1), same_benchmark (0/1),
    log1p(age), then the candidate's extra values unchanged.

Counts go through log1p because they grow without bound while what matters is their order of
magnitude; the rates use +1 in the denominator so that an unused record reads as "no evidence"
(rate 0) rather than as undefined.

Mask: index 0 is SKIP and always valid; index i + 1 is candidate i, valid only when present.
`action_to_choice` / `choice_to_action` convert between mask indices and the `SKIP`/index
answers of `Selector.choose`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from countermem.core import ConfigError
from countermem.selector._protocol import SKIP

DECISION_FEATURES = 6
"""Values of the decision block before the caller's facts."""

CANDIDATE_FEATURES = 11
"""Values of one candidate block before the candidate's extra values."""

MAX_CANDIDATES = 3
"""Retrieval offers at most this many records (DESIGN.md); the default width of the encoding."""


def _finite(name: str, value: float) -> None:
    if not math.isfinite(value):
        raise ConfigError(f"{name} must be a finite number, got {value!r}; check how the caller computed it")


@dataclass(frozen=True)
class CandidateFeatures:
    """What the selector knows about one offered record.

    `similarity` is the retrieval score (cosine in [-1, 1] or a [0, 1] score); `utility_gain` is
    the checked gain of the improved action over the original when the record was admitted.
    `retrieved`, `selected`, `succeeded`, `harmed` are the record's raw reuse counters;
    `condition_specific` says the record has a non-universal condition that held here (a
    universal record is eligible everywhere, which is weaker evidence of fit); `age` is how old
    the record is in the caller's unit (tasks since created, or records newer than it).
    """

    similarity: float
    utility_gain: float
    retrieved: int = 0
    selected: int = 0
    succeeded: int = 0
    harmed: int = 0
    condition_specific: bool = False
    same_benchmark: bool = True
    age: float = 0.0
    extra: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        _finite("similarity", self.similarity)
        if not -1.0 <= self.similarity <= 1.0:
            raise ConfigError(
                f"similarity must lie in [-1, 1], got {self.similarity}; pass the cosine or a [0, 1] score"
            )
        _finite("utility_gain", self.utility_gain)
        if not -1.0 <= self.utility_gain <= 1.0:
            raise ConfigError(
                f"utility_gain must lie in [-1, 1] (utilities lie in [0, 1]), got {self.utility_gain}"
            )
        for name in ("retrieved", "selected", "succeeded", "harmed"):
            count = getattr(self, name)
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise ConfigError(f"{name} must be a non-negative int count, got {count!r}")
        if self.succeeded > self.selected or self.harmed > self.selected:
            raise ConfigError(
                f"succeeded ({self.succeeded}) and harmed ({self.harmed}) count outcomes of selected uses and "
                f"cannot exceed selected ({self.selected}); pass the record's counters unchanged"
            )
        _finite("age", self.age)
        if self.age < 0:
            raise ConfigError(f"age must be >= 0, got {self.age}")
        for value in self.extra:
            _finite("extra value", value)


@dataclass(frozen=True)
class Observation:
    """One decision as the selector sees it: a few decision features and at most a few candidates.

    `last_utility` is the utility of the agent's latest checked action (0 when none yet);
    `n_eligible` counts records whose condition held before retrieval cut them to the offered
    `candidates`, which are in retrieval rank order. `facts` is a small fixed-length tuple of
    numbers the caller derives from the decision (its length must match the encoder's `n_facts`).
    """

    step: int = 0
    trial: int = 0
    last_utility: float = 0.0
    last_check_failed: bool = False
    n_eligible: int = 0
    facts: tuple[float, ...] = ()
    candidates: tuple[CandidateFeatures, ...] = ()

    def __post_init__(self) -> None:
        for name in ("step", "trial", "n_eligible"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ConfigError(f"{name} must be a non-negative int, got {value!r}")
        _finite("last_utility", self.last_utility)
        if self.n_eligible < len(self.candidates):
            raise ConfigError(
                f"n_eligible ({self.n_eligible}) is smaller than the {len(self.candidates)} offered candidates; "
                "count eligible records before cutting them to the offer"
            )
        for value in self.facts:
            _finite("fact value", value)


def encoded_size(max_candidates: int = MAX_CANDIDATES, n_facts: int = 0, n_extra: int = 0) -> int:
    """Length of the vector `encode` returns for these widths."""
    return DECISION_FEATURES + n_facts + max_candidates * (CANDIDATE_FEATURES + n_extra)


def encode(
    observation: Observation, max_candidates: int = MAX_CANDIDATES, *, n_facts: int = 0, n_extra: int = 0
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
    """Fixed-size float32 features and the action mask (index 0 = SKIP); see the module docstring.

    Lengths are checked, not padded or cut: a facts tuple or an extra tuple of the wrong length
    means the caller and the selector disagree on what the numbers are, which padding would hide.
    """
    if max_candidates < 1:
        raise ConfigError(f"max_candidates must be >= 1, got {max_candidates}")
    if len(observation.candidates) > max_candidates:
        raise ConfigError(
            f"observation offers {len(observation.candidates)} candidates but the encoder takes at most "
            f"{max_candidates}; cut the offer in retrieval"
        )
    if len(observation.facts) != n_facts:
        raise ConfigError(
            f"observation has {len(observation.facts)} fact values but the encoder expects n_facts={n_facts}; "
            "configure the selector with the caller's fact width"
        )
    vector = np.zeros(encoded_size(max_candidates, n_facts, n_extra), dtype=np.float32)
    mask = np.zeros(1 + max_candidates, dtype=np.bool_)
    mask[0] = True
    head = [
        math.log1p(observation.step),
        math.log1p(observation.trial),
        min(max(observation.last_utility, 0.0), 1.0),
        1.0 if observation.last_check_failed else 0.0,
        math.log1p(observation.n_eligible),
        len(observation.candidates) / max_candidates,
        *observation.facts,
    ]
    vector[: len(head)] = head
    width = CANDIDATE_FEATURES + n_extra
    for slot, candidate in enumerate(observation.candidates):
        if len(candidate.extra) != n_extra:
            raise ConfigError(
                f"candidate {slot} has {len(candidate.extra)} extra values but the encoder expects "
                f"n_extra={n_extra}; configure the selector with the caller's extra width"
            )
        start = len(head) + slot * width
        vector[start : start + width] = [
            1.0,
            candidate.similarity,
            candidate.utility_gain,
            math.log1p(candidate.retrieved),
            math.log1p(candidate.selected),
            candidate.succeeded / (candidate.selected + 1),
            candidate.harmed / (candidate.selected + 1),
            min(candidate.selected / (candidate.retrieved + 1), 1.0),
            1.0 if candidate.condition_specific else 0.0,
            1.0 if candidate.same_benchmark else 0.0,
            math.log1p(candidate.age),
            *candidate.extra,
        ]
        mask[slot + 1] = True
    return vector, mask


def action_to_choice(action: int) -> int:
    """Mask index (0 = SKIP) to a `Selector.choose` answer (SKIP or a candidate index)."""
    return SKIP if action == 0 else action - 1


def choice_to_action(choice: int) -> int:
    """A `Selector.choose` answer to its mask index."""
    return 0 if choice == SKIP else choice + 1
