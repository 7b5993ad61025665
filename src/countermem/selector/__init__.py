"""Selector: at each decision, use one of at most 3 retrieved records or skip memory.

Sits below `memory` (which builds observations from records and reports outcomes); imports only
core, numpy and torch.
"""

from countermem.selector._dqn import CHECKPOINT_FORMAT, DQNConfig, DQNSelector, TrainStepStats, file_sha256
from countermem.selector._fixed import AlwaysSkip, RandomChoice, TopOne
from countermem.selector._observation import (
    CANDIDATE_FEATURES,
    DECISION_FEATURES,
    MAX_CANDIDATES,
    CandidateFeatures,
    Observation,
    action_to_choice,
    choice_to_action,
    encode,
    encoded_size,
)
from countermem.selector._protocol import SKIP, Selector, TrainableSelector, Transition, episode_transitions
from countermem.selector._reward import RewardWeights, reward

__all__ = [
    "CANDIDATE_FEATURES",
    "CHECKPOINT_FORMAT",
    "DECISION_FEATURES",
    "MAX_CANDIDATES",
    "SKIP",
    "AlwaysSkip",
    "CandidateFeatures",
    "DQNConfig",
    "DQNSelector",
    "Observation",
    "RandomChoice",
    "RewardWeights",
    "Selector",
    "TopOne",
    "TrainStepStats",
    "TrainableSelector",
    "Transition",
    "action_to_choice",
    "choice_to_action",
    "encode",
    "encoded_size",
    "episode_transitions",
    "file_sha256",
    "reward",
]
