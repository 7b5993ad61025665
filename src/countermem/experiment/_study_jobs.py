"""Runs one job of a study plan in its own folder and says what it produced, with content hashes.

A job is all-or-nothing: an unfinished job's folder is wiped and the job runs again from its
start. Nothing finished is lost by that: the study keeps every LLM reply in a response cache,
so the rerun replays the model's answers (same text, same counted usage) and only repeats the
cheap checks. That is what makes an interrupted study end with exactly the results of an
uninterrupted one, at every stage, including the online-learning ones (construct, train) whose
state could not be resumed mid-way.
"""

from __future__ import annotations

import shutil
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import torch
from pydantic import BaseModel, ConfigDict

from countermem.agents import TaskOutcome
from countermem.core import ArtifactMismatchError, ConfigError, Task, sha256_file
from countermem.domains import Benchmark, BenchmarkOptions, load_benchmark
from countermem.experiment._methods import BUILTIN_METHODS, MethodSpec, method_spec
from countermem.experiment._paired import read_metrics, read_stage
from countermem.experiment._rundir import RunDir, write_json_atomic
from countermem.experiment._runner import DEFAULT_MODELS, RunConfig, run_tasks
from countermem.experiment._scripts import oracle_script
from countermem.experiment._simulation import simulated_llm_for
from countermem.experiment._stages import (
    BuildCost,
    MemorySettings,
    construct_memory,
    evaluate_memory,
    train_selector,
)
from countermem.experiment._study_config import StudyConfig
from countermem.experiment._study_plan import Job, cell_tasks, construct_store, selector_checkpoint
from countermem.experiment._study_store import (
    StorePin,
    job_store,
    read_pin,
    reset_server_store,
    store_pin,
    with_schema,
    write_pin,
)
from countermem.llm import DEFAULT_REQUEST_TIMEOUT_S, LLM, CachedLLM, make_generator_llm, make_llm
from countermem.memory import SQLiteStore, StoreLocation, copy_store

JOBS_DIR = "jobs"


class JobRecord(BaseModel):
    """A finished job: written last, so its presence means every output is complete."""

    model_config = ConfigDict(frozen=True)

    id: str
    kind: str
    finished_at: str
    seconds: float
    outputs: dict[str, str]
    """Output file (relative to the study root) -> sha256."""


def job_record_path(root: Path, job_id: str) -> Path:
    return root / JOBS_DIR / (job_id.replace("/", "__").replace(":", "_") + ".json")


def read_record(root: Path, job_id: str) -> JobRecord | None:
    path = job_record_path(root, job_id)
    if not path.is_file():
        return None
    return JobRecord.model_validate_json(path.read_text())


def verify_record(root: Path, record: JobRecord) -> None:
    """A finished job's outputs must still be the bytes it wrote; anything else is refused."""
    for relative, digest in record.outputs.items():
        path = root / relative
        if not path.is_file():
            raise ArtifactMismatchError(
                f"{path} (made by job {record.id}) is gone; delete {job_record_path(root, record.id)} to rebuild it"
            )
        actual = sha256_file(path)
        if actual != digest:
            raise ArtifactMismatchError(
                f"{path} has sha256 {actual}, but job {record.id} wrote {digest}; it was changed after the "
                f"job finished. Restore it, or delete {job_record_path(root, record.id)} (and the jobs after "
                "it) to rebuild"
            )


@dataclass
class JobContext:
    root: Path
    config: StudyConfig
    job: Job
    benchmark: Benchmark
    tasks: list[Task]
    spec: MethodSpec | None
    threads: int | None = None
    """llama.cpp threads for a local backbone (the cores divided among the study's workers)."""

    @property
    def out(self) -> Path:
        return self.root / self.job.out

    @property
    def simulated(self) -> bool:
        return self.config.backbones[self.job.cell.backbone].kind == "simulated"


def _job_tasks(config: StudyConfig, job: Job, benchmark: Benchmark) -> list[Task]:
    tasks = cell_tasks(benchmark, config, job.cell.seed)
    chosen = tasks.earlier(list(config.analyses.accumulation)) if job.tasks == "earlier" else tasks.by_name(job.tasks)
    if job.shard is not None:
        index, size = job.shard
        chosen = chosen[index * size : (index + 1) * size]
    return chosen


