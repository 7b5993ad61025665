"""Every record says which models, checker, data and countermem build made it; old stores still open."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

from countermem.core import Action, CheckResult, Facts, Task, Usage, countermem_version, git_commit
from countermem.domains import CheckerInfo, State
from countermem.llm import CachedLLM, ScriptedLLM
from countermem.memory import (
    Admitter,
    Provenance,
    Record,
    RecordSource,
    SQLiteStore,
    build_provenance,
    model_weights,
)
from countermem.memory._generator import Alternative, Proposal

TASK = Task(id="t-1", benchmark="toy", domain="toy", prompt="reach 1", environment="db-7")


def make(**extra: object) -> Record:
    return Record.model_validate(
        {
            "domain": "toy",
            "benchmark": "toy",
            "situation": "reach 1",
            "original_action": Action(content="u=0"),
            "improved_action": Action(content="u=1"),
            "original_check": CheckResult(utility=0.0, passed=False, completed=True, status="wrong"),
            "improved_check": CheckResult(utility=1.0, passed=True, completed=True, status="passed"),
            "condition": "none",
            "source": RecordSource(task_id="t-1", benchmark="toy"),
            **extra,
        }
    )


class OneShotWorld:
    def reset(self, task: Task) -> State:
        return State(task_id=task.id, payload=0)

    def snapshot(self) -> State:
        return State(task_id=TASK.id, payload=0)

    def restore(self, state: State) -> None:
        pass

    def check(self, action: Action) -> CheckResult:
        ok = action.content == "u=1"
        return CheckResult(utility=float(ok), passed=ok, completed=True, status="passed" if ok else "wrong")


def test_admission_stamps_models_checker_build_and_environment() -> None:
    provenance = build_provenance(
        agent=ScriptedLLM([], model="agent-0.5b"),
        proposer=ScriptedLLM([], model="gen-1.5b"),
        checker=CheckerInfo("z3", "4.13.0", "ab" * 32),
    )
    admitter = Admitter(SQLiteStore(), provenance=provenance)
    report = admitter.verify_and_admit(
        task=TASK, world_model=OneShotWorld(), state=State(task_id=TASK.id, payload=0),
        failed_action=Action(content="u=0"),
        failed_result=CheckResult(utility=0.0, passed=False, completed=True, status="wrong"),
        proposal=Proposal(
            alternatives=[Alternative(action=Action(content="u=1"), rationale="r", condition_text="none")],
            usage=Usage(), raw_text="",
        ),
        facts=Facts(), situation="reach 1",
    )
    assert report.record is not None
    p = report.record.provenance
    assert (p.agent_model, p.proposing_model) == ("scripted:agent-0.5b", "scripted:gen-1.5b")
    assert (p.checker, p.checker_version, p.data_sha256) == ("z3", "4.13.0", "ab" * 32)
    assert p.environment == "db-7"
    assert p.countermem_version == countermem_version() != "unknown"
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=False,
        cwd=Path(__file__).resolve().parent,
    ).stdout.strip()
    assert p.git_commit == (head or "unknown") == git_commit()


def test_provenance_is_not_part_of_the_content_id() -> None:
    plain = make()
    stamped = make(provenance=Provenance(agent_model="openai:qwen", checker="sqlite3"))
    assert plain.id == stamped.id and stamped.provenance.checker == "sqlite3"


def test_a_store_written_before_provenance_opens_and_says_unknown(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    record = make()
    with SQLiteStore(path) as store:
        store.add(record)
    old_body = json.loads(record.model_dump_json())
    del old_body["provenance"], old_body["redactions"]  # the JSON shape records had before
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE records SET body = ? WHERE id = ?", (json.dumps(old_body), record.id))
    with SQLiteStore(path, read_only=True) as store:
        loaded = store.get(record.id)
    assert loaded.id == record.id
    assert loaded.provenance == Provenance() and loaded.provenance.agent_model == "unknown"
    assert loaded.redactions == {}
    with SQLiteStore(path) as store:  # and a writable open can change it
        assert store.update_counters(record.id, retrieved=1).provenance.checker == "unknown"


def test_export_keeps_provenance(tmp_path: Path) -> None:
    record = make(provenance=Provenance(agent_model="local:qwen", checker="coqc", checker_version="8.16.1"),
                  redactions={"e-mail": 2})
    with SQLiteStore(tmp_path / "s.sqlite") as store:
        store.add(record)
        store.export_jsonl(tmp_path / "out.jsonl")
    (line,) = (tmp_path / "out.jsonl").read_text().splitlines()
    back = Record.model_validate_json(line)
    assert back.provenance == record.provenance and back.redactions == {"e-mail": 2}


class PinnedModel:
    name = "local:qwen"
    weights_sha256 = "cd" * 32


def test_model_weights_are_read_through_the_cache_wrapper(tmp_path: Path) -> None:
    cached = CachedLLM(PinnedModel(), tmp_path / "cache.sqlite")  # type: ignore[arg-type]
    assert model_weights(cached) == "cd" * 32
    assert model_weights(ScriptedLLM([])) == "unknown"
    assert build_provenance(proposer=cached).proposing_weights == "cd" * 32
