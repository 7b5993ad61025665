"""Paired measures: a memory run against its no-memory twin (same tasks, same seed).

Rescued, broken and harmful use only mean something when the two runs differ in memory and
nothing else, so `paired_measures` refuses pairs whose configs differ outside the memory
settings (the `memory` dict, which holds the selector settings too, and the `stage`), or
whose task sets differ.

Definitions (docs/measures.md fixes the denominators; these are the paired ones):

- rescued / broken: tasks solved only with memory / only without.
- harmful use: per *selected* record use. Every entry of `TaskOutcome.advice_record_ids`
  is one use (a record used twice in one task counts twice). A use is harmful when the
  with-memory task's final utility is strictly lower than the twin's final utility on the
  same task; equal utilities (ties) are not harm.
- offers: the transcripts' `advice` events. The agent writes one each time the memory hook
  returned advice, and the advisor returns advice only when retrieval found at least one
  candidate, so an advice event is one *offer* of retrieved records to the selector, whether it
  picked one (`record_id` set: a selected use) or skipped. How many records each offer held is
  not in the transcript (`Event` has no candidate count), so the rates below are per offer,
  not per retrieved record.
- action change rate (per offer): the action taken with the offer is the first `check` or
  `submit` of the same trial with a step after the offer's step (so a forced submission of
  an earlier check does not count); the twin's action is found by the same rule in the twin's
  transcript (same trial, first check/submit after that step). The action changed when the
  two contents differ (whitespace-normalised). An offer whose twin has no such action (it had
  already stopped), or that was followed by no action of its own, is not comparable: it is
  counted in `uncomparable_offers` and left out of the denominator.
- harmful change rate (per offer): changed, and the check result of the action taken with
  the offer has strictly lower utility than the twin's.
- reach: of the tasks the twin failed, those where the memory run used a record
  (`reached_failures`) and how many of them it solved (`reached_failures_solved`); the same for
  the tasks the twin solved. A rescue needs a record to reach a failure and then to turn it, so
  these two say which of the two limits the gain.
- retrieval coverage: read from the memory run's `stage.json` (None when it has none).
- tokens: task-run tokens, split reasoning / retrieval / augmentation, of each side over
  the paired tasks; the delta is memory minus no memory.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from countermem.agents import Event, TaskOutcome
from countermem.core import ConfigError
from countermem.experiment._metrics import RunMetrics, TokenSplit
from countermem.experiment._rundir import RunDir, read_transcript, safe_name
from countermem.experiment._stages import StageReport

MEMORY_KEYS = frozenset({"memory", "stage", "method", "attempts", "attempt_temperature"})
"""Config keys allowed to differ between a memory run and its twin."""


class Spread(BaseModel):
    """Mean and sample standard deviation (n-1) over seeds; std is None for a single value."""

    model_config = ConfigDict(frozen=True)

    mean: float
    std: float | None
    n: int


def spread(values: Sequence[float]) -> Spread:
    if not values:
        raise ValueError("spread() needs at least one value")
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return Spread(mean=mean, std=None, n=n)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return Spread(mean=mean, std=math.sqrt(variance), n=n)


class PairedMeasures(BaseModel):
    model_config = ConfigDict(frozen=True)

    with_memory: str
    without: str
    benchmark: str
    simulated: bool
    n_paired: int
    solved_with: int
    solved_without: int
    success_with: float
    success_without: float
    success_delta: float
    """Percentage points, memory minus no memory."""
    rescued: int
    broken: int
    rescued_tasks: list[str]
    broken_tasks: list[str]
    selected_uses: int
    harmful_uses: int
    harmful_use: float | None
    """harmful_uses / selected_uses; None when no record was used."""
    offers: int
    selected_offers: int
    uncomparable_offers: int
    changed_actions: int
    harmful_changes: int
    action_change_rate: float | None
    harmful_change_rate: float | None
    """Both over comparable offers; None when there were none."""
    reached_failures: int
    reached_failures_solved: int
    reached_successes: int
    reached_successes_solved: int
    retrieval_attempts: int | None
    retrieval_coverage: float | None
    tokens_with: TokenSplit
    tokens_without: TokenSplit
    token_delta: int
    token_delta_per_task: float
    evaluator_calls_per_solved_with: float | None
    evaluator_calls_per_solved_without: float | None
    failed_attempts_per_solved_with: float | None
    failed_attempts_per_solved_without: float | None


@dataclass(frozen=True)
class Reach:
    """Reach pooled over pairs: of the tasks the no-memory run failed (solved), how many had a
    record used and how many of those the memory run solved."""

    failed: int
    failures_reached: int
    failures_solved: int
    solved: int
    successes_reached: int
    successes_kept: int

    def describe(self) -> tuple[str, str]:
        """The two cells the reports print: failures reached (solved), successes reached (kept)."""
        return (f"{self.failures_reached} of {self.failed} ({self.failures_solved})",
                f"{self.successes_reached} of {self.solved} ({self.successes_kept})")


def pooled_reach(measures: Sequence[PairedMeasures]) -> Reach:
    return Reach(
        failed=sum(m.n_paired - m.solved_without for m in measures),
        failures_reached=sum(m.reached_failures for m in measures),
        failures_solved=sum(m.reached_failures_solved for m in measures),
        solved=sum(m.solved_without for m in measures),
        successes_reached=sum(m.reached_successes for m in measures),
        successes_kept=sum(m.reached_successes_solved for m in measures),
    )


class _Side:
    """One finished run as the pairing needs it."""

    def __init__(self, run: RunDir | Path, role: str) -> None:
        self.run = run if isinstance(run, RunDir) else RunDir(Path(run))
        self.role = role
        path = self.run.path
        manifest = path / "manifest.json"
        if not manifest.is_file():
            raise ConfigError(f"{path} is not a run directory ({role}): it has no manifest.json")
        self.config: dict[str, object] = json.loads(manifest.read_text()).get("config", {})
        self.metrics = read_metrics(path)
        self.outcomes = {o.task_id: o for o in self.run.finished()}
        self.stage = read_stage(path)

    def events(self, task_id: str) -> list[Event]:
        path = self.run.transcripts / f"{safe_name(task_id)}.jsonl"
        if not path.is_file():
            raise ConfigError(f"{path} is missing: the {self.role} run's transcript of {task_id} is needed")
        return list(read_transcript(path))


def read_metrics(path: Path) -> RunMetrics:
    file = path / "metrics.json"
    if not file.is_file():
        raise ConfigError(f"{path} has no metrics.json: the run did not finish; resume it or remove it")
    try:
        return RunMetrics.model_validate_json(file.read_text())
    except ValidationError as error:
        raise ConfigError(f"{file} is not a valid metrics file: {error.errors()[0]['msg']}") from error


def read_stage(path: Path) -> StageReport | None:
    file = path / "stage.json"
    if not file.is_file():
        return None
    try:
        return StageReport.model_validate_json(file.read_text())
    except ValidationError as error:
        raise ConfigError(f"{file} is not a valid stage report: {error.errors()[0]['msg']}") from error


def paired_measures(with_memory: RunDir | Path, without: RunDir | Path) -> PairedMeasures:
    memory = _Side(with_memory, "with-memory")
    plain = _Side(without, "no-memory")
    _check_configs(memory, plain)
    _check_tasks(memory, plain)
    used = sorted(t for t, o in plain.outcomes.items() if o.advice_record_ids)
    if used:
        raise ConfigError(
            f"the no-memory run {plain.run.path} used memory records on {len(used)} tasks "
            f"(e.g. {used[0]}); pass the run without memory as `without`"
        )
    ids = sorted(memory.outcomes)
    rescued = [t for t in ids if memory.outcomes[t].solved and not plain.outcomes[t].solved]
    broken = [t for t in ids if plain.outcomes[t].solved and not memory.outcomes[t].solved]
    uses = harmful = 0
    for task_id in ids:
        count = len(memory.outcomes[task_id].advice_record_ids)
        uses += count
        if memory.outcomes[task_id].final_utility < plain.outcomes[task_id].final_utility:
            harmful += count
    offers = _offer_comparison(memory, plain, ids)
    reached = [t for t in ids if memory.outcomes[t].advice_record_ids]
    reached_failures = [t for t in reached if not plain.outcomes[t].solved]
    reached_successes = [t for t in reached if plain.outcomes[t].solved]
    with_split, without_split = (_tokens([side.outcomes[t] for t in ids]) for side in (memory, plain))
    solved_with = sum(1 for t in ids if memory.outcomes[t].solved)
    solved_without = sum(1 for t in ids if plain.outcomes[t].solved)
    n = len(ids)
    success_with = 100.0 * solved_with / n if n else 0.0
    success_without = 100.0 * solved_without / n if n else 0.0
    stage = memory.stage
    return PairedMeasures(
        with_memory=str(memory.run.path),
        without=str(plain.run.path),
        benchmark=memory.metrics.benchmark,
        simulated=memory.metrics.simulated or plain.metrics.simulated,
        n_paired=n,
        solved_with=solved_with,
        solved_without=solved_without,
        success_with=success_with,
        success_without=success_without,
        success_delta=success_with - success_without,
        rescued=len(rescued),
        broken=len(broken),
        rescued_tasks=rescued,
        broken_tasks=broken,
        selected_uses=uses,
        harmful_uses=harmful,
        harmful_use=harmful / uses if uses else None,
        offers=offers.offers,
        selected_offers=offers.selected,
        uncomparable_offers=offers.uncomparable,
        changed_actions=offers.changed,
        harmful_changes=offers.harmful,
        action_change_rate=offers.rate(offers.changed),
        harmful_change_rate=offers.rate(offers.harmful),
        reached_failures=len(reached_failures),
        reached_failures_solved=sum(1 for t in reached_failures if memory.outcomes[t].solved),
        reached_successes=len(reached_successes),
        reached_successes_solved=sum(1 for t in reached_successes if memory.outcomes[t].solved),
        retrieval_attempts=stage.retrieval_attempts if stage else None,
        retrieval_coverage=stage.retrieval_coverage if stage else None,
        tokens_with=with_split,
        tokens_without=without_split,
        token_delta=with_split.total - without_split.total,
        token_delta_per_task=(with_split.total - without_split.total) / n if n else 0.0,
        evaluator_calls_per_solved_with=_per_solved(memory, ids, "evaluator_calls"),
        evaluator_calls_per_solved_without=_per_solved(plain, ids, "evaluator_calls"),
        failed_attempts_per_solved_with=_per_solved(memory, ids, "failed_attempts"),
        failed_attempts_per_solved_without=_per_solved(plain, ids, "failed_attempts"),
    )


def _check_configs(memory: _Side, plain: _Side) -> None:
    keys = (set(memory.config) | set(plain.config)) - MEMORY_KEYS
    differing = sorted(k for k in keys if memory.config.get(k) != plain.config.get(k))
    if differing:
        detail = ", ".join(f"{k}: {memory.config.get(k)!r} vs {plain.config.get(k)!r}" for k in differing)
        raise ConfigError(
            f"{memory.run.path} and {plain.run.path} are not twins: their configs differ in {detail}; "
            "a paired comparison needs the same settings except memory"
        )


def _check_tasks(memory: _Side, plain: _Side) -> None:
    only_memory = sorted(set(memory.outcomes) - set(plain.outcomes))
    only_plain = sorted(set(plain.outcomes) - set(memory.outcomes))
    if only_memory or only_plain:
        parts = []
        if only_memory:
            parts.append(f"only in the memory run: {_some(only_memory)}")
        if only_plain:
            parts.append(f"only in the no-memory run: {_some(only_plain)}")
        raise ConfigError(
            f"{memory.run.path} and {plain.run.path} ran different tasks ({'; '.join(parts)}); "
            "finish both runs on the same tasks (--resume) before pairing them"
        )


def _some(ids: list[str], shown: int = 5) -> str:
    more = f" and {len(ids) - shown} more" if len(ids) > shown else ""
    return ", ".join(ids[:shown]) + more


class _Offers:
    def __init__(self) -> None:
        self.offers = self.selected = self.uncomparable = self.changed = self.harmful = 0

    def rate(self, count: int) -> float | None:
        comparable = self.offers - self.uncomparable
        return count / comparable if comparable else None


def _offer_comparison(memory: _Side, plain: _Side, ids: list[str]) -> _Offers:
    tally = _Offers()
    for task_id in ids:
        events = memory.events(task_id)
        advice = [e for e in events if e.kind == "advice"]
        if not advice:
            continue
        twin = plain.events(task_id)
        for offer in advice:
            tally.offers += 1
            tally.selected += int(offer.record_id is not None)
            mine, theirs = _next_action(events, offer), _next_action(twin, offer)
            if mine is None or theirs is None:
                tally.uncomparable += 1
                continue
            assert mine.action is not None and theirs.action is not None
            assert mine.result is not None and theirs.result is not None
            if _normalise(mine.action.content) == _normalise(theirs.action.content):
                continue
            tally.changed += 1
            if mine.result.utility < theirs.result.utility:
                tally.harmful += 1
    return tally


def _next_action(events: list[Event], offer: Event) -> Event | None:
    for event in events:
        if (
            event.kind in ("check", "submit")
            and event.trial == offer.trial
            and event.step > offer.step
            and event.action is not None
            and event.result is not None
        ):
            return event
    return None


def _normalise(content: str) -> str:
    return " ".join(content.split())


def _tokens(outcomes: list[TaskOutcome]) -> TokenSplit:
    reasoning = sum(o.reasoning_tokens for o in outcomes)
    retrieval = sum(o.retrieval_tokens for o in outcomes)
    augmentation = sum(o.augmentation_tokens for o in outcomes)
    return TokenSplit(
        reasoning=reasoning, retrieval=retrieval, augmentation=augmentation,
        total=reasoning + retrieval + augmentation,
    )


def _per_solved(side: _Side, ids: list[str], field: str) -> float | None:
    solved = sum(1 for t in ids if side.outcomes[t].solved)
    if solved == 0:
        return None
    total: int = sum(getattr(side.outcomes[t], field) for t in ids)
    return total / solved
