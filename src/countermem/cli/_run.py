"""`countermem run`: one agent over one benchmark, into a run directory."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from countermem.agents import TaskOutcome
from countermem.cli._common import console, friendly_errors
from countermem.core import ConfigError
from countermem.domains import BenchmarkOptions, benchmark_names, load_benchmark
from countermem.experiment import RunConfig, RunDir, oracle_script, run_tasks, select_tasks
from countermem.experiment._metrics import format_per_solved

DEFAULT_BENCHMARK = {
    "sql": "spider",
    "math": "gsm8k",
    "coding": "humaneval",
    "fv": "coq-basics",
    "smt": "smt-encode",
    "sat": "satlib",
}
BACKBONES = ("local", "openai", "scripted")


@friendly_errors
def run(
    domain: Annotated[str | None, typer.Option(help="sql, math, coding, fv, smt or sat")] = None,
    benchmark: Annotated[str | None, typer.Option(help="a benchmark name; see `countermem benchmarks`")] = None,
    backbone: Annotated[str, typer.Option(help="local | openai | scripted")] = "local",
    model: Annotated[str | None, typer.Option(help="model name (local registry name or server model)")] = None,
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1")] = None,
    api_key: Annotated[str | None, typer.Option(help="API key (or $COUNTERMEM_API_KEY / $OPENAI_API_KEY)")] = None,
    limit: Annotated[int | None, typer.Option(help="run at most this many tasks")] = None,
    split: Annotated[str, typer.Option(help="all | construct | train | heldout")] = "all",
    split_seed: Annotated[int, typer.Option(help="seed of the split and of the task order")] = 0,
    seed: Annotated[int, typer.Option(help="sampling seed")] = 0,
    max_steps: Annotated[int, typer.Option(help="LLM turns per task")] = 5,
    max_tokens: Annotated[int, typer.Option(help="prompt+completion tokens per task")] = 16000,
    max_new_tokens: Annotated[int, typer.Option(help="tokens per LLM answer")] = 384,
    temperature: Annotated[float, typer.Option()] = 0.0,
    out: Annotated[Path, typer.Option(help="run directory")] = Path("runs/latest"),
    resume: Annotated[bool, typer.Option(help="continue a run in OUT, skipping finished tasks")] = False,
    cache: Annotated[Path | None, typer.Option(help="response cache file (SQLite) for reproducible reruns")] = None,
    data_dir: Annotated[Path | None, typer.Option(help="data root holding <benchmark>/SOURCE.md")] = None,
    unsafe_no_sandbox: Annotated[
        bool, typer.Option("--unsafe-no-sandbox", help="run model code without bubblewrap (logged)")
    ] = False,
) -> None:
    """Run a ReAct agent on a benchmark and print its measures."""
    from countermem.llm import make_llm

    name = _benchmark_name(domain, benchmark)
    if backbone not in BACKBONES:
        raise ConfigError(f"unknown backbone {backbone!r}; choose one of {', '.join(BACKBONES)}")
    bench = load_benchmark(
        name, BenchmarkOptions(data_dir=data_dir, unsafe_no_sandbox=unsafe_no_sandbox)
    )
    availability = bench.availability()
    if not availability.available:
        raise ConfigError(f"benchmark {name!r} is not available: {availability.reason}")
    model_name = model or {"local": "qwen2.5-coder-0.5b", "scripted": "oracle-script"}.get(backbone, "")
    config = RunConfig(
        benchmark=name, backbone=backbone, model=model_name, base_url=base_url, split=split,
        split_seed=split_seed, limit=limit, seed=seed, max_steps=max_steps, max_tokens=max_tokens,
        max_new_tokens=max_new_tokens, temperature=temperature, unsafe_no_sandbox=unsafe_no_sandbox,
    )
    tasks = select_tasks(bench, config)
    if not tasks:
        raise ConfigError(f"no tasks selected from {name!r} (split {split}, limit {limit})")
    script = oracle_script(bench, tasks) if backbone == "scripted" else None
    llm = make_llm(
        backbone, model=model_name or None, base_url=base_url, api_key=api_key, cache_path=cache,
        script=script, seed=seed,
    )
    console.print(
        f"[bold]countermem run[/bold]: {len(tasks)} tasks of [cyan]{name}[/cyan] with "
        f"{backbone} backbone [cyan]{model_name or llm.name}[/cyan] -> {out}"
    )
    solved = 0
    with Progress(
        TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("solved {task.fields[solved]}"), TimeElapsedColumn(), console=console,
    ) as progress:
        bar = progress.add_task("tasks", total=len(tasks), solved=0)

        def on_done(outcome: TaskOutcome, done: int, total: int) -> None:
            nonlocal solved
            solved += int(outcome.solved)
            progress.update(bar, completed=done, solved=solved)

        metrics = run_tasks(config, llm, bench, tasks, RunDir(out), resume=resume, on_task_done=on_done)
    tokens = metrics.task_run_tokens
    console.print(f"success:                          {metrics.success:.1f} ({metrics.n_solved}/{metrics.n_tasks})")
    console.print(
        f"task-run tokens:                  {tokens.total} (reasoning {tokens.reasoning}, "
        f"retrieval {tokens.retrieval}, augmentation {tokens.augmentation}); "
        f"usage prompt {metrics.usage.prompt_tokens}, completion {metrics.usage.completion_tokens}, "
        f"reasoning {metrics.usage.reasoning_tokens}"
    )
    console.print(f"evaluator calls per solved task:  {format_per_solved(metrics.evaluator_calls_per_solved)}")
    console.print(f"failed attempts per solved task:  {format_per_solved(metrics.failed_attempts_per_solved)}")
    console.print(f"run directory:                    {out} (metrics.json, report.md)")


def _benchmark_name(domain: str | None, benchmark: str | None) -> str:
    if benchmark:
        return benchmark
    if domain is None:
        raise ConfigError("give --benchmark NAME or --domain DOMAIN")
    if domain not in DEFAULT_BENCHMARK:
        raise ConfigError(f"unknown domain {domain!r}; choose one of {', '.join(DEFAULT_BENCHMARK)}")
    default = DEFAULT_BENCHMARK[domain]
    assert default in benchmark_names(domain)
    return default
