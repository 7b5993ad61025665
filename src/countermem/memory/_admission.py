"""Module II, admission: check each proposed edit from the pre-failure snapshot and keep the best.

Why from the snapshot: a failed action may have changed the world (inserted a row, moved a
counter). An edit that only passes on top of that change teaches nothing that holds where the
agent actually stood, so every alternative is checked after `world_model.restore(state)`, where
`state` is the snapshot taken BEFORE the failed action was checked. Every alternative is checked,
one `check` call each, even one whose condition will be rejected: the report then shows how often
a bad condition wasted a correct edit, and the calls are all counted in `world_model_calls`
(`restore`/`snapshot` calls are bookkeeping and are not counted). When admission ends, the world
model is restored to the state it was in when admission began, so the caller's episode goes on
as if admission had not happened.

An alternative is admitted only when all of these hold, checked in this order (the verdict names
the first that fails; the reason names every one that fails):

1. `incomplete`: the check completed (a time-out with a high utility proves nothing);
2. `below_threshold`: gain = improved utility - failed utility > `min_gain` (0.05), strictly; a gain
   within `GAIN_EPSILON` of `min_gain` counts as equal, so float noise such as 0.75 - 0.7 =
   0.05000000000000004 does not sneak over the threshold;
3. `bad_condition`: the condition parses in the memory condition language (a missing or unparseable
   condition is rejected, never read as universal);
4. `condition_false_here`: the condition holds on the very decision's facts (a condition false
   where the edit was learned cannot describe that situation; a fact it names that is missing
   makes it false, as in retrieval).

Of the alternatives that pass, only the one with the highest gain (ties: the first) becomes a
`Record`; the others are `not_best`. At most one record per failure keeps one failure from
crowding the 200-record store with variants of the same fix.

The record is stamped with the admitter's `Provenance` and, unless `redact=False`, built from
text with secrets replaced by placeholders (`stored_record`); the checks above saw the real
actions, so a redacted action may no longer reproduce its stored check result.
"""

from __future__ import annotations

import logging
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from countermem.core import Action, CheckResult, ConfigError, Facts, StoreError, Task
from countermem.domains import State, WorldModel, check_action
from countermem.memory._condition_builder import ConditionContext, derive_for_proposal
from countermem.memory._conditions import ConditionError
from countermem.memory._generator import Alternative, GenerationRequest, Generator, Proposal, RepairMode
from countermem.memory._pgstore import PostgresStore
from countermem.memory._provenance import build_provenance, for_task
from countermem.memory._record import (
    TASK_BRIEF_LIMIT,
    ApplicabilityCondition,
    Provenance,
    Record,
    RecordSource,
    Stage,
    brief_of,
)
from countermem.memory._redact import SecretRedactor, redact_record_data
from countermem.memory._scope import scope_of
from countermem.memory._store import SQLiteStore, Store
from countermem.memory._store_models import EvictionEvent

logger = logging.getLogger(__name__)

MIN_GAIN = 0.05
GAIN_EPSILON = 1e-9

Verdict = Literal[
    "admitted", "below_threshold", "incomplete", "bad_condition", "condition_false_here", "not_best"
]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class AlternativeVerdict(_Frozen):
    """How one alternative fared; `condition` is the canonical form when it parsed."""

    index: int
    alternative: Alternative
    check: CheckResult
    gain: float
    verdict: Verdict
    reason: str
    condition: str | None = None


class AdmissionReport(_Frozen):
    """Everything admission decided for one failure, for logs and for the construct-stage figures."""

    task_id: str
    min_gain: float
    verdicts: list[AlternativeVerdict] = Field(default_factory=list)
    world_model_calls: int = 0
    admitted_record_id: str | None = None
    already_stored: bool = False
    """True when the admitted record's id (a content hash) was already in the store; not re-added."""
    merged_into: str | None = None
    """With merging on: the stored record the admitted one was merged into (None: stored as itself)."""
    record: Record | None = None
    evictions: list[EvictionEvent] = Field(default_factory=list)

    @property
    def admitted(self) -> bool:
        return self.admitted_record_id is not None


class ProposalAdmitter(Protocol):
    """What construction needs from admission: `Admitter` (verified) or `UnverifiedAdmitter` (baseline)."""

    world_model_calls: int
    redactor: SecretRedactor | None
    """What the admitter redacts stored text with (None: redaction off); lessons written later
    for its records go through the same one."""

    def verify_and_admit(
        self,
        *,
        task: Task,
        world_model: WorldModel,
        state: State,
        failed_action: Action,
        failed_result: CheckResult,
        proposal: Proposal,
        facts: Facts,
        situation: str,
        domain: str | None = None,
        benchmark: str | None = None,
    ) -> AdmissionReport: ...


