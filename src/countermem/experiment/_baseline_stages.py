"""The stages of the baseline methods that are not countermem's own store and selector.

ReasoningBank-style memory builds a strategy bank on source tasks (with MaTTS: k runs of each
source task, distilled together) and always injects its most similar items on held-out tasks.
Checked alternatives keeps nothing across tasks. Both write the same stage.json as countermem's
stages, so coverage and construction cost read the same in the report.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from countermem.agents import TaskOutcome
from countermem.baselines import (
    CheckedAlternatives,
    StrategyBank,
    StrategyDistiller,
    StrategyLearner,
    StrategyMemory,
)
from countermem.core import ArtifactMismatchError, ConfigError, MemoryHook, sha256_file
from countermem.experiment._rundir import RunDir
from countermem.experiment._runner import RunConfig, run_tasks
from countermem.experiment._stages import StageReport
from countermem.llm import LLM
from countermem.memory import Generator, GeneratorSettings, make_embedder

if TYPE_CHECKING:
    from countermem.experiment._study_jobs import JobContext, ProgressHook


def construct_strategies(ctx: JobContext, bank_path: Path, on_task_done: ProgressHook | None) -> list[Path]:
    """Source tasks without advice; every run judged (or checked) and distilled into strategy items."""
    from countermem.experiment._study_jobs import build_generator_llm, build_llm, run_config

    spec = ctx.spec
    assert spec is not None
    llm = build_llm(ctx)
    writer = build_generator_llm(ctx) if ctx.config.baselines.strategy_model == "generator" else None
    bank = StrategyBank(bank_path)
    passes = ctx.config.baselines.matts_k if spec.matts else 1
    distiller = StrategyDistiller(writer or llm, action_language=ctx.benchmark.action_language)
    learner = StrategyLearner(
        distiller, bank, verified_feedback=spec.strategy_labels == "checker", scaling=passes,
    )
    outputs: list[Path] = []
    try:
        for index in range(passes):
            temperature = ctx.config.baselines.matts_temperature if passes > 1 else None
            config = run_config(ctx, split="construct", temperature=temperature)
            if passes > 1:
                config = config.model_copy(update={"seed": ctx.job.cell.seed + index})
            folder = ctx.out / ("construct" if passes == 1 else f"construct-pass-{index + 1}")
            run_tasks(config, llm, ctx.benchmark, ctx.tasks, RunDir(folder), memory=learner,
                      on_task_done=on_task_done, simulated=ctx.simulated)
            outputs.append(folder / "metrics.json")
        learner.flush()
        records = len(bank)
    finally:
        bank.close()
    stats = learner.stats
    report = StageReport(
        stage="construct", benchmark=ctx.benchmark.name, n_tasks=len(ctx.tasks), store=str(bank_path),
        store_sha256=sha256_file(bank_path), records_before=0, records_after=records,
        construction_failures_seen=sum(1 for o in _outcomes(ctx.out) if not o.solved),
        construction_alternatives=stats.items_added + stats.items_duplicate,
        construction_admitted=stats.items_added, generator_usage=stats.usage, simulated=ctx.simulated,
    )
    RunDir(ctx.out).write_json("stage.json", report)
    return [bank_path, *outputs, ctx.out / "stage.json"]


def _outcomes(folder: Path) -> list[TaskOutcome]:
    return [o for results in sorted(folder.glob("construct*")) for o in RunDir(results).finished()]


def evaluate_baseline(
    ctx: JobContext, config: RunConfig, llm: LLM, run_dir: RunDir, on_task_done: ProgressHook | None
) -> None:
    """Held-out tasks with strategy items (read-only bank) or with in-task checked alternatives."""
    from countermem.experiment._study_jobs import expected_hash
    from countermem.experiment._study_plan import construct_store

    spec = ctx.spec
    assert spec is not None
    job = ctx.job
    hook: MemoryHook
    bank: StrategyBank | None = None
    store_name, store_hash = "", ""
    if spec.kind == "strategy":
        assert job.family is not None
        relative = construct_store(job.cell, job.family)
        expected = expected_hash(ctx.root, f"construct/{job.cell.key}/{job.family}", relative)
        path = ctx.root / relative
        if not path.is_file():
            raise ConfigError(f"the strategy bank {path} is gone; rebuild it (delete its construct job's record)")
        store_hash = sha256_file(path)
        if store_hash != expected:
            raise ArtifactMismatchError(f"strategy bank {path} has sha256 {store_hash}, the manifest says {expected}")
        bank = StrategyBank(path, read_only=True)
        hook = StrategyMemory(bank, make_embedder(ctx.config.memory.embedder), k=ctx.config.baselines.strategy_k)
        store_name = str(path)
    elif spec.kind == "checked":
        generator = ctx.config.memory.generator.settings()
        hook = CheckedAlternatives(
            Generator(llm, settings=GeneratorSettings.batch() if ctx.simulated else generator),
            ctx.benchmark.world_model, action_language=ctx.benchmark.action_language,
            max_alternatives=ctx.config.memory.max_alternatives, min_gain=ctx.config.memory.min_gain,
            instructions=ctx.benchmark.instructions(), mode=ctx.benchmark.repair_mode,
        )
    else:
        raise ConfigError(f"method {spec.name} is not a baseline with its own stages")
    try:
        run_tasks(config.model_copy(update={"stage": "evaluate"}), llm, ctx.benchmark, ctx.tasks, run_dir,
                  memory=hook, on_task_done=on_task_done, simulated=ctx.simulated)
        records = len(bank) if bank is not None else 0
    finally:
        if bank is not None:
            bank.close()
    if isinstance(hook, StrategyMemory):
        attempts, coverage = hook.stats.attempts, hook.stats.coverage
        selected, skipped = hook.stats.selected, 0
    else:
        assert isinstance(hook, CheckedAlternatives)
        attempts = hook.stats.attempts
        coverage = None if attempts == 0 else hook.stats.offered / attempts
        selected, skipped = hook.stats.offered, 0
    report = StageReport(
        stage="evaluate", benchmark=ctx.benchmark.name, n_tasks=len(ctx.tasks), store=store_name,
        store_sha256=store_hash, records_before=records, records_after=records, selector=spec.name,
        retrieval_attempts=attempts, retrieval_coverage=coverage, records_selected=selected,
        records_skipped=skipped, simulated=ctx.simulated,
    )
    run_dir.write_json("stage.json", report)
