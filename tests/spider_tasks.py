"""Spider's tasks in one fixed order, for the embedding tests that build neighbour sets from them."""

from __future__ import annotations

import random

import pytest

from countermem.core import Task
from countermem.domains import Benchmark


def shuffled_spider_tasks() -> tuple[Benchmark, list[Task]]:
    """The Spider benchmark and its tasks shuffled with seed 3 (the sets' thresholds were measured
    on that order), or a skip saying why where Spider's data is not here."""
    from countermem.domains import load_benchmark

    benchmark = load_benchmark("spider")
    availability = benchmark.availability()
    if not availability.available:
        pytest.skip(f"Spider data unavailable: {availability.reason}")
    tasks = benchmark.tasks()
    random.Random(3).shuffle(tasks)
    return benchmark, tasks
