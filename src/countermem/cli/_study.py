"""`countermem study CONFIG.toml`: a whole study, resumable, with a progress display and a report."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from countermem.cli._common import (
    SERVER_FAULT_EXIT_CODE,
    ProgressLines,
    console,
    err_console,
    format_duration,
    friendly_errors,
    print_server_fault,
)
from countermem.cli._neighbours import crowding_warning, other_countermem_processes
from countermem.cli._pace import KindPace
from countermem.core import LLMServerFaultError, terminal_safe
from countermem.experiment._study import JobProgress, StudyInterrupted, process_job_threads, run_study
from countermem.experiment._study_config import load_study_config
from countermem.experiment._study_plan import Job, StudyPlan
from countermem.llm import usable_cores

ConfigArg = Annotated[Path, typer.Argument(help="the study's TOML config (see examples/)")]
OutOpt = Annotated[
    Path | None, typer.Option("--out", help="study folder (default: runs/study-<name>); rerun to resume")
]
WorkersOpt = Annotated[int, typer.Option("--workers", help="jobs run at once, each in its own process")]
ExecutorOpt = Annotated[
    str | None,
    typer.Option("--executor", help="workers (processes here) or ray (Ray tasks; docs/scale-out.md); default: the config's"),
]
AddressOpt = Annotated[
    str | None,
    typer.Option("--address", help="Ray cluster: HOST:PORT of its head, or auto; default: a Ray instance started here"),
]
JobThreadsOpt = Annotated[
    int | None, typer.Option(
        "--job-threads",
        help="llama.cpp threads (Ray CPUs) per job; default: the cores shared among --workers. "
        "Two studies on one machine: make their threads sum to the cores",
    )
]
OnlyBenchmarkOpt = Annotated[
    list[str] | None, typer.Option(
        "--benchmark",
        help="run only this benchmark's unfinished jobs now (repeatable); the rest wait for a later run "
        "of the same command without it",
    )
]
NoReportOpt = Annotated[bool, typer.Option("--no-report", help="skip writing report/ at the end")]
QuietOpt = Annotated[
    bool, typer.Option("--quiet", help="no progress lines (printed per finished task when not on a terminal)")
]


class _Display:
    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.runs_task: TaskID | None = None
        self.jobs: TaskID | None = None
        self.running: list[str] = []
        self.jobs_done = 0
        self.total_jobs = 0

    def start(self, plan: StudyPlan, done_runs: int, done_jobs: int) -> None:
        total_runs = sum(j.planned_runs for j in plan.jobs)
        self.jobs_done = done_jobs
        self.total_jobs = len(plan.jobs)
        self.jobs = self.progress.add_task("jobs", total=len(plan.jobs), completed=done_jobs, status="")
        self.runs_task = self.progress.add_task("task runs", total=total_runs, completed=done_runs, status="")
        for name, why in plan.skipped.items():
            console.print(f"[yellow]skipped[/yellow] {name}: {why}")
        if done_jobs:
            console.print(f"resuming: {done_jobs} of {len(plan.jobs)} jobs already finished (outputs verified)")

    def job_started(self, job: Job) -> None:
        self.running.append(job.id)
        self._status()

    def job_finished(self, job: Job, error: str | None) -> None:
        if job.id in self.running:
            self.running.remove(job.id)
        if error is not None:
            console.print(f"[red]failed[/red] {job.id}: {_first_line(error)}", highlight=False)
        else:
            self.jobs_done += 1
            console.print(f"[green]done[/green] {job.id} ({self.jobs_done}/{self.total_jobs} jobs)")
        assert self.jobs is not None
        self.progress.update(self.jobs, completed=self.jobs_done)
        self._status()

    def runs(self, done: int) -> None:
        assert self.runs_task is not None
        self.progress.update(self.runs_task, completed=done)

    def job_progress(self, progress: JobProgress) -> None:
        """The live bar counts task runs already."""

    def _status(self) -> None:
        assert self.jobs is not None
        shown = ", ".join(self.running[:2]) + (f" +{len(self.running) - 2}" if len(self.running) > 2 else "")
        self.progress.update(self.jobs, status=shown)


class _Lines:
    """The study's progress as plain lines, for a log file, CI or nohup (no live bar there)."""

    def __init__(self, quiet: bool, lines: ProgressLines | None = None) -> None:
        self.quiet = quiet
        self.lines = lines or ProgressLines()
        self.total_runs = 0
        self.done_runs = 0
        self.jobs_done = 0
        self.total_jobs = 0
        self.pace = KindPace(clock=self.lines.clock)

    def start(self, plan: StudyPlan, done_runs: int, done_jobs: int) -> None:
        self.total_runs = sum(j.planned_runs for j in plan.jobs)
        self.pace.plan(((j.id, j.kind, j.planned_runs) for j in plan.jobs), done_runs)
        self.done_runs = done_runs
        self.jobs_done, self.total_jobs = done_jobs, len(plan.jobs)
        for name, why in plan.skipped.items():
            console.print(f"skipped {name}: {why}", highlight=False, markup=False, soft_wrap=True)
        if done_jobs:
            console.print(f"resuming: {done_jobs} of {len(plan.jobs)} jobs already finished (outputs verified)",
                          soft_wrap=True)
        if not self.quiet:
            console.print(f"progress: {self.total_runs - done_runs} task runs to go in {len(plan.jobs) - done_jobs} jobs",
                          soft_wrap=True)

    def job_started(self, job: Job) -> None:
        if not self.quiet:
            console.print(f"started {job.id} ({job.planned_runs} tasks)", highlight=False, markup=False, soft_wrap=True)

    def job_finished(self, job: Job, error: str | None) -> None:
        if error is not None:
            err_console.print(f"failed {job.id}: {_first_line(error)}", highlight=False, markup=False, soft_wrap=True)
            return
        self.jobs_done += 1
        console.print(f"done {job.id} ({self.jobs_done}/{self.total_jobs} jobs)", highlight=False, markup=False,
                      soft_wrap=True)

    def runs(self, done: int) -> None:
        self.done_runs = done

    def job_progress(self, progress: JobProgress) -> None:
        if self.quiet:
            return
        job = progress.job
        admitted = "" if progress.admitted is None else f", {progress.admitted} records admitted"
        elapsed = self.lines.elapsed()
        self.pace.finished(job.id, job.kind, progress.done)
        left = self.pace.eta()
        self.lines.print(
            job.id,
            f"{job.id}: {progress.done}/{job.planned_runs} tasks, solved {progress.solved}{admitted}; study "
            f"{self.done_runs}/{self.total_runs} task runs, {format_duration(elapsed)} elapsed, ETA {left}",
            final=progress.done >= job.planned_runs,
        )


