"""Checked alternatives without a store: repair a failed action inside the task, then forget it.

Why it exists: it separates two things countermem does, checking local edits and carrying them to
later tasks. This hook does only the first. Right after a FAILED check in the current task it asks
the generator (Module I) for at most 4 local edits of that action, checks each from a fresh reset
of the task's state on its own world model instance (restored before every check, as admission
does), and offers the best one that completed and gained more than `min_gain` (0.05, with the
same float tolerance as admission) as advice for this task, rendered with `render_record_text`
so the simulated backbone can apply it. Conditions are not used: the edit was checked on this very
task, so it is shown as applying `always`.

Nothing persists: state is per task and dropped on the next task or at `feedback`. Its costs are
the task run's, not construction's: the generator's tokens go into `Advice.retrieval_tokens` and
the checks into `Advice.details["world_model_calls"]`, which the agents add to the task's
evaluator calls. An attempt that finds nothing worth offering still reports its costs, in an
Advice with no record. The same failed action (whitespace-normalised) is repaired once per task.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field

from countermem.core import (
    UNIVERSAL_CONDITION_TEXT,
    Action,
    Advice,
    CheckResult,
    ConfigError,
    Decision,
    Outcome,
    Usage,
    render_record_text,
)
from countermem.domains import WorldModel, check_action
from countermem.memory._admission import GAIN_EPSILON, MIN_GAIN
from countermem.memory._generator import (
    MAX_ALTERNATIVES,
    Alternative,
    GenerationRequest,
    Generator,
    RepairMode,
    normalise_action,
)


@dataclass
class CheckedStats:
    """What the hook did over a run: attempts are failed checks it tried to repair."""

    attempts: int = 0
    alternatives: int = 0
    offered: int = 0
    world_model_calls: int = 0
    generator_usage: Usage = field(default_factory=Usage)
    uses: list[tuple[str, str]] = field(default_factory=list)
    """(task id, advice id) for every offered edit, in order."""


class CheckedAlternatives:
    """A `MemoryHook` that offers a checked local edit of the failed action, for this task only."""

    def __init__(
        self,
        generator: Generator,
        world_model_factory: Callable[[], WorldModel],
        *,
        action_language: str,
        max_alternatives: int = MAX_ALTERNATIVES,
        min_gain: float = MIN_GAIN,
        instructions: str = "",
        mode: RepairMode = "edit",
    ) -> None:
        if not 1 <= max_alternatives <= MAX_ALTERNATIVES:
            raise ConfigError(f"max_alternatives must lie in 1..{MAX_ALTERNATIVES}, got {max_alternatives}")
        if not 0.0 <= min_gain < 1.0:
            raise ConfigError(f"min_gain must lie in [0, 1), got {min_gain}; the study uses 0.05")
        self.generator = generator
        self.world_model = world_model_factory()
        self.action_language = action_language
        self.max_alternatives = max_alternatives
        self.min_gain = min_gain
        self.instructions = instructions
        self.mode: RepairMode = mode
        self.stats = CheckedStats()
        self._task_id: str | None = None
        self._repaired: set[str] = set()

    def advise(self, decision: Decision) -> Advice | None:
        failed_action, failed = decision.last_action, decision.last_result
        if failed_action is None or failed is None or failed.passed:
            return None
        if decision.task.id != self._task_id:
            self._forget()
            self._task_id = decision.task.id
        key = normalise_action(failed_action.content)
        if key in self._repaired:
            return None
        self._repaired.add(key)
        self.stats.attempts += 1
        proposal = self.generator.propose(
            GenerationRequest(
                domain=decision.task.domain,
                benchmark=decision.task.benchmark,
                action_language=self.action_language,
                situation=decision.situation,
                failed_action=failed_action,
                failed_result=failed,
                facts=decision.facts,
                max_alternatives=self.max_alternatives,
                instructions=self.instructions,
                mode=self.mode,
                salvaged=decision.salvaged,
            )
        )
        self.stats.generator_usage = self.stats.generator_usage + proposal.usage
        self.stats.alternatives += len(proposal.alternatives)
        checked = self._check_all(decision, proposal.alternatives)
        self.stats.world_model_calls += len(checked)
        gaining = [(alt, result) for alt, result in checked if self._qualifies(result, failed)]
        costs: dict[str, float | int | str] = {"world_model_calls": len(checked)}
        common = {"candidates": len(checked), "eligible": len(gaining), "retrieval_tokens": proposal.usage.total}
        if not gaining:
            return Advice(text="", record_id=None, details={**costs, "choice": "none"}, **common)
        best, result = max(gaining, key=lambda pair: pair[1].utility)
        advice_id = _advice_id(decision.task.id, failed_action, best.action)
        self.stats.offered += 1
        self.stats.uses.append((decision.task.id, advice_id))
        text = render_record_text(
            record_id=advice_id,
            condition=UNIVERSAL_CONDITION_TEXT,
            original=failed_action.content,
            improved=best.action.content,
            lang=self.action_language,
            rationale=best.rationale,
            before=failed.utility,
            after=result.utility,
        )
        details = {**costs, "gain": round(result.utility - failed.utility, 4)}
        return Advice(text=text, record_id=advice_id, details=details, **common)

    def feedback(self, decision: Decision, advice: Advice | None, outcome: Outcome) -> None:
        if outcome.task_id == self._task_id:
            self._forget()

    def _check_all(
        self, decision: Decision, alternatives: list[Alternative]
    ) -> list[tuple[Alternative, CheckResult]]:
        if not alternatives:
            return []
        state = self.world_model.reset(decision.task)
        out: list[tuple[Alternative, CheckResult]] = []
        for alternative in alternatives:
            self.world_model.restore(state)
            out.append((alternative, check_action(self.world_model, alternative.action)))
        return out

    def _qualifies(self, result: CheckResult, failed: CheckResult) -> bool:
        return result.completed and result.utility - failed.utility > self.min_gain + GAIN_EPSILON

    def _forget(self) -> None:
        self._task_id = None
        self._repaired = set()


def _advice_id(task_id: str, original: Action, improved: Action) -> str:
    digest = hashlib.sha256(f"{task_id}\x00{original.content}\x00{improved.content}".encode()).hexdigest()
    return "chk-" + digest[:16]
