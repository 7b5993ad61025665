"""Calibrate the `smtlib` gold table: `python -m countermem.domains.smt._calibrate [--limit N]`.

For every task, candidate strategies (general ones, then ones made for the logic) are checked
through the real world model at the default budget. The passing candidate with the least z3
effort becomes the gold strategy; the search stops early once a candidate passes with utility
at least EARLY_STOP_UTILITY. Tasks where nothing passed are recorded as unsolved, with each
candidate's outcome, so that `gold_action` can say why no gold is known. Results depend on
the z3 version, which is recorded.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from countermem.domains.smt._base import DEFAULT_TIMEOUT_S, EFFORT_PER_SECOND
from countermem.domains.smt._gold import GOLD_FILE, GoldEntry, GoldTable
from countermem.domains.smt._smtlib import SMTLib
from countermem.domains.smt._strategy import parse_strategy

EARLY_STOP_UTILITY = 0.95
GENERAL = ("(check-sat)", "smt", "(then simplify propagate-values solve-eqs smt)")
BY_LOGIC: dict[str, tuple[str, ...]] = {
    "QF_LIA": ("qflia", "(then simplify solve-eqs (using-params smt :arith.solver 2))"),
    "QF_IDL": ("qfidl", "(using-params smt :random_seed 1)"),
    "QF_BV": ("qfbv", "(then simplify propagate-values solve-eqs bit-blast sat)", "(then simplify bit-blast sat)"),
    "QF_NIA": (
        "qfnia",
        "(then simplify propagate-values nla2bv smt)",
        "(using-params smt :random_seed 1)",
        "(using-params smt :random_seed 2)",
    ),
    "QF_NRA": ("qfnra", "nlsat", "(then simplify propagate-values nlsat)"),
}


def candidates_for(logic: str) -> tuple[str, ...]:
    return GENERAL + BY_LOGIC.get(logic, ())


def calibrate(limit: int | None, out: Path) -> GoldTable:
    import z3

    benchmark = SMTLib()
    world = benchmark.world_model()
    entries: dict[str, GoldEntry] = {}
    unsolved: dict[str, str] = {}
    baseline: dict[str, str] = {}
    tasks = benchmark.tasks()[: limit or None]
    all_candidates = sorted({c for logic in BY_LOGIC for c in candidates_for(logic)})
    for number, task in enumerate(tasks, 1):
        world.reset(task)
        best: GoldEntry | None = None
        seen: list[str] = []
        for strategy in candidates_for(str(task.metadata["logic"])):
            result, reply = world.evaluate(task, parse_strategy(strategy))
            seen.append(f"{strategy} -> {result.status}")
            if strategy == GENERAL[0]:
                baseline[task.id] = f"{result.status} {result.utility:.3f}"
            if result.passed and reply is not None and (best is None or result.utility > best.utility):
                best = GoldEntry(
                    strategy=strategy, answer=str(task.metadata["declared_status"]), effort=reply.effort,
                    utility=result.utility,
                )
            if best is not None and best.utility >= EARLY_STOP_UTILITY:
                break
        if best is None:
            unsolved[task.id] = "; ".join(seen)
        else:
            entries[task.id] = best
        print(f"[{number}/{len(tasks)}] {task.id}: {best.strategy if best else 'UNSOLVED'}", file=sys.stderr, flush=True)
    table = GoldTable(
        z3_version=z3.get_version_string(),
        timeout_s=DEFAULT_TIMEOUT_S,
        effort_per_second=EFFORT_PER_SECOND,
        candidates=all_candidates,
        entries=entries,
        unsolved=unsolved,
        baseline=baseline,
    )
    out.write_text(json.dumps(table.model_dump(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=None, help="calibrate only the first N tasks")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name(GOLD_FILE))
    args = parser.parse_args()
    started = time.monotonic()
    table = calibrate(args.limit, args.out)
    print(
        f"{len(table.entries)} tasks with gold, {len(table.unsolved)} unsolved, "
        f"{time.monotonic() - started:.0f} s; written to {args.out}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
