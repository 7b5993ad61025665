"""Module I, the generator: ask the LLM for at most 4 local edits of an action that failed its check.

Why local edits with conditions: a record is worth keeping only if the correction it carries is
small enough to transfer and comes with a requirement saying *when* it transfers. So the LLM is
asked, for each edit, for a one-line rationale and an applicability condition in the language of
`countermem.memory._conditions`, written over the decision's fact names, which the prompt lists
with their current values. Nothing here judges an edit; admission (Module II) checks each one.

Prompt. `SYSTEM_TEMPLATE` and `USER_TEMPLATE` are fixed; every field is cut to a limit before
rendering (`PromptLimits`, defaults below) so that one huge trajectory, action or checker message
cannot push the instructions out of a small model's context:

- situation: `SITUATION_CHAR_LIMIT` (4000) characters, head and tail kept with a marker between;
- failed action: `ACTION_CHAR_LIMIT` (3000), head and tail (an edit of a cut action cannot be
  complete, so a cut is a known weakness; the limit is generous for that reason);
- check details: `DETAILS_CHAR_LIMIT` (800), head and tail;
- facts list: `FACTS_CHAR_LIMIT` (2400) for the whole list, one `name = value` line per fact in the
  domain's order, each value cut to `FACT_VALUE_CHAR_LIMIT` (600; a list shows its first items and
  how many it holds, enough for the columns of a mid-sized schema); facts that do not fit are dropped whole, and a last line says how many.

Output contract (what `parse_alternatives` reads), at most `max_alternatives` blocks::

    ### Alternative 1
    Rationale: <one line>
    Condition: <predicate or none>
    ```<action_language>
    <the complete edited action>
    ```

The parser forgives what small models do: bold markers, `Option 2:` or `**Alternative 2.**`
headers, list bullets before labels, the condition on the line after its label, a missing
language tag, a closing fence glued to the last line of code, or no headers at all (each code
block is then one alternative). It never raises: a block without a code block, with an
unterminated one, identical to the failed action after whitespace normalisation, or duplicating
an earlier block is dropped; beyond the limit the first valid ones are kept; each such event is a
line in `Proposal.problems`. A missing rationale becomes empty. A missing condition stays `None`
(admission rejects it; it is never read as universal).

A backend failure (`LLMError`) is not a malformed answer and propagates to the caller.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field, field_validator

from countermem.core import Action, CheckResult, Facts, FactValue, Usage
from countermem.llm import LLM, GenerationParams, Message
from countermem.memory._record import truncate_situation

MAX_ALTERNATIVES = 4
SITUATION_CHAR_LIMIT = 4000
ACTION_CHAR_LIMIT = 3000
DETAILS_CHAR_LIMIT = 800
FACTS_CHAR_LIMIT = 2400
FACT_VALUE_CHAR_LIMIT = 600
RATIONALE_CHAR_LIMIT = 300
"""A rationale is one line; a longer one is cut here (it is shown to later agents)."""
DEFAULT_MAX_TOKENS = 1536
"""Room for 4 blocks of a few hundred tokens each; a proof or program edit can be long."""

SYSTEM_TEMPLATE = """\
You repair an agent's failed action by proposing small, LOCAL edits of it. A checker runs every \
edit from the same starting state as the failed action, so each edit must be the COMPLETE edited \
action, not a fragment or a diff. Change only what is needed; do not rewrite from scratch.

For each edit give a one-line rationale and an applicability condition: a checkable requirement \
on the listed facts of this decision under which the edit is right, and which can be false on a \
similar-looking task. Write `none` only if the edit is right whatever the facts are.
Condition language: compare a fact with a value, test a quoted string in a list fact or a text \
fact, a true/false fact alone, and combine with `and`, `or`, `not` and parentheses. Examples \
with this decision's facts: {examples}. Use only the fact names listed (a list ending in \
`... +N more` holds more items than shown). A condition that is false for THIS decision is \
discarded.

