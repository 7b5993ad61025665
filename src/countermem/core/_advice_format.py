"""The text form of one memory record inside an agent's prompt, shared by its writer and its readers.

Memory renders a selected record with `render_record_text`; the simulated backbone reads records
back out of a prompt with `parse_record_texts`. Both live here, below every other layer, so the
two sides cannot drift apart. The format (`RECORD_TEXT_FORMAT`)::

    Record <id> (verified correction, utility <before> -> <after>)
    Past task: <the source task's text on one line>     (only when the record keeps it)
    Applies when: <condition, or always>
    Mistake:
    ```<lang>
    <original action>
    ```
    Correction:
    ```<lang>
    <improved action>
    ```
    Why: <rationale>

A record learned from a malformed answer (`answer_form=True`) shows its correction as the whole
answer the agent should have written, `Action: check` and the action in its own fenced block
(`ANSWER_FORM`): the slip was the form, and a small model copies a form it is shown more
readily than one it is told about. Its mistake is cut to `MALFORMED_SHOWN_CHARS` (head and tail;
it is the example not to follow) and its `Why:` opens with `MALFORMED_WHY`, since the gain came
from the form whatever the generator's own rationale says.

A form repair (a record whose correction is the malformed answer's own code block, unchanged)
is shown applied to the CURRENT agent's malformed answer (`FORM_REPAIR_FORMAT`): its mistake and
correction in words, then that agent's own block after `Action: check`. Why: the record's lesson
is the form, and its source task's code is content a small model copies into the wrong task
(measured on humaneval); the edit itself, add the line and keep the block, transfers exactly.
It is shown as a before and after of the whole answer, Thought included: shown only the corrected
answer, the 0.5B often wrote its Thought and a bare `Action: check` and stopped; shown no Thought,
it wrote long ones and no `Action:` line. Replayed on the 23 source-task answers of the humaneval
form cell, this form got a well-formed next answer 20 times, the corrected answer alone 11.
`parse_record_texts` does not read this form (the simulated backbone never writes malformed
answers). A form repair whose action is a final answer the malformed answer stated with no code
block (math, `Benchmark.salvage`) is shown the same way with `ANSWER_FORM_REPAIR_FORMAT`: the
last line of the agent's answer, then that answer alone after `Action: check`, not the whole
working twice. A checked action the check failed on form alone (math working with no final answer
line, `Benchmark.form_fix`) is shown with `FINAL_LINE_REPAIR_FORMAT`: the working's last line, then
it and the added final answer line after `Action: check`.

Utilities are printed with two decimals. A universal condition (empty, `none` or `always`) is
printed as `always`. Line breaks in the condition and the rationale become spaces, so every label
stays on one line. A fence is three backticks, or one more than the longest run of backticks inside
either action (the CommonMark rule), so an action holding a fence cannot end its block early; the
parser only closes a block on a line that is exactly its opening fence.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from countermem.core._text import clip_middle

ADVICE_BLOCK_HEADER = "Advice from verified past corrections (use it only if it fits this task):"
"""The line an agent puts before rendered records; equal to `countermem.agents` ADVICE_HEADER."""

RECORD_TEXT_FORMAT = """\
Record {record_id} (verified correction, utility {before:.2f} -> {after:.2f})
{task_line}Applies when: {condition}
Mistake:
{fence}{lang}
{original}
{fence}
Correction:
{fence}{lang}
{improved}
{fence}
Why: {rationale}"""

ANSWER_FORM = """\
Action: check
{fence}{lang}
{action}
{fence}"""
"""The agent's answer contract (`countermem.agents` SYSTEM_TEMPLATE) around one action."""

FORM_REPAIR_FORMAT = """\
Record {record_id} (verified correction, utility {before:.2f} -> {after:.2f})
Applies when: {condition}
Mistake: code with no `Action:` line is never checked.
Correction: put `Action: check` on the line before the code block. Your last answer, corrected:
{fence}{lang}
{action}
{fence}
becomes
Thought: I check my code.
Action: check
{fence}{lang}
{action}
{fence}"""

