"""`countermem config-reference`: the study TOML reference, generated from the config models."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from countermem.cli._common import console, friendly_errors
from countermem.experiment import config_reference as make_reference
from countermem.experiment import write_config_reference

OutOpt = Annotated[
    Path | None, typer.Option("--out", help="write the Markdown here (docs/configuration.md) instead of stdout")
]


@friendly_errors
def config_reference(out: OutOpt = None) -> None:
    """Print (or write) every study TOML key with its type, default and description."""
    if out is None:
        typer.echo(make_reference(), nl=False)
        return
    write_config_reference(out)
    console.print(f"wrote {out}")
