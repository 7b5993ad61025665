"""Memory construction as a hook: every failed action of the agent becomes a chance to learn.

During the construct stage the agent runs without advice; this hook hears about each failed
check (through `advise`, which then returns nothing) and about a failed final submission
(through `feedback`), and runs Module I (propose at most 4 local edits) and Module II (verify
each from the state the failed action was taken in, admit the best one that gains more than the
threshold; or, for the unverified-advice baseline, `UnverifiedAdmitter` stores the first
acceptable edit without a check). The agents restore their start state before every check, so a fresh `reset(task)`
of this hook's own world model is exactly that state.

With a `ConditionContext`, the facts a record is learned under are those of the decision right
after the failed action (`facts_of(task, action)`), also for a failed final submission: that is
where the agent's retrieval runs after a failed check, so a condition over the failed action's
facts fires there on later tasks. A malformed answer (no `Action:` line) is a failed action
too, with utility 0: its decision's facts are the task's plus `malformed_answer`, so the record
fires after a later agent's malformed answer (`countermem.core._malformed`).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from countermem.core import (
    Action,
    Advice,
    CheckResult,
    ConfigError,
    Decision,
    MemoryHook,
    Outcome,
    Usage,
    facts_after,
    form_repaired,
    is_malformed,
    no_form_fix,
    salvaged_block,
)
from countermem.domains import State, WorldModel
from countermem.memory._admission import AdmissionReport, ProposalAdmitter, learn_from_failure
from countermem.memory._condition_builder import ConditionContext
from countermem.memory._form_repair import is_form_repair
from countermem.memory._generator import Generator, Proposal, RepairMode
from countermem.memory._lesson import LessonWriter
from countermem.memory._pgstore import PostgresStore
from countermem.memory._redact import redact_lesson
from countermem.memory._store import SQLiteStore


@dataclass
class ConstructionStats:
    failures_seen: int = 0
    malformed_seen: int = 0
    """Of `failures_seen`, malformed answers (no checker saw them; utility 0 by the agent's verdict)."""
    malformed_admitted: int = 0
    form_repairs_admitted: int = 0
    """Form repairs admitted (`countermem.memory._form_repair`): of malformed answers (some of
    `malformed_admitted`) or of checks failed on form alone (`Benchmark.form_fix`)."""
    lessons_written: int = 0
    lessons_verified: int = 0
    lesson_usage: Usage = field(default_factory=Usage)
    """Tokens of writing and verifying lessons (`countermem.memory._lesson`); construction cost."""
    lesson_calls: int = 0
    failures_skipped: int = 0
    """Failures not learned from because their task reached `failures_per_task`."""
    proposals: int = 0
    alternatives: int = 0
    admitted: int = 0
    world_model_calls: int = 0
    generator_usage: Usage = field(default_factory=Usage)
    generator_calls: int = 0
    seconds: float = 0.0
    """Wall time of generation and verification together, over every failure."""
    reports: list[AdmissionReport] = field(default_factory=list)


class CounterfactualLearner:
    """A `MemoryHook` for the construct stage: learns from failures, never advises."""

    def __init__(
        self,
        generator: Generator,
        admitter: ProposalAdmitter,
        world_model_factory: Callable[[], WorldModel],
        *,
        action_language: str,
        max_alternatives: int = 4,
        learn_from_submissions: bool = True,
        on_learned: Callable[[Proposal, AdmissionReport], None] | None = None,
        instructions: str = "",
        mode: RepairMode = "edit",
        conditions: ConditionContext | None = None,
        lessons: LessonWriter | None = None,
        lesson_store: SQLiteStore | PostgresStore | None = None,
    ) -> None:
        if (lessons is None) != (lesson_store is None):
            raise ConfigError("a LessonWriter needs the store its lessons are written to (lesson_store), and only then")
        self.lessons = lessons
        self.lesson_store = lesson_store
        self.generator = generator
        self.instructions = instructions
        self.mode: RepairMode = mode
        self.conditions = conditions
        self.admitter = admitter
        self.world_model = world_model_factory()
        self.action_language = action_language
        self.max_alternatives = max_alternatives
        self.learn_from_submissions = learn_from_submissions
        self.on_learned = on_learned
        self.stats = ConstructionStats()
        self._learned: dict[str, set[str]] = {}
        self._budgeted: dict[str, int] = {}
        """Per task, how many failures went to the generator: `failures_per_task` counts only
        these, so a free form repair never uses up a task's build budget."""

    def advise(self, decision: Decision) -> Advice | None:
        if decision.last_action is not None and decision.last_result is not None:
            self._learn(decision, decision.last_action, decision.last_result)
        return None

    def feedback(self, decision: Decision, advice: Advice | None, outcome: Outcome) -> None:
        if not self.learn_from_submissions or outcome.solved:
            return
        if outcome.final_action is None or outcome.final_result is None:
            return
        self._learn(decision, outcome.final_action, outcome.final_result)

    def _learn(self, decision: Decision, action: Action, result: CheckResult) -> None:
        seen = self._learned.setdefault(decision.task.id, set())
        key = " ".join(action.content.split())
        if key in seen or result.passed:
            return
        settings = self.generator.settings
        salvage = self.conditions.salvage if self.conditions is not None else salvaged_block
        form_fix = self.conditions.form_fix if self.conditions is not None else no_form_fix
        salvaged = form_repaired(action.content, result, salvage, form_fix)
        free = is_malformed(result) and not settings.draws_after_malformed(salvaged)
        budgeted = self._budgeted.get(decision.task.id, 0)
        if not free and settings.failures_per_task is not None and budgeted >= settings.failures_per_task:
            self.stats.failures_skipped += 1
            return
        seen.add(key)
        if not free:
            self._budgeted[decision.task.id] = budgeted + 1
        self.stats.failures_seen += 1
        started = time.perf_counter()
        state = self.world_model.reset(decision.task)
        before = self.generator.usage_total
        calls_before = self.generator.calls
        facts = decision.facts
        if self.conditions is not None:
            facts = facts_after(
                self.conditions.facts_of, decision.task, action, result, self.conditions.error_kind, salvage
            )
        proposal, report = learn_from_failure(
            self.generator,
            self.admitter,
            task=decision.task,
            world_model=self.world_model,
            state=state,
            failed_action=action,
            failed_result=result,
            facts=facts,
            situation=decision.situation,
            action_language=self.action_language,
            max_alternatives=self.max_alternatives,
            instructions=self.instructions,
            mode=self.mode,
            conditions=self.conditions,
            salvaged=salvaged,
        )
        self.stats.proposals += 1
        self.stats.alternatives += len(proposal.alternatives)
        self.stats.admitted += int(report.admitted and not report.already_stored)
        if is_malformed(result):
            self.stats.malformed_seen += 1
            self.stats.malformed_admitted += int(report.admitted and not report.already_stored)
        self.stats.form_repairs_admitted += int(
            report.admitted and not report.already_stored and report.record is not None
            and is_form_repair(report.record)
        )
        self.stats.world_model_calls += report.world_model_calls
        if self.lessons is not None and report.admitted and not report.already_stored:
            self._write_lesson(report, state)
        self.stats.generator_usage = self.stats.generator_usage + _minus(self.generator.usage_total, before)
        self.stats.generator_calls += self.generator.calls - calls_before
        self.stats.seconds += time.perf_counter() - started
        self.stats.reports.append(report)
        if self.on_learned is not None:
            self.on_learned(proposal, report)


    def _write_lesson(self, report: AdmissionReport, state: State) -> None:
        """A content record's lesson, written and checked now, kept on the record as a new version."""
        assert self.lessons is not None and self.lesson_store is not None
        record = report.record
        if record is None or is_form_repair(record) or record.id not in self.lesson_store:
            return
        usage_before, calls_before, checks_before = self.lessons.usage_total, self.lessons.calls, self.lessons.world_model_calls
        lesson = self.lessons.lesson_for(record, self.world_model, state)
        redactor = self.admitter.redactor
        if redactor is None:
            self.lesson_store.revise(record.id, lesson=lesson)
        else:  # the writer saw the task's own text, so its lesson is scanned like the record was
            lesson, counts = redact_lesson(lesson, redactor)
            total = dict(sorted((Counter(record.redactions) + counts).items()))
            self.lesson_store.revise(record.id, lesson=lesson, redactions=total)
        self.stats.lessons_written += 1
        self.stats.lessons_verified += int(lesson.verified)
        self.stats.lesson_usage = self.stats.lesson_usage + _minus(self.lessons.usage_total, usage_before)
        self.stats.lesson_calls += self.lessons.calls - calls_before
        self.stats.world_model_calls += self.lessons.world_model_calls - checks_before


def _minus(after: Usage, before: Usage) -> Usage:
    return Usage(
        prompt_tokens=after.prompt_tokens - before.prompt_tokens,
        completion_tokens=after.completion_tokens - before.completion_tokens,
        reasoning_tokens=after.reasoning_tokens - before.reasoning_tokens,
        unknown_calls=after.unknown_calls - before.unknown_calls,
    )


class LearnWhileAdvising:
    """Construct-stage hook that also offers records admitted on EARLIER source tasks.

    Why: a record's reuse statistics (retrieved, selected, succeeded after selection) can only
    grow where records are used, and the utility retention rule needs them to tell useful records
    from merely verified ones. Records learned on the current task are never offered back to it
    (that would hand the task its own verified answer); `exclude_task` is the hook the advisor's
    record provider reads.
    """

    def __init__(self, learner: CounterfactualLearner, advisor: MemoryHook) -> None:
        self.learner = learner
        self.advisor = advisor
        self.current_task: str | None = None

    def exclude_task(self) -> str | None:
        return self.current_task

    def advise(self, decision: Decision) -> Advice | None:
        self.current_task = decision.task.id
        self.learner.advise(decision)
        return self.advisor.advise(decision)

    def feedback(self, decision: Decision, advice: Advice | None, outcome: Outcome) -> None:
        self.current_task = decision.task.id
        self.advisor.feedback(decision, advice, outcome)
        self.learner.feedback(decision, advice, outcome)
