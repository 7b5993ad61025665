"""The SQLite world model: private copies, real snapshots, results instead of exceptions."""

from __future__ import annotations

import time

import pytest

from countermem.core import Action, ConfigError
from countermem.domains import BenchmarkOptions
from countermem.domains.sql import ShopBenchmark, SQLiteWorldModel

RUNAWAY = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT COUNT(*) FROM r"


@pytest.fixture(scope="module")
def shop() -> ShopBenchmark:
    return ShopBenchmark(BenchmarkOptions(timeout_s=0.5))


def test_a_runaway_query_times_out_within_its_limit(shop: ShopBenchmark) -> None:
    world = shop.world_model()
    world.reset(shop.tasks()[0])
    start = time.monotonic()
    result = world.check(Action(content=RUNAWAY))
    elapsed = time.monotonic() - start
    assert result.status == "timeout"
    assert not result.completed and not result.passed and result.utility == 0.0
    assert "0.5 s" in result.details
    assert elapsed < 0.5 + 1.0
    assert result.cost.calls == 1 and result.cost.seconds >= 0.45


def test_errors_say_what_was_wrong(shop: ShopBenchmark) -> None:
    world = shop.world_model()
    world.reset(shop.tasks()[0])
    missing = world.check(Action(content="SELECT COUNT(*) FROM clients"))
    assert (missing.status, missing.completed, missing.passed) == ("error", True, False)
    assert "no such table: clients" in missing.details
    several = world.check(Action(content="SELECT 1; SELECT 2"))
    assert several.status == "rejected"


def test_a_fenced_query_is_accepted(shop: ShopBenchmark) -> None:
    world = shop.world_model()
    task = shop.tasks()[0]
    world.reset(task)
    assert world.check(Action(content=f"```sql\n{task.gold}\n```")).passed


def test_restore_brings_back_a_real_copy(shop: ShopBenchmark) -> None:
    world = shop.world_model()
    assert isinstance(world, SQLiteWorldModel)
    task = shop.tasks()[0]
    start = world.reset(task)
    world.database_path.write_bytes(b"not a database")
    assert world.check(shop.gold_action(task)).status == "error"
    world.restore(start)
    assert world.snapshot().fingerprint == start.fingerprint
    assert world.check(shop.gold_action(task)).passed


def test_restore_switches_task_with_its_state(shop: ShopBenchmark) -> None:
    world = shop.world_model()
    tasks = {t.id: t for t in shop.tasks()}
    retail = world.reset(tasks["sql-shop-retail-q01"])
    world.reset(tasks["sql-shop-wholesale-q01"])
    world.restore(retail)
    assert world.snapshot().task_id == "sql-shop-retail-q01"
    assert world.check(Action(content="SELECT COUNT(*) FROM customers")).passed


def test_two_world_models_do_not_share_a_file(shop: ShopBenchmark) -> None:
    first, second = shop.world_model(), shop.world_model()
    assert isinstance(first, SQLiteWorldModel) and isinstance(second, SQLiteWorldModel)
    first.reset(shop.tasks()[0])
    second.reset(shop.tasks()[0])
    assert first.database_path != second.database_path
    first.close()
    assert not first.database_path.exists()
    assert second.database_path.exists()


def test_check_before_reset_is_a_named_error(shop: ShopBenchmark) -> None:
    with pytest.raises(ConfigError, match="reset"):
        shop.world_model().check(Action(content="SELECT 1"))


def test_gold_results_are_cached_per_task(shop: ShopBenchmark) -> None:
    benchmark = ShopBenchmark()
    world = benchmark.world_model()
    for task in benchmark.tasks()[:3]:
        world.reset(task)
        world.check(benchmark.gold_action(task))
        world.check(benchmark.gold_action(task))
    assert len(benchmark._gold_cache) == 3
