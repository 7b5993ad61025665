"""Study throughput: the Ray executor against the process pool (`--workers 2`) on this machine.

Run: .venv/bin/python benchmarks/study_executors.py [--repeats 2] [--heldout 12] [--out runs/study-executors]

One scripted two-benchmark study (sql-shop and gsm8k; methods none and countermem; the oracle
backbone, so the time is countermem's own work: agents, checkers, memory, job bookkeeping) runs
three ways, each into a fresh folder:
  workers      `--workers 2`: a pool of 2 processes;
  ray-cluster  `--executor ray --address HOST:PORT`: a 2-CPU Ray head this script starts on
               127.0.0.1 beforehand (the scale-out case: the cluster is already up);
  ray-local    `--executor ray --workers 2`: a Ray instance started for the study (its start-up
               is counted).
It prints wall seconds (median of --repeats), task runs per second and each Ray way's time
relative to the pool's, checks that every way wrote the same results, and writes
study_executors.json under --out. The Ray head is stopped at the end (only what this script
started). Needs the `ray` extra.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

RAY_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
os.environ.update(RAY_ENV)  # before ray is imported: a driver reads them then, and must match the head

from countermem.experiment._study import run_study  # noqa: E402
from countermem.experiment._study_config import parse_study_config  # noqa: E402


def _config(heldout: int) -> Any:
    return parse_study_config({
        "name": "executors", "benchmarks": ["sql-shop", "gsm8k"], "methods": ["none", "countermem"],
        "seeds": [1], "backbones": {"oracle": {"kind": "scripted"}},
        "split": {"construct": heldout, "train": heldout // 2, "heldout": heldout},
        "memory": {"embedder": "lexical"},
    })


@contextlib.contextmanager
def _ray_head(cpus: int) -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    temp = tempfile.mkdtemp(prefix="cm-ray-")
    src = str(Path(__file__).resolve().parents[1] / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    head = subprocess.Popen(
        [sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--block", "--node-ip-address", "127.0.0.1",
         "--port", str(port), "--num-cpus", str(cpus), "--object-store-memory", str(200 * 1024 * 1024),
         "--include-dashboard", "false", "--disable-usage-stats", "--temp-dir", temp],
        env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        address = f"127.0.0.1:{port}"
        ready = f"import ray; ray.init(address={address!r}, log_to_driver=False); ray.shutdown()"
        subprocess.run([sys.executable, "-c", ready], env=env, check=True, capture_output=True, timeout=300)
        yield address  # its node has registered: the timed runs do not wait for the head's start-up
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            head.wait(timeout=10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGKILL)
        head.wait()
        shutil.rmtree(temp, ignore_errors=True)


def _results(root: Path) -> dict[str, list[str]]:
    """Each run's task outcomes (id, solved), the part of the results that timing cannot change."""
    found: dict[str, list[str]] = {}
    for path in sorted(root.rglob("results.jsonl")):
        rows = [json.loads(line) for line in path.read_text().splitlines() if line]
        found[str(path.relative_to(root))] = [f"{r['task_id']}:{r['solved']}" for r in rows]
    return found


def _run(label: str, out: Path, config: Any, **how: Any) -> tuple[float, int, dict[str, list[str]]]:
    root = out / label
    shutil.rmtree(root, ignore_errors=True)
    started = time.perf_counter()
    outcome = run_study(config, root, write_report=False, **how)
    seconds = time.perf_counter() - started
    if not outcome.ok:
        raise SystemExit(f"{label}: the study failed: {outcome.failed or outcome.blocked}")
    runs = sum(j.planned_runs for j in outcome.plan.jobs)
    return seconds, runs, _results(root)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--heldout", type=int, default=12, help="held-out (and construct) tasks per benchmark")
    parser.add_argument("--out", type=Path, default=Path("runs/study-executors"))
    args = parser.parse_args()
    config = _config(args.heldout)
    args.out.mkdir(parents=True, exist_ok=True)
    times: dict[str, list[float]] = {"workers": [], "ray-cluster": [], "ray-local": []}
    results: dict[str, dict[str, list[str]]] = {}
    runs = 0
    with _ray_head(2) as address:
        for _ in range(args.repeats):
            for label, how in (("workers", {"workers": 2}), ("ray-cluster", {"executor": "ray", "address": address}),
                               ("ray-local", {"executor": "ray", "workers": 2})):
                seconds, runs, results[label] = _run(label, args.out, config, **how)
                times[label].append(seconds)
                print(f"  {label}: {seconds:.1f} s", flush=True)
    if not results["workers"] == results["ray-cluster"] == results["ray-local"]:
        raise SystemExit("the executors wrote different results")
    base = statistics.median(times["workers"])
    rows = []
    print(f"\nscripted study, sql-shop + gsm8k, {runs} task runs, median of {args.repeats}:")
    print(f"{'executor':<12} {'seconds':>8} {'runs/s':>8} {'vs workers':>11}")
    for label, seen in times.items():
        median = statistics.median(seen)
        rows.append({"executor": label, "seconds": round(median, 2), "runs_per_s": round(runs / median, 2),
                     "relative": round(median / base, 3), "all_seconds": [round(s, 2) for s in seen]})
        print(f"{label:<12} {median:>8.1f} {runs / median:>8.2f} {median / base:>10.2f}x")
    summary = {"task_runs": runs, "repeats": args.repeats, "cpus": os.cpu_count(), "rows": rows}
    (args.out / "study_executors.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(f"wrote {args.out / 'study_executors.json'}")


if __name__ == "__main__":
    main()
