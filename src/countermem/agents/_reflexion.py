"""Reflexion: ReAct trials, with a self-reflection written after each failed trial.

The verdict on a failed trial comes from the world model, and the agent uses it to decide to
try again, so that grading counts as an evaluator call (the last trial's grading does not,
as in ReAct). The reflections of earlier trials go into the next trial's prompt; the memory
hook is consulted in every trial exactly as in ReAct, and a retry's first decision carries the
failed action that ended the trial before (its facts are those after a failed action).
"""

from __future__ import annotations

import time

from countermem.agents._prompts import truncate
from countermem.agents._react import AgentLimits, EventSink, ReActAgent, TokenCounter, TrialResult
from countermem.agents._trajectory import Event, TaskOutcome
from countermem.core import MemoryHook, Task
from countermem.domains import Benchmark, WorldModel
from countermem.llm import LLM, Message

REFLECTION_PROMPT = """Your attempt failed: {verdict}
In at most three sentences, say what went wrong and what you will do differently next time. \
Do not write the action itself."""

REFLECTION_LIMIT = 500
"""Characters of one reflection carried into later trials."""


class ReflexionAgent(ReActAgent):
    """ReAct with up to `max_trials` trials and verbal self-reflection between them."""

    def __init__(
        self,
        llm: LLM,
        benchmark: Benchmark,
        world_model: WorldModel,
        limits: AgentLimits | None = None,
        memory: MemoryHook | None = None,
        token_counter: TokenCounter | None = None,
        sink: EventSink | None = None,
        max_trials: int = 3,
    ) -> None:
        super().__init__(llm, benchmark, world_model, limits, memory, token_counter, sink)
        if max_trials < 1:
            raise ValueError("max_trials must be at least 1")
        self.max_trials = max_trials

    def run(self, task: Task) -> TaskOutcome:
        started = time.perf_counter()
        reflections: list[str] = []
        total = TrialResult()
        last = TrialResult()
        for trial_index in range(self.max_trials):
            context = ""
            if reflections:
                context = "Reflections on your earlier failed attempts:\n" + "\n".join(
                    f"- Attempt {i + 1}: {text}" for i, text in enumerate(reflections)
                )
            after = (last.final_action, last.final_result) if last.final_action and last.final_result else None
            last = self.run_trial(
                task, trial=trial_index, extra_context=context, tokens_spent=total.usage.total, after=after
            )
            _accumulate(total, last)
            if last.solved or trial_index == self.max_trials - 1:
                break
            if total.usage.total >= self.limits.max_tokens:
                last.stop_reason = "token_limit"
                break
            if last.final_result is not None:
                total.evaluator_calls += 1
            reflections.append(self._reflect(last, trial_index, total))
        total.final_action, total.final_result = last.final_action, last.final_result
        total.submitted, total.forced_submit = last.submitted, last.forced_submit
        total.stop_reason = last.stop_reason
        outcome = self._outcome(task, total, trials=trial_index + 1, started=started)
        self._feedback(total, outcome)
        return outcome

    def _reflect(self, trial: TrialResult, trial_index: int, total: TrialResult) -> str:
        if trial.final_result is None:
            verdict = f"no action was submitted ({trial.stop_reason})."
        else:
            verdict = (
                f"the final action scored {trial.final_result.utility:.2f} "
                f"({trial.final_result.status}). {truncate(trial.final_result.details, 300)}"
            )
        messages = [*trial.messages, Message(role="user", content=REFLECTION_PROMPT.format(verdict=verdict))]
        completion = self.llm.complete(messages, self.limits.params)
        total.usage = total.usage + completion.usage
        text = truncate(completion.text.strip(), REFLECTION_LIMIT)
        self._emit(
            Event(kind="reflection", step=trial.steps, trial=trial_index, text=text, usage=completion.usage,
                  messages=messages[trial.prompt_sent:])
        )
        return text


def _accumulate(total: TrialResult, trial: TrialResult) -> None:
    total.steps += trial.steps
    total.evaluator_calls += trial.evaluator_calls
    total.failed_attempts += trial.failed_attempts
    total.parse_errors += trial.parse_errors
    total.usage = total.usage + trial.usage
    total.retrieval_tokens += trial.retrieval_tokens
    total.augmentation_tokens += trial.augmentation_tokens
    total.advice_record_ids.extend(trial.advice_record_ids)
    total.advice.extend(trial.advice)
    if total.first_decision is None:
        total.first_decision = trial.first_decision
