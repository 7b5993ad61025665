"""Many processes writing one store at once (issue 20, items 2 and 3), on SQLite and on Postgres.

Eight spawned processes admit overlapping records into one store of capacity 200 and bump reuse
counters of whatever is live, all at once. Nothing is timed; every join has a hang guard.
"""

from __future__ import annotations

import json
import multiprocessing
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from countermem.core import Action, CheckResult, StoreError
from countermem.memory import Record, RecordSource, SQLiteStore, is_postgres_url, open_store

WRITERS = 8
OFFERS = 40
STRIDE = 35  # writer w offers records w*35 .. w*35+39: five overlap with the next writer
REPEATS = 3  # and re-offers its own first three records
CAPACITY = 200
GUARD_S = 300  # hang guard only, never a timing assertion


def make(i: int, gain: float | None = None) -> Record:
    utility = gain if gain is not None else 0.1 + (i % 9) / 10
    return Record(
        domain="sql",
        benchmark="spider",
        situation=f"task {i}: words{i} more{i % 7} shared text",
        original_action=Action(content=f"SELECT {i}"),
        improved_action=Action(content=f"SELECT {i} FROM t"),
        original_check=CheckResult(utility=0.0, passed=False, completed=True, status="wrong"),
        improved_check=CheckResult(utility=utility, passed=False, completed=True, status="wrong"),
        condition="n_vars > 1",
        source=RecordSource(task_id=f"spider-{i}", benchmark="spider"),
    )


def _writer(path: str, writer: int, out: str) -> None:
    rng = random.Random(writer)
    mine = list(range(writer * STRIDE, writer * STRIDE + OFFERS))
    offers = mine + mine[:REPEATS]
    counted = 0
    missed = 0
    errors: list[str] = []
    with open_store(path) as store:
        for i in offers:
            try:
                store.add(make(i))
            except StoreError as error:
                errors.append(f"add {i}: {error}")
            for _ in range(2):
                live = store.all()
                if not live:
                    continue
                target = rng.choice(live)
                try:
                    store.update_counters(target.id, retrieved=1, selected=1)
                    counted += 1
                except StoreError as error:
                    if "no record" not in str(error):  # evicted by another writer meanwhile
                        errors.append(f"count {target.id}: {error}")
                    missed += 1
    Path(out).write_text(
        json.dumps({"offered": [make(i).id for i in offers], "counted": counted, "missed": missed, "errors": errors})
    )


