"""Poisoned records on look-alike tasks: harmful use with conditions on and off, with and without
retirement by use (issue 21, item 6). SIMULATED bed: see `countermem.experiment._poisoning`.

Run: .venv/bin/python benchmarks/poisoning.py [--seed 0] [--source-tasks 40] [--rounds 4]
         [--retire USES:RATE ...] [--json OUT]

Seeded, runs in well under 2 minutes on one core (no model, no server: the SIMULATED backbone and
sql-shop's SQLite checker). Prints one row per arm: selected uses of the poisoned records on the
look-alike tasks, how many were harmful (the task ended below the paired no-advice run), the
rate, tasks broken, and records retired by the store's retirement by use (`RetireByUse`).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

from countermem.experiment._poisoning import DEFAULT_RETIREMENTS, rule_label, run_poisoning
from countermem.memory import RetireByUse


def _rule(text: str) -> RetireByUse:
    uses, _, rate = text.partition(":")
    return RetireByUse(harm_rate=float(rate), min_uses=int(uses))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--source-tasks", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=4, help="passes over the look-alike tasks")
    parser.add_argument("--retire", type=_rule, action="append", default=None, metavar="USES:RATE",
                        help="a retirement rule to add arms for (repeatable); default 5:0.5 and 3:0.25")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="countermem-poisoning-") as folder:
        result = run_poisoning(
            Path(folder), seed=args.seed, source_tasks=args.source_tasks, rounds=args.rounds,
            retirements=tuple(args.retire) if args.retire else DEFAULT_RETIREMENTS,
        )
    print(result.table())
    print(f"({time.perf_counter() - started:.0f} s)")
    if args.json is not None:
        rows = [{**asdict(arm), "retirement": rule_label(arm.retirement), "harmful_use": arm.harmful_use,
                 "last_round_harmful_use": arm.last_round_harmful_use} for arm in result.arms]
        payload = {**{k: v for k, v in asdict(result).items() if k != "arms"}, "simulated": True, "arms": rows}
        args.json.write_text(json.dumps(payload, indent=2) + "\n")


if __name__ == "__main__":
    main()
