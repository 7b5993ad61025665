"""Wire the simulated backbone to a benchmark: its naive actions and a generator that knows the gold.

Everything made with this is SIMULATED: a controlled test bed for the memory machinery, never a
result about LLMs (`run_tasks(..., simulated=True)` labels metrics and reports).

The agent side maps each task's rendered text to `benchmark.naive_action(task)` (see
`countermem.llm.SimulatedLLM`). A task is found from a prompt by prefix: the first user message
(or the generator's situation) is the rendered task, possibly followed by a blank line and more
(Reflexion context, an advice block, a trajectory).

The generator side stands in for a model that can repair the failed action it is shown. For a
failed action of a known task it proposes, in the generator's output contract:

1. the task's gold action, with a condition derived only from facts listed in the generator
   prompt: the first identifier of the gold action that is missing from the failed action and
   listed in the `tables` fact gives `"<table>" in tables`; failing that, one listed in the
   `columns` fact (as `table.column`) gives `"<table.column>" in columns`; failing both, `none`.
   With probability `universal_rate` it writes `none` instead, so some stored records are
   universal and will do harm on look-alike tasks. The draw is seeded by (seed, task id, failed
   action), so the answer to one prompt never depends on call order, resumption or workers.
2. one distractor: a plausible repair that gets a detail wrong, i.e. the gold action with a small
   wrong edit (its first integer literal plus one, else its last token dropped), with the
   careless condition `none`; left out when that edit is empty, the failed action or the gold.
   With probability `wrong_first_rate` (seeded like the condition draw) the distractor comes
   first, as a real model's first idea often is wrong: only a check tells the two apart, which
   is what the unverified-advice ablation must be able to show.

Facts that the prompt cut for length are not seen, as they would not be by a real model.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass

from countermem.core import ConfigError, LLMError, Task
from countermem.domains import Benchmark
from countermem.llm import Message, SimulatedLLM
from countermem.memory._generator import SYSTEM_TEMPLATE as GENERATOR_SYSTEM_TEMPLATE
from countermem.memory._generator import USER_TEMPLATE as GENERATOR_USER_TEMPLATE

DEFAULT_UNIVERSAL_RATE = 0.3
DEFAULT_WRONG_FIRST_RATE = 0.5

_GENERATOR_MARKER = GENERATOR_SYSTEM_TEMPLATE.split("{", 1)[0]
_SITUATION_HEADER = "## Situation\n"
_FAILED_HEADER = "\n\n## Failed action\n"
_CHECK_HEADER = "\n\n## Check result"
_FACTS_HEADER = "## Facts of this decision (name = current value)\n"
_FACTS_END = "\n\nPropose at most"
_MAX_BLOCKS = re.compile(r"at most (\d+) blocks")
_FAILED_FENCE = re.compile(r"\A```[^\n]*\n(.*)\n```\Z", re.DOTALL)
_FACT_LINE = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*) = \[(?P<items>.*)\](?: \(\d+ items?\))?$")
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_QUOTED = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"")
_INTEGER = re.compile(r"(?<![\w.])\d+(?![\w.])")
_TOKEN = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\w+|[^\w\s]")


class TaskIndex:
    """Finds the task whose rendered text begins a prompt (the longest such text wins)."""

    def __init__(self, benchmark: Benchmark, tasks: list[Task]) -> None:
        self._by_text: dict[str, Task] = {}
        for task in tasks:
            text = benchmark.render_task(task)
            other = self._by_text.get(text)
            if other is not None and other.id != task.id:
                raise ConfigError(
                    f"tasks {other.id} and {task.id} render to the same text, so a simulated backbone "
                    "cannot tell them apart; give it one of them"
                )
            self._by_text[text] = task

    def find(self, text: str) -> Task | None:
        found = self._by_text.get(text)
        if found is not None:
            return found
        cut = text.find("\n\n")
        while cut != -1:
            found = self._by_text.get(text[:cut], found)
            cut = text.find("\n\n", cut + 1)
        return found


@dataclass(frozen=True)
class GeneratorPrompt:
    """What the simulated generator reads from the real generator's prompt."""

    situation: str
    failed_action: str
    listed: dict[str, tuple[str, ...]]
    """List facts as shown in the prompt (cut lists hold only their shown items)."""
    max_alternatives: int


