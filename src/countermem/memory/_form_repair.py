"""Form repairs: records whose whole correction was adding the missing `Action:` line.

Why a record type of its own: a 0.5B agent on humaneval writes correct code with no `Action:`
line more often than it writes wrong code, and the re-prompt alone rarely fixes that. The
verified lesson (keep the code, add the line) transfers to every later task; the source task's
code does not, and a small model shown it copies it into the wrong task (docs/results.md, the humaneval
cell). So such a record is recognised from its own content, and advice shows its edit applied to
the current answer (`countermem.core._advice_format.FORM_REPAIR_FORMAT`).
"""

from __future__ import annotations

from countermem.core import Action, is_malformed, salvaged_block
from countermem.memory._generator import normalise_action
from countermem.memory._record import Record


def is_form_repair(record: Record) -> bool:
    """The record's correction is its malformed original's own code block, unchanged."""
    if not is_malformed(record.original_check):
        return False
    block = salvaged_block(record.original_action.content)
    return block is not None and normalise_action(block) == normalise_action(record.improved_action.content)


def applied_form_repair(record: Record, last_action: Action | None) -> str | None:
    """The current answer's own block, when `record` is a form repair and that answer has one."""
    if last_action is None or not is_form_repair(record):
        return None
    return salvaged_block(last_action.content)
