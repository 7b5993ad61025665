"""The Ray executor of a study: every job of the plan is a Ray task, on this machine or a cluster.

The study folder stays on the driver (the machine running `countermem study`) and stays the one
source of truth: the driver submits only jobs without a record, ships each its inputs and
commits what it sends back (`_study_bundle`), so a study started with `--workers` can be resumed
with `--executor ray` and the other way round, with the results an uninterrupted run gives.
A job asks Ray for as many CPUs as it gets threads, and Ray reruns it (`MAX_RETRIES` times) when
its worker process or node dies; a job that fails in its own code is not retried, as with
`--workers`. ray is imported only here, and only when the executor is used.
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from countermem.core import (
    BACKBONE_FAULTS,
    ClusterUnavailableError,
    ConfigError,
    CountermemError,
    countermem_version,
)
from countermem.experiment._study_bundle import (
    JobResult,
    clear_incoming,
    collect_inputs,
    commit_result,
    merge_cache_rows,
    run_job_in_temp,
)
from countermem.experiment._study_config import StudyConfig
from countermem.experiment._study_jobs import JobRecord
from countermem.experiment._study_plan import Job

if TYPE_CHECKING:
    from countermem.experiment._study import StudyOutcome, StudyProgress, _RunCounter

MAX_RETRIES = 3
"""Times Ray reruns a job whose worker process or node died under it."""
LOCAL_OBJECT_STORE_BYTES = 200 * 1024 * 1024
"""The object store of a Ray instance started for one study: job bundles only pass through it."""
RAY_PIN = "ray==2.60.0"
_ADDRESS = re.compile(r"^(?:ray://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(?P<port>\d{1,5})$")


@dataclass(frozen=True)
class RaySettings:
    """Where the study's Ray jobs run and how much of it each takes."""

    address: str | None = None
    """HOST:PORT of a running cluster's head (GCS), `auto` for the cluster this machine belongs
    to, or None: start a Ray instance on this machine for this study and stop it at the end."""
    job_threads: int = 1
    """Threads (and Ray CPUs) of each job."""
    local_cpus: int = 1
    """CPUs of a Ray instance started for the study (address None)."""


def import_ray() -> Any:
    try:
        import ray
    except ImportError as error:
        raise ClusterUnavailableError(
            f"--executor ray needs the ray package, which is not installed: pip install 'countermem[ray]' "
            f"(installs {RAY_PIN}), or run the study with --workers"
        ) from error
    return ray


def check_address(address: str) -> tuple[str, int] | None:
    """The (host, port) of a HOST:PORT address (None for `auto`); a malformed one is refused."""
    if address == "auto":
        return None
    match = _ADDRESS.match(address.strip())
    port = int(match.group("port")) if match else 0
    if match is None or not 0 < port < 65536:
        raise ClusterUnavailableError(
            f"--address {address!r} is not a Ray cluster address: give HOST:PORT of the cluster's head "
            "(the address `ray start --head` printed, e.g. 127.0.0.1:6379), or `auto` on a node of the cluster"
        )
    return match.group("host").strip("[]"), port


def _find_local_cluster(ray: Any) -> tuple[str, int]:
    """What `auto` means to Ray ($RAY_ADDRESS, else the cluster last started on this machine), so
    that a stale or missing one is refused at once rather than after minutes of Ray's retries."""
    try:
        address = ray._private.services.canonicalize_bootstrap_address("auto")
    except Exception as error:
        address, why = None, f" ({type(error).__name__}: {_first_line(str(error))})"
    else:
        why = ""
    if not address:
        raise ClusterUnavailableError(
            f"--address auto found no Ray cluster on this machine{why}; start one (`ray start --head "
            "--node-ip-address 127.0.0.1`) or pass HOST:PORT of a cluster's head, or leave --address out"
        )
    found = check_address(str(address))
    assert found is not None
    return found


def _probe(host: str, port: int, timeout_s: float = 5.0) -> None:
    """Fail fast and clearly when nothing listens at the address (Ray itself would retry for a minute)."""
    try:
        with socket.create_connection((host, port), timeout=timeout_s):
            return
    except OSError as error:
        raise ClusterUnavailableError(
            f"no Ray cluster answers at {host}:{port} ({error.strerror or error}); start one there "
            f"(`ray start --head --port {port}`) or pass the address its head printed, or leave --address "
            "out to run the study on a Ray instance started on this machine"
        ) from error


def connect(settings: RaySettings) -> Callable[[], None]:
    """Join (or start) the Ray instance; return what to call to leave it at the end."""
    ray = import_ray()
    if ray.is_initialized():
        return lambda: None  # a caller that connected already keeps its connection
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    before = os.environ.get("RAY_ADDRESS")
    quiet: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
    if settings.address is None:
        try:
            ray.init(
                address="local", num_cpus=settings.local_cpus, object_store_memory=LOCAL_OBJECT_STORE_BYTES,
                _node_ip_address="127.0.0.1", **quiet,
            )
        except Exception as error:
            raise ClusterUnavailableError(
                f"could not start a Ray instance on this machine: {type(error).__name__}: {error}; "
                "start one yourself (`ray start --head --node-ip-address 127.0.0.1`) and pass --address, "
                "or run the study with --workers"
            ) from error
        return _leave(ray, before)
    hostport = check_address(settings.address) or _find_local_cluster(ray)
    _probe(*hostport)
    try:
        address = settings.address if settings.address != "auto" else f"{hostport[0]}:{hostport[1]}"
        ray.init(address=address, **{k: v for k, v in quiet.items() if k != "include_dashboard"})
    except Exception as error:
        where = f"at {hostport[0]}:{hostport[1]}"
        raise ClusterUnavailableError(
            f"could not join the Ray cluster {where}: {type(error).__name__}: {_first_line(str(error))}. "
            "Start one (`ray start --head --node-ip-address 127.0.0.1`) and pass the address it printed "
            "(HOST:PORT), or leave --address out to start one for this study"
        ) from error
    return _leave(ray, before)


