"""`countermem construct | train | evaluate`: the three stages of a memory study, one at a time."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Annotated, Any, Literal

import typer
from rich.table import Table

from countermem.cli import _options as opt
from countermem.cli._common import console, friendly_errors, print_warning, resume_hint_on_interrupt
from countermem.cli._run import prepare, print_metrics, progress_bar
from countermem.core import ConfigError
from countermem.experiment import RunConfig, RunDir
from countermem.experiment._paired import read_stage
from countermem.experiment._stages import (
    MemorySettings,
    StageReport,
    checkpoint_warnings,
    construct_memory,
    evaluate_memory,
    stage_config,
    train_selector,
)
from countermem.llm import DEFAULT_REQUEST_TIMEOUT_S, LLM
from countermem.memory import DEFAULT_SCOPE, GeneratorSettings, is_postgres_url

_PREPARE_KEYS = set(inspect.signature(prepare).parameters)


def _run_stage(stage: Literal["construct", "train", "evaluate"], params: dict[str, Any]) -> None:
    with resume_hint_on_interrupt(params.pop("ctx")):
        _stage(stage, params)


def _stage(stage: Literal["construct", "train", "evaluate"], params: dict[str, Any]) -> None:
    selector = params.get("selector", "dqn")
    if selector not in ("dqn", "skip", "top1", "random"):
        raise ConfigError(f"unknown selector {selector!r}; choose dqn, skip, top1 or random")
    if params.get("embedder", "minilm") not in ("minilm", "onnx", "onnx-int8", "lexical"):
        raise ConfigError("--embedder must be minilm, onnx, onnx-int8 or lexical")
    settings = MemorySettings(
        store=params["store"],
        capacity=params.get("capacity", 200),
        retention=params.get("retention", "utility"),
        embedder=params.get("embedder", "minilm"),
        use_conditions=params.get("conditions", True),
        selector=selector,
        checkpoint=params.get("checkpoint"),
        min_gain=params.get("min_gain", 0.05),
        seed=params["seed"],
        generator=_generator_settings(params),
        generator_model=params.get("generator_model") or "",
        after_malformed=params.get("after_malformed", False),
        redact=params.get("redact", True),
        record_scope=params.get("scope", DEFAULT_SCOPE),
        readable_scopes=tuple(params.get("read_scope") or ()),
        merge=params.get("merge", False),
    )
    if stage == "evaluate":
        for warning in checkpoint_warnings(settings):  # before the model loads, so a person can stop here
            print_warning(warning)
    prepared = prepare(
        split=stage if stage != "evaluate" else "heldout",
        run_config=lambda config: stage_config(config, stage, settings),
        **{k: v for k, v in params.items() if k in _PREPARE_KEYS},
    )
    out: Path = params["out"]
    common = {"resume": params["resume"], "simulated": prepared.simulated}
    with progress_bar(len(prepared.tasks), params.get("quiet", False)) as on_done:
        args = (prepared.config, settings, prepared.llm, prepared.benchmark, prepared.tasks, RunDir(out))
        if stage == "construct":
            result = construct_memory(
                *args, on_task_done=on_done, generator_llm=_generator_llm(params, prepared.config), **common
            )
        elif stage == "train":
            result = train_selector(*args, on_task_done=on_done, epochs=params["epochs"], **common)
        else:
            store_hash, checkpoint_hash = _expected_hashes(params.get("trained"), settings)
            result = evaluate_memory(
                *args, on_task_done=on_done, expected_store_sha256=store_hash,
                expected_checkpoint_sha256=checkpoint_hash, **common,
            )
    print_metrics(result.metrics, out)
    _print_report(result.report)


def _generator_settings(params: dict[str, Any]) -> GeneratorSettings:
    strategy = params.get("generator_strategy", "sampled")
    if strategy == "batch":
        if params.get("generator_grammar"):
            raise ConfigError("--generator-grammar holds sampled edits to their form; the batch strategy has none")
        return GeneratorSettings.batch()
    if strategy != "sampled":
        raise ConfigError(f"unknown --generator-strategy {strategy!r}; choose sampled or batch")
    return GeneratorSettings(
        samples=params.get("samples", 4),
        grammar=params.get("generator_grammar", False),
        failures_per_task=params.get("failures_per_task"),
    )


def _generator_llm(params: dict[str, Any], config: RunConfig) -> LLM | None:
    """The generator's own model on the agent's backbone (and server), or None for the agent's model."""
    name = params.get("generator_model")
    if not name:
        return None
    from countermem.llm import make_generator_llm

    cache: Path | None = params.get("cache")
    return make_generator_llm(
        config.backbone, name, base_url=params.get("base_url"), api_key=params.get("api_key"),
        seed=params["seed"], cache_path=None if cache is None else cache.with_name(cache.stem + "-generator" + cache.suffix),
        timeout_s=params.get("request_timeout") or DEFAULT_REQUEST_TIMEOUT_S,
    )


