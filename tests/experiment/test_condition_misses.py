"""Missing atoms of stored conditions at the decisions of a failed task, replayed from its transcript."""

from __future__ import annotations

from countermem.agents import Event
from countermem.core import Action, CheckResult, Facts, Task
from countermem.experiment._condition_misses import content_records, miss_table, task_misses
from countermem.memory import ApplicabilityCondition, Record, RecordSource

WRONG = CheckResult(utility=0.0, passed=False, completed=True, status="wrong")
PASSED = CheckResult(utility=1.0, passed=True, completed=True, status="passed")


def facts_of(task: Task, action: Action | None) -> Facts:
    values: dict[str, object] = {"question_keywords": task.metadata["keywords"]}
    if action is not None:
        values["sql_keywords"] = [w.lower() for w in ("JOIN", "GROUP") if w in action.content]
    return Facts(values=values)  # type: ignore[arg-type]


def record(condition: str, rid: str) -> Record:
    return Record(
        domain="sql", benchmark="toy", situation=rid, original_action=Action(content="SELECT 1"),
        improved_action=Action(content="SELECT 2"), original_check=WRONG, improved_check=PASSED,
        source=RecordSource(task_id=rid, benchmark="toy"), condition=ApplicabilityCondition.from_text(condition),
    )


def task(tid: str, keywords: list[str]) -> Task:
    return Task(id=tid, benchmark="toy", domain="sql", prompt="q", metadata={"keywords": keywords})


def checks(*queries: str) -> list[Event]:
    return [Event(kind="check", step=i + 1, action=Action(content=q), result=WRONG) for i, q in enumerate(queries)]


MOST = record('"most" in question_keywords and not "group" in sql_keywords', "most")
EACH = record('"each" in question_keywords and "join" in sql_keywords', "each")


def test_a_record_one_task_atom_away_is_a_near_miss_on_the_task_side() -> None:
    rows = task_misses(task("t1", ["total"]), checks("SELECT a FROM t"), [MOST, EACH], facts_of)
    assert rows.decisions == 2 and rows.distance == 1
    (near,) = rows.nearest
    assert near.record_id == MOST.id and near.decision == 1
    assert [(m.atom, m.side, m.facts) for m in near.missing] == [
        ('"most" in question_keywords', "task", ["question_keywords"])
    ]


def test_the_action_side_and_the_first_decision() -> None:
    # the agent's query had GROUP BY at its only check: another mistake than MOST corrects
    rows = task_misses(task("t2", ["most"]), checks("SELECT a FROM t GROUP BY a"), [MOST], facts_of)
    (near,) = rows.nearest
    assert near.decision == 0 and [m.side for m in near.missing] == ["action"]
    reached = task_misses(task("t3", ["most"]), checks("SELECT a FROM t GROUP BY a", "SELECT a FROM t"), [MOST], facts_of)
    assert reached.distance == 0 and reached.nearest[0].decision == 2


def test_the_table_counts_reached_near_and_further_and_ties() -> None:
    rows = [
        task_misses(task("a", ["most"]), checks("SELECT x"), [MOST, EACH], facts_of),
        task_misses(task("b", ["other"]), checks("SELECT x JOIN y"), [MOST, EACH], facts_of),
        task_misses(task("c", ["other"]), checks("SELECT x GROUP BY y"), [MOST, EACH], facts_of),
        task_misses(task("d", ["other"]), [], [], facts_of),
    ]
    assert [r.distance for r in rows] == [0, 1, 2, None]
    assert len(rows[1].nearest) == 2  # both records miss one atom there
    table = miss_table(rows, n_records=2)
    assert (table.failures, table.reached, table.one_atom, table.further) == (4, 1, 1, 2)
    assert table.one_atom_sides == {"task": 2}
    assert table.one_atom_facts == {"question_keywords": 2}


def test_form_repairs_and_retired_records_are_left_out() -> None:
    retired = record('"x" in question_keywords', "r").marked_retired("harmed")
    form = record('"y" in question_keywords', "f").model_copy(update={
        "original_action": Action(content="Thought: here\n```sql\nSELECT 2\n```"),
        "original_check": CheckResult(utility=0.0, passed=False, completed=False, status="malformed"),
    })
    assert content_records([MOST, retired, form]) == [MOST]
    assert content_records([form.model_copy(update={"improved_action": Action(content="SELECT 3")})]) != []


def test_a_condition_on_the_checks_error_is_read_with_the_domains_error_kind() -> None:
    errors = record('check_error == "no_such_column"', "err")
    events = [Event(kind="check", step=1, action=Action(content="SELECT a FROM t"),
                    result=CheckResult(utility=0.0, passed=False, completed=True, status="error",
                                       details="SQLite error: no such column: a"))]

    def error_kind(result: CheckResult) -> str | None:
        return "no_such_column" if "no such column" in result.details else None

    assert task_misses(task("t", []), events, [errors], facts_of, error_kind).distance == 0
    blind = task_misses(task("t", []), events, [errors], facts_of)
    assert blind.distance == 1 and blind.nearest[0].missing[0].side == "action"


def test_a_record_rederived_with_the_checks_error_is_conditioned_on_its_mistake() -> None:
    from countermem.experiment._condition_misses import rederived
    from countermem.memory import ConditionContext

    source = task("s", ["most"])
    stored = record('"most" in question_keywords', "s").model_copy(update={
        "original_action": Action(content="SELECT a FROM t GROUP BY a"),
        "original_check": CheckResult(utility=0.0, passed=False, completed=True, status="error",
                                      details="SQLite error: no such column: a"),
        "improved_action": Action(content="SELECT a FROM t"),
    })

    def error_kind(result: CheckResult) -> str | None:
        return "no_such_column"

    plain = rederived(stored, source, ConditionContext(facts_of=facts_of))
    assert "question_keywords" in str(plain.condition) and "check_error" not in str(plain.condition)
    errors = rederived(stored, source, ConditionContext(facts_of=facts_of, error_kind=error_kind))
    assert str(errors.condition).startswith('check_error == "no_such_column"')
    assert "question_keywords" not in str(errors.condition)
    assert errors.id == stored.id and errors.improved_action == stored.improved_action
