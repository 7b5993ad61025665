"""`countermem study`: planning, the job graph on disk, resumption, artifact checks, leakage."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from countermem.cli import app
from countermem.core import ArtifactMismatchError, ConfigError, sha256_file
from countermem.domains import load_benchmark
from countermem.experiment._study import StudyInterrupted, run_study
from countermem.experiment._study_config import StudyConfig, load_study_config, parse_study_config
from countermem.experiment._study_plan import cell_tasks
from countermem.memory import SQLiteStore

VOLATILE = {"seconds", "construction_learn_seconds", "cached_llm_calls", "cached", "finished_at", "started_at", "store", "checkpoint",
            "with_memory", "without", "store_sha256"}


def _config(backbone: str = "scripted", **extra: Any) -> StudyConfig:
    data: dict[str, Any] = {
        "name": "t",
        "benchmarks": ["sql-shop"],
        "methods": ["none", "countermem", "no-conditions"],
        "seeds": [1],
        "backbones": {"b": {"kind": backbone}},
        "split": {"construct": 6, "train": 3, "heldout": 4},
        "memory": {"embedder": "lexical"},
    }
    data.update(extra)
    return parse_study_config(data)


def _normal(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _normal(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_normal(v) for v in value]
    return value


def _results(root: Path) -> dict[str, Any]:
    """Every result a study wrote, without timings and cache bookkeeping (which differ on a replay)."""
    found: dict[str, Any] = {}
    for path in sorted(root.rglob("*")):
        relative = str(path.relative_to(root))
        if relative.startswith(("jobs", "cache", "report")) or not path.is_file():
            continue
        if path.name == "results.jsonl" or (path.parent.name == "transcripts" and path.suffix == ".jsonl"):
            found[relative] = [_normal(json.loads(line)) for line in path.read_text().splitlines() if line]
        elif path.name in ("metrics.json", "stage.json"):
            found[relative] = _normal(json.loads(path.read_text()))
        elif path.suffix == ".sqlite":
            store = SQLiteStore(path, read_only=True)
            found[relative] = sorted((r.id, r.utility_gain, str(r.condition)) for r in store.all())
            store.close()
        elif path.suffix == ".pt":
            found[relative] = sha256_file(path)
        elif path.name == "admissions.jsonl":
            found[relative] = [json.loads(line)["report"]["admitted_record_id"] for line in path.read_text().splitlines()]
    return found


def test_config_errors_name_the_key(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown method 'countermemm'"):
        _config(methods=["none", "countermemm"])
    with pytest.raises(ConfigError, match=r"split\.train"):
        _config(split={"construct": 6, "train": 0, "heldout": 4})
    with pytest.raises(ConfigError, match="typo"):
        _config(typo=1)
    with pytest.raises(ConfigError, match="keeps no store"):
        _config(analyses={"accumulation": [0, 3], "accumulation_methods": ["none"]})
    bad = tmp_path / "bad.toml"
    bad.write_text("name = [")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_study_config(bad)


def test_example_configs_parse() -> None:
    examples = Path(__file__).resolve().parents[2] / "examples"
    configs = sorted(examples.glob("study-*.toml"))
    assert len(configs) >= 3
    for path in configs:
        load_study_config(path)


def test_transfer_tasks_sets_the_size_of_each_transfer_condition() -> None:
    benchmark = load_benchmark("sql-shop")
    asked = {"transfer": ["original-environment", "look-alike"]}
    default = cell_tasks(benchmark, _config(analyses=asked), 1)
    assert len(default.lookalike) == len(default.original_environment) == 4  # as many as held out
    more = cell_tasks(benchmark, _config(analyses={**asked, "transfer_tasks": 6}), 1)
    assert len(more.lookalike) == len(more.original_environment) == 6  # the 6 source tasks each give one
    assert more.heldout == default.heldout and more.construct == default.construct
    assert "transfer_tasks" not in _config(analyses=asked).model_dump_json()  # older studies keep their hash


def test_more_source_tasks_keep_the_same_heldout_and_training_tasks_and_extend_the_sources() -> None:
    # examples/study-agent-1.5b-sql-shop-seed2-all-sources.toml compares stores on the same held-out
    # tasks, and replays the smaller study's first sources, only because of this.
    benchmark = load_benchmark("sql-shop")
    split = {"train": 10, "heldout": 40}
    fewer = cell_tasks(benchmark, _config(split={**split, "construct": 30}), 2)
    every = cell_tasks(benchmark, _config(split={**split, "construct": 47}), 2)
    assert len(fewer.construct) == 30 and len(every.construct) == 47
    assert every.construct[:30] == fewer.construct
    assert every.heldout == fewer.heldout and every.train == fewer.train
    assert not {t.id for t in every.construct} & {t.id for t in every.heldout}
    assert {t.environment for t in every.construct}.isdisjoint({t.environment for t in every.heldout})


def test_sources_with_a_lookalike_give_one_lookalike_per_source_task() -> None:
    benchmark = load_benchmark("gsm8k")
    base = {"benchmarks": ["gsm8k"], "methods": ["none"], "split": {"construct": 10, "train": 3, "heldout": 4},
            "analyses": {"transfer": ["look-alike"], "transfer_tasks": 10}}
    plain = cell_tasks(benchmark, _config(**base), 1)
    assert len(plain.lookalike) < 10  # most gsm8k problems do not replay with new numbers
    chosen = cell_tasks(benchmark, _config(**{**base, "split": {**base["split"], "sources": "with-lookalike"}}), 1)
    assert len(chosen.construct) == len(chosen.lookalike) == 10
    assert [t.metadata["lookalike_of"] for t in chosen.lookalike] == [t.id for t in chosen.construct]
    assert chosen.lookalike_of == {t.id: t.metadata["lookalike_of"] for t in chosen.lookalike}
    assert chosen.train == plain.train and chosen.heldout == plain.heldout
    assert "sources" not in _config(**base).model_dump_json()  # older studies keep their hash
    with pytest.raises(ConfigError, match="look-alike condition"):
        _config(**{**base, "split": {**base["split"], "sources": "with-lookalike"}, "analyses": {}})


def test_no_heldout_task_reaches_construct_or_train(tmp_path: Path) -> None:
    config = _config(analyses={"transfer": ["original-environment", "new-environment", "look-alike"]})
    outcome = run_study(config, tmp_path / "s", write_report=False)
    assert outcome.ok, outcome.failed
    tasks = cell_tasks(load_benchmark("sql-shop"), config, 1)
    evaluated = {t.id for t in [*tasks.heldout, *tasks.original_environment, *tasks.lookalike]}
    assert tasks.heldout and tasks.original_environment and tasks.lookalike
    learned: set[str] = set()
    for results in (tmp_path / "s" / "work").rglob("results.jsonl"):
        learned |= {json.loads(line)["task_id"] for line in results.read_text().splitlines() if line}
    assert learned == {t.id for t in [*tasks.construct, *tasks.train]}
    assert not learned & evaluated
    heldout_runs = (tmp_path / "s" / "results" / "b" / "countermem" / "react" / "sql-shop" / "seed-1")
    ran = {json.loads(line)["task_id"] for line in (heldout_runs / "results.jsonl").read_text().splitlines()}
    assert ran == {t.id for t in tasks.heldout}
    link = tmp_path / "s" / "analyses" / "b" / "transfer" / "new-environment" / "countermem" / "react"
    assert (link / "sql-shop" / "seed-1" / "metrics.json").is_file()


def _split_leaking_into_heldout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every split function returns the construction split as the held-out one too (a broken split)."""
    import countermem.experiment._study_plan as plan_module
    from countermem.domains import Splits

    real = plan_module.split_tasks

    def leaking(tasks: list[Any], seed: int, **kwargs: Any) -> Splits:
        splits = real(tasks, seed, **kwargs)
        return Splits(construct=splits.construct, train=splits.train, heldout=splits.construct)

    monkeypatch.setattr(plan_module, "split_tasks", leaking)


