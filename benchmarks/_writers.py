"""The writer-pool harness of `store_concurrency.py` and `store_servers.py`: synthetic records and
decisions, and `throughput`, which times admission or advice by spawned processes on one store.

One harness, so that the SQLite figures of both scripts measure the same thing. A store location
is a file path (SQLite) or a postgresql:// URL (`open_store`).
"""

from __future__ import annotations

import json
import multiprocessing
import statistics
import time
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event
from pathlib import Path

from countermem.core import Action, CheckResult, Decision, Facts, Task
from countermem.memory import Record, RecordSource, open_memory, open_store

CAPACITY = 200
FACTS = Facts(values={"n_vars": 20})
PROCESS_LIMIT_S = 900
HEADER = f"{'store':9} {'kind':10} {'writers':>7} {'ops':>6} {'ops/s':>8} {'p50 ms':>8} {'p95 ms':>8}  store after"


def record(
    writer: int, i: int, condition: str = "n_vars > 1", benchmark: str = "toy", *, varied: bool = False
) -> Record:
    """A record of `writer`'s task `i`; `varied` adds a word of 101 values to the situation, so
    that a store of 100,000 records does not hold a few hundred situations over and over."""
    gain = 0.1 + ((writer * 7919 + i) % 9) / 10
    more = f" more{i % 101}" if varied else ""
    return Record(
        domain="toy",
        benchmark=benchmark,
        situation=f"writer {writer} task {i}: reach {i % 11} from zero, words{i % 13}{more} shared text",
        original_action=Action(content=f"add {i % 5} # writer {writer} attempt {i}"),
        improved_action=Action(content=f"add {i % 11}"),
        original_check=CheckResult(utility=0.0, passed=False, completed=True, status="wrong"),
        improved_check=CheckResult(utility=gain, passed=False, completed=True, status="wrong"),
        utility_gain=gain,
        condition=condition,
        source=RecordSource(task_id=f"toy-{writer}-{i}", benchmark=benchmark),
    )


def decision(writer: int, i: int) -> Decision:
    task = Task(id=f"q-{writer}-{i}", benchmark="toy", domain="toy", prompt=f"reach {i % 11}", gold="0")
    return Decision(task=task, situation=f"task {i}: reach {i % 11} from zero, words{i % 13}", facts=FACTS)


def _work(
    kind: str, location: str, writer: int, ops: int, varied: bool, ready: Queue[int], start: Event, out: str
) -> None:
    latencies: list[float] = []
    if kind == "admission":
        store = open_store(location)
        ready.put(writer)
        start.wait()
        for i in range(ops):
            item = record(writer, i, varied=varied)
            began = time.perf_counter()
            store.add(item)
            latencies.append(time.perf_counter() - began)
        store.close()
    else:
        memory = open_memory(location, action_language="text", embedder="lexical")
        memory.advise(decision(writer, -1))  # warm: the first call builds the index or the keys
        ready.put(writer)
        start.wait()
        for i in range(ops):
            began = time.perf_counter()
            memory.advise(decision(writer, i))
            latencies.append(time.perf_counter() - began)
    Path(out).write_text(json.dumps({"end": time.time(), "latencies": latencies}))


def throughput(
    kind: str, location: str, writers: int, ops: int, folder: Path, *, varied: bool = False
) -> dict[str, float]:
    """`ops` admissions (`kind` "admission") or advise calls ("advice", on a store first filled
    with CAPACITY records) by each of `writers` processes on the store at `location`, of capacity
    CAPACITY; `folder` takes the processes' reports."""
    with open_store(location, capacity=CAPACITY) as store:
        if kind == "advice":
            for i in range(CAPACITY):
                store.add(record(999, i, varied=varied))
    context = multiprocessing.get_context("spawn")
    ready: Queue[int] = context.Queue()
    start = context.Event()
    outs = [folder / f"{kind}-{writers}-{n}-{time.monotonic_ns()}.json" for n in range(writers)]
    processes = [
        context.Process(target=_work, args=(kind, location, n, ops, varied, ready, start, str(outs[n])))
        for n in range(writers)
    ]
    for process in processes:
        process.start()
    for _ in processes:
        ready.get(timeout=600)  # every process has imported and opened the store
    began = time.time()
    start.set()
    for process in processes:
        process.join(PROCESS_LIMIT_S)
        if process.is_alive():
            process.kill()
            raise SystemExit(f"a {kind} process did not finish within {PROCESS_LIMIT_S} s")
        if process.exitcode != 0:
            raise SystemExit(f"a {kind} process failed (exit code {process.exitcode})")
    reports = [json.loads(out.read_text()) for out in outs]
    latencies = sorted(x for r in reports for x in r["latencies"])
    elapsed = max(r["end"] for r in reports) - began
    with open_store(location, read_only=True) as store:
        live, evicted = len(store), len(store.evictions())
    return {
        "ops": float(len(latencies)),
        "ops_per_s": len(latencies) / elapsed,
        "p50_ms": 1000 * statistics.median(latencies),
        "p95_ms": 1000 * latencies[int(0.95 * (len(latencies) - 1))],
        "live": float(live),
        "evicted": float(evicted),
    }


def print_row(store: str, kind: str, writers: int, row: dict[str, float]) -> None:
    print(
        f"{store:9} {kind:10} {writers:>7} {int(row['ops']):>6} {row['ops_per_s']:>8.1f} "
        f"{row['p50_ms']:>8.2f} {row['p95_ms']:>8.2f}  {int(row['live'])} live, "
        f"{int(row['evicted'])} evicted",
        flush=True,
    )