_CHECKED_ANSWER = """\
and, corrected, is
Thought: I check my answer.
Action: check
{fence}{lang}
{action}
{fence}"""
"""How a form repair of an answer ends: the corrected action as the agent's next reply."""
ANSWER_FORM_REPAIR_FORMAT = """\
Record {record_id} (verified correction, utility {before:.2f} -> {after:.2f})
Applies when: {condition}
Mistake: an answer with no `Action:` line is never checked.
Correction: put your final answer in a code block after `Action: check`. Your last answer ended
> {tail}
""" + _CHECKED_ANSWER
FINAL_LINE_REPAIR_FORMAT = """\
Record {record_id} (verified correction, utility {before:.2f} -> {after:.2f})
Applies when: {condition}
Mistake: working with no final answer line is graded 0, whatever it computed.
Correction: end the working with the line `{answer_line}`. Your last action ended
> {tail}
""" + _CHECKED_ANSWER
"""A form repair of a checked action (`Benchmark.form_fix`: math working given its final answer
line), shown applied to the agent's own working: its last line and the added one, not the whole
working again (the judge reads only the final answer line)."""
ANSWER_TAIL_CHARS = 200
"""The shown end of the agent's answer: its last line, which states the final answer, cut to this."""

LESSON_FORMAT = """\
Record {record_id} (verified lesson, utility {before:.2f} -> {after:.2f})
Applies when: {condition}
Lesson: {lesson}
Apply the lesson to your own last answer for THIS task: keep your own {own}."""
"""A record shown as its verified lesson (`countermem.memory._lesson`): no code of the source task,
since small models copy that code, its names and even its mistake into the task at hand."""
LESSON_OWN: dict[str, str] = {"sql": "tables, names and question"}
"""What the agent keeps of its own answer, per domain; `LESSON_OWN_DEFAULT` elsewhere. SQL's is the
wording every measured sql lesson arm used; a math or coding agent told to keep its "tables" was
shown words of another domain (the 1.5B's gsm8k lesson arm, 2026-12-07)."""
LESSON_OWN_DEFAULT = "names, numbers and task"

COMPACT_FORMAT = """\
Record {record_id} (verified correction, utility {before:.2f} -> {after:.2f})
Applies when: {condition}
Correction (from another task; keep your own names):
{fence}{lang}
{improved}
{fence}
Why: {rationale}"""
"""A record without its mistake block: the agent's own failed action is already in its context,
and the source task's mistake is one more block a small model copies (issue 24)."""

MALFORMED_SHOWN_CHARS = 240
MALFORMED_WHY = "The answer had no `Action:` line, so nothing was checked; write the answer as in the correction."

UNIVERSAL_CONDITION_TEXT = "always"
_UNIVERSAL = {"", "none", "always"}

_RECORD = re.compile(
    r"^Record (?P<id>\S+) \(verified correction, utility (?P<before>-?\d+(?:\.\d+)?) -> "
    r"(?P<after>-?\d+(?:\.\d+)?)\)[ \t]*\n"
    r"(?:Past task: ?(?P<task>[^\n]*)\n)?"
    r"Applies when: ?(?P<condition>[^\n]*)\n"
    r"Mistake:[ \t]*\n"
    r"(?P<f1>`{3,})(?P<lang>[^\n`]*)\n(?P<original>(?:.*?\n)??)(?P=f1)[ \t]*\n"
    r"Correction:[ \t]*\n"
    r"(?P<f2>`{3,})(?P<lang2>[^\n`]*)\n(?P<improved>(?:.*?\n)??)(?P=f2)[ \t]*\n"
    r"Why: ?(?P<rationale>[^\n]*)$",
    re.MULTILINE | re.DOTALL,
)


class RenderedRecord(BaseModel):
    """One record as read back from prompt text; `condition` is `always` for a universal record."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    record_id: str
    condition: str
    task: str = ""
    original: str
    improved: str
    lang: str
    rationale: str
    before: float
    after: float


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _shown_condition(record_id: str, condition: str) -> str:
    """The condition as the `Applies when:` line shows it; rejects an id that would break the header."""
    if not record_id or any(ch.isspace() for ch in record_id):
        raise ValueError(f"a record id must be non-empty and without spaces, got {record_id!r}")
    shown = _one_line(condition)
    return UNIVERSAL_CONDITION_TEXT if shown.lower() in _UNIVERSAL else shown


def _fence_for(*bodies: str) -> str:
    longest = max((len(run) for body in bodies for run in re.findall(r"`+", body)), default=0)
    return "`" * max(3, longest + 1)


def render_record_text(
    record_id: str,
    condition: str,
    original: str,
    improved: str,
    lang: str,
    rationale: str,
    before: float,
    after: float,
    task: str = "",
    answer_form: bool = False,
) -> str:
    """The prompt text of one record, in `RECORD_TEXT_FORMAT`; `parse_record_texts` reads it back.
    `task` is the source task's text (its line is left out when empty); `answer_form` shows the
    correction inside the agent's answer contract (for records learned from malformed answers)."""
    shown_condition = _shown_condition(record_id, condition)
    original_body = original.strip("\n")
    improved_body = improved.strip("\n")
    if answer_form:
        improved_body = ANSWER_FORM.format(
            fence=_fence_for(improved_body), lang=_one_line(lang).replace("`", ""), action=improved_body
        )
        original_body, _ = clip_middle(original_body, MALFORMED_SHOWN_CHARS)
        rationale = f"{MALFORMED_WHY} {rationale}".strip()
    return RECORD_TEXT_FORMAT.format(
        record_id=record_id,
        before=before,
        after=after,
        condition=shown_condition,
        task_line=f"Past task: {_one_line(task)}\n" if task.strip() else "",
        fence=_fence_for(original_body, improved_body),
        lang=_one_line(lang).replace("`", ""),
        original=original_body,
        improved=improved_body,
        rationale=_one_line(rationale),
    )


