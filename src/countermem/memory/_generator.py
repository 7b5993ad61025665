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

Two strategies (`GeneratorSettings.strategy`):

- `sampled` (the default): ONE alternative per call. The first call is greedy, then `samples`
  calls at `temperature` with distinct seeds; a copy of the failed action or of an earlier
  alternative is dropped and another seed drawn, up to `extra_draws` times; at most
  `max_alternatives` distinct alternatives are kept. Why: one greedy call asked for 4 blocks gave
  a small model's copies (23 of 48 blocks were identical or duplicates on saved failures), and a
  single block is what small models can write. The prompt carries the agent's own instructions
  (answer marker, action form) so an edit is an action the agent could have written. The reply
  is one rationale line and one fenced block; with `mode="resolve"` (math: the action is a
  worked answer, not code) the model solves the task again and the whole reply is the action,
  fenced or not, since the judge reads the final answer marker.
- `batch`: the original single call for up to `max_alternatives` blocks with model-written
  conditions (the contract above); the SIMULATED test bed speaks it.

`conditions="derived"` (the default for `sampled`) asks the model for no condition at all:
admission derives it from the facts (`countermem.memory._condition_builder`).

A form repair comes first (`GeneratorSettings.form_repair`, on by default): when the failed
action is a malformed answer that holds its action in a closed code block (`salvaged_block`),
that block alone is the first alternative. It is the most local edit there is (the missing
`Action:` line added, nothing else changed), costs no LLM call, and is checked like any other.
So is a checked action the check failed on form alone, made well-formed by the domain
(`Benchmark.form_fix`: math working given the final answer line it lacked).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from countermem.core import Action, CheckResult, Facts, FactValue, Usage, is_malformed, salvaged_block
from countermem.llm import LLM, GenerationParams, Message
from countermem.memory._grammar import edit_grammar
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
SAMPLED_MAX_TOKENS: dict[str, int] = {
    "sql": 384,
    "text": 1024,
    "python": 1024,
    "coq": 1024,
    "smt2": 1024,
    "dimacs": 1024,
}
"""Tokens for ONE alternative per action language: a query is short; a worked math answer, a
program, a proof or an encoding is not, and a cut one cannot pass its check."""
SAMPLED_DEFAULT_MAX_TOKENS = 768

Strategy = Literal["sampled", "batch"]
ConditionSource = Literal["derived", "model"]
RepairMode = Literal["edit", "resolve"]


