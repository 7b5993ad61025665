"""The registry of the twelve benchmarks, imported lazily so that a missing solver or data
folder only affects its own benchmark."""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from countermem.core import CheckerUnavailableError, ConfigError, DataUnavailableError
from countermem.domains._protocol import Availability, Benchmark, BenchmarkOptions


@dataclass(frozen=True)
class BenchmarkEntry:
    name: str
    domain: str
    target: str
    """`module:attribute` of the Benchmark subclass."""


BENCHMARKS: tuple[BenchmarkEntry, ...] = (
    BenchmarkEntry("gsm8k", "math", "countermem.domains.math:GSM8K"),
    BenchmarkEntry("math500", "math", "countermem.domains.math:Math500"),
    BenchmarkEntry("humaneval", "coding", "countermem.domains.coding:HumanEval"),
    BenchmarkEntry("mbpp", "coding", "countermem.domains.coding:MBPP"),
    BenchmarkEntry("spider", "sql", "countermem.domains.sql:SpiderBenchmark"),
    BenchmarkEntry("sql-shop", "sql", "countermem.domains.sql:ShopBenchmark"),
    BenchmarkEntry("minif2f-coq", "fv", "countermem.domains.fv:MiniF2FCoq"),
    BenchmarkEntry("coq-basics", "fv", "countermem.domains.fv:CoqBasics"),
    BenchmarkEntry("smtlib", "smt", "countermem.domains.smt:SMTLib"),
    BenchmarkEntry("smt-encode", "smt", "countermem.domains.smt:SMTEncode"),
    BenchmarkEntry("satlib", "sat", "countermem.domains.sat:SATLib"),
    BenchmarkEntry("sat-encode", "sat", "countermem.domains.sat:SATEncode"),
)

DOMAINS: tuple[str, ...] = ("math", "coding", "sql", "fv", "smt", "sat")


def benchmark_names(domain: str | None = None) -> list[str]:
    return [e.name for e in BENCHMARKS if domain is None or e.domain == domain]


def _entry(name: str) -> BenchmarkEntry:
    for entry in BENCHMARKS:
        if entry.name == name:
            return entry
    known = ", ".join(benchmark_names())
    raise ConfigError(f"unknown benchmark {name!r}; known benchmarks: {known}")


def load_benchmark(name: str, options: BenchmarkOptions | None = None) -> Benchmark:
    """Instantiate a benchmark; raises with the reason when its module cannot be imported."""
    entry = _entry(name)
    module_name, attribute = entry.target.split(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise CheckerUnavailableError(
            f"benchmark {name!r} cannot be loaded: {error}. "
            "Install the domain extras: pip install 'countermem[domains]'"
        ) from error
    cls = getattr(module, attribute, None)
    if cls is None:
        raise CheckerUnavailableError(f"benchmark {name!r} is not implemented in {module_name}")
    benchmark = cls(options)
    if not isinstance(benchmark, Benchmark):
        raise ConfigError(f"{entry.target} is not a Benchmark")
    return benchmark


def benchmark_availability(name: str, options: BenchmarkOptions | None = None) -> Availability:
    try:
        return load_benchmark(name, options).availability()
    except (CheckerUnavailableError, DataUnavailableError) as error:
        return Availability(False, str(error))
