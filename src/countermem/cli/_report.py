"""`countermem report`: rebuild a run's report, or write a study report over many runs.

A folder with a metrics.json at its top is one run: its report.md (and plots) are rewritten
from metrics.json, so a report can be regenerated after the report code changes without
rerunning anything. Any other folder is read as a study in the layout of
`countermem.experiment.STUDY_LAYOUT`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from countermem.cli._common import console, friendly_errors
from countermem.core import ConfigError
from countermem.experiment import collect_rows, write_run_report, write_study_report
from countermem.experiment._paired import read_metrics

RunDirArg = Annotated[Path, typer.Argument(help="a run directory, or a study folder of run directories")]
ReportOut = Annotated[
    Path | None, typer.Option("--out", help="write the report here instead of into RUN_DIR")
]


@friendly_errors
def report(run_dir: RunDirArg, out: ReportOut = None) -> None:
    """Rewrite a run's report.md from its metrics.json, or write the study report of a study folder."""
    if not run_dir.exists():
        raise ConfigError(f"{run_dir} does not exist")
    if not run_dir.is_dir():
        raise ConfigError(f"{run_dir} is not a folder; give a run directory or a study folder")
    target = out or run_dir
    if (run_dir / "metrics.json").is_file():
        metrics = read_metrics(run_dir)
        target.mkdir(parents=True, exist_ok=True)
        path = write_run_report(target, metrics)
        console.print(f"run report: {path}")
        return
    if not any(run_dir.iterdir()):
        raise ConfigError(f"{run_dir} is empty; give a run directory (with metrics.json) or a study folder")
    if (run_dir / "manifest.json").is_file():
        raise ConfigError(
            f"{run_dir} holds a run without metrics.json: it did not finish; resume it with --resume"
        )
    rows = collect_rows(run_dir)
    md_path, html_path = write_study_report(target, rows)
    console.print(f"study report over {len(rows)} runs: {md_path} and {html_path}")
