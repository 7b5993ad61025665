"""Console helpers shared by the commands: one error style, one console, one resume hint."""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from countermem.core import CountermemError, LLMServerFaultError, terminal_safe

console = Console(stderr=False)
err_console = Console(stderr=True, soft_wrap=True)
"""soft_wrap: an error or warning stays one line however long (the terminal wraps it), so logs grep."""

P = ParamSpec("P")
R = TypeVar("R")

INTERRUPTED_EXIT_CODE = 130
"""What a shell reports for a process ended by Ctrl-C (128 + SIGINT)."""
SERVER_FAULT_EXIT_CODE = 3
"""The model server failed (retries, deadline or a reply that is not a chat completion): nothing
is wrong with the command, and running it again with --resume (or the study again) continues."""
_SECRET_OPTIONS = frozenset({"api_key"})
"""Never echoed into a hint: the key is read from the environment when the option is left out."""


def friendly_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn a CountermemError into one red line and exit code 2, instead of a traceback."""

    @wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except CountermemError as error:
            # escaped: the text may quote a server's answer, and "[/v1]" would be a markup error
            # escaped twice: a server's answer or a record may carry terminal escape codes
            text = escape(terminal_safe(str(error)))
            err_console.print(f"[red]error:[/red] {type(error).__name__}: {text}", highlight=False)
            raise typer.Exit(code=2) from error

    return wrapper


def print_warning(message: str) -> None:
    err_console.print(f"[yellow]warning:[/yellow] {terminal_safe(message)}", highlight=False)


def resume_command(ctx: typer.Context) -> str:
    """The command that continues this run: the options the person gave, then --resume.

    Built from the parsed options rather than sys.argv, so that it is the same command however
    countermem was started; options left at their defaults are left out, and so is an API key.
    """
    words = ["countermem", *ctx.command_path.split()[1:]]
    for param in ctx.command.params:
        name = param.name
        if name is None or name == "resume" or name in _SECRET_OPTIONS:
            continue
        value = ctx.params.get(name)
        if param.param_type_name == "argument":
            words.append(str(value))
            continue
        if value is None or (value == param.default and name != "out"):
            continue
        if getattr(param, "is_flag", False):
            flag = param.opts[0] if value else next(iter(getattr(param, "secondary_opts", [])), None)
            if flag is not None:
                words.append(flag)
        else:
            words += [param.opts[0], str(value)]
    return shlex.join([*words, "--resume"])


def print_server_fault(error: LLMServerFaultError, how_to_continue: str) -> None:
    """One line: what the server did, and that finished work is kept and how to continue."""
    err_console.print(
        f"[red]error:[/red] {type(error).__name__}: {escape(terminal_safe(str(error)))}; finished tasks are saved, "
        f"the unfinished ones run again with: {escape(how_to_continue)}",
        highlight=False,
    )


@contextmanager
def resume_hint_on_interrupt(ctx: typer.Context) -> Iterator[None]:
    """On Ctrl-C, say how to continue (finished tasks are on disk) and exit 130, without a traceback.

    A server fault stops the run the same way (exit 3, one line): its task in flight was not
    recorded, so the printed --resume command redoes it."""
    try:
        yield
    except KeyboardInterrupt:
        err_console.print("[yellow]interrupted[/yellow]: finished tasks are saved; continue the run with")
        err_console.print(resume_command(ctx), markup=False, highlight=False)
        raise typer.Exit(code=INTERRUPTED_EXIT_CODE) from None
    except LLMServerFaultError as error:
        print_server_fault(error, resume_command(ctx))
        raise typer.Exit(code=SERVER_FAULT_EXIT_CODE) from error


def format_duration(seconds: float) -> str:
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{secs:02d}s"


def eta(elapsed: float, done: int, total: int) -> str:
    """Time left at the pace so far; `?` before the first finished item."""
    if done <= 0 or total <= done:
        return "?" if done <= 0 else "0m00s"
    return format_duration(elapsed / done * (total - done))


class ProgressLines:
    """Plain progress lines for a log file, CI or nohup, where a live bar shows nothing.

    A line per finished item, but at most one every `interval_s` seconds per key (the last item
    always gets its line), so a fast run does not flood its log."""

    def __init__(self, interval_s: float = 5.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval_s = interval_s
        self.clock = clock
        self.started = clock()
        self._last: dict[str, float] = {}

    def elapsed(self) -> float:
        return self.clock() - self.started

    def print(self, key: str, text: str, *, final: bool = False) -> bool:
        now = self.clock()
        last = self._last.get(key)
        if not final and last is not None and now - last < self.interval_s:
            return False
        self._last[key] = now
        console.print(f"progress: {terminal_safe(text)}", highlight=False, markup=False, soft_wrap=True)
        return True


def plain_progress(quiet: bool) -> bool:
    """Whether to print progress lines: not on a terminal (where the live bar is shown) and not quiet."""
    return not quiet and not console.is_terminal