def is_generator_prompt(messages: list[Message]) -> bool:
    """True for the memory generator's prompt (its fixed system text opens the first message)."""
    return bool(messages) and messages[0].role == "system" and messages[0].content.startswith(_GENERATOR_MARKER)


def read_generator_prompt(messages: list[Message]) -> GeneratorPrompt:
    users = [m.content for m in messages if m.role == "user"]
    if not users:
        raise LLMError("the generator prompt has no user message; the simulated generator cannot read it")
    text = users[-1]
    try:
        situation = text.split(_SITUATION_HEADER, 1)[1].split(_FAILED_HEADER, 1)[0]
        failed_block = text.split(_FAILED_HEADER, 1)[1].split(_CHECK_HEADER, 1)[0]
    except IndexError as error:
        raise LLMError(
            "the generator prompt lacks its '## Situation' or '## Failed action' section; the simulated "
            "generator follows countermem.memory's USER_TEMPLATE, update it with that template"
        ) from error
    fence = _FAILED_FENCE.match(failed_block.strip("\n"))
    if fence is None:
        raise LLMError("the generator prompt's failed action is not in one fenced block")
    listed: dict[str, tuple[str, ...]] = {}
    if _FACTS_HEADER in text:
        for line in text.split(_FACTS_HEADER, 1)[1].split(_FACTS_END, 1)[0].splitlines():
            match = _FACT_LINE.match(line)
            if match is not None:
                items = _JSON_STRING.findall(match.group("items"))
                listed[match.group("name")] = tuple(str(json.loads(item)) for item in items)
    system = messages[0].content if messages else ""
    blocks = _MAX_BLOCKS.search(system)
    return GeneratorPrompt(
        situation=situation,
        failed_action=fence.group(1),
        listed=listed,
        max_alternatives=int(blocks.group(1)) if blocks else 1,
    )


def _identifiers(action: str) -> list[str]:
    return _IDENTIFIER.findall(_QUOTED.sub(" ", action))


def derive_condition(gold: str, failed: str, listed: Mapping[str, tuple[str, ...]]) -> str:
    """`"<table>" in tables`, else `"<table.column>" in columns`, for a name the gold needs; else `none`."""
    failed_names = {name.lower() for name in _identifiers(failed)}
    missing = [name for name in dict.fromkeys(_identifiers(gold)) if name.lower() not in failed_names]
    tables = {name.lower(): name for name in listed.get("tables", ())}
    for name in missing:
        if name.lower() in tables:
            return f"{json.dumps(tables[name.lower()])} in tables"
    columns = listed.get("columns", ())
    for name in missing:
        for column in columns:
            if column.lower().rsplit(".", 1)[-1] == name.lower():
                return f"{json.dumps(column)} in columns"
    return "none"


def distractor_edit(action: str) -> str:
    """A small wrong edit: the first integer literal plus one, else the last token dropped."""
    unquoted = _QUOTED.sub(lambda m: " " * len(m.group()), action)
    number = _INTEGER.search(unquoted)
    if number is not None:
        return action[: number.start()] + str(int(number.group()) + 1) + action[number.end() :]
    tokens = list(_TOKEN.finditer(action))
    if len(tokens) < 2:
        return ""
    last = tokens[-1]
    return (action[: last.start()].rstrip() + action[last.end() :]).strip()


def _block(number: int, rationale: str, condition: str, lang: str, action: str) -> str:
    return f"### Alternative {number}\nRationale: {rationale}\nCondition: {condition}\n```{lang}\n{action}\n```"


