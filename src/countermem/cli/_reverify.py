"""`countermem memory reverify STORE`: check every live record again and retire those that no longer gain.

The one `memory` command that writes: a retirement is a new version of the record (kept, never
offered). Progress goes to `STORE.reverify.jsonl` line by line, so the same command run again
after an interruption (Ctrl-C, a crash, `--limit`) goes on where it stopped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from countermem.cli._common import INTERRUPTED_EXIT_CODE, friendly_errors
from countermem.cli._options import DataDir
from countermem.core import ConfigError, terminal_safe
from countermem.domains import BenchmarkOptions
from countermem.memory import MIN_GAIN, RegistryWorlds, ReverifyLine, ReverifySummary, SQLiteStore, reverify

_MARK = {"holds": "holds    ", "retired": "RETIRED  ", "unchecked": "unchecked"}


@friendly_errors
def reverify_store(
    store: Annotated[Path, typer.Argument(help="Path of the memory store (SQLite file); opened for writing.")],
    benchmark: Annotated[
        list[str] | None, typer.Option("--benchmark", help="Only records of this benchmark (repeat for more).")
    ] = None,
    limit: Annotated[
        int | None, typer.Option(min=1, help="Check at most this many records now; run again to go on.")
    ] = None,
    min_gain: Annotated[
        float, typer.Option(help="A record holds while its re-checked gain is above this (admission's threshold).")
    ] = MIN_GAIN,
    restart: Annotated[
        bool, typer.Option("--restart", help="Begin a new pass instead of resuming STORE.reverify.jsonl.")
    ] = False,
    progress: Annotated[
        Path | None, typer.Option(help="Progress file (default: STORE.reverify.jsonl beside the store).")
    ] = None,
    data_dir: DataDir = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON after the record lines.")] = False,
) -> None:
    """Re-run each live record's original and improved action from its source task's reset state; retire
    (keep, never offer) the records whose gain no longer exceeds --min-gain, with the reason."""
    if not store.is_file():
        raise ConfigError(f"no memory store at {store}; check the path")
    opened = SQLiteStore(store)
    worlds = RegistryWorlds(BenchmarkOptions(data_dir=data_dir))
    try:
        summary = reverify(
            opened, worlds, min_gain=min_gain, benchmarks=benchmark or None, limit=limit, progress=progress,
            restart=restart, on_line=_print_line,
        )
    except KeyboardInterrupt:
        typer.echo("interrupted; every record checked so far is kept: run the same command again to go on", err=True)
        raise typer.Exit(INTERRUPTED_EXIT_CODE) from None
    finally:
        worlds.close()
        opened.close()
    _print_summary(summary)
    if as_json:
        typer.echo(summary.model_dump_json(indent=2))


def _print_line(line: ReverifyLine) -> None:
    new = "  n/a" if line.new_gain is None else f"{line.new_gain:+.3f}"
    text = (
        f"{_MARK[line.verdict]} {line.record_id}  {line.benchmark}/{line.task_id}  "
        f"gain {line.old_gain:+.3f} -> {new}  {line.reason}"
    )
    if line.changed and line.verdict != "retired":  # a retirement's reason already lists the changes
        text += f"; changed: {'; '.join(line.changed)}"
    typer.echo(terminal_safe(text))


def _print_summary(summary: ReverifySummary) -> None:
    run, total = summary.run, summary.total
    reasons = ", ".join(f"{why}: {n}" for why, n in run.unchecked_reasons.items())
    typer.echo(
        f"checked {run.checked} records in {summary.seconds:.1f} s: {run.holds} still hold, {run.retired} retired, "
        f"{run.unchecked} could not be checked" + (f" ({terminal_safe(reasons)})" if reasons else "")
    )
    if summary.resumed:
        typer.echo(f"resumed: {summary.resumed} records already checked in this pass were skipped")
    typer.echo(
        f"pass so far: {total.checked} checked, {total.holds} hold, {total.retired} retired, "
        f"{total.unchecked} unchecked; {summary.remaining} remaining; "
        f"{summary.retired_before} were retired before this run"
    )
    typer.echo(f"progress: {terminal_safe(summary.progress)} (--restart begins a new pass)")
