from __future__ import annotations

import pytest

from countermem.core import ConfigError
from countermem.selector import (
    SKIP,
    AlwaysSkip,
    CandidateFeatures,
    Observation,
    RandomChoice,
    RewardWeights,
    Selector,
    TopOne,
    reward,
)

ONE = CandidateFeatures(similarity=0.9, utility_gain=0.2)


def obs(n: int) -> Observation:
    return Observation(n_eligible=n, candidates=(ONE,) * n)


def test_fixed_policies() -> None:
    for policy in (AlwaysSkip(), TopOne(), RandomChoice(0)):
        assert isinstance(policy, Selector)
    assert [AlwaysSkip().choose(obs(n)) for n in range(4)] == [SKIP] * 4
    assert [TopOne().choose(obs(n)) for n in range(4)] == [SKIP, 0, 0, 0]
    assert {AlwaysSkip().name, TopOne().name, RandomChoice().name} == {"skip", "top1", "random"}


def test_random_choice_uniform_valid_and_seeded() -> None:
    picks = [RandomChoice(3).choose(obs(2)) for _ in range(3)]
    assert len(set(picks)) == 1, "a fresh generator with the same seed must repeat its first pick"
    policy = RandomChoice(1)
    counts = {SKIP: 0, 0: 0, 1: 0}
    for _ in range(3000):
        counts[policy.choose(obs(2))] += 1
    assert set(counts) == {SKIP, 0, 1}
    assert all(900 < v < 1100 for v in counts.values()), counts
    assert all(policy.choose(obs(0)) == SKIP for _ in range(50))
    a, b = RandomChoice(5), RandomChoice(5)
    assert [a.choose(obs(3)) for _ in range(50)] == [b.choose(obs(3)) for _ in range(50)]


def test_reward_formula_and_weights() -> None:
    assert reward(True, 1, 0, 2000) == pytest.approx(1 - 0.02 - 0.02)
    assert reward(False, 4, 4, 8000) == pytest.approx(-(0.08 + 0.20 + 0.08))
    w = RewardWeights(success=2.0, evaluator_call=0.0, failed_attempt=0.5, per_1k_tokens=0.0)
    assert reward(True, 10, 1, 10**6, w) == pytest.approx(1.5)
    assert reward(True, 1, 0, 0) > reward(True, 1, 0, 5000) > reward(False, 1, 0, 0)


def test_reward_refuses_negative_counts_and_weights() -> None:
    with pytest.raises(ConfigError):
        reward(True, -1, 0, 0)
    with pytest.raises(ValueError):
        RewardWeights(success=-1.0)
