"""The fetcher's transformations and regenerators, offline, against the shared data folders."""

from __future__ import annotations

import csv
import gzip
import io
import json
import re
import tarfile
from pathlib import Path
from typing import Any

import pytest

from countermem.core import DataUnavailableError
from countermem.domains._data import find_data_root, verified_file
from countermem.domains._rebuild import HeldOut, repack_tar, select_json_array, select_lines
from countermem.domains._sources import SOURCES, Regenerate, Transform
from countermem.domains.fv._check_table import (
    HEADER,
    check_row,
    coq_check_table,
    ends_with_admitted,
    first_error,
    non_stdlib_requirement,
    run_coqc,
)
from countermem.domains.fv._coqc import CoqcLimits, CoqcRun, coqc_version
from countermem.domains.sql._gold_check import gold_check_table
from required_tools import require_coqc


def _shared(name: str) -> Path:
    root = find_data_root()
    if root is None or not (root / name / "SOURCE.md").is_file():
        pytest.skip(f"shared benchmark data folder {name!r} is not on this machine")
    return root / name


def _listed(pattern: str, text: str) -> Any:
    found = re.search(pattern, text)
    assert found is not None, f"SOURCE.md has no {pattern!r}"
    return json.loads(found.group(1))


SELECTED = [(name, f) for name, s in SOURCES.items() for f in s.files if f.held_out is not None]


@pytest.mark.parametrize(("name", "relative"), [(n, f.relative) for n, f in SELECTED])
def test_held_out_draw_is_the_one_source_md_lists(name: str, relative: str) -> None:
    folder = _shared(name)
    entry = next(f for f in SOURCES[name].files if f.relative == relative)
    assert entry.held_out is not None
    text = (folder / "SOURCE.md").read_text(encoding="utf-8")
    if entry.transform is Transform.REPACK_TAR:
        listed = _listed(r"Held-out member names per family: (\{.*\})", text)[
            relative.removesuffix(".tar.gz")
        ]
        assert len(listed) == len(entry.held_out.indices()) == round(0.2 * entry.held_out.count)
        with tarfile.open(folder / relative) as archive:
            kept = archive.getnames()
        every = sorted([*kept, *listed])
        assert len(set(every)) == entry.held_out.count
        assert sorted(every[i] for i in entry.held_out.indices()) == sorted(listed)
        return
    listed = _listed(r"Held-out source indices[^:]*: (\[[\d, ]+\])", text)
    assert sorted(entry.held_out.indices()) == listed


def _with_stand_ins(kept: list[bytes], held: HeldOut) -> list[bytes]:
    items = iter(kept)
    return [b'{"stand_in": %d}' % i if i in held.indices() else next(items) for i in range(held.count)]


@pytest.mark.parametrize(
    ("name", "relative"), [("gsm8k", "test.jsonl"), ("math500", "test.jsonl"), ("mbpp", "mbpp.jsonl")]
)
@pytest.mark.parametrize("final_newline", [True, False])
def test_select_lines_gives_back_our_bytes(name: str, relative: str, final_newline: bool) -> None:
    stored = verified_file(_shared(name), relative).read_bytes()
    entry = next(f for f in SOURCES[name].files if f.relative == relative)
    assert entry.transform is Transform.SELECT_LINES and entry.held_out is not None
    source = b"\n".join(_with_stand_ins(stored.split(b"\n")[:-1], entry.held_out))
    assert select_lines(source + (b"\n" if final_newline else b""), entry.held_out) == stored
    with pytest.raises(DataUnavailableError, match=r"1318 lines|973 lines|499 lines"):
        select_lines(source.rsplit(b"\n", 1)[0], entry.held_out)


@pytest.mark.parametrize("name", ["spider_en", "spider"])
def test_select_json_array_gives_back_our_bytes(name: str) -> None:
    stored = verified_file(_shared(name), "dev.json").read_bytes()
    entry = next(f for f in SOURCES[name].files if f.relative == "dev.json")
    assert entry.held_out is not None
    ascii_only = entry.transform is Transform.SELECT_JSON_ASCII
    items = iter(json.loads(stored))
    full = [
        {"stand_in": i} if i in entry.held_out.indices() else next(items) for i in range(entry.held_out.count)
    ]
    source = json.dumps(full, indent=4, ensure_ascii=ascii_only).encode()
    assert select_json_array(source, entry.held_out, ensure_ascii=ascii_only) == stored
    if not ascii_only:
        assert select_json_array(source, entry.held_out, ensure_ascii=True) != stored
    with pytest.raises(DataUnavailableError, match="not a JSON array"):
        select_json_array(b'{"a": 1}', entry.held_out, ensure_ascii=ascii_only)


