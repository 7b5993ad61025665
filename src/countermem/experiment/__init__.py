"""Experiments: task selection, runs, run directories, metrics and reports."""

from countermem.experiment._metrics import PerTask, RunMetrics, TokenSplit, compute_metrics
from countermem.experiment._report import write_run_report
from countermem.experiment._rundir import RunDir, package_versions, read_transcript
from countermem.experiment._runner import RunConfig, run_tasks, select_tasks
from countermem.experiment._scripts import oracle_script

__all__ = [
    "PerTask",
    "RunConfig",
    "RunDir",
    "RunMetrics",
    "TokenSplit",
    "compute_metrics",
    "oracle_script",
    "package_versions",
    "read_transcript",
    "run_tasks",
    "select_tasks",
    "write_run_report",
]
