"""Conditions derived from facts: mistake atoms from the action's facts, situation atoms from the
task's, environment identity only when nothing else separates."""

from __future__ import annotations

from countermem.core import Action, CheckResult, Facts, Task, Usage, facts_after
from countermem.memory import (
    ApplicabilityCondition,
    ConditionContext,
    ConditionInputs,
    choose_condition,
    derive_conditions,
    derive_for_proposal,
)
from countermem.memory._condition_builder import mistake_atoms, situation_atoms
from countermem.memory._generator import Alternative, Proposal

TASK = Task(id="shop-7", benchmark="sql-shop", domain="sql", prompt="Average price per customer?",
            environment="shop_wholesale")
SITUATION = {
    "database": "shop_wholesale",
    "tables": ("customers", "orders"),
    "columns": tuple(f"orders.c{i}" for i in range(30)),
    "n_tables": 2,
    "has_foreign_keys": True,
    "question_keywords": ("average", "each"),
    "mentioned_tables": ("customers",),
}
FAILED_SQL = "SELECT AVG(price) FROM orders"
FIXED_SQL = "SELECT c.name, AVG(o.price) FROM customers c JOIN orders o ON o.cid = c.id GROUP BY c.name"


def facts_of(task: Task, action: Action | None) -> Facts:
    values = dict(SITUATION)
    if action is not None:
        joined = "JOIN" in action.content
        values["sql_parses"] = True
        values["sql_keywords"] = ("join", "group_by", "aggregate") if joined else ("aggregate",)
        values["n_joins"] = 1 if joined else 0
    return Facts(values=values)


def inputs(failed: str = FAILED_SQL, fixed: str = FIXED_SQL) -> ConditionInputs:
    return ConditionInputs(
        situation=facts_of(TASK, None),
        failed=facts_of(TASK, Action(content=failed)),
        fixed=facts_of(TASK, Action(content=fixed)),
        failed_text=failed,
        fixed_text=fixed,
        identity_values=frozenset({"shop_wholesale", "sql-shop"}),
    )


def test_mistake_atoms_describe_what_the_failed_action_lacks() -> None:
    atoms = [a.text for a in mistake_atoms(inputs())]
    assert atoms == ['"join" not in sql_keywords', "n_joins < 1"]


def test_situation_atoms_rank_what_the_fix_uses_and_skip_identity_and_long_lists() -> None:
    informative, identity = situation_atoms(inputs())
    texts = [a.text for a in informative]
    assert texts[0] == '"customers" in tables'
    assert "has_foreign_keys" in texts
    assert not any("database" in t or "columns" in t for t in texts)
    assert [a.text for a in identity] == ['database == "shop_wholesale"', "n_tables == 2"]


def test_ladder_runs_from_specific_to_general_and_every_rung_parses() -> None:
    ladder = derive_conditions(inputs())
    assert [r.rung for r in ladder] == ["mistake+situation", "mistake", "situation", "identity"]
    assert ladder[0].text == '"join" not in sql_keywords and n_joins < 1 and "customers" in tables'
    for rung in ladder:
        ApplicabilityCondition.from_text(rung.text)


def test_the_condition_holds_after_the_mistake_and_not_after_the_fix() -> None:
    chosen = choose_condition(derive_conditions(inputs()), facts_of(TASK, Action(content=FAILED_SQL)))
    assert chosen is not None and chosen.rung == "mistake+situation"
    condition = ApplicabilityCondition.from_text(chosen.text)
    assert condition.applies(facts_of(TASK, Action(content=FAILED_SQL)))
    assert not condition.applies(facts_of(TASK, Action(content=FIXED_SQL)))
    other_db = Facts(values={**facts_of(TASK, Action(content=FAILED_SQL)).values, "database": "shop_retail"})
    assert condition.applies(other_db), "a derived condition must not name the environment"


def test_at_a_first_decision_without_an_action_the_situation_rung_is_kept() -> None:
    chosen = choose_condition(derive_conditions(inputs()), facts_of(TASK, None))
    assert chosen is not None
    assert chosen.rung == "situation"
    assert "sql_keywords" not in chosen.text


def test_identity_only_when_nothing_else_separates() -> None:
    bare = ConditionInputs(
        situation=Facts(values={"database": "shop_wholesale", "n_tables": 2}),
        failed=Facts(values={"database": "shop_wholesale", "n_tables": 2}),
        fixed=Facts(values={"database": "shop_wholesale", "n_tables": 2}),
        identity_values=frozenset({"shop_wholesale"}),
    )
    assert [r.text for r in derive_conditions(bare)] == ['database == "shop_wholesale"']