def test_check_disjoint_refuses_each_kind_of_overlap() -> None:
    from countermem.experiment._study_plan import CellTasks, check_disjoint

    tasks = load_benchmark("sql-shop").tasks()
    a, b, c, d = tasks[:4]
    check_disjoint(CellTasks([a], [b], [c], [d], [tasks[4]]))
    for leaked in ("heldout", "original_environment", "lookalike"):
        sets: dict[str, list[Any]] = {"construct": [a], "train": [b], "heldout": [c],
                                      "original_environment": [d], "lookalike": [tasks[4]]}
        sets[leaked] = [sets[leaked][0], a if leaked != "lookalike" else b]
        with pytest.raises(ConfigError, match=f"1 {leaked} task.*also appear in construction or training"):
            check_disjoint(CellTasks(**sets))
    with pytest.raises(ConfigError, match="construction and training tasks overlap"):
        check_disjoint(CellTasks([a], [a, b], [c], [d], []))


def test_a_split_that_leaks_is_refused_before_anything_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _split_leaking_into_heldout(monkeypatch)
    root = tmp_path / "s"
    with pytest.raises(ConfigError, match=r"heldout task.*also appear in construction or training"):
        run_study(_config(), root, write_report=False)
    assert not [p for p in root.rglob("*") if p.is_file() and p.name != ".countermem.lock"], "the study wrote something before refusing"
    toml = tmp_path / "study.toml"
    toml.write_text('benchmarks = ["sql-shop"]\n[backbones.b]\nkind = "scripted"\n')
    result = CliRunner().invoke(app, ["study", str(toml), "--out", str(tmp_path / "cli")])
    assert result.exit_code == 2, result.output
    assert "also appear in construction or training" in " ".join(result.output.split())
    assert not (tmp_path / "cli").exists() or not [p for p in (tmp_path / "cli").rglob("*") if p.is_file() and p.name != ".countermem.lock"]


