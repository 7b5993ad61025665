"""The DQN must learn, on a synthetic task stream that mimics real use, to pick records that fit
and to skip look-alikes; it has to beat AlwaysSkip and TopOne by a margin on held-out tasks.

The environment: a task has 1-3 decisions. At each, retrieval offers 0-3 records ranked by
similarity. A record *fits* when a hidden rule holds (its condition is specific to this
decision and its similarity exceeds 0.6). Using a fitting record solves the task with
probability 0.95; using a record that does not fit breaks the task (it is solved with
probability 0.05 only); skipping lets the agent solve the task alone at this decision with
probability 0.35, else the task goes on to its next decision or, at the last one, fails.
Look-alikes (high similarity, universal condition) make retrieval rank misleading, so TopOne is
often wrong; reuse counters are noise. Rewards come from `reward()` with the default weights,
at the task's end.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pytest

from countermem.selector import (
    SKIP,
    AlwaysSkip,
    CandidateFeatures,
    DQNConfig,
    DQNSelector,
    Observation,
    Selector,
    TopOne,
    episode_transitions,
    reward,
)

BASE_P = 0.35
FIT_P = 0.95
HARM_P = 0.05
KINDS = ("fit", "lookalike", "cond_low", "other")
KIND_P = (0.25, 0.35, 0.2, 0.2)


def fits(candidate: CandidateFeatures) -> bool:
    return candidate.condition_specific and candidate.similarity > 0.6


def _candidate(rng: np.random.Generator, kind: str) -> CandidateFeatures:
    sim_range, specific = {
        "fit": ((0.62, 0.95), True),
        "lookalike": ((0.7, 1.0), False),
        "cond_low": ((0.2, 0.58), True),
        "other": ((0.1, 0.6), False),
    }[kind]
    retrieved = int(rng.integers(0, 30))
    selected = int(rng.integers(0, retrieved + 1))
    succeeded = int(rng.integers(0, selected + 1))
    harmed = int(rng.integers(0, selected - succeeded + 1))
    return CandidateFeatures(
        similarity=float(rng.uniform(*sim_range)),
        utility_gain=float(rng.uniform(0.05, 1.0)),
        retrieved=retrieved,
        selected=selected,
        succeeded=succeeded,
        harmed=harmed,
        condition_specific=specific,
        same_benchmark=bool(rng.random() < 0.5),
        age=float(rng.uniform(0, 100)),
    )


def _observation(rng: np.random.Generator, step: int) -> Observation:
    n = int(rng.choice(4, p=[0.1, 0.3, 0.3, 0.3]))
    kinds = rng.choice(len(KINDS), size=n, p=KIND_P)
    candidates = sorted((_candidate(rng, KINDS[k]) for k in kinds), key=lambda c: -c.similarity)
    return Observation(
        step=step,
        trial=0,
        last_utility=0.0 if step == 0 else float(rng.uniform(0, 0.5)),
        last_check_failed=step > 0,
        n_eligible=n + int(rng.integers(0, 5)),
        candidates=tuple(candidates),
    )


@dataclass
class TaskResult:
    observations: list[Observation]
    actions: list[int]
    reward: float
    solved: bool
    lookalike_offered: bool
    used_nonfitting: bool


def run_task(selector: Selector, seed: int) -> TaskResult:
    """One task; candidates come from a per-task stream so every policy sees the same decisions."""
    world = np.random.default_rng([seed, 0])
    luck = np.random.default_rng([seed, 1])
    n_decisions = int(world.choice([1, 2, 3], p=[0.4, 0.35, 0.25]))
    observations: list[Observation] = []
    actions: list[int] = []
    records_used, solved, used_nonfitting, lookalike = 0, False, False, False
    for step in range(n_decisions):
        observation = _observation(world, step)
        lookalike |= any(c.similarity > 0.6 and not fits(c) for c in observation.candidates)
        action = selector.choose(observation)
        observations.append(observation)
        actions.append(action)
        draw = luck.random()
        if action != SKIP:
            records_used += 1
            used = observation.candidates[action]
            used_nonfitting |= not fits(used)
            solved = draw < (FIT_P if fits(used) else HARM_P)
            break
        if draw < BASE_P:
            solved = True
            break
    calls = len(actions)
    failed = calls - 1 + (0 if solved else 1)
    tokens = 1500 * calls + 400 * records_used
    value = reward(solved, evaluator_calls=calls, failed_attempts=failed, tokens=tokens)
    return TaskResult(observations, actions, value, solved, lookalike, used_nonfitting)


def train(selector: DQNSelector, n_decisions: int, seed: int) -> int:
    decisions, task = 0, 0
    while decisions < n_decisions:
        result = run_task(selector, seed * 1_000_003 + task)
        for transition in episode_transitions(result.observations, result.actions, result.reward):
            selector.observe(transition)
            selector.update()
        decisions += len(result.actions)
        task += 1
    return task


def evaluate(selector: Selector, n_tasks: int, seed: int) -> tuple[float, float, float, float]:
    """Mean reward, success rate, share of tasks with a look-alike, share using a non-fitting record."""
    results = [run_task(selector, seed * 1_000_003 + 10**9 + t) for t in range(n_tasks)]
    return (
        float(np.mean([r.reward for r in results])),
        float(np.mean([r.solved for r in results])),
        float(np.mean([r.lookalike_offered for r in results])),
        float(np.mean([r.used_nonfitting for r in results])),
    )


class Oracle:
    """Knows the hidden rule: the ceiling a selector can reach here."""

    name = "oracle"

    def choose(self, observation: Observation) -> int:
        return next((i for i, c in enumerate(observation.candidates) if fits(c)), SKIP)


TRAIN_DECISIONS = 2000
HELD_OUT_TASKS = 1000


def test_dqn_learns_to_pick_fitting_records_and_skip_lookalikes() -> None:
    selector = DQNSelector(DQNConfig(seed=7, epsilon_decay_steps=TRAIN_DECISIONS // 2))
    started = time.process_time()
    tasks = train(selector, n_decisions=TRAIN_DECISIONS, seed=1)
    cpu = time.process_time() - started
    selector.eval()
    dqn = evaluate(selector, HELD_OUT_TASKS, seed=2)
    skip = evaluate(AlwaysSkip(), HELD_OUT_TASKS, seed=2)
    top = evaluate(TopOne(), HELD_OUT_TASKS, seed=2)
    oracle = evaluate(Oracle(), HELD_OUT_TASKS, seed=2)
    print(
        f"\ntrained on {tasks} tasks / {TRAIN_DECISIONS} decisions in {cpu:.1f}s CPU; {selector.train_step_stats}\n"
        f"held-out {HELD_OUT_TASKS} tasks (look-alike offered in {dqn[2]:.0%}):\n"
        f"  oracle reward {oracle[0]:.3f} success {oracle[1]:.3f}\n"
        f"  dqn  reward {dqn[0]:.3f} success {dqn[1]:.3f} non-fitting use {dqn[3]:.3f}\n"
        f"  skip reward {skip[0]:.3f} success {skip[1]:.3f} non-fitting use {skip[3]:.3f}\n"
        f"  top1 reward {top[0]:.3f} success {top[1]:.3f} non-fitting use {top[3]:.3f}"
    )
    assert dqn[2] > 0.3, "held-out tasks must include look-alikes for the comparison to mean anything"
    assert dqn[0] >= skip[0] + 0.1
    assert dqn[0] >= top[0] + 0.1
    assert dqn[3] < 0.15, "the greedy DQN still uses records that do not fit"


if __name__ == "__main__":
    pytest.main([__file__, "-q", "-s"])
