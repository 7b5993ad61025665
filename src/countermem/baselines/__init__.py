"""Comparison memories the study runs beside countermem: ReasoningBank and the ablations.

They live beside `countermem.memory`, not inside it, so that the method's package reads as its
pipeline (generate, verify, admit, store, retrieve, advise) and nothing else. A baseline may use
the method's parts (embedders, the record store, admission's condition judge) but the method never
imports a baseline.

- ReasoningBank (Ouyang et al. 2025): strategy items distilled by the LLM from its own judged
  trajectories (`_distill`), kept in their own bank (`_bank`), retrieved by embedding and shown in
  the prompt (`_hooks`). Nothing is checked by a world model.
- Checked alternatives without a store (`_checked`): edits checked and offered inside the failing
  task, then forgotten; the "remove storage" ablation.
- Unverified advice (`_unverified`): countermem's generator and record, stored without any
  world-model call; the "remove verification" ablation.
"""

from countermem.baselines._bank import (
    BANK_FORMAT,
    LabelSource,
    StrategyBank,
    StrategyItem,
    StrategyLabel,
    strategy_id,
)
from countermem.baselines._checked import CheckedAlternatives, CheckedStats
from countermem.baselines._distill import (
    JUDGE_MARKER,
    StrategyDistiller,
    Trajectory,
    TrajectoryStep,
    is_strategy_prompt,
    parse_judgement,
    parse_strategy_items,
)
from countermem.baselines._hooks import (
    STRATEGY_BLOCK_HEADER,
    StrategyKey,
    StrategyLearner,
    StrategyLearnerStats,
    StrategyMemory,
    StrategyMemoryStats,
    render_strategy_items,
)
from countermem.baselines._unverified import UNCHECKED_DETAILS, UnverifiedAdmitter, unchecked_result

__all__ = [
    "BANK_FORMAT",
    "JUDGE_MARKER",
    "STRATEGY_BLOCK_HEADER",
    "UNCHECKED_DETAILS",
    "CheckedAlternatives",
    "CheckedStats",
    "LabelSource",
    "StrategyBank",
    "StrategyDistiller",
    "StrategyItem",
    "StrategyKey",
    "StrategyLabel",
    "StrategyLearner",
    "StrategyLearnerStats",
    "StrategyMemory",
    "StrategyMemoryStats",
    "Trajectory",
    "TrajectoryStep",
    "UnverifiedAdmitter",
    "is_strategy_prompt",
    "parse_judgement",
    "parse_strategy_items",
    "render_strategy_items",
    "strategy_id",
    "unchecked_result",
]
