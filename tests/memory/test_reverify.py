"""Re-verification retires records whose gain no longer holds; retired records are kept and never offered."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from countermem.core import Action, CheckResult, ConfigError, Decision, Facts, StoreError, Task, Usage
from countermem.domains import State, load_benchmark
from countermem.memory import (
    Admitter,
    Alternative,
    AnyStore,
    LexicalEmbedder,
    Proposal,
    Record,
    RecordSource,
    RegistryWorlds,
    Resolved,
    RetireByUse,
    Retriever,
    ReverifyLine,
    ReverifyUnavailable,
    SQLiteStore,
    open_memory,
    open_store,
    progress_path,
    reverify,
)
from countermem.memory._retrieval import RetrievalQuery


def _result(utility: float, status: str = "") -> CheckResult:
    return CheckResult(
        utility=utility, passed=utility == 1.0, completed=status != "timeout",
        status=status or ("passed" if utility == 1.0 else "wrong"),
    )


def make(i: int, *, benchmark: str = "fake", gain: float = 1.0, domain: str = "sql") -> Record:
    return Record(
        domain=domain,
        benchmark=benchmark,
        situation=f"task {i}: count the customers of shop {i}",
        original_action=Action(content=f"bad {i}"),
        improved_action=Action(content=f"good {i}"),
        original_check=_result(0.0),
        improved_check=_result(gain),
        source=RecordSource(task_id=f"t{i}", benchmark=benchmark),
    )


class FakeWorld:
    """Utilities by action text; `calls` counts checks, `resets` the reset states they start from."""

    def __init__(self, utilities: dict[str, float], statuses: dict[str, str] | None = None) -> None:
        self.utilities = utilities
        self.statuses = statuses or {}
        self.calls: list[str] = []
        self.resets = 0
        self.dirty = False

    def reset(self, task: Task) -> State:
        self.resets += 1
        self.dirty = False
        return State(task_id=task.id, payload=None)

    def snapshot(self) -> State:
        return State(task_id="x", payload=self.dirty)

    def restore(self, state: State) -> None:
        self.dirty = bool(state.payload)

    def check(self, action: Action) -> CheckResult:
        assert not self.dirty, "every action is checked from the reset state"
        self.calls.append(action.content)
        self.dirty = True
        return _result(self.utilities.get(action.content, 0.0), self.statuses.get(action.content, ""))


@dataclass
class FakeWorlds:
    world: FakeWorld
    unknown: set[str] = field(default_factory=set)

    def resolve(self, record: Record) -> Resolved:
        if record.source.task_id in self.unknown:
            raise ReverifyUnavailable(f"task missing: {record.source.task_id} is gone")
        task = Task(id=record.source.task_id, benchmark=record.benchmark, domain=record.domain, prompt="p")
        return Resolved(task=task, world_model=self.world)


def _store(tmp_path: Path, records: list[Record], **options: object) -> SQLiteStore:
    store = SQLiteStore(tmp_path / "m.db", **options)  # type: ignore[arg-type]
    for record in records:
        store.add(record)
    return store


Named = Callable[[str], str]
"""`store_named`: a store location per name, on SQLite and on Postgres (tests/postgres_fixtures.py)."""


def _store_at(location: str, records: list[Record], **options: object) -> AnyStore:
    store = open_store(location, **options)
    for record in records:
        store.add(record)
    return store


def test_a_record_whose_check_changed_is_retired_with_the_reason_and_kept(tmp_path: Path) -> None:
    records = [make(i) for i in range(3)]
    world = FakeWorld({"good 0": 1.0, "good 1": 0.0, "good 2": 1.0, "bad 2": 0.97})
    with _store(tmp_path, records) as store:
        lines: list[ReverifyLine] = []
        summary = reverify(store, FakeWorlds(world), on_line=lines.append)
        assert [line.verdict for line in lines] == ["holds", "retired", "retired"]
        assert (summary.run.checked, summary.run.holds, summary.run.retired) == (3, 1, 2)
        assert lines[1].new_gain == 0.0 and lines[1].old_gain == 1.0
        assert "improved action passed 1.00 -> wrong 0.00" in lines[1].reason
        assert "original action wrong 0.00 -> wrong 0.97" in lines[2].reason  # 0.03 is not above 0.05
        assert [r.id for r in store.all()] == [records[0].id]
        retired = store.retired()
        assert [r.id for r in retired] == [records[1].id, records[2].id]
        assert retired[0].status == "retired" and retired[0].retired_at is not None
        assert retired[0].retired_reason == lines[1].reason
        history = store.history(records[1].id)
        assert [(r.version, r.status) for r in history] == [(1, "live"), (2, "retired")]
        assert store.stats().count == 1 and store.stats().retired == 2
    with SQLiteStore(tmp_path / "m.db", read_only=True) as reopened:
        assert [r.id for r in reopened.retired()] == [records[1].id, records[2].id]
        assert len(reopened) == 1
    assert world.resets == 3 and len(world.calls) == 6


def test_unchecked_records_stay_live_with_the_reason(tmp_path: Path) -> None:
    redacted = make(3).revised(improved_action=Action(content="SELECT '<SECRET:password>'"))
    records = [make(0), make(1), make(2), redacted]
    world = FakeWorld({"good 0": 1.0, "good 1": 1.0}, statuses={"good 1": "timeout", "bad 0": "timeout"})
    with _store(tmp_path, records) as store:
        lines: list[ReverifyLine] = []
        summary = reverify(store, FakeWorlds(world, unknown={"t2"}), on_line=lines.append)
        # as in admission, the original's check need not complete (record 0); the improved one's must
        assert [line.verdict for line in lines] == ["holds", "unchecked", "unchecked", "unchecked"]
        assert lines[1].reason.startswith("check incomplete: the improved action's check")
        assert lines[2].reason.startswith("task missing")
        assert lines[3].reason.startswith("actions redacted")
        assert summary.run.unchecked_reasons == {"actions redacted": 1, "check incomplete": 1, "task missing": 1}
        assert len(store.all()) == 4 and store.retired() == []
        assert summary.remaining == 3  # unchecked records are retried when the pass is resumed


def test_a_malformed_original_keeps_its_verdict(tmp_path: Path) -> None:
    malformed = CheckResult(utility=0.0, passed=False, completed=True, status="malformed", details="no Action line")
    record = make(0).revised(original_check=malformed)
    world = FakeWorld({"good 0": 1.0, "bad 0": 1.0})
    with _store(tmp_path, [record]) as store:
        summary = reverify(store, FakeWorlds(world))
    assert summary.run.holds == 1
    assert world.calls == ["good 0"]


def test_resume_after_an_interruption_skips_the_records_done(tmp_path: Path) -> None:
    records = [make(i) for i in range(5)]
    world = FakeWorld({f"good {i}": 1.0 for i in range(5)} | {"good 1": 0.0})

    def stop_after_two(line: ReverifyLine) -> None:
        if line.record_id == records[1].id:
            raise KeyboardInterrupt

    with _store(tmp_path, records) as store:
        with pytest.raises(KeyboardInterrupt):
            reverify(store, FakeWorlds(world), on_line=stop_after_two)
        assert world.calls == ["bad 0", "good 0", "bad 1", "good 1"]
        progress = progress_path(store)
        assert progress == tmp_path / "m.db.reverify.jsonl"
        kinds = [json.loads(line)["kind"] for line in progress.read_text().splitlines()]
        assert kinds == ["pass", "record", "record"]
        world.calls.clear()
        summary = reverify(store, FakeWorlds(world), limit=2)
        assert world.calls == ["bad 2", "good 2", "bad 3", "good 3"]
        assert (summary.resumed, summary.run.checked, summary.remaining) == (1, 2, 1)  # record 1 is retired
        assert summary.retired_before == 1
        world.calls.clear()
        summary = reverify(store, FakeWorlds(world))
        assert world.calls == ["bad 4", "good 4"]
        assert (summary.total.checked, summary.total.holds, summary.total.retired, summary.remaining) == (5, 4, 1, 0)
        world.calls.clear()
        assert reverify(store, FakeWorlds(world)).run.checked == 0 and world.calls == []
        again = reverify(store, FakeWorlds(world), restart=True)
        assert again.run.checked == 4  # a new pass: the live records only, the retired one is not revived


def test_a_partial_last_line_is_dropped_and_a_changed_threshold_is_refused(tmp_path: Path) -> None:
    records = [make(i) for i in range(2)]
    world = FakeWorld({"good 0": 1.0, "good 1": 1.0})
    with _store(tmp_path, records) as store:
        reverify(store, FakeWorlds(world), limit=1)
        progress = progress_path(store)
        with progress.open("a") as handle:
            handle.write('{"kind": "record", "record_id": "r-cut')
        summary = reverify(store, FakeWorlds(world))
        assert summary.run.checked == 1 and summary.total.checked == 2
        assert progress.read_text().endswith("\n")
        with pytest.raises(ConfigError, match=r"min_gain 0\.05, not 0\.2"):
            reverify(store, FakeWorlds(world), min_gain=0.2)
        progress.write_text("not a progress file\n")
        with pytest.raises(ConfigError, match="not a reverify progress file"):
            reverify(store, FakeWorlds(world))


def test_benchmark_filter_and_read_only_stores(tmp_path: Path) -> None:
    records = [make(0), make(1, benchmark="other")]
    world = FakeWorld({"good 0": 0.0, "good 1": 0.0})
    with _store(tmp_path, records) as store:
        summary = reverify(store, FakeWorlds(world), benchmarks=["other"])
        assert summary.run.retired == 1 and [r.id for r in store.all()] == [records[0].id]
    with SQLiteStore(tmp_path / "m.db", read_only=True) as reader, pytest.raises(StoreError, match="writable"):
        reverify(reader, FakeWorlds(world))


# --- the real SQL checker ---------------------------------------------------------------------


def _admit_sql(store: SQLiteStore, n: int) -> list[Record]:
    """Records admitted the way construction admits them: the known-wrong query, the gold query."""
    bench = load_benchmark("sql-shop")
    world = bench.world_model()
    admitter = Admitter(store, provenance=None, redact=False)
    out = []
    for task in bench.tasks()[:n]:
        state = world.reset(task)
        wrong = bench.wrong_action(task)
        failed = world.check(wrong)
        world.restore(state)
        gold = Alternative(action=bench.gold_action(task), condition_text="none")
        proposal = Proposal(alternatives=[gold], usage=Usage(), raw_text="")
        report = admitter.verify_and_admit(
            task=task, world_model=world, state=state, failed_action=wrong, failed_result=failed,
            proposal=proposal, facts=Facts(), situation=task.prompt,
        )
        assert report.record is not None, report.verdicts
        out.append(report.record)
    return out


@dataclass
class ChangedGold:
    """The registry's tasks, with one task's gold query corrected after the record was admitted."""

    task_id: str
    gold: str
    inner: RegistryWorlds = field(default_factory=RegistryWorlds)

    def resolve(self, record: Record) -> Resolved:
        resolved = self.inner.resolve(record)
        if resolved.task.id == self.task_id:
            resolved.task = resolved.task.model_copy(update={"gold": self.gold})
        return resolved


def test_sql_records_hold_until_the_gold_answer_changes(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "sql.db") as store:
        first, second = _admit_sql(store, 2)
        summary = reverify(store)
        assert (summary.run.checked, summary.run.holds) == (2, 2), summary
        changed = ChangedGold(first.source.task_id, "SELECT COUNT(*) + 1 FROM customers")
        lines: list[ReverifyLine] = []
        summary = reverify(store, changed, restart=True, on_line=lines.append)
        assert [line.verdict for line in lines] == ["retired", "holds"]
        assert "changed: improved action passed 1.00 -> wrong 0.23: wrong rows" in lines[0].reason
        assert [r.id for r in store.all()] == [second.id]
        assert store.get(first.id).retired_reason == lines[0].reason


def test_a_benchmark_not_in_the_registry_is_unchecked(tmp_path: Path) -> None:
    with _store(tmp_path, [make(0, benchmark="my-own-bench")]) as store:
        lines: list[ReverifyLine] = []
        reverify(store, on_line=lines.append)
    assert lines[0].verdict == "unchecked" and lines[0].reason.startswith("benchmark unknown")


# --- retired records are never offered --------------------------------------------------------


def _decision(benchmark: str = "fake") -> Decision:
    task = Task(id="new", benchmark=benchmark, domain="sql", prompt="count the customers of shop 0")
    return Decision(task=task, situation="count the customers of shop 0", facts=Facts())


def test_a_retired_record_is_never_offered_through_advise(store_named: Named) -> None:
    path = store_named("adv")
    with open_store(path) as store:
        kept, gone = make(0), make(1)
        store.add(kept)
        store.add(gone)
    memory = open_memory(path, action_language="sql", embedder="lexical", k=3)
    assert memory.store is not None
    offered: set[str | None] = set()
    assert gone.id in {c.record.id for c in memory.retriever.retrieve(_query()).candidates}
    memory.store.retire(gone.id, "checked again: no longer gains")
    for _ in range(5):
        advice = memory.advise(_decision())
        assert advice is not None and advice.record_id != gone.id
        offered.add(advice.record_id)
    assert gone.id not in {c.record.id for c in memory.retriever.retrieve(_query()).candidates}
    assert kept.id in offered


def _query() -> RetrievalQuery:
    return RetrievalQuery.for_decision(
        situation="count the customers of shop 1", facts=Facts(), domain="sql", benchmark="fake",
    )


def test_a_retriever_given_a_list_skips_retired_records() -> None:
    live, retired = make(0), make(1).marked_retired("by hand")
    retriever = Retriever([live, retired], LexicalEmbedder(), k=3)
    assert [c.record.id for c in retriever.retrieve(_query()).candidates] == [live.id]


def test_another_writer_sees_the_retirement(store_named: Named) -> None:
    path = store_named("shared")
    with open_store(path) as one, open_store(path) as two:
        record = make(0)
        one.add(record)
        assert [r.id for r in two.all()] == [record.id]
        one.retire(record.id, "no longer gains")
        assert two.all() == [] and two.get(record.id).status == "retired" and record.id in two
        with pytest.raises(StoreError, match="already retired"):
            two.retire(record.id, "again")


def test_retired_records_do_not_count_against_capacity_and_are_not_admitted_again(
    tmp_path: Path, store_named: Named
) -> None:
    with open_store(store_named("cap"), capacity=2) as store:
        a, b, c = make(0), make(1), make(2)
        store.add(a)
        store.add(b)
        store.retire(a.id, "no longer gains")
        assert store.add(c) == []  # no eviction: the retired record holds no slot
        assert [r.id for r in store.all()] == [b.id, c.id]
        assert store.add(a) == [] and store.get(a.id).status == "retired"
        exported = tmp_path / "out.jsonl"
        assert store.export_jsonl(exported) == 3
        statuses = [Record.model_validate_json(line).status for line in exported.read_text().splitlines()]
        assert statuses == ["live", "live", "retired"]


def test_a_store_written_before_retirement_opens_with_every_record_live(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with SQLiteStore(path) as store:
        store.add(make(0))
    conn = sqlite3.connect(path)
    (body,) = conn.execute("SELECT body FROM records").fetchone()
    old = {k: v for k, v in json.loads(body).items() if k not in ("status", "retired_reason", "retired_at")}
    conn.execute("UPDATE records SET body = ?", (json.dumps(old),))
    conn.commit()
    conn.close()
    with SQLiteStore(path, read_only=True) as reopened:
        assert [r.status for r in reopened.all()] == ["live"] and reopened.quarantined == {}


# --- retirement by use -------------------------------------------------------------------------


def test_retire_by_use_triggers_above_the_rate_after_the_minimum_uses(store_named: Named) -> None:
    with _store_at(store_named("m"), [make(0), make(1)]) as store:
        first, second = (r.id for r in store.all())
        for _ in range(4):  # 4 of 4 harmed, but fewer than 5 uses: kept
            store.update_counters(first, selected=1)
            store.update_counters(first, harmed=1)
        before = store.get(first)
        assert before.live
        crossed = store.update_counters(first, selected=1)  # 4 of 5 = 0.8 > 0.5 after 5 uses
        assert not crossed.live and crossed.version == before.version + 1  # the update's own version
        assert crossed.counters.selected == 5 and store.get(first) == crossed
        assert [r.version for r in store.history(first)][-2:] == [before.version, crossed.version]
        assert store.get(first).retired_reason == (
            "retired by use: harmed 4 of 5 selected uses (0.80 > retire_harm_rate 0.5 after at least 5 uses)"
        )
        assert [r.id for r in store.all()] == [second]
        for harmed in (False, True) * 3:  # 2 of 5, then 3 of 6 = 0.5 exactly: not above the rate
            store.update_counters(second, selected=1, harmed=int(harmed))
        assert store.get(second).live
        store.update_counters(second, selected=1, harmed=1)  # 4 of 7
        assert not store.get(second).live


def test_retire_by_use_is_configurable_and_can_be_switched_off(store_named: Named) -> None:
    with _store_at(store_named("m"), [make(0)], retire_by_use=RetireByUse(harm_rate=0.2, min_uses=2)) as store:
        record_id = store.all()[0].id
        store.update_counters(record_id, selected=1, harmed=1)
        assert store.get(record_id).live
        store.update_counters(record_id, selected=1)
        assert store.get(record_id).status == "retired"
    with _store_at(store_named("off"), [], retire_by_use=None) as store:
        record = make(5)
        store.add(record)
        for _ in range(10):
            store.update_counters(record.id, selected=1, harmed=1)
        assert store.get(record.id).live
    with pytest.raises(ConfigError):
        RetireByUse(harm_rate=1.5)
    with pytest.raises(ConfigError):
        RetireByUse(min_uses=0)


def test_retire_settings_in_a_study_config_reach_the_construct_store(tmp_path: Path) -> None:
    from countermem.experiment._methods import method_spec
    from countermem.experiment._stages import _construct_store
    from countermem.experiment._study_config import parse_study_config
    from countermem.experiment._study_jobs import JobContext, memory_settings
    from countermem.experiment._study_plan import plan_study

    bench = load_benchmark("sql-shop")
    for extra in ({}, {"retire_harm_rate": 0.25, "retire_min_uses": 2}):
        config = parse_study_config({
            "name": "t", "benchmarks": ["sql-shop"], "methods": ["countermem"], "seeds": [1],
            "backbones": {"b": {"kind": "scripted"}}, "split": {"construct": 2, "train": 1, "heldout": 1},
            "memory": {"embedder": "lexical", **extra},
        })
        job = next(j for j in plan_study(config, {"sql-shop": bench}, {}).jobs if j.kind == "construct")
        ctx = JobContext(root=tmp_path, config=config, job=job, benchmark=bench, tasks=[],
                         spec=method_spec("countermem"))
        settings = memory_settings(ctx, store=tmp_path / f"s{len(extra)}.sqlite", checkpoint=None)
        with _construct_store(settings) as store:
            assert store.retire_by_use == RetireByUse(extra.get("retire_harm_rate", 0.5),  # type: ignore[arg-type]
                                                      extra.get("retire_min_uses", 5))  # type: ignore[arg-type]
        # the defaults are left out of the stage config, so a run recorded before the settings resumes
        assert ("retire_harm_rate" in settings.flat()) is bool(extra)


def test_a_long_checker_message_is_one_line_in_the_reason(tmp_path: Path) -> None:
    class Verbose(FakeWorld):
        def check(self, action: Action) -> CheckResult:
            result = super().check(action)
            return result.model_copy(update={"details": "line one\n" + "x " * 400 + "\nlast line"})

    with _store(tmp_path, [make(0)]) as store:
        lines: list[ReverifyLine] = []
        reverify(store, FakeWorlds(Verbose({})), on_line=lines.append)
    assert lines[0].verdict == "retired" and "\n" not in lines[0].reason
    assert "characters cut" in lines[0].reason and "last line" in lines[0].reason


def test_a_counter_update_during_the_check_does_not_stop_the_retirement(tmp_path: Path) -> None:
    with _store(tmp_path, [make(0)], retire_by_use=None) as store:
        record = store.all()[0]

        class Busy(FakeWorld):
            def check(self, action: Action) -> CheckResult:
                store.update_counters(record.id, retrieved=1)  # another agent used the record meanwhile
                return super().check(action)

        summary = reverify(store, FakeWorlds(Busy({})))
        assert summary.run.retired == 1
        retired = store.get(record.id)
        assert retired.counters.retrieved == 2 and retired.version == record.version + 3
