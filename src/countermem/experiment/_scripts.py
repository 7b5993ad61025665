"""A scripted 'oracle' reply function for plumbing runs (`--backbone scripted`).

It checks the benchmark's known-wrong action, then submits the gold action: it exercises
every path of a run (a failed check, an observation, a passing submission) at no model
cost. Asked as the memory generator (construct stage), it proposes the gold action of the
failed task with the universal condition `none`, so a plumbing study admits records too. Its success figure says the pipeline works, nothing about any LLM; runs made with it
are labelled `scripted` everywhere.
"""

from __future__ import annotations

from collections.abc import Callable

from countermem.core import ConfigError, Task
from countermem.domains import Benchmark
from countermem.experiment._simulation import is_generator_prompt, read_generator_prompt
from countermem.llm import Message


def oracle_script(benchmark: Benchmark, tasks: list[Task]) -> Callable[[list[Message]], str]:
    rendered = {benchmark.render_task(task): task for task in tasks}
    fence = benchmark.action_language

    def reply(messages: list[Message]) -> str:
        if is_generator_prompt(messages):
            situation = read_generator_prompt(messages).situation
            found = next((t for text, t in rendered.items() if situation.startswith(text)), None)
            if found is None:
                raise ConfigError("the scripted oracle was asked to repair a task it was not given")
            gold_text = benchmark.gold_action(found).content
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
