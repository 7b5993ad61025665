import hashlib
import json
import os
import signal
import sqlite3
import stat
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from countermem.core import Action, CheckResult, StoreError
from countermem.memory import (
    EvictionEvent,
    Record,
    RecordSource,
    SQLiteStore,
    Store,
    Victim,
    file_sha256,
    is_postgres_url,
    open_store,
)
from countermem.memory._pgstore import split_url

FACTORY = """
from countermem.core import Action, CheckResult
from countermem.memory import Record, RecordSource


def make(i, domain="sql", benchmark="spider", gain=0.5):
    return Record(
        domain=domain,
        benchmark=benchmark,
        situation=f"task {i}: words{i} more{i % 7} shared text",
        original_action=Action(content=f"SELECT {i}"),
        improved_action=Action(content=f"SELECT {i} FROM t"),
        original_check=CheckResult(utility=0.0, passed=False, completed=True, status="wrong"),
        improved_check=CheckResult(utility=gain, passed=gain == 1.0, completed=True, status="wrong"),
        condition="n_vars > 1",
        source=RecordSource(task_id=f"{benchmark}-{i}", benchmark=benchmark),
    )
"""
# The same factory runs here and in the child processes of the crash tests.
StoreAt = Callable[[], str]
"""A new store location (the `store_at` fixture in conftest.py: SQLite, then Postgres)."""
namespace: dict[str, Any] = {}
exec(FACTORY, namespace)
make: Callable[..., Record] = namespace["make"]
assert Action and CheckResult and RecordSource  # imported for the reader; the factory imports its own


def test_add_get_search_and_order(store_at: StoreAt) -> None:
    with open_store(store_at()) as store:
        assert isinstance(store, Store)
        records = [make(0), make(1, benchmark="bird"), make(2, domain="smt", benchmark="smtlib"), make(3)]
        for record in records:
            assert store.add(record) == []
        assert store.get(records[1].id) == records[1]
        assert store.all() == records
        assert store.search(benchmark="spider") == [records[0], records[3]]
        assert store.search(domain="sql") == [records[0], records[1], records[3]]
        assert store.search(domain="sql", benchmark="bird") == [records[1]]
        assert store.search(domain="sql", limit=1) == [records[0]]
        assert store.search(limit=2) == records[:2]
        assert store.search(domain="coq") == []
        assert store.add(records[0]) == [] and len(store) == 4  # the same correction is stored once
        with pytest.raises(StoreError, match="no record"):
            store.get("r-missing")


