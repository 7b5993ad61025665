"""A scripted 'oracle' reply function for plumbing runs (`--backbone scripted`).

It checks the benchmark's known-wrong action, then submits the gold action: it exercises
every path of a run (a failed check, an observation, a passing submission) at no model
cost. Asked as the memory generator (construct stage), it proposes the gold action of the
failed task (batch prompts: with the universal condition `none`; sampled prompts: the action
alone, its condition is derived from the facts), so a plumbing study admits records too.
Asked to write a lesson it writes one fixed lesson, and asked to apply one it answers the gold
action, so plumbing runs verify lessons too. Asked as ReasoningBank's judge it says success (the oracle always ends with the gold); asked to
distill, it writes one fixed strategy item: plumbing for the strategy baselines, never content. Its success figure says the pipeline works, nothing about any LLM; runs made with it
are labelled `scripted` everywhere.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from countermem.baselines import JUDGE_MARKER, is_strategy_prompt
from countermem.core import ConfigError, Task
from countermem.domains import Benchmark
from countermem.experiment._simulation import is_generator_prompt, read_generator_prompt
from countermem.llm import Message
from countermem.memory import (
    is_sampled_prompt,
    lesson_prompt_kind,
    lesson_prompt_situation,
    sampled_prompt_situation,
)

ORACLE_LESSON = "Lesson: Compare the result with what the question asks and fix the part the check names."


def oracle_script(benchmark: Benchmark, tasks: list[Task]) -> Callable[[list[Message]], str]:
    rendered = {benchmark.render_task(task): task for task in tasks}
    fence = benchmark.action_language

    def reply(messages: list[Message]) -> str:
        if is_strategy_prompt(messages):
            if messages[0].content.startswith(JUDGE_MARKER):
                return "Thoughts: the final answer was the checked one.\nStatus: success"
            return (
                "# Memory Item 1\n## Title Check before submitting\n"
                "## Description Run the checker on a candidate before submitting it.\n"
                "## Content A failed check names what is wrong; fix that part and check again."
            )
        lesson = lesson_prompt_kind(messages)
        if lesson == "write":
            return ORACLE_LESSON
        if lesson == "apply":
            gold_text = benchmark.gold_action(_repaired_task(rendered, lesson_prompt_situation(messages))).content
            return f"```{fence}\n{gold_text}\n```"
        if is_sampled_prompt(messages):
            gold_text = benchmark.gold_action(_repaired_task(rendered, sampled_prompt_situation(messages))).content
            if benchmark.repair_mode == "resolve":
                return gold_text
            return f"Fix: the known answer.\n```{fence}\n{gold_text}\n```"
        if is_generator_prompt(messages):
            gold_text = benchmark.gold_action(
                _repaired_task(rendered, read_generator_prompt(messages).situation)
            ).content
            return f"### Alternative 1\nRationale: the known answer.\nCondition: none\n```{fence}\n{gold_text}\n```"
        user = next((m.content for m in messages if m.role == "user"), "")
        task = next((t for text, t in rendered.items() if user.startswith(text)), None)
        if task is None:
            raise ConfigError("the scripted oracle was asked about a task it was not given")
        turns = sum(1 for m in messages if m.role == "assistant")
        if turns == 0:
            try:
                wrong = benchmark.wrong_action(task).content
            except NotImplementedError:
                wrong = ""
            if wrong:
                return f"Thought: try a first guess.\nAction: check\n```{fence}\n{wrong}\n```"
        gold = benchmark.gold_action(task).content
        return f"Thought: this should be right.\nAction: submit\n```{fence}\n{gold}\n```"

    return reply


def _repaired_task(rendered: dict[str, Task], situation: str) -> Task:
    """The task whose rendering the generator's situation shows: in full, or clipped to its head
    and tail (the clip keeps both), so the longest shared head plus tail picks it."""
    exact = next((t for text, t in rendered.items() if situation.startswith(text)), None)
    if exact is not None:
        return exact

    def shared(text: str) -> int:  # commonprefix compares characters, which is what is wanted here
        head = os.path.commonprefix([text, situation])  # noqa: RUF071
        tail = os.path.commonprefix([text[::-1], situation[::-1]])  # noqa: RUF071
        return len(head) + len(tail)

    best = max(rendered, key=shared, default=None)
    if best is None or shared(best) == 0:
        raise ConfigError("the scripted oracle was asked to repair a task it was not given")
    return rendered[best]