def test_interrupted_study_ends_with_the_results_of_an_uninterrupted_one(tmp_path: Path) -> None:
    config = _config(analyses={"accumulation": [0, 3, 6]})
    whole = run_study(config, tmp_path / "whole", write_report=False)
    assert whole.ok, whole.failed
    for stop in (4, 9):
        with pytest.raises(StudyInterrupted):
            run_study(config, tmp_path / "cut", stop_after_runs=stop, write_report=False)
    resumed = run_study(config, tmp_path / "cut", write_report=False)
    assert resumed.ok, resumed.failed
    assert resumed.reused, "finished jobs must not run again"
    expected, got = _results(tmp_path / "whole"), _results(tmp_path / "cut")
    assert expected.keys() == got.keys()
    assert any("admissions.jsonl" in k and any(v) for k, v in expected.items()), "nothing was learned"
    for key in expected:
        assert got[key] == expected[key], key


class _Drifting:
    """A backbone whose reasoning-token count is random on every call (the agent's budget counts
    prompt and completion tokens only, so its path is unchanged): two runs agree only if replayed.

    Records the cache key of every call that reached it, so a test can see which were asked twice.
    """

    def __init__(self, inner: Any, asked: list[str]) -> None:
        import random

        self.inner, self.asked, self._random = inner, asked, random.Random()

    @property
    def name(self) -> str:
        return str(self.inner.name)

    def count_tokens(self, text: str) -> int:
        return int(self.inner.count_tokens(text))

    def complete(self, messages: Any, params: Any = None) -> Any:
        from countermem.llm import GenerationParams
        from countermem.llm._cache import cache_key

        params = params or GenerationParams()
        self.asked.append(cache_key(self.name, messages, params))
        completion = self.inner.complete(messages, params)
        usage = completion.usage.model_copy(update={"reasoning_tokens": self._random.randint(1, 10**9)})
        return completion.model_copy(update={"usage": usage})


def test_a_resumed_study_replays_the_interrupted_jobs_model_calls_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import countermem.experiment._study_jobs as jobs_module
    from countermem.llm import CachedLLM

    asked: list[str] = []
    replayed: list[str] = []
    simulated = jobs_module.simulated_llm_for

    class CountingCache(CachedLLM):
        def complete(self, messages: Any, params: Any = None) -> Any:
            completion = super().complete(messages, params)
            if completion.cached:
                replayed.append(completion.text)
            return completion

    monkeypatch.setattr(jobs_module, "simulated_llm_for", lambda *a, **k: _Drifting(simulated(*a, **k), asked))
    monkeypatch.setattr(jobs_module, "CachedLLM", CountingCache)
    config, root = _config(backbone="simulated", methods=["none", "countermem"]), tmp_path / "s"
    with pytest.raises(StudyInterrupted):
        run_study(config, root, stop_after_runs=8, write_report=False)
    finished = {json.loads(p.read_text())["id"] for p in (root / "jobs").glob("*.json")}
    manifest_jobs = json.loads((root / "manifest.json").read_text())["jobs"]
    unfinished = [root / j["out"] for j in manifest_jobs if j["id"] not in finished and (root / j["out"]).is_dir()]
    partial = {path: path.read_text().splitlines() for folder in unfinished for path in folder.rglob("results.jsonl")}
    calls_before = sum(1 for folder in unfinished for path in folder.rglob("transcripts/*.jsonl")
                       for line in path.read_text().splitlines() if json.loads(line)["kind"] == "llm")
    assert any(partial.values()) and calls_before > 0, "the cut left no half-done job to resume"
    first_run = set(asked)
    asked.clear()
    replayed.clear()
    assert run_study(config, root, write_report=False).ok
    assert len(replayed) >= calls_before, f"only {len(replayed)} of {calls_before} earlier calls came from the cache"
    assert not first_run & set(asked), "the resumed run asked the backbone again for replies it already had"
    for path, lines in partial.items():
        again = path.read_text().splitlines()[: len(lines)]
        assert [_normal(json.loads(x)) for x in again] == [_normal(json.loads(x)) for x in lines], path


