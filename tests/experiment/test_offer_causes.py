"""Offers classified from transcripts: copied correction or mistake, source names, unchanged, own edit."""

from __future__ import annotations

import json
from pathlib import Path

from countermem.agents import Event
from countermem.core import Action, CheckResult
from countermem.experiment._offer_causes import cause_table, classify_offers, run_offers
from countermem.memory import Record, RecordSource

WRONG = CheckResult(utility=0.0, passed=False, completed=True, status="wrong")
PASSED = CheckResult(utility=1.0, passed=True, completed=True, status="passed")
RECORD = Record(
    domain="sql", benchmark="toy", situation="Which city has the most customers?",
    original_action=Action(content="SELECT city, COUNT(*) FROM customers GROUP BY city"),
    improved_action=Action(content="SELECT city FROM customers GROUP BY city ORDER BY COUNT(*) DESC LIMIT 1"),
    original_check=WRONG, improved_check=PASSED, source=RecordSource(task_id="s", benchmark="toy"),
)
TASK_TEXT = "Schema: products(name, price), suppliers(id, name)\nQuestion: the supplier with most products?"
PREVIOUS = "SELECT name, COUNT(*) FROM suppliers"


def events(next_action: str | None, result: CheckResult = WRONG, offers: int = 1) -> list[Event]:
    out = [Event(kind="check", step=1, action=Action(content=PREVIOUS), result=WRONG)]
    for step in range(offers):
        out.append(Event(kind="advice", step=2 + step, text="...", record_id=RECORD.id))
        out.append(Event(kind="llm", step=2 + step, text="..."))
        if next_action is None:
            out.append(Event(kind="parse_error", step=2 + step, text="no Action line"))
        else:
            out.append(Event(kind="check", step=2 + step, action=Action(content=next_action), result=result))
    return out


def causes(next_action: str | None, result: CheckResult = WRONG) -> str:
    (offer,) = classify_offers(events(next_action, result), task_id="t", task_text=TASK_TEXT, task_solved=False,
                               records={RECORD.id: RECORD}, action_language="sql")
    return offer.cause


def test_each_cause_is_recognised() -> None:
    assert causes(RECORD.improved_action.content) == "copied_correction"
    assert causes(RECORD.original_action.content + "  ") == "copied_mistake"
    assert causes(PREVIOUS) == "unchanged"
    assert causes(None) == "no_action"
    assert causes("SELECT name FROM suppliers JOIN customers ON 1") == "source_names"
    assert causes("SELECT name FROM suppliers ORDER BY price LIMIT 1") == "own_edit"


def test_names_the_task_itself_mentions_are_not_source_names() -> None:
    (offer,) = classify_offers(events("SELECT city FROM suppliers"), task_id="t", task_text=TASK_TEXT + " city",
                               task_solved=False, records={RECORD.id: RECORD}, action_language="sql")
    assert offer.cause == "own_edit" and offer.names == []


def test_reoffers_and_the_table(tmp_path: Path) -> None:
    offers = classify_offers(events("SELECT 1 FROM customers", offers=2), task_id="t", task_text=TASK_TEXT,
                             task_solved=False, records={RECORD.id: RECORD}, action_language="sql")
    assert [o.reoffered for o in offers] == [False, True]
    assert [o.cause for o in offers] == ["source_names", "unchanged"], "the second repeats the first's action"
    assert offers[0].names == ["customers"]
    table = cause_table(offers)
    assert table.content_offers == 2 and table.changed == 1 and table.reoffered == 1 and table.failed_changed == 1
    assert table.failed_changed_causes["source_names"] == 1 and table.causes["unchanged"] == 1

    run = tmp_path / "run"
    (run / "transcripts").mkdir(parents=True)
    (run / "results.jsonl").write_text(json.dumps({"task_id": "t", "solved": True}) + "\n")
    (run / "transcripts" / "t.jsonl").write_text(
        "\n".join(e.model_dump_json() for e in events(RECORD.improved_action.content, PASSED)) + "\n"
    )
    (offer,) = run_offers(run, {RECORD.id: RECORD}, lambda _: TASK_TEXT, "sql")
    assert offer.passed and offer.task_solved and offer.cause == "copied_correction"
    assert cause_table([offer]).failed_changed == 0, "a solved task is not a failure to explain"


def test_own_source_marks_the_record_built_on_the_lookalikes_source(tmp_path: Path) -> None:
    kwargs = dict(task_id="t", task_text=TASK_TEXT, task_solved=False, records={RECORD.id: RECORD},
                  action_language="sql")
    (own,) = classify_offers(events(RECORD.improved_action.content), source_of="s", **kwargs)  # type: ignore[arg-type]
    (other,) = classify_offers(events(RECORD.improved_action.content), source_of="x", **kwargs)  # type: ignore[arg-type]
    (plain,) = classify_offers(events(RECORD.improved_action.content), **kwargs)  # type: ignore[arg-type]
    assert (own.own_source, other.own_source, plain.own_source) == (True, False, None)
    table = cause_table([own, other, plain])
    assert table.own_source_offers == 1 and table.own_source_causes["copied_correction"] == 1
    assert table.own_source_passed == 0

    run = tmp_path / "run"
    (run / "transcripts").mkdir(parents=True)
    (run / "results.jsonl").write_text(json.dumps({"task_id": "t", "solved": False}) + "\n")
    (run / "transcripts" / "t.jsonl").write_text("\n".join(e.model_dump_json() for e in events(PREVIOUS)) + "\n")
    (offer,) = run_offers(run, {RECORD.id: RECORD}, lambda _: TASK_TEXT, "sql", lookalike_of={"t": "s"})
    assert offer.own_source is True and offer.cause == "unchanged"
