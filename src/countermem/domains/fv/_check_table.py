"""Make miniF2F's `coq_8.16.1_check.tsv` again from the statement files, byte for byte.

The table was made while preparing the shared data folder, not taken from miniF2F-rocq. A folder fetched
from the original source therefore lacks it, and the loader needs it (it decides which statements
compile with the standard library). Compiling every statement again with the same coqc gives the same
table: the fetcher calls `coq_check_table` and keeps the result only if it matches the sha256 in
SOURCE.md. Another Coq version words its errors differently, so `require_coq_version` refuses it first
rather than spend minutes on a table that cannot match.

Rows are in path order: `file`, `ends_with_admitted` (yes/no), `non_stdlib_requirement` (`Coquelicot`,
`mathcomp`, `Rocq>=9 Stdlib prefix` or `-`, read from the Require lines), `coqc_8.16.1_stdlib`
(ok/fail: the file compiles, with `Admitted.` appended where it ends at `Proof.`) and `error` (the first
coqc error message, whitespace collapsed). The statements come from a pinned, checksummed commit, so they
are compiled with `run_coqc` (rlimits and a private temporary folder) rather than in the sandbox.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor

from countermem.core import CheckerUnavailableError
from countermem.domains.fv._coqc import CoqcLimits, CoqcRun, coqc_version, run_coqc

COQ_VERSION = "8.16.1"
HEADER = f"file\tends_with_admitted\tnon_stdlib_requirement\tcoqc_{COQ_VERSION}_stdlib\terror"
COMPILE_LIMITS = CoqcLimits(timeout_s=120.0)

Compiler = Callable[[str], CoqcRun]

_REQUIRE_LINE = re.compile(r"^\s*(?:From\s+(\S+)\s+)?Require\b.*$", re.MULTILINE)


def require_coq_version() -> None:
    found = coqc_version()
    if found != COQ_VERSION:
        raise CheckerUnavailableError(
            f"coq_{COQ_VERSION}_check.tsv records what coqc {COQ_VERSION} says; "
            + ("coqc is not on PATH" if found is None else f"this machine has coqc {found}")
            + f", whose results would not match the recorded checksum (install coqc {COQ_VERSION}, "
            "Debian bookworm's coq)"
        )


def non_stdlib_requirement(text: str) -> str:
    """The library outside Coq 8.16's standard library that the statement's Require lines name, or `-`."""
    for match in _REQUIRE_LINE.finditer(text):
        sentence, prefix = match.group(0), match.group(1)
        if re.search(r"\bCoquelicot\b", sentence):
            return "Coquelicot"
        if prefix == "mathcomp":
            return "mathcomp"
        if prefix == "Stdlib":
            return "Rocq>=9 Stdlib prefix"
    return "-"


def ends_with_admitted(text: str) -> bool:
    return text.rstrip().endswith("Admitted.")


def first_error(output: str) -> str:
    """The first `Error:` message, up to the next `File "..."` location line, whitespace collapsed."""
    start = output.find("Error:")
    if start < 0:
        return ""
    message = output[start:]
    end = message.find('\nFile "')
    return " ".join((message if end < 0 else message[:end]).split())


def check_row(relative: str, text: str, compile_source: Compiler) -> str:
    admitted = ends_with_admitted(text)
    source = text if admitted else text.rstrip("\n") + "\nAdmitted.\n"
    run = compile_source(source)
    if run.timed_out:
        status, error = "fail", f"timed out after {COMPILE_LIMITS.timeout_s:g} s"
    elif run.returncode == 0:
        status, error = "ok", ""
    else:
        status, error = "fail", first_error(run.stderr + "\n" + run.stdout)
    fields = (relative, "yes" if admitted else "no", non_stdlib_requirement(text), status, error)
    return "\t".join(fields)


def coq_check_table(statements: Mapping[str, str], compile_source: Compiler | None = None) -> bytes:
    """The whole table for `relative path -> statement text` (coqc runs in parallel, one per core)."""
    compiler: Compiler = compile_source or (lambda source: run_coqc(source, COMPILE_LIMITS))
    names = sorted(statements)
    with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        rows = list(pool.map(lambda name: check_row(name, statements[name], compiler), names))
    return ("\n".join([HEADER, *rows]) + "\n").encode("utf-8")
