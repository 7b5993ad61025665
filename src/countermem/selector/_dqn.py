"""A small DQN that learns when a retrieved record helps and when to skip memory.

Why a DQN and not a bandit: decisions within a task form an episode (a record used at step 1
changes what the agent sees at step 2) and the reward arrives only at the task's end, so the
value of a choice is bootstrapped through the task's later decisions with `gamma`.

Design choices, each for a reason:
- The network is tiny (by default 2 x 64) because the observation is ~40 numbers and training
  sees a few hundred to a few thousand decisions; a larger net only overfits.
- Invalid actions (padded candidate slots) get Q = -inf before every argmax, in choosing and in
  the bootstrap target, so the selector can never answer with an absent candidate.
- Double DQN targets (on by default) damp the over-estimation that a max over noisy Q-values
  causes, which matters when most tasks end after one decision.
- Everything random is seeded from `DQNConfig.seed`: network initialisation under
  `torch.manual_seed` inside a forked RNG (the process's global torch RNG is left untouched),
  exploration and replay sampling from one numpy Generator. Torch runs on one thread
  (`torch.set_num_threads(1)`), which keeps CPU results bit-identical between runs and keeps
  the selector from competing with the agent for cores.
- A checkpoint holds the config, both networks, the optimizer, the counters and the numpy
  generator's state, but not the replay buffer: evaluation only needs the weights, and a
  resumed training starts with an empty buffer (documented rather than hidden). `save` returns
  the sha256 of the written file so a stage manifest can pin it; `load` checks it when given.
"""

from __future__ import annotations

import copy
import hashlib
import io
import json
import os
import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import numpy.typing as npt
import torch
from pydantic import BaseModel, ConfigDict, Field, model_validator
from torch import nn

from countermem.core import ArtifactMismatchError, ConfigError, sha256_file
from countermem.selector._observation import (
    CANDIDATE_FEATURES,
    DECISION_FEATURES,
    MAX_CANDIDATES,
    Observation,
    action_to_choice,
    choice_to_action,
    encode,
    encoded_size,
)
from countermem.selector._protocol import SKIP, Transition

CHECKPOINT_FORMAT = "countermem-dqn-selector/1"


class DQNConfig(BaseModel):
    """Every hyperparameter of the selector; stored inside each checkpoint."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    max_candidates: int = Field(default=MAX_CANDIDATES, ge=1)
    """Candidate slots of the observation (records offered at most per decision)."""
    n_facts: int = Field(default=0, ge=0)
    """Extra decision features a caller supplies (the study supplies none: keep 0)."""
    n_extra: int = Field(default=0, ge=0)
    """Extra features per candidate a caller supplies (the study supplies none: keep 0)."""
    network: Literal["shared", "mlp"] = "shared"
    """`shared`: one candidate scorer for every slot (see `_SharedCandidateQ`); `mlp`: one plain MLP."""
    hidden: tuple[int, ...] = (64, 64)
    """Widths of the hidden layers."""
    gamma: float = Field(default=0.9, ge=0.0, le=1.0)
    """Discount of future rewards."""
    learning_rate: float = Field(default=2e-3, gt=0.0)
    """Adam's learning rate."""
    batch_size: int = Field(default=32, ge=1)
    """Transitions per update."""
    buffer_capacity: int = Field(default=10_000, ge=1)
    """Transitions the replay buffer keeps (oldest dropped first)."""
    learning_starts: int = Field(default=32, ge=1)
    """Updates do nothing until the buffer holds this many transitions (and at least a batch)."""
    fit_updates: int = Field(default=200, ge=0)
    """Updates on the whole replay buffer when training ends (`DQNSelector.fit`), whatever its size:
    a training split too small to reach `learning_starts` (10 tasks give about 10 transitions)
    still teaches the selector what it showed, and the run says how little that was."""
    target_update: Literal["hard", "polyak"] = "hard"
    """How the target network follows the online one: `hard` copies every `target_update_every`
    updates, `polyak` blends after every update at rate `tau`."""
    target_update_every: int = Field(default=50, ge=1)
    """Updates between hard copies of the online network into the target network."""
    tau: float = Field(default=0.01, gt=0.0, le=1.0)
    """Polyak rate: target <- (1 - tau) * target + tau * online after every update."""
    double_dqn: bool = True
    """Double DQN targets: the online network picks the next action, the target network values it."""
    epsilon_start: float = Field(default=1.0, ge=0.0, le=1.0)
    """Exploration rate at the first training decision."""
    epsilon_end: float = Field(default=0.05, ge=0.0, le=1.0)
    """Exploration rate after `epsilon_decay_steps`."""
    epsilon_decay_steps: int = Field(default=2_000, ge=1)
    """Training decisions (with at least one candidate) over which epsilon falls linearly."""
    huber_delta: float = Field(default=1.0, gt=0.0)
    """Where the Huber loss turns from quadratic to linear."""
    grad_clip: float = Field(default=10.0, gt=0.0)
    """Gradient norm clip per update."""
    seed: int = 0
    """Seed of the network's initialisation and of exploration."""

    @model_validator(mode="after")
    def _check(self) -> DQNConfig:
        if not self.hidden or min(self.hidden) < 1:
            raise ValueError(f"hidden must list at least one positive layer width, got {self.hidden}")
        if self.epsilon_end > self.epsilon_start:
            raise ValueError(
                f"epsilon_end ({self.epsilon_end}) must not exceed epsilon_start ({self.epsilon_start})"
            )
        return self

    @property
    def input_size(self) -> int:
        return encoded_size(self.max_candidates, self.n_facts, self.n_extra)

    @property
    def n_actions(self) -> int:
        return 1 + self.max_candidates

    def epsilon_at(self, decisions: int) -> float:
        frac = min(decisions / self.epsilon_decay_steps, 1.0)
        return self.epsilon_start + (self.epsilon_end - self.epsilon_start) * frac


