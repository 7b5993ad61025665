from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from countermem.core import ArtifactMismatchError, ConfigError
from countermem.selector import (
    SKIP,
    CandidateFeatures,
    DQNConfig,
    DQNSelector,
    Observation,
    TrainableSelector,
    Transition,
    episode_transitions,
    file_sha256,
)


def random_observation(rng: np.random.Generator, max_candidates: int = 3) -> Observation:
    n = int(rng.integers(0, max_candidates + 1))
    candidates = tuple(
        CandidateFeatures(
            similarity=float(rng.uniform(-1, 1)),
            utility_gain=float(rng.uniform(0, 1)),
            retrieved=5,
            selected=2,
            succeeded=int(rng.integers(0, 3)),
            condition_specific=bool(rng.random() < 0.5),
            age=float(rng.uniform(0, 10)),
        )
        for _ in range(n)
    )
    return Observation(step=int(rng.integers(0, 3)), n_eligible=n, candidates=candidates)


def drive(selector: DQNSelector, n_tasks: int, seed: int) -> list[int]:
    """Run a few small episodes with an arbitrary reward; return every choice made."""
    rng = np.random.default_rng(seed)
    choices: list[int] = []
    for _ in range(n_tasks):
        observations = [random_observation(rng) for _ in range(int(rng.integers(1, 4)))]
        actions = [selector.choose(o) for o in observations]
        choices += actions
        final = (
            1.0 if actions[-1] != SKIP and observations[-1].candidates[actions[-1]].similarity > 0 else 0.0
        )
        for transition in episode_transitions(observations, actions, final):
            selector.observe(transition)
            selector.update()
    return choices


SMALL = {"batch_size": 8, "learning_starts": 8, "epsilon_decay_steps": 50, "target_update_every": 5}


def test_is_a_trainable_selector_and_reports_stats() -> None:
    selector = DQNSelector(DQNConfig(**SMALL))
    assert isinstance(selector, TrainableSelector)
    assert selector.name == "dqn"
    assert torch.get_num_threads() == 1
    stats = selector.train_step_stats
    assert (stats.loss, stats.buffer_size, stats.updates, stats.epsilon) == (None, 0, 0, 1.0)
    drive(selector, 40, seed=0)
    stats = selector.train_step_stats
    assert stats.loss is not None and stats.loss >= 0
    assert stats.buffer_size > 40 and stats.updates > 0
    assert stats.epsilon == pytest.approx(0.05), (
        "epsilon must reach its end value after decay_steps decisions"
    )


def test_epsilon_schedule_is_linear() -> None:
    config = DQNConfig(epsilon_start=0.9, epsilon_end=0.1, epsilon_decay_steps=100)
    assert [round(config.epsilon_at(t), 6) for t in (0, 50, 100, 1000)] == [0.9, 0.5, 0.1, 0.1]
    with pytest.raises(ValueError):
        DQNConfig(epsilon_start=0.1, epsilon_end=0.5)


def test_same_seed_same_choices_and_weights_different_seed_differs() -> None:
    a, b, c = (DQNSelector(DQNConfig(seed=s, **SMALL)) for s in (3, 3, 4))
    choices_a, choices_b, choices_c = drive(a, 30, 1), drive(b, 30, 1), drive(c, 30, 1)
    assert choices_a == choices_b
    probe = Observation(n_eligible=3, candidates=(CandidateFeatures(similarity=0.5, utility_gain=0.5),) * 3)
    np.testing.assert_array_equal(a.q_values(probe), b.q_values(probe))
    assert choices_a != choices_c or not np.array_equal(a.q_values(probe), c.q_values(probe))


def test_seeding_leaves_global_torch_rng_alone() -> None:
    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    DQNSelector(DQNConfig(seed=5))
    assert torch.equal(torch.rand(3), expected)


@pytest.mark.parametrize("network", ["shared", "mlp"])
def test_masked_actions_never_chosen(network: str) -> None:
    selector = DQNSelector(DQNConfig(network=network, **SMALL))
    last = next(m for m in reversed(list(selector.online.modules())) if isinstance(m, torch.nn.Linear))
    with torch.no_grad():
        # Make every candidate slot look far better than SKIP: only the mask stops padded slots.
        last.bias.fill_(100.0)
        if network == "mlp":
            last.bias[0] = -100.0
    rng = np.random.default_rng(0)
    for mode in (True, False):
        selector.train(mode)
        for _ in range(300):
            obs = random_observation(rng)
            q = selector.q_values(obs)
            assert np.isneginf(q[1 + len(obs.candidates) :]).all()
            choice = selector.choose(obs)
            assert choice == SKIP or 0 <= choice < len(obs.candidates)
            if not mode and obs.candidates:
                assert choice != SKIP


def test_eval_mode_is_greedy_and_frozen() -> None:
    selector = DQNSelector(DQNConfig(**SMALL))
    selector.eval()
    rng = np.random.default_rng(2)
    for _ in range(100):
        obs = random_observation(rng)
        expected = int(np.argmax(selector.q_values(obs))) - 1
        assert selector.choose(obs) == expected
    assert selector.train_step_stats.decisions == 0, (
        "greedy choices must not advance the exploration schedule"
    )
    transition = Transition(Observation(), SKIP, 0.0, None, True)
    with pytest.raises(ConfigError, match="eval mode"):
        selector.observe(transition)
    with pytest.raises(ConfigError, match="eval mode"):
        selector.update()


def test_polyak_target_moves_toward_online() -> None:
    selector = DQNSelector(DQNConfig(target_update="polyak", tau=0.5, **SMALL))
    before = [p.clone() for p in selector.target.parameters()]
    drive(selector, 10, seed=3)
    assert selector.train_step_stats.updates > 0
    assert any(not torch.equal(b, p) for b, p in zip(before, selector.target.parameters(), strict=True))