def build_llm(ctx: JobContext) -> LLM:
    spec = ctx.config.backbones[ctx.job.cell.backbone]
    llm: LLM
    if spec.kind == "simulated":
        simulation = ctx.config.simulation
        llm = simulated_llm_for(
            ctx.benchmark, ctx.tasks, seed=ctx.job.cell.seed, universal_rate=simulation.universal_rate,
            wrong_first_rate=simulation.wrong_first_rate,
        )
    elif spec.kind == "scripted":
        llm = make_llm("scripted", script=oracle_script(ctx.benchmark, ctx.tasks), seed=ctx.job.cell.seed)
    else:
        llm = make_llm(
            spec.kind, model=spec.model or DEFAULT_MODELS.get(spec.kind), base_url=spec.base_url,
            api_key=spec.api_key(), seed=ctx.job.cell.seed, n_threads=ctx.threads,
            timeout_s=spec.timeout or DEFAULT_REQUEST_TIMEOUT_S,
        )
    if ctx.config.cache:
        cache = ctx.root / "cache" / f"{ctx.job.cell.backbone}.sqlite"
        cache.parent.mkdir(parents=True, exist_ok=True)
        llm = CachedLLM(llm, cache)
    return llm


def run_config(ctx: JobContext, *, split: str, temperature: float | None = None) -> RunConfig:
    config, job = ctx.config, ctx.job
    spec = config.backbones[job.cell.backbone]
    best_of_n = ctx.spec is not None and ctx.spec.kind == "best_of_n" and job.kind == "evaluate"
    return RunConfig(
        benchmark=job.cell.benchmark, backbone=spec.kind, model=spec.model or DEFAULT_MODELS.get(spec.kind, ""),
        base_url=spec.base_url, agent=job.cell.agent,
        max_trials=config.agent.max_trials, after_failure=config.agent.after_failure,
        reuse_checks=config.agent.reuse_checks, show_utility=config.agent.show_utility,
        one_action=config.agent.one_action, split="all",
        split_seed=job.cell.seed,
        split_by_environment=config.split.by_environment, seed=job.cell.seed, max_steps=config.agent.max_steps,
        max_tokens=job.budget or config.agent.max_tokens, max_new_tokens=config.agent.max_new_tokens,
        temperature=config.agent.temperature if temperature is None else temperature,
        unsafe_no_sandbox=config.unsafe_no_sandbox, method=job.method, task_set=split,
        attempts=config.baselines.best_of_n if best_of_n else 1,
        attempt_temperature=config.baselines.best_of_n_temperature if best_of_n else None,
    )


def memory_settings(ctx: JobContext, *, store: StoreLocation, checkpoint: Path | None) -> MemorySettings:
    memory, spec = ctx.config.memory, ctx.spec
    assert spec is not None
    capacity = ctx.config.baselines.retention_capacity if spec.retention_capacity else memory.capacity
    return MemorySettings(
        store=store, capacity=capacity, retention=spec.retention, embedder=memory.embedder, k=memory.k,
        embed_layout=memory.embed_layout, embed_task_weight=memory.embed_task_weight,
        rank=spec.rank, use_conditions=spec.use_conditions, show_task=memory.show_task,
        selector=spec.selector_in(memory.selector),
        after_malformed=memory.after_malformed, redact=memory.redact,
        checkpoint=checkpoint,
        min_gain=memory.min_gain, max_alternatives=memory.max_alternatives, seed=ctx.job.cell.seed,
        admission=spec.admission, dqn=memory.dqn, construct_advice=memory.construct_advice,
        generator=memory.generator.settings(), generator_model=memory.generator.model,
        lesson=memory.lesson, rendering=spec.rendering, repeat_offers=spec.repeat_offers,
        offer_at_start=spec.offer_at_start, max_advice_tokens=memory.max_advice_tokens,
        advice_lifetime=spec.advice_lifetime, answer_once=spec.answer_once,
        retire_harm_rate=memory.retire_harm_rate, retire_min_uses=memory.retire_min_uses,
        record_scope=memory.scope, readable_scopes=tuple(memory.readable_scopes), merge=memory.merge,
    )


def build_generator_llm(ctx: JobContext) -> LLM | None:
    """The generator's own model (`[memory.generator] model`), on the cell's backbone kind and server;
    None when the agent's model writes the alternatives. Its replies have their own cache file."""
    name = ctx.config.memory.generator.model
    if not name:
        return None
    spec = ctx.config.backbones[ctx.job.cell.backbone]
    cache: Path | None = None
    if ctx.config.cache:
        cache = ctx.root / "cache" / f"{ctx.job.cell.backbone}-generator.sqlite"
        cache.parent.mkdir(parents=True, exist_ok=True)
    return make_generator_llm(
        spec.kind, name, base_url=spec.base_url, api_key=spec.api_key(), seed=ctx.job.cell.seed,
        n_threads=ctx.threads, cache_path=cache, timeout_s=spec.timeout or DEFAULT_REQUEST_TIMEOUT_S,
    )


