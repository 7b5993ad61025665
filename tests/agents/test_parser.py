import pytest

from countermem.agents import parse_step
from countermem.core import ParseError


def test_fenced_check() -> None:
    step = parse_step("Thought: count them.\nAction: check\n```sql\nSELECT count(*) FROM t\n```\n")
    assert step.verb == "check"
    assert step.action.content == "SELECT count(*) FROM t"
    assert step.thought == "count them."


def test_inline_submit_and_call_syntax() -> None:
    assert parse_step("Action: submit SELECT 1").action.content == "SELECT 1"
    step = parse_step("Thought: x\nAction: check(SELECT name FROM singer)")
    assert (step.verb, step.action.content) == ("check", "SELECT name FROM singer")


def test_markdown_bold_and_case() -> None:
    step = parse_step("**Thought:** hmm\n**Action:** SUBMIT\n```\nx = 1\n```")
    assert step.verb == "submit"
    assert step.action.content == "x = 1"


def test_fence_on_action_line() -> None:
    step = parse_step("Action: check ```sql\nSELECT 2\n```")
    assert step.action.content == "SELECT 2"


def test_first_action_line_wins() -> None:
    text = "Action: check\n```sql\nSELECT 1\n```\nAction: submit\n```sql\nSELECT 2\n```"
    assert parse_step(text).action.content == "SELECT 1"


@pytest.mark.parametrize(
    "text",
    [
        "SELECT * FROM t",
        "```sql\nSELECT 1\n```",
        "Thought: I will check.\nAction: run\n```sql\nSELECT 1\n```",
        "Action: check\n```sql\n\n```",
    ],
)
def test_malformed(text: str) -> None:
    with pytest.raises(ParseError):
        parse_step(text)


def test_bare_submit_means_last_checked_action() -> None:
    step = parse_step("Thought: it passed.\nAction: submit")
    assert step.verb == "submit" and step.action is None


def test_a_block_cut_at_the_token_limit_is_the_action_as_written() -> None:
    step = parse_step("Thought: encode it.\nAction: check\n```dimacs\np cnf 3 2\n1 2 0\n-1 3")
    assert (step.verb, step.action.content, step.unterminated) == ("check", "p cnf 3 2\n1 2 0\n-1 3", True)
    on_line = parse_step("Action: submit ```sql\nSELECT a FROM t WHERE")
    assert on_line.action.content == "SELECT a FROM t WHERE" and on_line.unterminated
    closed = parse_step("Action: check\n```sql\nSELECT 1\n```\n")
    assert not closed.unterminated
    with pytest.raises(ParseError, match="has no action"):
        parse_step("Action: check\n```sql\n   ")