def test_save_load_round_trip(tmp_path: Path) -> None:
    selector = DQNSelector(DQNConfig(seed=11, n_facts=0, **SMALL))
    drive(selector, 40, seed=4)
    path = tmp_path / "selector.pt"
    digest = selector.save(path)
    assert digest == file_sha256(path) and len(digest) == 64
    assert selector.save(tmp_path / "again.pt") == digest, "the same state must save to the same bytes"
    loaded = DQNSelector.load(path, expected_sha256=digest)
    assert loaded.config == selector.config and not loaded.train_mode
    selector.eval()
    rng = np.random.default_rng(5)
    for _ in range(200):
        obs = random_observation(rng)
        np.testing.assert_array_equal(loaded.q_values(obs), selector.q_values(obs))
        assert loaded.choose(obs) == selector.choose(obs)
    got, want = loaded.train_step_stats, selector.train_step_stats
    assert (got.updates, got.decisions, got.epsilon) == (want.updates, want.decisions, want.epsilon)
    for p, q in zip(loaded.target.parameters(), selector.target.parameters(), strict=True):
        assert torch.equal(p, q)


def test_resumed_training_matches_when_buffer_state_matches(tmp_path: Path) -> None:
    """Weights, optimizer, counters and the generator survive a save; the buffer does not (documented)."""
    selector = DQNSelector(DQNConfig(seed=2, **SMALL))
    drive(selector, 20, seed=7)
    selector.save(tmp_path / "s.pt")
    loaded = DQNSelector.load(tmp_path / "s.pt")
    loaded.train()
    assert loaded.train_step_stats.buffer_size == 0
    obs = Observation(n_eligible=2, candidates=(CandidateFeatures(similarity=0.1, utility_gain=0.1),) * 2)
    assert [loaded.choose(obs) for _ in range(20)] == [selector.choose(obs) for _ in range(20)]


def test_load_refuses_wrong_hash_missing_and_garbage(tmp_path: Path) -> None:
    selector = DQNSelector(DQNConfig(**SMALL))
    path = tmp_path / "s.pt"
    selector.save(path)
    with pytest.raises(ArtifactMismatchError, match="sha256"):
        DQNSelector.load(path, expected_sha256="0" * 64)
    with pytest.raises(ConfigError, match="does not exist"):
        DQNSelector.load(tmp_path / "missing.pt")
    (tmp_path / "junk.pt").write_bytes(b"not a checkpoint")
    with pytest.raises(ConfigError, match="not a readable"):
        DQNSelector.load(tmp_path / "junk.pt")
    torch.save({"format": "something-else"}, tmp_path / "other.pt")
    with pytest.raises(ConfigError, match="not a readable"):
        DQNSelector.load(tmp_path / "other.pt")


def test_observation_width_must_match_config() -> None:
    selector = DQNSelector(DQNConfig(n_facts=2))
    with pytest.raises(ConfigError, match="n_facts"):
        selector.choose(
            Observation(n_eligible=1, candidates=(CandidateFeatures(similarity=0.1, utility_gain=0.1),))
        )
    obs = Observation(
        facts=(0.1, 0.2), n_eligible=1, candidates=(CandidateFeatures(similarity=0.1, utility_gain=0.1),)
    )
    assert selector.choose(obs) in (SKIP, 0)


def _one_candidate(similarity: float) -> Observation:
    candidate = CandidateFeatures(
        similarity=similarity, utility_gain=0.5, retrieved=1, selected=0, succeeded=0,
        condition_specific=True, age=1.0,
    )
    return Observation(step=0, n_eligible=1, candidates=(candidate,))


@pytest.mark.parametrize("use_pays", [True, False])
def test_fit_learns_from_a_buffer_below_learning_starts(use_pays: bool) -> None:
    selector = DQNSelector(DQNConfig(seed=0, learning_starts=32, fit_updates=300))
    for i in range(10):
        observation = _one_candidate(0.8)
        choice = 0 if i % 2 == 0 else SKIP
        paid = (choice == 0) == use_pays
        selector.observe(Transition(observation, choice, 1.0 if paid else 0.0, None, True))
        assert selector.update() is None, "ten transitions stay below learning_starts"
    losses = selector.fit()
    assert len(losses) == 300 and losses[-1] < losses[0]
    stats = selector.train_step_stats
    assert (stats.updates, stats.observed, stats.buffer_size) == (300, 10, 10)
    selector.eval()
    assert selector.choose(_one_candidate(0.8)) == (0 if use_pays else SKIP)


def test_fit_does_nothing_on_an_empty_buffer_and_refuses_eval_mode() -> None:
    selector = DQNSelector(DQNConfig(seed=0))
    assert selector.fit() == [] and selector.train_step_stats.updates == 0
    selector.eval()
    with pytest.raises(ConfigError, match="eval mode"):
        selector.fit()


def test_checkpoint_keeps_the_transition_count(tmp_path: Path) -> None:
    selector = DQNSelector(DQNConfig(seed=0, fit_updates=3))
    selector.observe(Transition(_one_candidate(0.5), 0, 1.0, None, True))
    selector.fit()
    selector.save(tmp_path / "s.pt")
    assert DQNSelector.load(tmp_path / "s.pt").train_step_stats.observed == 1
    payload = torch.load(tmp_path / "s.pt", weights_only=True)
    del payload["observed"]
    torch.save(payload, tmp_path / "old.pt")
    assert DQNSelector.load(tmp_path / "old.pt").train_step_stats.observed is None
