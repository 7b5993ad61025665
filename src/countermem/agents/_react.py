"""A ReAct agent: thought, action, observation, until it submits or a limit ends the task.

One trial is one ReAct episode; Reflexion runs several trials through the same code. Every
world-model call the agent asks for is an evaluator call; grading the final submission is
the benchmark's judgement and is not counted as one. World-model calls a memory hook makes for
this task (`Advice.details["world_model_calls"]`, e.g. checking alternatives) count as well. A
check that does not pass, a failed submission and a malformed answer each count as a failed
attempt. Memory is consulted at the task's start, after every failed check and, with
`AgentLimits.memory_after_malformed`, after every malformed answer (a failed action too:
`countermem.core._malformed`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from countermem.agents._parser import parse_step
from countermem.agents._prompts import (
    ADVICE_HEADER,
    ANSWER_IN_ADVICE_NOTE,
    EXPIRED_ADVICE_NOTE,
    FOCUSED_EARLIER,
    FOCUSED_EARLIER_LIMIT,
    FOCUSED_REPEATED,
    FOCUSED_TEMPLATE,
    MALFORMED_TEMPLATE,
    SYSTEM_TEMPLATE,
    render_observation,
    truncate,
)
from countermem.agents._trajectory import Event, TaskOutcome
from countermem.core import (
    Action,
    Advice,
    CheckResult,
    Decision,
    MemoryHook,
    Outcome,
    ParseError,
    Task,
    Usage,
    facts_after,
    form_repaired,
    malformed_result,
)
from countermem.domains import Benchmark, WorldModel, check_action
from countermem.llm import LLM, Completion, GenerationParams, Message

EventSink = Callable[[Event], None]
UNTERMINATED_NOTE = "the code block never closed (answer cut at the token limit?); checked as written"
TokenCounter = Callable[[str], int]
AfterFailure = Literal["history", "focused"]
REUSED_NOTE = "not sent to the world model: the same action was checked at step"
"""How a check event says its result is an earlier check's (`AgentLimits.reuse_checks`)."""
EMPTY_ANSWER = "(empty answer)"
"""The action content of an empty malformed answer, so the failed action is never blank."""


NEXT_STEP_STOPS = ("\nThought:", "\nObservation:")
"""Where a reply's next step begins (`AgentLimits.one_action`): a line that opens another thought or
an invented observation. None of 367 replies of the 1.5B read here wrote either before its first action."""


def cut_at_next_step(text: str) -> str:
    """The reply up to the first of `NEXT_STEP_STOPS`, as a server given them as stop sequences returns it."""
    cuts = [i for i in (text.find(stop) for stop in NEXT_STEP_STOPS) if i >= 0]
    return text[: min(cuts)] if cuts else text


@dataclass(frozen=True)
class AgentLimits:
    max_steps: int = 5
    """LLM turns per trial (malformed answers included)."""
    max_tokens: int = 16000
    """Prompt plus completion tokens per task, over all trials."""
    params: GenerationParams = field(default_factory=lambda: GenerationParams(max_tokens=384))
    memory_after_malformed: bool = False
    """Consult memory after a malformed answer too (construction learns from it, advice follows
    it). Off by default: measured on humaneval, records learned there carried another task's code
    into the answer and broke tasks the agent solved alone (docs/results.md, the humaneval cell)."""
    after_failure: AfterFailure = "history"
    """What the model sees after a failed check: `history` (the whole episode, the observation
    appended) or `focused` (a fresh prompt: the task, the failed action, its check result and any
    advice). Tried because in the history loop the 0.5B repaired 0 of 28 first failures on
    sql-shop; focused, it repaired 1 of 28 and spent 16.8% more tokens (docs/results.md, "The
    focused agent"), so `history` stays the default."""
    reuse_checks: bool = False
    """Answer a check of an action already checked in this trial with its earlier result instead of
    calling the world model again. A world model gives the same result for the same action from a
    reset (the conformance test), so the episode is unchanged and only world-model calls fall; a
    check that did not complete (a timeout) is made again. Off by default so that world-model calls
    stay comparable with runs recorded before it existed; on sql-shop 33 of the 0.5B's 71 checks in
    never-solved tasks repeated an earlier action (docs/results.md)."""
    one_action: bool = False
    """End each reply at the start of the next step (`NEXT_STEP_STOPS`, sent as stop sequences and
    applied to the text by the agent too, whatever the backend honours). The 1.5B on gsm8k wrote
    further invented steps after its first action in half its replies; they were never run but
    stayed in its history and cost completion tokens. Off by default: stop sequences are part of
    the reply cache's key, so recorded runs would not replay."""
    show_utility: bool = True
    """Print the check's utility in the observation. Off: only PASSED/FAILED and the status, since
    the 1.5B on gsm8k answered the printed `utility 0.00` in 12 of its 30 checks (docs/results.md)."""