def _leave(ray: Any, address_before: str | None) -> Callable[[], None]:
    """Disconnect (stopping an instance started for the study), and forget the address that
    ray.init left in the environment, so a later study in this process starts from scratch."""

    def leave() -> None:
        ray.shutdown()
        if address_before is None:
            os.environ.pop("RAY_ADDRESS", None)
        else:
            os.environ["RAY_ADDRESS"] = address_before

    return leave


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


def run_remote(config_json: str, job: Job, inputs: Any, threads: int) -> JobResult:
    """The Ray task's body (module level, so workers import it by name)."""
    return run_job_in_temp(config_json, job, inputs, threads)


class _Driver:
    """Submits the jobs whose dependencies have records, and commits each result as it arrives."""

    def __init__(self, root: Path, config: StudyConfig, jobs: dict[str, Job], settings: RaySettings) -> None:
        self.ray = import_ray()
        self.root = root
        self.config_json = config.model_dump_json()
        self.jobs = jobs
        self.settings = settings
        self.task = self.ray.remote(run_remote)

    def slots(self) -> int:
        cpus = float(self.ray.cluster_resources().get("CPU", 1))
        return max(1, int(cpus // self.settings.job_threads))

    def submit(self, job: Job) -> Any:
        inputs = collect_inputs(self.root, job, self.jobs)
        threads = self.settings.job_threads
        options = self.task.options(num_cpus=threads, max_retries=MAX_RETRIES, retry_exceptions=False, name=job.id)
        return options.remote(self.config_json, job, self.ray.put(inputs), threads)

    def collect(self, job: Job, ref: Any) -> JobRecord:
        """The job's record once its outputs are in the study folder; its error otherwise."""
        try:
            result: JobResult = self.ray.get(ref)
        except self.ray.exceptions.RayError as error:
            raise ClusterUnavailableError(
                f"Ray lost job {job.id} ({type(error).__name__}: {_first_line(str(error))}) after "
                f"{MAX_RETRIES} retries; run the study again to redo it"
            ) from error
        if result.version != countermem_version():
            raise ConfigError(
                f"job {job.id} ran on a worker with countermem {result.version}, but this study runs "
                f"{countermem_version()}; install the same countermem on every node of the cluster"
            )
        if result.record is None:
            merge_cache_rows(self.root, result)  # a failed job's replies too: its rerun replays them
        if result.error is not None:
            raise result.error
        if result.crash is not None:
            raise _RemoteCrash(result.crash)
        return commit_result(self.root, job, result)


class _RemoteCrash(Exception):
    """A job failed with an exception that is not countermem's (its text carries the remote traceback)."""


def run_ray(
    root: Path, config: StudyConfig, plan_jobs: list[Job], pending: list[Job], done: dict[str, JobRecord],
    outcome: StudyOutcome, progress: StudyProgress | None, counter: _RunCounter, settings: RaySettings,
) -> None:
    """`_study.run_study`'s loop on Ray; same bookkeeping as the process pool's."""
    from countermem.experiment._study import _blocked_by, _in_job, read_job_progress

    if settings.job_threads < 1:
        raise ConfigError(f"--job-threads must be at least 1, got {settings.job_threads}")
    clear_incoming(root)
    leave = connect(settings)
    driver = _Driver(root, config, {j.id: j for j in plan_jobs}, settings)
    ray = driver.ray
    waiting = list(pending)
    running: dict[Any, Job] = {}
    try:
        in_flight = 2 * driver.slots()
        while waiting or running:
            for job in list(waiting):
                dep = _blocked_by(job, outcome)
                if dep is not None:
                    outcome.blocked[job.id] = f"needs {dep}, which did not finish"
                    waiting.remove(job)
                elif len(running) < in_flight and all(d in done for d in job.depends):
                    waiting.remove(job)
                    running[driver.submit(job)] = job
                    if progress:
                        progress.job_started(job)
            if not running:
                if waiting:
                    raise ConfigError(f"job {waiting[0].id} waits for a job that is not in the plan")
                break
            ready, _ = ray.wait(list(running), num_returns=1, timeout=0.5)
            for ref in ready:
                job = running.pop(ref)
                try:
                    record = driver.collect(job, ref)
                except BACKBONE_FAULTS as error:
                    raise _in_job(job, error) from error
                except _RemoteCrash as crash:
                    outcome.failed[job.id] = str(crash)
                except CountermemError as error:
                    outcome.failed[job.id] = f"{type(error).__name__}: {error}"
                else:
                    done[job.id] = record
                    outcome.finished.append(job.id)
                if job.id in done and job.planned_runs:
                    counter.add(job.planned_runs)
                if progress:
                    if job.id in done:
                        progress.job_progress(read_job_progress(root, job))
                    progress.job_finished(job, outcome.failed.get(job.id))
    except BaseException:
        for ref in running:
            with contextlib.suppress(Exception):  # a task that ended meanwhile cannot be cancelled
                ray.cancel(ref, force=True)
        raise
    finally:
        leave()
