"""Store throughput on SQLite and Postgres, and retrieval latency on Postgres with and without pgvector.

    .venv/bin/python benchmarks/store_servers.py                          # all of it (several minutes)
    .venv/bin/python benchmarks/store_servers.py --ops 50 --sizes 200 --parts throughput retrieval

It starts its own PostgreSQL server on 127.0.0.1 (the `postgres` extra's binaries, see
`countermem.memory._pg_local`) and removes it at the end.

throughput: 1 and 8 spawned processes on one store of capacity 200, per backend. admission: each
process adds its own synthetic records (`add`; past 200 each admission also evicts and logs, in
the same transaction). advice: the store holds 200 records; each process opens it with
`open_memory` (lexical embedder, TopOne) and calls `advise`, which ranks and then writes the reuse
counters of the offered records (on Postgres: `ServerRetriever`, ranked on the server, counters
incremented in SQL). Throughput is all operations over the time from a common start line to the
last process's end; latencies are per call, pooled.

retrieval: a Postgres store of N records (10 distinct conditions, 4 benchmarks, one domain) is
loaded once into a database without the `vector` extension and copied (`CREATE DATABASE ...
TEMPLATE`) into one with it. `ServerRetriever.retrieve` (k=3) is timed for queries whose facts
make 10% of the records eligible (the SQL condition prefilter at work) and for queries where all
are; `keys s` is the one-off cost of embedding and storing the keys (and building the HNSW index).
`recall@3` compares pgvector's (approximate) top 3 with the exact ranking of the plain database.

Numbers depend on the machine's load; the load average is printed next to them. This is a
measurement, never a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

from _writers import HEADER, print_row, record, throughput

from countermem.core import Facts
from countermem.memory import (
    PostgresStore,
    RetrievalQuery,
    ServerRetriever,
    StoreRows,
    make_embedder,
    open_store,
)
from countermem.memory._pg_local import LocalPostgres
from countermem.memory._store_rows import RecordRow

QUERIES = 60


def run_throughput(server: LocalPostgres, ops: int, writer_counts: list[int], folder: Path) -> None:
    pg_base = server.create_database("throughput", pgvector=server.has_pgvector)
    print(HEADER)
    for backend in ("sqlite", "postgres"):
        for kind in ("admission", "advice"):
            for writers in writer_counts:
                location = (
                    str(folder / f"{kind}-{writers}.sqlite")
                    if backend == "sqlite"
                    else f"{pg_base}?schema={kind}_{writers}"
                )
                print_row(backend, kind, writers, throughput(kind, location, writers, ops, folder, varied=True))


# --- retrieval latency -------------------------------------------------------------------------


def fill(url: str, size: int) -> float:
    began = time.perf_counter()
    rows = tuple(
        RecordRow(id=r.id, body=r.model_dump_json())
        for r in (record(1, i, f"n_vars > {i % 10}", f"toy{i % 4}", varied=True) for i in range(size))
    )
    with open_store(url, capacity=size) as store:
        store.load_rows(StoreRows(meta={"capacity": str(size)}, records=rows, history=(), evictions=()))
    return time.perf_counter() - began


def query(i: int, n_vars: int) -> RetrievalQuery:
    return RetrievalQuery(
        text=f"task {i * 37}: reach {i % 11} from zero, words{i % 13} more{i % 101}",
        facts=Facts(values={"n_vars": n_vars}),
        domain="toy",
        benchmark="toy0",
    )


def latency(url: str) -> tuple[float, dict[int, list[float]], dict[int, list[list[str]]]]:
    embedder = make_embedder("lexical")
    with open_store(url) as store:
        assert isinstance(store, PostgresStore)
        began = time.perf_counter()
        retriever = ServerRetriever(store, embedder, k=3)
        keys_s = time.perf_counter() - began
        times: dict[int, list[float]] = {}
        tops: dict[int, list[list[str]]] = {}
        for n_vars in (1, 10):  # n_vars 1: only "n_vars > 0" holds (10%); 10: all hold
            retriever.retrieve(query(-1, n_vars))
            for i in range(QUERIES):
                began = time.perf_counter()
                result = retriever.retrieve(query(i, n_vars))
                times.setdefault(n_vars, []).append(time.perf_counter() - began)
                tops.setdefault(n_vars, []).append([c.record.id for c in result.candidates])
    return keys_s, times, tops


def run_retrieval(server: LocalPostgres, sizes: list[int]) -> None:
    import psycopg

    print(f"{'records':>8} {'pgvector':8} {'eligible':>8} {'p50 ms':>8} {'p95 ms':>8} {'recall@3':>8} {'keys s':>8}")
    for size in sizes:
        plain_db, vector_db = f"plain_{size}", f"vector_{size}"
        plain = server.create_database(plain_db, pgvector=False)
        loaded = fill(plain, size)
        print(f"# {size} records loaded in {loaded:.1f} s", flush=True)
        with psycopg.connect(server.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{vector_db}" TEMPLATE "{plain_db}"')
        with psycopg.connect(server.url(vector_db), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION vector")
        exact_keys, exact_times, exact_tops = latency(plain)
        vector_keys, vector_times, vector_tops = latency(server.url(vector_db))
        for label, keys_s, times, tops in (
            ("no", exact_keys, exact_times, exact_tops),
            ("yes", vector_keys, vector_times, vector_tops),
        ):
            for n_vars, share in ((1, "10%"), (10, "100%")):
                ms = sorted(1000 * t for t in times[n_vars])
                hits = sum(
                    len(set(mine) & set(exact)) for mine, exact in zip(tops[n_vars], exact_tops[n_vars], strict=True)
                )
                recall = hits / max(1, sum(len(exact) for exact in exact_tops[n_vars]))
                print(
                    f"{size:>8} {label:8} {share:>8} {statistics.median(ms):>8.2f} "
                    f"{ms[int(0.95 * (len(ms) - 1))]:>8.2f} {recall:>8.3f} {keys_s:>8.1f}",
                    flush=True,
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, default=200, help="operations per process (throughput)")
    parser.add_argument("--writers", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 100_000], help="store sizes (retrieval)")
    parser.add_argument("--parts", nargs="+", default=["throughput", "retrieval"], choices=["throughput", "retrieval"])
    args = parser.parse_args()
    # stopped with a signal, still stop the server it started (a background job ignores SIGINT otherwise)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    signal.signal(signal.SIGINT, signal.default_int_handler)
    print(f"cpus {os.cpu_count()}, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with LocalPostgres() as server, tempfile.TemporaryDirectory() as tmp:
        print(f"postgres from {server.bin_dir}, pgvector {'yes' if server.has_pgvector else 'no'}", flush=True)
        if "throughput" in args.parts:
            run_throughput(server, args.ops, args.writers, Path(tmp))
        if "retrieval" in args.parts:
            run_retrieval(server, args.sizes)
    print(f"load average after {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