class Admitter:
    """Module II: verifies a `Proposal` against the world model and adds the best edit to `store`."""

    def __init__(
        self,
        store: Store,
        *,
        min_gain: float = MIN_GAIN,
        stage: Stage = "construct",
        provenance: Provenance | None = None,
        redact: bool = True,
        merge: bool = False,
    ) -> None:
        if not 0.0 <= min_gain < 1.0:
            raise ConfigError(f"min_gain must lie in [0, 1), got {min_gain}; the study uses 0.05")
        self.store = store
        self.min_gain = min_gain
        self.stage: Stage = stage
        self.provenance = provenance or build_provenance()
        """Stamped on every admitted record, with the source task's environment filled in."""
        self.redactor = SecretRedactor() if redact else None
        """Secrets are replaced in the stored copy only, after the checks (`countermem.memory._redact`)."""
        self.world_model_calls = 0
        """Running total over every `verify_and_admit` call of this admitter."""
        self.merge = merge
        """Merge an admitted record into an equivalent stored one (`countermem.memory._merge`)."""

    def verify_and_admit(
        self,
        *,
        task: Task,
        world_model: WorldModel,
        state: State,
        failed_action: Action,
        failed_result: CheckResult,
        proposal: Proposal,
        facts: Facts,
        situation: str,
        domain: str | None = None,
        benchmark: str | None = None,
    ) -> AdmissionReport:
        """Check every alternative from `state`; admit the best that passes (see the module docstring)."""
        if state.task_id != task.id:
            raise ConfigError(
                f"the snapshot belongs to task {state.task_id!r}, not {task.id!r}; pass the snapshot taken "
                "before the failed action of this task was checked"
            )
        domain = domain or task.domain
        benchmark = benchmark or task.benchmark
        checked: list[tuple[Alternative, CheckResult]] = []
        if proposal.alternatives:
            resume_at = world_model.snapshot()
            try:
                for alternative in proposal.alternatives:
                    world_model.restore(state)
                    checked.append((alternative, check_action(world_model, alternative.action)))
            finally:
                world_model.restore(resume_at)
        calls = len(checked)
        self.world_model_calls += calls

        verdicts = [
            self._judge(i, alt, result, failed_result, facts) for i, (alt, result) in enumerate(checked)
        ]
        best = _best(verdicts)
        record: Record | None = None
        events: list[EvictionEvent] = []
        already = False
        merged_into: str | None = None
        if best is not None:
            verdicts = [
                v
                if v.verdict != "admitted" or v.index == best.index
                else v.model_copy(
                    update={
                        "verdict": "not_best",
                        "reason": f"passed, but alternative {best.index + 1} "
                        + (
                            f"gained more ({best.gain:.3f} vs {v.gain:.3f})"
                            if best.gain > v.gain
                            else f"came first at equal gain {v.gain:.3f}"
                        ),
                    }
                )
                for v in verdicts
            ]
            record = stored_record(
                {
                    "domain": domain,
                    "benchmark": benchmark,
                    "situation": situation,
                    "original_action": failed_action,
                    "improved_action": best.alternative.action,
                    "original_check": failed_result,
                    "improved_check": best.check,
                    "utility_gain": best.gain,
                    "condition": ApplicabilityCondition.from_text(best.alternative.condition_text or ""),
                    "rationale": best.alternative.rationale,
                    "task_brief": brief_of(task.prompt, 2 * TASK_BRIEF_LIMIT),  # clipped again after redaction
                    "source": RecordSource(task_id=task.id, benchmark=benchmark, stage=self.stage),
                    "provenance": for_task(self.provenance, task),
                },
                self.redactor,
                self.store,
            )
            already = _stored(self.store, record.id)
            if not already:
                try:
                    if self.merge and isinstance(self.store, SQLiteStore | PostgresStore):
                        outcome = self.store.add_or_merge(record)
                        events, merged_into = outcome.evictions, outcome.merged_into
                    else:
                        events = self.store.add(record)
                except StoreError:
                    if not _stored(self.store, record.id):
                        raise
                    already = True  # another thread admitted the same correction first
        for verdict in verdicts:
            level = logging.INFO if verdict.verdict != "not_best" else logging.DEBUG
            logger.log(
                level,
                "task %s alternative %d: %s (%s)",
                task.id,
                verdict.index + 1,
                verdict.verdict,
                verdict.reason,
            )
        return AdmissionReport(
            task_id=task.id,
            min_gain=self.min_gain,
            verdicts=verdicts,
            world_model_calls=calls,
            admitted_record_id=record.id if record is not None else None,
            already_stored=already,
            merged_into=merged_into,
            record=record,
            evictions=events,
        )

    def _judge(
        self, index: int, alternative: Alternative, result: CheckResult, failed: CheckResult, facts: Facts
    ) -> AlternativeVerdict:
        gain = result.utility - failed.utility
        failures: list[tuple[Verdict, str]] = []
        if not result.completed:
            failures.append(("incomplete", f"the check did not complete (status {result.status})"))
        if not gain > self.min_gain + GAIN_EPSILON:
            failures.append(
                (
                    "below_threshold",
                    f"gain {gain:.3f} ({result.utility:.3f} - {failed.utility:.3f}) "
                    f"is not above {self.min_gain:.3f}",
                )
            )
        condition_failures, canonical = judge_condition(alternative, facts)
        failures.extend(condition_failures)
        if failures:
            verdict = failures[0][0]
            reason = "; ".join(message for _, message in failures)
        else:
            verdict = "admitted"
            reason = f"completed with gain {gain:.3f} > {self.min_gain:.3f}; condition {canonical} holds here"
        return AlternativeVerdict(
            index=index,
            alternative=alternative,
            check=result,
            gain=gain,
            verdict=verdict,
            reason=reason,
            condition=canonical,
        )


