"""Admitted records per failure, per benchmark and backbone; generator tokens and seconds per failure.

Run: .venv/bin/python benchmarks/admission_rate.py [--tasks N] [--only NAME ...]
         [--agent-model qwen2.5-coder-0.5b] [--generator-model qwen2.5-coder-1.5b]
         [--strategy sampled|batch] [--samples 4] [--failures-per-task N] [--threads N]
         [--out runs/admission-rate]

The agent (ReAct, greedy) runs on the first N tasks of each benchmark's source (construct) split
without advice; every failed check, failed submission and, with --after-malformed, malformed
answer (counted apart in the last column) goes through Module I (the generator,
with its own model when --generator-model is given) and Module II (verification from the state
before the failed action, then admission). Each benchmark writes a construct run directory
under --out (admissions.jsonl says why each alternative was or was not admitted) and the
script prints one row per benchmark and writes admission_rate.json and admission_rate.md there.
Both models' replies are cached under --out, so a rerun with another generator replays the
agent's trajectories. A benchmark whose data or checker is missing is listed with the reason.
The summary is rewritten after every benchmark; a rerun with the same settings skips the
benchmarks already measured and starts an interrupted one again (its replies come from the cache).
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from pathlib import Path

import torch

from countermem.core import CountermemError
from countermem.domains import BenchmarkOptions, benchmark_names, load_benchmark
from countermem.experiment import RunConfig, RunDir, select_tasks
from countermem.experiment._stages import MemorySettings, construct_memory
from countermem.llm import LLM, CachedLLM, make_llm
from countermem.memory import GeneratorSettings


def _llm(model: str, cache: Path, seed: int, threads: int | None) -> LLM:
    cache.parent.mkdir(parents=True, exist_ok=True)
    return CachedLLM(make_llm("local", model=model, seed=seed, n_threads=threads), cache)


def _row(name: str, stage: dict[str, object], seconds: float) -> dict[str, object]:
    failures = int(stage["construction_failures_seen"])  # type: ignore[call-overload]
    admitted = int(stage["construction_admitted"])  # type: ignore[call-overload]
    usage = stage["generator_usage"]
    tokens = int(usage["prompt_tokens"]) + int(usage["completion_tokens"])  # type: ignore[index]
    learn_seconds = float(stage["construction_learn_seconds"])  # type: ignore[arg-type]
    return {
        "benchmark": name,
        "tasks": stage["n_tasks"],
        "failures": failures,
        "alternatives": stage["construction_alternatives"],
        "checks": stage["construction_world_model_calls"],
        "admitted": admitted,
        "malformed_failures": stage.get("construction_malformed_failures", 0),
        "malformed_admitted": stage.get("construction_malformed_admitted", 0),
        "form_repairs_admitted": stage.get("construction_form_repairs_admitted", 0),
        "admitted_per_failure": admitted / failures if failures else None,
        "generator_calls": stage["construction_generator_calls"],
        "generator_tokens_per_failure": tokens / failures if failures else None,
        "learn_seconds_per_failure": learn_seconds / failures if failures else None,
        "wall_seconds": round(seconds, 1),
    }


def _draws(value: str) -> bool | str:
    return {"true": True, "false": False}.get(value, value)


def _fmt(value: object, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=8)
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--agent-model", default="qwen2.5-coder-0.5b")
    parser.add_argument("--generator-model", default="")
    parser.add_argument("--strategy", choices=["sampled", "batch"], default="sampled")
    parser.add_argument("--samples", type=int, default=4)
    parser.add_argument("--after-malformed", action="store_true",
                        help="also learn from answers without an 'Action:' line")
    parser.add_argument("--malformed-draws", choices=["true", "false", "without_block"], default="true",
                        help="with --after-malformed: generator draws for malformed answers: always, never (form "
                             "repair only), or only when there is no block to repair")
    parser.add_argument("--failures-per-task", type=int, default=None,
                        help="learn from at most N failures of each task (default: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=None, help="llama.cpp threads (default: all cores)")
    parser.add_argument("--out", type=Path, default=Path("runs/admission-rate"))
    args = parser.parse_args()
    if args.tasks < 1:
        parser.error("--tasks must be at least 1")
    torch.set_num_threads(1)
    generator_model = args.generator_model or args.agent_model
    settings = (
        GeneratorSettings.batch() if args.strategy == "batch" else GeneratorSettings(samples=args.samples)
    ).model_copy(update={"failures_per_task": args.failures_per_task,
                         "malformed_draws": _draws(args.malformed_draws)})
    label = f"{args.agent_model}-agent_{generator_model}-gen_{args.strategy}"
    root = args.out / label
    agent = _llm(args.agent_model, args.out / "cache" / f"{args.agent_model}.sqlite", args.seed, args.threads)
    generator = agent if generator_model == args.agent_model else _llm(
        generator_model, args.out / "cache" / f"{generator_model}.sqlite", args.seed, args.threads
    )
    meta = {"agent_model": args.agent_model, "generator_model": generator_model, "strategy": args.strategy,
            "samples": args.samples, "tasks": args.tasks, "seed": args.seed}
    if args.failures_per_task is not None:
        meta["failures_per_task"] = args.failures_per_task
    if args.after_malformed:
        meta["after_malformed"] = True
    if args.malformed_draws != "true":
        if not args.after_malformed:
            parser.error("--malformed-draws only matters with --after-malformed")
        meta["malformed_draws"] = _draws(args.malformed_draws)
    done = _finished_rows(root, meta)
    print(f"agent {args.agent_model}, generator {generator_model} ({args.strategy}), {args.tasks} source tasks each")
    print(f"{'benchmark':14} {'tasks':>5} {'fail':>5} {'alts':>5} {'admit':>5} {'adm/fail':>8} "
          f"{'gen tok/fail':>12} {'s/fail':>7} {'malformed (adm, form)':>21}")
    for name in args.only or benchmark_names():
        if name in done:
            print(_line(done[name]) + "  (measured before)")
            continue
        shutil.rmtree(root / name, ignore_errors=True)  # an unfinished attempt starts again
        try:
            bench = load_benchmark(name, BenchmarkOptions())
            availability = bench.availability()
            if not availability.available:
                raise CountermemError(availability.reason)
            config = RunConfig(
                benchmark=name, backbone="local", model=args.agent_model, split="construct", limit=args.tasks,
                seed=args.seed, stage="construct",
            )
            tasks = select_tasks(bench, config)
            memory = MemorySettings(store=root / name / "store.sqlite", generator=settings, embedder="lexical",
                                    seed=args.seed, generator_model=generator_model,
                                    after_malformed=args.after_malformed)
            started = time.perf_counter()
            result = construct_memory(config, memory, agent, bench, tasks, RunDir(root / name / "construct"),
                                      generator_llm=generator)
            row = _row(name, result.report.model_dump(mode="json"), time.perf_counter() - started)
        except CountermemError as error:
            row = {"benchmark": name, "unavailable": str(error)}
        done[name] = row
        print(_line(row), flush=True)
        _write_summary(root, meta, done)  # after every benchmark, so an interruption loses none
    rows = [done[name] for name in benchmark_names() if name in done]
    with_records = sum(1 for r in rows if (admitted := r.get("admitted")) is not None and int(str(admitted)) > 0)
    measured = sum(1 for r in rows if "unavailable" not in r)
    print(f"benchmarks with at least one admitted record: {with_records} of {measured} measured; table in {root}")


def _line(row: dict[str, object]) -> str:
    if "unavailable" in row:
        return f"{row['benchmark']:14} unavailable: {row['unavailable']}"
    return (
        f"{row['benchmark']:14} {row['tasks']:>5} {row['failures']:>5} {row['alternatives']:>5} {row['admitted']:>5} "
        f"{_fmt(row['admitted_per_failure'], '.2f'):>8} {_fmt(row['generator_tokens_per_failure'], '.0f'):>12} "
        f"{_fmt(row['learn_seconds_per_failure'], '.1f'):>7} {_malformed(row):>21}"
    )


def _malformed(row: dict[str, object]) -> str:
    """Malformed-answer failures, records admitted from them and, of those, form repairs; '-' for rows
    measured before they counted."""
    if "malformed_failures" not in row:
        return "-"
    repairs = f", {row['form_repairs_admitted']} form" if "form_repairs_admitted" in row else ""
    return f"{row['malformed_failures']} ({row['malformed_admitted']}{repairs})"


def _finished_rows(root: Path, meta: dict[str, object]) -> dict[str, dict[str, object]]:
    """Rows an earlier invocation measured with the same settings; other settings are refused."""
    path = root / "admission_rate.json"
    if not path.is_file():
        return {}
    previous = json.loads(path.read_text())
    keys = (meta.keys() | previous.keys()) - {"rows"}  # a setting only one side names differs too
    differing = {k: (previous.get(k), meta.get(k)) for k in sorted(keys) if previous.get(k) != meta.get(k)}
    if differing:
        raise SystemExit(f"{path} was measured with other settings ({differing}); choose another --out")
    return {str(row["benchmark"]): row for row in previous["rows"] if "unavailable" not in row}


def _write_summary(root: Path, meta: dict[str, object], done: dict[str, dict[str, object]]) -> None:
    rows = [done[name] for name in benchmark_names() if name in done]
    root.mkdir(parents=True, exist_ok=True)
    (root / "admission_rate.json").write_text(json.dumps({**meta, "rows": rows}, indent=2) + "\n")
    lines = [f"# Admission rate: agent {meta['agent_model']}, generator {meta['generator_model']} "
             f"({meta['strategy']}, {meta['samples']} samples), first {meta['tasks']} source tasks"
             + (f", at most {meta['failures_per_task']} failures per task" if "failures_per_task" in meta else "")
             + (", malformed answers learned from" if meta.get("after_malformed") else "")
             + {False: " (form repairs only, no generator draws)",
                "without_block": " (generator draws only when there is no block to repair)"}.get(
                 meta.get("malformed_draws"), ""), "",
             "| benchmark | tasks | failures | alternatives | admitted | admitted/failure | gen tokens/failure | s/failure "
             "| malformed failures (admitted, of them form repairs) |",
             "|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        if "unavailable" in row:
            lines.append(f"| {row['benchmark']} | unavailable: {row['unavailable']} ||||||||")
            continue
        lines.append(
            f"| {row['benchmark']} | {row['tasks']} | {row['failures']} | {row['alternatives']} | {row['admitted']} | "
            f"{_fmt(row['admitted_per_failure'], '.2f')} | {_fmt(row['generator_tokens_per_failure'], '.0f')} | "
            f"{_fmt(row['learn_seconds_per_failure'], '.1f')} | {_malformed(row)} |"
        )
    (root / "admission_rate.md").write_text("\n".join(lines) + "\n")

if __name__ == "__main__":
    main()
