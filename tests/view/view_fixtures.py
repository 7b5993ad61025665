"""Records for the viewer's tests (shared by conftest.py's fixtures and the tests): one holds a
`<script>` in its improved action, which every page must show as text."""

from __future__ import annotations

from countermem.core import Action, CheckResult
from countermem.memory import Record, RecordSource

SCRIPT_ACTION = 'SELECT "</pre><script>window.cmPwned=1</script>" FROM users'


def make_record(i: int, *, benchmark: str = "spider", stage: str = "construct", **extra: object) -> Record:
    return Record.model_validate({
        "domain": "sql",
        "benchmark": benchmark,
        "situation": f"Question {i}: how many users?\nSchema: users(id, name)",
        "original_action": Action(content=f"SELECT count(*)\nFROM user{i}"),
        "improved_action": Action(content=f"SELECT count(*)\nFROM users{i}"),
        "original_check": CheckResult(utility=0.0, passed=False, completed=True, status="error",
                                      details="no such table: user"),
        "improved_check": CheckResult(utility=1.0, passed=True, completed=True, status="passed"),
        "condition": '"users" in tables' if i % 2 else "none",
        "rationale": "the table name is plural",
        "source": RecordSource(task_id=f"{benchmark}-{i}", benchmark=benchmark, stage=stage),
        **extra,
    })


RECORDS = [
    make_record(1),
    make_record(2, benchmark="bird", stage="train"),
    make_record(3, improved_action=Action(content=SCRIPT_ACTION)),
    make_record(4, benchmark="bird"),
]

SECRET_A = "SECRET-OF-TEAM-A"
"""Text only scope team-a's records hold: a scope-B view must never carry it."""


def scoped_record(i: int, scope: str, *, merge_group: int | None = None) -> Record:
    """A record of `scope`; records of one `merge_group` hold the same correction (they merge)."""
    extra: dict[str, object] = {"scope": scope}
    if merge_group is not None:
        extra["original_action"] = Action(content=f"SELECT * FROM item{merge_group}")
        extra["improved_action"] = Action(content=f"SELECT * FROM items{merge_group}")
        extra["condition"] = '"items" in tables'
    record = make_record(i, **extra)
    if scope == "team-a":
        record = record.model_copy(update={"situation": f"{record.situation}\n{SECRET_A}"})
        record = Record.model_validate({**record.model_dump(), "id": ""})  # the id hashes the new situation
    return record
