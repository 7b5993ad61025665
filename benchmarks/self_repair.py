"""How much of a model's headroom the check result alone already gives it (issue 24).

Run: .venv/bin/python benchmarks/self_repair.py RUN [RUN ...] [--common] [--json OUT] [--pair]

Each RUN is a run folder of `countermem run` (no memory). Its tasks are classified from their
transcripts (`countermem.experiment._self_repair`): solved at the first check, failed and then
repaired by the agent itself from the check result, never solved, or never checked. A content
record can rescue only a never-solved task; a self-repaired one it can at best make cheaper. One
row per run: model, tasks, the four classes, the share of first failures the agent repaired
alone, how many of the never-solved tasks' checks sent an action checked before in the task
(the agent repeating itself instead of editing), how many of all checks `--reuse-checks` would
answer without the world model (repeats, in one trial, of a check that completed), and tokens per
task of each class. `--common` keeps only the tasks every run finished, so
runs stopped early compare on the same tasks. `--failures` counts how checks failed (status, and an
error's message head without names, e.g. `error: no such column`): at the first check, and over
the never-solved tasks. `--pair` (two runs of one agent on the same tasks,
differing in one setting, e.g. `--after-failure history` then `focused`) also prints the paired
comparison: tasks the second solves and the first does not (rescued) and the reverse (broken),
McNemar p, a paired bootstrap 95% interval, and task-run tokens per task and per solved task.
No model and no checker runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from countermem.experiment._self_repair import (
    REPAIR_CLASSES,
    TaskRepair,
    compare_runs,
    failure_counts,
    repair_table,
    run_repairs,
)
from countermem.experiment._significance import format_test


def _model(run: Path) -> str:
    try:
        config = json.loads((run / "manifest.json").read_text())["config"]
    except (OSError, KeyError, ValueError):
        return "?"
    return f"{config.get('model')} on {config.get('benchmark')} ({config.get('split')})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", type=Path, nargs="+")
    parser.add_argument("--common", action="store_true", help="only the tasks every run has a transcript of")
    parser.add_argument("--json", type=Path, default=None, help="write every task's class here (JSON lines)")
    parser.add_argument("--failures", action="store_true", help="also count how the checks failed, per run")
    parser.add_argument("--pair", action="store_true", help="two runs: the paired comparison of the second against the first")
    args = parser.parse_args()
    if args.pair and len(args.runs) != 2:
        sys.exit(f"--pair compares exactly two runs, got {len(args.runs)}")
    per_run: dict[Path, list[TaskRepair]] = {}
    for run in args.runs:
        try:
            per_run[run] = run_repairs(run)
        except FileNotFoundError as error:
            sys.exit(str(error))
    if args.common:
        common = set.intersection(*({t.task_id for t in tasks} for tasks in per_run.values()))
        per_run = {run: [t for t in tasks if t.task_id in common] for run, tasks in per_run.items()}
    header = ["run", "tasks", *REPAIR_CLASSES, "repaired alone / first failures", "never solved: repeated / checks",
              "checks reuse_checks saves / all checks", "tokens per task by class"]
    print(" | ".join(header))
    for run, tasks in per_run.items():
        table = repair_table(tasks)
        share = table.self_repair_share
        tokens = ", ".join(
            f"{c} {table.tokens[c] / table.counts[c]:,.0f}" for c in REPAIR_CLASSES if table.counts[c]
        )
        cells = [
            f"{run} ({_model(run)})", str(table.tasks), *(str(table.counts[c]) for c in REPAIR_CLASSES),
            f"{table.counts['self_repaired']}/{table.first_failures}" + ("" if share is None else f" ({share:.0%})"),
            f"{table.repeated['never_solved']}/{table.checks['never_solved']}",
            _saved(tasks),
            tokens,
        ]
        print(" | ".join(cells))
    if args.failures:
        for run, tasks in per_run.items():
            first, never = failure_counts(tasks)
            print()
            print(f"{run}: first checks that failed: {_counts(first)}")
            print(f"{run}: checks of never-solved tasks: {_counts(never)}")
    if args.pair:
        _print_pair(args.runs[0], args.runs[1])
    if args.json is not None:
        with args.json.open("w") as handle:
            for run, tasks in per_run.items():
                for task in tasks:
                    handle.write(json.dumps({"run": str(run), **task.model_dump()}) + "\n")


def _saved(tasks: list[TaskRepair]) -> str:
    saved, checks = sum(t.reusable for t in tasks), sum(t.checks for t in tasks)
    return f"{saved}/{checks}" + (f" ({saved / checks:.0%})" if checks else "")


def _counts(counter: Counter[str]) -> str:
    return ", ".join(f"{kind} {count}" for kind, count in counter.most_common()) or "-"


def _print_pair(first: Path, second: Path) -> None:
    try:
        pair = compare_runs(first, second)
    except (FileNotFoundError, ValueError) as error:
        sys.exit(str(error))
    p, interval = format_test(pair.test)
    n = pair.tasks

    def tokens(total: int, solved: int) -> str:
        return f"{total / n:,.0f} per task, " + (f"{total / solved:,.0f} per solved" if solved else "no task solved")

    print()
    print(f"paired on {n} tasks: {first} solved {pair.solved_first}, {second} solved {pair.solved_second}")
    print(f"rescued {pair.test.rescued} / broken {pair.test.broken}, McNemar p = {p}, 95% CI {interval} pp")
    print(f"task-run tokens: first {tokens(pair.tokens_first, pair.solved_first)}; "
          f"second {tokens(pair.tokens_second, pair.solved_second)} "
          f"({100 * (pair.tokens_second - pair.tokens_first) / max(1, pair.tokens_first):+.1f}% per task)")
    print(f"rescued: {', '.join(pair.rescued_ids) or '-'}")
    print(f"broken: {', '.join(pair.broken_ids) or '-'}")


if __name__ == "__main__":
    main()
