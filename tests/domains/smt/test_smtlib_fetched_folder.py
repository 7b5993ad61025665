"""smtlib from a fetched folder: index.tsv cannot be fetched, so its rows come from the .smt2 files.

The fetched-like folder holds the shared .smt2 files (symlinked) and the SOURCE.md the fetcher itself
writes (`render_source_md`), which lists index.tsv under the Not-fetched heading.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from countermem.core import DataUnavailableError
from countermem.domains import BenchmarkOptions
from countermem.domains._data import NOT_FETCHED_HEADING, find_data_root, not_fetched_reasons
from countermem.domains._fetch import render_source_md
from countermem.domains._sources import SOURCES
from countermem.domains.smt import SMTLib
from countermem.domains.smt._base import z3_availability
from countermem.domains.smt._instances import INDEX, read_index, rows_from_files


@pytest.fixture(scope="module")
def shared() -> Path:
    root = find_data_root()
    if root is None or not (root / "smtlib" / INDEX).is_file():
        pytest.skip("the shared smtlib folder (with index.tsv) is not available")
    return root / "smtlib"


def _fetched_like(shared: Path, root: Path, source_md: str | None = None) -> Path:
    folder = root / "smtlib"
    for entry in SOURCES["smtlib"].files:
        if entry.relative == INDEX:
            continue
        target = folder / entry.relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.symlink_to(shared / entry.relative)
    text = render_source_md(SOURCES["smtlib"]) if source_md is None else source_md
    (folder / "SOURCE.md").write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def fetched(shared: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _fetched_like(shared, tmp_path_factory.mktemp("fetched"))


def test_the_fetcher_lists_index_tsv_as_not_fetched(fetched: Path) -> None:
    assert not (fetched / INDEX).exists()
    assert "z3 run times" in not_fetched_reasons(fetched)[INDEX]


def test_rows_from_the_files_equal_index_tsv_but_for_the_z3_fields(shared: Path, fetched: Path) -> None:
    from_index = read_index(shared)
    from_files = read_index(fetched)
    assert len(from_files) == len(from_index) == 408
    assert all(row.z3_reference_result is None and row.z3_reference_seconds is None for row in from_files)
    assert all(row.z3_reference_result is not None for row in from_index)
    assert sorted(from_files, key=lambda r: r.path) == sorted(
        (replace(row, z3_reference_result=None, z3_reference_seconds=None) for row in from_index),
        key=lambda r: r.path,
    )


def test_a_fetched_folder_gives_the_same_tasks(shared: Path, fetched: Path) -> None:
    from_shared = SMTLib(BenchmarkOptions(data_dir=shared.parent))
    from_fetched = SMTLib(BenchmarkOptions(data_dir=fetched.parent))
    assert from_fetched.availability().available == z3_availability().available
    expected, got = from_shared.tasks(), from_fetched.tasks()
    assert len(got) == 160
    assert [t.id for t in got] == [t.id for t in expected]
    assert [t.environment for t in got] == [t.environment for t in expected]
    assert [t.metadata["declared_status"] for t in got] == [t.metadata["declared_status"] for t in expected]
    assert [t.gold for t in got] == [t.gold for t in expected]
    lia = [t.id for t in got if t.environment == "QF_LIA"]
    assert len(lia) == 40
    for task in got:
        assert task.metadata["reference_z3_result"] is None
        assert task.metadata["reference_z3_seconds"] is None
    plain = {"reference_z3_result", "reference_z3_seconds"}
    for mine, theirs in zip(got, expected, strict=True):
        assert {k: v for k, v in mine.metadata.items() if k not in plain} == {
            k: v for k, v in theirs.metadata.items() if k not in plain
        }


def test_a_changed_smt2_file_is_refused(shared: Path, tmp_path: Path) -> None:
    folder = _fetched_like(shared, tmp_path)
    victim = next(p for p in sorted(folder.rglob("*.smt2")) if "QF_NRA" in str(p))
    text = victim.read_text(encoding="utf-8")
    victim.unlink()
    victim.write_text(text.replace(":status sat", ":status unsat", 1), encoding="utf-8")
    with pytest.raises(DataUnavailableError, match=r"does not match its SOURCE\.md checksum"):
        rows_from_files(folder)


def test_index_tsv_missing_without_a_reason_stays_an_error(shared: Path, tmp_path: Path) -> None:
    source_md = render_source_md(SOURCES["smtlib"])
    head, _, rest = source_md.partition(NOT_FETCHED_HEADING)
    assert rest, "the fetcher no longer writes a Not-fetched section for smtlib"
    without_section = head + rest[rest.index("## Files") :]
    folder = _fetched_like(shared, tmp_path, without_section)
    assert not_fetched_reasons(folder) == {}
    with pytest.raises(DataUnavailableError, match=r"index\.tsv is missing$"):
        read_index(folder)
    with pytest.raises(DataUnavailableError, match=r"index\.tsv is missing$"):
        SMTLib(BenchmarkOptions(data_dir=folder.parent)).tasks()