@dataclass(frozen=True)
class TrainStepStats:
    """What a progress display shows: last loss (None before the first update), epsilon, buffer size."""

    loss: float | None
    epsilon: float
    buffer_size: int
    updates: int
    decisions: int
    observed: int | None = None
    """Transitions recorded in training; None for a checkpoint written before they were counted."""


file_sha256 = sha256_file


def _mlp(inputs: int, hidden: tuple[int, ...], outputs: int) -> nn.Sequential:
    layers: list[nn.Module] = []
    width = inputs
    for size in hidden:
        layers += [nn.Linear(width, size), nn.ReLU()]
        width = size
    layers.append(nn.Linear(width, outputs))
    return nn.Sequential(*layers)


class _SharedCandidateQ(nn.Module):
    """Q(skip) from the whole observation; Q(candidate i) from one scorer shared by every slot.

    The scorer sees the decision block, candidate i's block and a one-hot of i (so rank still
    counts); sharing it means a rule learned about a record in slot 0 applies in slots 1 and 2,
    which needs about a third of the experience a plain MLP needs to learn it three times.
    """

    def __init__(self, config: DQNConfig) -> None:
        super().__init__()
        self.decision_width = DECISION_FEATURES + config.n_facts
        self.candidate_width = CANDIDATE_FEATURES + config.n_extra
        self.slots = config.max_candidates
        self.skip = _mlp(config.input_size, config.hidden, 1)
        self.candidate = _mlp(self.decision_width + self.candidate_width + self.slots, config.hidden, 1)
        self.slot_ids: torch.Tensor
        self.register_buffer("slot_ids", torch.eye(self.slots), persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch = x.shape[0]
        decision = x[:, : self.decision_width].unsqueeze(1).expand(batch, self.slots, self.decision_width)
        candidates = x[:, self.decision_width :].reshape(batch, self.slots, self.candidate_width)
        slot_ids = self.slot_ids.unsqueeze(0).expand(batch, self.slots, self.slots)
        scores = self.candidate(torch.cat([decision, candidates, slot_ids], dim=2)).squeeze(2)
        return torch.cat([self.skip(x), scores], dim=1)


def _network(config: DQNConfig) -> nn.Module:
    if config.network == "shared":
        return _SharedCandidateQ(config)
    return _mlp(config.input_size, config.hidden, config.n_actions)


class _ReplayBuffer:
    """A ring buffer of encoded transitions; sampling is uniform with the selector's generator."""

    def __init__(self, capacity: int, input_size: int, n_actions: int) -> None:
        self.capacity = capacity
        self.obs = np.zeros((capacity, input_size), dtype=np.float32)
        self.mask = np.zeros((capacity, n_actions), dtype=np.bool_)
        self.action = np.zeros(capacity, dtype=np.int64)
        self.reward = np.zeros(capacity, dtype=np.float32)
        self.next_obs = np.zeros((capacity, input_size), dtype=np.float32)
        self.next_mask = np.zeros((capacity, n_actions), dtype=np.bool_)
        self.done = np.zeros(capacity, dtype=np.bool_)
        self.size = 0
        self._cursor = 0

    def add(
        self,
        obs: npt.NDArray[np.float32],
        mask: npt.NDArray[np.bool_],
        action: int,
        reward: float,
        next_obs: npt.NDArray[np.float32],
        next_mask: npt.NDArray[np.bool_],
        done: bool,
    ) -> None:
        i = self._cursor
        self.obs[i], self.mask[i], self.action[i], self.reward[i] = obs, mask, action, reward
        self.next_obs[i], self.next_mask[i], self.done[i] = next_obs, next_mask, done
        self._cursor = (i + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)


class DQNSelector:
    """Epsilon-greedy while training, greedy after `eval()`; see the module docstring."""

    def __init__(self, config: DQNConfig | None = None) -> None:
        self.config = config or DQNConfig()
        torch.set_num_threads(1)
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(self.config.seed)
            self.online = _network(self.config)
        self.target = copy.deepcopy(self.online)
        self.target.requires_grad_(False)
        self.optimizer = torch.optim.Adam(self.online.parameters(), lr=self.config.learning_rate)
        self._rng = np.random.default_rng(self.config.seed)
        self._buffer = _ReplayBuffer(
            self.config.buffer_capacity, self.config.input_size, self.config.n_actions
        )
        self._decisions = 0
        self._updates = 0
        self._observed: int | None = 0
        self._last_loss: float | None = None
        self.train_mode = True

    @property
    def name(self) -> str:
        return "dqn"

    def train(self, mode: bool = True) -> None:
        self.train_mode = mode

    def eval(self) -> None:
        self.train_mode = False

    @property
    def epsilon(self) -> float:
        return self.config.epsilon_at(self._decisions)

    @property
    def train_step_stats(self) -> TrainStepStats:
        return TrainStepStats(
            loss=self._last_loss,
            epsilon=self.epsilon,
            buffer_size=self._buffer.size,
            updates=self._updates,
            decisions=self._decisions,
            observed=self._observed,
        )

    def _encode(self, observation: Observation) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        c = self.config
        return encode(observation, c.max_candidates, n_facts=c.n_facts, n_extra=c.n_extra)

    def q_values(self, observation: Observation) -> npt.NDArray[np.float32]:
        """Q per mask index (0 = SKIP, i + 1 = candidate i); -inf where the action is not valid."""
        vector, mask = self._encode(observation)
        with torch.no_grad():
            out = self.online(torch.from_numpy(vector).unsqueeze(0)).squeeze(0)
        q: npt.NDArray[np.float32] = out.numpy().astype(np.float32)
        q[~mask] = -np.inf
        return q

    def choose(self, observation: Observation) -> int:
        if not observation.candidates:
            return SKIP
        q = self.q_values(observation)
        if self.train_mode:
            explore = self._rng.random() < self.epsilon
            self._decisions += 1
            if explore:
                valid = np.flatnonzero(np.isfinite(q))
                return action_to_choice(int(valid[self._rng.integers(0, len(valid))]))
        return action_to_choice(int(np.argmax(q)))

    def _require_training(self, doing: str) -> None:
        if not self.train_mode:
            raise ConfigError(f"the DQN selector is in eval mode (frozen); call .train() before {doing}")

    def observe(self, transition: Transition) -> None:
        self._require_training("recording experience")
        obs, mask = self._encode(transition.observation)
        if transition.done or transition.next_observation is None:
            next_obs, next_mask = np.zeros_like(obs), np.zeros_like(mask)
            next_mask[0] = True
        else:
            next_obs, next_mask = self._encode(transition.next_observation)
        self._buffer.add(
            obs,
            mask,
            choice_to_action(transition.action),
            transition.reward,
            next_obs,
            next_mask,
            transition.done,
        )
        if self._observed is not None:
            self._observed += 1

    def update(self) -> float | None:
        c, buf = self.config, self._buffer
        self._require_training("updating it")
        if buf.size < max(c.learning_starts, c.batch_size):
            return None
        return self._step()

    def fit(self, updates: int | None = None) -> list[float]:
        """`updates` (default `config.fit_updates`) steps on the replay buffer, ignoring `learning_starts`.

        Batches are drawn with replacement, so a buffer smaller than a batch is still used; with an
        empty buffer nothing happens. The losses are returned for the stage report.
        """
        self._require_training("fitting it")
        if self._buffer.size == 0:
            return []
        return [self._step() for _ in range(self.config.fit_updates if updates is None else updates)]

    def _step(self) -> float:
        c, buf = self.config, self._buffer
        idx = self._rng.integers(0, buf.size, size=c.batch_size)
        obs = torch.from_numpy(buf.obs[idx])
        action = torch.from_numpy(buf.action[idx])
        reward = torch.from_numpy(buf.reward[idx])
        next_obs = torch.from_numpy(buf.next_obs[idx])
        next_mask = torch.from_numpy(buf.next_mask[idx])
        done = torch.from_numpy(buf.done[idx])
        q = self.online(obs).gather(1, action.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            target_q = self.target(next_obs).masked_fill(~next_mask, -torch.inf)
            if c.double_dqn:
                pick = self.online(next_obs).masked_fill(~next_mask, -torch.inf).argmax(dim=1, keepdim=True)
                next_value = target_q.gather(1, pick).squeeze(1)
            else:
                next_value = target_q.max(dim=1).values
            next_value = torch.where(done, torch.zeros_like(next_value), next_value)
            y = reward + c.gamma * next_value
        loss = nn.functional.huber_loss(q, y, delta=c.huber_delta)
        self.optimizer.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        nn.utils.clip_grad_norm_(self.online.parameters(), c.grad_clip)
        self.optimizer.step()
        self._updates += 1
        self._sync_target()
        value = float(loss.item())
        self._last_loss = value
        return value

    def _sync_target(self) -> None:
        c = self.config
        if c.target_update == "hard":
            if self._updates % c.target_update_every == 0:
                self.target.load_state_dict(self.online.state_dict())
            return
        with torch.no_grad():
            for t, o in zip(self.target.parameters(), self.online.parameters(), strict=True):
                t.mul_(1.0 - c.tau).add_(o, alpha=c.tau)

    def save(self, path: str | Path) -> str:
        """Write a checkpoint (atomically) and return the sha256 of the written file.

        The bytes are serialised in memory first: torch names the archive after the target file,
        and going through a buffer makes the same state give the same bytes (and hash) whatever
        the file is called.
        """
        path = Path(path)
        payload = {
            "format": CHECKPOINT_FORMAT,
            "config": self.config.model_dump_json(),
            "online": self.online.state_dict(),
            "target": self.target.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "decisions": self._decisions,
            "updates": self._updates,
            "observed": -1 if self._observed is None else self._observed,
            "rng": json.dumps(self._rng.bit_generator.state),
        }
        buffer = io.BytesIO()
        torch.save(payload, buffer)
        data = buffer.getvalue()
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
        return hashlib.sha256(data).hexdigest()

    @classmethod
    def load(cls, path: str | Path, expected_sha256: str | None = None) -> DQNSelector:
        """Read a checkpoint, verify its hash when given, and return the selector in eval mode."""
        path = Path(path)
        if not path.is_file():
            raise ConfigError(f"selector checkpoint {path} does not exist; train a selector or fix the path")
        if expected_sha256 is not None:
            actual = file_sha256(path)
            if actual != expected_sha256:
                raise ArtifactMismatchError(
                    f"selector checkpoint {path} has sha256 {actual}, the manifest pins {expected_sha256}; "
                    "the file changed after the run that wrote it"
                )
        try:
            payload = torch.load(path, map_location="cpu", weights_only=True)
            if not isinstance(payload, dict) or payload.get("format") != CHECKPOINT_FORMAT:
                raise ValueError(f"format is not {CHECKPOINT_FORMAT}")
            selector = cls(DQNConfig.model_validate_json(payload["config"]))
            selector.online.load_state_dict(payload["online"])
            selector.target.load_state_dict(payload["target"])
            selector.optimizer.load_state_dict(payload["optimizer"])
            selector._decisions = int(payload["decisions"])
            selector._updates = int(payload["updates"])
            observed = int(payload.get("observed", -1))
            selector._observed = None if observed < 0 else observed
            selector._rng.bit_generator.state = json.loads(payload["rng"])
        except (ValueError, KeyError, RuntimeError, EOFError, OSError, pickle.UnpicklingError) as error:
            raise ConfigError(
                f"{path} is not a readable countermem DQN selector checkpoint ({error}); save one with DQNSelector.save"
            ) from error
        selector.eval()
        return selector
