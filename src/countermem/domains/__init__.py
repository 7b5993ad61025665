"""Domains: tasks, world models, prompts and decision facts; know nothing of memory."""

from countermem.domains._boundary import TimeLimitedWorldModel, check_action, validated_check
from countermem.domains._conformance import ConformanceError, ConformanceReport, check_world_model
from countermem.domains._protocol import (
    Availability,
    Benchmark,
    BenchmarkOptions,
    CheckerInfo,
    State,
    WorldModel,
)
from countermem.domains._simple import TaskCopyWorldModel
from countermem.domains._splits import SPLIT_NAMES, Splits, split_tasks

__all__ = [
    "SPLIT_NAMES",
    "Availability",
    "Benchmark",
    "BenchmarkOptions",
    "CheckerInfo",
    "ConformanceError",
    "ConformanceReport",
    "Splits",
    "State",
    "TaskCopyWorldModel",
    "TimeLimitedWorldModel",
    "WorldModel",
    "check_action",
    "check_world_model",
    "split_tasks",
    "validated_check",
]

from countermem.domains._data import DATA_ENV, dataset_dir, find_data_root, verified_file
from countermem.domains._registry import (
    BENCHMARKS,
    DOMAINS,
    BenchmarkEntry,
    benchmark_availability,
    benchmark_names,
    load_benchmark,
)

__all__ += [
    "BENCHMARKS",
    "DATA_ENV",
    "DOMAINS",
    "BenchmarkEntry",
    "benchmark_availability",
    "benchmark_names",
    "dataset_dir",
    "find_data_root",
    "load_benchmark",
    "verified_file",
]