def test_universal_only_without_any_facts() -> None:
    empty = ConditionInputs(situation=Facts(), failed=Facts(), fixed=Facts())
    ladder = derive_conditions(empty)
    assert [r.text for r in ladder] == ["none"]
    assert ladder[0].is_universal


def test_bool_and_text_mistakes_and_quotes_in_values() -> None:
    case = ConditionInputs(
        situation=Facts(values={"logic": 'QF_"LIA'}),
        failed=Facts(values={"logic": 'QF_"LIA', "declares_all": False, "form": "fraction"}),
        fixed=Facts(values={"logic": 'QF_"LIA', "declares_all": True, "form": "integer"}),
    )
    ladder = derive_conditions(case)
    assert ladder[0].text == 'not declares_all and form == "fraction" and logic == "QF_\\"LIA"'
    condition = ApplicabilityCondition.from_text(ladder[0].text)
    assert condition.applies(case.failed) and not condition.applies(case.fixed)


def test_derive_for_proposal_writes_conditions_the_model_never_wrote() -> None:
    failed = CheckResult(utility=0.0, passed=False, completed=True, status="wrong")
    proposal = Proposal(
        alternatives=[Alternative(action=Action(content=FIXED_SQL), rationale="join customers")],
        usage=Usage(), raw_text="", condition_source="derived",
    )
    assert failed.utility == 0.0
    decision = facts_of(TASK, Action(content=FAILED_SQL))
    out = derive_for_proposal(proposal, task=TASK, failed_action=Action(content=FAILED_SQL), decision=decision,
                              context=ConditionContext(facts_of=facts_of))
    alternative = out.alternatives[0]
    assert alternative.condition_origin == "derived:mistake+situation"
    assert alternative.condition_text is not None and "sql_keywords" in alternative.condition_text
    model_written = proposal.model_copy(update={"condition_source": "model"})
    assert derive_for_proposal(model_written, task=TASK, failed_action=Action(content=FAILED_SQL),
                               decision=decision, context=None) is model_written


def test_with_a_population_the_rarest_situation_atom_comes_first() -> None:
    from dataclasses import replace

    def task_facts(keywords: tuple[str, ...], mentioned: tuple[str, ...]) -> Facts:
        return Facts(values={**SITUATION, "question_keywords": keywords, "mentioned_tables": mentioned})

    # every source task shares the schema (customers, orders, foreign keys); few ask for an average
    population = (
        facts_of(TASK, None),
        *(task_facts(("count",), ("orders",)) for _ in range(6)),
        task_facts(("each",), ("customers",)),
    )
    ranked = [a.text for a in situation_atoms(replace(inputs(), population=population))[0]]
    assert ranked[0] == '"average" in question_keywords'  # 1 of 8 source tasks, against 8 of 8 for the tables
    assert ranked.index('"customers" in mentioned_tables') < ranked.index('"customers" in tables')
    assert ranked[-1] in ('"customers" in tables', "has_foreign_keys")
    ladder = derive_conditions(replace(inputs(), population=population))
    assert ladder[0].text == '"join" not in sql_keywords and n_joins < 1 and "average" in question_keywords'
    # without a population the ranking is the fix-relevance one
    assert situation_atoms(inputs())[0][0].text == '"customers" in tables'


def test_after_a_malformed_answer_the_slip_is_the_mistake_atom() -> None:
    from countermem.core import MALFORMED_FACT, with_malformed_fact

    raw = Action(content="Thought: the answer is in the customers table.")
    proposal = Proposal(
        alternatives=[Alternative(action=Action(content=FIXED_SQL), rationale="write the query")],
        usage=Usage(), raw_text="", condition_source="derived",
    )
    decision = with_malformed_fact(facts_of(TASK, None))
    assert next(iter(decision.values)) == MALFORMED_FACT  # named first, so it leads the condition
    out = derive_for_proposal(proposal, task=TASK, failed_action=raw, decision=decision,
                              context=ConditionContext(facts_of=facts_of))
    (alternative,) = out.alternatives
    assert alternative.condition_origin == "derived:mistake+situation"
    assert alternative.condition_text is not None
    assert alternative.condition_text.startswith(MALFORMED_FACT + " and ")
    assert "sql_keywords" not in alternative.condition_text  # the raw text has no action facts
    condition = ApplicabilityCondition.from_text(alternative.condition_text)
    assert condition.applies(decision)
    assert not condition.applies(facts_of(TASK, None))
    assert not condition.applies(facts_of(TASK, Action(content=FAILED_SQL)))


