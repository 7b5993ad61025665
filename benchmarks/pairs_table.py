"""Every kept pair as one row of a Markdown table (issue 24).

Run: .venv/bin/python benchmarks/pairs_table.py [SOURCE ...] [--benchmark NAME] [--condition NAME]
     [--method NAME] [--out FILE]

Each SOURCE is a kept pair (`.json`, written by `benchmarks/pooled_pairs.py --keep`) or a folder of
them; without one, `results/pairs`. Why: a results document's tables were written by hand from
each study's printout, and a study folder stays on the machine that ran it; the kept pairs are
committed, so this table can be printed again by anyone, on any machine, from the repository alone.

One row per entry (condition: `heldout` is the study's held-out split, which is the new-environment
condition where a benchmark has environments (sql-shop, Spider) and other problems where it has
none (mbpp, gsm8k, humaneval); benchmark, backbone, agent, seed, study, the method against its
twin): success of both arms, rescued / broken with the exact McNemar p and a paired bootstrap 95%
interval, task-run tokens per task and per solved task with the change, harmful use (per selected
record use) and retrieval coverage (per retrieval attempt). Pooling seeds is left to
`benchmarks/pooled_pairs.py` with the entries named: the table cannot tell two settings under one
method name apart (`countermem` in a form study and in a content study), so it never pools by name.
No model and no checker runs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from countermem.core import ConfigError
from countermem.experiment._pair_ledger import PairEntry, pool_entries, read_entry
from countermem.experiment._paired import PairedMeasures
from countermem.experiment._self_repair import RunPair
from countermem.experiment._significance import format_test

POOL_HINT = (
    "To pool the seeds of one setting: .venv/bin/python benchmarks/pooled_pairs.py ENTRY [ENTRY ...] --method M "
    "(a method's name alone does not say its setting: `countermem` of a form study and of a content study differ)"
)
DEFAULT_SOURCE = Path(__file__).resolve().parent.parent / "results" / "pairs"
HEADER = (
    "| condition | benchmark | backbone | agent | seed | study | method vs twin | tasks | twin | method "
    "| rescued / broken | McNemar p | 95% CI (pp) | tokens per task | per solved task | harmful use | coverage |"
)


def read_sources(sources: Sequence[Path]) -> list[PairEntry]:
    entries: list[PairEntry] = []
    for source in sources:
        if source.is_file():
            entries.append(read_entry(source))
        elif source.is_dir():
            files = sorted(source.glob("*.json"))
            if not files:
                raise ConfigError(f"{source} holds no kept pair (.json); keep pairs with pooled_pairs.py --keep")
            entries.extend(read_entry(path) for path in files)
        else:
            raise ConfigError(f"{source} does not exist: give kept pairs (.json) or folders of them")
    return entries


def _success(solved: int, tasks: int) -> str:
    return f"{100 * solved / tasks:.1f} ({solved}/{tasks})" if tasks else "no task"


def _change(first: float, second: float) -> str:
    return f"{100 * (second - first) / first:+.1f}%" if first else "n/a"


def _tokens(pair: RunPair) -> tuple[str, str]:
    n = pair.tasks
    per_task = f"{pair.tokens_first / n:,.0f} -> {pair.tokens_second / n:,.0f} ({_change(pair.tokens_first, pair.tokens_second)})"
    first = f"{pair.tokens_first / pair.solved_first:,.0f}" if pair.solved_first else "none solved"
    second = f"{pair.tokens_second / pair.solved_second:,.0f}" if pair.solved_second else "none solved"
    if not (pair.solved_first and pair.solved_second):
        return per_task, f"{first} -> {second}"
    change = _change(pair.tokens_first / pair.solved_first, pair.tokens_second / pair.solved_second)
    return per_task, f"{first} -> {second} ({change})"


def _use(measures: Sequence[PairedMeasures]) -> tuple[str, str]:
    uses = sum(m.selected_uses for m in measures)
    harmful = f"{sum(m.harmful_uses for m in measures)} / {uses}" if uses else "no use"
    attempts = sum(m.retrieval_attempts or 0 for m in measures)
    covered = sum((m.retrieval_coverage or 0.0) * (m.retrieval_attempts or 0) for m in measures)
    return harmful, f"{covered / attempts:.2f} of {attempts}" if attempts else "no retrieval"


def row(cells: Sequence[str], pair: RunPair, measures: Sequence[PairedMeasures]) -> str:
    p, interval = format_test(pair.test)
    per_task, per_solved = _tokens(pair)
    harmful, coverage = _use(measures) if measures else ("n/a", "n/a")
    values = [
        *cells, str(pair.tasks), _success(pair.solved_first, pair.tasks), _success(pair.solved_second, pair.tasks),
        f"{pair.test.rescued} / {pair.test.broken}", p, interval, per_task, per_solved, harmful, coverage,
    ]
    return "| " + " | ".join(values) + " |"


def _cell(entry: PairEntry) -> tuple[str, str, str, str, str, str]:
    return (entry.condition, entry.benchmark, entry.backbone, entry.agent, entry.method, entry.against)


def table(entries: Sequence[PairEntry]) -> list[str]:
    lines = [HEADER, "|" + "---|" * HEADER.count(" | ") + "---|"]
    for entry in sorted(entries, key=lambda e: (*_cell(e), e.seed, e.study)):
        cells = [entry.condition, entry.benchmark, entry.backbone, entry.agent, str(entry.seed), entry.study,
                 f"{entry.method} vs {entry.against}"]
        lines.append(row(cells, pool_entries([entry]), [entry.measures] if entry.measures else []))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", type=Path, nargs="*", help="kept pairs (.json) or folders of them (default: results/pairs)")
    parser.add_argument("--benchmark", default=None)
    parser.add_argument("--condition", default=None)
    parser.add_argument("--method", default=None)
    parser.add_argument("--out", type=Path, default=None, help="also write the table to this Markdown file")
    args = parser.parse_args()
    try:
        entries = read_sources(args.sources or [DEFAULT_SOURCE])
    except ConfigError as error:
        sys.exit(str(error))
    chosen = [e for e in entries if args.benchmark in (None, e.benchmark) and args.condition in (None, e.condition)
              and args.method in (None, e.method)]
    if not chosen:
        sys.exit(f"no kept pair matches (of {len(entries)} read): widen --benchmark, --condition or --method")
    text = "\n".join(table(chosen)) + "\n"
    print(POOL_HINT, file=sys.stderr)
    print(text, end="")
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
