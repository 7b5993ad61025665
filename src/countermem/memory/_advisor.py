"""The memory hook an agent consults: retrieve, select, render — or skip — and learn from outcomes.

At a decision, retrieval offers at most k records whose conditions hold; the selector sees a
compressed observation (no history, no text) and picks one or SKIP; the chosen record is
rendered in the shared advice format. When a task ends, the outcome becomes the reward of the
task's decisions (one episode) for a trainable selector, and reuse counters are written to a
writable store. A frozen evaluation store is never written: counters then stay in this
object's ledger.

One object may be shared by threads: `advise`, `feedback`, `mark_harmed` and `refresh` hold its
lock (the retriever, the selector and the statistics are not thread-safe on their own), and the
store has a lock of its own. Text that no file or model can encode (a lone surrogate) is refused
at `advise` with a `ConfigError`, before anything is embedded or counted.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from countermem.core import (
    UNIVERSAL_CONDITION_TEXT,
    Action,
    Advice,
    ConfigError,
    Decision,
    Outcome,
    is_malformed,
    render_compact_text,
    render_final_line_text,
    render_form_repair_text,
    render_lesson_text,
    render_record_text,
)
from countermem.memory._form_repair import applied_form_repair, is_final_line_repair, is_form_repair
from countermem.memory._generator import is_own_block
from countermem.memory._lesson import has_verified_lesson
from countermem.memory._pgstore import PostgresStore
from countermem.memory._record import Record
from countermem.memory._retrieval import RetrievalQuery, RetrievalResult, Retriever
from countermem.memory._store import SQLiteStore
from countermem.selector import (
    SKIP,
    CandidateFeatures,
    Observation,
    RewardWeights,
    Selector,
    TrainableSelector,
    episode_transitions,
    reward,
)

AdviceLifetime = Literal["task", "reply"]
Rendering = Literal["correction", "compact", "lesson"]
"""correction: the source task's mistake and correction; compact: the correction alone; lesson:
the verified lesson alone (records without one are not offered)."""


class AdvisorOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    show_condition: bool = True
    """False for the 'no applicability conditions' ablation: the rendered record says `always`."""
    show_task: bool = False
    """Show the record's source task (`Past task:`). Off by default: measured once on sql-shop
    (no gain there), and it shifts the simulated bed's outcomes, so it stays opt-in until it pays."""
    write_counters: bool = True
    """Write reuse counters to the store (ignored for a read-only store)."""
    train_selector: bool = False
    """Feed outcomes to a trainable selector and take learning steps."""
    updates_per_task: int = 4
    header: str | None = None
    """Line above the rendered record; None keeps the agent's verified-corrections header."""
    advise_after_failed_check: bool = True
    rendering: Rendering = "correction"
    """lesson: a content record is shown as its verified lesson (`countermem.memory._lesson`) and
    never as the source task's code; records with no verified lesson are not offered (form
    repairs still are, applied to the agent's own answer)."""
    max_advice_tokens: int | None = Field(default=None, ge=16)
    """Most tokens one offered record may add to a prompt (counted with the agent's tokenizer);
    a longer rendering falls back to the record's verified lesson, then to its correction alone,
    and a record still over the cap is not shown (`AdvisorStats.over_budget`). None: no cap."""
    repeat_offers: bool = True
    """False: a record offered once in a task is not offered again in that task (a record the
    agent followed and still failed with, or ignored, was offered again after each failed
    check and copied again; issue 24)."""
    advice_lifetime: AdviceLifetime = "task"
    """How long an offered record stays in the agent's prompt: `task` (to the end of the trial,
    paid again at every later model call) or `reply` (for the one model reply it informs, then
    taken out; `Advice.expires`). In the humaneval form cell the advice carried to later steps was
    most of memory's token overhead (docs/results.md)."""
    answer_once: bool = False
    """True: advice that shows the agent's own last answer (a form repair applied to it) says so
    (`Advice.holds_last_answer`), and the agent drops that answer's copy from its history. The
    before-and-after rendering stays (it is what made the 0.5B write a well-formed answer); what
    goes is the third copy, which every later step paid for."""
    offer_at_start: bool = True
    """False: no record before the agent's first action of a trial, only once it has an action
    that failed to correct. A record offered at the start corrects a mistake the agent has not
    made: with the 1.5B as agent on sql-shop look-alikes, every offer that broke a task it solves
    alone came before its first action (docs/results.md, issue 24)."""