class GeneratorSettings(BaseModel):
    """How Module I asks for alternatives; part of a construct stage's config hash."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    strategy: Strategy = "sampled"
    """`sampled`: one alternative per call, greedy then sampled; `batch`: all alternatives and their
    conditions in one call (what the SIMULATED test bed answers)."""
    samples: int = Field(default=4, ge=0, le=32)
    """Calls at `temperature` after the greedy one (sampled strategy)."""
    greedy: bool = True
    """Make the first call greedy (sampled strategy)."""
    temperature: float = Field(default=0.8, ge=0.0, le=2.0)
    """Sampling temperature of the calls after the greedy one."""
    extra_draws: int = Field(default=2, ge=0, le=32)
    """Further sampled calls allowed to replace copies of the failed action or of earlier alternatives."""
    max_tokens: int | None = Field(default=None, ge=16)
    """Tokens per generator call; not set: a default per action language (`SAMPLED_MAX_TOKENS`,
    768 where none is listed), or `DEFAULT_MAX_TOKENS` (1536) for the batch strategy."""
    conditions: ConditionSource = "derived"
    """`derived`: a record's condition is read off the facts the domain computes; `model`: the
    generator writes it."""
    rarity: bool = False
    """Derived conditions: rank situation atoms by how rarely they hold over the source tasks."""
    portable: bool = False
    """Derived conditions: a situation atom that holds on no source task of another environment
    (a table only the source's database has) is used only when nothing else separates, as the
    environment's name is. Measured with the 1.5B as agent on Spider: 4 of 5 conditions named a
    source table, so none held on a held-out database (docs/results.md)."""
    max_situation_share: float | None = Field(default=None, ge=0.0, le=1.0)
    """Derived conditions: a rung of situation atoms alone (no mistake atom) that holds on more
    than this share of the source tasks is not used, as it says nearly nothing about when the
    record applies; the record falls to the identity rung. None: no bound. Measured with portable
    conditions on Spider: a record conditioned on `has_foreign_keys` alone was offered at every
    held-out decision (docs/results.md)."""
    check_error_atoms: bool = False
    """Derived conditions: the kind of mistake the failed check reported (`check_error`, from
    `Benchmark.error_kind`; SQL: `no_such_column`, `wrong_rows`, ...) is the first mistake atom,
    and a record that has it is conditioned on its mistake alone, with no situation atom (as a
    form repair is on its slip). Measured with the 1.5B as agent on sql-shop: the stored
    conditions held at 4 of the 15 failures of the agent alone, 8 more were one atom of the
    question or schema away, and 8 of the 15 were unknown-column errors, as 5 of the 9 records'
    sources were (docs/results.md)."""
    check_error_situation: bool = False
    """With `check_error_atoms`: the condition is the check's error and the record's most telling
    situation atom (a question keyword, a table), no atom of the action: it fires after the same
    kind of error on a question like its own. Measured on sql-shop with the error alone: one
    lesson about "how many orders were returned", conditioned on `no_such_column` alone, was
    shown after 6 unknown-column failures of other questions, and the 1.5B answered its question."""
    grammar: bool = False
    """Sampled edits: hold every draw to the answer contract with a GBNF grammar (`_grammar`);
    llama.cpp backends only (the embedded one, or a llama.cpp server)."""
    seed: int = 0
    """Seeds of the sampled calls are seed+1, seed+2, ...; the greedy call uses `seed`."""
    form_repair: bool = True
    """After a malformed answer that holds its action (`Benchmark.salvage`), or a check failed on form
    alone (`Benchmark.form_fix`: math working with no final answer line), check that action as the
    first alternative (no LLM call; `form_repair_alternative`)."""
    malformed_draws: bool | Literal["without_block"] = True
    """Ask the LLM for alternatives to a malformed answer too; `false`: a malformed answer gets its
    form repair only, while failed checks get the usual draws; `"without_block"`: draws only for a
    malformed answer that has no form repair (no closed code block to salvage, e.g. a proof
    whose block was never opened). Records the 1.5B wrote from malformed answers that held
    their code harmed on humaneval; form repairs did not (docs/results.md)."""
    failures_per_task: int | None = Field(default=None, ge=1)
    """At most this many distinct failures of one source task go to the generator (the first
    ones); None: all. A build budget: a small agent can fail five times on one task, and each
    failure costs a generator call per draw. A malformed answer the generator is not asked about
    (`draws_after_malformed`) costs no call and does not count."""

    def draws_after_malformed(self, salvaged: str | None) -> bool:
        """Whether the LLM is asked for alternatives to a malformed answer holding `salvaged`."""
        if self.malformed_draws == "without_block":
            return not (self.form_repair and salvaged is not None)
        return bool(self.malformed_draws)

    @model_validator(mode="after")
    def _grammar_is_for_sampled_edits(self) -> GeneratorSettings:
        if self.grammar and self.strategy != "sampled":
            raise ValueError("grammar = true holds sampled edits to their form; the batch strategy has none")
        return self

    def tokens_for(self, action_language: str) -> int:
        if self.max_tokens is not None:
            return self.max_tokens
        if self.strategy == "batch":
            return DEFAULT_MAX_TOKENS
        return SAMPLED_MAX_TOKENS.get(action_language, SAMPLED_DEFAULT_MAX_TOKENS)

    @classmethod
    def batch(cls) -> GeneratorSettings:
        """The one-call contract with model-written conditions (what the simulated test bed answers)."""
        return cls(strategy="batch", conditions="model")

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
    instructions: str = ""
    """The agent's own instructions for this benchmark (answer marker, action form)."""
    mode: RepairMode = "edit"
    """resolve: solve the task again (math answers), the whole reply is the action."""
    salvaged: str | None = None
    """The action a malformed `failed_action` holds (`Benchmark.salvage`; `salvaged_block` for a
    caller with no benchmark), or a checked one made well-formed (`Benchmark.form_fix`): its form
    repair. None: nothing to salvage. Not guessed here: on math the domain refuses a block that is
    its instructions' example, which a block rule takes."""

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
    condition_origin: str = "model"
    """`model`, or `derived:<rung>` when the condition builder wrote it (`derived:none`: no rung held)."""
    form_repair: bool = False
    """The failed answer's own code block with nothing changed (`form_repair_alternative`)."""


FORM_REPAIR_RATIONALE = (
    "The answer had its code in a block but no `Action:` line, so nothing was checked; "
    "the same code, unchanged, after `Action: check` passed."
)
ANSWER_FORM_REPAIR_RATIONALE = (
    "The answer stated its final answer but had no `Action:` line, so nothing was checked; "
    "that final answer alone, after `Action: check`, passed."
)
"""A form repair whose action is not a code block of the answer (math: its stated final
answer); `is_form_repair` knows such a record by this rationale, which no model writes."""
FINAL_LINE_REPAIR_RATIONALE = (
    "The working was checked but had no final answer line, so it was graded 0; "
    "the same working with its result stated as the final answer passed."
)
"""A form repair of a checked action (`Benchmark.form_fix`), known by this rationale."""


def is_own_block(answer: str, action: str) -> bool:
    """`action` is `answer`'s closed code block (`salvaged_block`) unchanged: a form repair of a
    code block, not of a stated answer."""
    block = salvaged_block(answer)
    return block is not None and normalise_action(block) == normalise_action(action)


def form_repair_alternative(request: GenerationRequest) -> Alternative | None:
    """The failed action's form repair (`GenerationRequest.salvaged`) as an alternative; None when there is none."""
    salvaged = request.salvaged
    if salvaged is None or normalise_action(salvaged) == normalise_action(request.failed_action.content):
        return None
    if not is_malformed(request.failed_result):
        rationale = FINAL_LINE_REPAIR_RATIONALE
    elif is_own_block(request.failed_action.content, salvaged):
        rationale = FORM_REPAIR_RATIONALE
    else:
        rationale = ANSWER_FORM_REPAIR_RATIONALE
    return Alternative(action=Action(content=salvaged), rationale=rationale, form_repair=True)


class Proposal(_Frozen):
    """What one generator call produced; `problems` lists what the parser dropped or had to guess."""

    alternatives: list[Alternative]
    usage: Usage
    raw_text: str
    problems: list[str] = Field(default_factory=list)
    truncated_fields: list[str] = Field(default_factory=list)
    model: str = ""
    calls: int = 1
    """LLM calls this proposal took (sampled strategy: one per draw)."""
    condition_source: ConditionSource = "model"


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


@dataclass(frozen=True)
class _ClippedFields:
    situation: str
    action: str
    details: str
    facts: str
    truncated: list[str]
    """Names of the fields cut to their limit, in prompt order."""


def _clip_fields(request: GenerationRequest, limits: PromptLimits, *, with_facts: bool) -> _ClippedFields:
    """Every prompt field within its limit; both prompt strategies show the same clipped fields."""
    situation, s_cut = clip(request.situation, limits.situation)
    action, a_cut = clip(request.failed_action.content, limits.failed_action)
    details, d_cut = clip(request.failed_result.details or "(no details)", limits.check_details)
    facts, f_cut = render_facts(request.facts, limits.facts, limits.fact_value) if with_facts else ("", False)
    cut = (("situation", s_cut), ("failed_action", a_cut), ("check_details", d_cut), ("facts", f_cut))
    return _ClippedFields(situation, action, details, facts, [name for name, was_cut in cut if was_cut])


def render_generation_prompt(
    request: GenerationRequest, limits: PromptLimits | None = None
) -> tuple[list[Message], list[str]]:
    """The messages sent to the LLM and the names of the fields that were cut to their limit."""
    fields = _clip_fields(request, limits or PromptLimits(), with_facts=True)
    lang = _fence_tag(request.action_language)
    system = SYSTEM_TEMPLATE.format(
        n=request.max_alternatives, lang=lang, examples=condition_examples(request.facts)
    )
    user = USER_TEMPLATE.format(
        domain=request.domain,
        benchmark=request.benchmark,
        situation=fields.situation,
        lang=lang,
        action=fields.action,
        status=request.failed_result.status,
        utility=request.failed_result.utility,
        details=fields.details,
        facts=fields.facts,
        n=request.max_alternatives,
    )
    return [Message(role="system", content=system), Message(role="user", content=user)], fields.truncated


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


# --- sampled prompts: one alternative per call ------------------------------------------------

EDIT_SYSTEM_TEMPLATE = """\
You correct an action of an agent that failed its check. The agent works under these instructions:

<agent-instructions>
{instructions}
</agent-instructions>

A checker runs your corrected action from the same starting state as the failed one. Answer with \
one line `Fix: <what was wrong and what you change>`, then the COMPLETE corrected action in one \
```{lang} code block, and nothing after it. Keep what was right; change what the check result \
shows is wrong. Never repeat the failed action unchanged.{condition_rule}"""

RESOLVE_SYSTEM_TEMPLATE = """\
You solve a task that an agent got wrong. The agent works under these instructions:

<agent-instructions>
{instructions}
</agent-instructions>

Solve the task again from the start, carefully, step by step; do not trust the wrong attempt. \
End your reply with the final answer exactly as the instructions ask.{condition_rule}"""

SAMPLED_USER_TEMPLATE = """\
## Task
{situation}

## Failed action
```{lang}
{action}
```

## Check result
status: {status}; utility: {utility:.3f} (1.000 means passed)
{details}
{facts_section}
{request}"""

EDIT_REQUEST = "Write `Fix:` and the corrected action in one ```{lang} code block."
RESOLVE_REQUEST = "Solve the task again and end with the final answer."
MODEL_CONDITION_RULE = """

Before the action, add one line `Condition: <condition>`: a checkable requirement on the listed \
facts under which your fix is right (compare a fact with a value, `"x" in list_fact`, a true/false \
fact, `and`/`or`/`not`), e.g. {examples}; `none` only if it is right whatever the facts."""


def render_sampled_prompt(
    request: GenerationRequest, limits: PromptLimits | None = None, *, model_condition: bool = False
) -> tuple[list[Message], list[str]]:
    """Messages for one alternative (sampled strategy) and the fields cut to their limit."""
    fields = _clip_fields(request, limits or PromptLimits(), with_facts=model_condition)
    facts_section = f"\n## Facts of this decision (name = current value)\n{fields.facts}\n" if model_condition else ""
    lang = _fence_tag(request.action_language)
    rule = MODEL_CONDITION_RULE.format(examples=condition_examples(request.facts)) if model_condition else ""
    instructions = request.instructions.strip() or f"Write the action as {lang or 'text'}."
    template = RESOLVE_SYSTEM_TEMPLATE if request.mode == "resolve" else EDIT_SYSTEM_TEMPLATE
    system = template.format(instructions=instructions, lang=lang, condition_rule=rule)
    ask = RESOLVE_REQUEST if request.mode == "resolve" else EDIT_REQUEST.format(lang=lang)
    user = SAMPLED_USER_TEMPLATE.format(
        situation=fields.situation,
        lang=lang,
        action=fields.action,
        status=request.failed_result.status,
        utility=request.failed_result.utility,
        details=fields.details,
        facts_section=facts_section,
        request=ask,
    )
    return [Message(role="system", content=system), Message(role="user", content=user)], fields.truncated


SAMPLED_MARKERS = (EDIT_SYSTEM_TEMPLATE.split("{", 1)[0], RESOLVE_SYSTEM_TEMPLATE.split("{", 1)[0])
"""The fixed openings of the sampled prompts' system messages (edit, resolve)."""


def is_sampled_prompt(messages: list[Message]) -> bool:
    """Whether `messages` are a sampled-strategy generator prompt (to route a scripted backbone)."""
    return bool(messages) and messages[0].role == "system" and messages[0].content.startswith(SAMPLED_MARKERS)


def sampled_prompt_situation(messages: list[Message]) -> str:
    """The `## Task` section of a sampled prompt: the agent's situation, clipped to its limit."""
    user = next((m.content for m in reversed(messages) if m.role == "user"), "")
    head, _, rest = user.partition("## Task\n")
    if head or not rest:
        raise ValueError("not a sampled generator prompt: its user message does not open with '## Task'")
    return rest.split("\n\n## Failed action\n", 1)[0]


_FIX_LINE = re.compile(r"^\s*(?:[-*]\s+)?(?:\*\*|__)?\s*(?:fix|rationale|reason)\s*(?:\*\*|__)?\s*[:：]\s*(.*)$", re.IGNORECASE)


def parse_single(
    text: str, *, action_language: str = "", mode: RepairMode = "edit"
) -> tuple[Alternative | None, str | None]:
    """One alternative from one sampled answer, or None and the reason; never raises.

    edit: the code block tagged with the action language (else the first closed one); an
    unterminated block (the answer hit max_tokens) is no action. resolve: the whole reply
    (a reply that is one fenced block is unwrapped), since the judge reads its final marker.
    """
    if not text.strip():
        return None, "the answer is empty"
    blocks, preamble = _scan(text)
    items: list[str | _Fence] = list(preamble.items)
    for block in blocks:
        items.extend(block.items)
    lines = [item for item in items if isinstance(item, str)]
    fences = [item for item in items if isinstance(item, _Fence)]
    rationale = ""
    for line in lines:
        match = _FIX_LINE.match(line)
        if match is not None and match.group(1).strip():
            rationale = _clean(match.group(1)).splitlines()[0]
            break
    _, condition = _read_labels(lines)
    if len(rationale) > RATIONALE_CHAR_LIMIT:
        rationale = rationale[: RATIONALE_CHAR_LIMIT - 3] + "..."
    if mode == "resolve":
        content = text.strip()
        if len(fences) == 1 and fences[0].closed and not "".join(lines).strip():
            content = "\n".join(fences[0].lines).strip()
        return Alternative(action=Action(content=content), rationale=rationale, condition_text=condition), None
    closed = [f for f in fences if f.closed]
    if not closed:
        return None, ("an unterminated code block (max_tokens reached?)" if fences else "no code block")
    wanted = _fence_tag(action_language).lower()
    fence = next((f for f in closed if wanted and f.lang.lower() == wanted), closed[0])
    content = "\n".join(fence.lines).strip("\n")
    if not content.strip():
        return None, "its code block is empty"
    return Alternative(action=Action(content=content), rationale=rationale, condition_text=condition), None


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
        settings: GeneratorSettings | None = None,
    ) -> None:
        self.llm = llm
        self.settings = settings or GeneratorSettings()
        self.params = params
        """Explicit parameters for the batch strategy's one call (max_tokens, seed...); None: from settings."""
        self.limits = limits or PromptLimits()
        self.usage_total = Usage()
        self.calls = 0

    def propose(self, request: GenerationRequest) -> Proposal:
        """The alternatives for one failure; usage is added to `usage_total` as each call returns."""
        if self.settings.strategy == "batch":
            return self._propose_batch(request)
        return self._propose_sampled(request)

    def _call(self, messages: list[Message], params: GenerationParams) -> tuple[str, Usage]:
        completion = self.llm.complete(messages, params)
        self.calls += 1
        self.usage_total = self.usage_total + completion.usage
        return completion.text, completion.usage

    def _propose_batch(self, request: GenerationRequest) -> Proposal:
        messages, truncated = render_generation_prompt(request, self.limits)
        params = self.params or GenerationParams(
            max_tokens=self.settings.tokens_for(request.action_language), seed=self.settings.seed
        )
        text, usage = self._call(messages, params)
        alternatives, problems = parse_alternatives(
            text,
            failed_action=request.failed_action,
            action_language=request.action_language,
            max_alternatives=request.max_alternatives,
        )
        return Proposal(
            alternatives=alternatives,
            usage=usage,
            raw_text=text,
            problems=problems,
            truncated_fields=truncated,
            model=self.llm.name,
        )

    def draws(self, max_tokens: int, grammar: str | None = None) -> list[GenerationParams]:
        """Every call the sampled strategy may make, in order: greedy, seeds, then the extra draws
        (each extra draw replaces one draw that gave no new alternative)."""
        settings = self.settings
        out: list[GenerationParams] = []
        if settings.greedy:
            out.append(GenerationParams(temperature=0.0, max_tokens=max_tokens, seed=settings.seed, grammar=grammar))
        for index in range(1, settings.samples + settings.extra_draws + 1):
            out.append(
                GenerationParams(
                    temperature=settings.temperature, max_tokens=max_tokens, seed=settings.seed + index,
                    grammar=grammar,
                )
            )
        return out

    def _propose_sampled(self, request: GenerationRequest) -> Proposal:
        settings = self.settings
        model_condition = settings.conditions == "model"
        messages, truncated = render_sampled_prompt(request, self.limits, model_condition=model_condition)
        tokens = settings.tokens_for(request.action_language)
        planned = (1 if settings.greedy else 0) + settings.samples
        failed_key = normalise_action(request.failed_action.content)
        seen: dict[str, int] = {}
        kept: list[Alternative] = []
        problems: list[str] = []
        repair = form_repair_alternative(request) if settings.form_repair else None
        if repair is not None:
            seen[normalise_action(repair.action.content)] = 1
            kept.append(repair)
            problems.append("form repair: the failed action's own, made well-formed, is alternative 1 (no LLM call)")
        free = len(kept)
        if is_malformed(request.failed_result) and not settings.draws_after_malformed(request.salvaged):
            planned = 0  # the first draw then finds nothing planned and nothing wasted, and stops
            problems.append(f"malformed answer: no LLM draws (malformed_draws = {settings.malformed_draws!r})")
        texts: list[str] = []
        usage = Usage()
        calls = 0
        grammar = None
        if settings.grammar and request.mode == "edit":
            grammar = edit_grammar(_fence_tag(request.action_language), with_condition=model_condition)
        for draw, params in enumerate(self.draws(tokens, grammar)):
            if len(kept) >= request.max_alternatives:
                break
            if draw >= planned and draw - planned >= calls - (len(kept) - free):
                break
            text, call_usage = self._call(messages, params)
            calls += 1
            usage = usage + call_usage
            label = "greedy" if params.temperature == 0.0 else f"seed {params.seed}"
            texts.append(f"=== draw {draw + 1} ({label}) ===\n{text}")
            alternative, problem = parse_single(text, action_language=request.action_language, mode=request.mode)
            if alternative is None:
                problems.append(f"draw {draw + 1} ({label}): {problem}; dropped")
                continue
            key = normalise_action(alternative.action.content)
            if key == failed_key:
                problems.append(f"draw {draw + 1} ({label}): identical to the failed action; dropped")
                continue
            if key in seen:
                problems.append(f"draw {draw + 1} ({label}): duplicate of alternative {seen[key]}; dropped")
                continue
            seen[key] = len(kept) + 1
            if model_condition and alternative.condition_text is None:
                problems.append(
                    f"draw {draw + 1} ({label}): no condition; it will be rejected at admission"
                )
            kept.append(alternative)
        if not kept:
            problems.append(f"no usable alternative in {calls} call(s)")
        return Proposal(
            alternatives=kept,
            usage=usage,
            raw_text="\n".join(texts),
            problems=problems,
            truncated_fields=truncated,
            model=self.llm.name,
            calls=calls,
            condition_source=settings.conditions,
        )
