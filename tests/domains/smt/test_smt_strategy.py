"""The strategy language: what parses, what is refused and why (no z3 process is started)."""

from __future__ import annotations

import pytest

from countermem.core import Action, ParseError
from countermem.domains.smt import parse_strategy
from countermem.domains.smt._smtlib import strategy_facts
from countermem.domains.smt._strategy import IfProbe, Named, Sequence, UsingParams


def test_plain_tactic_and_combinators_parse_to_a_tree() -> None:
    strategy = parse_strategy("(then simplify solve-eqs (or-else smt sat))")
    assert isinstance(strategy.tactic, Sequence)
    assert strategy.tactic.op == "then"
    assert strategy.tactics_used() == ("sat", "simplify", "smt", "solve-eqs")
    assert strategy.combinators_used() == ("or-else", "then")
    assert parse_strategy("smt").tactic == Named("smt")


def test_using_params_keeps_typed_values() -> None:
    strategy = parse_strategy("(using-params smt :random_seed 3 :arith.solver 2 :relevancy 0)")
    assert isinstance(strategy.tactic, UsingParams)
    assert strategy.tactic.params == (("random_seed", 3), ("arith.solver", 2), ("relevancy", 0))
    bang = parse_strategy("(! smt :random_seed 3 :auto_config false)")
    assert isinstance(bang.tactic, UsingParams)
    assert bang.tactic.params[1] == ("auto_config", False)


def test_options_and_default_solver() -> None:
    strategy = parse_strategy("(set-option :smt.random_seed 7)\n(check-sat)")
    assert strategy.tactic is None
    assert strategy.options == (("smt.random_seed", 7),)
    assert strategy.to_text() == "(set-option :smt.random_seed 7)\n(check-sat)"


def test_check_sat_using_fence_and_lost_parentheses_are_accepted() -> None:
    expected = parse_strategy("(then simplify smt)")
    assert parse_strategy("(check-sat-using (then simplify smt))") == expected
    assert parse_strategy("```smt2\n(then simplify smt)\n```") == expected
    assert parse_strategy("then simplify smt") == expected


def test_probes_build_conditionals() -> None:
    strategy = parse_strategy("(if (and (> num-consts 10) (not is-qfbv)) qflia (try-for smt 500))")
    assert isinstance(strategy.tactic, IfProbe)
    assert strategy.to_text() == "(if (and (> num-consts 10) (not is-qfbv)) qflia (try-for smt 500))"
    assert parse_strategy("(when is-qfnia qfnia)").combinators_used() == ("when",)


def test_canonical_text_parses_back_to_the_same_strategy() -> None:
    for text in [
        "(then simplify (repeat (or-else split-clause skip) 5) smt)",
        "(set-option :sat.random_seed 2)\n(using-params qfbv :random_seed 4)",
        "(fail-if (> size 1000))",
    ]:
        strategy = parse_strategy(text)
        assert parse_strategy(strategy.to_text()) == strategy


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "empty strategy"),
        ("(then simplify smt", "unclosed"),
        ("(then simplify smt))", "unbalanced"),
        ("nosuch-tactic", "unknown tactic"),
        ("(par-or smt sat)", "refused"),
        ("psmt", "refused"),
        ("(using-params smt :trace_file_name out)", "refused"),
        ('(using-params smt :random_seed "3")', "must be true, false, a number"),
        ("(set-option :timeout 100000)\n(check-sat)", "refused"),
        ("(set-option :rlimit 0)\nsmt", "refused"),
        ("(try-for smt 0)", "between"),
        ("(repeat smt 1000000)", "between"),
        ("(if nosuch-probe smt sat)", "unknown probe"),
        ("(assert (> x 0))", "unknown combinator"),
        ("smt\nsat\n(check-sat)", "exactly one"),
        ("(check-sat 1)", "no arguments"),
    ],
)
def test_malformed_strategies_raise_parse_error_with_reason(text: str, needle: str) -> None:
    with pytest.raises(ParseError, match=needle):
        parse_strategy(text)


def test_size_limits_are_enforced() -> None:
    with pytest.raises(ParseError, match="limit"):
        parse_strategy("(then " + "simplify " * 1000 + ")")
    with pytest.raises(ParseError, match="nodes"):
        parse_strategy("(then " + "smt " * 250 + ")")


def test_action_facts_describe_the_strategy_or_its_failure() -> None:
    facts = strategy_facts(Action(content="(then simplify (using-params smt :random_seed 1))"))
    assert facts["action_parses"] is True
    assert facts["action_tactics"] == ("simplify", "smt")
    assert facts["action_default_solver"] is False
    assert strategy_facts(Action(content="(then")) == {"action_parses": False}
