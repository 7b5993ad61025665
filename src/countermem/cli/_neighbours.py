"""Other countermem processes on this machine, named before a study with local models starts.

A study gives its jobs the machine's cores for llama.cpp by default. Two studies on 2 cores ran at
about 1 token/s instead of 30-50 (llama.cpp threads spin while they wait for each other), with
nothing in either log to say why; the warning says it before the hours are spent.
"""

from __future__ import annotations

import os
from pathlib import Path

COMMANDS = frozenset({"study", "run", "construct", "train", "evaluate"})


def _is_countermem(argv: list[str]) -> bool:
    """`countermem study ...` as its console script (`python .../countermem study`) or `python -m countermem`."""
    for index, word in enumerate(argv[:3]):
        if os.path.basename(word) == "countermem" and index + 1 < len(argv):
            return argv[index + 1] in COMMANDS
    return False


def _ancestors(proc: Path, pid: int) -> set[int]:
    seen: set[int] = set()
    while pid > 1 and pid not in seen:
        seen.add(pid)
        try:
            stat = (proc / str(pid) / "stat").read_text()
        except OSError:
            break
        pid = int(stat.rsplit(")", 1)[1].split()[1])
    return seen


def other_countermem_processes(proc: Path = Path("/proc"), me: int | None = None) -> list[tuple[int, str]]:
    """(pid, command line) of countermem studies and runs here other than this process and its parents;
    empty where there is no /proc to read."""
    mine = _ancestors(proc, me if me is not None else os.getpid())
    found: list[tuple[int, str]] = []
    try:
        entries = list(proc.iterdir())
    except OSError:
        return []
    for entry in entries:
        if not entry.name.isdigit() or int(entry.name) in mine:
            continue
        try:
            argv = [a for a in (entry / "cmdline").read_bytes().decode(errors="replace").split("\0") if a]
        except OSError:
            continue
        if _is_countermem(argv):
            found.append((int(entry.name), " ".join(argv)))
    return sorted(found)


def crowding_warning(others: list[tuple[int, str]], threads: int, cores: int) -> str | None:
    """One line for the user, or None when nothing else runs here."""
    if not others:
        return None
    pid, command = others[0]
    more = f" and {len(others) - 1} more" if len(others) > 1 else ""
    return (
        f"warning: another countermem process is running here (pid {pid}: {command[:120]}){more}. This study's "
        f"jobs take {threads} llama.cpp thread(s) on {cores} core(s); threads that outnumber the cores make "
        "llama.cpp many times slower for both. Run one at a time, or give each --job-threads so that "
        "their threads sum to the cores."
    )
