"""One factory of SQL (Spider-shaped) records for the store, scope, merge and `memory` command tests.

Each test file keeps its own small `make` that says what varies in its records (a number, a scope,
a column); the fields every such record shares are written here once. Ids are content hashes, so
the same arguments give the same record id.
"""

from __future__ import annotations

from countermem.core import Action, CheckResult
from countermem.memory import Record, RecordSource


def sql_record(
    situation: str,
    original: str,
    improved: str,
    *,
    task_id: str,
    condition: str = '"users" in tables',
    scope: str,
    utility: float = 1.0,
    original_status: str = "error",
    **extra: object,
) -> Record:
    """A Spider record whose query `original` failed with `original_status` and `improved` passed
    with `utility` (passed only at 1.0); `extra` sets further fields (provenance, created_at, ...)."""
    return Record.model_validate(
        {
            "domain": "sql",
            "benchmark": "spider",
            "situation": situation,
            "original_action": Action(content=original),
            "improved_action": Action(content=improved),
            "original_check": CheckResult(utility=0.0, passed=False, completed=True, status=original_status),
            "improved_check": CheckResult(utility=utility, passed=utility == 1.0, completed=True, status="passed"),
            "condition": condition,
            "source": RecordSource(task_id=task_id, benchmark="spider"),
            "scope": scope,
            **extra,
        }
    )
