"""Merging equivalent records: same scope, condition and normalised edit become one, in one transaction."""

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from countermem.cli._memory import memory_app
from countermem.core import StoreError
from countermem.memory import Record, ScopeAccess, SQLiteStore, open_store, utc_now
from countermem.memory._merge import merge_groups, merge_key, normalised_edit
from sql_records import sql_record

runner = CliRunner()


def make(
    column: str,
    table: str,
    *,
    scope: str = "default",
    condition: str = '"users" in tables',
    utility: float = 1.0,
    edit: str = "DISTINCT ",
    age_s: int = 0,
) -> Record:
    return sql_record(
        f"list the {column} of {table}",
        f"SELECT {column}\n  FROM {table}",
        f"SELECT {edit}{column} FROM {table}",
        task_id=f"task-{column}-{table}",
        condition=condition,
        scope=scope,
        utility=utility,
        original_status="wrong",
        created_at=utc_now() - timedelta(seconds=age_s),
    )


def test_the_normalised_edit_ignores_whitespace_and_unchanged_context() -> None:
    a, b = make("name", "users"), make("city", "shops")
    assert normalised_edit(a.original_action.content, a.improved_action.content) == (
        ("insert", (), ("DISTINCT",)),
    )
    assert merge_key(a) == merge_key(b)
    assert merge_key(make("name", "users", edit="ALL ")) != merge_key(a)
    assert merge_key(make("name", "users", condition="none")) != merge_key(a)
    assert merge_key(make("name", "users", scope="team-b")) != merge_key(a)
    assert merge_key(make("name", "users", edit="")) is None  # the action unchanged: no edit to share


def _store(path: Path | str, records: list[Record]) -> None:
    with open_store(path) as store:
        for record in records:
            store.add(record)


def test_merge_keeps_the_best_verified_sums_counters_and_lists_every_source(store_at: Callable[[], str]) -> None:
    path = store_at()
    weak = make("name", "users", utility=0.6, age_s=30)
    best = make("city", "shops")
    third = make("id", "orders", utility=0.9, age_s=10)
    other_condition = make("zip", "addresses", condition="none")
    other_scope = make("name", "users", scope="team-b")
    _store(path, [weak, best, third, other_condition, other_scope])
    with open_store(path) as store:
        store.update_counters(weak.id, retrieved=4, selected=3, succeeded=1, harmed=1)
        store.update_counters(third.id, retrieved=2, selected=2, succeeded=2)
        groups = store.merge()
        assert len(groups) == 1
        kept = groups[0].kept
        assert kept.id == best.id and kept.improved_action == best.improved_action
        assert {m.record_id for m in kept.merged_from} == {weak.id, third.id}
        assert {m.source.task_id for m in kept.merged_from} == {weak.source.task_id, third.source.task_id}
        c = kept.counters
        assert (c.retrieved, c.selected, c.succeeded, c.harmed) == (6, 5, 3, 1)
        assert kept.condition.canonical == best.condition.canonical  # never generalised
        assert {r.id for r in store.all()} == {best.id, other_condition.id, other_scope.id}
        assert [e.rule for e in store.evictions()] == ["merge", "merge"]
        assert store.evicted_record(weak.id).counters.selected == 3  # the merged body stays readable
        assert [v.version for v in store.history(best.id)] == [1, 2]
        assert store.merge() == []  # nothing left to merge
    with open_store(path, read_only=True) as reopened:
        assert reopened.get(best.id).merged_from == kept.merged_from


def test_a_failed_merge_changes_nothing(store_at: Callable[[], str], monkeypatch: pytest.MonkeyPatch) -> None:
    path = store_at()
    records = [make("name", "users"), make("city", "shops"), make("id", "orders")]
    _store(path, records)
    store = open_store(path)
    original = store._log_eviction
    calls = []

    def fail_on_second(*args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) == 2:
            raise StoreError("disk full (injected)")
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "_log_eviction", fail_on_second)
    with pytest.raises(StoreError, match="injected"):
        store.merge()
    store.close()
    with open_store(path, read_only=True) as reopened:
        assert len(reopened) == 3 and reopened.evictions() == []
        assert all(r.version == 1 and not r.merged_from for r in reopened.all())


