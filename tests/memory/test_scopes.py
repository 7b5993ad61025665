"""Scopes: a record of scope A never reaches a reader of scope B, through any path of the library.

Paths covered here: advise (the advice text and record id), retrieval (candidates, pool and
eligibility counts), the selector's observation (the DQN's features), export, stats, get,
history and the eviction log; the run report and the `memory` commands are in
tests/experiment/test_scoped_stage.py and tests/cli/test_memory_cli_scopes.py.
"""

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic import ValidationError

from counter_world import CounterWorld
from countermem.core import Action, ConfigError, Decision, Facts, StoreError, Task
from countermem.llm import ScriptedLLM
from countermem.memory import (
    DEFAULT_SCOPE,
    CounterfactualMemory,
    GeneratorSettings,
    Record,
    RetrievalQuery,
    Retriever,
    ScopeAccess,
    SQLiteStore,
    learn,
    make_embedder,
    open_memory,
    open_store,
    validate_scope,
)
from countermem.selector import SKIP, Observation
from sql_records import sql_record

Named = Callable[[str], str]
"""`store_named`: a store location per name, on SQLite and on Postgres (tests/postgres_fixtures.py)."""
FACTS = Facts(values={"tables": ("users",)})
SECRET = "SECRET-OF-TEAM-A"


def make(i: int, scope: str = DEFAULT_SCOPE, *, text: str = "", condition: str = '"users" in tables') -> Record:
    return sql_record(
        f"Question {i}: how many users? {text}",
        f"SELECT count(*) FROM user{i} {text}",
        f"SELECT count(*) FROM users{i} {text}",
        task_id=f"spider-{i}",
        condition=condition,
        scope=scope,
        rationale=f"plural {text}",
    )


def decision(i: int = 99) -> Decision:
    task = Task(id=f"spider-{i}", benchmark="spider", domain="sql", prompt="how many users?")
    return Decision(task=task, situation=f"Question {i}: how many users? {SECRET}", facts=FACTS)


class Recording:
    """A selector that records every observation it is shown and takes the first candidate."""

    def __init__(self) -> None:
        self.seen: list[Observation] = []

    def choose(self, observation: Observation) -> int:
        self.seen.append(observation)
        return 0 if observation.candidates else SKIP


def test_scope_names_are_validated_with_a_clear_message() -> None:
    assert validate_scope("team-a.x_1") == "team-a.x_1"
    for bad in ("", "Team A", "../etc", "a" * 65, "-lead", "tëam", 3):
        with pytest.raises(ConfigError, match="not a valid scope name"):
            validate_scope(bad)
    with pytest.raises(ValidationError, match="not a valid scope name"):
        make(0, "Team A")
    with pytest.raises(ConfigError, match="collection of names"):
        ScopeAccess(own="a", shared="bc")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="readable scope"):
        ScopeAccess.of("a", ["ok", "NOT OK"])


def test_the_same_correction_in_two_scopes_is_two_records_and_default_ids_are_unchanged() -> None:
    default, a, b = make(1), make(1, "team-a"), make(1, "team-b")
    assert len({default.id, a.id, b.id}) == 3
    body = json.loads(default.model_dump_json())
    del body["scope"], body["merged_from"], body["id"]
    assert Record.model_validate(body).id == default.id  # an old body (no scope) keeps its id


def test_a_store_written_before_scopes_opens_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with SQLiteStore(path) as store:
        store.add(make(1))
    old_body = json.loads(make(1).model_dump_json())
    del old_body["scope"], old_body["merged_from"]
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE records SET body = ?", (json.dumps(old_body),))
    with SQLiteStore(path, read_only=True, access=ScopeAccess()) as reopened:
        assert [r.scope for r in reopened.all()] == [DEFAULT_SCOPE]
        assert reopened.quarantined == {}
    memory = open_memory(path, action_language="sql", embedder="lexical", read_only=True)
    advice = memory.advise(decision())
    assert advice is not None and advice.record_id == make(1).id


def _mixed_store(location: str) -> tuple[list[Record], list[Record]]:
    a_records = [make(i, "team-a", text=SECRET) for i in range(4)]
    b_records = [make(i, "team-b") for i in range(10, 12)]
    with open_store(location) as store:
        for record in [*a_records, *b_records]:
            store.add(record)
        store.update_counters(a_records[0].id, retrieved=5, selected=5, harmed=2)  # below retirement by use
        store.evict(a_records[1].id, f"stale {SECRET}")
    return a_records, b_records


