"""ReasoningBank as two memory hooks: one that learns strategies (construct), one that offers them.

`StrategyLearner` never advises. It rebuilds each run's trajectory from what the agent shows a
hook: every decision after a failed check carries the checked action and its result, and the
outcome carries the final answer. At `feedback` the run is labelled, by the LLM judge (the
method: no verification) or by the checker (`outcome.solved`, the "with verified feedback"
variant), and once a task has `scaling` runs (MaTTS parallel scaling: the lead runs the agent k
times per task with different seeds) the distiller makes at most 3 items from them, with the
self-contrast prompt when k > 1, and they go into the bank. A passed intermediate check is not
seen by a hook (agents only ask for advice after a failed one), so it is missing from the
trajectory; the final answer is always there.

`StrategyMemory` embeds the decision with the same embedders as `Retriever`, ranks the items of
the decision's domain (or benchmark) by cosine similarity, and ALWAYS injects the top k (default
1): ReasoningBank has no selector, no conditions and no verification. An item is keyed by its own
text (`key="item"`, default) or, as in ReasoningBank, which retrieves past experiences by the
similarity of their task to the current one, by the task it was distilled from (`key="task"`;
items of one task then tie, and the id decides). Exact ties go to the item id, so the order does
not depend on insertion order. It advises before the first action of each
trial and, only with `advise_after_failed_check=True`, after a failed check.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from countermem.baselines._bank import StrategyBank, StrategyItem
from countermem.baselines._distill import StrategyDistiller, Trajectory, TrajectoryStep
from countermem.core import Advice, ConfigError, Decision, Outcome, Usage
from countermem.memory import Embedder, RetrievalScope, decision_text, normalize_rows
from countermem.memory._embedding import FloatRows

StrategyKey = Literal["item", "task"]

STRATEGY_BLOCK_HEADER = (
    "Memory items distilled from earlier attempts (strategies, not checked; use one only if it fits):"
)


@dataclass
class StrategyLearnerStats:
    """Construction figures; `usage` is the distiller's total (judge and distill calls)."""

    tasks: int = 0
    trajectories: int = 0
    items_added: int = 0
    items_duplicate: int = 0
    judge_calls: int = 0
    judged_success: int = 0
    judge_agrees: int = 0
    """Judged runs whose label equals the checker's (`outcome.solved`): the judge's accuracy."""
    usage: Usage = field(default_factory=Usage)


@dataclass
class _Run:
    situation: str = ""
    steps: list[TrajectoryStep] = field(default_factory=list)


class StrategyLearner:
    """A `MemoryHook` for the construct stage: judges runs, distills strategy items, never advises."""

    def __init__(
        self,
        distiller: StrategyDistiller,
        bank: StrategyBank,
        *,
        verified_feedback: bool = False,
        scaling: int = 1,
    ) -> None:
        if scaling < 1:
            raise ConfigError(f"scaling (runs per task for MaTTS) must be at least 1, got {scaling}")
        if bank.read_only:
            raise ConfigError(f"the strategy bank {bank.path} is read-only; the learner adds items to it")
        self.distiller = distiller
        self.bank = bank
        self.verified_feedback = verified_feedback
        self.scaling = scaling
        self.stats = StrategyLearnerStats()
        self._runs: dict[str, _Run] = {}
        self._done: dict[str, list[tuple[Trajectory, bool]]] = {}
        self._task_text: dict[str, str] = {}

    @property
    def waiting(self) -> dict[str, int]:
        """Tasks with fewer than `scaling` finished runs, and how many they have."""
        return {task_id: len(runs) for task_id, runs in self._done.items()}

    def advise(self, decision: Decision) -> Advice | None:
        run = self._runs.setdefault(decision.task.id, _Run())
        self._task_text.setdefault(decision.task.id, decision.situation)
        action, result = decision.last_action, decision.last_result
        if action is not None and result is not None:
            run.steps.append(
                TrajectoryStep(
                    trial=decision.trial,
                    action=action.content,
                    status=result.status,
                    utility=result.utility,
                    observation=result.details,
                )
            )
        return None

    def feedback(self, decision: Decision, advice: Advice | None, outcome: Outcome) -> None:
        task = decision.task
        run = self._runs.pop(task.id, _Run())
        task_text = self._task_text.get(task.id, decision.situation)
        trajectory = Trajectory(
            task_id=task.id,
            domain=task.domain,
            benchmark=task.benchmark,
            steps=tuple(run.steps),
            final_action=outcome.final_action.content if outcome.final_action is not None else None,
        )
        if self.verified_feedback:
            label = outcome.solved
        else:
            label = self.distiller.judge(task_text, trajectory)
            self.stats.judge_calls += 1
            self.stats.judge_agrees += int(label == outcome.solved)
        self.stats.judged_success += int(label)
        self.stats.trajectories += 1
        done = self._done.setdefault(task.id, [])
        done.append((trajectory, label))
        if len(done) >= self.scaling:
            self._distill(task.id)
        self.stats.usage = self.distiller.usage_total

    def flush(self) -> int:
        """Distill tasks that got fewer than `scaling` runs (e.g. a run was lost); returns how many."""
        pending = list(self._done)
        for task_id in pending:
            self._distill(task_id)
        self.stats.usage = self.distiller.usage_total
        return len(pending)

    def _distill(self, task_id: str) -> None:
        done = self._done.pop(task_id)
        task_text = self._task_text.pop(task_id, "")
        items = self.distiller.distill(
            task_text,
            [trajectory for trajectory, _ in done],
            [label for _, label in done],
            label_source="checker" if self.verified_feedback else "llm_judge",
        )
        added = self.bank.add(items)
        self.stats.tasks += 1
        self.stats.items_added += len(added)
        self.stats.items_duplicate += len(items) - len(added)