def test_a_text_fact_that_differs_on_every_source_task_names_the_task() -> None:
    from dataclasses import replace

    from countermem.memory._condition_builder import identifier_facts

    def task_facts(name: str, returns_list: bool) -> Facts:
        return Facts(values={"function_name": name, "returns_list": returns_list, "return_type": "list"})

    population = (task_facts("circular_shift", True), task_facts("add", False), task_facts("fib", True))
    assert identifier_facts(population) == {"function_name"}  # return_type repeats: it describes
    assert identifier_facts(population[:2]) == frozenset()  # too few tasks to tell
    case = ConditionInputs(
        situation=population[0],
        failed=Facts(values={**population[0].values, "defines_function": False}),
        fixed=Facts(values={**population[0].values, "defines_function": True}),
        population=population,
        rank_by_rarity=False,
    )
    informative, identity = situation_atoms(case)
    assert [a.text for a in identity] == ['function_name == "circular_shift"']
    assert all("function_name" not in a.text for a in informative)
    ladder = derive_conditions(case)
    assert ladder[0].text == 'not defines_function and returns_list'
    assert 'function_name == "circular_shift"' in [rung.text for rung in ladder]  # only as the last resort
    without = derive_conditions(replace(case, population=()))
    assert 'function_name == "circular_shift"' in without[0].text  # what happened before


def test_portable_conditions_leave_atoms_that_hold_in_no_other_environment_to_the_identity_rung() -> None:
    from dataclasses import replace

    def other_db(tables: tuple[str, ...], keywords: tuple[str, ...]) -> Facts:
        return Facts(values={**SITUATION, "database": "other", "tables": tables, "mentioned_tables": (),
                             "question_keywords": keywords})

    # the source's own schema (customers) appears in no other database; "average" questions do
    population = (facts_of(TASK, None), other_db(("orders", "stock"), ("average",)), other_db(("stock",), ("count",)))
    environments = ("shop_wholesale", "shop_retail", "shop_retail")
    case = replace(inputs(), population=population, environments=environments, environment="shop_wholesale")
    plain = [a.text for a in situation_atoms(case)[0]]
    assert '"customers" in tables' in plain and '"customers" in mentioned_tables' in plain
    informative, identity = situation_atoms(replace(case, portable=True))
    texts = [a.text for a in informative]
    assert '"average" in question_keywords' in texts and '"orders" in tables' in texts
    assert not any('"customers"' in t for t in texts), "a table only the source database has is bound to it"
    assert '"customers" in mentioned_tables' in [a.text for a in identity]
    ladder = derive_conditions(replace(case, portable=True))
    assert all('"customers"' not in rung.text for rung in ladder if rung.rung != "identity")
    # no other environment among the sources, or none named: nothing to tell, so nothing changes
    alone = replace(case, portable=True, environments=("shop_wholesale",) * 3)
    assert [a.text for a in situation_atoms(alone)[0]] == plain
    assert [a.text for a in situation_atoms(replace(case, portable=True, environments=()))[0]] == plain


def test_a_portable_context_reaches_the_derived_condition() -> None:
    proposal = Proposal(
        alternatives=[Alternative(action=Action(content=FIXED_SQL), rationale="join customers")],
        usage=Usage(), raw_text="", condition_source="derived",
    )
    other = Facts(values={**SITUATION, "database": "other", "tables": ("stock",), "mentioned_tables": (),
                          "question_keywords": ("count",), "has_foreign_keys": False})
    population = (facts_of(TASK, None), other, other)
    environments = ("shop_wholesale", "shop_retail", "shop_retail")
    decision = facts_of(TASK, Action(content=FAILED_SQL))
    texts = {}
    for portable in (False, True):
        context = ConditionContext(facts_of=facts_of, population=population, environments=environments,
                                   portable=portable)
        out = derive_for_proposal(proposal, task=TASK, failed_action=Action(content=FAILED_SQL),
                                  decision=decision, context=context)
        texts[portable] = out.alternatives[0].condition_text or ""
    assert '"customers"' in texts[False]
    assert '"customers"' not in texts[True] and "sql_keywords" in texts[True]


