"""Seconds `countermem memory reverify` takes on a 200-record store of the fast checkers (SQL, SAT, SMT).

Run: .venv/bin/python benchmarks/reverify_speed.py [--out runs/reverify-speed] [--stale 10]
         [--per sql-shop=50 spider=50 sat-encode=30 satlib=20 smt-encode=30 smtlib=20]

The store is built through admission, as construction builds it: for each of the first N tasks
(with a gold action) of each benchmark, the known-wrong action is the failed one and the gold
action the only alternative, both checked by the benchmark's world model from the task's reset
state; `Admitter` stores the record (redaction off: placeholders would make records uncheckable).
`--stale K` then turns K records (spread over the benchmarks) into records of an older checker:
their improved action is replaced by the failed one with a claimed pass, so re-verification must
retire them. The timed command is the CLI itself, in a fresh process (imports and loading the
benchmarks' tasks included): `countermem memory reverify STORE`; its whole output is kept in
OUT/reverify.out. The script prints the command's summary and one line for the README. A benchmark whose data or checker is missing is left out, with the reason.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from countermem.core import CheckResult, CountermemError, DataUnavailableError, Facts, Usage
from countermem.domains import load_benchmark
from countermem.memory import Admitter, Alternative, Proposal, SQLiteStore

DEFAULT_PER = ("sql-shop=50", "spider=50", "sat-encode=30", "satlib=22", "smt-encode=30", "smtlib=20")


def _admit(store: SQLiteStore, name: str, n: int) -> int:
    bench = load_benchmark(name)
    availability = bench.availability()
    if not availability.available:
        raise CountermemError(availability.reason)
    world = bench.world_model()
    admitter = Admitter(store, redact=False)
    admitted = 0
    for task in bench.tasks():
        try:
            gold = bench.gold_action(task)
        except DataUnavailableError:
            continue
        state = world.reset(task)
        wrong = bench.wrong_action(task)
        failed = world.check(wrong)
        world.restore(state)
        proposal = Proposal(alternatives=[Alternative(action=gold, condition_text="none")], usage=Usage(), raw_text="")
        report = admitter.verify_and_admit(
            task=task, world_model=world, state=state, failed_action=wrong, failed_result=failed,
            proposal=proposal, facts=Facts(), situation=bench.render_task(task),
        )
        admitted += int(report.admitted and not report.already_stored)
        if admitted == n:
            break
    return admitted


def _make_stale(store: SQLiteStore, k: int) -> int:
    records = store.all()
    step = max(1, len(records) // k) if k else 0
    passed = CheckResult(utility=1.0, passed=True, completed=True, status="passed")
    for record in records[::step][:k] if k else []:
        store.revise(record.id, improved_action=record.original_action, improved_check=passed)
    return min(k, len(records))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("runs/reverify-speed"))
    parser.add_argument("--per", nargs="*", default=list(DEFAULT_PER), help="benchmark=records")
    parser.add_argument("--stale", type=int, default=10, help="records made stale, to be retired")
    args = parser.parse_args()
    if args.out.exists():
        shutil.rmtree(args.out)
    args.out.mkdir(parents=True)
    path = args.out / "store.sqlite"
    built = time.perf_counter()
    per_domain: Counter[str] = Counter()
    with SQLiteStore(path, capacity=1000) as store:
        for item in args.per:
            name, _, count = item.partition("=")
            try:
                admitted = _admit(store, name, int(count))
            except CountermemError as error:
                print(f"{name}: left out: {error}")
                continue
            per_domain[load_benchmark(name).domain] += admitted
            print(f"{name}: {admitted} records")
        stale = _make_stale(store, args.stale)
        total = len(store)
    print(f"built {total} records in {time.perf_counter() - built:.1f} s ({stale} made stale)")
    command = [sys.executable, "-m", "countermem", "memory", "reverify", str(path)]
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    (args.out / "reverify.out").write_text(result.stdout + result.stderr)
    summary = [line for line in result.stdout.splitlines() if not line.startswith(("holds", "RETIRED", "unchecked"))]
    print("\n".join(summary))
    if result.returncode != 0:
        print(result.stderr)
        raise SystemExit(result.returncode)
    mix = ", ".join(f"{domain} {n}" for domain, n in sorted(per_domain.items()))
    print(f"{total} records ({mix}) reverified in {seconds:.1f} s wall (the whole command), "
          f"{sum(1 for line in result.stdout.splitlines() if line.startswith('RETIRED'))} retired")


if __name__ == "__main__":
    main()