Answer with at most {n} blocks in exactly this format and nothing else:

### Alternative 1
Rationale: <one line: what the edit changes and why>
Condition: <condition, or none>
```{lang}
<the complete edited action>
```"""

USER_TEMPLATE = """\
Domain: {domain} (benchmark: {benchmark})

## Situation
{situation}

## Failed action
```{lang}
{action}
```

## Check result
status: {status}; utility: {utility:.3f} (1.000 means passed)
{details}

## Facts of this decision (name = current value)
{facts}

Propose at most {n} local edits of the failed action that would pass the check."""


@dataclass(frozen=True)
class PromptLimits:
    """Character limits applied to each prompt field before rendering (see the module docstring)."""

    situation: int = SITUATION_CHAR_LIMIT
    failed_action: int = ACTION_CHAR_LIMIT
    check_details: int = DETAILS_CHAR_LIMIT
    facts: int = FACTS_CHAR_LIMIT
    fact_value: int = FACT_VALUE_CHAR_LIMIT

    def __post_init__(self) -> None:
        for name in ("situation", "failed_action", "check_details", "facts", "fact_value"):
            if getattr(self, name) < 40:
                raise ValueError(f"PromptLimits.{name} must be at least 40 characters to say anything")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class GenerationRequest(_Frozen):
    """One failed decision to repair. `situation` is what the agent saw (task statement first)."""

    domain: str
    benchmark: str
    action_language: str
    situation: str
    failed_action: Action
    failed_result: CheckResult
    facts: Facts = Field(default_factory=Facts)
    max_alternatives: int = Field(default=MAX_ALTERNATIVES, ge=1, le=MAX_ALTERNATIVES)

    @field_validator("failed_result")
    @classmethod
    def _must_have_failed(cls, value: CheckResult) -> CheckResult:
        if value.passed:
            raise ValueError("the generator repairs failed actions; this check result passed")
        return value


class Alternative(_Frozen):
    """One proposed edit. `condition_text` is as written; None when the answer gave no condition."""

    action: Action
    rationale: str = ""
    condition_text: str | None = None


class Proposal(_Frozen):
    """What one generator call produced; `problems` lists what the parser dropped or had to guess."""

    alternatives: list[Alternative]
    usage: Usage
    raw_text: str
    problems: list[str] = Field(default_factory=list)
    truncated_fields: list[str] = Field(default_factory=list)
    model: str = ""


# --- prompt ------------------------------------------------------------------------------------


def clip(text: str, limit: int) -> tuple[str, bool]:
    """Head and tail of `text` within `limit` characters, with a marker saying how much was cut."""
    return truncate_situation(text, limit)


def _format_scalar(value: FactValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return repr(value)


def _format_fact(value: FactValue, limit: int) -> tuple[str, bool]:
    if isinstance(value, tuple):
        suffix = f" ({len(value)} items)" if len(value) != 1 else " (1 item)"
        budget = limit - len(suffix) - len(f"[, ... +{len(value)} more]")
        shown: list[str] = []
        used = 0
        for item in value:
            text = _format_scalar(item)
            if used + len(text) + 2 > budget:
                break
            shown.append(text)
            used += len(text) + 2
        rest = len(value) - len(shown)
        body = ", ".join(shown) + (f"{', ' if shown else ''}... +{rest} more" if rest else "")
        return "[" + body + "]" + suffix, rest > 0
    text = _format_scalar(value)
    if len(text) <= limit:
        return text, False
    return text[: limit - 24] + f'..." ({len(str(value))} chars)', True


def render_facts(
    facts: Facts, limit: int = FACTS_CHAR_LIMIT, value_limit: int = FACT_VALUE_CHAR_LIMIT
) -> tuple[str, bool]:
    """The facts list of the prompt: `name = value` lines in the domain's order, within `limit`."""
    if not facts.values:
        return "(no facts for this decision: write `none` as every condition)", False
    lines: list[str] = []
    cut = False
    for name, value in facts.values.items():
        text, value_cut = _format_fact(value, value_limit)
        lines.append(f"{name} = {text}")
        cut = cut or value_cut
    if sum(len(line) + 1 for line in lines) - 1 <= limit:
        return "\n".join(lines), cut
    reserve = 40
    kept: list[str] = []
    used = 0
    for line in lines:
        if used + len(line) + 1 > limit - reserve:
            break
        kept.append(line)
        used += len(line) + 1
    kept.append(f"({len(lines) - len(kept)} more facts not shown)")
    return "\n".join(kept), True


