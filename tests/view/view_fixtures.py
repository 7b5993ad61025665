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