class Simulation:
    """The benchmark-aware side of a simulated backbone: naive actions and the generator policy."""

    def __init__(
        self, benchmark: Benchmark, tasks: list[Task], *, universal_rate: float = DEFAULT_UNIVERSAL_RATE,
        seed: int = 0, wrong_first_rate: float = DEFAULT_WRONG_FIRST_RATE,
    ) -> None:
        for name, rate in (("universal_rate", universal_rate), ("wrong_first_rate", wrong_first_rate)):
            if not 0.0 <= rate <= 1.0:
                raise ConfigError(f"{name} must lie in [0, 1], got {rate}")
        self.wrong_first_rate = wrong_first_rate
        for header in (_SITUATION_HEADER, _FAILED_HEADER, _CHECK_HEADER, _FACTS_HEADER, _FACTS_END):
            if header not in GENERATOR_USER_TEMPLATE:
                raise ConfigError(
                    f"the memory generator's prompt no longer has {header.strip()!r}; update "
                    "countermem.experiment._simulation to read its new template"
                )
        self.benchmark = benchmark
        self.universal_rate = universal_rate
        self.seed = seed
        self.index = TaskIndex(benchmark, tasks)
        self._naive: dict[str, str] = {}
        self._missing: dict[str, str] = {}
        for task in tasks:
            try:
                self._naive[task.id] = benchmark.naive_action(task).content
            except NotImplementedError as error:
                raise ConfigError(f"the simulated backbone cannot run {benchmark.name}: {error}") from error
            except ConfigError as error:
                self._missing[task.id] = str(error)

    @property
    def unsupported(self) -> dict[str, str]:
        """Task id -> why it has no naive action; the simulated backbone raises LLMError on these."""
        return dict(self._missing)

    def naive_action(self, first_user_text: str) -> str | None:
        task = self.index.find(first_user_text)
        if task is None:
            return None
        if task.id in self._missing:
            raise LLMError(f"simulated backbone, task {task.id}: {self._missing[task.id]}")
        return self._naive[task.id]

    def propose(self, messages: list[Message]) -> str:
        """The simulated generator's answer (module docstring)."""
        prompt = read_generator_prompt(messages)
        task = self.index.find(prompt.situation)
        if task is None:
            raise LLMError(
                "the simulated generator does not know the task of this prompt: its situation does not "
                "begin with a rendered task it was built for (was the situation cut below the task text?)"
            )
        gold = self.benchmark.gold_action(task).content
        lang = re.sub(r"[^A-Za-z0-9_+.-]", "", self.benchmark.action_language)
        draw = random.Random(f"{self.seed}|{task.id}|{prompt.failed_action}").random()
        condition = "none" if draw < self.universal_rate else derive_condition(
            gold, prompt.failed_action, prompt.listed
        )
        proposals = [("rewrite it with this database's own names, codes and formats", condition, gold)]
        wrong = distractor_edit(gold)
        normal = {" ".join(prompt.failed_action.split()), " ".join(gold.split())}
        if prompt.max_alternatives > 1 and wrong.strip() and " ".join(wrong.split()) not in normal:
            proposals.append(("a small change of the failing part", "none", wrong))
            order = random.Random(f"{self.seed}|order|{task.id}|{prompt.failed_action}").random()
            if order < self.wrong_first_rate:
                proposals.reverse()
        return "\n\n".join(
            _block(number, rationale, cond, lang, action)
            for number, (rationale, cond, action) in enumerate(proposals, start=1)
        )

    def llm(self) -> SimulatedLLM:
        return SimulatedLLM(
            self.naive_action,
            generator_policy=self.propose,
            is_generator_prompt=is_generator_prompt,
            seed=self.seed,
            model=self.benchmark.name,
            language=self.benchmark.action_language,
        )


def simulated_llm_for(
    benchmark: Benchmark,
    tasks: list[Task],
    *,
    universal_rate: float = DEFAULT_UNIVERSAL_RATE,
    seed: int = 0,
    wrong_first_rate: float = DEFAULT_WRONG_FIRST_RATE,
) -> SimulatedLLM:
    """A simulated backbone for `tasks` of `benchmark` (module docstring); label what it makes simulated."""
    return Simulation(
        benchmark, tasks, universal_rate=universal_rate, seed=seed, wrong_first_rate=wrong_first_rate
    ).llm()