TrainedRun = Annotated[
    Path | None,
    typer.Option(
        "--trained",
        help="the train stage's run directory: its stage.json names the store and checkpoint hashes, "
        "and evaluate refuses files that differ",
    ),
]


def _expected_hashes(trained: Path | None, settings: MemorySettings) -> tuple[str | None, str | None]:
    if trained is None:
        return None, None
    stage = read_stage(trained)
    if stage is None or stage.stage != "train":
        raise ConfigError(f"{trained} holds no finished train stage (stage.json); give the train run's --out")
    checkpoint = stage.checkpoint_sha256 if settings.selector == "dqn" else None
    return stage.store_sha256, checkpoint


def _print_report(report: StageReport) -> None:
    table = Table(title=f"{report.stage} stage" + (" (SIMULATED)" if report.simulated else ""))
    table.add_column("measure")
    table.add_column("value")
    rows: list[tuple[str, str]] = [("store", f"{report.store} ({report.records_after} records)")]
    if report.stage == "construct":
        rows += [
            ("failures learned from (malformed answers)",
             f"{report.construction_failures_seen} ({report.construction_malformed_failures})"),
            ("alternatives proposed", str(report.construction_alternatives)),
            ("records admitted (from malformed answers; form repairs)",
             f"{report.construction_admitted} ({report.construction_malformed_admitted}; "
             f"{report.construction_form_repairs_admitted})"),
            ("failures left alone (failures_per_task)", str(report.construction_failures_skipped)),
            ("world-model calls (verification)", str(report.construction_world_model_calls)),
            ("generator calls / tokens (not task-run)",
             f"{report.construction_generator_calls} / {report.generator_usage.total}"),
            ("generation and verification time", f"{report.construction_learn_seconds:.1f} s"),
        ]
    else:
        coverage = "n/a" if report.retrieval_coverage is None else f"{100 * report.retrieval_coverage:.1f}%"
        rows += [
            ("selector", report.selector),
            ("retrieval attempts / coverage", f"{report.retrieval_attempts} / {coverage}"),
            ("records used / skipped", f"{report.records_selected} / {report.records_skipped}"),
        ]
        if report.stage == "train":
            rows.append(("selector updates (training cost)", str(report.selector_updates)))
        if report.checkpoint:
            rows.append(("checkpoint", f"{report.checkpoint} (sha256 {report.checkpoint_sha256})"))
    for row in rows:
        table.add_row(*row)
    console.print(table)
    for warning in report.warnings:
        print_warning(warning)


@friendly_errors
def construct(
    ctx: typer.Context,
    store: opt.Store,
    domain: opt.Domain = None,
    benchmark: opt.BenchmarkName = None,
    backbone: opt.Backbone = "local",
    model: opt.Model = None,
    base_url: opt.BaseUrl = None,
    api_key: opt.ApiKey = None,
    request_timeout: opt.RequestTimeout = None,
    limit: opt.Limit = None,
    split_seed: opt.SplitSeed = 0,
    split_by_environment: opt.SplitByEnv = True,
    seed: opt.Seed = 0,
    agent: opt.Agent = "react",
    max_trials: opt.MaxTrials = 3,
    after_failure: opt.AfterFailure = "history",
    reuse_checks: opt.ReuseChecks = False,
    show_utility: opt.ShowUtility = True,
    one_action: opt.OneAction = False,
    max_steps: opt.MaxSteps = 5,
    max_tokens: opt.MaxTokens = 16000,
    max_new_tokens: opt.MaxNewTokens = 384,
    temperature: opt.Temperature = 0.0,
    capacity: opt.Capacity = 200,
    retention: opt.Retention = "utility",
    min_gain: opt.MinGain = 0.05,
    generator_model: opt.GeneratorModel = None,
    samples: opt.Samples = 4,
    generator_strategy: opt.GeneratorStrategy = "sampled",
    generator_grammar: opt.GeneratorGrammar = False,
    failures_per_task: opt.FailuresPerTask = None,
    after_malformed: opt.AfterMalformed = False,
    redact: opt.Redact = True,
    merge: opt.MergeRecords = False,
    scope: opt.Scope = DEFAULT_SCOPE,
    read_scope: opt.ReadScope = None,
    out: opt.Out = Path("runs/construct"),
    resume: opt.Resume = False,
    cache: opt.Cache = None,
    data_dir: opt.DataDir = None,
    unsafe_no_sandbox: opt.Unsafe = False,
    quiet: opt.Quiet = False,
) -> None:
    """Build memory on the construction split: verified corrections of the agent's failures."""
    _run_stage("construct", dict(locals()))


