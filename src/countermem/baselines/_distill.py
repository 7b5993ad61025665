"""The ReasoningBank distiller: an LLM judges trajectories and distills strategy items from them.

The prompts follow ReasoningBank's (Ouyang et al. 2025, appendix), made domain-neutral:

- judge: the LLM sees the task, the actions the agent checked with the feedback the agent saw, and
  the final answer, and says `Status: success` or `failure`. It never sees the final grading
  (which the agent did not see either); that is what "no verification" means here. A reply with
  no readable status counts as failure and is recorded in `problems`.
- distill, one trajectory: the success prompt asks why it worked and for transferable insights;
  the failure prompt asks why it failed and for lessons that prevent the failure.
- distill, k > 1 trajectories of one task (MaTTS parallel scaling): one self-contrast prompt shows
  all k with their labels and asks for what the successful ones share and what the failed ones did
  wrong.

Each answers at most `MAX_ITEMS` (3) items in the markdown contract::

    # Memory Item 1
    ## Title <title>
    ## Description <one sentence>
    ## Content <1-3 sentences>

`parse_strategy_items` reads it tolerantly (bold markers, `Title:` labels, text on the line after
a header, a surrounding code fence, no `# Memory Item` header) and never raises: an item missing a
part is dropped, items past the limit are dropped, and each drop is a line in the problems. An
item's label is its trajectory's label; from a contrast over k trajectories it is `success` when
any of the k succeeded (the items then describe what worked), else `failure`.

Every LLM call's usage is added to `usage_total`, the construction cost of this baseline (never
task-run tokens). A backend failure (`LLMError`) propagates, as in the generator.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from countermem.baselines._bank import LabelSource, StrategyItem, StrategyLabel
from countermem.core import ConfigError, Usage
from countermem.llm import LLM, GenerationParams, Message
from countermem.memory import truncate_situation

MAX_ITEMS = 3
TASK_CHAR_LIMIT = 3000
ACTION_CHAR_LIMIT = 1500
OBSERVATION_CHAR_LIMIT = 400
TRAJECTORY_CHAR_LIMIT = 6000
TITLE_CHAR_LIMIT = 200
PART_CHAR_LIMIT = 1000

JUDGE_MARKER = "You are an expert in evaluating the performance of an agent"
DISTILL_MARKER = "You extract memory items (reusable reasoning strategies)"

JUDGE_SYSTEM = f"""\
{JUDGE_MARKER} that solves {{domain}} tasks. You will be given the task, the agent's trajectory \
(the actions it tried and the feedback it saw) and its final answer. Decide whether the agent \
accomplished the task. No hidden test result is available to you: judge from what is shown.

Answer in exactly this format:
Thoughts: <your reasoning>
Status: success OR failure"""

JUDGE_USER = """\
## Task
{task}

## Trajectory
{trajectory}

Did the agent succeed? End with `Status: success` or `Status: failure`."""

_FORMAT = """\
Your output must strictly follow this Markdown format (at most {n} items):
# Memory Item 1
## Title <the title of the memory item>
## Description <one sentence summary of the memory item>
## Content <1-3 sentences describing the insight>"""

_NOTES = """\
- You can extract at most {n} memory items.
- Do not repeat similar or overlapping items.
- Do not mention the specific task, names, numbers or strings of this task; focus on insights \
that generalise to similar {domain} tasks."""

SUCCESS_SYSTEM = f"""\
{DISTILL_MARKER} for an agent that solves {{domain}} tasks. You will be given a task and the \
trajectory in which the agent successfully accomplished it.

## Guidelines
Extract and summarise useful insights as memory items, so that they help on future similar tasks. \
First think about why the trajectory succeeded, then summarise the insights.

## Important notes
{_NOTES}

{_FORMAT}"""

FAILURE_SYSTEM = f"""\
{DISTILL_MARKER} for an agent that solves {{domain}} tasks. You will be given a task and the \
trajectory in which the agent attempted it but failed.

## Guidelines
First reflect on why the trajectory failed, then summarise what lessons were learned or which \
strategies would prevent the failure in the future, as memory items.

## Important notes
{_NOTES}

{_FORMAT}"""

