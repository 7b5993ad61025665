"""Console helpers shared by the commands: one error style, one console."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import ParamSpec, TypeVar

import typer
from rich.console import Console

from countermem.core import CountermemError

console = Console(stderr=False)
err_console = Console(stderr=True)

P = ParamSpec("P")
R = TypeVar("R")


def friendly_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn a CountermemError into one red line and exit code 2, instead of a traceback."""

    @wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except CountermemError as error:
            err_console.print(f"[red]error:[/red] {type(error).__name__}: {error}")
            raise typer.Exit(code=2) from error

    return wrapper