def _first_line(error: str) -> str:
    """A job's error (it may quote a model or a server) as one printable, markup-free line."""
    return escape(terminal_safe(error.splitlines()[0] if error else ""))


@friendly_errors
def study(
    config: ConfigArg, out: OutOpt = None, workers: WorkersOpt = 1, no_report: NoReportOpt = False,
    quiet: QuietOpt = False, executor: ExecutorOpt = None, address: AddressOpt = None,
    job_threads: JobThreadsOpt = None, benchmark: OnlyBenchmarkOpt = None,
) -> None:
    """Run a whole study (build -> train -> test for every method, agent, benchmark, backbone and seed)."""
    parsed = load_study_config(config)
    root = out or Path("runs") / f"study-{parsed.name}"
    kind = executor or parsed.executor
    where = address or parsed.ray_address
    how = f"{workers} worker(s)" if kind != "ray" else (
        f"Ray at {where}" if where else f"a Ray instance started here for {workers} job(s) at once"
    )
    console.print(f"study [cyan]{parsed.name}[/cyan] into {root} with {how}", soft_wrap=True)
    if kind != "ray" and any(b.kind == "local" for b in parsed.backbones.values()):
        threads = process_job_threads(workers, job_threads) * workers
        warning = crowding_warning(other_countermem_processes(), threads, usable_cores())
        if warning:
            err_console.print(escape(terminal_safe(warning)), style="yellow", soft_wrap=True)
    live = console.is_terminal and not quiet
    with Progress(
        TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(), TextColumn("{task.fields[status]}"),
        console=console, disable=not live,
    ) as progress:
        try:
            outcome = run_study(
                parsed, root, workers=workers, progress=_Display(progress) if live else _Lines(quiet),
                source=str(config), write_report=not no_report, executor=executor, address=address,
                job_threads=job_threads, only_benchmarks=benchmark or None,
            )
        except (KeyboardInterrupt, StudyInterrupted):
            err_console.print(f"[yellow]interrupted[/yellow]: run the same command again to resume ({root})")
            raise typer.Exit(code=130) from None
        except LLMServerFaultError as fault:
            progress.stop()
            again = ["countermem", "study", str(config), "--out", str(root)]
            if workers != 1:
                again += ["--workers", str(workers)]
            for flag, value in (("--executor", executor), ("--address", address), ("--job-threads", job_threads)):
                if value is not None:
                    again += [flag, str(value)]
            for name in benchmark or []:
                again += ["--benchmark", name]
            print_server_fault(fault, shlex.join(again))
            raise typer.Exit(code=SERVER_FAULT_EXIT_CODE) from fault
    for cell, note in outcome.plan.short_splits.items():
        err_console.print(f"[yellow]short split[/yellow] ({cell}): {note}")
    if outcome.settings_added_since:
        err_console.print(
            "[yellow]note[/yellow]: resumed a study saved by an older countermem; these settings were not in "
            f"its config and take their defaults: {', '.join(outcome.settings_added_since)}"
        )
    console.print(
        f"{len(outcome.finished)} jobs run, {len(outcome.reused)} reused, {len(outcome.failed)} failed, "
        f"{len(outcome.blocked)} blocked", soft_wrap=True,
    )
    if outcome.deferred:
        console.print(
            f"{len(outcome.deferred)} jobs of other benchmarks left for later: run the same command without "
            "--benchmark to run them", soft_wrap=True,
        )
    for job_id, error in outcome.failed.items():
        err_console.print(f"[red]failed[/red] {job_id}: {_first_line(error)}", highlight=False)
    if outcome.report is not None:
        console.print(f"report: {outcome.report}", soft_wrap=True)
    if not outcome.ok:
        raise typer.Exit(code=1)
