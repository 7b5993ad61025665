"""Spider: loading with the documented skips, gold passes on a sample (all golds in the slow test)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from countermem.core import Action, Task
from countermem.domains import (
    BenchmarkOptions,
    check_world_model,
    find_data_root,
    load_benchmark,
    split_tasks,
)
from countermem.domains.sql import SpiderBenchmark, query_shape, quote_alter
from countermem.domains.sql._spider import _content_words, _english_question


@pytest.fixture(scope="module")
def spider() -> SpiderBenchmark:
    benchmark = load_benchmark("spider")
    assert isinstance(benchmark, SpiderBenchmark)
    availability = benchmark.availability()
    if not availability.available:
        pytest.skip(f"Spider data unavailable: {availability.reason}")
    return benchmark


def _german_only_root(tmp_path: Path) -> Path:
    root = find_data_root()
    if root is None or not (root / "spider" / "SOURCE.md").is_file():
        pytest.skip("the German Spider folder (spider) is not present")
    (tmp_path / "spider").symlink_to(root / "spider")
    return tmp_path


def test_tasks_load_with_documented_skips(spider: SpiderBenchmark) -> None:
    tasks = spider.tasks()
    report = spider.load_report()
    assert report.tasks == len(tasks) > 500
    assert report.items == len(tasks) + sum(report.skipped.values())
    assert all("wta_1" in reason for reason in report.skipped)
    assert not any(t.environment == "wta_1" for t in tasks)
    assert len({t.id for t in tasks}) == len(tasks)
    assert all(
        t.id == f"spider-{t.metadata['source_index']}" for t in tasks if t.metadata["language"] == "en"
    )
    assert report.gold_empty == sum(bool(t.metadata["gold_empty"]) for t in tasks) > 0


def test_a_sample_of_golds_passes_and_wrong_actions_fail(spider: SpiderBenchmark) -> None:
    tasks = spider.tasks()[::15]
    assert len(tasks) >= 50
    world = spider.world_model()
    failures = []
    for task in tasks:
        world.reset(task)
        gold = world.check(spider.gold_action(task))
        wrong = world.check(spider.wrong_action(task))
        if not gold.passed or wrong.passed or wrong.status != "wrong":
            failures.append((task.id, gold.details, wrong.details))
    assert failures == []


@pytest.mark.parametrize("index", [0, 100, 300, 600])
def test_conformance(spider: SpiderBenchmark, index: int) -> None:
    task = spider.tasks()[index]
    actions = [
        spider.gold_action(task),
        spider.wrong_action(task),
        Action(content="SELECT FROM WHERE"),
        Action(content=f"DROP TABLE {spider.schema(task.environment or '').table_names[0]}"),
    ]
    report = check_world_model(spider.world_model(), task, actions)
    assert [r.status for r in report.results] == ["passed", "wrong", "error", "rejected"]


def test_an_empty_gold_is_flagged_and_cannot_tell_right_from_wrong(spider: SpiderBenchmark) -> None:
    task = next(t for t in spider.tasks() if t.metadata["gold_empty"])
    assert spider.gold_result(task).rows == ()
    world = spider.world_model()
    world.reset(task)
    columns = len(spider.gold_result(task).outcome.columns)
    nothing = ", ".join(["NULL"] * columns)
    assert world.check(Action(content=f"SELECT {nothing} WHERE 0")).passed


def test_splits_by_database_are_disjoint(spider: SpiderBenchmark) -> None:
    splits = split_tasks(spider.tasks(), seed=11)
    parts = [{t.environment for t in part} for part in (splits.construct, splits.train, splits.heldout)]
    assert all(parts)
    assert not (parts[0] & parts[1]) and not (parts[0] & parts[2]) and not (parts[1] & parts[2])


def test_facts_and_render(spider: SpiderBenchmark) -> None:
    task = next(t for t in spider.tasks() if t.environment == "concert_singer" or t.environment == "singer")
    text = spider.render_task(task)
    assert "CREATE TABLE singer" in text and task.prompt in text
    facts = spider.facts(task, spider.gold_action(task))
    assert "singer" in facts.values["tables"]
    assert facts.values["sql_parses"] is True
    assert facts.values["sql_unknown_tables"] == ()
    assert isinstance(facts.values["n_tables"], int)


def test_lookalikes_are_the_same_query_shape_on_other_databases(spider: SpiderBenchmark) -> None:
    tasks = spider.tasks()
    found = {t.id: spider.lookalikes(t, random.Random(0)) for t in tasks}
    with_any = [tid for tid, others in found.items() if others]
    assert len(with_any) >= 100
    by_id = {t.id: t for t in tasks}
    for tid in with_any:
        for other in found[tid]:
            assert other.environment != by_id[tid].environment
            assert other.gold != by_id[tid].gold
            assert query_shape(other.gold or "") == query_shape(by_id[tid].gold or "")


def test_lookalikes_put_the_closest_question_first(spider: SpiderBenchmark) -> None:
    task = next(t for t in spider.tasks() if len(spider.lookalikes(t, random.Random(0))) >= 3)
    words = _content_words(_english_question(task))

    def jaccard(other: object) -> float:
        assert isinstance(other, Task)
        theirs = _content_words(_english_question(other))
        return len(words & theirs) / len(words | theirs)

    for seed in (0, 1):
        scores = [jaccard(o) for o in spider.lookalikes(task, random.Random(seed))]
        assert scores == sorted(scores, reverse=True)


def test_query_shape_blanks_names_and_values() -> None:
    assert (
        query_shape(
            "SELECT T1.name, count(*) AS c FROM singer AS T1 JOIN song AS T2 ON T1.id = T2.sid "
            'WHERE T2.country = "France" AND T2.year > 2000;'
        )
        == "select _ , count ( * ) from _ join _ on _ = _ where _ = ? and _ > ?"
    )
    assert query_shape("select name from dogs group by breed order by count(*) desc limit 1") == query_shape(
        "SELECT City FROM customers GROUP BY City ORDER BY COUNT(*) DESC LIMIT 1"
    )
    assert query_shape("SELECT name FROM t WHERE a = 'x'") != query_shape("SELECT name FROM t WHERE a != 'x'")
    assert query_shape("SELECT count(*) FROM t") != query_shape("SELECT count(DISTINCT a) FROM t")


def test_quote_alter_leaves_string_literals_alone() -> None:
    assert (
        quote_alter("SELECT name, alter FROM t WHERE x = 'alter' AND T1.alter > 3 ORDER BY alter")
        == 'SELECT name, "alter" FROM t WHERE x = \'alter\' AND T1."alter" > 3 ORDER BY "alter"'
    )
    assert quote_alter("SELECT älter FROM t") == "SELECT älter FROM t"


def test_german_fallback_repairs_the_alter_golds(tmp_path: Path) -> None:
    benchmark = SpiderBenchmark(BenchmarkOptions(data_dir=_german_only_root(tmp_path)))
    tasks = benchmark.tasks()
    report = benchmark.load_report()
    assert report.language == "de"
    assert all(t.id.startswith("spider-de-") for t in tasks)
    assert not any(t.environment == "wta_1" for t in tasks)
    repaired = [t for t in tasks if "gold_repaired" in t.metadata]
    assert len(repaired) == report.repaired > 0
    world = benchmark.world_model()
    for task in repaired[:10]:
        world.reset(task)
        assert world.check(benchmark.gold_action(task)).passed, task.id


def test_missing_data_is_reported_not_raised(tmp_path: Path) -> None:
    availability = SpiderBenchmark(BenchmarkOptions(data_dir=tmp_path)).availability()
    assert not availability.available
    assert "Spider" in availability.reason


@pytest.mark.slow
def test_every_gold_passes(spider: SpiderBenchmark) -> None:
    world = spider.world_model()
    outcomes: Counter[str] = Counter()
    row_counts_differ = []
    for task in spider.tasks():
        world.reset(task)
        outcomes[world.check(spider.gold_action(task)).status] += 1
        recorded = task.metadata["gold_rows"]
        if recorded is not None and recorded != len(world.gold_result().rows):
            row_counts_differ.append(task.id)
    print(f"spider ({spider.load_report().language}) gold pass: {dict(outcomes)} of {len(spider.tasks())}")
    assert outcomes == Counter({"passed": len(spider.tasks())})
    assert row_counts_differ == []


@pytest.mark.slow
def test_every_german_gold_passes(tmp_path: Path) -> None:
    benchmark = SpiderBenchmark(BenchmarkOptions(data_dir=_german_only_root(tmp_path)))
    world = benchmark.world_model()
    outcomes: Counter[str] = Counter()
    for task in benchmark.tasks():
        world.reset(task)
        outcomes[world.check(benchmark.gold_action(task)).status] += 1
    print(f"spider (de) gold pass: {dict(outcomes)} of {len(benchmark.tasks())}")
    assert outcomes == Counter({"passed": len(benchmark.tasks())})