ProgressHook = Callable[[TaskOutcome, int, int], None]


def execute_job(
    root: Path, config: StudyConfig, job: Job, on_task_done: ProgressHook | None = None, *, threads: int | None = None
) -> JobRecord:
    """Run `job` from its start (wiping an unfinished attempt) and write its record last."""
    torch.set_num_threads(1)
    started = time.perf_counter()
    benchmark = load_benchmark(
        job.cell.benchmark,
        BenchmarkOptions(data_dir=config.data_dir, unsafe_no_sandbox=config.unsafe_no_sandbox),
    )
    availability = benchmark.availability()
    if not availability.available:
        raise ConfigError(f"benchmark {job.cell.benchmark} is not available: {availability.reason}")
    tasks = _job_tasks(config, job, benchmark)
    spec = method_spec(job.method) if job.method else _family_spec(config, job)
    ctx = JobContext(root, config, job, benchmark, tasks, spec, threads)
    if ctx.out.exists():
        shutil.rmtree(ctx.out)
    ctx.out.mkdir(parents=True)
    if job.kind == "construct":
        outputs = _construct(ctx, on_task_done)
    elif job.kind == "train":
        outputs = _train(ctx, on_task_done)
    elif job.kind == "merge":
        outputs = _merge(ctx)
    else:
        outputs = _evaluate(ctx, on_task_done)
    record = JobRecord(
        id=job.id, kind=job.kind, finished_at=datetime.now(UTC).isoformat(),
        seconds=round(time.perf_counter() - started, 3),
        outputs={str(p.relative_to(root)): sha256_file(p) for p in outputs},
    )
    path = job_record_path(root, job.id)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(path, record.model_dump(mode="json"))
    return record


def _family_spec(config: StudyConfig, job: Job) -> MethodSpec:
    """The spec that decides how a construct job builds its family's store (any method of the family)."""
    for spec in BUILTIN_METHODS.values():
        if spec.family == job.family:
            return spec
    raise ConfigError(f"no method builds the store family {job.family!r}")


def _snapshot(store: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(store)
    try:
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)
        finally:
            copy.close()
    finally:
        source.close()


def _construct(ctx: JobContext, on_task_done: ProgressHook | None) -> list[Path]:
    job = ctx.job
    assert ctx.spec is not None and job.family is not None
    if ctx.spec.kind == "strategy":  # a strategy bank is a file of its own, never a memory store
        from countermem.experiment._baseline_stages import construct_strategies

        return construct_strategies(ctx, ctx.root / construct_store(job.cell, job.family), on_task_done)
    store = job_store(ctx.root, ctx.config, job.cell, job.family)
    if isinstance(store, str):
        reset_server_store(store)  # what an interrupted attempt wrote is gone, as its folder is
    settings = memory_settings(ctx, store=store, checkpoint=None)
    snapshots: list[Path] = []
    wanted = {c for c in job.checkpoints if c <= len(ctx.tasks)}
    if 0 in wanted:
        empty = ctx.out / "snapshots" / "after-0.sqlite"
        empty.parent.mkdir(parents=True, exist_ok=True)
        SQLiteStore(empty, capacity=settings.capacity, retention=settings.retention, seed=settings.seed).close()
        snapshots.append(empty)

    def done(outcome: TaskOutcome, count: int, total: int) -> None:
        if count in wanted and count > 0:
            target = ctx.out / "snapshots" / f"after-{count}.sqlite"
            if isinstance(store, str):
                copy_store(store, target)
            else:
                _snapshot(store, target)
            snapshots.append(target)
        if on_task_done is not None:
            on_task_done(outcome, count, total)

    construct_memory(
        run_config(ctx, split="construct"), settings, build_llm(ctx), ctx.benchmark, ctx.tasks,
        RunDir(ctx.out / "construct"), on_task_done=done, simulated=ctx.simulated,
        generator_llm=build_generator_llm(ctx),
    )
    made = write_pin(store, ctx.root / store_pin(job.cell, job.family)) if isinstance(store, str) else store
    return [made, *snapshots, ctx.out / "construct" / "metrics.json", ctx.out / "construct" / "stage.json"]


