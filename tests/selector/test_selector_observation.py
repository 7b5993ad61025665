from __future__ import annotations

import math

import numpy as np
import pytest

from countermem.core import ConfigError
from countermem.selector import (
    CANDIDATE_FEATURES,
    DECISION_FEATURES,
    SKIP,
    CandidateFeatures,
    Observation,
    Transition,
    action_to_choice,
    choice_to_action,
    encode,
    encoded_size,
    episode_transitions,
)


def cand(**kw: object) -> CandidateFeatures:
    base: dict[str, object] = {"similarity": 0.8, "utility_gain": 0.5}
    base.update(kw)
    return CandidateFeatures(**base)  # type: ignore[arg-type]


def test_shape_and_mask_pad_absent_slots() -> None:
    obs = Observation(step=2, n_eligible=5, candidates=(cand(), cand(similarity=0.3)))
    vector, mask = encode(obs)
    assert vector.dtype == np.float32 and vector.shape == (encoded_size(),)
    assert encoded_size() == DECISION_FEATURES + 3 * CANDIDATE_FEATURES
    assert mask.tolist() == [True, True, True, False]
    third = vector[DECISION_FEATURES + 2 * CANDIDATE_FEATURES :]
    assert not third.any(), "a padded slot must be all zeros"


def test_empty_observation_only_skip_valid() -> None:
    vector, mask = encode(Observation())
    assert mask.tolist() == [True, False, False, False]
    assert not vector.any()


def test_normalisation_of_decision_and_candidate_features() -> None:
    c = cand(
        similarity=-0.2,
        utility_gain=0.3,
        retrieved=9,
        selected=4,
        succeeded=3,
        harmed=1,
        condition_specific=True,
        same_benchmark=False,
        age=e_minus_1(),
    )
    obs = Observation(
        step=3, trial=1, last_utility=1.7, last_check_failed=True, n_eligible=7, candidates=(c,)
    )
    vector, _ = encode(obs, max_candidates=2)
    head = vector[:DECISION_FEATURES]
    np.testing.assert_allclose(head, [math.log1p(3), math.log1p(1), 1.0, 1.0, math.log1p(7), 0.5], rtol=1e-6)
    block = vector[DECISION_FEATURES : DECISION_FEATURES + CANDIDATE_FEATURES]
    expected = [1.0, -0.2, 0.3, math.log1p(9), math.log1p(4), 3 / 5, 1 / 5, 4 / 10, 1.0, 0.0, 1.0]
    np.testing.assert_allclose(block, expected, rtol=1e-6)


def e_minus_1() -> float:
    return math.e - 1


def test_facts_and_extra_widths_are_checked_not_padded() -> None:
    obs = Observation(facts=(0.5, -1.0), n_eligible=1, candidates=(cand(extra=(2.0,)),))
    vector, _ = encode(obs, 1, n_facts=2, n_extra=1)
    assert vector.shape == (encoded_size(1, 2, 1),)
    assert vector[DECISION_FEATURES : DECISION_FEATURES + 2].tolist() == [0.5, -1.0]
    assert vector[-1] == 2.0
    with pytest.raises(ConfigError, match="n_facts"):
        encode(obs, 1, n_facts=0, n_extra=1)
    with pytest.raises(ConfigError, match="n_extra"):
        encode(obs, 1, n_facts=2, n_extra=0)


def test_too_many_candidates_refused() -> None:
    obs = Observation(n_eligible=4, candidates=(cand(),) * 4)
    with pytest.raises(ConfigError, match="at most 3"):
        encode(obs)


@pytest.mark.parametrize(
    "kw",
    [
        {"similarity": 1.5},
        {"similarity": float("nan")},
        {"utility_gain": 2.0},
        {"retrieved": -1},
        {"selected": 1, "succeeded": 2},
        {"selected": 0, "harmed": 1},
        {"age": -1.0},
    ],
)
def test_bad_candidate_values_refused(kw: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        cand(**kw)


def test_bad_observation_values_refused() -> None:
    with pytest.raises(ConfigError, match="n_eligible"):
        Observation(n_eligible=0, candidates=(cand(),))
    with pytest.raises(ConfigError):
        Observation(step=-1)


def test_action_choice_conversion() -> None:
    assert choice_to_action(SKIP) == 0 and action_to_choice(0) == SKIP
    for i in range(3):
        assert action_to_choice(choice_to_action(i)) == i


def test_episode_transitions_reward_only_at_the_end() -> None:
    a, b = Observation(), Observation(step=1, n_eligible=1, candidates=(cand(),))
    first, last = episode_transitions([a, b], [SKIP, 0], 0.9)
    assert (first.reward, first.done, first.next_observation) == (0.0, False, b)
    assert (last.reward, last.done, last.next_observation) == (0.9, True, None)
    with pytest.raises(ConfigError):
        Transition(a, 0, 1.0, None, True)  # no candidate 0 in `a`
    with pytest.raises(ConfigError):
        Transition(a, SKIP, 0.0, None, False)