@dataclass
class AdvisorStats:
    """What this advisor did, for the coverage and usage measures."""

    attempts: int = 0
    covered: int = 0
    selected: int = 0
    skipped: int = 0
    no_candidates: int = 0
    over_budget: int = 0
    """Selected records not shown because every rendering exceeded `max_advice_tokens`."""
    retrieval_tokens: int = 0
    losses: list[float] = field(default_factory=list)
    uses: list[tuple[str, str]] = field(default_factory=list)
    """(task id, record id) for every selected use, in order."""

    @property
    def coverage(self) -> float | None:
        return None if self.attempts == 0 else self.covered / self.attempts


@dataclass
class _Pending:
    observations: list[Observation] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    chosen: list[str] = field(default_factory=list)


def require_text(text: str, what: str) -> None:
    """Refuse text with a lone surrogate: it cannot be encoded for an embedder, a file or a model."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ConfigError(
            f"{what} holds a lone surrogate ({text[error.start]!r} at position {error.start}), which "
            "cannot be encoded; decode the source text with errors='replace'"
        ) from None


def require_decision(decision: object) -> None:
    """A `Decision` whose texts can be encoded, or a `ConfigError` that says what is wrong."""
    if not isinstance(decision, Decision):
        raise ConfigError(f"advise needs a countermem.Decision, got {type(decision).__name__}")
    require_text(decision.situation, "the decision's situation")
    require_text(decision.task.prompt, "the task's prompt")
    if decision.last_action is not None:
        require_text(decision.last_action.content, "the last action")
    if decision.last_result is not None:
        require_text(decision.last_result.details, "the last check's details")
    for name, value in decision.facts.values.items():
        require_text(name, "a fact name")
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, str):
                require_text(item, f"fact {name!r}")


def candidate_features(result: RetrievalResult) -> tuple[CandidateFeatures, ...]:
    """What the selector may know of each offered record (clipped to its declared ranges)."""
    return tuple(
        CandidateFeatures(
            similarity=max(-1.0, min(1.0, c.similarity)),
            utility_gain=max(-1.0, min(1.0, c.record.utility_gain)),
            retrieved=c.record.counters.retrieved,
            selected=c.record.counters.selected,
            succeeded=c.record.counters.succeeded,
            harmed=c.record.counters.harmed,
            condition_specific=c.condition_specific,
            same_benchmark=c.same_benchmark,
        )
        for c in result.candidates
    )


def observation_for(decision: Decision, result: RetrievalResult) -> Observation:
    candidates = candidate_features(result)
    last = decision.last_result
    return Observation(
        step=decision.step,
        trial=decision.trial,
        last_utility=last.utility if last else 0.0,
        last_check_failed=bool(last is not None and not last.passed),
        n_eligible=max(result.n_eligible, len(candidates)),
        candidates=candidates,
    )


def _malformed_answer(decision: Decision) -> Action | None:
    """The agent's last answer when it was malformed."""
    return decision.last_action if is_malformed(decision.last_result) else None


def _repairable_answer(decision: Decision) -> Action | None:
    """What a form repair is shown applied to: the last answer when it was malformed, or when its
    check failed on form alone (the agent then set `Decision.salvaged`)."""
    last = decision.last_result
    if is_malformed(last) or (decision.salvaged is not None and last is not None and not last.passed):
        return decision.last_action
    return None


def _shows_last_answer(record: Record, decision: Decision) -> bool:
    """A form repair shows the whole last answer only when that answer's action was its code block;
    a stated answer's repair shows its last line, so the working stays in the agent's history."""
    last = _malformed_answer(decision)
    applied = applied_form_repair(record, last, decision.salvaged)
    return applied is not None and last is not None and is_own_block(last.content, applied)


