"""`countermem study --executor ray`: jobs as Ray tasks on a real local Ray cluster (127.0.0.1).

The cluster is started once for the module with `ray start --head --block` in its own session and
its own temp folder, and stopped by killing that session (only processes this module started).
The study folder never leaves the driver: each job gets its inputs as bytes and sends its outputs
back, so these tests also show that nothing depends on a shared file system path.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_study import _results
from typer.testing import CliRunner

import countermem
from countermem.cli import app
from countermem.core import ArtifactMismatchError, ClusterUnavailableError, LLMRequestRejectedError
from countermem.domains import load_benchmark
from countermem.experiment._study import run_study
from countermem.experiment._study_bundle import collect_inputs, commit_result, run_job_in_temp
from countermem.experiment._study_config import load_study_config, parse_study_config
from countermem.experiment._study_jobs import execute_job, read_record
from countermem.experiment._study_plan import plan_study
from countermem.experiment._study_ray import RaySettings, check_address, connect, import_ray
from fake_chat_server import completion, serving
from required_tools import require_ray

SRC = str(Path(countermem.__file__).resolve().parents[1])
RAY_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
STUDY = (
    'name = "ray"\nbenchmarks = ["sql-shop"]\nmethods = ["none", "countermem", "no-conditions"]\nseeds = [1]\n'
    'shard_size = 3\n[backbones.b]\nkind = "scripted"\n[split]\nconstruct = 6\ntrain = 3\nheldout = 4\n'
    '[memory]\nembedder = "lexical"\n[analyses]\naccumulation = [0, 3]\n'
)
"""Every kind of job: construct (with snapshots), train, evaluate shards and their merges."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module", autouse=True)
def ray_env() -> Iterator[None]:
    """Ray's settings for the head and every driver here; set before ray is first imported, which
    is when a driver reads them (a driver whose auth mode differs from the head's never connects)."""
    saved = {k: os.environ.get(k) for k in RAY_ENV}
    os.environ.update(RAY_ENV)
    yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


_HEADS: dict[str, int] = {}
"""Address -> the session id of the head that serves it (every process the cluster starts is in it)."""


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A two-CPU Ray head on 127.0.0.1; yields its address."""
    require_ray()
    port = _free_port()
    temp = tempfile.mkdtemp(prefix="cm-ray-")
    env = {**os.environ, **RAY_ENV, "PYTHONPATH": os.pathsep.join([SRC, os.environ.get("PYTHONPATH", "")])}
    head = subprocess.Popen(
        [sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--block", "--node-ip-address", "127.0.0.1",
         "--port", str(port), "--num-cpus", "2", "--object-store-memory", str(200 * 1024 * 1024),
         "--include-dashboard", "false", "--disable-usage-stats", "--temp-dir", temp],
        env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(240):  # a hang guard: the head listens within seconds
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert head.poll() is None, "ray start --head exited"
                time.sleep(0.5)
        _HEADS[f"127.0.0.1:{port}"] = head.pid
        yield f"127.0.0.1:{port}"
    finally:
        _stop(head)
        shutil.rmtree(temp, ignore_errors=True)


def _stop(head: subprocess.Popen[bytes]) -> None:
    """End the head and everything it started (they share its session), gently first."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(head.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        head.wait(timeout=10)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(head.pid, signal.SIGKILL)
    head.wait()


@pytest.fixture(scope="module")
def study_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ray-study") / "study.toml"
    path.write_text(STUDY)
    return path


@pytest.fixture(scope="module")
def with_workers(study_file: Path) -> Path:
    """The study run by the process pool: what every Ray run must end with."""
    root = study_file.parent / "workers"
    outcome = run_study(load_study_config(study_file), root, workers=2, write_report=False)
    assert outcome.ok, outcome.failed
    return root


def test_ray_gives_the_results_of_workers(cluster: str, study_file: Path, with_workers: Path) -> None:
    root = study_file.parent / "ray"
    config = load_study_config(study_file).model_copy(update={"executor": "ray", "ray_address": cluster})
    outcome = run_study(config, root, write_report=False)  # the study file's `executor` and `ray_address`
    assert outcome.ok, outcome.failed
    assert len(outcome.finished) == len(outcome.plan.jobs) > 10
    expected, got = _results(with_workers), _results(root)
    assert expected.keys() == got.keys()
    assert any("snapshots" in k for k in got) and any("shard-2" in k for k in got)
    for key in expected:
        assert got[key] == expected[key], key
    assert not (root / ".incoming").exists()
    manifest = json.loads((root / "manifest.json").read_text())
    assert manifest["execution"] == {"executor": "ray", "address": cluster, "job_threads": 1}
    assert "executor" not in manifest["config"], "how a study runs is not part of its identity"
    assert manifest["config_sha256"] == json.loads((with_workers / "manifest.json").read_text())["config_sha256"]
    for job in outcome.plan.jobs:
        record = read_record(root, job.id)
        assert record is not None and record.outputs
    again = run_study(load_study_config(study_file), root, workers=2, write_report=False)
    assert again.ok and not again.finished and len(again.reused) == len(outcome.plan.jobs)


