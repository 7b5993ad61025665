"""A method against `none`, paired per task and pooled over seeds and studies (issue 24).

Run: .venv/bin/python benchmarks/pooled_pairs.py STUDY [STUDY ...] --method countermem
     [--condition heldout|look-alike|original-environment] [--benchmark NAME] [--json OUT]
     [--against METHOD]  (pair with another arm of the same study instead of `none`, e.g. a peer)

Each STUDY is a study folder of `countermem study`. For every run of `--method` under the chosen
condition (`heldout`: the study's `results/`; a transfer condition: `analyses/<backbone>/transfer/
<condition>/`), its `none` twin (same backbone, agent, benchmark and seed) is found, the two are
paired on the tasks both finished, and all pairs are pooled into one test: each task of each pair
is one pair of the test. Printed: one row per pair, then the pooled success of each arm, rescued /
broken with McNemar p, a paired bootstrap 95% interval, task-run tokens per task and per solved
task, harmful use (per selected record use, the share where the task ended worse than its
no-memory twin), retrieval coverage (per retrieval attempt, pooled) and reach: of the tasks `none`
failed, how many had a record used in the method's run and how many of those it solved (a rescue
needs both; the same for tasks `none` solved, where a use can break). A study that has not reached the condition yet is named and skipped. No model and no
checker runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from countermem.experiment._paired import PairedMeasures, paired_measures, pooled_reach
from countermem.experiment._self_repair import RunPair, pool_pairs
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


def _row(label: str, pair: RunPair, measures: PairedMeasures | None) -> str:
    p, interval = format_test(pair.test)
    change = 100 * (pair.tokens_second - pair.tokens_first) / max(1, pair.tokens_first)
    use = "n/a" if measures is None else f"{_rate(measures.harmful_uses, measures.selected_uses)} | {_coverage([measures])}"
    return (f"{label} | {pair.tasks} | {pair.solved_first} | {pair.solved_second} | "
            f"{pair.test.rescued} / {pair.test.broken} | {p} | {interval} | {change:+.1f}% | {use}")


def _rate(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part / whole:.2f})" if whole else "no use"


def _coverage(measures: list[PairedMeasures]) -> str:
    attempts = sum(m.retrieval_attempts or 0 for m in measures)
    covered = sum((m.retrieval_coverage or 0.0) * (m.retrieval_attempts or 0) for m in measures)
    return f"{covered / attempts:.2f} of {attempts}" if attempts else "no retrieval"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("studies", type=Path, nargs="+")
    parser.add_argument("--method", required=True)
    parser.add_argument("--condition", default="heldout", choices=CONDITIONS)
    parser.add_argument("--benchmark", default=None)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--against", default="none",
                        help="the arm each run is paired with (another method of the same study, e.g. a peer)")
    args = parser.parse_args()
    base = args.against
    pairs: list[tuple[Path, Path]] = []
    for study in args.studies:
        if not (study / "manifest.json").is_file():
            sys.exit(f"{study} is not a study folder (no manifest.json): give folders written by `countermem study`")
        found = find_pairs(study, args.method, args.condition, args.benchmark, base)
        if not found:
            print(f"{study}: no finished {args.method} run with a {base} twin under {args.condition} yet; skipped")
        pairs.extend(found)
    if not pairs:
        sys.exit("no pair to compare")
    print(f"pair ({base} -> method) | tasks | {base} solved | method solved | rescued / broken | McNemar p | 95% CI (pp) "
          "| tokens per task | harmful use | retrieval coverage")
    print("|".join(["---"] * 10))
    # harmful use, coverage and reach are measured against a run without memory only
    measures = [paired_measures(run, twin) for twin, run in pairs] if base == "none" else []
    for index, (twin, run) in enumerate(pairs):
        print(_row(f"{twin} -> {run.parts[-4]}", pool_pairs([(twin, run)]), measures[index] if measures else None))
    pooled = pool_pairs(pairs)
    n = pooled.tasks
    p, interval = format_test(pooled.test)
    print()
    print(f"pooled over {len(pairs)} pair(s), {n} tasks: {base} {100 * pooled.solved_first / n:.1f} "
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
    if args.json is not None:
        args.json.write_text(json.dumps({"pairs": [[str(a), str(b)] for a, b in pairs], **pooled.model_dump()}, indent=1))


if __name__ == "__main__":
    main()