def test_a_scope_b_reader_never_sees_scope_a_through_the_store(tmp_path: Path, store_named: Named) -> None:
    a_records, b_records = _mixed_store(store_named("m"))
    a_ids = {r.id for r in a_records}
    with open_store(store_named("m"), read_only=True, access=ScopeAccess.of("team-b")) as store:
        assert {r.id for r in store.all()} == {r.id for r in b_records}
        assert len(store) == 2 and store.search(domain="sql") == store.all()
        for record_id in a_ids:
            assert record_id not in store
            with pytest.raises(StoreError, match="readable in scope team-b"):
                store.get(record_id)
            with pytest.raises(StoreError):
                store.history(record_id)
            with pytest.raises(StoreError):
                store.evicted_record(record_id)
        assert store.evictions() == []
        stats = store.stats()
        assert stats.count == 2 and stats.by_scope == {"team-b": 2} and stats.evictions_by_reason == {}
        assert stats.reuse.harmed == 0
        out = tmp_path / "b.jsonl"
        assert store.export_jsonl(out) == 2
        assert SECRET not in out.read_text() and not any(i in out.read_text() for i in a_ids)
        with pytest.raises(StoreError, match="every scope"):
            store.freeze(tmp_path / "frozen.db")
    with open_store(store_named("m"), read_only=True) as owner:
        assert len(owner) == 5 and owner.stats().by_scope == {"team-a": 3, "team-b": 2}


def test_a_scope_b_reader_never_gets_scope_a_advice_retrieval_or_features(store_named: Named) -> None:
    """The observation a B reader's selector sees over the mixed store equals the one over a store
    holding only B's records: A's records change no candidate, count or feature (on Postgres the
    ranking runs on the server, `ServerRetriever`)."""
    _a_records, b_records = _mixed_store(store_named("mixed"))
    with open_store(store_named("only-b")) as store:
        for record in b_records:
            store.add(record)
    seen: dict[str, list[Observation]] = {}
    for name in ("mixed", "only-b"):
        selector = Recording()
        memory = open_memory(
            store_named(name), action_language="sql", embedder="lexical", read_only=True,
            scope="team-b", selector=selector,
        )
        for i in range(3):
            advice = memory.advise(decision(i))
            assert advice is not None and advice.record_id in {r.id for r in b_records}
            assert SECRET not in advice.text
        result = memory.retriever.retrieve(
            RetrievalQuery.for_decision(situation=SECRET, facts=FACTS, domain="sql", benchmark="spider")
        )
        assert {c.record.scope for c in result.candidates} == {"team-b"}
        assert result.n_pool == 2 and result.n_eligible == 2
        seen[name] = selector.seen
    assert seen["mixed"] == seen["only-b"] and len(seen["mixed"]) == 3


def test_shared_scopes_are_read_but_never_written(store_named: Named) -> None:
    _a_records, _b_records = _mixed_store(store_named("m"))
    memory = open_memory(
        store_named("m"), action_language="sql", embedder="lexical", scope="team-b", read_scopes=["team-a"]
    )
    assert memory.store is not None
    assert {r.scope for r in memory.store.all()} == {"team-a", "team-b"}
    advice = memory.advise(decision())
    assert advice is not None
    with pytest.raises(StoreError, match="scope 'team-a'"):
        memory.store.add(make(50, "team-a"))
    memory.store.add(make(50, "team-b"))
    with open_store(store_named("m"), read_only=True, access=ScopeAccess.of("team-a")) as a_view:
        assert make(50, "team-b").id not in a_view


def test_retrieval_filters_records_given_as_a_list(tmp_path: Path) -> None:
    records = [make(1, "team-a", text=SECRET), make(2, "team-b")]
    retriever = Retriever(records, make_embedder("lexical"), access=ScopeAccess.of("team-b"))
    assert len(retriever) == 1
    retriever.refresh(records)
    assert len(retriever) == 1


def _toy_task(i: int) -> Task:
    return Task(id=f"t-{i}", benchmark="toy", domain="toy", prompt=f"reach 3 (task {i})", gold="3")


def _learn_once(memory: CounterfactualMemory, i: int):  # type: ignore[no-untyped-def]
    world, failed_world = CounterWorld(), CounterWorld()
    state = world.reset(_toy_task(i))
    failed_world.reset(_toy_task(i))
    failed_action = Action(content="add 2")
    reply = "### Alternative 1\nRationale: starts at zero\nCondition: none\n```text\nadd 3\n```\n"
    return learn(
        memory, ScriptedLLM(lambda messages: reply), task=_toy_task(i), world_model=world, state=state,
        failed_action=failed_action, failed_result=failed_world.check(failed_action), facts=Facts(values={}),
        situation=f"situation of task {i}", generator=GeneratorSettings.batch(),
    )


def test_learn_writes_into_the_readers_own_scope(tmp_path: Path, store_named: Named) -> None:
    memory = open_memory(store_named("m"), action_language="text", embedder="lexical", scope="team-a")
    report = _learn_once(memory, 0)
    assert report.admitted and report.record is not None and report.record.scope == "team-a"
    other = open_memory(store_named("m"), action_language="text", embedder="lexical", scope="team-b")
    assert other.store is not memory.store
    toy = Decision(task=_toy_task(5), situation="situation of task 5", facts=Facts(values={}))
    assert other.advise(toy) is None
    assert memory.advise(toy) is not None
    with pytest.raises(ConfigError, match="not a valid scope name"):
        open_memory(tmp_path / "n.db", action_language="text", embedder="lexical", scope="Team A")
    assert not (tmp_path / "n.db").exists()