def test_a_situation_rung_that_holds_on_most_source_tasks_is_left_out() -> None:
    from dataclasses import replace

    def source(keywords: tuple[str, ...]) -> Facts:
        return Facts(values={**SITUATION, "database": "other", "tables": ("stock",), "mentioned_tables": (),
                             "question_keywords": keywords})

    # has_foreign_keys holds on every source task; "average" on one of four
    population = (facts_of(TASK, None), source(("count",)), source(("count",)), source(("count",)))
    first_decision = facts_of(TASK, None)
    narrow = replace(inputs(), population=population, rank_by_rarity=True)
    chosen = choose_condition(derive_conditions(narrow), first_decision)
    assert chosen is not None and chosen.rung == "situation", "no bound: the situation rung"
    broad = replace(narrow, situation=Facts(values={**SITUATION, "question_keywords": ("count",),
                                                     "tables": ("stock",), "mentioned_tables": ()}))
    unbounded = choose_condition(derive_conditions(broad), broad.situation)
    assert unbounded is not None and unbounded.rung == "situation"
    assert sum(ApplicabilityCondition.from_text(unbounded.text).applies(f) for f in population) == 3, "3 of 4 sources"
    bounded = replace(broad, max_situation_share=0.5)
    ladder = derive_conditions(bounded)
    assert "situation" not in [rung.rung for rung in ladder]
    chosen = choose_condition(ladder, bounded.situation)
    assert chosen is not None and chosen.rung == "identity", "too broad to say when it applies: bound to its source"
    kept = choose_condition(derive_conditions(replace(narrow, max_situation_share=0.5)), first_decision)
    assert kept is not None and kept.rung == "situation", "rare atoms keep their rung"
    assert sum(ApplicabilityCondition.from_text(kept.text).applies(f) for f in population) == 1
    after_failure = choose_condition(derive_conditions(bounded), facts_of(TASK, Action(content=FAILED_SQL)))
    assert after_failure is not None and after_failure.rung.startswith("mistake"), "mistake rungs are not bounded"


def test_the_share_bound_reaches_the_derived_condition() -> None:
    proposal = Proposal(
        alternatives=[Alternative(action=Action(content=FIXED_SQL), rationale="join customers")],
        usage=Usage(), raw_text="", condition_source="derived",
    )
    population = (facts_of(TASK, None),) * 3
    origins = []
    for bound in (None, 0.5):
        context = ConditionContext(facts_of=facts_of, population=population, max_situation_share=bound)
        out = derive_for_proposal(proposal, task=TASK, failed_action=Action(content=FAILED_SQL),
                                  decision=facts_of(TASK, None), context=context)
        origins.append(out.alternatives[0].condition_origin)
    assert origins == ["derived:situation", "derived:identity"]


JOIN_PROPOSAL = Proposal(
    alternatives=[Alternative(action=Action(content=FIXED_SQL), rationale="join customers")],
    usage=Usage(), raw_text="", condition_source="derived",
)
UNKNOWN_COLUMN = CheckResult(utility=0.0, passed=False, completed=True, status="error",
                             details="SQLite error: no such column: price")


def unknown_column_kind(result: CheckResult) -> str | None:
    return "no_such_column" if "no such column" in result.details else None


def test_the_checks_error_kind_conditions_the_record_on_its_mistake_alone() -> None:
    proposal, unknown_column, error_kind = JOIN_PROPOSAL, UNKNOWN_COLUMN, unknown_column_kind
    failed_action = Action(content=FAILED_SQL)

    texts = []
    for kind in (None, error_kind):
        decision = facts_after(facts_of, TASK, failed_action, unknown_column, kind)
        out = derive_for_proposal(proposal, task=TASK, failed_action=failed_action, decision=decision,
                                  context=ConditionContext(facts_of=facts_of, error_kind=kind))
        alternative = out.alternatives[0]
        assert alternative.condition_text is not None
        texts.append(alternative.condition_text)
        condition = ApplicabilityCondition.from_text(alternative.condition_text)
        assert condition.applies(decision)
    plain, with_error = texts
    assert plain.endswith('and "customers" in tables')  # a situation atom of the source's schema
    assert with_error.startswith('check_error == "no_such_column"')
    assert "question_keywords" not in with_error and "tables" not in with_error
    on_another_question = facts_after(facts_of, Task(id="q", benchmark="sql-shop", domain="sql", prompt="x",
                                                     environment="other"), failed_action, unknown_column, error_kind)
    other = Facts(values={**on_another_question.values, "tables": ("cust", "ord"), "mentioned_tables": ()})
    assert ApplicabilityCondition.from_text(with_error).applies(other)
    assert not ApplicabilityCondition.from_text(plain).applies(other)
    after_wrong_rows = facts_after(facts_of, TASK, failed_action, unknown_column.model_copy(
        update={"details": "wrong rows"}), error_kind)
    assert not ApplicabilityCondition.from_text(with_error).applies(after_wrong_rows)


def test_with_situation_the_checks_error_keeps_the_most_telling_situation_atom_and_no_action_atom() -> None:
    proposal, unknown_column, error_kind = JOIN_PROPOSAL, UNKNOWN_COLUMN, unknown_column_kind
    failed_action = Action(content=FAILED_SQL)

    decision = facts_after(facts_of, TASK, failed_action, unknown_column, error_kind)
    context = ConditionContext(facts_of=facts_of, error_kind=error_kind, error_with_situation=True)
    out = derive_for_proposal(proposal, task=TASK, failed_action=failed_action, decision=decision, context=context)
    text = out.alternatives[0].condition_text
    assert text == 'check_error == "no_such_column" and "customers" in tables'
    assert out.alternatives[0].condition_origin == "derived:mistake+situation"
