"""Store admission and advice throughput with 1 and 8 writer processes on one SQLite store.

    .venv/bin/python benchmarks/store_concurrency.py                     # 200 admissions, 200 advice calls per process
    .venv/bin/python benchmarks/store_concurrency.py --ops 50 --writers 1 8

admission: each process adds its own synthetic records (`SQLiteStore.add`) into one store of
capacity 200, so past the first 200 every admission also runs the retention rule and logs an
eviction, inside the same `BEGIN IMMEDIATE` transaction.
advice: the store is filled with 200 records first; each process opens it with `open_memory`
(lexical embedder, TopOne) and calls `advise`, which ranks the records and writes the reuse
counters of the offered and the chosen record (a write transaction per call).

Every process opens the store, then waits at one start line; throughput is all operations over
the time from the start line to the last process's end; latencies are per call in each process,
pooled. Numbers depend on the machine's load; the load average is printed next to them. This is
a measurement, never a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from _writers import HEADER, print_row, throughput


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, default=200, help="operations per process")
    parser.add_argument("--writers", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--kinds", nargs="+", default=["admission", "advice"], choices=["admission", "advice"])
    args = parser.parse_args()
    print(f"cpus {os.cpu_count()}, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(HEADER)
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.kinds:
            for writers in args.writers:
                row = throughput(kind, str(Path(tmp) / f"{kind}-{writers}.sqlite"), writers, args.ops, Path(tmp))
                print_row("sqlite", kind, writers, row)
    print(f"load average after {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
