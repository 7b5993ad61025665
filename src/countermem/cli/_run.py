"""`countermem run`, `construct`, `train` and `evaluate`: agents over a benchmark, into a run directory."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, get_args

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from countermem.agents import TaskOutcome
from countermem.cli import _options as opt
from countermem.cli._common import (
    ProgressLines,
    console,
    eta,
    format_duration,
    friendly_errors,
    plain_progress,
    resume_hint_on_interrupt,
)
from countermem.core import ConfigError, Task
from countermem.domains import Benchmark, BenchmarkOptions, benchmark_names, load_benchmark
from countermem.experiment import RunConfig, RunDir, oracle_script, run_tasks, select_tasks
from countermem.experiment._metrics import RunMetrics, format_per_solved
from countermem.experiment._runner import DEFAULT_MODELS, ProgressCallback, SplitName
from countermem.llm import DEFAULT_REQUEST_TIMEOUT_S, LLM

DEFAULT_BENCHMARK = {
    "sql": "spider",
    "math": "gsm8k",
    "coding": "humaneval",
    "fv": "coq-basics",
    "smt": "smt-encode",
    "sat": "satlib",
}
BACKBONES = ("local", "openai", "scripted", "simulated")
SPLITS: tuple[str, ...] = get_args(SplitName)
SplitOption = Annotated[str, typer.Option(help="all | construct | train | heldout (the stage splits of the benchmark)")]


@dataclass(frozen=True)
class Prepared:
    benchmark: Benchmark
    config: RunConfig
    tasks: list[Task]
    llm: LLM

    @property
    def simulated(self) -> bool:
        return self.config.backbone == "simulated"


def prepare(
    *,
    domain: str | None,
    benchmark: str | None,
    backbone: str,
    model: str | None,
    base_url: str | None,
    api_key: str | None,
    limit: int | None,
    split: str,
    split_seed: int,
    split_by_environment: bool,
    seed: int,
    agent: str,
    max_trials: int,
    max_steps: int,
    max_tokens: int,
    max_new_tokens: int,
    temperature: float,
    cache: Path | None,
    data_dir: Path | None,
    unsafe_no_sandbox: bool,
    out: Path,
    resume: bool,
    run_config: Callable[[RunConfig], RunConfig] | None = None,
    request_timeout: float | None = None,
    after_failure: str = "history",
    reuse_checks: bool = False,
    show_utility: bool = True,
    one_action: bool = False,
) -> Prepared:
    """Load the benchmark, pick the tasks and build the LLM; every check a person would want first.

    The run directory is checked (and created) before the model is built, since loading a model
    takes seconds to minutes; `run_config` turns the config into the one the run directory will
    record (a stage adds its memory settings), so that a resume with other flags is refused early too.
    """
    from countermem.experiment import simulated_llm_for
    from countermem.llm import make_llm

    name = benchmark_name(domain, benchmark)
    if backbone not in BACKBONES:
        raise ConfigError(f"unknown backbone {backbone!r}; choose one of {', '.join(BACKBONES)}")
    if agent not in ("react", "reflexion"):
        raise ConfigError(f"unknown agent {agent!r}; choose react or reflexion")
    if after_failure not in ("history", "focused"):
        raise ConfigError(f"unknown --after-failure {after_failure!r}; choose history or focused")
    if split not in SPLITS:
        raise ConfigError(f"unknown --split {split!r}; choose one of {', '.join(SPLITS)}")
    check_request_timeout(backbone, request_timeout)
    bench = load_benchmark(name, BenchmarkOptions(data_dir=data_dir, unsafe_no_sandbox=unsafe_no_sandbox))
    availability = bench.availability()
    if not availability.available:
        raise ConfigError(f"benchmark {name!r} is not available: {availability.reason}")
    model_name = model or DEFAULT_MODELS.get(backbone, "")
    config = RunConfig(
        benchmark=name, backbone=backbone, model=model_name, base_url=base_url, split=split,
        split_seed=split_seed, split_by_environment=split_by_environment, limit=limit, seed=seed,
        agent=agent, max_trials=max_trials, after_failure=after_failure, reuse_checks=reuse_checks,
        show_utility=show_utility, one_action=one_action,
        max_steps=max_steps, max_tokens=max_tokens, max_new_tokens=max_new_tokens,
        temperature=temperature, unsafe_no_sandbox=unsafe_no_sandbox,
    )
    tasks = select_tasks(bench, config)
    if not tasks:
        raise ConfigError(f"no tasks selected from {name!r} (split {split}, limit {limit})")
    RunDir(out).check(run_config(config) if run_config else config, resume=resume)
    llm: LLM
    if backbone == "simulated":
        llm = simulated_llm_for(bench, bench.tasks(), seed=seed)
    else:
        script = oracle_script(bench, tasks) if backbone == "scripted" else None
        llm = make_llm(
            backbone, model=model_name or None, base_url=base_url, api_key=api_key, cache_path=None,
            script=script, seed=seed, timeout_s=request_timeout or DEFAULT_REQUEST_TIMEOUT_S,
        )
    if cache is not None:
        from countermem.llm import CachedLLM

        llm = CachedLLM(llm, cache)
    label = " [yellow](SIMULATED backbone: a test bed, not a result about LLMs)[/yellow]" if backbone == "simulated" else ""
    console.print(
        f"{len(tasks)} tasks of [cyan]{name}[/cyan] ({split} split) with {agent} on {backbone} "
        f"[cyan]{model_name or llm.name}[/cyan]{label}"
    )
    return Prepared(benchmark=bench, config=config, tasks=tasks, llm=llm)


@contextmanager
def progress_bar(total: int, quiet: bool = False) -> Iterator[ProgressCallback]:
    """A live bar on a terminal; plain lines per finished task elsewhere (a log, CI); nothing if quiet."""
    solved = 0
    if plain_progress(quiet):
        lines = ProgressLines()

        def on_line(outcome: TaskOutcome, done: int, total_: int) -> None:
            nonlocal solved
            solved += int(outcome.solved)
            elapsed = lines.elapsed()
            lines.print(
                "run", f"{done}/{total_} tasks, solved {solved}, {format_duration(elapsed)} elapsed, "
                f"ETA {eta(elapsed, done, total_)}", final=done >= total_,
            )

        yield on_line
        return
    if quiet or not console.is_terminal:
        yield lambda outcome, done, total_: None
        return
    with Progress(
        TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("solved {task.fields[solved]}"), TimeElapsedColumn(), console=console,
    ) as progress:
        bar = progress.add_task("tasks", total=total, solved=0)

        def on_done(outcome: TaskOutcome, done: int, total_: int) -> None:
            nonlocal solved
            solved += int(outcome.solved)
            progress.update(bar, completed=done, total=total_, solved=solved)

        yield on_done


def print_metrics(metrics: RunMetrics, out: Path) -> None:
    tokens = metrics.task_run_tokens
    rows = [
        ("success", f"{metrics.success:.1f} ({metrics.n_solved}/{metrics.n_tasks})"),
        (
            "task-run tokens",
            f"{tokens.total} (reasoning {tokens.reasoning}, retrieval {tokens.retrieval}, "
            f"augmentation {tokens.augmentation}); model usage: prompt {metrics.usage.prompt_tokens}, "
            f"completion {metrics.usage.completion_tokens}, reasoning {metrics.usage.reasoning_tokens}"
            + ("" if metrics.usage.known else f" (lower bounds: {metrics.usage.unknown_calls} call(s) of unknown usage)"),
        ),
        ("evaluator calls per solved task", format_per_solved(metrics.evaluator_calls_per_solved)),
        ("failed attempts per solved task", format_per_solved(metrics.failed_attempts_per_solved)),
        ("run directory", f"{out} (metrics.json, report.md)"),
    ]
    for label, value in rows:
        console.print(f"{label + ':':34}{value}")


@friendly_errors
def run(
    ctx: typer.Context,
    domain: opt.Domain = None,
    benchmark: opt.BenchmarkName = None,
    backbone: opt.Backbone = "local",
    model: opt.Model = None,
    base_url: opt.BaseUrl = None,
    api_key: opt.ApiKey = None,
    request_timeout: opt.RequestTimeout = None,
    limit: opt.Limit = None,
    split: SplitOption = "all",
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
    out: opt.Out = Path("runs/latest"),
    resume: opt.Resume = False,
    cache: opt.Cache = None,
    data_dir: opt.DataDir = None,
    unsafe_no_sandbox: opt.Unsafe = False,
    quiet: opt.Quiet = False,
) -> None:
    """Run an agent (no memory) on a benchmark and print its measures."""
    with resume_hint_on_interrupt(ctx):
        prepared = prepare(
            domain=domain, benchmark=benchmark, backbone=backbone, model=model, base_url=base_url,
            api_key=api_key, limit=limit, split=split, split_seed=split_seed,
            split_by_environment=split_by_environment, seed=seed, agent=agent, max_trials=max_trials,
            after_failure=after_failure, reuse_checks=reuse_checks, show_utility=show_utility, one_action=one_action,
            max_steps=max_steps, max_tokens=max_tokens, max_new_tokens=max_new_tokens,
            temperature=temperature, cache=cache, data_dir=data_dir, unsafe_no_sandbox=unsafe_no_sandbox,
            out=out, resume=resume, request_timeout=request_timeout,
        )
        with progress_bar(len(prepared.tasks), quiet) as on_done:
            metrics = run_tasks(
                prepared.config, prepared.llm, prepared.benchmark, prepared.tasks, RunDir(out),
                resume=resume, on_task_done=on_done, simulated=prepared.simulated,
            )
    print_metrics(metrics, out)


def check_request_timeout(backbone: str, request_timeout: float | None) -> None:
    if request_timeout is not None and backbone != "openai":
        raise ConfigError(
            f"--request-timeout bounds requests to a model server (the openai backbone); the {backbone} "
            "backbone sends none, so leave it out"
        )


def benchmark_name(domain: str | None, benchmark: str | None) -> str:
    if benchmark:
        return benchmark
    if domain is None:
        raise ConfigError("give --benchmark NAME or --domain DOMAIN")
    if domain not in DEFAULT_BENCHMARK:
        raise ConfigError(f"unknown domain {domain!r}; choose one of {', '.join(DEFAULT_BENCHMARK)}")
    default = DEFAULT_BENCHMARK[domain]
    if default not in benchmark_names(domain):
        raise ConfigError(f"default benchmark {default!r} is not registered for {domain!r}")
    return default


