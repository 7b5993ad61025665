"""ScriptedLLM: order, exhaustion, function scripts and the documented word-count usage rule."""

from __future__ import annotations

import pytest

from countermem.core import LLMError
from countermem.llm import LLM, Message, ScriptedLLM, ScriptedReply

PROMPT = [Message(role="system", content="answer in one word"), Message(role="user", content="two plus two")]


def test_list_script_is_consumed_in_order_then_errors() -> None:
    llm = ScriptedLLM(["four", "five six"])
    assert isinstance(llm, LLM)
    assert [llm.complete(PROMPT).text, llm.complete(PROMPT).text] == ["four", "five six"]
    assert llm.remaining == 0
    with pytest.raises(LLMError, match="ran out of replies after 2"):
        llm.complete(PROMPT)
    assert len(llm.calls) == 3 and llm.calls[0] == PROMPT


def test_usage_counts_whitespace_words() -> None:
    result = ScriptedLLM(["SELECT name FROM users"]).complete(PROMPT)
    assert result.usage.prompt_tokens == 4 + 3
    assert result.usage.completion_tokens == 4
    assert result.usage.reasoning_tokens == 0
    assert result.backend == "scripted" and result.model == "scripted" and not result.cached


def test_reasoning_counts_inside_completion() -> None:
    result = ScriptedLLM([ScriptedReply(text="4", reasoning="two and two make four")]).complete(PROMPT)
    assert (result.usage.completion_tokens, result.usage.reasoning_tokens) == (1 + 5, 5)
    assert result.reasoning == "two and two make four"


def test_function_script_sees_messages_and_never_runs_out() -> None:
    llm = ScriptedLLM(lambda messages: messages[-1].content.upper(), model="echo")
    assert llm.name == "scripted:echo" and llm.remaining is None
    for _ in range(3):
        assert llm.complete(PROMPT).text == "TWO PLUS TWO"


def test_exception_items_are_raised() -> None:
    llm = ScriptedLLM([LLMError("boom"), "ok"])
    with pytest.raises(LLMError, match="boom"):
        llm.complete(PROMPT)
    assert llm.complete(PROMPT).text == "ok"