def test_eight_writer_processes_keep_capacity_log_every_eviction_and_lose_no_count(
    tmp_path: Path, store_at: Callable[[], str]
) -> None:
    path = store_at()
    open_store(path, capacity=CAPACITY).close()
    context = multiprocessing.get_context("spawn")
    outs = [tmp_path / f"writer-{n}.json" for n in range(WRITERS)]
    processes = [
        context.Process(target=_writer, args=(str(path), n, str(outs[n]))) for n in range(WRITERS)
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(GUARD_S)
    hung = [p.pid for p in processes if p.is_alive()]
    for process in processes:
        if process.is_alive():
            process.kill()
            process.join(10)
    assert hung == [], f"writers {hung} did not finish within the hang guard"
    assert [p.exitcode for p in processes] == [0] * WRITERS
    reports = [json.loads(out.read_text()) for out in outs]
    assert [r["errors"] for r in reports] == [[]] * WRITERS
    offered = {record_id for r in reports for record_id in r["offered"]}
    assert len(offered) == (WRITERS - 1) * STRIDE + OFFERS > CAPACITY

    with open_store(path, read_only=True) as store:
        live = store.all()
        evictions = store.evictions()
        rows = store.dump_rows()
        assert store.quarantined == {}
    assert len(live) <= CAPACITY
    assert len(live) == CAPACITY  # more than capacity was offered, so the store ends full
    live_ids = {r.id for r in live}
    assert len(live_ids) == len(live)
    evicted_ids = {e.record_id for e in evictions}
    assert live_ids | evicted_ids == offered  # every admitted record is live or in the eviction log
    assert len(rows.records) == len(live)
    bodies = [Record.model_validate_json(e.body) for e in rows.evictions]
    assert [b.id for b in bodies] == [e.record_id for e in evictions]
    assert [b.version for b in bodies] == [e.version for e in evictions]  # the logged body is the deleted row

    if not is_postgres_url(path):
        conn = sqlite3.connect(path)
        try:
            inserted = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'records'").fetchone()[0]
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        finally:
            conn.close()
        assert inserted == len(live) + len(evictions)  # every insert is live or logged as evicted

    counted = sum(r["counted"] for r in reports)
    stored = sum(r.counters.retrieved for r in live) + sum(r.counters.retrieved for r in bodies)
    selected = sum(r.counters.selected for r in live) + sum(r.counters.selected for r in bodies)
    assert counted > 0
    assert stored == selected == counted  # no increment lost or counted twice


def test_the_same_record_twice_is_stored_once(store_at: Callable[[], str]) -> None:
    with open_store(store_at()) as store:
        record = make(0)
        assert store.add(record) == []
        store.update_counters(record.id, retrieved=2)
        assert store.add(record) == []
        assert store.add(make(0)) == []
        assert len(store) == 1 and store.get(record.id).counters.retrieved == 2
        assert store.get(record.id).version == 2


def test_two_writers_see_each_others_changes(store_at: Callable[[], str]) -> None:
    path = store_at()
    with open_store(path, capacity=3) as first, open_store(path) as second:
        assert second.capacity == 3
        first.add(make(0, gain=0.9))
        assert [r.id for r in second.all()] == [make(0).id]
        second.update_counters(make(0).id, selected=1)
        first.update_counters(make(0).id, selected=1, succeeded=1)
        assert second.get(make(0).id).counters.selected == 2
        for i in range(1, 5):
            (first if i % 2 else second).add(make(i, gain=0.1 * i))
        assert len(first) == len(second) == 3
        assert {r.id for r in first.all()} == {r.id for r in second.all()}
        assert len(first.evictions()) == 2
        assert [r.version for r in first.history(make(0).id)] == [1, 2, 3]


def test_a_revision_against_a_stale_version_fails_clearly(store_at: Callable[[], str]) -> None:
    path = store_at()
    with open_store(path) as first, open_store(path) as second:
        first.add(make(0))
        seen = second.get(make(0).id)
        first.update_counters(seen.id, retrieved=1)
        with pytest.raises(StoreError, match=r"version 1 but is now at version 2"):
            second.revise(seen.id, expected_version=seen.version, rationale="stale")
        revised = second.revise(seen.id, expected_version=2, rationale="fresh")
        assert revised.version == 3 and revised.counters.retrieved == 1
        assert first.get(seen.id).rationale == "fresh"


def test_changing_capacity_while_another_writer_is_open_is_refused(store_at: Callable[[], str]) -> None:
    path = store_at()
    with open_store(path, capacity=5):
        with pytest.raises(StoreError, match="capacity 5"):
            open_store(path, capacity=9)
        open_store(path, capacity=5).close()
    open_store(path, capacity=9).close()
    with open_store(path) as store:
        assert store.capacity == 9


def test_a_writer_of_an_older_countermem_holding_the_store_alone_is_reported(tmp_path: Path) -> None:
    import fcntl

    path = tmp_path / "m.db"
    SQLiteStore(path).close()
    with open(f"{path}.lock", "wb") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)  # what countermem <= 0.x held
        with pytest.raises(StoreError, match="alone"):
            SQLiteStore(path)
        SQLiteStore(path, read_only=True).close()


def test_a_writer_waits_for_the_lock_and_past_busy_timeout_says_so(tmp_path: Path) -> None:
    import threading

    path = tmp_path / "m.db"
    SQLiteStore(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process in the middle of a write
    try:
        with SQLiteStore(path, busy_timeout=0.2) as impatient:
            with pytest.raises(StoreError, match=r"longer than 0.2 s.*busy_timeout"):
                impatient.add(make(0))
            assert len(impatient) == 0
        patient = SQLiteStore(path)
        done = threading.Event()
        errors: list[BaseException] = []

        def admit() -> None:
            try:
                patient.add(make(1))
            except BaseException as error:  # collected for the assertion below
                errors.append(error)
            done.set()

        waiter = threading.Thread(target=admit)
        waiter.start()
        assert not done.wait(0.5)  # still waiting for the lock, not failed
    finally:
        holder.execute("COMMIT")
        holder.close()
    waiter.join(GUARD_S)
    assert not waiter.is_alive() and errors == []
    assert [r.id for r in patient.all()] == [make(1).id]
    patient.close()
