"""`countermem models`: the verified local models, and fetching them."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from countermem.cli._common import console, friendly_errors

models_app = typer.Typer(
    help="Verified local GGUF models (and the ONNX embedding model).", no_args_is_help=True
)


@models_app.command("list")
@friendly_errors
def list_models(
    models_dir: Annotated[Path | None, typer.Option(help="models cache directory")] = None,
) -> None:
    """List the registry and which models are already pulled and verified."""
    from countermem.core import ModelUnavailableError
    from countermem.llm import DEFAULT_MODEL, EMBEDDING_MODELS, MODELS, resolve_model_path

    table = Table(title="countermem models")
    for column in ("name", "size", "sha256", "licence", "pulled"):
        table.add_column(column)
    for spec in [*MODELS.values(), *EMBEDDING_MODELS.values()]:
        try:
            pulled = str(resolve_model_path(spec, models_dir))
        except ModelUnavailableError:
            pulled = "no"
        label = spec.name + (" (default)" if spec.name == DEFAULT_MODEL else "")
        label += " (embedder)" if spec.name in EMBEDDING_MODELS else ""
        table.add_row(label, f"{spec.size:,} B", spec.sha256[:16] + "...", spec.license, pulled)
    console.print(table)


@models_app.command("pull")
@friendly_errors
def pull(
    name: Annotated[
        str, typer.Argument(help="a registry name, e.g. qwen2.5-coder-0.5b or minilm-l6-onnx-int8")
    ],
    models_dir: Annotated[Path | None, typer.Option(help="models cache directory")] = None,
) -> None:
    """Fetch hash-pinned parts, assemble the model file, and refuse it unless size and sha256 match."""
    from countermem.llm import PullProgress, pull_model

    def show(step: PullProgress) -> None:
        if step.stage != "assemble" or step.done_bytes in (0, step.total_bytes):
            console.print(f"[{step.stage}] {step.message}")

    started = time.perf_counter()
    path = pull_model(name, models_dir=models_dir, progress=show)
    console.print(f"[green]verified[/green] {name}: {path} ({time.perf_counter() - started:.1f} s)")
