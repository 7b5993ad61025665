"""The edit grammar: what it allows is what parse_single reads, and the generator sends it only when asked."""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from countermem.memory import GeneratorSettings, parse_single
from countermem.memory._grammar import FIX_CHAR_LIMIT, edit_grammar


def test_the_grammar_names_the_fence_tag_and_bounds_the_fix_line() -> None:
    grammar = edit_grammar("sql")
    assert grammar.startswith('root ::= fix "```" "sql" "\\n" body "```"')
    assert f"{{1,{FIX_CHAR_LIMIT}}}" in grammar and "condition" not in grammar.splitlines()[0]
    assert edit_grammar("smt2", with_condition=True).startswith('root ::= condition fix "```" "smt2"')
    with pytest.raises(ValueError, match="fence tag"):
        edit_grammar('sql" | "x')


def test_an_answer_of_the_grammar_parses() -> None:
    answer = "Condition: n_rows > 1\nFix: group the totals\n```sql\nSELECT a, SUM(b)\n\nFROM t GROUP BY a\n```"
    alternative, problem = parse_single(answer, action_language="sql")
    assert problem is None and alternative is not None
    assert alternative.action.content == "SELECT a, SUM(b)\n\nFROM t GROUP BY a"
    assert alternative.rationale == "group the totals" and alternative.condition_text == "n_rows > 1"
    line = re.compile(r"^(?!```).*$")  # the grammar's body lines: none opens with three backticks
    assert all(line.match(text) for text in alternative.action.content.splitlines())


def test_grammar_is_for_the_sampled_strategy_only() -> None:
    assert GeneratorSettings(grammar=True).grammar
    with pytest.raises(ValidationError, match="batch strategy has none"):
        GeneratorSettings(strategy="batch", conditions="model", grammar=True)
