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
import json
import multiprocessing
import os
import statistics
import tempfile
import time
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event
from pathlib import Path

from countermem.core import Action, CheckResult, Decision, Facts, Task
from countermem.memory import Record, RecordSource, SQLiteStore, open_memory

CAPACITY = 200
FACTS = Facts(values={"n_vars": 20})


def record(writer: int, i: int) -> Record:
    gain = 0.1 + ((writer * 7919 + i) % 9) / 10
    return Record(
        domain="toy",
        benchmark="toy",
        situation=f"writer {writer} task {i}: reach {i % 11} from zero, words{i % 13} shared text",
        original_action=Action(content=f"add {i % 5} # writer {writer} attempt {i}"),
        improved_action=Action(content=f"add {i % 11}"),
        original_check=CheckResult(utility=0.0, passed=False, completed=True, status="wrong"),
        improved_check=CheckResult(utility=gain, passed=False, completed=True, status="wrong"),
        utility_gain=gain,
        condition="n_vars > 1",
        source=RecordSource(task_id=f"toy-{writer}-{i}", benchmark="toy"),
    )


def decision(writer: int, i: int) -> Decision:
    task = Task(id=f"q-{writer}-{i}", benchmark="toy", domain="toy", prompt=f"reach {i % 11}", gold="0")
    return Decision(task=task, situation=f"task {i}: reach {i % 11} from zero, words{i % 13}", facts=FACTS)


def _work(kind: str, path: str, writer: int, ops: int, ready: Queue[int], start: Event, out: str) -> None:
    latencies: list[float] = []
    if kind == "admission":
        store = SQLiteStore(path)
        ready.put(writer)
        start.wait()
        for i in range(ops):
            item = record(writer, i)
            began = time.perf_counter()
            store.add(item)
            latencies.append(time.perf_counter() - began)
        store.close()
    else:
        memory = open_memory(path, action_language="text", embedder="lexical")
        memory.advise(decision(writer, -1))  # warm: the first call builds the retriever's index
        ready.put(writer)
        start.wait()
        for i in range(ops):
            began = time.perf_counter()
            memory.advise(decision(writer, i))
            latencies.append(time.perf_counter() - began)
    Path(out).write_text(json.dumps({"end": time.time(), "latencies": latencies}))


def measure(kind: str, writers: int, ops: int, folder: Path) -> dict[str, float]:
    path = folder / f"{kind}-{writers}.sqlite"
    with SQLiteStore(path, capacity=CAPACITY) as store:
        if kind == "advice":
            for i in range(CAPACITY):
                store.add(record(999, i))
    context = multiprocessing.get_context("spawn")
    ready: Queue[int] = context.Queue()
    start = context.Event()
    outs = [folder / f"{kind}-{writers}-{n}.json" for n in range(writers)]
    processes = [
        context.Process(target=_work, args=(kind, str(path), n, ops, ready, start, str(outs[n]))) for n in range(writers)
    ]
    for process in processes:
        process.start()
    for _ in processes:
        ready.get(timeout=600)  # every process has imported and opened the store
    began = time.time()
    start.set()
    for process in processes:
        process.join(600)
        if process.is_alive():
            process.kill()
            raise SystemExit(f"a {kind} process did not finish within 600 s")
        if process.exitcode != 0:
            raise SystemExit(f"a {kind} process failed (exit code {process.exitcode})")
    reports = [json.loads(out.read_text()) for out in outs]
    latencies = sorted(x for r in reports for x in r["latencies"])
    elapsed = max(r["end"] for r in reports) - began
    with SQLiteStore(path, read_only=True) as store:
        live, evicted = len(store), len(store.evictions())
    return {
        "ops": float(len(latencies)),
        "ops_per_s": len(latencies) / elapsed,
        "p50_ms": 1000 * statistics.median(latencies),
        "p95_ms": 1000 * latencies[int(0.95 * (len(latencies) - 1))],
        "live": float(live),
        "evicted": float(evicted),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, default=200, help="operations per process")
    parser.add_argument("--writers", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--kinds", nargs="+", default=["admission", "advice"], choices=["admission", "advice"])
    args = parser.parse_args()
    print(f"cpus {os.cpu_count()}, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'store':8} {'kind':10} {'writers':>7} {'ops':>6} {'ops/s':>8} {'p50 ms':>8} {'p95 ms':>8}  store after")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.kinds:
            for writers in args.writers:
                row = measure(kind, writers, args.ops, Path(tmp))
                print(
                    f"{'sqlite':8} {kind:10} {writers:>7} {int(row['ops']):>6} {row['ops_per_s']:>8.1f} "
                    f"{row['p50_ms']:>8.2f} {row['p95_ms']:>8.2f}  {int(row['live'])} live, "
                    f"{int(row['evicted'])} evicted",
                    flush=True,
                )
    print(f"load average after {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