def render_record(
    record: Record,
    action_language: str,
    show_condition: bool = True,
    show_task: bool = False,
    last_action: Action | None = None,
    rendering: Rendering = "correction",
    salvaged: str | None = None,
) -> str:
    """The record's prompt text; a form repair is shown applied to `last_action` when that is a
    malformed answer holding an action or a check failed on form alone, `salvaged`
    (`countermem.memory._form_repair`)."""
    condition = str(record.condition) if show_condition else UNIVERSAL_CONDITION_TEXT
    own_block = applied_form_repair(record, last_action, salvaged)
    if own_block is not None and last_action is not None:
        before, after = record.original_check.utility, record.improved_check.utility
        if is_final_line_repair(record):
            return render_final_line_text(record.id, condition, own_block, action_language, before, after)
        own_answer = is_own_block(last_action.content, own_block)
        return render_form_repair_text(record.id, condition, own_block, action_language, before, after,
                                       answer=None if own_answer else last_action.content)
    if rendering == "lesson" and record.lesson is not None and record.lesson.verified:
        return render_lesson_text(
            record_id=record.id,
            condition=condition,
            lesson=record.lesson.text,
            before=record.original_check.utility,
            after=record.improved_check.utility,
            domain=record.domain,
        )
    if rendering == "compact":
        return render_compact_text(
            record_id=record.id,
            condition=condition,
            improved=record.improved_action.content,
            lang=action_language,
            rationale=record.rationale,
            before=record.original_check.utility,
            after=record.improved_check.utility,
        )
    return render_record_text(
        record_id=record.id,
        condition=condition,
        original=record.original_action.content,
        improved=record.improved_action.content,
        lang=action_language,
        rationale=record.rationale,
        before=record.original_check.utility,
        after=record.improved_check.utility,
        task=record.task_brief if show_task else "",
        answer_form=is_malformed(record.original_check),
    )