@dataclass
class TrialResult:
    """What one ReAct episode produced, for the agent that runs it (ReAct or Reflexion)."""

    final_action: Action | None = None
    final_result: CheckResult | None = None
    submitted: bool = False
    forced_submit: bool = False
    steps: int = 0
    evaluator_calls: int = 0
    failed_attempts: int = 0
    parse_errors: int = 0
    usage: Usage = field(default_factory=Usage)
    retrieval_tokens: int = 0
    augmentation_tokens: int = 0
    advice_record_ids: list[str] = field(default_factory=list)
    stop_reason: str = ""
    messages: list[Message] = field(default_factory=list)
    prompt_sent: int = 0
    """How many of `messages` an earlier model call's event already recorded (`Event.messages`)."""
    advice_in_context: int = 0
    """The first of `advice` still in the prompt: a focused prompt drops the advice shown before it."""
    advice: list[tuple[Decision, Advice]] = field(default_factory=list)
    expiring: list[tuple[int, str]] = field(default_factory=list)
    """(index in `advice`, block as put in the prompt) of shown advice that leaves after the next reply."""
    expired: set[int] = field(default_factory=set)
    """Indices in `advice` taken out of the prompt (`Advice.expires`): no longer counted as augmentation."""
    first_decision: Decision | None = None
    """The task's opening decision, so memory hears the outcome even when it offered nothing."""

    @property
    def solved(self) -> bool:
        return self.final_result is not None and self.final_result.passed


