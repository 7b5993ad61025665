"""Form repairs: records whose whole correction was adding the missing `Action:` line.

Why a record type of its own: a 0.5B agent on humaneval writes correct code with no `Action:`
line more often than it writes wrong code, and the re-prompt alone rarely fixes that. The
verified lesson (keep the code, add the line) transfers to every later task; the source task's
code does not, and a small model shown it copies it into the wrong task (docs/results.md, the humaneval
cell). So such a record is recognised from its own content, and advice shows its edit applied to
the current answer (`countermem.core._advice_format.FORM_REPAIR_FORMAT`). On math the action
a malformed answer holds can also be a final answer stated with no code block
(`Benchmark.salvage`); such a record is known by its rationale (`ANSWER_FORM_REPAIR_RATIONALE`)
and shown with `ANSWER_FORM_REPAIR_FORMAT`. A checked action the check failed on form alone,
made well-formed by the domain (`Benchmark.form_fix`), is a form repair too, known by
`FINAL_LINE_REPAIR_RATIONALE` and shown with `FINAL_LINE_REPAIR_FORMAT`.
"""

from __future__ import annotations

from countermem.core import Action, is_malformed
from countermem.memory._generator import (
    ANSWER_FORM_REPAIR_RATIONALE,
    FINAL_LINE_REPAIR_RATIONALE,
    is_own_block,
)
from countermem.memory._record import Record


def is_form_repair(record: Record) -> bool:
    """The record's correction is its malformed original's own code block, unchanged, or (math)
    the final answer that original stated, alone, or a checked original made well-formed."""
    if is_final_line_repair(record):
        return True
    if not is_malformed(record.original_check):
        return False
    if record.rationale == ANSWER_FORM_REPAIR_RATIONALE:
        return True
    return is_own_block(record.original_action.content, record.improved_action.content)


def applied_form_repair(record: Record, last_action: Action | None, salvaged: str | None) -> str | None:
    """`salvaged`, the action the agent's last answer becomes by form alone (`Decision.salvaged`:
    what a malformed answer holds, or a checked action made well-formed), when `record` is a form
    repair and there is such an answer."""
    if last_action is None or not is_form_repair(record):
        return None
    return salvaged


def is_final_line_repair(record: Record) -> bool:
    """The record's original was checked and failed on form alone; its correction is that action
    made well-formed (`Benchmark.form_fix`)."""
    return record.rationale == FINAL_LINE_REPAIR_RATIONALE and not is_malformed(record.original_check)
