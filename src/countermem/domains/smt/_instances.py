"""The `smtlib` task set: which instances, read how, and what an agent may see of them.

Tasks come from `index.tsv` of the shared `smtlib` data folder. A folder fetched from the source
lacks that file (it holds z3 4.8.12 results and wall times measured while the folder was prepared,
which no rerun reproduces), so there the same rows are read from the checksum-verified .smt2 files
the folder's SOURCE.md lists, and the z3 reference fields stay None. The set keeps every instance
of the small logics (QF_IDL, QF_BV, QF_NIA, QF_NRA: these hold the slow and timing-out
files that make remembered strategies matter) and a seeded sample of QF_LIA (20 sat and 20
unsat out of 288, `random.Random(7)`), so that no logic swamps the others; each task's
environment is its logic, so splits keep logics apart.
"""

from __future__ import annotations

import csv
import random
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from countermem.core import DataUnavailableError, FactValue
from countermem.domains._data import dataset_dir, not_fetched_reasons, recorded_checksums, verified_file

DATASET = "smtlib"
LIA_SAMPLE_PER_STATUS = 20
LIA_SAMPLE_SEED = 7
RENDER_CHAR_LIMIT = 3000
"""Characters of instance text (after removing set-info commands) shown to the agent."""
SOURCE_NOTE_LIMIT = 300
SIZE_BUCKETS = ((2_048, "<2KB"), (8_192, "2-8KB"), (32_768, "8-32KB"))
INDEX = "index.tsv"

_SET_INFO = re.compile(r"\(set-info\s+:[A-Za-z0-9_.-]+\s+(\|[^|]*\||\"[^\"]*\"|[^()\s]+)\s*\)", re.DOTALL)
_SOURCE = re.compile(r"\(set-info\s+:source\s+\|([^|]*)\|\s*\)", re.DOTALL)
_DECLARE = re.compile(r"\((declare-fun|declare-const)\s")
_STRIP_NOISE = re.compile(r"\((check-sat|exit)\)")
_STATUS = re.compile(r"\(set-info\s+:status\s+([^()\s]+)\s*\)")


@dataclass(frozen=True)
class Instance:
    """One row of index.tsv, or the same fields read from the file itself (`rows_from_files`).

    The z3 reference fields are None when index.tsv was not fetched: they were measured once, and
    a number made up here would pass for that measurement.
    """

    path: str
    logic: str
    family: str
    status: str
    bytes: int
    sha256: str
    z3_reference_result: str | None
    z3_reference_seconds: float | None

    @property
    def task_id(self) -> str:
        tail = self.path.split("non-incremental/", 1)[-1]
        return "smtlib:" + tail.removesuffix(".smt2")


def data_folder(data_dir: Path | None) -> Path:
    if data_dir is None:
        return dataset_dir(DATASET)
    folder = Path(data_dir) / DATASET
    if not (folder / "SOURCE.md").is_file():
        raise DataUnavailableError(f"{folder} has no SOURCE.md: benchmark {DATASET!r} data is missing")
    return folder


def read_index(folder: Path) -> list[Instance]:
    """index.tsv's rows; in a fetched folder whose SOURCE.md lists index.tsv as not fetched, the
    rows made from the .smt2 files instead. A folder that lacks index.tsv for no stated reason is
    incomplete, and `verified_file` says so."""
    if not (folder / INDEX).is_file() and INDEX in not_fetched_reasons(folder):
        return rows_from_files(folder)
    index = verified_file(folder, INDEX)
    rows: list[Instance] = []
    with index.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            rows.append(
                Instance(
                    path=row["path"],
                    logic=row["logic"],
                    family=row["family"],
                    status=row["status"],
                    bytes=int(row["bytes"]),
                    sha256=row["sha256"],
                    z3_reference_result=row["z3_4.8.12_result"],
                    z3_reference_seconds=float(row["z3_seconds"]),
                )
            )
    if not rows:
        raise DataUnavailableError(f"{index} lists no instances")
    return rows


def rows_from_files(folder: Path) -> list[Instance]:
    """index.tsv's columns for every .smt2 file in SOURCE.md's checksum table, each file verified first.

    Paths have the layout `<repository>/non-incremental/<logic>/<family>/...`, which is where index.tsv
    took logic and family from; the declared status is the file's `(set-info :status ...)`.
    """
    table = recorded_checksums(folder)
    rows: list[Instance] = []
    for relative in sorted(name for name in table if name.endswith(".smt2")):
        parts = relative.split("/")
        if len(parts) < 5 or parts[1] != "non-incremental":
            raise DataUnavailableError(
                f"{folder}/SOURCE.md lists {relative}, which is not laid out as "
                "<repository>/non-incremental/<logic>/<family>/...; the data folder is not the expected one"
            )
        path = verified_file(folder, relative)
        statuses = _STATUS.findall(path.read_text(encoding="utf-8"))
        if len(statuses) != 1 or statuses[0] not in ("sat", "unsat"):
            raise DataUnavailableError(
                f"{path} should declare exactly one (set-info :status sat|unsat), found {statuses or 'none'}"
            )
        size, digest = table[relative]
        rows.append(
            Instance(
                path=relative,
                logic=parts[2],
                family=parts[3],
                status=statuses[0],
                bytes=size,
                sha256=digest,
                z3_reference_result=None,
                z3_reference_seconds=None,
            )
        )
    if not rows:
        raise DataUnavailableError(
            f"{folder}/SOURCE.md lists no .smt2 files and {INDEX} was not fetched, so there are no instances"
        )
    return rows