def test_search_uses_an_index(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    SQLiteStore(path).close()
    conn = sqlite3.connect(path)
    for where in ("domain = 'sql'", "benchmark = 'spider'", "domain = 'sql' AND benchmark = 'x'"):
        plan = " ".join(
            str(row) for row in conn.execute(f"EXPLAIN QUERY PLAN SELECT id FROM records WHERE {where}")
        )
        assert "USING INDEX" in plan or "USING COVERING INDEX" in plan, plan
    conn.close()


def test_reopen_keeps_records_history_and_settings(store_at: StoreAt) -> None:
    path = store_at()
    with open_store(path, capacity=3, retention="recency", seed=9) as store:
        for i in range(4):
            store.add(make(i))
        first = store.all()[0]
        store.update_counters(first.id, retrieved=2, selected=1, succeeded=1)
        store.update_counters(first.id, retrieved=1)
    with open_store(path) as store:
        assert store.capacity == 3 and store.retention.name == "recency"
        assert len(store) == 3
        current = store.get(first.id)
        assert current.version == 3
        assert (current.counters.retrieved, current.counters.selected, current.counters.succeeded) == (
            3,
            1,
            1,
        )
        history = store.history(first.id)
        assert [r.version for r in history] == [1, 2, 3]
        assert history[0].counters.retrieved == 0
        assert [e.reason for e in store.evictions()] == ["least-recent"]
    with open_store(path, read_only=True) as reader, open_store(path, read_only=True) as again:
        assert reader.all() == again.all()


def test_counters_must_stay_consistent(store_at: StoreAt) -> None:
    with open_store(store_at()) as store:
        record = make(0)
        store.add(record)
        with pytest.raises(StoreError, match="cannot exceed selected"):
            store.update_counters(record.id, succeeded=1)
        assert store.get(record.id) == record
        assert store.history(record.id) == [record]


def test_revise_keeps_the_previous_version(store_at: StoreAt) -> None:
    with open_store(store_at()) as store:
        record = make(0)
        store.add(record)
        revised = store.revise(record.id, condition="n_vars > 10")
        assert revised.version == 2 and revised.condition.canonical == "n_vars > 10"
        assert store.history(record.id)[0].condition.canonical == "n_vars > 1"
        with pytest.raises(StoreError, match="cannot revise"):
            store.revise(record.id, condition="whatever looks similar")
        assert store.get(record.id) == revised


def test_the_eviction_log_keeps_each_evicted_version_and_gives_back_the_latest_copy(store_at: StoreAt) -> None:
    with open_store(store_at()) as store:
        record = make(0)
        store.add(record)
        store.update_counters(record.id, retrieved=1)
        counted = store.update_counters(record.id, retrieved=1)
        assert counted.version == 3
        first = store.evict(record.id, "first")
        assert store.add(record) == [] and store.get(record.id) == record
        second = store.evict(record.id, "second")
        assert [(e.reason, e.version) for e in store.evictions()] == [("first", 3), ("second", 1)]
        assert store.evictions() == [first, second]
        assert store.evicted_record(record.id) == record
        with pytest.raises(StoreError, match="never evicted"):
            store.evicted_record(make(1).id)


def test_evictions_are_logged_with_scores(store_at: StoreAt) -> None:
    with open_store(store_at(), capacity=2, retention="utility") as store:
        low = make(0, gain=0.1)
        store.add(low)
        store.add(make(1, gain=0.9))
        events = store.add(make(2, gain=0.8))
        assert len(events) == 1 and isinstance(events[0], EvictionEvent)
        event = events[0]
        assert (event.record_id, event.rule, event.reason) == (low.id, "utility", "lowest-utility")
        assert event.scores["gain"] == pytest.approx(0.1)
        assert store.evictions() == [event]
        assert store.evicted_record(low.id) == low
        assert low.id not in store
        manual = store.evict(make(1, gain=0.9).id, "wrong for lookalike schemas")
        assert manual.rule == "manual" and manual.reason == "wrong for lookalike schemas"
        assert store.stats().evictions_by_reason == {"lowest-utility": 1, "wrong for lookalike schemas": 1}
        with pytest.raises(StoreError, match="say why"):
            store.evict(make(2, gain=0.8).id, " ")
        with pytest.raises(StoreError, match="no record"):
            store.evict("r-gone", "reason")


def test_incoming_record_can_be_the_victim(store_at: StoreAt) -> None:
    with open_store(store_at(), capacity=1, retention="utility") as store:
        strong = make(0, gain=0.9)
        store.add(strong)
        weak = make(1, gain=0.2)
        events = store.add(weak)
        assert [e.record_id for e in events] == [weak.id]
        assert store.all() == [strong]


class _BrokenRule:
    name = "broken"
    needs_redundancy = False

    def choose_victim(self, records: object, rng: object, redundancy: object = None) -> Victim:
        return Victim("r-not-a-candidate", "broken", {})


def test_a_failed_admission_changes_nothing(store_at: StoreAt) -> None:
    path = store_at()
    with open_store(path, capacity=1, retention=_BrokenRule()) as store:
        kept = make(0)
        store.add(kept)
        with pytest.raises(StoreError, match="unknown record"):
            store.add(make(1))
        assert store.all() == [kept]
        assert store.evictions() == []
    with open_store(path, read_only=True, retention="recency") as reopened:
        assert reopened.all() == [kept] and reopened.evictions() == []
    if not is_postgres_url(path):
        conn = sqlite3.connect(path)
        assert conn.execute("SELECT COUNT(*) FROM records").fetchone()[0] == 1
        conn.close()


def test_shrinking_capacity_evicts_down_to_it(store_at: StoreAt) -> None:
    path = store_at()
    with open_store(path, capacity=10) as store:
        for i in range(6):
            store.add(make(i))
    with open_store(path, capacity=3, retention="recency") as store:
        events = store.add(make(6))
        assert len(events) == 4 and len(store) == 3


def test_freeze_writes_a_read_only_snapshot(tmp_path: Path, store_at: StoreAt) -> None:
    with open_store(store_at()) as store:
        for i in range(3):
            store.add(make(i))
        snapshot = store.freeze(tmp_path / "frozen.db")
        with pytest.raises(StoreError, match="already exists"):
            store.freeze(tmp_path / "frozen.db")
        expected = store.all()
    assert snapshot.records == 3
    assert (
        snapshot.sha256
        == hashlib.sha256(snapshot.path.read_bytes()).hexdigest()
        == file_sha256(snapshot.path)
    )
    assert not os.stat(snapshot.path).st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
    with pytest.raises(StoreError, match="frozen snapshot"):
        SQLiteStore(snapshot.path)
    with open_store(snapshot.path, read_only=True) as frozen:
        assert frozen.frozen
        assert frozen.all() == expected
        assert frozen.stats().frozen
        with pytest.raises(StoreError, match="frozen"):
            frozen.add(make(9))
        with pytest.raises(StoreError, match="frozen"):
            frozen.update_counters(expected[0].id, retrieved=1)
    assert file_sha256(snapshot.path) == snapshot.sha256  # reading it changed nothing


def test_in_memory_store_can_freeze(tmp_path: Path) -> None:
    with SQLiteStore() as store:
        store.add(make(0))
        snapshot = store.freeze(tmp_path / "f.db")
    with SQLiteStore(snapshot.path, read_only=True) as frozen:
        assert len(frozen) == 1


def test_read_only_store_refuses_writes(store_at: StoreAt) -> None:
    path = store_at()
    with open_store(path) as store:
        store.add(make(0))
        with open_store(path, read_only=True) as reader:
            assert len(reader) == 1
            with pytest.raises(StoreError, match="read-only"):
                reader.add(make(1))


def test_export_jsonl_round_trips(tmp_path: Path, store_at: StoreAt) -> None:
    with open_store(store_at()) as store:
        for i in range(4):
            store.add(make(i))
        store.update_counters(store.all()[0].id, retrieved=1)
        out = tmp_path / "m.jsonl"
        assert store.export_jsonl(out) == 4
        lines = out.read_text().splitlines()
        assert [Record.model_validate_json(line) for line in lines] == store.all()
        assert json.loads(lines[0])["version"] == 2
        with pytest.raises(StoreError, match="does not exist"):
            store.export_jsonl(tmp_path / "missing" / "m.jsonl")


def test_stats(store_at: StoreAt) -> None:
    with open_store(store_at(), capacity=50) as store:
        assert store.stats().mean_gain is None
        store.add(make(0, gain=0.2))
        store.add(make(1, gain=0.6, benchmark="bird"))
        store.add(make(2, gain=1.0, domain="smt", benchmark="smtlib"))
        store.update_counters(make(0, gain=0.2).id, retrieved=3, selected=2, succeeded=1, harmed=1)
        stats = store.stats()
    assert stats.count == 3 and stats.capacity == 50 and stats.retention == "utility"
    assert stats.by_domain == {"smt": 1, "sql": 2}
    assert stats.by_benchmark == {"bird": 1, "smtlib": 1, "spider": 1}
    assert stats.mean_gain == pytest.approx(0.6)
    assert (stats.reuse.retrieved, stats.reuse.selected, stats.reuse.succeeded, stats.reuse.harmed) == (
        3,
        2,
        1,
        1,
    )
    assert stats.universal_conditions == 0 and stats.evictions_by_reason == {}


def test_writers_and_readers_open_one_store_at_once(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with SQLiteStore(path) as first:
        first.add(make(0))
        with SQLiteStore(path) as second, SQLiteStore(path, read_only=True) as reader:
            second.add(make(1))
            assert len(first) == len(second) == 2 and len(reader) == 1  # a reader keeps its snapshot
    SQLiteStore(path).close()


def test_bad_files_and_paths_raise_store_error(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError):
        SQLiteStore(junk)
    with pytest.raises(StoreError):
        SQLiteStore(junk, read_only=True)
    with pytest.raises(StoreError, match="no memory store"):
        SQLiteStore(tmp_path / "absent.db", read_only=True)
    with pytest.raises(StoreError, match="does not exist"):
        SQLiteStore(tmp_path / "no" / "m.db")
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(StoreError, match="not a memory store"):
        SQLiteStore(other, read_only=True)
    with pytest.raises(StoreError, match="at least 1"):
        SQLiteStore(capacity=0)


def test_random_rule_is_reproducible_across_reopen(store_at: StoreAt) -> None:
    def run(path: str, reopen_every: int) -> list[str]:
        victims: list[str] = []
        store = open_store(path, capacity=3, retention="random", seed=11)
        for i in range(12):
            if i and i % reopen_every == 0:
                store.close()
                store = open_store(path)
            victims += [e.record_id for e in store.add(make(i))]
        store.close()
        return victims

    once = run(store_at(), 100)
    reopened = run(store_at(), 4)
    assert once == reopened and len(once) == 9


def _child(path: Path, body: str) -> subprocess.Popen[str]:
    script = FACTORY + textwrap.dedent(body)
    return subprocess.Popen(
        [sys.executable, "-c", script, str(path)], stdout=subprocess.PIPE, text=True, env={**os.environ}
    )


def test_sigkill_mid_run_loses_no_admitted_record(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    child = _child(
        path,
        """
        import sys
        from countermem.memory import SQLiteStore
        store = SQLiteStore(sys.argv[1], capacity=10_000)
        for i in range(1_000_000):
            record = make(i)
            store.add(record)
            print(record.id, flush=True)
        """,
    )
    assert child.stdout is not None
    admitted = [child.stdout.readline().strip() for _ in range(40)]
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=10)
    assert child.returncode == -signal.SIGKILL
    with SQLiteStore(path) as store:
        assert set(admitted) <= {r.id for r in store.all()}
        assert len(store) >= 40
        store.add(make(10_000_000))
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


def test_exit_without_close_loses_no_admitted_record(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    child = _child(
        path,
        """
        import os, sys
        from countermem.memory import SQLiteStore
        store = SQLiteStore(sys.argv[1])
        for i in range(5):
            store.add(make(i))
        store.update_counters(make(0).id, retrieved=1)
        os._exit(3)
        """,
    )
    assert child.wait(timeout=300) == 3
    with SQLiteStore(path, read_only=True) as store:
        assert len(store) == 5
        assert store.get(make(0).id).version == 2


# --- no store can be destroyed or poisoned (issue 19, item 5) ---------------------------------


def test_export_jsonl_never_writes_over_a_file_or_the_store_itself(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    existing = tmp_path / "notes.txt"
    existing.write_text("keep me")
    with SQLiteStore(path) as store:
        store.add(make(0))
        with pytest.raises(StoreError, match="already exists"):
            store.export_jsonl(existing)
        assert existing.read_text() == "keep me"
        for own in (path, Path(f"{path}.lock")):
            with pytest.raises(StoreError, match="over itself"):
                store.export_jsonl(own, overwrite=True)
        assert store.export_jsonl(existing, overwrite=True) == 1
        assert Record.model_validate_json(existing.read_text().splitlines()[0]).id == make(0).id
    with SQLiteStore(path, read_only=True) as reopened:
        assert len(reopened) == 1
    assert sorted(p.name for p in tmp_path.iterdir() if ".partial" in p.name) == []


def _poison(path: str, record_id: str, condition: str) -> None:
    if is_postgres_url(path):
        import psycopg

        conninfo, schema = split_url(path)
        with psycopg.connect(conninfo, autocommit=True) as pg:
            pg.execute(
                f"UPDATE {schema}.records SET body = jsonb_set(body, '{{condition}}', %s::jsonb) WHERE id = %s",
                (json.dumps({"source": condition, "canonical": condition}), record_id),
            )
        return
    conn = sqlite3.connect(path)
    body = json.loads(conn.execute("SELECT body FROM records WHERE id = ?", (record_id,)).fetchone()[0])
    body["condition"] = {"source": condition, "canonical": condition}
    conn.execute("UPDATE records SET body = ? WHERE id = ?", (json.dumps(body), record_id))
    conn.commit()
    conn.close()


def test_a_record_that_no_longer_parses_is_quarantined_and_the_rest_stay_usable(store_at: StoreAt) -> None:
    path = store_at()
    records = [make(i) for i in range(4)]
    with open_store(path) as store:
        for record in records:
            store.add(record)
    deep = "(" * 300 + "n_vars > 1" + ")" * 300
    _poison(path, records[1].id, deep)
    _poison(path, records[2].id, "n_vars >>> 1")
    for read_only in (True, False):
        with open_store(path, read_only=read_only) as store:
            assert [r.id for r in store.all()] == [records[0].id, records[3].id]
            assert store.search(domain="sql") == [records[0], records[3]]
            assert set(store.quarantined) == {records[1].id, records[2].id}
            assert "nested too deeply" in store.quarantined[records[1].id]
            assert store.stats().quarantined.keys() == {records[1].id, records[2].id}
            assert store.stats().count == 2
            if not read_only:
                store.add(make(9))
                with pytest.raises(StoreError, match="quarantined"):
                    store.add(records[1])
    with open_store(path, read_only=True) as reader:
        assert len(reader.dump_rows().records) == 5  # the bad rows are kept as they were


def _journal_mode(path: Path) -> str:
    conn = sqlite3.connect(path)
    mode = str(conn.execute("PRAGMA journal_mode").fetchone()[0])
    conn.close()
    return mode


def test_a_foreign_sqlite_database_is_refused_and_left_byte_for_byte(tmp_path: Path) -> None:
    other = tmp_path / "app.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
    conn.execute("INSERT INTO users (name) VALUES ('ada')")
    conn.commit()
    conn.close()
    before = other.read_bytes()
    assert _journal_mode(other) == "delete"
    for read_only in (False, True):
        with pytest.raises(StoreError, match=r"not a memory store.*users.*not changed"):
            SQLiteStore(other, read_only=read_only)
    assert other.read_bytes() == before
    assert _journal_mode(other) == "delete"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["app.db"]


def test_a_refused_open_leaves_no_file_behind(tmp_path: Path) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite" * 100)
    frozen = tmp_path / "frozen.db"
    with SQLiteStore(tmp_path / "src.db") as store:
        store.freeze(frozen)
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(StoreError, match="folder"):
        SQLiteStore(folder)
    with pytest.raises(StoreError):
        SQLiteStore(junk)
    with pytest.raises(StoreError, match="frozen"):
        SQLiteStore(frozen)
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert not any(folder.iterdir())


def test_a_store_object_can_be_used_from_other_threads(store_at: StoreAt) -> None:
    import threading

    path = store_at()
    errors: list[BaseException] = []
    with open_store(path) as store:
        first = make(0)
        store.add(first)

        def work(n: int) -> None:
            try:
                store.add(make(100 + n))
                for _ in range(5):
                    store.update_counters(first.id, retrieved=1)
                store.stats()
            except BaseException as error:  # collected for the assertion below
                errors.append(error)

        threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)  # hang guard only
        assert not any(thread.is_alive() for thread in threads)
        assert errors == []
        assert len(store) == 9 and store.get(first.id).counters.retrieved == 40
    with open_store(path, read_only=True) as reopened:
        assert reopened.get(first.id).counters.retrieved == 40 and len(reopened) == 9
