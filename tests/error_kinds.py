"""The benchmark, its first task and a world model reset to it, for the error-kind tests of each
domain (skipped with the reason when the benchmark's data or checker is missing)."""

from __future__ import annotations

import pytest

from countermem.core import Task
from countermem.domains import Benchmark, WorldModel, load_benchmark


def first_task_world(name: str) -> tuple[Benchmark, Task, WorldModel]:
    benchmark = load_benchmark(name)
    if not benchmark.availability().available:
        pytest.skip(benchmark.availability().reason)
    task = benchmark.tasks()[0]
    world = benchmark.world_model()
    world.reset(task)
    return benchmark, task, world
