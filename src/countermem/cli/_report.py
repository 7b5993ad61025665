"""`countermem report`: rebuild a run's report, or write a study report over many runs.

A folder with a metrics.json at its top is one run: its report.md (and plots) are rewritten
from metrics.json, so a report can be regenerated after the report code changes without
rerunning anything. A folder whose manifest.json says `"kind": "study"` is a `countermem study`
folder: its results/<backbone>/ and analyses/<backbone>/ trees go into STUDY/report/report.md
and report.html. Any other folder is read as a study in the layout of
`countermem.experiment.STUDY_LAYOUT`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from countermem.cli._common import console, friendly_errors
from countermem.core import ConfigError
from countermem.experiment import (
    collect_rows,
    write_run_report,
    write_study_folder_report,
    write_study_report,
)
from countermem.experiment._paired import read_metrics

RunDirArg = Annotated[
    Path, typer.Argument(help="a run directory, a `countermem study` folder, or a folder of run directories")
]
ReportOut = Annotated[
    Path | None,
    typer.Option("--out", help="write the report here instead of into RUN_DIR (a study: RUN_DIR/report)"),
]


def _manifest_kind(manifest: Path) -> str | None:
    try:
        data = json.loads(manifest.read_text())
    except json.JSONDecodeError as error:
        raise ConfigError(f"{manifest} is not valid JSON ({error}); the folder cannot be read") from error
    kind = data.get("kind") if isinstance(data, dict) else None
    return kind if isinstance(kind, str) else None


@friendly_errors
def report(run_dir: RunDirArg, out: ReportOut = None) -> None:
    """Rewrite a run's report.md from its metrics.json, or write the study report of a study folder."""
    if not run_dir.exists():
        raise ConfigError(f"{run_dir} does not exist")
    if not run_dir.is_dir():
        raise ConfigError(f"{run_dir} is not a folder; give a run directory or a study folder")
    if (run_dir / "metrics.json").is_file():
        target = out or run_dir
        metrics = read_metrics(run_dir)
        target.mkdir(parents=True, exist_ok=True)
        path = write_run_report(target, metrics)
        console.print(f"run report: {path}")
        return
    if not any(run_dir.iterdir()):
        raise ConfigError(f"{run_dir} is empty; give a run directory (with metrics.json) or a study folder")
    manifest = run_dir / "manifest.json"
    if manifest.is_file():
        if _manifest_kind(manifest) != "study":
            raise ConfigError(
                f"{run_dir} holds a run without metrics.json: it did not finish; resume it with --resume"
            )
        md_path, html_path = write_study_folder_report(run_dir, out)
        console.print(f"study report: {md_path} and {html_path}")
        return
    rows = collect_rows(run_dir)
    md_path, html_path = write_study_report(out or run_dir, rows)
    console.print(f"study report over {len(rows)} runs: {md_path} and {html_path}")
