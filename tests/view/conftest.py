"""Fixtures: a store made through the store's API, a run made by the runner with a scripted model
and a memory hook that offers the store's records, and a simulated study."""

from __future__ import annotations

from pathlib import Path

import pytest
from view_fixtures import RECORDS, scoped_record

from countermem.core import Advice, Decision, Outcome
from countermem.experiment import RunConfig, RunDir, run_tasks, select_tasks
from countermem.experiment._study import run_study
from countermem.experiment._study_config import parse_study_config
from countermem.llm import ScriptedLLM
from countermem.memory import ReverifyLine, ReverifyPass, SQLiteStore, progress_path


@pytest.fixture(scope="session")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four records admitted, one used (three versions), one evicted by hand."""
    path = tmp_path_factory.mktemp("store") / "memory.sqlite"
    with SQLiteStore(path) as store:
        for record in RECORDS:
            store.add(record)
        store.update_counters(RECORDS[0].id, retrieved=2, selected=1, succeeded=1)
        store.update_counters(RECORDS[0].id, retrieved=1, selected=1, harmed=1)
        store.evict(RECORDS[3].id, "wrong for this schema")
    return path


@pytest.fixture(scope="session")
def lifecycle_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Scopes team-a and team-b, each with a live record, a retired one, an evicted one and two
    records merged into one, and a reverify sidecar with verdicts on both scopes' records."""
    path = tmp_path_factory.mktemp("lifecycle") / "memory.sqlite"
    lines = []
    with SQLiteStore(path) as store:
        for scope, base in (("team-a", 10), ("team-b", 20)):
            live, retired, evicted = (scoped_record(base + k, scope) for k in range(3))
            for record in (live, retired, evicted):
                store.add(record)
            for k in (3, 4):
                store.add(scoped_record(base + k, scope, merge_group=base))
            store.retire(retired.id, f"gain +1.000 -> +0.000 ({scope}: checker upgraded)")
            store.evict(evicted.id, f"stale for {scope}")
            lines += [
                ReverifyLine(record_id=live.id, benchmark="spider", task_id=live.source.task_id, version=1,
                             old_gain=1.0, new_gain=1.0, verdict="holds", reason=f"still holds in {scope}"),
                ReverifyLine(record_id=retired.id, benchmark="spider", task_id=retired.source.task_id, version=1,
                             old_gain=1.0, new_gain=0.0, verdict="retired", reason=f"wrong now in {scope}",
                             changed=["checker 1 -> 2"]),
            ]
        store.merge()
    sidecar = [ReverifyPass(store=str(path), min_gain=0.05).model_dump_json()]
    progress_path(path).write_text("\n".join(sidecar + [line.model_dump_json() for line in lines]) + "\n")
    return path


class OfferFirstRecord:
    """A memory hook that offers the store's first record at every decision."""

    def advise(self, decision: Decision) -> Advice | None:
        return Advice(text="Use the plural table name.", record_id=RECORDS[0].id, retrieval_tokens=2)

    def feedback(self, decision: Decision, advice: Advice | None, outcome: Outcome) -> None:
        return None


@pytest.fixture
def run_path(toy_benchmark, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    """Two toy tasks, each a wrong check then the right submission, with a record offered."""
    config = RunConfig(benchmark="toy-add", backbone="scripted", model="oracle-script", limit=2)
    tasks = select_tasks(toy_benchmark, config)
    replies: list[str] = []
    for task in tasks:
        right = toy_benchmark.gold_action(task).content
        replies += [f"Action: check\n```text\n{int(right) + 1}\n```", f"Action: submit\n```text\n{right}\n```"]
    path = tmp_path / "run"
    run_tasks(config, ScriptedLLM(replies), toy_benchmark, tasks, RunDir(path), memory=OfferFirstRecord())
    return path


@pytest.fixture(scope="session")
def study_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The smallest simulated study: one benchmark, no memory vs countermem, one seed."""
    root = tmp_path_factory.mktemp("study")
    config = parse_study_config({
        "name": "view-study", "benchmarks": ["sql-shop"], "methods": ["none", "countermem"], "seeds": [1],
        "backbones": {"sim": {"kind": "simulated"}},
        "split": {"construct": 6, "train": 3, "heldout": 4},
        "memory": {"embedder": "lexical"},
    })
    outcome = run_study(config, root)
    assert outcome.ok, outcome.failed
    return root