class CounterfactualMemory:
    """A `MemoryHook` over a retriever and a selector."""

    def __init__(
        self,
        retriever: Retriever,
        selector: Selector,
        *,
        action_language: str,
        store: SQLiteStore | PostgresStore | None = None,
        options: AdvisorOptions | None = None,
        reward_weights: RewardWeights | None = None,
        token_counter: Callable[[str], int] | None = None,
    ) -> None:
        if options is not None and options.max_advice_tokens is not None and token_counter is None:
            raise ConfigError("max_advice_tokens needs the agent's token counter (token_counter=...)")
        self.token_counter = token_counter
        self.retriever = retriever
        self.selector = selector
        self.action_language = action_language
        self.store = store
        self.options = options or AdvisorOptions()
        self.reward_weights = reward_weights or RewardWeights()
        self.stats = AdvisorStats()
        self._pending: dict[str, _Pending] = {}
        self._offered: dict[str, set[str]] = {}
        """Per task in progress, the records shown so far (`repeat_offers`)."""
        self._mutex = threading.RLock()

    def refresh(self) -> None:
        """Bring retrieval in line with the store (after records were added through another path)."""
        with self._mutex:
            self.retriever.refresh()

    def advise(self, decision: Decision) -> Advice | None:
        require_decision(decision)
        with self._mutex:
            return self._advise(decision)

    def _advise(self, decision: Decision) -> Advice | None:
        if decision.last_result is not None and not self.options.advise_after_failed_check:
            return None
        if decision.last_action is None and not self.options.offer_at_start:
            return None
        query = RetrievalQuery.for_decision(
            situation=decision.situation,
            facts=decision.facts,
            domain=decision.task.domain,
            benchmark=decision.task.benchmark,
            last_action=decision.last_action.content if decision.last_action else None,
            last_observation=decision.last_result.details if decision.last_result else None,
            question=decision.task.prompt,
        )
        result = self._offerable(self.retriever.retrieve(query), decision.task.id)
        self.stats.attempts += 1
        self.stats.covered += int(result.any_eligible)
        self.stats.retrieval_tokens += result.retrieval_tokens
        if not result.candidates:
            self.stats.no_candidates += 1
            return None
        observation = observation_for(decision, result)
        choice = self.selector.choose(observation)
        common = {
            "candidates": len(result.candidates),
            "eligible": result.n_eligible,
            "retrieval_tokens": result.retrieval_tokens,
        }
        text = None if choice == SKIP else self._within_budget(result.candidates[choice].record, decision)
        over_budget = choice != SKIP and text is None
        if over_budget:
            self._offered.setdefault(decision.task.id, set()).add(result.candidates[choice].record.id)
            choice = SKIP  # nothing was shown: for counters and the selector's episode, a skip
        pending = self._pending.setdefault(decision.task.id, _Pending())
        pending.observations.append(observation)
        pending.actions.append(choice)
        self._count(result, choice)
        if choice == SKIP:
            self.stats.skipped += int(not over_budget)
            self.stats.over_budget += int(over_budget)
            reason = "over_budget" if over_budget else "skip"
            return Advice(text="", record_id=None, details={"choice": reason}, **common)
        assert text is not None
        chosen = result.candidates[choice]
        pending.chosen.append(chosen.record.id)
        self.stats.selected += 1
        self.stats.uses.append((decision.task.id, chosen.record.id))
        self._offered.setdefault(decision.task.id, set()).add(chosen.record.id)
        return Advice(
            text=text,
            record_id=chosen.record.id,
            details={"similarity": round(chosen.similarity, 4), "rank": chosen.rank},
            header=self.options.header,
            expires=self.options.advice_lifetime == "reply",
            holds_last_answer=self.options.answer_once and _shows_last_answer(chosen.record, decision),
            **common,
        )

    def _within_budget(self, record: Record, decision: Decision) -> str | None:
        """The record's text in the configured rendering, or a shorter one within the token cap."""
        last = _repairable_answer(decision)
        options = self.options
        fallbacks: list[Rendering] = [options.rendering]
        if options.max_advice_tokens is not None:
            fallbacks += [r for r in ("lesson", "compact") if r not in fallbacks]
        for rendering in fallbacks:
            if rendering == "lesson" and not has_verified_lesson(record) and options.rendering != "lesson":
                continue
            text = render_record(record, self.action_language, options.show_condition, options.show_task,
                                 last_action=last, rendering=rendering,
                                 salvaged=decision.salvaged if last is not None else None)
            if options.max_advice_tokens is None or self._tokens(text) <= options.max_advice_tokens:
                return text
        return None

    def _tokens(self, text: str) -> int:
        assert self.token_counter is not None
        return self.token_counter(text)

    def _offerable(self, result: RetrievalResult, task_id: str) -> RetrievalResult:
        """Without records this advisor may not show here (retired, no verified lesson, already shown);
        eligibility (coverage) is the retriever's: a withheld record still held its condition."""
        shown = self._offered.get(task_id, set()) if not self.options.repeat_offers else set()
        lesson_only = self.options.rendering == "lesson"
        kept = tuple(
            c for c in result.candidates
            if c.record.live and c.record.id not in shown
            and (not lesson_only or has_verified_lesson(c.record) or is_form_repair(c.record))
        )
        if len(kept) == len(result.candidates):
            return result
        return replace(
            result,
            candidates=tuple(replace(c, rank=i) for i, c in enumerate(kept)),
        )

    def feedback(self, decision: Decision, advice: Advice | None, outcome: Outcome) -> None:
        if not isinstance(outcome, Outcome):
            raise ConfigError(f"feedback needs a countermem.Outcome, got {type(outcome).__name__}")
        with self._mutex:
            self._feedback(outcome)

    def _feedback(self, outcome: Outcome) -> None:
        self._offered.pop(outcome.task_id, None)
        pending = self._pending.pop(outcome.task_id, None)
        if pending is None or not pending.observations:
            return
        if self._writable():
            assert self.store is not None
            for record_id in dict.fromkeys(pending.chosen):
                if outcome.solved and self._in_store(record_id):
                    self.store.update_counters(record_id, succeeded=1)
        if self.options.train_selector and isinstance(self.selector, TrainableSelector):
            value = reward(
                solved=outcome.solved,
                evaluator_calls=outcome.evaluator_calls,
                failed_attempts=outcome.failed_attempts,
                tokens=outcome.tokens,
                weights=self.reward_weights,
            )
            for transition in episode_transitions(pending.observations, pending.actions, value):
                self.selector.observe(transition)
            for _ in range(self.options.updates_per_task):
                loss = self.selector.update()
                if loss is not None:
                    self.stats.losses.append(loss)

    def mark_harmed(self, record_id: str) -> None:
        """Called by a study that paired this run with a no-memory run and saw the record do harm."""
        with self._mutex:
            if self._writable() and self._in_store(record_id):
                assert self.store is not None
                self.store.update_counters(record_id, harmed=1)

    def _count(self, result: RetrievalResult, choice: int) -> None:
        if not self._writable():
            return
        assert self.store is not None
        for index, candidate in enumerate(result.candidates):
            if self._in_store(candidate.record.id):
                self.store.update_counters(
                    candidate.record.id, retrieved=1, selected=int(index == choice)
                )

    def _writable(self) -> bool:
        return self.store is not None and self.options.write_counters and not self.store.read_only

    def _in_store(self, record_id: str) -> bool:
        return self.store is not None and record_id in self.store