def _train(ctx: JobContext, on_task_done: ProgressHook | None) -> list[Path]:
    job = ctx.job
    assert job.method is not None and job.family is not None
    server = _server_pin(ctx)
    store = ctx.root / construct_store(job.cell, job.family) if server is None else server[0]
    checkpoint = ctx.root / selector_checkpoint(job.cell, job.method)
    settings = memory_settings(ctx, store=store, checkpoint=checkpoint)
    train_selector(
        run_config(ctx, split="train"), settings, build_llm(ctx), ctx.benchmark, ctx.tasks, RunDir(ctx.out),
        on_task_done=on_task_done, simulated=ctx.simulated, epochs=ctx.config.memory.train_epochs,
    )
    return [checkpoint, ctx.out / "metrics.json", ctx.out / "stage.json"]


def _server_pin(ctx: JobContext) -> tuple[str, StorePin] | None:
    """(the schema's URL, the pin) of the server store the job's construct job made; None for a file store.
    The schema is the one the pin names, so a resumed job opens what was built whatever names a newer
    countermem would give."""
    job, url = ctx.job, ctx.config.memory.store
    if url is None:
        return None
    assert job.family is not None
    pin_relative = store_pin(job.cell, job.family)
    construct_id = f"construct/{job.cell.key}/{job.family}"
    pin = read_pin(ctx.root / pin_relative, expected_hash(ctx.root, construct_id, pin_relative))
    return with_schema(url, pin.schema_name), pin


def expected_hash(root: Path, job_id: str, relative: Path) -> str:
    """The sha256 that job `job_id` recorded for its output `relative`."""
    record = read_record(root, job_id)
    if record is None:
        raise ConfigError(f"job {job_id} has not finished; its outputs are needed")
    digest = record.outputs.get(str(relative))
    if digest is None:
        raise ConfigError(f"job {job_id} did not record {relative}")
    return digest


def _evaluate(ctx: JobContext, on_task_done: ProgressHook | None) -> list[Path]:
    job, spec = ctx.job, ctx.spec
    assert spec is not None
    run_dir = RunDir(ctx.out)
    config = run_config(ctx, split=job.tasks)
    llm = build_llm(ctx)
    if spec.kind in ("none", "best_of_n"):
        run_tasks(config, llm, ctx.benchmark, ctx.tasks, run_dir, on_task_done=on_task_done, simulated=ctx.simulated)
        return [ctx.out / "metrics.json", ctx.out / "results.jsonl"]
    if spec.kind in ("strategy", "checked"):
        from countermem.experiment._baseline_stages import evaluate_baseline

        evaluate_baseline(ctx, config, llm, run_dir, on_task_done)
        outputs = [ctx.out / "metrics.json", ctx.out / "results.jsonl", ctx.out / "stage.json"]
        return [*outputs, write_build_cost(ctx)] if spec.kind == "strategy" else outputs
    assert job.family is not None
    construct_id = f"construct/{job.cell.key}/{job.family}"
    store_relative = construct_store(job.cell, job.family)
    store: StoreLocation = ctx.root / store_relative
    if job.variant.startswith("accumulation:"):  # snapshots are SQLite files, whichever the store
        count = int(job.variant.split(":")[1])
        store_relative = store_relative.parent / "snapshots" / f"after-{count}.sqlite"
        store = ctx.root / store_relative
        expected_store = expected_hash(ctx.root, construct_id, store_relative)
    elif (server := _server_pin(ctx)) is not None:
        store, expected_store = server[0], server[1].store_sha256
    else:
        expected_store = expected_hash(ctx.root, construct_id, store_relative)
    checkpoint: Path | None = None
    expected_checkpoint: str | None = None
    if spec.selector_in(ctx.config.memory.selector) == "dqn":
        checkpoint_relative = selector_checkpoint(job.cell, spec.name)
        checkpoint = ctx.root / checkpoint_relative
        expected_checkpoint = expected_hash(ctx.root, f"train/{job.cell.key}/{spec.name}", checkpoint_relative)
    settings = memory_settings(ctx, store=store, checkpoint=checkpoint)
    evaluate_memory(
        config, settings, llm, ctx.benchmark, ctx.tasks, run_dir, expected_store_sha256=expected_store,
        expected_checkpoint_sha256=expected_checkpoint, on_task_done=on_task_done, simulated=ctx.simulated,
    )
    return [ctx.out / "metrics.json", ctx.out / "results.jsonl", ctx.out / "stage.json", write_build_cost(ctx)]


