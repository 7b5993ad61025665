"""The record text format shared by memory (writer) and the simulated backbone (reader)."""

from __future__ import annotations

import pytest

from countermem.agents._prompts import ADVICE_HEADER
from countermem.core import ADVICE_BLOCK_HEADER, RenderedRecord, parse_record_texts, render_record_text


def test_render_matches_the_documented_format() -> None:
    text = render_record_text(
        "rec-1", '"clients" in tables', "SELECT 1 FROM customers", "SELECT 1 FROM clients", "sql",
        "the schema calls them clients", 0.0, 1.0,
    )
    assert text == (
        "Record rec-1 (verified correction, utility 0.00 -> 1.00)\n"
        'Applies when: "clients" in tables\n'
        "Mistake:\n```sql\nSELECT 1 FROM customers\n```\n"
        "Correction:\n```sql\nSELECT 1 FROM clients\n```\n"
        "Why: the schema calls them clients"
    )


def test_round_trip_with_multiline_actions_and_noise_around() -> None:
    original = "def f(x):\n    return x\n"
    improved = "def f(x):\n\n    return x + 1"
    text = render_record_text("r2", "none", original, improved, "python", "off\nby one", 0.25, 0.875)
    (record,) = parse_record_texts(f"{ADVICE_BLOCK_HEADER}\n{text}\n\nObservation: more text")
    assert record == RenderedRecord(
        record_id="r2", condition="always", original="def f(x):\n    return x", improved=improved,
        lang="python", rationale="off by one", before=0.25, after=0.88,
    )


def test_actions_holding_fences_get_a_longer_fence() -> None:
    original = "text\n```\ninner\n```"
    text = render_record_text("r3", "", original, "fixed", "md", "why", 0.0, 0.5)
    assert "````md\n" in text
    (record,) = parse_record_texts(text)
    assert record.original == original and record.improved == "fixed" and record.condition == "always"


def test_several_records_parse_in_order_and_other_text_is_ignored() -> None:
    first = render_record_text("a", "n_vars > 3", "x", "y", "smt2", "r", 0.0, 1.0)
    second = render_record_text("b", "always", "", "z", "smt2", "", 0.5, 1.0)
    records = parse_record_texts(f"intro\n{first}\n\n{second}\nRecord broken (verified")
    assert [r.record_id for r in records] == ["a", "b"]
    assert records[1].original == "" and records[1].rationale == ""
    assert parse_record_texts("Record x (verified correction, utility 0 -> 1)\nno more") == []


def test_bad_record_id_is_refused() -> None:
    with pytest.raises(ValueError, match="without spaces"):
        render_record_text("a b", "", "x", "y", "sql", "", 0.0, 1.0)


def test_header_equals_the_agents_advice_header() -> None:
    assert ADVICE_BLOCK_HEADER == ADVICE_HEADER


def test_the_source_task_line_round_trips_and_is_left_out_when_empty() -> None:
    text = render_record_text(
        "r4", "none", "SELECT 1", "SELECT 2", "sql", "why", 0.0, 1.0, task="How many\nclients are there?"
    )
    assert text.splitlines()[1] == "Past task: How many clients are there?"
    (record,) = parse_record_texts(text)
    assert record.task == "How many clients are there?" and record.improved == "SELECT 2"
    bare = render_record_text("r5", "none", "SELECT 1", "SELECT 2", "sql", "why", 0.0, 1.0)
    assert "Past task" not in bare and parse_record_texts(bare)[0].task == ""


def test_a_malformed_answers_correction_is_shown_as_the_answer_the_agent_should_have_written() -> None:
    from countermem.agents._parser import parse_step

    raw = "```python\ndef f(x):\n    return x\n```"
    text = render_record_text("r6", "malformed_answer", raw, "def f(x):\n    return x + 1", "python", "why", 0.0,
                              1.0, answer_form=True)
    (record,) = parse_record_texts(text)
    assert record.original == raw
    assert record.improved.startswith("Action: check\n```python\n")
    step = parse_step(record.improved)  # the agent's own parser reads the shown answer
    assert step.verb == "check" and step.action is not None
    assert step.action.content == "def f(x):\n    return x + 1"
    plain = render_record_text("r6", "malformed_answer", raw, "def f(x):\n    return x + 1", "python", "why", 0.0, 1.0)
    assert "Action: check" not in plain


def test_a_malformed_answers_mistake_is_cut_and_its_why_names_the_form() -> None:
    from countermem.core._advice_format import MALFORMED_SHOWN_CHARS, MALFORMED_WHY

    raw = "Thought: " + "long reasoning " * 60 + "the end"
    text = render_record_text("r7", "malformed_answer", raw, "x = 1", "python", "set x", 0.0, 1.0, answer_form=True)
    (record,) = parse_record_texts(text)
    assert record.original.startswith("Thought: long reasoning") and record.original.endswith("the end")
    assert "characters cut" in record.original and len(record.original) < MALFORMED_SHOWN_CHARS + 60
    assert record.rationale == f"{MALFORMED_WHY} set x"
    plain = parse_record_texts(render_record_text("r7", "c", raw, "x = 1", "python", "set x", 0.0, 1.0))[0]
    assert plain.original == raw and plain.rationale == "set x"