def _running_jobs(session: int) -> list[int]:
    """Processes of the cluster's session running a construct job now (Ray titles a worker with its
    task's name, which is the job's id)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if title.startswith("ray::construct/") and int(stat.rsplit(")", 1)[1].split()[3]) == session:
            found.append(int(entry.name))
    return found


@pytest.mark.slow
def test_a_job_whose_worker_dies_is_rerun_by_ray(cluster: str, study_file: Path, with_workers: Path) -> None:
    """SIGKILL to the worker process running a job (as when a node's OOM killer strikes): Ray runs the
    job again (max_retries) and the study ends with the results of one where nothing died."""
    import threading

    killed: list[int] = []
    finished = threading.Event()

    def kill_one() -> None:
        while not finished.is_set() and not killed:
            for pid in _running_jobs(_HEADS[cluster]):
                time.sleep(0.5)  # into the job, not its first instruction
                if pid in _running_jobs(_HEADS[cluster]):  # still in that job
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                        killed.append(pid)
                break
            time.sleep(0.05)

    killer = threading.Thread(target=kill_one, daemon=True)
    killer.start()
    root = study_file.parent / "died"
    try:
        outcome = run_study(load_study_config(study_file), root, executor="ray", address=cluster, write_report=False)
    finally:
        finished.set()
        killer.join()
    assert killed, "no job was seen running"
    assert outcome.ok, outcome.failed
    expected, got = _results(with_workers), _results(root)
    assert expected.keys() == got.keys()
    for key in expected:
        assert got[key] == expected[key], key


_PAUSE_AFTER_FIRST_JOB = """
import runpy, sys, threading
from pathlib import Path
import countermem.experiment._study as study

out, signal_file = Path(sys.argv[1]), Path(sys.argv[2])
counted = study._RunCounter.add


def add(self, n=1):
    counted(self, n)
    if list((out / "jobs").glob("*.json")):
        signal_file.write_text("a job is committed")
        threading.Event().wait(600)
        raise SystemExit("paused and never killed")


study._RunCounter.add = add
sys.argv = ["countermem", *sys.argv[3:]]
runpy.run_module("countermem", run_name="__main__")
"""
"""Runs the study command and, once the first job's record is written, waits there to be killed."""


@pytest.mark.slow
def test_a_killed_ray_study_resumes_to_the_results_of_an_uninterrupted_one(
    cluster: str, study_file: Path, with_workers: Path
) -> None:
    cut, paused = study_file.parent / "cut", study_file.parent / "paused"
    arguments = ["study", str(study_file), "--no-report", "--executor", "ray", "--address", cluster, "--out", str(cut)]
    env = {**os.environ, **RAY_ENV, "PYTHONPATH": os.pathsep.join([SRC, os.environ.get("PYTHONPATH", "")])}
    driver = subprocess.Popen(
        [sys.executable, "-c", _PAUSE_AFTER_FIRST_JOB, str(cut), str(paused), *arguments],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    for _ in range(1200):  # a hang guard (10 minutes), not a timing window: the driver waits to be killed
        if paused.exists() or driver.poll() is not None:
            break
        time.sleep(0.5)
    assert paused.exists(), f"the study never committed a job (exit code {driver.poll()})"
    os.killpg(driver.pid, signal.SIGKILL)
    driver.wait()
    total = len(json.loads((cut / "manifest.json").read_text())["jobs"])
    kept = len(list((cut / "jobs").glob("*.json")))
    assert 0 < kept < total
    again = subprocess.run(
        [sys.executable, "-m", "countermem", *arguments], env=env, capture_output=True, text=True, timeout=600
    )
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"{total - kept} jobs run, {kept} reused, 0 failed" in " ".join(again.stdout.split())
    expected, got = _results(with_workers), _results(cut)
    assert expected.keys() == got.keys()
    for key in expected:
        assert got[key] == expected[key], key


def test_a_backbone_fault_on_a_worker_stops_the_study(cluster: str, tmp_path: Path) -> None:
    """As on one machine: the fault names its job, no job is marked done, and the replies the job
    got before the fault reach the study's cache (so that its rerun replays them)."""
    import sqlite3

    answered: list[int] = []

    def answer_then_refuse(body: dict[str, object]) -> tuple[int, str, bytes]:
        if not answered:
            answered.append(1)
            return completion("Action: submit\n```sql\nSELECT 1\n```")
        return 401, "application/json", b'{"error": {"message": "invalid api key"}}'

    with serving(answer_then_refuse) as server:
        config = parse_study_config({
            "name": "fault", "benchmarks": ["sql-shop"], "methods": ["none"], "seeds": [1],
            "backbones": {"b": {"kind": "openai", "model": "m", "base_url": server.url}},
            "split": {"construct": 2, "train": 1, "heldout": 2}, "memory": {"embedder": "lexical"},
        })
        with pytest.raises(LLMRequestRejectedError, match=r"^job evaluate/b/.*401"):
            run_study(config, tmp_path, executor="ray", address=cluster, write_report=False)
    assert server.requests == 2, "one reply, then the refusal that stopped the study"
    assert not list((tmp_path / "jobs").glob("*.json")), "the faulted job is not marked done"
    with sqlite3.connect(tmp_path / "cache" / "b.sqlite") as cache:
        assert cache.execute("SELECT COUNT(*) FROM completions").fetchone()[0] == 1


def test_a_job_run_away_from_the_study_folder_commits_what_execute_job_writes(tmp_path: Path) -> None:
    """No Ray needed: the bundle round trip (inputs out, outputs back, hashes checked) alone."""
    study = tmp_path / "study.toml"
    study.write_text(STUDY)
    config = load_study_config(study)
    plan = plan_study(config, {"sql-shop": load_benchmark("sql-shop")}, {})
    jobs = {j.id: j for j in plan.jobs}
    direct, shipped = tmp_path / "direct", tmp_path / "shipped"
    manifest = {"jobs": [{"id": j.id, "out": str(j.out)} for j in plan.jobs]}
    for root in (direct, shipped):
        root.mkdir()
        (root / "manifest.json").write_text(json.dumps(manifest))
    construct, train = plan.jobs[0], next(j for j in plan.jobs if j.kind == "train")
    for job in (construct, train):
        execute_job(direct, config, job)
        result = run_job_in_temp(config.model_dump_json(), job, collect_inputs(shipped, job, jobs), 1)
        assert result.error is None and result.crash is None, result.crash
        record = commit_result(shipped, job, result)
        assert record.outputs.keys() == read_record(direct, job.id).outputs.keys()  # type: ignore[union-attr]
    assert _results(direct) == _results(shipped)
    assert (shipped / "cache" / "b.sqlite").is_file(), "the job's cache rows reach the study's cache"
    tampered = run_job_in_temp(config.model_dump_json(), train, collect_inputs(shipped, train, jobs), 1)
    checkpoint = next(p for p in tampered.files if p.endswith(".pt"))
    tampered.files[checkpoint] = b"not the checkpoint"
    (shipped / "jobs" / (train.id.replace("/", "__") + ".json")).unlink()
    with pytest.raises(ArtifactMismatchError, match="arrived with sha256"):
        commit_result(shipped, train, tampered)
    assert read_record(shipped, train.id) is None, "a job whose outputs did not arrive intact has no record"
    assert not (shipped / ".incoming").exists()


def test_a_malformed_or_dead_address_is_a_named_error(tmp_path: Path) -> None:
    for bad in ("nowhere", "host:port", "127.0.0.1:99999", "http://127.0.0.1:6379"):
        with pytest.raises(ClusterUnavailableError, match="not a Ray cluster address"):
            check_address(bad)
    assert check_address("auto") is None and check_address("[::1]:6379") == ("::1", 6379)
    require_ray()
    started = time.monotonic()
    with pytest.raises(ClusterUnavailableError, match=r"no Ray cluster answers at 127\.0\.0\.1:\d+.*ray start --head"):
        connect(RaySettings(address=f"127.0.0.1:{_free_port()}"))
    assert time.monotonic() - started < 30, "a dead address must fail fast"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAY_ADDRESS", f"127.0.0.1:{_free_port()}")  # what `auto` reads first: a cluster gone
        with pytest.raises(ClusterUnavailableError, match="no Ray cluster answers at"):
            connect(RaySettings(address="auto"))
    assert time.monotonic() - started < 60, "a dead address must fail fast"
    toml = tmp_path / "study.toml"
    toml.write_text(STUDY)
    result = CliRunner().invoke(app, ["study", str(toml), "--executor", "ray", "--address", "127.0.0.1:1", "--out",
                                      str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "ClusterUnavailableError" in result.output and "ray start --head" in " ".join(result.output.split())


def test_without_ray_the_executor_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ClusterUnavailableError, match=r"pip install 'countermem\[ray\]'.*--workers"):
        import_ray()


def test_countermem_imports_without_ray() -> None:
    code = "import sys, countermem, countermem.cli, countermem.experiment._study; print('ray' in sys.modules)"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([SRC, os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300, check=True)
    assert out.stdout.strip() == "False"


def test_ray_options_belong_to_the_ray_executor(tmp_path: Path) -> None:
    from countermem.core import ConfigError

    toml = tmp_path / "study.toml"
    toml.write_text(STUDY)
    with pytest.raises(ConfigError, match="belongs to --executor ray"):
        run_study(load_study_config(toml), tmp_path / "a", address="127.0.0.1:6379")
    with pytest.raises(ConfigError, match="--executor must be workers or ray"):
        run_study(load_study_config(toml), tmp_path / "b", executor="dask")