def test_a_changed_artifact_is_refused(tmp_path: Path) -> None:
    config = _config()
    root = tmp_path / "s"
    assert run_study(config, root, write_report=False).ok
    store = next((root / "work").rglob("store.sqlite"))
    store.write_bytes(store.read_bytes() + b"\0")
    with pytest.raises(ArtifactMismatchError, match="changed after the job finished"):
        run_study(config, root, write_report=False)


def test_a_changed_config_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "s"
    assert run_study(_config(methods=["none"]), root, write_report=False).ok
    with pytest.raises(ConfigError, match="different config"):
        run_study(_config(methods=["none", "countermem"]), root, write_report=False)


def test_a_missing_benchmark_is_skipped_with_its_reason(tmp_path: Path) -> None:
    config = _config(benchmarks=["sql-shop", "spider"], data_dir=str(tmp_path / "nodata"), methods=["none"])
    outcome = run_study(config, tmp_path / "s", write_report=False)
    assert "spider" in outcome.plan.skipped
    assert outcome.ok
    manifest = json.loads((tmp_path / "s" / "manifest.json").read_text())
    assert "spider" in manifest["skipped"]
    assert (tmp_path / "s" / "results" / "b" / "none" / "react" / "sql-shop" / "seed-1" / "metrics.json").is_file()


def test_a_misspelled_benchmark_is_an_error_naming_the_key_and_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"benchmarks: unknown benchmark 'sql-shopp'.*sql-shop, ") as raised:
        _config(benchmarks=["sql-shop", "sql-shopp"])
    assert "spider" in str(raised.value)
    toml = tmp_path / "study.toml"
    toml.write_text('benchmarks = ["sql-shopp"]\n[backbones.b]\nkind = "scripted"\n')
    result = CliRunner().invoke(app, ["study", str(toml), "--out", str(tmp_path / "s")])
    assert result.exit_code == 2 and "unknown benchmark 'sql-shopp'" in " ".join(result.output.split())
    assert not (tmp_path / "s").exists()


def test_a_generator_model_on_a_backbone_that_cannot_load_one_is_refused(tmp_path: Path) -> None:
    toml = tmp_path / "study.toml"
    toml.write_text(
        'benchmarks = ["sql-shop"]\n[backbones.b]\nkind = "simulated"\n'
        '[memory.generator]\nmodel = "qwen2.5-coder-1.5b"\n'
    )
    result = CliRunner().invoke(app, ["study", str(toml), "--out", str(tmp_path / "s")])
    text = " ".join(result.output.split())
    assert result.exit_code == 2 and "memory.generator.model = 'qwen2.5-coder-1.5b' needs backbones" in text
    assert "b cannot" in text and not (tmp_path / "s").exists()


@pytest.mark.slow
def test_workers_do_not_change_results(tmp_path: Path) -> None:
    config = _config(backbone="simulated")
    assert run_study(config, tmp_path / "one", write_report=False).ok
    two = run_study(config, tmp_path / "two", workers=2, write_report=False)
    assert two.ok, two.failed
    assert _results(tmp_path / "one") == _results(tmp_path / "two")


def test_cli_study_runs_resumes_and_reports(tmp_path: Path) -> None:
    toml = tmp_path / "study.toml"
    toml.write_text(
        'name = "cli"\nbenchmarks = ["sql-shop"]\nmethods = ["none", "countermem"]\nseeds = [1]\n'
        '[backbones.sim]\nkind = "simulated"\n[split]\nconstruct = 6\ntrain = 3\nheldout = 4\n'
        '[memory]\nembedder = "lexical"\n'
    )
    out = tmp_path / "out"
    runner = CliRunner()
    first = runner.invoke(app, ["study", str(toml), "--out", str(out)])
    assert first.exit_code == 0, first.output
    assert (out / "report").is_dir() and any((out / "report").rglob("*.html"))
    again = runner.invoke(app, ["study", str(toml), "--out", str(out)])
    assert again.exit_code == 0, again.output
    assert "0 jobs run" in again.output and "reused" in again.output
    shutil.rmtree(out / "report")
    report = runner.invoke(app, ["report", str(out)])
    assert report.exit_code == 0, report.output