def select_instances(rows: list[Instance]) -> list[Instance]:
    chosen = [row for row in rows if row.logic != "QF_LIA"]
    rng = random.Random(LIA_SAMPLE_SEED)
    for status in ("sat", "unsat"):
        pool = sorted((row for row in rows if row.logic == "QF_LIA" and row.status == status), key=lambda r: r.path)
        chosen.extend(rng.sample(pool, min(LIA_SAMPLE_PER_STATUS, len(pool))))
    chosen.sort(key=lambda row: row.path)
    ids = [row.task_id for row in chosen]
    if len(set(ids)) != len(ids):
        raise DataUnavailableError("two instances get the same task id; the data folder is not the expected one")
    return chosen


def instance_file(folder: Path, instance: Instance) -> Path:
    """The verified file (its sha256 is checked against SOURCE.md)."""
    return verified_file(folder, instance.path)


@dataclass(frozen=True)
class InstanceStats:
    """Observable statistics of an instance (never its declared status)."""

    n_declared_consts: int
    n_assertions: int
    has_quantifiers: bool
    uses_nonlinear: bool
    bit_width: int
    n_exprs: int

    def as_facts(self) -> dict[str, FactValue]:
        return {
            "n_declared_consts": self.n_declared_consts,
            "n_assertions": self.n_assertions,
            "has_quantifiers": self.has_quantifiers,
            "uses_nonlinear": self.uses_nonlinear,
            "bit_width": self.bit_width,
            "n_exprs": self.n_exprs,
        }


def size_bucket(n_bytes: int) -> str:
    for limit, label in SIZE_BUCKETS:
        if n_bytes < limit:
            return label
    return ">=32KB"


@lru_cache(maxsize=512)
def instance_stats(path: Path) -> InstanceStats:
    """Walk the parsed instance once (files are under 50 KiB, so this takes milliseconds)."""
    import z3

    text = path.read_text(encoding="utf-8")
    assertions = z3.parse_smt2_file(str(path))
    conjuncts = 0
    for assertion in assertions:
        conjuncts += len(assertion.children()) if z3.is_and(assertion) else 1
    seen: set[int] = set()
    stack = list(assertions)
    quantifiers = nonlinear = False
    width = 0
    while stack:
        node = stack.pop()
        key = node.get_id()
        if key in seen:
            continue
        seen.add(key)
        if z3.is_quantifier(node):
            quantifiers = True
            stack.append(node.body())
            continue
        if z3.is_bv(node):
            width = max(width, node.size())
        if z3.is_app(node):
            kind = node.decl().kind()
            if kind in (z3.Z3_OP_MUL, z3.Z3_OP_BMUL):
                nonconst = [c for c in node.children() if not (z3.is_int_value(c) or z3.is_rational_value(c))]
                nonlinear = nonlinear or len(nonconst) >= 2
            elif kind in (z3.Z3_OP_DIV, z3.Z3_OP_IDIV, z3.Z3_OP_MOD, z3.Z3_OP_REM, z3.Z3_OP_POWER):
                divisor = node.children()[-1]
                nonlinear = nonlinear or not (z3.is_int_value(divisor) or z3.is_rational_value(divisor))
            stack.extend(node.children())
    return InstanceStats(
        n_declared_consts=len(_DECLARE.findall(text)),
        n_assertions=conjuncts,
        has_quantifiers=quantifiers,
        uses_nonlinear=nonlinear,
        bit_width=width,
        n_exprs=len(seen),
    )


def agent_view(text: str) -> tuple[str, str, int]:
    """`(source note, body, characters cut)`: set-info commands (the declared status among them)
    are removed, the `:source` note is kept short, the body is cut at RENDER_CHAR_LIMIT."""
    source = _SOURCE.search(text)
    note = " ".join(source.group(1).split()) if source else ""
    if len(note) > SOURCE_NOTE_LIMIT:
        note = note[: SOURCE_NOTE_LIMIT - 3] + "..."
    body = _STRIP_NOISE.sub("", _SET_INFO.sub("", text))
    body = "\n".join(line for line in body.splitlines() if line.strip() and not line.strip().startswith(";"))
    cut = max(0, len(body) - RENDER_CHAR_LIMIT)
    return note, body[:RENDER_CHAR_LIMIT], cut
