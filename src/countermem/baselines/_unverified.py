"""The unverified-advice baseline: store a generated edit WITHOUT asking the world model.

Why it exists: the study asks what verification buys. This admitter has the call shape of
`Admitter.verify_and_admit` (so `CounterfactualLearner` and `learn_from_failure` take either) and
keeps everything else of countermem's admission that needs no world model: an alternative must
carry a condition that parses and holds on the decision's facts (rules 3 and 4 of
`countermem.memory._admission`), unless `require_condition=False`, when the first alternative is
stored and a missing or unparseable condition becomes universal. The first acceptable alternative
in the generator's order is stored; it makes 0 world-model calls.

The record says honestly that nobody checked it: its `improved_check` is
`CheckResult(status="unchecked", completed=False, passed=False)` with the failed action's utility,
so `utility_gain` is exactly 0 (no invented number, no NaN) and any reader of the store, or a
retention rule, sees an unproven record. The record's content id is computed as for a verified
record, so keep unverified and verified records in separate stores.
"""

from __future__ import annotations

from countermem.core import Action, CheckResult, ConfigError, Cost, Facts, StoreError, Task
from countermem.domains import State, WorldModel
from countermem.memory import (
    AdmissionReport,
    Alternative,
    AlternativeVerdict,
    ApplicabilityCondition,
    EvictionEvent,
    Proposal,
    Provenance,
    Record,
    RecordSource,
    SecretRedactor,
    Stage,
    Store,
    Verdict,
    build_provenance,
    judge_condition,
    stored_record,
)
from countermem.memory._provenance import for_task
from countermem.memory._record import TASK_BRIEF_LIMIT, brief_of

UNCHECKED_DETAILS = "not checked: stored by the unverified-advice baseline without any world-model call"


def unchecked_result(failed: CheckResult) -> CheckResult:
    """The `improved_check` of an unverified record: the failed utility, marked as never checked."""
    return CheckResult(
        utility=failed.utility,
        passed=False,
        completed=False,
        status="unchecked",
        details=UNCHECKED_DETAILS,
        cost=Cost(),
    )


class UnverifiedAdmitter:
    """Stores the first acceptable generated alternative with no world-model check (baseline)."""

    def __init__(
        self,
        store: Store,
        *,
        stage: Stage = "construct",
        require_condition: bool = True,
        provenance: Provenance | None = None,
        redact: bool = True,
    ) -> None:
        self.provenance = provenance or build_provenance()
        self.redactor = SecretRedactor() if redact else None
        self.store = store
        self.stage: Stage = stage
        self.require_condition = require_condition
        self.world_model_calls = 0
        """Always 0; kept so that callers can sum it like `Admitter.world_model_calls`."""

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
        """Same arguments as `Admitter.verify_and_admit`; `world_model` and `state` are never used."""
        if state.task_id != task.id:
            raise ConfigError(
                f"the snapshot belongs to task {state.task_id!r}, not {task.id!r}; pass the state of this task"
            )
        domain = domain or task.domain
        benchmark = benchmark or task.benchmark
        unchecked = unchecked_result(failed_result)
        verdicts: list[AlternativeVerdict] = []
        chosen: tuple[Alternative, str] | None = None
        for index, alternative in enumerate(proposal.alternatives):
            verdict, reason, canonical = self._judge(alternative, facts, chosen is not None)
            if verdict == "admitted":
                chosen = (alternative, canonical or "none")
            verdicts.append(
                AlternativeVerdict(
                    index=index,
                    alternative=alternative,
                    check=unchecked,
                    gain=0.0,
                    verdict=verdict,
                    reason=reason,
                    condition=canonical,
                )
            )
        record: Record | None = None
        events: list[EvictionEvent] = []
        already = False
        if chosen is not None:
            alternative, condition = chosen
            record = stored_record(
                {
                    "domain": domain,
                    "benchmark": benchmark,
                    "situation": situation,
                    "original_action": failed_action,
                    "improved_action": alternative.action,
                    "original_check": failed_result,
                    "improved_check": unchecked,
                    "utility_gain": 0.0,
                    "condition": ApplicabilityCondition.from_text(condition),
                    "rationale": alternative.rationale,
                    "task_brief": brief_of(task.prompt, 2 * TASK_BRIEF_LIMIT),  # clipped again after redaction
                    "source": RecordSource(task_id=task.id, benchmark=benchmark, stage=self.stage),
                    "provenance": for_task(self.provenance, task),
                },
                self.redactor,
                self.store,
            )
            already = _stored(self.store, record.id)
            if not already:
                events = self.store.add(record)
        return AdmissionReport(
            task_id=task.id,
            min_gain=0.0,
            verdicts=verdicts,
            world_model_calls=0,
            admitted_record_id=record.id if record is not None else None,
            already_stored=already,
            record=record,
            evictions=events,
        )

    def _judge(self, alternative: Alternative, facts: Facts, taken: bool) -> tuple[Verdict, str, str | None]:
        failures, canonical = judge_condition(alternative, facts)
        if not self.require_condition:
            canonical = canonical if canonical is not None and not _unparsed(failures) else "none"
            failures = []
        if taken:
            return "not_best", "not considered: an earlier alternative was stored (nothing is checked)", canonical
        if failures:
            return failures[0][0], "; ".join(message for _, message in failures), canonical
        return "admitted", f"stored WITHOUT a world-model check; condition {canonical}", canonical


def _unparsed(failures: list[tuple[Verdict, str]]) -> bool:
    return any(verdict == "bad_condition" for verdict, _ in failures)


def _stored(store: Store, record_id: str) -> bool:
    try:
        store.get(record_id)
    except StoreError:
        return False
    return True
