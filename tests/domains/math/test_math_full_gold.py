"""Every task of both benchmarks: its gold answer passes and its known-wrong answer fails (slow).

Run with `-s` to see the counts and checks per second.
"""

from __future__ import annotations

import random
import time

import pytest

from countermem.domains import load_benchmark
from countermem.domains.math import GSM8K, MathBenchmark


@pytest.mark.slow
@pytest.mark.parametrize("name", ["gsm8k", "math500"])
def test_gold_passes_and_wrong_fails_on_every_task(name: str) -> None:
    benchmark = load_benchmark(name)
    assert isinstance(benchmark, MathBenchmark)
    if not benchmark.availability().available:
        pytest.skip(benchmark.availability().reason)
    tasks = benchmark.tasks()
    world = benchmark.world_model()
    world.reset(tasks[0])
    world.check(benchmark.gold_action(tasks[0]))  # starts the worker outside the timing
    failures: list[str] = []
    timings: dict[str, float] = {}
    for kind in ("gold", "wrong"):
        started = time.perf_counter()
        for task in tasks:
            world.reset(task)
            action = benchmark.gold_action(task) if kind == "gold" else benchmark.wrong_action(task)
            result = world.check(action)
            expected = ("passed", True) if kind == "gold" else ("wrong", False)
            if (result.status, result.passed) != expected:
                failures.append(f"{kind} {task.id} gold={task.gold!r}: {result.status} {result.details}")
        timings[kind] = len(tasks) / (time.perf_counter() - started)
    benchmark.close()
    print(
        f"\n{name}: {len(tasks)} tasks, {len(failures)} failures; "
        f"gold {timings['gold']:.0f} checks/s, wrong {timings['wrong']:.0f} checks/s"
    )
    assert not failures, "\n".join(failures)


@pytest.mark.slow
def test_gsm8k_lookalike_coverage() -> None:
    benchmark = load_benchmark("gsm8k")
    assert isinstance(benchmark, GSM8K)
    if not benchmark.availability().available:
        pytest.skip(benchmark.availability().reason)
    rng = random.Random(0)
    tasks = benchmark.tasks()
    replayable = [t for t in tasks if benchmark.lookalike_refusal(t) is None]
    with_lookalikes = [t for t in replayable if benchmark.lookalikes(t, rng)]
    print(f"\ngsm8k lookalikes: {len(replayable)} of {len(tasks)} replayable, {len(with_lookalikes)} got one")
    assert len(with_lookalikes) >= 300