CONTRAST_SYSTEM = f"""\
{DISTILL_MARKER} for an agent that solves {{domain}} tasks. You will be given a task and several \
trajectories of the agent on it, each labelled as a success or a failure.

## Guidelines
Compare and contrast the trajectories (self-contrast) to find the most useful and general \
strategies as memory items:
- identify the patterns and strategies that the successful trajectories share;
- identify the mistakes of the failed trajectories and formulate strategies that prevent them;
- prefer strategies that generalise beyond this task's exact wording.
First think about why some trajectories succeeded while others failed.

## Important notes
{_NOTES}

{_FORMAT}"""

DISTILL_USER = """\
## Task
{task}

{trajectories}

Write the memory items now."""

_STATUS = re.compile(r"status\W{0,6}(success|failure|succeeded|failed)", re.IGNORECASE)
_WORD = re.compile(r"\b(success|failure)\b", re.IGNORECASE)
_ITEM_HEADER = re.compile(r"^\s*#{1,6}\s*\**\s*memory\s+item\b.*$", re.IGNORECASE)
_PART = re.compile(
    r"^\s*(?:#{1,6}\s*\**\s*(title|description|content)\b\s*\**\s*:?"
    r"|(?:[-*]\s+)?\**\s*(title|description|content)\s*\**\s*:)\s*\**\s*(.*)$",
    re.IGNORECASE,
)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TrajectoryStep(_Frozen):
    """One action the agent checked and the feedback it saw."""

    trial: int = 0
    action: str
    status: str
    utility: float
    observation: str = ""


class Trajectory(_Frozen):
    """What the agent did on one run of a task, as the learner saw it through its decisions."""

    task_id: str
    domain: str
    benchmark: str
    steps: tuple[TrajectoryStep, ...] = ()
    final_action: str | None = None

    def render(self, action_language: str = "") -> str:
        """The text an LLM reads: checked actions with their feedback, then the final answer (no verdict)."""
        lines: list[str] = []
        for number, step in enumerate(self.steps, 1):
            action, _ = truncate_situation(step.action, ACTION_CHAR_LIMIT)
            observation, _ = truncate_situation(step.observation, OBSERVATION_CHAR_LIMIT)
            lines.append(f"Step {number} (trial {step.trial + 1}): the agent checked")
            lines.append(f"```{action_language}\n{action}\n```")
            lines.append(f"Feedback: check FAILED (status {step.status}, utility {step.utility:.2f}). {observation}")
        if self.final_action is None:
            lines.append("Final answer: none (the agent gave no answer).")
        else:
            final, _ = truncate_situation(self.final_action, ACTION_CHAR_LIMIT)
            lines.append(f"Final answer:\n```{action_language}\n{final}\n```")
        text, _ = truncate_situation("\n".join(lines), TRAJECTORY_CHAR_LIMIT)
        return text


@dataclass(frozen=True)
class ParsedItem:
    title: str
    description: str
    content: str


def is_strategy_prompt(messages: Sequence[Message]) -> bool:
    """Whether `messages` are a judge or distill prompt of this module (to route a simulated backbone)."""
    return bool(messages) and messages[0].content.startswith((JUDGE_MARKER, DISTILL_MARKER))


def parse_judgement(text: str) -> bool | None:
    """True for success, False for failure, None when the reply says neither clearly."""
    found = _STATUS.findall(text)
    if found:
        return found[-1].lower() in ("success", "succeeded")
    words = {word.lower() for word in _WORD.findall(text)}
    if len(words) == 1:
        return words == {"success"}
    return None


def parse_strategy_items(text: str, max_items: int = MAX_ITEMS) -> tuple[list[ParsedItem], list[str]]:
    """Items in the markdown contract and the problems met; never raises (see the module docstring)."""
    problems: list[str] = []
    blocks: list[dict[str, list[str]]] = []
    current: dict[str, list[str]] | None = None
    part: str | None = None
    for raw in text.replace("\r\n", "\n").split("\n"):
        if raw.strip().startswith("```"):
            continue
        if _ITEM_HEADER.match(raw):
            current, part = {}, None
            blocks.append(current)
            continue
        match = _PART.match(raw)
        if match:
            name = (match.group(1) or match.group(2)).lower()
            if current is None or (name == "title" and "title" in current):
                current = {}
                blocks.append(current)
            part = name
            current.setdefault(name, [])
            rest = match.group(3).strip().strip("*").strip()
            if rest:
                current[name].append(rest)
            continue
        if current is not None and part is not None and raw.strip():
            current[part].append(raw.strip())
    items: list[ParsedItem] = []
    for number, block in enumerate(blocks, 1):
        parts = {name: " ".join(" ".join(lines).split()) for name, lines in block.items()}
        missing = [name for name in ("title", "description", "content") if not parts.get(name)]
        if missing:
            problems.append(f"item {number} dropped: no {', '.join(missing)}")
            continue
        if len(items) == max_items:
            problems.append(f"item {number} dropped: at most {max_items} items are kept")
            continue
        items.append(
            ParsedItem(
                title=parts["title"][:TITLE_CHAR_LIMIT],
                description=parts["description"][:PART_CHAR_LIMIT],
                content=parts["content"][:PART_CHAR_LIMIT],
            )
        )
    if not blocks:
        problems.append("no memory item found (expected '# Memory Item' with Title, Description, Content)")
    return items, problems


