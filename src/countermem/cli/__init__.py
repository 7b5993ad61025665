"""The `countermem` command line."""

from __future__ import annotations

import typer

from countermem.cli._benchmarks import benchmarks
from countermem.cli._config_reference import config_reference
from countermem.cli._memory import memory_app
from countermem.cli._models import models_app
from countermem.cli._report import report
from countermem.cli._reverify import reverify_store
from countermem.cli._run import run
from countermem.cli._stages import construct, evaluate, train
from countermem.cli._study import study
from countermem.cli._view import view

app = typer.Typer(
    name="countermem",
    help="Verified counterfactual memory for LLM agents.",
    no_args_is_help=True,
    add_completion=False,
)
app.command()(run)
app.command()(benchmarks)
app.command()(construct)
app.command()(train)
app.command()(evaluate)
app.command()(report)
app.command()(study)
app.command()(view)
app.command(name="config-reference")(config_reference)
app.add_typer(models_app, name="models")

memory_app.command("reverify")(reverify_store)
app.add_typer(memory_app, name="memory", help="Inspect a memory store; re-verify and retire its records.")


def main() -> None:
    app()


__all__ = ["app", "main"]
