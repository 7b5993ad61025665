"""The simulated backbone's turn logic and record application, without any domain."""

from __future__ import annotations

import pytest

from countermem.agents import parse_step
from countermem.core import ConfigError, LLMError, parse_record_texts, render_record_text
from countermem.llm import (
    LLM,
    Message,
    RecordEdit,
    ScriptedReply,
    SimulatedLLM,
    apply_edits,
    apply_record,
    make_llm,
    record_edits,
    scripted_usage,
)

HEADER = "Advice from verified past corrections (use it only if it fits this task):"
NAIVE = "SELECT name FROM customers WHERE status = 'shipped'"


def _naive(text: str) -> str | None:
    return NAIVE if text.startswith("Task A") else None


def _record(original: str, improved: str, record_id: str = "r1") -> str:
    return render_record_text(record_id, '"clients" in tables', original, improved, "sql", "rename", 0.0, 1.0)


def _advice(*records: str) -> str:
    return "\n\n".join([HEADER, *records])


def _conversation(*turns: str) -> list[Message]:
    """system, then user/assistant alternating from `turns` (user first)."""
    messages = [Message(role="system", content="You solve sql tasks.")]
    for index, content in enumerate(turns):
        messages.append(Message(role="user" if index % 2 == 0 else "assistant", content=content))
    return messages


def _reply(llm: SimulatedLLM, *turns: str) -> tuple[str, str | None]:
    step = parse_step(llm.complete(_conversation(*turns)).text)
    return step.verb, step.action.content if step.action else None


RENAME = _record("SELECT COUNT(*) FROM customers", "SELECT COUNT(*) FROM clients")
STATUS = _record("SELECT 1 FROM orders WHERE status = 'shipped'", "SELECT 1 FROM orders WHERE status = 1", "r2")


def test_first_turn_checks_the_naive_action() -> None:
    llm = SimulatedLLM(_naive, language="sql")
    text = llm.complete(_conversation("Task A: names")).text
    assert text.startswith("Thought: ") and "```sql\n" in text
    assert _reply(llm, "Task A: names") == ("check", NAIVE)


def test_passed_check_is_a_bare_submit() -> None:
    llm = SimulatedLLM(_naive)
    verb, action = _reply(llm, "Task A", "(answer)", "Observation: check PASSED (status passed, utility 1.00).")
    assert (verb, action) == ("submit", None)


def test_failed_check_without_new_advice_submits_the_same_mistake() -> None:
    llm = SimulatedLLM(_naive)
    verb, action = _reply(llm, "Task A", "(answer)", "Observation: check FAILED (status wrong, utility 0.00).")
    assert (verb, action) == ("submit", NAIVE)


def test_advice_after_a_failure_is_applied_and_checked() -> None:
    llm = SimulatedLLM(_naive)
    failed = "Observation: check FAILED (status wrong, utility 0.00).\nwrong rows"
    verb, action = _reply(llm, "Task A", "(answer)", f"{failed}\n\n{_advice(RENAME)}")
    assert verb == "check"
    assert action == "SELECT name FROM clients WHERE status = 'shipped'"
    # the same record offered again is not new: the model gives up and submits what it has
    verb, action = _reply(
        llm, "Task A", "(a1)", f"{failed}\n\n{_advice(RENAME)}", "(a2)", f"{failed}\n\n{_advice(RENAME)}"
    )
    assert (verb, action) == ("submit", "SELECT name FROM clients WHERE status = 'shipped'")
    # a second, different record is applied on top of the first
    verb, action = _reply(
        llm, "Task A", "(a1)", f"{failed}\n\n{_advice(RENAME)}", "(a2)", f"{failed}\n\n{_advice(STATUS)}"
    )
    assert (verb, action) == ("check", "SELECT name FROM clients WHERE status = 1")


def test_advice_that_changes_nothing_is_not_checked_again() -> None:
    llm = SimulatedLLM(_naive)
    unrelated = _record("SELECT a FROM t", "SELECT b FROM t", "r9")
    failed = "Observation: check FAILED (status wrong, utility 0.00)."
    assert _reply(llm, "Task A", "(answer)", f"{failed}\n\n{_advice(unrelated)}") == ("submit", NAIVE)


def test_advice_in_the_task_message_shapes_the_first_check() -> None:
    llm = SimulatedLLM(_naive)
    verb, action = _reply(llm, f"Task A\n\n{_advice(RENAME)}")
    assert (verb, action) == ("check", "SELECT name FROM clients WHERE status = 'shipped'")


def test_a_record_is_followed_even_where_it_does_not_fit() -> None:
    """The point of the test bed: a mismatched record is applied and can do harm."""
    llm = SimulatedLLM(lambda text: "SELECT city FROM customers GROUP BY city")
    _, action = _reply(llm, f"any task\n\n{_advice(RENAME)}")
    assert action == "SELECT city FROM clients GROUP BY city"