class StrategyDistiller:
    """Judge and distill with one LLM; `usage_total` sums every call, `problems` logs what was dropped."""

    def __init__(
        self,
        llm: LLM,
        *,
        action_language: str = "",
        judge_params: GenerationParams | None = None,
        distill_params: GenerationParams | None = None,
        max_items: int = MAX_ITEMS,
    ) -> None:
        if not 1 <= max_items <= MAX_ITEMS:
            raise ConfigError(f"max_items must lie in 1..{MAX_ITEMS}, got {max_items}")
        self.llm = llm
        self.action_language = action_language
        self.judge_params = judge_params or GenerationParams(max_tokens=384)
        self.distill_params = distill_params or GenerationParams(max_tokens=1024)
        self.max_items = max_items
        self.usage_total = Usage()
        self.judge_calls = 0
        self.distill_calls = 0
        self.problems: list[str] = []

    def judge(self, task_text: str, trajectory: Trajectory) -> bool:
        """LLM-as-judge: did this trajectory accomplish the task? Unreadable replies count as failure."""
        system = JUDGE_SYSTEM.format(domain=trajectory.domain)
        user = JUDGE_USER.format(task=_clip_task(task_text), trajectory=trajectory.render(self.action_language))
        text = self._call(system, user, self.judge_params)
        self.judge_calls += 1
        verdict = parse_judgement(text)
        if verdict is None:
            self.problems.append(f"{trajectory.task_id}: judge reply has no status; counted as failure")
            return False
        return verdict

    def distill(
        self,
        task_text: str,
        trajectories: Sequence[Trajectory],
        labels: Sequence[bool],
        *,
        label_source: LabelSource = "llm_judge",
    ) -> list[StrategyItem]:
        """At most `max_items` items from one task's trajectories (self-contrast when more than one)."""
        if not trajectories or len(trajectories) != len(labels):
            raise ConfigError(
                f"distill needs one label per trajectory, got {len(trajectories)} trajectories "
                f"and {len(labels)} labels"
            )
        first = trajectories[0]
        if any(t.task_id != first.task_id for t in trajectories):
            raise ConfigError("distill contrasts trajectories of ONE task; got several task ids")
        task = _clip_task(task_text)
        if len(trajectories) == 1:
            system = (SUCCESS_SYSTEM if labels[0] else FAILURE_SYSTEM).format(domain=first.domain, n=self.max_items)
            body = f"## Trajectory\n{first.render(self.action_language)}"
        else:
            system = CONTRAST_SYSTEM.format(domain=first.domain, n=self.max_items)
            body = "\n\n".join(
                f"## Trajectory {i} ({'success' if ok else 'failure'})\n{t.render(self.action_language)}"
                for i, (t, ok) in enumerate(zip(trajectories, labels, strict=True), 1)
            )
        text = self._call(system, DISTILL_USER.format(task=task, trajectories=body), self.distill_params)
        self.distill_calls += 1
        parsed, problems = parse_strategy_items(text, self.max_items)
        self.problems.extend(f"{first.task_id}: {problem}" for problem in problems)
        label: StrategyLabel = "success" if any(labels) else "failure"
        return [
            StrategyItem(
                title=p.title,
                description=p.description,
                content=p.content,
                domain=first.domain,
                benchmark=first.benchmark,
                source_task_id=first.task_id,
                label=label,
                label_source=label_source,
                source_task_text=task,
            )
            for p in parsed
        ]

    def _call(self, system: str, user: str, params: GenerationParams) -> str:
        messages = [Message(role="system", content=system), Message(role="user", content=user)]
        completion = self.llm.complete(messages, params)
        self.usage_total = self.usage_total + completion.usage
        return completion.text


def _clip_task(text: str) -> str:
    clipped, _ = truncate_situation(text, TASK_CHAR_LIMIT)
    return clipped
