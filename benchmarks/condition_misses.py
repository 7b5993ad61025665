"""Why records did not reach the tasks the agent alone failed: each condition's missing atoms (issue 24).

Run: .venv/bin/python benchmarks/condition_misses.py STUDY --benchmark NAME [--family verified]
     [--seed N] [--condition heldout|look-alike|original-environment] [--show N] [--json OUT]
     [--rederive check-error-atoms|check-error-situation|stored]

For the `none` run of STUDY (the held-out run in `results/`, or a transfer condition's), every task
it failed is replayed from its transcript, decision by decision (the first, and after each checked
action), and every live content record of the method family's store is evaluated there
(`countermem.experiment._condition_misses`). Printed: how many failures some record's condition
reached (and how many of the tasks it solved, where a record could break one), how many were one
atom away (and what that atom reads: the task's facts or the action's), how many further, the
error kind of each failure's last check (`Benchmark.error_kind`); then, for up to --show near
misses, the task, the record and the atom.
With --rederive, every record's condition is first derived again from its own failed action, check
and correction as construction would with the study's generator settings (`stored`: as they are,
a check of the tool) or with `check_error_atoms` on (and `check_error_situation`): what those
conditions would have reached on the same failures (the agent's trajectories would change once
records are shown; this counts where they could first fire). No model and no checker runs; the
domain's facts are recomputed from the saved actions.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from countermem.core import Task
from countermem.domains import load_benchmark
from countermem.experiment._condition_misses import content_records, miss_table, rederived, task_misses
from countermem.experiment._rundir import read_transcript, safe_name
from countermem.experiment._stages import condition_context
from countermem.experiment._study_analyses import condition_root
from countermem.experiment._study_config import StudyConfig
from countermem.experiment._study_plan import cell_tasks
from countermem.memory import SQLiteStore

CONDITIONS = ("heldout", "look-alike", "original-environment", "new-environment")


def _none_run(root: Path, benchmark: str, seed: int, condition: str) -> Path:
    runs = []
    for backbone in sorted(p.name for p in (root / "results").glob("*") if p.is_dir()):
        none = condition_root(root, backbone, condition) / "none"
        runs += [run for run in sorted(none.glob(f"*/{benchmark}/seed-{seed}")) if (run / "results.jsonl").is_file()]
    if len(runs) != 1:
        sys.exit(f"{len(runs)} none runs of {benchmark} seed {seed} under {condition}; name --seed or --condition so "
                 "that one does")
    return runs[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("study", type=Path)
    parser.add_argument("--benchmark", required=True)
    parser.add_argument("--family", default="verified", help="the store's method family (work/.../<family>/)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--condition", default="heldout", choices=CONDITIONS)
    parser.add_argument("--show", type=int, default=10)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--rederive", choices=("check-error-atoms", "check-error-situation", "stored"), default=None)
    args = parser.parse_args()
    root: Path = args.study
    none_run = _none_run(root, args.benchmark, args.seed, args.condition)
    stores = sorted(root.glob(f"work/*/*/{args.benchmark}/seed-{args.seed}/{args.family}/store.sqlite"))
    if len(stores) != 1:
        sys.exit(f"{len(stores)} stores match work/*/*/{args.benchmark}/seed-{args.seed}/{args.family}/store.sqlite")
    with SQLiteStore(stores[0], read_only=True) as store:
        records = content_records(store.all())
    loaded = load_benchmark(args.benchmark)
    tasks: dict[str, Task] = {t.id: t for t in loaded.tasks()}
    manifest = root / "manifest.json"
    if not manifest.is_file():
        sys.exit(f"{root} has no manifest.json: not a study folder of `countermem study`")
    config = StudyConfig.model_validate(json.loads(manifest.read_text())["config"])
    cell = cell_tasks(loaded, config, args.seed)
    tasks.update({t.id: t for t in cell.all()})
    if args.rederive is not None:
        generator = config.memory.generator.settings()
        if args.rederive != "stored":
            generator = generator.model_copy(update={
                "check_error_atoms": True, "check_error_situation": args.rederive == "check-error-situation"})
        context = condition_context(loaded, cell.construct, generator)
        records = [rederived(r, tasks[r.source.task_id], context) for r in records]
    rows, solved = [], []
    kinds: Counter[str] = Counter()
    for line in (none_run / "results.jsonl").read_text().splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        task = tasks.get(row["task_id"])
        if task is None:
            sys.exit(f"task {row['task_id']} of {none_run} is not in {args.benchmark} or the study's cell")
        events = list(read_transcript(none_run / "transcripts" / f"{safe_name(task.id)}.jsonl"))
        misses = task_misses(task, events, records, loaded.facts, loaded.error_kind, loaded.salvage)
        (solved if row["solved"] else rows).append(misses)
        if not row["solved"]:
            last = [e.result for e in events if e.kind in ("check", "submit") and e.result is not None]
            kinds[(loaded.error_kind(last[-1]) if last else None) or "no check"] += 1
    table = miss_table(rows, len(records))
    print(f"{none_run.relative_to(root)}: {table.failures} failed tasks, {table.records} live content records "
          f"({stores[0].relative_to(root)})")
    print(f"a condition held at some decision: {table.reached}; one atom away: {table.one_atom}; further or no "
          f"record: {table.further}")
    print(f"of the {len(solved)} tasks it solved, a condition held at some decision on "
          f"{sum(1 for r in solved if r.distance == 0)} (where a record shown could break it)")
    print(f"the failures' last check, by error kind: {dict(kinds.most_common())}")
    print(f"near misses' atoms by side: {table.one_atom_sides}; by fact: {table.one_atom_facts}")
    by_id = {r.id: r for r in records}
    for miss in [r for r in rows if r.distance == 1][: args.show]:
        for near in miss.nearest:
            record = by_id[near.record_id]
            print(f"- {miss.task_id} (decision {near.decision} of {miss.decisions}): record {record.id} "
                  f"[{record.condition}] misses {near.missing[0].atom} ({near.missing[0].side})")
    if args.json is not None:
        args.json.write_text(json.dumps({"table": table.model_dump(), "tasks": [r.model_dump() for r in rows]},
                                        indent=1))


if __name__ == "__main__":
    main()
