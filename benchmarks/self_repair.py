"""How much of a model's headroom the check result alone already gives it (issue 24).

Run: .venv/bin/python benchmarks/self_repair.py RUN [RUN ...] [--common] [--json OUT]

Each RUN is a run folder of `countermem run` (no memory). Its tasks are classified from their
transcripts (`countermem.experiment._self_repair`): solved at the first check, failed and then
repaired by the agent itself from the check result, never solved, or never checked. A content
record can rescue only a never-solved task; a self-repaired one it can at best make cheaper. One
row per run: model, tasks, the four classes, the share of first failures the agent repaired
alone, and tokens per task of each class. `--common` keeps only the tasks every run finished, so
runs stopped early compare on the same tasks. No model and no checker runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from countermem.experiment._self_repair import REPAIR_CLASSES, TaskRepair, repair_table, run_repairs


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
    args = parser.parse_args()
    per_run: dict[Path, list[TaskRepair]] = {}
    for run in args.runs:
        try:
            per_run[run] = run_repairs(run)
        except FileNotFoundError as error:
            sys.exit(str(error))
    if args.common:
        common = set.intersection(*({t.task_id for t in tasks} for tasks in per_run.values()))
        per_run = {run: [t for t in tasks if t.task_id in common] for run, tasks in per_run.items()}
    header = ["run", "tasks", *REPAIR_CLASSES, "repaired alone / first failures", "tokens per task by class"]
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
            tokens,
        ]
        print(" | ".join(cells))
    if args.json is not None:
        with args.json.open("w") as handle:
            for run, tasks in per_run.items():
                for task in tasks:
                    handle.write(json.dumps({"run": str(run), **task.model_dump()}) + "\n")


if __name__ == "__main__":
    main()
