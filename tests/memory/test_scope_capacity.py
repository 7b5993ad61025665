"""Capacity per scope (issue 21): one scope's admissions never evict another scope's records.

Each scope holds at most the store's capacity of live records, and the retention rule chooses its
victim only among the incoming record's scope (with redundancy measured only within it), so a
tenant cannot push out another team's verified records. Within one scope eviction is unchanged.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Callable

import pytest
from typer.testing import CliRunner

from countermem.cli import app
from countermem.core import Action, CheckResult, StoreError
from countermem.memory import (
    DEFAULT_SCOPE,
    RETENTION_RULES,
    Record,
    RecordSource,
    ScopeAccess,
    ScopedRedundancyIndex,
    make_retention,
    open_store,
    plan_evictions,
    redundancy_of,
)

CAPACITY = 5
Named = Callable[[str], str]
"""`store_named`: a store location per name, on SQLite and on Postgres (tests/postgres_fixtures.py)."""


def make(i: int, scope: str = DEFAULT_SCOPE, *, gain: float = 0.5, text: str = "") -> Record:
    """Records whose text repeats across scopes, so a scope-blind redundancy would see duplicates."""
    return Record(
        domain="sql",
        benchmark="spider",
        situation=f"task {i}: words{i} more{i % 3} shared text {text}",
        original_action=Action(content=f"SELECT {i}"),
        improved_action=Action(content=f"SELECT {i} FROM t {text}"),
        original_check=CheckResult(utility=0.0, passed=False, completed=True, status="wrong"),
        improved_check=CheckResult(utility=gain, passed=gain == 1.0, completed=True, status="wrong"),
        condition="n_vars > 1",
        source=RecordSource(task_id=f"spider-{i}", benchmark="spider"),
        scope=scope,
    )


@pytest.mark.parametrize("rule", RETENTION_RULES)
def test_admissions_in_one_scope_never_evict_another_scopes_records(store_named: Named, rule: str) -> None:
    path = store_named("m")
    team_a = [make(i, "team-a", gain=0.1) for i in range(CAPACITY)]  # the lowest gain in the store
    with open_store(path, capacity=CAPACITY, retention=rule, seed=3) as owner:
        for record in team_a:
            assert owner.add(record) == []
    with open_store(path, access=ScopeAccess.of("team-b")) as tenant:
        seen = []
        for i in range(40):
            events = tenant.add(make(i, "team-b", gain=1.0))
            seen += events
            assert len(tenant) <= CAPACITY
        assert len(seen) == 40 - CAPACITY  # the tenant is told of every eviction its admissions caused
        assert {tenant.evicted_record(e.record_id).scope for e in seen} == {"team-b"}
    with open_store(path) as owner:
        assert {r.id for r in owner.all() if r.scope == "team-a"} == {r.id for r in team_a}
        assert all(owner.get(r.id).live for r in team_a)
        assert owner.stats().by_scope == {"team-a": CAPACITY, "team-b": CAPACITY}
        evicted = owner.evictions()
        assert len(evicted) == 40 - CAPACITY and all(e.rule == rule for e in evicted)
        assert not {e.record_id for e in evicted} & {r.id for r in team_a}


@pytest.mark.parametrize("rule", RETENTION_RULES)
def test_within_a_scope_the_rule_evicts_as_in_a_store_of_that_scope_alone(store_named: Named, rule: str) -> None:
    """Interleaved with another scope's near-duplicates, scope A loses exactly the records (in the
    same order, for the same reasons and scores) it loses in a store that holds only scope A."""
    rng = random.Random(7)
    team_a = [make(i, "team-a", gain=round(rng.uniform(0.05, 1.0), 3)) for i in range(25)]
    alone_path, shared_path = store_named("alone"), store_named("shared")
    with open_store(alone_path, capacity=CAPACITY, retention=rule, seed=1) as alone:
        expected = [e for record in team_a for e in alone.add(record)]
        kept = [r.id for r in alone.all()]
    with open_store(shared_path, capacity=CAPACITY, retention=rule, seed=1) as shared:
        got = []
        for i, record in enumerate(team_a):
            got += shared.add(record)
            # team-b holds near-duplicates of team-a's records: a store-wide redundancy would see them
            shared.add(make(i, "team-b", gain=1.0))
        got_a = [e for e in got if shared.evicted_record(e.record_id).scope == "team-a"]
        if rule != "random":
            assert [r.id for r in shared.all() if r.scope == "team-a"] == kept
    assert len(expected) == len(got_a) == len(team_a) - CAPACITY
    if rule == "random":  # its draws are numbered by the store's evictions, which team-b's add to
        assert [e.reason for e in got_a] == ["random"] * len(expected)
        return
    assert [(e.record_id, e.reason, e.scores) for e in got_a] == [(e.record_id, e.reason, e.scores) for e in expected]


def test_the_utility_rule_still_evicts_the_lowest_within_the_scope(store_named: Named) -> None:
    with open_store(store_named("m"), capacity=3, retention="utility") as store:
        for i, gain in enumerate([0.9, 0.2, 0.8]):
            store.add(make(i, "team-a", gain=gain, text=f"distinct{i} " * 3))
        store.add(make(50, "team-b", gain=0.01))  # lower than anything, but another scope's
        events = store.add(make(3, "team-a", gain=0.7, text="distinct3 " * 3))
        assert [store.evicted_record(e.record_id).utility_gain for e in events] == [0.2]
        assert events[0].reason == "lowest-utility"
        assert store.stats().by_scope == {"team-a": 3, "team-b": 1}


def test_the_default_scope_alone_keeps_the_store_wide_meaning(store_named: Named) -> None:
    with open_store(store_named("m"), capacity=3, retention="recency") as store:
        records = [make(i) for i in range(6)]
        events = [e for r in records for e in store.add(r)]
        assert [e.record_id for e in events] == [r.id for r in records[:3]]
        assert store.all() == records[3:] and store.stats().by_scope == {DEFAULT_SCOPE: 3}


def test_retired_records_hold_no_slot_in_their_scope(store_named: Named) -> None:
    with open_store(store_named("m"), capacity=2, retention="recency") as store:
        first, second = make(0, "team-a"), make(1, "team-a")
        store.add(first)
        store.add(second)
        store.retire(first.id, "re-verification failed")
        assert store.add(make(2, "team-a")) == []
        assert [r.id for r in store.all()] == [second.id, make(2, "team-a").id]


def test_a_smaller_capacity_brings_only_the_admitting_scope_down(store_named: Named) -> None:
    path = store_named("m")
    with open_store(path, capacity=6, retention="recency") as store:
        for i in range(6):
            store.add(make(i, "team-a"))
            store.add(make(i, "team-b"))
    with open_store(path, capacity=2, retention="recency") as store:
        events = store.add(make(9, "team-b"))
        assert len(events) == 5  # team-b: 6 + 1 down to 2
        assert store.stats().by_scope == {"team-a": 6, "team-b": 2}
        assert {store.evicted_record(e.record_id).scope for e in events} == {"team-b"}


def test_concurrent_writers_of_two_scopes_never_evict_each_other(store_named: Named) -> None:
    """Two writers (own connections, so each admission is its own transaction) fill two scopes."""
    path = store_named("m")
    open_store(path, capacity=CAPACITY, retention="utility").close()
    errors: list[BaseException] = []

    def write(scope: str, count: int) -> None:
        try:
            with open_store(path, access=ScopeAccess.of(scope)) as store:
                for i in range(count):
                    store.add(make(i, scope, gain=0.1 if scope == "team-a" else 1.0))
        except BaseException as error:  # surfaced below, in the test's thread
            errors.append(error)

    threads = [threading.Thread(target=write, args=args) for args in (("team-a", CAPACITY), ("team-b", 30))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with open_store(path) as owner:
        assert owner.stats().by_scope == {"team-a": CAPACITY, "team-b": CAPACITY}
        assert {r.id for r in owner.all() if r.scope == "team-a"} == {make(i, "team-a").id for i in range(CAPACITY)}
        assert len(owner.evictions()) == 30 - CAPACITY


def test_plan_evictions_offers_only_the_incoming_scope() -> None:
    kept = [make(i, "team-a", gain=0.01) for i in range(3)] + [make(i, "team-b", gain=0.9) for i in range(3)]
    incoming = make(9, "team-b", gain=0.95)
    index = ScopedRedundancyIndex([*kept, incoming])
    planned = plan_evictions(
        make_retention("utility"), kept, incoming, 3, seed=0, evicted_before=0, index=index
    )
    assert len(planned) == 1 and planned[0].record.scope == "team-b"
    assert planned[0].record.id not in index and len(index) == 6
    assert plan_evictions(make_retention("utility"), kept, incoming, 4, seed=0, evicted_before=0) == []


def test_plan_evictions_refuses_a_victim_outside_the_candidates() -> None:
    kept = [make(0, "team-a"), make(0, "team-b")]
    rule = make_retention("recency")

    class Outsider:
        name = "outsider"
        needs_redundancy = False

        def choose_victim(self, records: object, rng: object, redundancy: object = None) -> object:
            return rule.choose_victim([kept[0]], random.Random(0))  # team-a's record, not a candidate

    with pytest.raises(StoreError, match="unknown record"):
        plan_evictions(Outsider(), kept, make(1, "team-b"), 1, seed=0, evicted_before=0)  # type: ignore[arg-type]


def test_scoped_redundancy_compares_a_record_only_with_its_own_scope() -> None:
    a = [make(i, "team-a", text="alpha") for i in range(3)]
    twin = make(0, "team-b", text="alpha")  # the same text as a[0], in another scope
    index = ScopedRedundancyIndex([*a, twin])
    assert index.max_similarity("team-a") == redundancy_of(a)
    assert index.max_similarity("team-b")[twin.id].nearest is None
    index.remove(a[0].id)
    assert set(index.max_similarity("team-a")) == {a[1].id, a[2].id}
    assert index.max_similarity("nobody") == {}


def test_memory_stats_shows_each_scope_against_the_capacity(store_named: Named) -> None:
    path = store_named("m")
    with open_store(path, capacity=CAPACITY) as store:
        for i in range(7):
            store.add(make(i, "team-a"))
        store.add(make(0, "team-b"))
    runner = CliRunner()
    table = runner.invoke(app, ["memory", "stats", str(path)], env={"COLUMNS": "200"})
    assert table.exit_code == 0, table.output
    assert f"team-a: {CAPACITY} / {CAPACITY}, team-b: 1 / {CAPACITY}" in table.output
    assert f"{CAPACITY + 1} (capacity {CAPACITY} per scope)" in table.output
    as_json = json.loads(runner.invoke(app, ["memory", "stats", str(path), "--json"]).output)
    assert as_json["capacity"] == CAPACITY and as_json["by_scope"] == {"team-a": CAPACITY, "team-b": 1}
    scoped = runner.invoke(app, ["memory", "stats", str(path), "--scope", "team-b"], env={"COLUMNS": "200"})
    assert f"1 / capacity {CAPACITY}" in scoped.output and f"team-b: 1 / {CAPACITY}" in scoped.output