@dataclass
class StrategyMemoryStats:
    """Retrieval figures: coverage = covered / attempts (a decision with at least one item in its pool)."""

    attempts: int = 0
    covered: int = 0
    selected: int = 0
    no_candidates: int = 0
    uses: list[tuple[str, str]] = field(default_factory=list)
    """(task id, item id) for every injected item, in order."""

    @property
    def coverage(self) -> float | None:
        return None if self.attempts == 0 else self.covered / self.attempts


def render_strategy_items(items: Sequence[StrategyItem]) -> str:
    """The prompt block of the injected items (ids shown so a transcript names what was used)."""
    parts = [STRATEGY_BLOCK_HEADER]
    for item in items:
        parts.append(f"Memory item {item.id}: {item.title}\n{item.description}\n{item.content}")
    return "\n\n".join(parts)


class StrategyMemory:
    """A `MemoryHook` that always injects the k most similar strategy items (see the module docstring)."""

    def __init__(
        self,
        items: StrategyBank | Sequence[StrategyItem],
        embedder: Embedder,
        *,
        k: int = 1,
        scope: RetrievalScope = "domain",
        key: StrategyKey = "item",
        advise_after_failed_check: bool = False,
    ) -> None:
        if key not in ("item", "task"):
            raise ConfigError(f"unknown strategy key {key!r}; choose item or task")
        if k < 1:
            raise ConfigError(f"strategy retrieval must inject at least 1 item, got k={k}")
        if scope not in ("domain", "benchmark"):
            raise ConfigError(f"unknown retrieval scope {scope!r}; choose domain or benchmark")
        self.items = items
        self.embedder = embedder
        self.k = k
        self.scope: RetrievalScope = scope
        self.key: StrategyKey = key
        self.advise_after_failed_check = advise_after_failed_check
        self.stats = StrategyMemoryStats()
        self._vectors: dict[str, FloatRows] = {}

    def _all(self) -> list[StrategyItem]:
        return self.items.all() if isinstance(self.items, StrategyBank) else list(self.items)

    def retrieve(self, decision: Decision) -> tuple[list[tuple[StrategyItem, float]], int]:
        """The top k (item, cosine) of the decision's pool, best first, and the pool's size."""
        task = decision.task
        pool = [
            item
            for item in self._all()
            if item.domain == task.domain and (self.scope == "domain" or item.benchmark == task.benchmark)
        ]
        if not pool:
            return [], 0
        self._embed_missing(pool)
        matrix = np.stack([self._vectors[item.id] for item in pool]).astype(np.float64)
        text = decision_text(
            decision.situation,
            decision.last_action.content if decision.last_action else None,
            decision.last_result.details if decision.last_result else None,
        )
        query = normalize_rows(self.embedder.embed([text]))[0].astype(np.float64)
        sims = matrix @ query
        order = sorted(range(len(pool)), key=lambda i: (-round(float(sims[i]), 9), pool[i].id))
        return [(pool[i], float(np.clip(sims[i], -1.0, 1.0))) for i in order[: self.k]], len(pool)

    def advise(self, decision: Decision) -> Advice | None:
        if decision.last_result is not None and not self.advise_after_failed_check:
            return None
        if decision.last_result is not None and decision.last_result.passed:
            return None
        top, pool_size = self.retrieve(decision)
        self.stats.attempts += 1
        if not top:
            self.stats.no_candidates += 1
            return None
        self.stats.covered += 1
        self.stats.selected += 1
        first = top[0][0]
        self.stats.uses.append((decision.task.id, first.id))
        return Advice(
            text=render_strategy_items([item for item, _ in top]),
            record_id=first.id,
            candidates=len(top),
            eligible=pool_size,
            details={
                "similarity": round(top[0][1], 4),
                "item_ids": ",".join(item.id for item, _ in top),
                "label": first.label,
            },
            header="",
        )

    def feedback(self, decision: Decision, advice: Advice | None, outcome: Outcome) -> None:
        """ReasoningBank keeps no reuse statistics; outcomes are measured by the study's paired runs."""

    def _embed_missing(self, pool: list[StrategyItem]) -> None:
        missing = [item for item in pool if item.id not in self._vectors]
        if not missing:
            return
        rows = normalize_rows(self.embedder.embed([self._key_text(item) for item in missing]))
        for item, row in zip(missing, rows, strict=True):
            self._vectors[item.id] = row

    def _key_text(self, item: StrategyItem) -> str:
        if self.key == "task" and item.source_task_text:
            return item.source_task_text
        return item.key_text