def stored_record(data: dict[str, Any], redactor: SecretRedactor | None, store: object = None) -> Record:
    """The record as it will be stored: built from `data` after secrets are redacted (when on).

    The one place admission turns checked material into a `Record`, so that no path stores
    unredacted text; the checks in `data` were made on the real actions before this. The record
    gets the scope of the reader `store` was opened for (`scope_of`; `default` without one).
    """
    data = {**data, "scope": scope_of(store)}
    return Record.model_validate(data if redactor is None else redact_record_data(data, redactor))


def judge_condition(alternative: Alternative, facts: Facts) -> tuple[list[tuple[Verdict, str]], str | None]:
    """Rules 3 and 4 (they need no world model): the failures found, and the canonical condition."""
    failures: list[tuple[Verdict, str]] = []
    canonical: str | None = None
    text = alternative.condition_text
    if text is None:
        if alternative.condition_origin.startswith("derived"):
            failures.append(("bad_condition", "no derived condition holds on this decision's facts"))
        else:
            failures.append(("bad_condition", "the answer gave no condition (never read as universal)"))
        return failures, canonical
    try:
        condition = ApplicabilityCondition.from_text(text)
    except (ConditionError, ValueError) as error:
        failures.append(("bad_condition", f"the condition does not parse: {error}"))
    except RecursionError:
        failures.append(("bad_condition", "the condition is nested too deeply to parse"))
    else:
        canonical = condition.canonical
        if not condition.applies(facts):
            missing = sorted(n for n in condition.parsed.facts_used() if facts.get(n) is None)
            why = f"; unknown fact(s) {', '.join(missing)}" if missing else ""
            failures.append(
                ("condition_false_here", f"the condition {canonical} is false on this decision{why}")
            )
    return failures, canonical


def _best(verdicts: list[AlternativeVerdict]) -> AlternativeVerdict | None:
    best: AlternativeVerdict | None = None
    for verdict in verdicts:
        if verdict.verdict == "admitted" and (best is None or verdict.gain > best.gain):
            best = verdict
    return best


def _stored(store: Store, record_id: str) -> bool:
    try:
        store.get(record_id)
    except StoreError:
        return False
    return True


def learn_from_failure(
    generator: Generator,
    admitter: ProposalAdmitter,
    *,
    task: Task,
    world_model: WorldModel,
    state: State,
    failed_action: Action,
    failed_result: CheckResult,
    facts: Facts,
    situation: str,
    action_language: str,
    domain: str | None = None,
    benchmark: str | None = None,
    max_alternatives: int = 4,
    instructions: str = "",
    mode: RepairMode = "edit",
    conditions: ConditionContext | None = None,
    salvaged: str | None = None,
) -> tuple[Proposal, AdmissionReport]:
    """Module I then Module II for one failed action; `state` is the snapshot from before its check.

    With derived conditions (the generator's default), each alternative's condition is read off
    the facts between the two modules (`countermem.memory._condition_builder`); `facts` must then
    be those of the decision where the record would be offered (the task plus the failed action).
    `salvaged` is the action a malformed `failed_action` holds (`Benchmark.salvage`), the form
    repair construction checks first.
    """
    domain = domain or task.domain
    benchmark = benchmark or task.benchmark
    request = GenerationRequest(
        domain=domain,
        benchmark=benchmark,
        action_language=action_language,
        situation=situation,
        failed_action=failed_action,
        failed_result=failed_result,
        facts=facts,
        max_alternatives=max_alternatives,
        instructions=instructions,
        mode=mode,
        salvaged=salvaged,
    )
    proposal = derive_for_proposal(
        generator.propose(request), task=task, failed_action=failed_action, decision=facts, context=conditions
    )
    report = admitter.verify_and_admit(
        task=task,
        world_model=world_model,
        state=state,
        failed_action=failed_action,
        failed_result=failed_result,
        proposal=proposal,
        facts=facts,
        situation=situation,
        domain=domain,
        benchmark=benchmark,
    )
    return proposal, report