def render_generation_prompt(
    request: GenerationRequest, limits: PromptLimits | None = None
) -> tuple[list[Message], list[str]]:
    """The messages sent to the LLM and the names of the fields that were cut to their limit."""
    limits = limits or PromptLimits()
    situation, s_cut = clip(request.situation, limits.situation)
    action, a_cut = clip(request.failed_action.content, limits.failed_action)
    details, d_cut = clip(request.failed_result.details or "(no details)", limits.check_details)
    facts, f_cut = render_facts(request.facts, limits.facts, limits.fact_value)
    truncated = [
        name
        for name, was_cut in (
            ("situation", s_cut),
            ("failed_action", a_cut),
            ("check_details", d_cut),
            ("facts", f_cut),
        )
        if was_cut
    ]
    lang = _fence_tag(request.action_language)
    system = SYSTEM_TEMPLATE.format(
        n=request.max_alternatives, lang=lang, examples=condition_examples(request.facts)
    )
    user = USER_TEMPLATE.format(
        domain=request.domain,
        benchmark=request.benchmark,
        situation=situation,
        lang=lang,
        action=action,
        status=request.failed_result.status,
        utility=request.failed_result.utility,
        details=details,
        facts=facts,
        n=request.max_alternatives,
    )
    return [Message(role="system", content=system), Message(role="user", content=user)], truncated


GENERIC_CONDITION_EXAMPLES = '`n_vars > 20`, `logic == "QF_LIA"`, `"price" in columns`, `has_foreign_keys`'


def condition_examples(facts: Facts) -> str:
    """Conditions written over the decision's own facts, true here, so that a small model that
    copies an example at least copies a valid one; generic ones when the facts offer none."""
    examples: list[str] = []
    kinds: set[str] = set()
    for name, value in sorted(facts.values.items()):
        if isinstance(value, bool):
            kind, text = "bool", name if value else f"not {name}"
        elif isinstance(value, int | float):
            kind, text = "number", f"{name} >= {value}"
        elif isinstance(value, tuple) and value and '"' not in value[0]:
            kind, text = "list", f'"{value[0]}" in {name}'
        elif isinstance(value, str) and value and len(value) <= 40 and '"' not in value:
            kind, text = "text", f'{name} == "{value}"'
        else:
            continue
        if kind not in kinds:
            kinds.add(kind)
            examples.append(f"`{text}`")
    return ", ".join(examples) if examples else GENERIC_CONDITION_EXAMPLES


def _fence_tag(language: str) -> str:
    return re.sub(r"[^A-Za-z0-9_+.-]", "", language)


# --- parser ------------------------------------------------------------------------------------

_HEADER = re.compile(
    r"^\s*(?P<prefix>(?:#{1,6}\s*)?(?:\*\*|__)?)\s*(?:alternative|option|edit|fix)\s*(?:#|no\.)?\s*"
    r"(?P<number>\d+)(?P<rest>.*)$",
    re.IGNORECASE,
)
_FENCE_OPEN = re.compile(r"^\s*(?P<ticks>`{3,}|~{3,})\s*(?P<lang>[^\s`]*)\s*(?P<tail>.*)$")
_LABEL = re.compile(
    r"^\s*(?:[-*•>]\s+)?(?:\d+[.)]\s+)?(?:\*\*|__)?\s*"
    r"(?P<label>rationale|reason|why|applicability\s+condition|condition|applies\s+when)"
    r"\s*(?:\*\*|__)?\s*[:：]\s*(?:\*\*|__)?(?P<value>.*?)(?:\*\*|__)?\s*$",
    re.IGNORECASE,
)


