"""sql-shop: every gold passes, known-wrong actions fail, variants make look-alikes, splits by database."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from countermem.core import Action
from countermem.domains import check_world_model, load_benchmark, split_tasks
from countermem.domains.sql import ShopBenchmark, SQLiteWorldModel


@pytest.fixture(scope="module")
def shop() -> ShopBenchmark:
    benchmark = load_benchmark("sql-shop")
    assert isinstance(benchmark, ShopBenchmark)
    return benchmark


def test_available_with_at_least_40_questions_over_five_databases(shop: ShopBenchmark) -> None:
    assert shop.availability().available
    tasks = shop.tasks()
    assert len(tasks) >= 40
    assert len({t.id for t in tasks}) == len(tasks)
    environments = Counter(t.environment for t in tasks)
    assert environments.keys() == {
        "shop_retail",
        "shop_wholesale",
        "shop_marketplace",
        "shop_legacy",
        "shop_crm",
    }
    assert min(environments.values()) >= 20
    assert [t.id for t in tasks] == [t.id for t in ShopBenchmark().tasks()]


def test_the_database_is_built_the_same_way_every_time(shop: ShopBenchmark) -> None:
    assert ShopBenchmark().environment_bytes("shop_retail") == shop.environment_bytes("shop_retail")


def test_every_gold_passes_and_every_wrong_action_fails(shop: ShopBenchmark) -> None:
    world = shop.world_model()
    failures = []
    for task in shop.tasks():
        world.reset(task)
        gold = world.check(shop.gold_action(task))
        wrong = world.check(shop.wrong_action(task))
        if not gold.passed or gold.utility != 1.0 or wrong.passed or wrong.status != "wrong":
            failures.append((task.id, gold.details, wrong.details))
    assert failures == []


def test_no_gold_is_empty(shop: ShopBenchmark) -> None:
    assert [t.id for t in shop.tasks() if not shop.gold_result(t).rows] == []


@pytest.mark.parametrize("index", [0, 5, 20, 40, -1])
def test_conformance(shop: ShopBenchmark, index: int) -> None:
    task = shop.tasks()[index]
    actions = [
        shop.gold_action(task),
        shop.wrong_action(task),
        Action(content="SELECT * FROM no_such_table"),
        Action(content="DELETE FROM orders"),
    ]
    report = check_world_model(shop.world_model(), task, actions)
    statuses = [r.status for r in report.results]
    assert statuses == ["passed", "wrong", "error", "rejected"]


def test_a_write_is_refused_and_the_database_is_unchanged(shop: ShopBenchmark) -> None:
    task = next(t for t in shop.tasks() if t.id == "sql-shop-retail-q01")
    world = shop.world_model()
    start = world.reset(task)
    refused = world.check(Action(content="DELETE FROM customers"))
    assert refused.status == "rejected" and refused.completed and not refused.passed
    assert "DELETE" in refused.details
    assert world.snapshot().fingerprint == start.fingerprint
    assert world.check(Action(content="SELECT COUNT(*) FROM customers")).passed


def test_the_same_wording_needs_a_different_query_per_variant(shop: ShopBenchmark) -> None:
    tasks = {t.id: t for t in shop.tasks()}
    retail, wholesale = tasks["sql-shop-retail-q02"], tasks["sql-shop-wholesale-q02"]
    assert retail.prompt == wholesale.prompt
    world = shop.world_model()
    world.reset(wholesale)
    transplanted = world.check(shop.gold_action(retail))
    assert not transplanted.passed
    assert world.check(shop.gold_action(wholesale)).passed


def test_revenue_differs_where_the_price_lives_elsewhere(shop: ShopBenchmark) -> None:
    tasks = {t.id: t for t in shop.tasks()}
    retail, wholesale = tasks["sql-shop-retail-q06"], tasks["sql-shop-wholesale-q06"]
    assert shop.gold_result(retail).rows != shop.gold_result(wholesale).rows


def test_lookalikes_are_the_same_question_on_other_variants(shop: ShopBenchmark) -> None:
    with_lookalikes = 0
    for task in shop.tasks():
        found = shop.lookalikes(task, random.Random(0))
        for other in found:
            assert other.prompt == task.prompt
            assert other.environment != task.environment
            assert " ".join((other.gold or "").split()) != " ".join((task.gold or "").split())
        with_lookalikes += bool(found)
    assert with_lookalikes >= 100


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_splits_by_environment_are_disjoint(shop: ShopBenchmark, seed: int) -> None:
    splits = split_tasks(shop.tasks(), seed=seed)
    environments = [
        {t.environment for t in part} for part in (splits.construct, splits.train, splits.heldout)
    ]
    assert all(environments)
    assert not (environments[0] & environments[1] or environments[0] & environments[2])
    assert not environments[1] & environments[2]
    assert sum(splits.counts().values()) == len(shop.tasks())


def test_facts_describe_schema_question_and_query(shop: ShopBenchmark) -> None:
    task = next(t for t in shop.tasks() if t.id == "sql-shop-wholesale-q16")
    facts = shop.facts(task)
    assert "clients" in facts.values["tables"]
    assert "order_items.unit_price" in facts.values["columns"]
    assert facts.values["has_foreign_keys"] is True
    assert facts.values["n_tables"] == 6
    assert {"most", "top_n"} <= set(facts.values["question_keywords"])  # type: ignore[arg-type]
    assert "products" in facts.values["mentioned_tables"]  # type: ignore[operator]
    assert "sql_keywords" not in facts.values
    with_action = shop.facts(task, shop.gold_action(task))
    assert {"join", "group_by", "order_by", "limit", "aggregate"} <= set(with_action.values["sql_keywords"])  # type: ignore[arg-type]
    assert with_action.values["n_joins"] == 2
    assert shop.facts(task, Action(content="SELECT name, COUNT(*) FROM products GROUP BY name")).values[
        "n_select_items"
    ] == 2
    assert shop.facts(task, Action(content="SELEC nonsense")).values["n_select_items"] == 0
    assert with_action.values["sql_unknown_tables"] == ()
    transplanted = shop.facts(task, Action(content="SELECT name FROM customers"))
    assert transplanted.values["sql_unknown_tables"] == ("customers",)


def test_render_task_shows_the_schema_and_the_question(shop: ShopBenchmark) -> None:
    task = next(t for t in shop.tasks() if t.id == "sql-shop-marketplace-q03")
    text = shop.render_task(task)
    assert "CREATE TABLE orders" in text
    assert "'C' cancelled" in text
    assert text.rstrip().endswith(task.prompt)
    assert task.gold not in text
    assert "ONE SQLite query" in shop.instructions()


def test_timeout_option_reaches_the_world_model() -> None:
    from countermem.domains import BenchmarkOptions

    benchmark = ShopBenchmark(BenchmarkOptions(timeout_s=0.3))
    world = benchmark.world_model()
    assert isinstance(world, SQLiteWorldModel)
    assert world.timeout_s == 0.3


def test_a_correction_that_is_right_on_one_variant_is_wrong_on_the_others(shop: ShopBenchmark) -> None:
    """The point of sql-shop: for most questions, no variant's gold passes on another variant."""
    by_question: dict[str, list[str]] = {}
    tasks = shop.tasks()
    for task in tasks:
        by_question.setdefault(str(task.metadata["question_id"]), []).append(task.id)
    world = shop.world_model()
    transplanted_passes = 0
    pairs = 0
    for task in tasks:
        world.reset(task)
        for other in shop.lookalikes(task, random.Random(1)):
            pairs += 1
            transplanted_passes += world.check(shop.gold_action(other)).passed
    assert pairs >= 200
    assert transplanted_passes / pairs < 0.05


def test_a_failed_checks_error_kind_names_no_table_or_column(shop: ShopBenchmark) -> None:
    task = shop.tasks()[0]
    table = shop.schema(task.environment or "").tables[0].name
    model = shop.world_model()
    model.reset(task)
    cases = {
        f"SELECT no_such_thing FROM {table}": "no_such_column",
        "SELECT * FROM no_such_table": "no_such_table",
        "SELECT YEAR(1)": "no_such_function",
        "SELECT FROM WHERE": "syntax_error",
        f"DELETE FROM {table}": "rejected",
    }
    assert {sql: shop.error_kind(model.check(Action(content=sql))) for sql in cases} == cases
    assert shop.error_kind(model.check(shop.wrong_action(task))) == "wrong_rows"
    assert shop.error_kind(model.check(shop.gold_action(task))) is None
