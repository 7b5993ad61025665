"""Console helpers shared by the commands: one error style, one console."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from countermem.core import CountermemError

console = Console(stderr=False)
err_console = Console(stderr=True, soft_wrap=True)
"""soft_wrap: an error or warning stays one line however long (the terminal wraps it), so logs grep."""

P = ParamSpec("P")
R = TypeVar("R")


def friendly_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn a CountermemError into one red line and exit code 2, instead of a traceback."""

    @wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except CountermemError as error:
            # escaped: the text may quote a server's answer, and "[/v1]" would be a markup error
            err_console.print(f"[red]error:[/red] {type(error).__name__}: {escape(str(error))}")
            raise typer.Exit(code=2) from error

    return wrapper