def test_admission_merges_into_an_equivalent_record_or_absorbs_it(store_at: Callable[[], str]) -> None:
    weak, strong = make("name", "users", utility=0.6), make("city", "shops")
    with open_store(store_at()) as store:
        assert store.add_or_merge(weak).merged_into is None
        outcome = store.add_or_merge(strong)  # the better one is kept and absorbs the stored one
        assert outcome.merged_into is None and outcome.merged == [weak.id]
        assert [r.id for r in store.all()] == [strong.id]
        later = make("id", "orders", utility=0.8)
        outcome = store.add_or_merge(later)
        assert outcome.merged_into == strong.id and outcome.merged == []
        (only,) = store.all()
        assert {m.record_id for m in only.merged_from} == {weak.id, later.id}
        unrelated = make("x", "y", condition="none")
        assert store.add_or_merge(unrelated).merged_into is None and len(store) == 2


def test_a_reader_merges_only_its_own_scope(store_at: Callable[[], str]) -> None:
    path = store_at()
    _store(path, [make("a", "t", scope="team-a"), make("b", "u", scope="team-a"),
                  make("a", "t", scope="team-b"), make("b", "u", scope="team-b")])
    access = ScopeAccess.of("team-b", ["team-a"])
    with open_store(path, access=access) as store:
        groups = store.merge()
        assert [g.kept.scope for g in groups] == ["team-b"]
        assert len(store) == 3
    assert merge_groups([make("a", "t", scope="team-a"), make("b", "u", scope="team-b")]) == []


def test_memory_merge_prints_what_merged(tmp_path: Path) -> None:
    records = [make("name", "users"), make("city", "shops"), make("zip", "addresses", condition="none")]
    _store(tmp_path / "m.db", records)
    dry = runner.invoke(memory_app, ["merge", str(tmp_path / "m.db"), "--dry-run"])
    assert dry.exit_code == 0, dry.output
    assert "would merge 1 records into 1 (dry run: nothing changed)" in dry.output
    with SQLiteStore(tmp_path / "m.db", read_only=True) as store:
        assert len(store) == 3
    done = runner.invoke(memory_app, ["merge", str(tmp_path / "m.db")])
    assert done.exit_code == 0, done.output
    kept, merged = records[0], records[1]
    assert f"merged {merged.id} into {kept.id}" in done.output or f"merged {kept.id} into {merged.id}" in done.output
    assert "task-name-users" in done.output and "task-city-shops" in done.output
    assert "merged 1 records into 1 (one transaction)" in done.output
    with SQLiteStore(tmp_path / "m.db", read_only=True) as store:
        assert len(store) == 2


def test_a_construct_stage_with_merge_on_merges_at_admission(tmp_path: Path) -> None:
    """SIMULATED sql-shop construct (split seed 0): three tasks replace `customers` by `clients`."""
    from countermem.domains import load_benchmark
    from countermem.experiment import RunConfig, RunDir, select_tasks, simulated_llm_for
    from countermem.experiment._stages import MemorySettings, construct_memory

    bench = load_benchmark("sql-shop")
    config = RunConfig(benchmark="sql-shop", backbone="simulated", model="simulated", split="construct")
    tasks = select_tasks(bench, config)
    llm = simulated_llm_for(bench, bench.tasks(), seed=0)
    counts = {}
    for merge in (False, True):
        settings = MemorySettings(store=tmp_path / f"{merge}.sqlite", embedder="lexical", merge=merge)
        construct_memory(config, settings, llm, bench, tasks, RunDir(tmp_path / f"c-{merge}"), simulated=True)
        with SQLiteStore(settings.store, read_only=True) as store:
            counts[merge] = len(store)
            merged = [r for r in store.all() if r.merged_from]
            assert bool(merged) is merge
            assert all(e.rule == "merge" for e in store.evictions())
    assert counts[True] < counts[False]