class ReActAgent:
    """ReAct over any benchmark and LLM, with an optional memory hook."""

    def __init__(
        self,
        llm: LLM,
        benchmark: Benchmark,
        world_model: WorldModel,
        limits: AgentLimits | None = None,
        memory: MemoryHook | None = None,
        token_counter: TokenCounter | None = None,
        sink: EventSink | None = None,
    ) -> None:
        self.llm = llm
        self.benchmark = benchmark
        self.world_model = world_model
        self.limits = limits or AgentLimits()
        params = self.limits.params
        self._step_params = (params.model_copy(update={"stop": (*params.stop, *NEXT_STEP_STOPS)})
                             if self.limits.one_action else params)
        self.memory = memory
        self.token_counter = token_counter
        self.sink = sink

    def run(self, task: Task) -> TaskOutcome:
        started = time.perf_counter()
        trial = self.run_trial(task, trial=0, extra_context="", tokens_spent=0)
        outcome = self._outcome(task, trial, trials=1, started=started)
        self._feedback(trial, outcome)
        return outcome

    def system_prompt(self) -> str:
        return SYSTEM_TEMPLATE.format(
            domain=self.benchmark.domain,
            language=self.benchmark.action_language,
            instructions=self.benchmark.instructions(),
        )

    def run_trial(
        self,
        task: Task,
        trial: int,
        extra_context: str,
        tokens_spent: int,
        after: tuple[Action, CheckResult] | None = None,
    ) -> TrialResult:
        """One trial; `after` is the failed action (and its verdict) that ended the previous trial,
        so the first decision of a retry is one right after a failed action, where records
        conditioned on that kind of mistake apply."""
        result = TrialResult()
        start_state = self.world_model.reset(task)
        user = self.benchmark.render_task(task)
        if extra_context:
            user = f"{user}\n\n{extra_context}"
        task_text = user
        last_action, last_result = after if after is not None else (None, None)
        advice_block = self._advise(
            task, result, trial, step=0, situation=user, last_action=last_action, last_result=last_result
        )
        if advice_block:
            user = f"{user}\n\n{advice_block}"
        result.messages = [
            Message(role="system", content=self.system_prompt()),
            Message(role="user", content=user),
        ]
        last_checked: Action | None = None
        failures: list[tuple[Action, CheckResult]] = []
        checked_before: dict[str, tuple[int, CheckResult]] = {}
        while result.steps < self.limits.max_steps:
            if tokens_spent + result.usage.total >= self.limits.max_tokens:
                result.stop_reason = "token_limit"
                self._emit(Event(kind="limit", step=result.steps, trial=trial, text="token limit"))
                break
            completion = self._complete(result, trial)
            result.steps += 1
            try:
                parsed = parse_step(completion.text)
                action = parsed.action or last_checked
                if action is None:
                    raise ParseError("'Action: submit' has no action and nothing was checked yet")
            except ParseError as error:
                result.parse_errors += 1
                result.failed_attempts += 1
                self._emit(Event(kind="parse_error", step=result.steps, trial=trial, text=str(error)))
                reprompt = MALFORMED_TEMPLATE.format(reason=error, language=self.benchmark.action_language)
                advice_block = ""
                if self.limits.memory_after_malformed:
                    advice_block = self._advise(
                        task, result, trial, step=result.steps, situation=user,
                        last_action=Action(content=completion.text.strip() or EMPTY_ANSWER),
                        last_result=malformed_result(str(error)),
                    )
                if advice_block:
                    reprompt = f"{advice_block}\n\n{reprompt}"  # the instruction to answer again comes last
                    if result.advice[-1][1].holds_last_answer:
                        result.messages[-1] = Message(role="assistant", content=ANSWER_IN_ADVICE_NOTE)
                        result.prompt_sent = 0  # the next call's event records the whole prompt
                result.messages.append(Message(role="user", content=reprompt))
                continue
            if parsed.verb == "submit":
                self.world_model.restore(start_state)
                graded = check_action(self.world_model, action)
                result.final_action, result.final_result = action, graded
                result.submitted = True
                result.stop_reason = "submitted"
                if not graded.passed:
                    result.failed_attempts += 1
                self._emit(
                    Event(kind="submit", step=result.steps, trial=trial, action=action, result=graded,
                          text=UNTERMINATED_NOTE if parsed.unterminated else "")
                )
                return result
            key = _normal(action.content)
            earlier = checked_before.get(key) if self.limits.reuse_checks else None
            if earlier is not None:
                checked = earlier[1]
                note = f"{REUSED_NOTE} {earlier[0]}"
            else:
                self.world_model.restore(start_state)
                checked = check_action(self.world_model, action)
                result.evaluator_calls += 1
                note = ""
                if checked.completed:
                    checked_before.setdefault(key, (result.steps, checked))
            last_checked = action
            if not checked.passed:
                result.failed_attempts += 1
            notes = [n for n in (note, UNTERMINATED_NOTE if parsed.unterminated else "") if n]
            self._emit(
                Event(kind="check", step=result.steps, trial=trial, action=action, result=checked,
                      text="; ".join(notes))
            )
            observation = render_observation(checked, show_utility=self.limits.show_utility)
            if not checked.passed:
                shown_before = len(result.advice)
                advice_block = self._advise(
                    task, result, trial, step=result.steps, situation=user,
                    last_action=action, last_result=checked,
                )
                if self.limits.after_failure == "focused":
                    self._refocus(result, task_text, failures, (action, checked), observation, advice_block, shown_before)
                    continue
                if advice_block:
                    observation = f"{observation}\n\n{advice_block}"
            result.messages.append(Message(role="user", content=observation))
        if not result.stop_reason:
            result.stop_reason = "step_limit"
        if last_checked is not None:
            self.world_model.restore(start_state)
            graded = check_action(self.world_model, last_checked)
            result.final_action, result.final_result = last_checked, graded
            result.forced_submit = True
            self._emit(
                Event(kind="submit", step=result.steps, trial=trial, action=last_checked, result=graded,
                      text="forced: limit reached, last checked action graded")
            )
        return result

    def _complete(self, result: TrialResult, trial: int) -> Completion:
        began = time.perf_counter()
        sent = result.messages[result.prompt_sent:]
        completion = self.llm.complete(result.messages, self._step_params)
        if self.limits.one_action:
            completion = completion.model_copy(update={"text": cut_at_next_step(completion.text)})
        result.usage = result.usage + completion.usage
        if result.advice:
            result.augmentation_tokens += sum(
                a.augmentation_tokens for i, (_, a) in enumerate(result.advice)
                if i >= result.advice_in_context and i not in result.expired
            )
        result.messages.append(Message(role="assistant", content=completion.text))
        result.prompt_sent = len(result.messages)
        self._emit(
            Event(
                kind="llm", step=result.steps + 1, trial=trial, text=completion.text,
                usage=completion.usage, cached=completion.cached, seconds=time.perf_counter() - began,
                messages=sent,
            )
        )
        self._expire(result)
        return completion

    @staticmethod
    def _expire(result: TrialResult) -> None:
        """Take advice shown for one reply out of the prompt, leaving a one-line note in its place.
        The next model call's event then records its whole prompt, so the transcript still shows
        exactly what the model saw (`prompt_of`)."""
        changed = False
        for index, block in result.expiring:
            note = EXPIRED_ADVICE_NOTE.format(record_id=result.advice[index][1].record_id)
            for position, message in enumerate(result.messages[:-1]):
                if block in message.content:
                    result.messages[position] = message.model_copy(update={"content": message.content.replace(block, note)})
                    changed = True
            result.expired.add(index)
        result.expiring.clear()
        if changed:
            result.prompt_sent = 0

    def _refocus(
        self,
        result: TrialResult,
        task_text: str,
        failures: list[tuple[Action, CheckResult]],
        failed: tuple[Action, CheckResult],
        observation: str,
        advice_block: str,
        shown_before: int,
    ) -> None:
        """Start the prompt afresh from the failed action: the history and the advice shown in it go.

        `failures` (this trial's distinct failed actions, oldest first) gains `failed` here."""
        action = failed[0]
        key = _normal(action.content)
        repeated = any(_normal(a.content) == key for a, _ in failures)
        earlier = [(a, r) for a, r in failures if _normal(a.content) != key][-FOCUSED_EARLIER_LIMIT:]
        if not repeated:
            failures.append(failed)
        lang = self.benchmark.action_language
        listed = "\n".join(
            f"```{lang}\n{a.content.strip()}\n```\n-> {r.status}: {truncate(' '.join(r.details.split()), 160)}"
            for a, r in earlier
        )
        prompt = FOCUSED_TEMPLATE.format(
            task=task_text, earlier=FOCUSED_EARLIER.format(actions=listed) if earlier else "",
            language=lang, action=action.content, observation=observation,
            repeated=FOCUSED_REPEATED if repeated else "",
            advice=f"\n{advice_block}\n" if advice_block else "",
        )
        result.messages = [
            Message(role="system", content=self.system_prompt()),
            Message(role="user", content=prompt),
        ]
        result.prompt_sent = 0
        result.advice_in_context = shown_before

    def _advise(
        self,
        task: Task,
        result: TrialResult,
        trial: int,
        step: int,
        situation: str,
        last_action: Action | None = None,
        last_result: CheckResult | None = None,
    ) -> str:
        if self.memory is None:
            return ""
        decision = Decision(
            task=task,
            situation=situation,
            facts=facts_after(
                self.benchmark.facts, task, last_action, last_result, self.benchmark.error_kind, self.benchmark.salvage
            ),
            step=step,
            trial=trial,
            last_action=last_action,
            last_result=last_result,
            salvaged=None if last_action is None or last_result is None
            else form_repaired(last_action.content, last_result, self.benchmark.salvage, self.benchmark.form_fix),
        )
        if result.first_decision is None:
            result.first_decision = decision
        advice = self.memory.advise(decision)
        if advice is None:
            return ""
        result.retrieval_tokens += advice.retrieval_tokens
        result.evaluator_calls += int(advice.details.get("world_model_calls", 0))
        self._emit(
            Event(kind="advice", step=step, trial=trial, text=advice.text, record_id=advice.record_id)
        )
        record_id = advice.record_id
        if record_id is None or not advice.text:
            result.advice.append((decision, advice))
            return ""
        header = ADVICE_HEADER if advice.header is None else advice.header
        block = f"{header}\n{advice.text}" if header else advice.text
        tokens = self.token_counter(block) if self.token_counter else advice.augmentation_tokens
        advice = advice.model_copy(update={"augmentation_tokens": tokens})
        result.advice.append((decision, advice))
        result.advice_record_ids.append(record_id)
        if advice.expires:
            result.expiring.append((len(result.advice) - 1, block))
        return block

    def _outcome(self, task: Task, trial: TrialResult, trials: int, started: float) -> TaskOutcome:
        final = trial.final_result
        return TaskOutcome(
            task_id=task.id,
            benchmark=task.benchmark,
            solved=trial.solved,
            final_utility=final.utility if final else 0.0,
            final_status=final.status if final else "none",
            submitted=trial.submitted,
            forced_submit=trial.forced_submit,
            steps=trial.steps,
            trials=trials,
            evaluator_calls=trial.evaluator_calls,
            failed_attempts=trial.failed_attempts,
            parse_errors=trial.parse_errors,
            usage=trial.usage,
            retrieval_tokens=trial.retrieval_tokens,
            augmentation_tokens=trial.augmentation_tokens,
            advice_record_ids=trial.advice_record_ids,
            stop_reason=trial.stop_reason,
            seconds=time.perf_counter() - started,
            final_action=trial.final_action,
        )

    def _feedback(self, trial: TrialResult, outcome: TaskOutcome) -> None:
        if self.memory is None:
            return
        summary = Outcome(
            task_id=outcome.task_id,
            solved=outcome.solved,
            final_utility=outcome.final_utility,
            evaluator_calls=outcome.evaluator_calls,
            failed_attempts=outcome.failed_attempts,
            tokens=outcome.task_run_tokens,
            final_action=trial.final_action,
            final_result=trial.final_result,
        )
        if not trial.advice and trial.first_decision is not None:
            self.memory.feedback(trial.first_decision, None, summary)
        for decision, advice in trial.advice:
            self.memory.feedback(decision, advice, summary)

    def _emit(self, event: Event) -> None:
        if self.sink is not None:
            self.sink(event)


def _normal(content: str) -> str:
    return " ".join(content.split())
