"""A method against `none`, paired per task and pooled over seeds and studies (issue 24).

Run: .venv/bin/python benchmarks/pooled_pairs.py SOURCE [SOURCE ...] --method countermem
     [--condition heldout|look-alike|original-environment] [--benchmark NAME] [--json OUT]
     [--against METHOD]  (pair with another arm of the same study instead of `none`, e.g. a peer)
     [--keep DIR]  (keep each pair found in a study folder as a small JSON entry, e.g. results/pairs)
     [--versus SOURCE ...]  (also pair the method's runs with the same method's runs of other studies
                             that replayed the same `none` run, e.g. a store from more source tasks)

Each SOURCE is a study folder of `countermem study`, or a kept pair (a `.json` entry written by
`--keep`; a folder without a manifest is read as a folder of them). For every run of `--method`
under the chosen condition (`heldout`: the study's `results/`; a transfer condition:
`analyses/<backbone>/transfer/<condition>/`), its `none` twin (same backbone, agent, benchmark and
seed) is found, the two are paired on the tasks both finished, and all pairs are pooled into one
test: each task of each pair is one pair of the test. Kept entries pool the same way, so a seed run
on a machine that is gone pools with one run here; two entries that pair the same tasks of one
seed (a `none` run replayed by two studies) are refused, since they would count each task twice.
Printed: one row per pair, then the pooled success of each arm, rescued / broken with McNemar p, a
paired bootstrap 95% interval, task-run tokens per task and per solved task, harmful use (per
selected record use, the share where the task ended worse than its no-memory twin), retrieval
coverage (per retrieval attempt, pooled) and reach: of the tasks `none` failed, how many had a
record used in the method's run and how many of those it solved (a rescue needs both; the same for
tasks `none` solved, where a use can break). A study that has not reached the condition yet is
named and skipped. With `--versus`, the method's runs of the SOURCEs are also paired with the same
method's runs of the `--versus` sources on the same cell, seed and condition (their `none` runs
must agree task by task, as a replayed run does), and that comparison is printed after the rest.
No model and no checker runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from countermem.core import ConfigError
from countermem.experiment._pair_ledger import (
    PairEntry,
    entry_from_runs,
    keep_entry,
    match_versus,
    pool_entries,
    pool_versus,
    read_entry,
)
from countermem.experiment._paired import PairedMeasures, pooled_reach
from countermem.experiment._self_repair import RunPair
from countermem.experiment._significance import format_test
from countermem.experiment._study_analyses import condition_root

CONDITIONS = ("heldout", "look-alike", "original-environment", "new-environment")


def find_pairs(
    study: Path, method: str, condition: str, benchmark: str | None, against: str = "none"
) -> list[tuple[Path, Path]]:
    """(baseline run, method run) for every run of `method` with an `against` twin in the study."""
    pairs = []
    backbones = sorted(p for p in (study / "results").glob("*") if p.is_dir()) if (study / "results").is_dir() else []
    for backbone in backbones:
        root = condition_root(study, backbone.name, condition)
        for run in sorted((root / method).glob("*/*/seed-*")):
            agent, bench, seed = run.relative_to(root / method).parts
            if benchmark is not None and bench != benchmark:
                continue
            twin = root / against / agent / bench / seed
            if (run / "results.jsonl").is_file() and (twin / "results.jsonl").is_file():
                pairs.append((twin, run))
    return pairs


def _tokens(total: int, tasks: int, solved: int) -> str:
    return f"{total / tasks:,.0f} per task, " + (f"{total / solved:,.0f} per solved" if solved else "none solved")


def _row(label: str, pair: RunPair, measures: PairedMeasures | None, *, with_use: bool = True) -> str:
    p, interval = format_test(pair.test)
    change = 100 * (pair.tokens_second - pair.tokens_first) / max(1, pair.tokens_first)
    row = (f"{label} | {pair.tasks} | {pair.solved_first} | {pair.solved_second} | "
           f"{pair.test.rescued} / {pair.test.broken} | {p} | {interval} | {change:+.1f}%")
    if not with_use:
        return row
    use = "n/a" if measures is None else f"{_rate(measures.harmful_uses, measures.selected_uses)} | {_coverage([measures])}"
    return f"{row} | {use}"


def _rate(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part / whole:.2f})" if whole else "no use"


def _coverage(measures: list[PairedMeasures]) -> str:
    attempts = sum(m.retrieval_attempts or 0 for m in measures)
    covered = sum((m.retrieval_coverage or 0.0) * (m.retrieval_attempts or 0) for m in measures)
    return f"{covered / attempts:.2f} of {attempts}" if attempts else "no retrieval"


def _entries(source: Path, args: argparse.Namespace) -> list[PairEntry]:
    """The pairs a source gives for the chosen method, condition, benchmark and arm; a study's are
    kept under `--keep` as they are read."""
    if source.is_file() or (source.is_dir() and not (source / "manifest.json").is_file() and any(source.glob("*.json"))):
        kept = [read_entry(source)] if source.is_file() else [read_entry(p) for p in sorted(source.glob("*.json"))]
        chosen = [e for e in kept if e.method == args.method and e.against == args.against
                  and e.condition == args.condition and args.benchmark in (None, e.benchmark)]
        if not chosen:
            print(f"{source}: no kept pair of {args.method} against {args.against} under {args.condition}; skipped")
        return chosen
    if not (source / "manifest.json").is_file():
        sys.exit(f"{source} is neither a study folder (no manifest.json) nor a kept pair (.json): give folders "
                 "written by `countermem study` or entries written by --keep")
    found = find_pairs(source, args.method, args.condition, args.benchmark, args.against)
    if not found:
        print(f"{source}: no finished {args.method} run with a {args.against} twin under {args.condition} yet; skipped")
    entries = [entry_from_runs(source, twin, run, condition=args.condition, against=args.against) for twin, run in found]
    if args.keep is not None:
        for entry in entries:
            path, status = keep_entry(entry, args.keep)
            print(f"kept {path} ({status})")
    return entries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", type=Path, nargs="+", help="study folders, kept pairs (.json) or folders of them")
    parser.add_argument("--method", required=True)
    parser.add_argument("--condition", default="heldout", choices=CONDITIONS)
    parser.add_argument("--benchmark", default=None)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--against", default="none",
                        help="the arm each run is paired with (another method of the same study, e.g. a peer)")
    parser.add_argument("--keep", type=Path, default=None,
                        help="write each pair read from a study folder here as a kept pair (e.g. results/pairs)")
    parser.add_argument("--versus", type=Path, nargs="+", default=[],
                        help="studies or kept pairs whose runs of the same method the sources' runs are paired with")
    args = parser.parse_args()
    base = args.against
    try:
        entries = [entry for source in args.sources for entry in _entries(source, args)]
        if not entries:
            sys.exit("no pair to compare")
        pooled = pool_entries(entries)
        others = [entry for source in args.versus for entry in _entries(source, args)]
        matched = match_versus(entries, others) if args.versus else []
    except ConfigError as error:
        sys.exit(str(error))
    print(f"pair ({base} -> method) | tasks | {base} solved | method solved | rescued / broken | McNemar p | 95% CI (pp) "
          "| tokens per task | harmful use | retrieval coverage")
    print("|".join(["---"] * 10))
    # harmful use, coverage and reach are measured against a run without memory only
    measures = [e.measures for e in entries if e.measures is not None]
    for entry in entries:
        label = f"{entry.study} {entry.condition} {entry.backbone} {entry.benchmark} seed-{entry.seed}: {base} -> {entry.method}"
        print(_row(label, pool_entries([entry]), entry.measures))
    n = pooled.tasks
    p, interval = format_test(pooled.test)
    print()
    print(f"pooled over {len(entries)} pair(s), {n} tasks: {base} {100 * pooled.solved_first / n:.1f} "
          f"({pooled.solved_first}/{n}), {args.method} {100 * pooled.solved_second / n:.1f} ({pooled.solved_second}/{n})")
    print(f"rescued {pooled.test.rescued} / broken {pooled.test.broken}, McNemar p = {p}, 95% CI {interval} pp")
    print(f"task-run tokens: {base} {_tokens(pooled.tokens_first, n, pooled.solved_first)}; {args.method} "
          f"{_tokens(pooled.tokens_second, n, pooled.solved_second)} "
          f"({100 * (pooled.tokens_second - pooled.tokens_first) / max(1, pooled.tokens_first):+.1f}% per task)")
    if measures:
        print(f"harmful use {_rate(sum(m.harmful_uses for m in measures), sum(m.selected_uses for m in measures))}; "
              f"retrieval coverage {_coverage(measures)}")
        reach = pooled_reach(measures)
        print(f"reach: {reach.failures_reached} of the {reach.failed} tasks {base} failed had a record used, "
              f"{reach.failures_solved} of them solved; {reach.successes_reached} of the {reach.solved} it solved "
              f"had one, {reach.successes_kept} of them still solved")
    if matched:
        _print_versus(matched, args.method)
    if args.json is not None:
        args.json.write_text(json.dumps({"pairs": [e.name for e in entries], **pooled.model_dump()}, indent=1))


def _print_versus(matched: list[tuple[PairEntry, PairEntry]], method: str) -> None:
    print()
    print(f"{method}: versus -> source | tasks | versus solved | source solved | rescued / broken | McNemar p "
          "| 95% CI (pp) | tokens per task")
    print("|".join(["---"] * 8))
    for other, entry in matched:
        print(_row(f"{other.study} -> {entry.study} {entry.benchmark} seed-{entry.seed}", pool_versus([(other, entry)]),
                   None, with_use=False))
    if len(matched) > 1:
        pooled = pool_versus(matched)
        p, interval = format_test(pooled.test)
        print(f"pooled over {len(matched)} pair(s), {pooled.tasks} tasks: rescued {pooled.test.rescued} / broken "
              f"{pooled.test.broken}, McNemar p = {p}, 95% CI {interval} pp")


if __name__ == "__main__":
    main()