def render_form_repair_text(
    record_id: str, condition: str, action: str, lang: str, before: float, after: float, answer: str | None = None
) -> str:
    """A form-repair record applied to the current agent's own code block `action`
    (`FORM_REPAIR_FORMAT`); with the malformed `answer` whose salvaged `action` is a final answer it
    stated with no block, as `ANSWER_FORM_REPAIR_FORMAT` (its last line, then that answer checked)."""
    body = action.strip("\n")
    fields = {
        "record_id": record_id,
        "before": before,
        "after": after,
        "condition": _shown_condition(record_id, condition),
        "fence": _fence_for(body),
        "lang": _one_line(lang).replace("`", ""),
        "action": body,
    }
    if answer is None:
        return FORM_REPAIR_FORMAT.format(**fields)
    return ANSWER_FORM_REPAIR_FORMAT.format(**fields, tail=_tail_line(answer))


def _tail_line(text: str) -> str:
    """The last non-empty line of `text`, on one line and cut to `ANSWER_TAIL_CHARS`."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    tail, _ = clip_middle(lines[-1] if lines else "", ANSWER_TAIL_CHARS)
    return " ".join(tail.split())


def render_final_line_text(
    record_id: str, condition: str, action: str, lang: str, before: float, after: float
) -> str:
    """A final-line form repair applied to the current agent's working: `action` is that working
    with the added last line (`FINAL_LINE_REPAIR_FORMAT`)."""
    working, _, added = action.rstrip().rpartition("\n")
    answer_line, tail = added.strip(), _tail_line(working)
    body = f"{tail}\n{answer_line}" if tail else answer_line
    return FINAL_LINE_REPAIR_FORMAT.format(
        record_id=record_id,
        before=before,
        after=after,
        condition=_shown_condition(record_id, condition),
        answer_line=answer_line,
        tail=tail,
        fence=_fence_for(body),
        lang=_one_line(lang).replace("`", ""),
        action=body,
    )


def render_compact_text(
    record_id: str, condition: str, improved: str, lang: str, rationale: str, before: float, after: float
) -> str:
    """A record's correction alone (`COMPACT_FORMAT`)."""
    body = improved.strip("\n")
    return COMPACT_FORMAT.format(
        record_id=record_id,
        before=before,
        after=after,
        condition=_shown_condition(record_id, condition),
        fence=_fence_for(body),
        lang=_one_line(lang).replace("`", ""),
        improved=body,
        rationale=_one_line(rationale),
    )


def render_lesson_text(
    record_id: str, condition: str, lesson: str, before: float, after: float, domain: str | None = None
) -> str:
    """A record shown as its lesson alone (`LESSON_FORMAT`), in the words of its `domain`."""
    return LESSON_FORMAT.format(
        record_id=record_id,
        before=before,
        after=after,
        condition=_shown_condition(record_id, condition),
        lesson=_one_line(lesson),
        own=LESSON_OWN.get(domain or "", LESSON_OWN_DEFAULT),
    )


def parse_record_texts(text: str) -> list[RenderedRecord]:
    """Every record rendered by `render_record_text` in `text`, in order; other text is ignored."""
    found: list[RenderedRecord] = []
    for match in _RECORD.finditer(text.replace("\r\n", "\n")):
        found.append(
            RenderedRecord(
                record_id=match.group("id"),
                condition=match.group("condition").strip(),
                task=(match.group("task") or "").strip(),
                original=match.group("original").removesuffix("\n"),
                improved=match.group("improved").removesuffix("\n"),
                lang=match.group("lang").strip(),
                rationale=match.group("rationale").strip(),
                before=float(match.group("before")),
                after=float(match.group("after")),
            )
        )
    return found
