"""`countermem study`: run a whole study from one config, in parallel, resumably, and report it.

The study folder holds a manifest (config, its hash, versions, git commit, seeds, skipped
benchmarks, the job graph and, at the end, every artifact's sha256), one record per finished job
under jobs/, the run directories, the response cache, and report/. Running the same command
again skips finished jobs (after checking their outputs' hashes), reruns unfinished ones from
their start with cached model replies, and ends with the results an uninterrupted run gives.

A backbone fault (the model server unreachable, refusing every request, or failing past its
retries and deadline) stops the study instead of failing one job after another: the job in
flight writes no record, jobs already running in other workers finish or fail first, and
running the same command again redoes the unfinished jobs.

Parallelism: independent jobs (different cells, methods, analyses, evaluation runs) run at the
same time on a pool of `workers` processes; each job loads its own benchmark and model. Results
do not depend on the number of workers: no job reads another's state except the artifacts it
waits for. With `executor="ray"` the same jobs run as Ray tasks, on this machine or a cluster
without a shared file system (`_study_ray`, `_study_bundle`); the study folder stays here.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from multiprocessing import get_context
from pathlib import Path
from typing import Protocol

from countermem.agents import TaskOutcome
from countermem.core import BACKBONE_FAULTS, ConfigError, CountermemError, LLMError, git_commit
from countermem.domains import Benchmark, BenchmarkOptions, load_benchmark
from countermem.experiment._lock import hold_folder, work_under_parent_lock
from countermem.experiment._rundir import package_versions, write_json_atomic
from countermem.experiment._study_config import StudyConfig
from countermem.experiment._study_jobs import JobRecord, execute_job, read_record, verify_record
from countermem.experiment._study_plan import Job, StudyPlan, plan_study
from countermem.experiment._study_ray import RaySettings
from countermem.llm import default_threads, usable_cores

MANIFEST = "manifest.json"


class StudyProgress(Protocol):
    def start(self, plan: StudyPlan, done_runs: int, done_jobs: int) -> None: ...

    def job_started(self, job: Job) -> None: ...

    def job_finished(self, job: Job, error: str | None) -> None: ...

    def runs(self, done: int) -> None: ...

    def job_progress(self, progress: JobProgress) -> None: ...


class StudyInterrupted(CountermemError):
    """The study stopped before its end (a test's stop point, or Ctrl-C); run it again to resume."""


@dataclass
class StudyOutcome:
    root: Path
    plan: StudyPlan
    finished: list[str] = field(default_factory=list)
    reused: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    blocked: dict[str, str] = field(default_factory=dict)
    report: Path | None = None
    settings_added_since: list[str] = field(default_factory=list)
    """Settings this countermem has that the resumed study's saved config lacked (defaults used)."""
    deferred: list[str] = field(default_factory=list)
    """Unfinished jobs left for a later run because `only_benchmarks` excluded their benchmark."""

    @property
    def ok(self) -> bool:
        return not self.failed and not self.blocked


def config_digest(config: StudyConfig) -> str:
    return hashlib.sha256(config.identity_json().encode()).hexdigest()


def _fields_filled_since(saved: object, config: StudyConfig, digest: str) -> list[str] | None:
    """Settings that a newer countermem added (with their defaults) to a study's saved config.

    Without this, every new setting made every older study folder refuse to resume, though
    nothing its user wrote had changed. The saved config, read by today's schema, must give
    exactly today's config; what it lacked is named in the manifest's resume entry. Anything
    else that differs (a value, a removed key) is a changed config: None.
    """
    if not isinstance(saved, dict):
        return None
    try:
        upgraded = StudyConfig.model_validate(saved)
    except (ValueError, CountermemError):
        return None
    if config_digest(upgraded) != digest:
        return None
    return sorted(_missing_keys(saved, json.loads(config.identity_json())))


def _missing_keys(saved: dict[str, object], current: dict[str, object], prefix: str = "") -> set[str]:
    missing: set[str] = set()
    for key, value in current.items():
        name = f"{prefix}{key}"
        if key not in saved:
            missing.add(name)
        elif isinstance(value, dict) and isinstance(saved[key], dict):
            missing |= _missing_keys(saved[key], value, f"{name}.")  # type: ignore[arg-type]
    return missing


def _load_benchmarks(config: StudyConfig) -> tuple[dict[str, Benchmark], dict[str, str]]:
    loaded: dict[str, Benchmark] = {}
    skipped: dict[str, str] = {}
    for name in config.benchmarks:
        try:
            benchmark = load_benchmark(
                name, BenchmarkOptions(data_dir=config.data_dir, unsafe_no_sandbox=config.unsafe_no_sandbox)
            )
            availability = benchmark.availability()
        except CountermemError as error:
            skipped[name] = str(error)
            continue
        if not availability.available:
            skipped[name] = availability.reason or "not available"
            continue
        loaded[name] = benchmark
    return loaded, skipped


def _manifest(root: Path, config: StudyConfig, plan: StudyPlan, source: str | None) -> dict[str, object]:
    path = root / MANIFEST
    digest = config_digest(config)
    if path.is_file():
        previous = json.loads(path.read_text())
        if previous.get("kind") != "study":
            raise ConfigError(f"{root} holds something other than a study; choose another --out")
        filled: list[str] | None = []
        if previous.get("config_sha256") != digest:
            filled = _fields_filled_since(previous.get("config"), config, digest)
            if filled is None:
                raise ConfigError(
                    f"{root} holds a study with a different config (sha256 {previous.get('config_sha256')} vs "
                    f"{digest}); resume it with the same config, or choose another --out"
                )
        resumed = dict(previous)
        starts = list(resumed.get("resumed", []))
        start: dict[str, object] = {
            "at": datetime.now(UTC).isoformat(), "git_commit": git_commit(), "versions": package_versions()
        }
        if filled:
            start["settings_added_since"] = filled
        starts.append(start)
        resumed["resumed"] = starts
        resumed["short_splits"] = plan.short_splits
        return resumed
    return {
        "kind": "study",
        "name": config.name,
        "config": json.loads(config.identity_json()),
        "config_sha256": digest,
        "config_file": source,
        "seeds": config.seeds,
        "versions": package_versions(),
        "git_commit": git_commit(),
        "started_at": datetime.now(UTC).isoformat(),
        "skipped": plan.skipped,
        "short_splits": plan.short_splits,
        "jobs": [
            {"id": j.id, "kind": j.kind, "out": str(j.out), "depends": list(j.depends), "planned_runs": j.planned_runs}
            for j in plan.jobs
        ],
    }


@dataclass(frozen=True)
class JobProgress:
    """Where one running job stands, read from its files (so it works for a job in another process)."""

    job: Job
    done: int
    solved: int
    admitted: int | None
    """Records admitted so far (construct jobs; None for others)."""


def read_job_progress(root: Path, job: Job) -> JobProgress:
    done = solved = 0
    for results in (root / job.out).rglob("results.jsonl"):
        for line in results.read_text().splitlines():
            if line.strip():
                done += 1
                solved += '"solved":true' in line.replace(" ", "")
    admitted: int | None = None
    if job.kind == "construct":
        admitted = 0
        for log in (root / job.out).rglob("admissions.jsonl"):
            admitted += sum('"admitted_record_id":"' in line.replace(" ", "") for line in log.read_text().splitlines())
    return JobProgress(job=job, done=done, solved=solved, admitted=admitted)


def _count_runs(root: Path, job: Job) -> int:
    total = 0
    for results in (root / job.out).rglob("results.jsonl"):
        with results.open() as handle:
            total += sum(1 for line in handle if line.strip())
    return total


def _job_entry(root: Path, config_json: str, job: Job, threads: int, parent: int | None = None) -> JobRecord:
    """Process-pool entry point (module level so that it pickles)."""
    if parent is not None:
        watch_parent(parent)
    work_under_parent_lock(root)
    return execute_job(root, StudyConfig.model_validate_json(config_json), job, threads=threads)


def watch_parent(
    parent: int, *, interval_s: float = 2.0, exit_now: Callable[[int], object] = os._exit,
    current_parent: Callable[[], int] = os.getppid,
) -> threading.Thread:
    """End this worker when the study process that started it is gone.

    Why: a study stopped with SIGTERM (`kill`, a scheduler's time limit) does not take its pool
    with it, and an orphaned worker would go on spending the cores on a job whose result nobody
    collects (a resume wipes that attempt anyway). Ctrl-C reaches the workers by itself."""

    def watch() -> None:
        while current_parent() == parent:
            time.sleep(interval_s)
        exit_now(1)

    thread = threading.Thread(target=watch, name="countermem-parent-watch", daemon=True)
    thread.start()
    return thread


def threads_per_worker(workers: int) -> int:
    """Cores shared out among workers: llama.cpp slows down badly when its threads outnumber the cores."""
    return max(1, usable_cores() // workers)


def process_job_threads(workers: int, job_threads: int | None = None) -> int:
    """llama.cpp threads of each job of the process executor: `job_threads`, else 2 at most for one
    worker (`default_threads`), else the cores shared out among the workers."""
    return job_threads or (default_threads() if workers == 1 else threads_per_worker(workers))


def _link(root: Path, plan: StudyPlan) -> None:
    for link, target in plan.links.items():
        path, goal = root / link, root / target
        if not goal.exists():
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_symlink() or path.exists():
            continue
        path.symlink_to(os.path.relpath(goal, path.parent), target_is_directory=True)


def run_study(
    config: StudyConfig,
    root: Path,
    *,
    workers: int = 1,
    progress: StudyProgress | None = None,
    source: str | None = None,
    stop_after_runs: int | None = None,
    write_report: bool = True,
    executor: str | None = None,
    address: str | None = None,
    job_threads: int | None = None,
    only_benchmarks: Sequence[str] | None = None,
) -> StudyOutcome:
    """Run (or resume) the study into `root`; see the module docstring.

    `only_benchmarks` runs now only those benchmarks' unfinished jobs and leaves the rest for a later
    run of the same study: a study of many hours then yields finished benchmarks one sitting at a time.

    `executor` (default: the config's) is `workers` or `ray`; `address` is the Ray executor's
    (`RaySettings`, default: the config's `ray_address`). `job_threads` is each job's llama.cpp
    threads (and Ray CPUs): by default the cores shared out among `workers` (1 on a Ray cluster).
    Two studies on one machine each take all its cores by default, and llama.cpp threads that
    outnumber the cores run at a few percent of their speed: give each study its share."""
    if workers < 1:
        raise ConfigError(f"--workers must be at least 1, got {workers}")
    ray_settings = _ray_settings(config, executor, address, job_threads, workers)
    if only_benchmarks is not None:
        _check_only_benchmarks(config, only_benchmarks)
    root.mkdir(parents=True, exist_ok=True)
    hold_folder(root)
    benchmarks, skipped = _load_benchmarks(config)
    plan = plan_study(config, benchmarks, skipped)
    manifest = _manifest(root, config, plan, source)
    threads = process_job_threads(workers, job_threads)
    execution = {"executor": "workers", "workers": workers, "job_threads": threads} if ray_settings is None else {
        "executor": "ray", "address": ray_settings.address, "job_threads": ray_settings.job_threads,
    }
    starts = manifest.get("resumed")
    (starts[-1] if isinstance(starts, list) and starts else manifest).update(execution=execution)
    write_json_atomic(root / MANIFEST, manifest)
    outcome = StudyOutcome(root=root, plan=plan)
    resumes = manifest.get("resumed")
    if isinstance(resumes, list) and resumes:
        outcome.settings_added_since = list(resumes[-1].get("settings_added_since", []))
    done: dict[str, JobRecord] = {}
    for job in plan.jobs:
        record = read_record(root, job.id)
        if record is not None:
            verify_record(root, record)
            done[job.id] = record
            outcome.reused.append(job.id)
    pending = [j for j in plan.jobs if j.id not in done]
    if only_benchmarks is not None:
        pending, outcome.deferred = _only_benchmarks(plan, pending, only_benchmarks)
    shown = replace(plan, jobs=[j for j in plan.jobs if j.id not in outcome.deferred])
    done_runs = sum(j.planned_runs for j in shown.jobs if j.id in done)
    if progress:
        progress.start(shown, done_runs, len(done))
    runs_counter = _RunCounter(done_runs, progress, stop_after_runs)
    if ray_settings is not None:
        from countermem.experiment._study_ray import run_ray

        run_ray(root, config, shown.jobs, pending, done, outcome, progress, runs_counter, ray_settings)
    elif workers == 1:
        _run_inline(root, config, pending, done, outcome, progress, runs_counter, threads)
    else:
        _run_pool(root, config, pending, done, outcome, progress, workers, runs_counter, threads)
    _link(root, plan)
    manifest["finished_at"] = datetime.now(UTC).isoformat()
    manifest["artifacts"] = {k: v for r in done.values() for k, v in r.outputs.items()}
    manifest["failed"] = outcome.failed
    manifest["blocked"] = outcome.blocked
    manifest["deferred"] = outcome.deferred
    write_json_atomic(root / MANIFEST, manifest)
    if write_report and done:
        outcome.report = write_folder_report(root)
    return outcome


def _check_only_benchmarks(config: StudyConfig, names: Sequence[str]) -> None:
    unknown = sorted(set(names) - set(config.benchmarks))
    if unknown:
        raise ConfigError(
            f"--benchmark {', '.join(unknown)}: not in this study; its benchmarks are {', '.join(config.benchmarks)}"
        )


def _only_benchmarks(
    plan: StudyPlan, pending: list[Job], names: Sequence[str],
) -> tuple[list[Job], list[str]]:
    """(jobs to run now, ids deferred): a job is deferred when its benchmark is not among `names` or
    when a job it needs is deferred, so nothing runs before what it depends on."""
    runnable = sorted(set(names) - set(plan.skipped))
    if not runnable:
        reasons = "; ".join(f"{b}: {plan.skipped[b]}" for b in names)
        raise ConfigError(f"--benchmark leaves nothing to run: every benchmark named was skipped ({reasons})")
    deferred: set[str] = set()
    for job in plan.jobs:
        if job.cell.benchmark not in names or any(d in deferred for d in job.depends):
            deferred.add(job.id)
    return [j for j in pending if j.id not in deferred], [j.id for j in pending if j.id in deferred]


def _ray_settings(
    config: StudyConfig, executor: str | None, address: str | None, job_threads: int | None, workers: int
) -> RaySettings | None:
    """The Ray executor's settings, or None for the process pool (`--workers`)."""
    kind = executor or config.executor
    if kind not in ("workers", "ray"):
        raise ConfigError(f"--executor must be workers or ray, got {kind!r}")
    if job_threads is not None and job_threads < 1:
        raise ConfigError(f"--job-threads must be at least 1, got {job_threads}")
    if kind == "workers":
        if address is not None:
            raise ConfigError("--address belongs to --executor ray; add it, or drop it")
        return None
    where = address or config.ray_address
    threads = job_threads or (threads_per_worker(workers) if where is None else 1)
    return RaySettings(address=where, job_threads=threads, local_cpus=workers * threads)


def write_folder_report(root: Path) -> Path:
    """The study's report under root/report/ (one section per backbone, with the analyses)."""
    from countermem.experiment._study_analyses import write_study_folder_report

    return write_study_folder_report(root)[0].parent


class _RunCounter:
    def __init__(self, start: int, progress: StudyProgress | None, stop_after: int | None) -> None:
        self.value = start
        self.progress = progress
        self.stop_after = stop_after
        self.new = 0

    def add(self, n: int = 1) -> None:
        self.value += n
        self.new += n
        if self.progress:
            self.progress.runs(self.value)
        if self.stop_after is not None and self.new >= self.stop_after:
            raise StudyInterrupted(f"stopped after {self.new} task runs, as asked")


def _in_job(job: Job, error: LLMError) -> LLMError:
    """The backbone fault, naming its job: it stops the whole study (every later job would meet the
    same server), the job keeps no record, and running the study again redoes it."""
    return type(error)(f"job {job.id}: {error}")


def _blocked_by(job: Job, outcome: StudyOutcome) -> str | None:
    for dep in job.depends:
        if dep in outcome.failed or dep in outcome.blocked:
            return dep
    return None


def _run_inline(
    root: Path, config: StudyConfig, pending: list[Job], done: dict[str, JobRecord], outcome: StudyOutcome,
    progress: StudyProgress | None, counter: _RunCounter, threads: int,
) -> None:
    for job in pending:
        dep = _blocked_by(job, outcome)
        if dep is not None:
            outcome.blocked[job.id] = f"needs {dep}, which did not finish"
            continue
        if progress:
            progress.job_started(job)

        def on_task(_outcome: TaskOutcome, _count: int, _total: int, job: Job = job) -> None:
            counter.add()
            if progress:
                progress.job_progress(read_job_progress(root, job))

        try:
            record = execute_job(root, config, job, on_task, threads=threads)
        except StudyInterrupted:
            raise
        except BACKBONE_FAULTS as error:
            raise _in_job(job, error) from error
        except CountermemError as error:
            outcome.failed[job.id] = f"{type(error).__name__}: {error}"
        except Exception as error:
            outcome.failed[job.id] = f"{type(error).__name__}: {error}\n" + "".join(
                traceback.format_exception(error)
            )
        if job.id in outcome.failed:
            if progress:
                progress.job_finished(job, outcome.failed[job.id])
            continue
        done[job.id] = record
        outcome.finished.append(job.id)
        if progress:
            progress.job_finished(job, None)


def _run_pool(
    root: Path, config: StudyConfig, pending: list[Job], done: dict[str, JobRecord], outcome: StudyOutcome,
    progress: StudyProgress | None, workers: int, counter: _RunCounter, threads: int,
) -> None:
    config_json = config.model_dump_json()
    waiting = list(pending)
    running: dict[Future[JobRecord], Job] = {}
    base = counter.value
    seen_counts: dict[str, int] = {}
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        try:
            while waiting or running:
                for job in list(waiting):
                    dep = _blocked_by(job, outcome)
                    if dep is not None:
                        outcome.blocked[job.id] = f"needs {dep}, which did not finish"
                        waiting.remove(job)
                    elif len(running) < workers and all(d in done for d in job.depends):
                        waiting.remove(job)
                        running[pool.submit(_job_entry, root, config_json, job, threads, os.getpid())] = job
                        if progress:
                            progress.job_started(job)
                if not running:
                    if waiting:
                        raise ConfigError(f"job {waiting[0].id} waits for a job that is not in the plan")
                    break
                finished, _ = wait(running, timeout=0.5, return_when=FIRST_COMPLETED)
                for future in finished:
                    job = running.pop(future)
                    try:
                        record = future.result()
                    except BACKBONE_FAULTS as error:
                        raise _in_job(job, error) from error
                    except CountermemError as error:
                        outcome.failed[job.id] = f"{type(error).__name__}: {error}"
                    except Exception as error:
                        outcome.failed[job.id] = f"{type(error).__name__}: {error}\n" + "".join(
                            traceback.format_exception(error)
                        )
                    else:
                        done[job.id] = record
                        outcome.finished.append(job.id)
                    if progress:
                        progress.job_finished(job, outcome.failed.get(job.id))
                finished_runs = sum(j.planned_runs for j in pending if j.id in done)
                counts = {j.id: (j, _count_runs(root, j)) for j in running.values()}
                live = sum(count for _, count in counts.values())
                if progress:
                    for job_id, (job, count) in counts.items():
                        if seen_counts.get(job_id) != count:
                            seen_counts[job_id] = count
                            progress.job_progress(read_job_progress(root, job))
                counter.value = base
                counter.new = 0
                counter.add(finished_runs + live)
        except BaseException:
            for future in running:
                future.cancel()
            raise


ProgressFactory = Callable[[], StudyProgress]