def test_repack_refuses_what_is_not_the_source() -> None:
    with pytest.raises(DataUnavailableError, match="not a readable tar"):
        repack_tar(gzip.compress(b"not a tar at all" * 100), HeldOut(10))
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for index in range(9):
            info = tarfile.TarInfo(f"f{index}.cnf")
            archive.addfile(info, io.BytesIO(b""))
    with pytest.raises(DataUnavailableError, match=r"9 regular tar members.*made from 10"):
        repack_tar(buffer.getvalue(), HeldOut(10))


@pytest.mark.parametrize(("name", "how"), [("spider_en", "en"), ("spider", "de")])
def test_gold_check_table_is_made_again_byte_for_byte(name: str, how: str) -> None:
    folder = _shared(name)
    entry = next(f for f in SOURCES[name].files if f.relative == "dev.json")
    assert entry.held_out is not None
    indices = entry.held_out.kept(range(entry.held_out.count), "items")

    def database(db_id: str) -> bytes | None:
        path = folder / "database" / db_id / f"{db_id}.sqlite.gz"
        return (
            gzip.decompress(verified_file(folder, f"database/{db_id}/{db_id}.sqlite.gz").read_bytes())
            if path.is_file()
            else None
        )

    dev = verified_file(folder, "dev.json").read_bytes()
    made = gold_check_table(dev, indices, database, dialect=how)  # type: ignore[arg-type]
    assert made == verified_file(folder, "dev_gold_check.tsv").read_bytes()
    with pytest.raises(DataUnavailableError, match="source indices"):
        gold_check_table(dev, indices[1:], database, dialect=how)  # type: ignore[arg-type]


def _coq_rows() -> dict[str, dict[str, str]]:
    folder = _shared("minif2f_coq")
    table = verified_file(folder, "coq_8.16.1_check.tsv").read_text(encoding="utf-8")
    assert table.splitlines()[0] == HEADER
    return {row["file"]: row for row in csv.DictReader(io.StringIO(table), delimiter="\t")}


def test_coq_table_columns_read_from_the_statement_text() -> None:
    folder = _shared("minif2f_coq")
    rows = _coq_rows()
    assert len(rows) == 488
    for relative, row in rows.items():
        text = (folder / relative).read_text(encoding="utf-8")
        assert ("yes" if ends_with_admitted(text) else "no") == row["ends_with_admitted"], relative
        assert non_stdlib_requirement(text) == row["non_stdlib_requirement"], relative


def test_first_error_is_whitespace_collapsed_and_ends_at_the_next_location() -> None:
    output = (
        'File "./a.v", line 2:\nError: Cannot find a physical path bound to logical path\nX.Y.\n\n'
        'File "b"\nError: two'
    )
    assert first_error(output) == "Error: Cannot find a physical path bound to logical path X.Y."
    assert first_error("all fine") == ""


def test_coq_table_uses_the_compiler_it_is_given() -> None:
    seen: list[str] = []

    def compiler(source: str) -> CoqcRun:
        seen.append(source)
        return CoqcRun(1, "", "Error:  nope\n", 0.0, False)

    table = coq_check_table(
        {"b/x.v": "Theorem x : True.\nProof.\n", "a/y.v": "Theorem y : True.\nProof.\nAdmitted.\n"}, compiler
    )
    assert table.decode().splitlines() == [
        HEADER,
        "a/y.v\tyes\t-\tfail\tError: nope",
        "b/x.v\tno\t-\tfail\tError: nope",
    ]
    assert sorted(seen) == [
        "Theorem x : True.\nProof.\nAdmitted.\n",
        "Theorem y : True.\nProof.\nAdmitted.\n",
    ]


def test_coq_table_rows_are_made_again_with_coqc_8_16_1() -> None:
    """One row of each kind through the real coqc (the whole table takes minutes; the fetch makes it)."""
    require_coqc()
    if coqc_version() != "8.16.1":
        pytest.skip(f"needs coqc 8.16.1 (found {coqc_version()})")
    folder = _shared("minif2f_coq")
    rows = _coq_rows()
    kinds: dict[tuple[str, str, str], str] = {}
    for relative, row in rows.items():
        key = (row["ends_with_admitted"], row["non_stdlib_requirement"], row["coqc_8.16.1_stdlib"])
        kinds.setdefault(key, relative)
    assert len(kinds) == 6
    limits = CoqcLimits(timeout_s=120.0)
    for relative in kinds.values():
        text = verified_file(folder, relative).read_text(encoding="utf-8")
        expected = "\t".join(rows[relative].values())
        assert check_row(relative, text, lambda source: run_coqc(source, limits)) == expected


def test_every_regenerated_file_has_a_regenerator() -> None:
    from countermem.domains._fetch import REGENERATORS

    kinds = {f.regenerate for s in SOURCES.values() for f in s.files if f.regenerate is not None}
    assert kinds == set(Regenerate) == set(REGENERATORS)