def write_build_cost(ctx: JobContext) -> Path:
    """build_cost.json in the job's run directory: construction and selector-training costs."""
    job = ctx.job
    assert job.family is not None
    family = ctx.root / construct_store(job.cell, job.family).parent
    cost: dict[str, int] = {}
    stage = read_stage(family / "construct") or read_stage(family)
    if stage is not None:
        cost.update(
            generator_tokens=stage.generator_usage.total, verification_calls=stage.construction_world_model_calls,
            records_admitted=stage.construction_admitted,
        )
    construct = [read_metrics(p.parent) for p in family.glob("construct*/metrics.json")]
    cost["construct_tasks"] = sum(m.n_tasks for m in construct)
    cost["construct_solved"] = sum(m.n_solved for m in construct)
    cost["construct_task_run_tokens"] = sum(m.task_run_tokens.total for m in construct)
    if (job.method is not None and ctx.spec and ctx.spec.kind == "countermem"
            and ctx.spec.selector_in(ctx.config.memory.selector) == "dqn"):
        train_dir = ctx.root / selector_checkpoint(job.cell, job.method).parent
        trained = read_stage(train_dir)
        epochs = [train_dir, *sorted(train_dir.glob("epoch-*"))]
        metrics = [read_metrics(d) for d in epochs if (d / "metrics.json").is_file()]
        cost["train_tasks"] = sum(m.n_tasks for m in metrics)
        cost["train_task_run_tokens"] = sum(m.task_run_tokens.total for m in metrics)
        cost["selector_updates"] = trained.selector_updates if trained else 0
    return RunDir(ctx.out).write_json("build_cost.json", BuildCost(**cost))


def _merge(ctx: JobContext) -> list[Path]:
    """One run directory from the shards of an evaluation run, as if it had run in one piece."""
    from countermem.experiment._metrics import compute_metrics
    from countermem.experiment._report import write_run_report

    job = ctx.job
    outs = planned_outputs(ctx.root)
    missing_jobs = [dep for dep in job.depends if dep not in outs]
    if missing_jobs:
        raise ConfigError(f"job {missing_jobs[0]} is not in the study manifest")
    shard_dirs = [ctx.root / outs[dep] for dep in job.depends]
    outcomes = {o.task_id: o for d in shard_dirs for o in RunDir(d).finished()}
    missing = [t.id for t in ctx.tasks if t.id not in outcomes]
    if missing:
        raise ConfigError(f"the shards of {job.id} lack {len(missing)} task(s), e.g. {missing[0]}; rerun the study")
    config = run_config(ctx, split=job.tasks)
    run_dir = RunDir(ctx.out)
    run_dir.prepare(config, seed=config.seed, resume=False)
    ordered = [outcomes[t.id] for t in ctx.tasks]
    for outcome in ordered:
        run_dir.append_result(outcome)
    for d in shard_dirs:
        for transcript in sorted((d / "transcripts").glob("*.jsonl")):
            shutil.copyfile(transcript, run_dir.transcripts / transcript.name)
    parts = [read_metrics(d) for d in shard_dirs]
    metrics = compute_metrics(
        ordered, benchmark=ctx.benchmark.name, backbone=config.backbone, model=config.model,
        simulated=ctx.simulated, cached_llm_calls=sum(m.cached_llm_calls for m in parts),
    )
    warnings = list(dict.fromkeys(w for m in parts for w in m.warnings))  # each shard gives the same ones
    metrics = metrics.model_copy(update={"warnings": warnings})
    run_dir.write_json("metrics.json", metrics)
    write_run_report(run_dir.path, metrics)
    outputs = [ctx.out / "metrics.json", ctx.out / "results.jsonl"]
    stages = [s for d in shard_dirs if (s := read_stage(d)) is not None]
    if stages:
        attempts = sum(s.retrieval_attempts for s in stages)
        covered = sum(round((s.retrieval_coverage or 0.0) * s.retrieval_attempts) for s in stages)
        merged = stages[0].model_copy(update={
            "n_tasks": sum(s.n_tasks for s in stages), "retrieval_attempts": attempts,
            "retrieval_coverage": covered / attempts if attempts else None,
            "records_selected": sum(s.records_selected for s in stages),
            "records_skipped": sum(s.records_skipped for s in stages),
        })
        run_dir.write_json("stage.json", merged)
        outputs.append(ctx.out / "stage.json")
    cost = shard_dirs[0] / "build_cost.json"
    if cost.is_file():
        shutil.copyfile(cost, ctx.out / "build_cost.json")
        outputs.append(ctx.out / "build_cost.json")
    return outputs


def planned_outputs(root: Path) -> dict[str, Path]:
    """Job id -> its folder, as the study manifest records them."""
    import json

    return {entry["id"]: Path(entry["out"]) for entry in json.loads((root / "manifest.json").read_text())["jobs"]}
