"""Checks per second of every world model, for a gold action and a known-wrong one.

Run: .venv/bin/python benchmarks/checker_speed.py [--tasks N] [--only NAME ...]
Each benchmark checks the gold and the known-wrong action of its first N tasks that have a gold
action (after one warm-up check), from a restored snapshot each time, as the agent does. A
benchmark whose data or checker is missing is listed with the reason.
"""

from __future__ import annotations

import argparse
import time

from countermem.core import Action, CountermemError, DataUnavailableError, Task
from countermem.domains import Benchmark, WorldModel, benchmark_names, load_benchmark


def _rate(world: WorldModel, pairs: list[tuple[Task, Action]]) -> tuple[float, int]:
    passed = 0
    started = time.perf_counter()
    for task, action in pairs:
        state = world.reset(task)
        world.restore(state)
        passed += int(world.check(action).passed)
    return len(pairs) / (time.perf_counter() - started), passed


def _pairs(bench: Benchmark, n: int) -> tuple[list[tuple[Task, Action]], list[tuple[Task, Action]]]:
    gold: list[tuple[Task, Action]] = []
    wrong: list[tuple[Task, Action]] = []
    for task in bench.tasks():
        try:
            gold.append((task, bench.gold_action(task)))
        except DataUnavailableError:
            continue
        wrong.append((task, bench.wrong_action(task)))
        if len(gold) == n:
            break
    return gold, wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=10)
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args()
    print(f"{'benchmark':14} {'gold/s':>8} {'pass':>6} {'wrong/s':>8} {'pass':>6}")
    for name in args.only or benchmark_names():
        try:
            bench = load_benchmark(name)
            if not bench.availability().available:
                raise CountermemError(bench.availability().reason)
            gold, wrong = _pairs(bench, args.tasks)
            world = bench.world_model()
            _rate(world, gold[:1])
            gold_rate, gold_pass = _rate(world, gold)
            wrong_rate, wrong_pass = _rate(world, wrong)
        except CountermemError as error:
            print(f"{name:14} unavailable: {error}")
            continue
        print(
            f"{name:14} {gold_rate:8.1f} {gold_pass:>3}/{len(gold):<2} {wrong_rate:8.1f} "
            f"{wrong_pass:>3}/{len(wrong):<2}"
        )


if __name__ == "__main__":
    main()
