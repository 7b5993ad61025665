"""A construct stage on real sql-shop checks stamps provenance on its records and stores no secret
the agent's trajectory carried (the raw SQLite bytes are searched)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from pydantic import ValidationError

from countermem.core import ConfigError, countermem_version
from countermem.domains import load_benchmark
from countermem.experiment import RunConfig, RunDir, select_tasks
from countermem.experiment._stages import MemorySettings, construct_memory
from countermem.llm import Message, ScriptedLLM
from countermem.memory import GeneratorSettings, SQLiteStore, render_record

AWS_KEY = "AKIAQ4XR7TZ2PLMN3VBW"
PASSWORD = "Tr0ub4dor-and-3"
GITHUB_TOKEN = "ghp_Zq8Xw1Lm4Np7Rs0Tv3Yb6Cd9Ef2Gh5Jk8LmQ"
BEARER = "d41e8c9a7b3f46c2a1e5"
EMAIL = "dana.lee@example-corp.com"
SECRETS = (AWS_KEY, PASSWORD, GITHUB_TOKEN, BEARER, EMAIL)
LEAKY = (
    f"-- env AWS_ACCESS_KEY_ID={AWS_KEY}; db_password = '{PASSWORD}'\n"
    f"-- curl -H 'Authorization: Bearer {BEARER}' https://{GITHUB_TOKEN}@github.com/shop; ask {EMAIL}\n"
    "SELECT 'not the answer' AS wrong"
)


def _construct(tmp_path: Path, *, redact: bool = True) -> tuple[Path, list[str]]:
    bench = load_benchmark("sql-shop")
    config = RunConfig(benchmark="sql-shop", backbone="scripted", model="agent", split="construct", limit=2,
                       stage="construct")
    tasks = select_tasks(bench, config)

    def generator_reply(messages: list[Message]) -> str:
        task = next(t for t in tasks if t.prompt in messages[-1].content)
        return f"Fix: answer the question that was asked\n```sql\n{task.gold}\n```"

    agent = ScriptedLLM(lambda _: f"Thought: guess\nAction: submit\n```sql\n{LEAKY}\n```", model="agent")
    generator = ScriptedLLM(generator_reply, model="generator")
    settings = MemorySettings(
        store=tmp_path / "store.sqlite", embedder="lexical", redact=redact,
        generator=GeneratorSettings(samples=1, extra_draws=0),
    )
    result = construct_memory(config, settings, agent, bench, tasks, RunDir(tmp_path / "construct"),
                              generator_llm=generator)
    assert result.report.construction_admitted == 2
    return settings.store, [t.environment or "none" for t in tasks]


def test_construct_stamps_provenance_and_redacts_before_storing(tmp_path: Path) -> None:
    path, environments = _construct(tmp_path)
    raw = path.read_bytes() + (Path(f"{path}-wal").read_bytes() if Path(f"{path}-wal").exists() else b"")
    for secret in SECRETS:
        assert secret.encode() not in raw, f"{secret} reached the store file"
    with SQLiteStore(path, read_only=True) as store:
        records = store.all()
        stats = store.stats()
    assert len(records) == 2
    for record in records:
        p = record.provenance
        assert (p.agent_model, p.proposing_model) == ("scripted:agent", "scripted:generator")
        assert (p.checker, p.checker_version, p.data_sha256) == ("sqlite3", sqlite3.sqlite_version, "packaged")
        assert p.countermem_version == countermem_version() and p.git_commit != ""
        assert p.environment in environments
        assert "<SECRET:AWS Access Key>" in record.original_action.content
        assert "<SECRET:e-mail>" in record.situation
        assert {"AWS Access Key", "GitHub Token", "bearer token", "password", "e-mail"} <= record.redactions.keys()
        prompt = render_record(record, "sql", show_task=True)
        assert not any(secret in prompt for secret in SECRETS)
    assert stats.redactions["GitHub Token"] >= 2


def test_without_redaction_the_store_keeps_the_text(tmp_path: Path) -> None:
    path, _ = _construct(tmp_path, redact=False)
    with SQLiteStore(path, read_only=True) as store:
        assert all(AWS_KEY in r.original_action.content and not r.redactions for r in store.all())


def test_memory_redact_in_a_study_config_reaches_the_construct_settings(tmp_path: Path) -> None:
    from countermem.experiment._methods import method_spec
    from countermem.experiment._study_config import parse_study_config
    from countermem.experiment._study_jobs import JobContext, memory_settings
    from countermem.experiment._study_plan import plan_study

    bench = load_benchmark("sql-shop")
    for redact in (True, False):
        config = parse_study_config({
            "name": "t", "benchmarks": ["sql-shop"], "methods": ["countermem"], "seeds": [1],
            "backbones": {"b": {"kind": "scripted"}}, "split": {"construct": 2, "train": 1, "heldout": 1},
            "memory": {"embedder": "lexical", **({} if redact else {"redact": False})},
        })
        job = next(j for j in plan_study(config, {"sql-shop": bench}, {}).jobs if j.kind == "construct")
        ctx = JobContext(root=tmp_path, config=config, job=job, benchmark=bench, tasks=[],
                         spec=method_spec("countermem"))
        settings = memory_settings(ctx, store=tmp_path / "s.sqlite", checkpoint=None)
        assert settings.redact is redact
        # the default is left out of the stage config, so a run recorded before the setting resumes
        assert ("redact" in settings.flat()) is (not redact)


def test_memory_scope_and_merge_in_a_study_config_reach_the_stage_settings(tmp_path: Path) -> None:
    from countermem.experiment._methods import method_spec
    from countermem.experiment._study_config import parse_study_config
    from countermem.experiment._study_jobs import JobContext, memory_settings
    from countermem.experiment._study_plan import plan_study

    bench = load_benchmark("sql-shop")
    study = {
        "name": "t", "benchmarks": ["sql-shop"], "methods": ["countermem"], "seeds": [1],
        "backbones": {"b": {"kind": "scripted"}}, "split": {"construct": 2, "train": 1, "heldout": 1},
    }
    config = parse_study_config({**study, "memory": {"scope": "team-a", "readable_scopes": ["shared"], "merge": True}})
    job = next(j for j in plan_study(config, {"sql-shop": bench}, {}).jobs if j.kind == "construct")
    ctx = JobContext(root=tmp_path, config=config, job=job, benchmark=bench, tasks=[], spec=method_spec("countermem"))
    settings = memory_settings(ctx, store=tmp_path / "s.sqlite", checkpoint=None)
    assert (settings.record_scope, settings.readable_scopes, settings.merge) == ("team-a", ("shared",), True)
    assert settings.access.readable == {"team-a", "shared"}
    flat = settings.flat()
    assert flat["record_scope"] == "team-a" and flat["readable_scopes"] == "shared" and flat["merge"] is True
    default = memory_settings(
        JobContext(root=tmp_path, config=parse_study_config(study), job=job, benchmark=bench, tasks=[],
                   spec=method_spec("countermem")),
        store=tmp_path / "s.sqlite", checkpoint=None,
    ).flat()
    assert not {"record_scope", "readable_scopes", "merge"} & default.keys()  # old runs resume unchanged
    with pytest.raises((ValidationError, ConfigError), match="not a valid scope name"):
        parse_study_config({**study, "memory": {"scope": "Team A"}})