def test_unknown_task_and_missing_user_message_raise_llm_error() -> None:
    llm = SimulatedLLM(_naive)
    with pytest.raises(LLMError, match="does not know this task"):
        llm.complete(_conversation("Task B"))
    with pytest.raises(LLMError, match="needs a user message"):
        llm.complete([Message(role="system", content="s")])


def test_usage_follows_the_scripted_word_rule_and_names_the_backend() -> None:
    llm = SimulatedLLM(_naive, seed=3)
    messages = _conversation("Task A: names")
    completion = llm.complete(messages)
    assert completion.usage == scripted_usage(messages, ScriptedReply(text=completion.text))
    assert completion.usage.prompt_tokens == 3 + 4
    assert completion.backend == "simulated" and llm.name == "simulated:simulated-s3"
    assert isinstance(llm, LLM)


def test_deterministic_across_calls_and_instances() -> None:
    turns = ("Task A", "(answer)", f"Observation: check FAILED (status wrong).\n\n{_advice(RENAME, STATUS)}")
    first = SimulatedLLM(_naive).complete(_conversation(*turns))
    again = SimulatedLLM(_naive).complete(_conversation(*turns))
    assert first == again


def test_generator_prompts_go_to_the_policy() -> None:
    seen: list[list[Message]] = []

    def policy(messages: list[Message]) -> str:
        seen.append(messages)
        return "### Alternative 1\nCondition: none\n```sql\nSELECT 2\n```"

    llm = SimulatedLLM(
        _naive, generator_policy=policy, is_generator_prompt=lambda m: m[0].content.startswith("You repair")
    )
    generator = [Message(role="system", content="You repair actions"), Message(role="user", content="x")]
    assert llm.complete(generator).text.endswith("SELECT 2\n```") and len(seen) == 1
    assert _reply(llm, "Task A") == ("check", NAIVE)
    assert len(seen) == 1
    with pytest.raises(ConfigError, match="together"):
        SimulatedLLM(_naive, generator_policy=policy)


def test_make_llm_builds_the_simulated_backbone() -> None:
    llm = make_llm("simulated", naive_action=_naive, seed=1)
    assert isinstance(llm, SimulatedLLM) and llm.name == "simulated:simulated-s1"
    with pytest.raises(ConfigError, match="simulated_llm_for"):
        make_llm("simulated")


# --- record edits -------------------------------------------------------------------------------


def test_replace_edit_is_the_changed_tokens() -> None:
    assert record_edits("SELECT COUNT(*) FROM customers", "SELECT COUNT(*) FROM clients") == [
        RecordEdit(old="customers", new="clients")
    ]
    edits = record_edits("SELECT name FROM t WHERE s = 'shipped'", "SELECT full_name FROM t WHERE s = 1")
    assert edits == [RecordEdit("name", "full_name"), RecordEdit("'shipped'", "1")]


def test_insert_and_delete_are_anchored_on_a_neighbour() -> None:
    insert = record_edits("SELECT a FROM t", "SELECT DISTINCT a FROM t")
    assert insert == [RecordEdit("SELECT", "SELECT DISTINCT")]
    delete = record_edits("SELECT a FROM t LIMIT 5", "SELECT a FROM t")
    assert delete == [RecordEdit("t LIMIT 5", "t")]
    at_start = record_edits("a b", "x a b")
    assert at_start == [RecordEdit("a", "x a")]
    assert all(edit.old for edit in insert + delete + at_start)


def test_whitespace_between_tokens_is_kept_as_written() -> None:
    assert record_edits("SELECT  a   FROM t", "SELECT  b  c FROM t") == [RecordEdit("a", "b  c")]


def test_apply_replaces_first_occurrence_case_sensitively_and_skips_absent_text() -> None:
    edits = [RecordEdit("customers", "clients"), RecordEdit("missing", "x")]
    assert apply_edits("customers JOIN customers", edits) == "clients JOIN customers"
    assert apply_edits("CUSTOMERS", edits) == "CUSTOMERS"


def test_apply_record_reads_a_parsed_record() -> None:
    (record,) = parse_record_texts(RENAME)
    assert apply_record("SELECT city FROM customers", record) == "SELECT city FROM clients"


def test_apply_never_splits_a_word() -> None:
    edits = [RecordEdit("name", "full_name")]
    assert apply_edits("SELECT last_name, name FROM t", edits) == "SELECT last_name, full_name FROM t"
    assert apply_edits("SELECT c.name FROM t", edits) == "SELECT c.full_name FROM t"
    assert apply_edits("SELECT (a) FROM t", [RecordEdit("(a)", "(b)")]) == "SELECT (b) FROM t"