def _is_header(match: re.Match[str]) -> bool:
    if match.group("prefix"):
        return True
    return match.group("rest").strip(" \t*_:.)-–—") == ""


@dataclass
class _Fence:
    lang: str
    lines: list[str] = field(default_factory=list)
    closed: bool = False


@dataclass
class _Block:
    number: int
    items: list[str | _Fence] = field(default_factory=list)

    @property
    def text(self) -> list[str]:
        return [item for item in self.items if isinstance(item, str)]

    @property
    def fences(self) -> list[_Fence]:
        return [item for item in self.items if isinstance(item, _Fence)]


def _scan(text: str) -> tuple[list[_Block], _Block]:
    """Split the answer into header blocks, skipping header-like lines inside code blocks.

    Returns the blocks and the text before the first header (the preamble).
    """
    preamble = _Block(number=0)
    blocks: list[_Block] = []
    current = preamble
    fence: _Fence | None = None
    closer = ""
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if fence is not None:
            stripped = line.strip()
            if stripped.startswith(closer) and not stripped.strip(closer[0]):
                fence.closed = True
                fence = None
            elif stripped.endswith(closer):
                fence.lines.append(line.rstrip()[: -len(closer)])
                fence.closed = True
                fence = None
            else:
                fence.lines.append(line)
            continue
        opening = _FENCE_OPEN.match(line)
        if opening is not None:
            tail = opening.group("tail")
            fence = _Fence(lang=opening.group("lang"))
            current.items.append(fence)
            closer = opening.group("ticks")[0] * 3
            if tail.rstrip().endswith(closer):
                fence.lines.append(tail.rstrip()[: -len(closer)])
                fence.closed = True
                fence = None
            elif tail.strip():
                fence.lines.append(tail)
            continue
        header = _HEADER.match(line)
        if header is not None and _is_header(header):
            current = _Block(number=int(header.group("number")))
            blocks.append(current)
            continue
        current.items.append(line)
    return blocks, preamble


def _split_on_fences(preamble: _Block) -> list[_Block]:
    """Without headers, each code block and the text since the previous one make one alternative."""
    blocks: list[_Block] = []
    pending: list[str | _Fence] = []
    for item in preamble.items:
        pending.append(item)
        if isinstance(item, _Fence):
            blocks.append(_Block(number=len(blocks) + 1, items=pending))
            pending = []
    return blocks


def _kind(label: str) -> str:
    return "condition" if "condition" in label.lower() or "applies" in label.lower() else "rationale"


def _read_labels(lines: list[str]) -> tuple[str | None, str | None]:
    rationale: str | None = None
    condition: str | None = None
    for position, line in enumerate(lines):
        match = _LABEL.match(line)
        if match is None:
            continue
        value = _clean(match.group("value"))
        kind = _kind(match.group("label"))
        if not value:
            following = next((ln for ln in lines[position + 1 :] if ln.strip()), "")
            if following and _LABEL.match(following) is None:
                value = _clean(following)
        if kind == "rationale" and rationale is None:
            rationale = value
        elif kind == "condition" and condition is None:
            condition = value or None
    return rationale, condition


def _clean(value: str) -> str:
    value = value.strip()
    for marker in ("**", "__"):
        if value.startswith(marker) and value.endswith(marker) and len(value) > 2 * len(marker):
            value = value[len(marker) : -len(marker)].strip()
    return value


def normalise_action(text: str) -> str:
    """Whitespace-insensitive form used to spot an edit that changes nothing or repeats another."""
    return " ".join(text.split())