_PAUSE_MID_JOB = """
import runpy, sys, threading
from pathlib import Path
import countermem.experiment._study as study

out, signal_file = Path(sys.argv[1]), Path(sys.argv[2])
counted = study._RunCounter.add


def add(self, n=1):
    counted(self, n)
    records = list((out / "jobs").glob("*.json"))
    running = [p for p in out.rglob("results.jsonl") if p.stat().st_size > 0]
    if records and len(running) > len(records):
        signal_file.write_text("a job is half done")
        threading.Event().wait(600)
        raise SystemExit("paused mid-job and never killed")


study._RunCounter.add = add
sys.argv = ["countermem", *sys.argv[3:]]
runpy.run_module("countermem", run_name="__main__")
"""
"""Runs the study command, and stops it for good once a job has finished and the next one has
written some of its results: it writes the signal file and waits there to be killed."""


@pytest.mark.slow
def test_a_killed_study_resumes_to_the_same_results(tmp_path: Path) -> None:
    """SIGKILL in the middle of a job (no clean-up runs), then the same command again."""
    import os
    import signal
    import subprocess
    import sys
    import time

    toml = tmp_path / "study.toml"
    toml.write_text(
        'name = "kill"\nbenchmarks = ["sql-shop"]\nmethods = ["none", "countermem", "no-conditions"]\n'
        'seeds = [1]\n[backbones.sim]\nkind = "simulated"\n'
        '[split]\nconstruct = 24\ntrain = 10\nheldout = 20\n[memory]\nembedder = "lexical"\n'
    )
    arguments = ["study", str(toml), "--no-report"]
    command = [sys.executable, "-m", "countermem", *arguments]
    subprocess.run([*command, "--out", str(tmp_path / "whole")], check=True, capture_output=True, timeout=600)
    cut, paused = tmp_path / "cut", tmp_path / "paused"
    process = subprocess.Popen(
        [sys.executable, "-c", _PAUSE_MID_JOB, str(cut), str(paused), *arguments, "--out", str(cut)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    for _ in range(1200):  # a hang guard (10 minutes), not a timing window: the study waits to be killed
        if paused.exists() or process.poll() is not None:
            break
        time.sleep(0.5)
    assert paused.exists(), f"the study never paused mid-job (exit code {process.poll()})"
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    total_jobs = len(json.loads((cut / "manifest.json").read_text())["jobs"])
    assert len(list((cut / "jobs").glob("*.json"))) < total_jobs
    again = subprocess.run([*command, "--out", str(cut)], capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stdout + again.stderr
    expected, got = _results(tmp_path / "whole"), _results(cut)
    assert expected.keys() == got.keys()
    for key in expected:
        assert got[key] == expected[key], key


def test_every_method_runs_through_the_study(tmp_path: Path) -> None:
    """Plumbing on the scripted oracle: every method's stages run and write what the report reads."""
    from countermem.baselines import StrategyBank
    from countermem.experiment._methods import BUILTIN_METHODS

    config = _config(methods=list(BUILTIN_METHODS), agents=["react", "reflexion"],
                     baselines={"matts_k": 2, "best_of_n": 2, "retention_capacity": 2},
                     memory={"embedder": "lexical", "dqn": {"learning_starts": 2, "batch_size": 2},
                             "lesson": {"enabled": True}})
    outcome = run_study(config, tmp_path / "s", write_report=True)
    assert outcome.ok, outcome.failed
    results = tmp_path / "s" / "results" / "b"
    for method in BUILTIN_METHODS:
        for agent in ("react", "reflexion"):
            metrics = json.loads((results / method / agent / "sql-shop" / "seed-1" / "metrics.json").read_text())
            assert metrics["n_tasks"] == 4, (method, agent)
    cost = json.loads((results / "countermem" / "react" / "sql-shop" / "seed-1" / "build_cost.json").read_text())
    assert cost["construct_tasks"] == 6 and cost["records_admitted"] >= 1 and cost["generator_tokens"] > 0
    assert cost["train_tasks"] == 3 and cost["selector_updates"] > 0 and cost["train_task_run_tokens"] > 0
    matts = json.loads((results / "reasoningbank-matts" / "react" / "sql-shop" / "seed-1" / "build_cost.json").read_text())
    assert matts["construct_tasks"] == 12 and matts["train_tasks"] == 0
    work = tmp_path / "s" / "work" / "b" / "react" / "sql-shop" / "seed-1"
    source = json.loads((work / "verified" / "construct" / "metrics.json").read_text())
    assert 0 < cost["construct_solved"] == source["n_solved"] <= cost["construct_tasks"]
    for family in ("strategy-judge", "strategy-matts", "strategy-checker"):
        bank = StrategyBank(work / family / "store.sqlite", read_only=True)
        assert len(bank) >= 1, family
        bank.close()
    assert (work / "strategy-matts" / "construct-pass-2" / "results.jsonl").is_file()
    best = (results / "best-of-n" / "react" / "sql-shop" / "seed-1" / "results.jsonl").read_text().splitlines()
    assert all("best of 2 attempts" in json.loads(line)["notes"][-1] for line in best)
    stage = json.loads((results / "reasoningbank" / "react" / "sql-shop" / "seed-1" / "stage.json").read_text())
    assert stage["records_selected"] > 0 and stage["retrieval_coverage"] == 1.0
    construct = json.loads((work / "verified" / "construct" / "stage.json").read_text())
    assert construct["construction_lessons_verified"] >= 1, "the oracle's lessons are written and checked"
    lesson = json.loads((results / "countermem-lesson" / "react" / "sql-shop" / "seed-1" / "stage.json").read_text())
    assert lesson["records_selected"] > 0
    top1 = json.loads((results / "countermem-top1" / "react" / "sql-shop" / "seed-1" / "stage.json").read_text())
    assert top1["selector"] == "top1"
    assert not (work / "selectors" / "countermem-top1").exists(), "a fixed selector is not trained"
    assert (work / "selectors" / "countermem-dqn" / "selector.pt").is_file()
    transient = json.loads((results / "countermem-transient" / "react" / "sql-shop" / "seed-1" / "manifest.json").read_text())
    assert transient["config"]["memory"]["advice_lifetime"] == "reply"
    assert "answer_once" not in transient["config"]["memory"], "a default setting is not recorded"
    lean = json.loads((results / "countermem-lean" / "react" / "sql-shop" / "seed-1" / "manifest.json").read_text())
    assert lean["config"]["memory"]["advice_lifetime"] == "reply" and lean["config"]["memory"]["answer_once"] is True
    lesson_lean = results / "countermem-lesson-lean" / "react" / "sql-shop" / "seed-1"
    memory = json.loads((lesson_lean / "manifest.json").read_text())["config"]["memory"]
    assert memory["advice_lifetime"] == "reply" and memory["rendering"] == "lesson" and memory["answer_once"] is True
    assert json.loads((lesson_lean / "stage.json").read_text())["records_selected"] > 0
    unconditioned = results / "countermem-lesson-no-conditions" / "react" / "sql-shop" / "seed-1"
    memory = json.loads((unconditioned / "manifest.json").read_text())["config"]["memory"]
    assert memory["use_conditions"] is False and memory["rendering"] == "lesson"
    assert json.loads((unconditioned / "stage.json").read_text())["retrieval_coverage"] == 1.0
    retention = json.loads((results / "retention-random" / "react" / "sql-shop" / "seed-1" / "stage.json").read_text())
    assert retention["records_after"] <= 2
    report = (tmp_path / "s" / "report" / "report.md").read_text()
    assert "Cost of building memory and training the selector" in report
    assert (tmp_path / "s" / "report" / "report.html").is_file()


def test_report_of_an_unfinished_study_leaves_out_what_did_not_finish(tmp_path: Path) -> None:
    config = _config(methods=["none", "countermem"])
    with pytest.raises(StudyInterrupted):
        run_study(config, tmp_path / "s", stop_after_runs=15, write_report=False)
    runner = CliRunner()
    result = runner.invoke(app, ["report", str(tmp_path / "s")])
    assert result.exit_code == 0, result.output
    report = (tmp_path / "s" / "report" / "report.md").read_text()
    assert "This study is not finished: 1 main-comparison run(s)" in report
    assert "| none |" in report


def test_the_report_names_the_code_commits_when_runs_started_at_several(tmp_path: Path) -> None:
    from countermem.experiment._study_analyses import run_commits

    config = _config(methods=["none", "countermem"])
    assert run_study(config, tmp_path / "s", write_report=True).ok
    commits = run_commits(tmp_path / "s")
    assert list(commits.values()) == [["results", "work"]]
    assert "code commits" not in (tmp_path / "s" / "report" / "report.md").read_text()
    held_out = tmp_path / "s" / "results" / "b" / "countermem" / "react" / "sql-shop" / "seed-1" / "manifest.json"
    manifest = json.loads(held_out.read_text())
    held_out.write_text(json.dumps({**manifest, "git_commit": "f" * 40}))  # as if resumed after a change
    assert run_commits(tmp_path / "s")["f" * 40] == ["results"]
    assert CliRunner().invoke(app, ["report", str(tmp_path / "s")]).exit_code == 0
    report = (tmp_path / "s" / "report" / "report.md").read_text()
    assert "started at 2 code commits" in report and "fffffff (results)" in report


def test_a_failing_job_blocks_its_dependents_and_nothing_else(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import countermem.experiment._study as study_module

    real = study_module.execute_job

    def broken(root: Path, config: StudyConfig, job: Any, *args: Any, **kwargs: Any) -> Any:
        if job.kind == "construct":
            raise RuntimeError("a bug in construction")
        return real(root, config, job, *args, **kwargs)

    monkeypatch.setattr(study_module, "execute_job", broken)
    outcome = run_study(_config(), tmp_path / "s", write_report=False)
    assert not outcome.ok
    assert len(outcome.failed) == 1 and "a bug in construction" in next(iter(outcome.failed.values()))
    assert any("countermem/main" in job for job in outcome.blocked)
    assert "evaluate/b/react/sql-shop/seed-1/none/main" in outcome.finished
    manifest = json.loads((tmp_path / "s" / "manifest.json").read_text())
    assert manifest["failed"] and manifest["blocked"]


def test_sharded_evaluation_gives_the_same_runs(tmp_path: Path) -> None:
    """shard_size splits each evaluation into jobs that workers can share; the merged runs are unchanged."""
    whole = run_study(_config(backbone="simulated"), tmp_path / "whole", write_report=False)
    sharded = run_study(_config(backbone="simulated", shard_size=3), tmp_path / "sharded", write_report=False)
    assert whole.ok and sharded.ok, (whole.failed, sharded.failed)
    assert any("/shard-2" in job.id for job in sharded.plan.jobs)
    assert any(job.kind == "merge" for job in sharded.plan.jobs)

    def leaves(root: Path) -> dict[str, Any]:
        return {k: v for k, v in _results(root).items() if k.startswith(("results/", "analyses/"))}

    expected, got = leaves(tmp_path / "whole"), leaves(tmp_path / "sharded")
    assert expected.keys() == got.keys()
    for key in expected:
        assert got[key] == expected[key], key


def test_a_worker_ends_itself_when_the_study_process_is_gone() -> None:
    import threading

    from countermem.experiment._study import watch_parent

    parents = iter([100, 100, 1])  # the study's pid twice, then init: the study was killed
    exited: list[int] = []
    done = threading.Event()

    def exit_now(code: int) -> None:
        exited.append(code)
        done.set()

    watch_parent(100, interval_s=0.01, exit_now=exit_now, current_parent=lambda: next(parents))
    assert done.wait(5) and exited == [1]
    alive: list[int] = []
    watch_parent(7, interval_s=0.01, exit_now=alive.append, current_parent=lambda: 7).join(0.1)
    assert alive == [], "a worker whose study is alive keeps running"


def _saved_without_form_repair(root: Path, config: StudyConfig, flip_after_malformed: bool = False) -> Path:
    """A finished study whose saved config lacks `form_repair`, as one saved before it existed."""
    assert run_study(config, root, write_report=False).ok
    manifest_path = root / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    del manifest["config"]["memory"]["generator"]["form_repair"]
    if flip_after_malformed:
        manifest["config"]["memory"]["after_malformed"] = not manifest["config"]["memory"]["after_malformed"]
    manifest["config_sha256"] = "0" * 64
    manifest_path.write_text(json.dumps(manifest))
    return manifest_path


def test_a_study_saved_before_a_setting_existed_resumes_with_its_default(tmp_path: Path) -> None:
    root = tmp_path / "s"
    config = _config(methods=["none"])
    manifest_path = _saved_without_form_repair(root, config)
    resumed = run_study(config, root, write_report=False)
    assert resumed.ok and resumed.reused and not resumed.finished
    assert resumed.settings_added_since == ["memory.generator.form_repair"]
    entry = json.loads(manifest_path.read_text())["resumed"][-1]
    assert entry["settings_added_since"] == ["memory.generator.form_repair"]


def test_a_saved_setting_with_another_value_is_still_a_changed_config(tmp_path: Path) -> None:
    root = tmp_path / "s"
    config = _config(methods=["none"])
    _saved_without_form_repair(root, config, flip_after_malformed=True)
    with pytest.raises(ConfigError, match="different config"):
        run_study(config, root, write_report=False)


def test_a_split_shorter_than_asked_is_named_in_the_manifest_and_the_report(tmp_path: Path) -> None:
    from countermem.experiment._study_analyses import write_study_folder_report

    bench = load_benchmark("sql-shop")
    config = _config(methods=["none"], split={"construct": 2, "train": 1, "heldout": 500})
    heldout = len(cell_tasks(bench, config, 1).heldout)
    outcome = run_study(config, tmp_path / "s", write_report=False)
    assert outcome.ok
    note = f"{heldout} heldout tasks of 500 asked (the benchmark has {len(bench.tasks())} tasks in all)"
    assert outcome.plan.short_splits == {"sql-shop, seed 1": note}
    assert json.loads((tmp_path / "s" / "manifest.json").read_text())["short_splits"] == {"sql-shop, seed 1": note}
    report, _ = write_study_folder_report(tmp_path / "s")
    assert f"Short split (sql-shop, seed 1): {note}." in report.read_text()
    assert run_study(_config(methods=["none"]), tmp_path / "t", write_report=False).plan.short_splits == {}


def test_job_threads_reach_every_job_of_the_process_executor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # two studies on one machine each took all the cores by default: llama.cpp then ran at ~1 token/s
    from countermem.experiment import _study

    seen: list[int | None] = []
    real = _study.execute_job

    def spy(root: Path, config: StudyConfig, job: Any, on_task: Any = None, *, threads: int | None = None) -> Any:
        seen.append(threads)
        return real(root, config, job, on_task, threads=threads)

    monkeypatch.setattr(_study, "execute_job", spy)
    assert run_study(_config(), tmp_path / "s", write_report=False, job_threads=1).ok
    assert seen and set(seen) == {1}
    manifest = json.loads((tmp_path / "s" / "manifest.json").read_text())
    assert manifest["execution"] == {"executor": "workers", "workers": 1, "job_threads": 1}
    with pytest.raises(ConfigError, match="--job-threads must be at least 1"):
        run_study(_config(), tmp_path / "t", job_threads=0)


def test_a_study_run_one_benchmark_at_a_time_ends_as_one_run_whole(tmp_path: Path) -> None:
    data: dict[str, Any] = {"benchmarks": ["sql-shop", "smt-encode"], "methods": ["none", "countermem"],
                            "split": {"construct": 3, "train": 2, "heldout": 3}}
    config = _config(**data)
    whole = run_study(config, tmp_path / "whole", write_report=False)
    assert whole.ok and not whole.deferred
    toml = tmp_path / "study.toml"
    toml.write_text(
        'name = "t"\nbenchmarks = ["sql-shop", "smt-encode"]\nmethods = ["none", "countermem"]\nseeds = [1]\n'
        '[backbones.b]\nkind = "scripted"\n[split]\nconstruct = 3\ntrain = 2\nheldout = 3\n'
        '[memory]\nembedder = "lexical"\n'
    )
    first = CliRunner().invoke(app, ["study", str(toml), "--out", str(tmp_path / "parts"), "--benchmark", "smt-encode",
                                     "--no-report"])
    assert first.exit_code == 0, first.output
    assert "4 jobs of other benchmarks left for later" in " ".join(first.output.split())
    manifest = json.loads((tmp_path / "parts" / "manifest.json").read_text())
    assert sorted(manifest["deferred"]) == sorted(j for j in whole.finished if "/sql-shop/" in j)
    assert not (tmp_path / "parts" / "results" / "b" / "none" / "react" / "sql-shop").exists()
    assert (tmp_path / "parts" / "results" / "b" / "none" / "react" / "smt-encode" / "seed-1" / "metrics.json").is_file()
    rest = run_study(config, tmp_path / "parts", write_report=False)
    assert rest.ok and not rest.deferred
    assert sorted(rest.reused) == sorted(j for j in whole.finished if "/smt-encode/" in j)
    expected, got = _results(tmp_path / "whole"), _results(tmp_path / "parts")
    assert expected.keys() == got.keys()
    for key in expected:
        assert got[key] == expected[key], key


def test_only_benchmarks_names_a_benchmark_the_study_lacks(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"--benchmark spider: not in this study; its benchmarks are sql-shop"):
        run_study(_config(methods=["none"]), tmp_path / "s", write_report=False, only_benchmarks=["spider"])
    assert not (tmp_path / "s").exists(), "a mistyped option must not leave a study folder behind"
    skipped = _config(benchmarks=["sql-shop", "spider"], data_dir=str(tmp_path / "nodata"), methods=["none"])
    with pytest.raises(ConfigError, match=r"leaves nothing to run.*spider: "):
        run_study(skipped, tmp_path / "t", write_report=False, only_benchmarks=["spider"])
