"""The output contract between a ReAct agent and its LLM.

An answer must name its verb on a line `Action: check` or `Action: submit` and give the
action either in the first fenced code block after that line or, for a one-line action,
after the verb on the same line (`Action: submit SELECT 1`, `Action: check(SELECT 1)`).
A code block that opens right after that line and never closes (a small model's answer cut at
the token limit) is the action as written: the checker judges it, so it fails as an action
that memory can learn from rather than as a format error.
A `Thought:` before it is optional. `Action: submit` with no action submits the last
checked action (small models often write just that after a passing check); the agent
treats it as malformed when nothing was checked yet. Anything else is malformed: the agent re-prompts with
the reason, and the malformed answer counts as a failed attempt, so a model that cannot
follow the contract pays for it in the metrics instead of being silently repaired.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from countermem.core import Action, ParseError

Verb = Literal["check", "submit"]

_ACTION_LINE = re.compile(r"^\s*\**\s*action\s*\**\s*:\s*\**\s*(check|submit)\b(.*)$", re.IGNORECASE)
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+.-]*)[ \t]*\n(.*?)```", re.DOTALL)
_OPEN_FENCE = re.compile(r"\s*```[ \t]*([A-Za-z0-9_+.-]*)[ \t]*\n(.*)\Z", re.DOTALL)
_THOUGHT = re.compile(r"^\s*\**\s*thought\s*\**\s*:\s*(.*)$", re.IGNORECASE)


@dataclass(frozen=True)
class ParsedStep:
    verb: Verb
    action: Action | None
    """None only for a bare `Action: submit`, meaning the last checked action."""
    thought: str
    unterminated: bool = False
    """The action came from a code block that never closed (the answer was cut at the token
    limit, or the model forgot the fence): it is checked as written, so the failure is the
    checker's to judge and memory can learn from it, instead of being a parse error."""


def _strip_call(rest: str) -> str:
    rest = rest.strip()
    if (rest.startswith("(") and rest.endswith(")")) or (rest.startswith("[") and rest.endswith("]")):
        rest = rest[1:-1].strip()
    return rest.strip("`").strip()


def parse_step(text: str) -> ParsedStep:
    """Parse one LLM answer; raise ParseError saying what the contract needed."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        match = _ACTION_LINE.match(line)
        if match is None:
            continue
        verb: Verb = "check" if match.group(1).lower() == "check" else "submit"
        thought = _thought_before(lines[:index])
        after = "\n".join(lines[index + 1 :])
        inline = match.group(2)
        fence_on_line = inline.strip().startswith("```")
        if fence_on_line:
            after = inline.strip() + "\n" + after
        fence = _FENCE.search(after)
        open_fence = _OPEN_FENCE.match(after)
        unterminated = False
        if fence is not None and (fence_on_line or not _strip_call(inline)):
            content = fence.group(2).strip()
        elif fence is None and open_fence is not None and (fence_on_line or not _strip_call(inline)):
            content, unterminated = open_fence.group(2).strip(), True
        else:
            content = _strip_call(inline)
        if not content and verb == "submit":
            return ParsedStep(verb=verb, action=None, thought=thought)
        if not content:
            raise ParseError(
                f"'Action: {verb}' has no action: put it in a fenced code block right after that line"
            )
        return ParsedStep(verb=verb, action=Action(content=content), thought=thought, unterminated=unterminated)
    raise ParseError(
        "no line 'Action: check' or 'Action: submit' found: end your answer with one of them, "
        "followed by the action in a fenced code block"
    )


def _thought_before(lines: list[str]) -> str:
    collected: list[str] = []
    for line in lines:
        match = _THOUGHT.match(line)
        collected.append(match.group(1) if match else line)
    return "\n".join(collected).strip()