def parse_alternatives(
    text: str,
    *,
    failed_action: Action,
    action_language: str = "",
    max_alternatives: int = MAX_ALTERNATIVES,
) -> tuple[list[Alternative], list[str]]:
    """Read alternatives from an LLM answer under the contract in the module docstring; never raises."""
    problems: list[str] = []
    if not text.strip():
        return [], ["the answer is empty"]
    blocks, preamble = _scan(text)
    if not blocks:
        if not preamble.fences:
            return [], ["no `### Alternative N` blocks and no code blocks in the answer"]
        problems.append("no `### Alternative N` headers; read each code block as one alternative")
        blocks = _split_on_fences(preamble)
    failed_key = normalise_action(failed_action.content)
    seen: dict[str, int] = {}
    kept: list[Alternative] = []
    surplus = 0
    wanted = _fence_tag(action_language).lower()
    for position, block in enumerate(blocks, start=1):
        name = f"alternative {block.number if block.number else position}"
        closed = [f for f in block.fences if f.closed]
        if not closed:
            reason = "an unterminated code block" if block.fences else "no code block with the edited action"
            problems.append(f"{name}: {reason}; dropped")
            continue
        fence = next((f for f in closed if wanted and f.lang.lower() == wanted), closed[0])
        if len(block.fences) > 1:
            problems.append(
                f"{name}: {len(block.fences)} code blocks; used the one tagged {fence.lang or '(none)'}"
            )
        content = "\n".join(fence.lines).strip("\n")
        if not content.strip():
            problems.append(f"{name}: its code block is empty; dropped")
            continue
        key = normalise_action(content)
        if key == failed_key:
            problems.append(f"{name}: identical to the failed action; dropped")
            continue
        if key in seen:
            problems.append(f"{name}: duplicate of alternative {seen[key]}; dropped")
            continue
        if len(kept) >= max_alternatives:
            surplus += 1
            continue
        seen[key] = block.number or position
        rationale, condition = _read_labels(block.text)
        if rationale is None:
            problems.append(f"{name}: no rationale line; left empty")
            rationale = ""
        if condition is None:
            problems.append(
                f"{name}: no condition; it will be rejected at admission, never read as universal"
            )
        rationale = rationale.splitlines()[0] if rationale else ""
        if len(rationale) > RATIONALE_CHAR_LIMIT:
            rationale = rationale[: RATIONALE_CHAR_LIMIT - 3] + "..."
        kept.append(
            Alternative(action=Action(content=content), rationale=rationale, condition_text=condition)
        )
    if surplus:
        problems.append(
            f"{surplus} valid alternative(s) beyond the limit of {max_alternatives}; kept the first"
        )
    if not kept and not any("dropped" in p for p in problems):
        problems.append("no alternatives found in the answer")
    return kept, problems


# --- generator ---------------------------------------------------------------------------------


class Generator:
    """Module I. Keeps running totals of the tokens it spent (`usage_total`) and of its calls."""

    def __init__(
        self,
        llm: LLM,
        *,
        params: GenerationParams | None = None,
        limits: PromptLimits | None = None,
    ) -> None:
        self.llm = llm
        self.params = params or GenerationParams(max_tokens=DEFAULT_MAX_TOKENS)
        self.limits = limits or PromptLimits()
        self.usage_total = Usage()
        self.calls = 0

    def propose(self, request: GenerationRequest) -> Proposal:
        """One LLM call; the usage it reports is added to `usage_total` before parsing."""
        messages, truncated = render_generation_prompt(request, self.limits)
        completion = self.llm.complete(messages, self.params)
        self.calls += 1
        self.usage_total = self.usage_total + completion.usage
        alternatives, problems = parse_alternatives(
            completion.text,
            failed_action=request.failed_action,
            action_language=request.action_language,
            max_alternatives=request.max_alternatives,
        )
        return Proposal(
            alternatives=alternatives,
            usage=completion.usage,
            raw_text=completion.text,
            problems=problems,
            truncated_fields=truncated,
            model=self.llm.name,
        )
