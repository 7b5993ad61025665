from datetime import UTC, datetime, timedelta, timezone

import pytest
from pydantic import ValidationError

from countermem.core import Action, CheckResult, Facts
from countermem.memory import (
    SITUATION_LIMIT,
    ApplicabilityCondition,
    ConditionError,
    Record,
    RecordSource,
    ReuseCounters,
    truncate_situation,
)


def check(utility: float) -> CheckResult:
    return CheckResult(
        utility=utility, passed=utility == 1.0, completed=True, status="passed" if utility == 1.0 else "wrong"
    )


def make(**changes: object) -> Record:
    data: dict[str, object] = {
        "domain": "sql",
        "benchmark": "spider",
        "situation": "Question: how many users?\nSchema: users(id, name)",
        "original_action": Action(content="SELECT count(*) FROM user"),
        "improved_action": Action(content="SELECT count(*) FROM users"),
        "original_check": check(0.0),
        "improved_check": check(1.0),
        "condition": '"users" in tables',
        "source": RecordSource(task_id="spider-1", benchmark="spider"),
    }
    data.update(changes)
    return Record.model_validate(data)


def test_gain_and_content_id_are_derived() -> None:
    record = make()
    assert record.utility_gain == 1.0
    assert record.version == 1
    assert record.id.startswith("r-") and len(record.id) == 18
    assert record.created_at.tzinfo is not None
    assert make().id == record.id
    assert make(condition='has(tables, "users")').id == record.id  # same canonical condition
    assert make(improved_action=Action(content="SELECT 1")).id != record.id
    assert make(source=RecordSource(task_id="spider-2", benchmark="spider")).id != record.id
    assert make(id="mine").id == "mine"


def test_gain_must_agree_with_the_checks() -> None:
    assert make(original_check=check(0.25), improved_check=check(0.75)).utility_gain == pytest.approx(0.5)
    with pytest.raises(ValidationError, match="disagrees with the check results"):
        make(utility_gain=0.3)


def test_long_situation_is_truncated_keeping_head_and_tail() -> None:
    text = "HEAD" + "x" * 5000 + "TAIL"
    record = make(situation=text)
    assert record.situation_truncated
    assert len(record.situation) <= SITUATION_LIMIT
    assert record.situation.startswith("HEAD") and record.situation.endswith("TAIL")
    assert "characters cut" in record.situation
    short, cut = truncate_situation("short")
    assert (short, cut) == ("short", False)
    assert not make().situation_truncated
    exact, cut = truncate_situation("y" * SITUATION_LIMIT)
    assert not cut and len(exact) == SITUATION_LIMIT


def test_records_are_frozen() -> None:
    record = make()
    with pytest.raises(ValidationError):
        record.version = 5  # type: ignore[misc]


def test_revision_bumps_version_and_keeps_identity() -> None:
    record = make()
    revised = record.revised(condition="n_tables > 1", rationale="narrower")
    assert revised.version == 2 and revised.id == record.id and revised.created_at == record.created_at
    assert revised.condition.canonical == "n_tables > 1"
    assert record.version == 1 and record.condition.canonical == '"users" in tables'
    rechecked = record.revised(improved_check=check(0.5))
    assert rechecked.utility_gain == 0.5
    with pytest.raises(ValueError, match="cannot change"):
        record.revised(version=7)
    with pytest.raises(ValueError, match="cannot change"):
        record.revised(id="other")


def test_counters_grow_with_a_new_version() -> None:
    record = make()
    at = datetime(2025, 1, 2, tzinfo=UTC)
    used = record.with_counts(retrieved=1, selected=1, succeeded=1, at=at)
    assert used.version == 2
    assert used.counters == ReuseCounters(retrieved=1, selected=1, succeeded=1, harmed=0, last_used_at=at)
    assert used.last_touched == at
    assert record.last_touched == record.created_at
    with pytest.raises(ValidationError, match="cannot exceed selected"):
        record.with_counts(succeeded=1)
    with pytest.raises(ValueError, match="only grow"):
        record.with_counts(retrieved=-1)


def test_json_round_trip_keeps_everything() -> None:
    record = make(embedding=[0.1, 0.2, 0.3], rationale="plural table name").with_counts(retrieved=2)
    again = Record.model_validate_json(record.model_dump_json())
    assert again == record
    assert again.condition.parsed == record.condition.parsed


def test_condition_is_parsed_and_checked() -> None:
    record = make(condition='n_tables > 2 AND "users" in tables.')
    assert record.condition.source == 'n_tables > 2 AND "users" in tables.'
    assert record.condition.canonical == 'n_tables > 2 and "users" in tables'
    assert record.applies(Facts(values={"n_tables": 3, "tables": ("Users",)}))
    assert not record.applies(Facts(values={"n_tables": 3}))
    assert make(condition="").condition.is_universal
    assert make(condition=ApplicabilityCondition()).applies(Facts())
    with pytest.raises(ValidationError, match="at position 9"):
        make(condition="whenever the schema looks similar")
    with pytest.raises(ConditionError):
        ApplicabilityCondition.from_text("whenever the schema looks similar")
    with pytest.raises(ValidationError, match="does not match its source"):
        ApplicabilityCondition(source="a > 1", canonical="a > 2")


def test_invalid_records_are_refused() -> None:
    with pytest.raises(ValidationError, match="time zone"):
        make(created_at=datetime(2025, 1, 1))
    with pytest.raises(ValidationError, match="source benchmark"):
        make(source=RecordSource(task_id="t", benchmark="bird"))
    with pytest.raises(ValidationError, match="embedding is empty"):
        make(embedding=[])
    with pytest.raises(ValidationError):
        make(source=RecordSource(task_id="t", benchmark="spider", stage="later"))  # type: ignore[arg-type]


def test_created_at_is_normalised_to_utc() -> None:
    local = datetime(2025, 1, 1, 12, tzinfo=timezone(timedelta(hours=2)))
    created = make(created_at=local).created_at
    assert created.utcoffset() == timedelta(0)
    assert created == datetime(2025, 1, 1, 10, tzinfo=UTC)
    assert make(created_at=local).model_dump(mode="json")["created_at"].endswith("Z")


def test_a_task_brief_is_one_clipped_line() -> None:
    from countermem.memory._record import TASK_BRIEF_LIMIT, brief_of

    assert brief_of("  Count\n the   rows ") == "Count the rows"
    long = brief_of("word " * 200)
    assert len(long) == TASK_BRIEF_LIMIT and long.endswith("\u2026")
    assert make(task_brief="word " * 200).task_brief == long, "a long brief given directly is clipped the same way"
