"""`countermem benchmarks`: the twelve benchmarks, their split sizes and what they need."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from countermem.cli._common import console, friendly_errors
from countermem.core import CountermemError
from countermem.domains import BENCHMARKS, load_benchmark, split_tasks


@friendly_errors
def benchmarks(
    split_seed: Annotated[int, typer.Option(help="seed of the splits")] = 0,
) -> None:
    """List every benchmark with task counts per split and whether data and checker are available."""
    table = Table(title="countermem benchmarks")
    for column in ("benchmark", "domain", "tasks", "construct", "train", "heldout", "available"):
        table.add_column(column)
    for entry in BENCHMARKS:
        try:
            bench = load_benchmark(entry.name)
            availability = bench.availability()
            if not availability.available:
                raise CountermemError(availability.reason)
            tasks = bench.tasks()
            counts = split_tasks(tasks, seed=split_seed).counts()
            table.add_row(
                entry.name, entry.domain, str(len(tasks)), str(counts["construct"]), str(counts["train"]),
                str(counts["heldout"]), "[green]yes[/green]",
            )
        except CountermemError as error:
            table.add_row(entry.name, entry.domain, "-", "-", "-", "-", f"[red]no[/red]: {error}")
    console.print(table)