@friendly_errors
def train(
    ctx: typer.Context,
    store: opt.Store,
    checkpoint: opt.Checkpoint = None,
    domain: opt.Domain = None,
    benchmark: opt.BenchmarkName = None,
    backbone: opt.Backbone = "local",
    model: opt.Model = None,
    base_url: opt.BaseUrl = None,
    api_key: opt.ApiKey = None,
    request_timeout: opt.RequestTimeout = None,
    limit: opt.Limit = None,
    split_seed: opt.SplitSeed = 0,
    split_by_environment: opt.SplitByEnv = True,
    seed: opt.Seed = 0,
    agent: opt.Agent = "react",
    max_trials: opt.MaxTrials = 3,
    after_failure: opt.AfterFailure = "history",
    reuse_checks: opt.ReuseChecks = False,
    show_utility: opt.ShowUtility = True,
    one_action: opt.OneAction = False,
    max_steps: opt.MaxSteps = 5,
    max_tokens: opt.MaxTokens = 16000,
    max_new_tokens: opt.MaxNewTokens = 384,
    temperature: opt.Temperature = 0.0,
    embedder: opt.Embedder = "minilm",
    conditions: opt.Conditions = True,
    epochs: opt.Epochs = 1,
    after_malformed: opt.AfterMalformed = False,
    scope: opt.Scope = DEFAULT_SCOPE,
    read_scope: opt.ReadScope = None,
    out: opt.Out = Path("runs/train"),
    resume: opt.Resume = False,
    cache: opt.Cache = None,
    data_dir: opt.DataDir = None,
    unsafe_no_sandbox: opt.Unsafe = False,
    quiet: opt.Quiet = False,
) -> None:
    """Train the DQN selector on the training split; the store is read-only here."""
    if checkpoint is None:
        raise ConfigError("give --checkpoint PATH to save the trained selector to")
    _refuse_writing_over(checkpoint, store)
    _run_stage("train", dict(locals()))


_CHECKPOINT_MAGIC = b"PK\x03\x04"
"""A selector checkpoint is a torch archive (a zip file); any other file at --checkpoint is not one."""


def _refuse_writing_over(checkpoint: Path, store: Path | str) -> None:
    """Training ends by writing the checkpoint; it may replace an older checkpoint, never anything else.

    Checked before any task runs, so a typo (`--checkpoint memory.sqlite`) costs one line, not a store.
    """
    if checkpoint.is_dir():
        raise ConfigError(f"--checkpoint {checkpoint} is a folder; give the path of a checkpoint file")
    if not checkpoint.exists():
        return
    if not is_postgres_url(store) and Path(store).exists() and checkpoint.samefile(store):
        raise ConfigError(f"--checkpoint {checkpoint} is the memory store itself; give another path")
    with open(checkpoint, "rb") as handle:
        head = handle.read(len(_CHECKPOINT_MAGIC))
    if head != _CHECKPOINT_MAGIC:
        raise ConfigError(
            f"--checkpoint {checkpoint} exists and is not a selector checkpoint; training would write over "
            "it, so give a new path (or remove the file yourself)"
        )


@friendly_errors
def evaluate(
    ctx: typer.Context,
    store: opt.Store,
    checkpoint: opt.Checkpoint = None,
    selector: opt.SelectorKind = "dqn",
    domain: opt.Domain = None,
    benchmark: opt.BenchmarkName = None,
    backbone: opt.Backbone = "local",
    model: opt.Model = None,
    base_url: opt.BaseUrl = None,
    api_key: opt.ApiKey = None,
    request_timeout: opt.RequestTimeout = None,
    limit: opt.Limit = None,
    split_seed: opt.SplitSeed = 0,
    split_by_environment: opt.SplitByEnv = True,
    seed: opt.Seed = 0,
    agent: opt.Agent = "react",
    max_trials: opt.MaxTrials = 3,
    after_failure: opt.AfterFailure = "history",
    reuse_checks: opt.ReuseChecks = False,
    show_utility: opt.ShowUtility = True,
    one_action: opt.OneAction = False,
    max_steps: opt.MaxSteps = 5,
    max_tokens: opt.MaxTokens = 16000,
    max_new_tokens: opt.MaxNewTokens = 384,
    temperature: opt.Temperature = 0.0,
    embedder: opt.Embedder = "minilm",
    conditions: opt.Conditions = True,
    trained: TrainedRun = None,
    after_malformed: opt.AfterMalformed = False,
    scope: opt.Scope = DEFAULT_SCOPE,
    read_scope: opt.ReadScope = None,
    out: opt.Out = Path("runs/evaluate"),
    resume: opt.Resume = False,
    cache: opt.Cache = None,
    data_dir: opt.DataDir = None,
    unsafe_no_sandbox: opt.Unsafe = False,
    quiet: opt.Quiet = False,
) -> None:
    """Evaluate on held-out tasks with the store and selector frozen (greedy)."""
    _run_stage("evaluate", dict(locals()))
