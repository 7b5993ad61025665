"""Each benchmark names its checker, the checker's version and its data's fingerprint (record provenance)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from countermem.core import sha256_file
from countermem.domains import BenchmarkOptions, CheckerInfo, benchmark_names, load_benchmark


def test_a_packaged_benchmark_reports_its_checker_and_packaged_data() -> None:
    info = load_benchmark("sql-shop").checker()
    assert info == CheckerInfo("sqlite3", sqlite3.sqlite_version, "packaged")


def test_data_fingerprint_is_the_sha256_of_source_md(tmp_path: Path) -> None:
    folder = tmp_path / "gsm8k"
    folder.mkdir()
    (folder / "SOURCE.md").write_text("| test.jsonl | 3 | " + "0" * 64 + " |\n")
    info = load_benchmark("gsm8k", BenchmarkOptions(data_dir=tmp_path)).checker()
    assert info.name == "math-verify" and info.data_sha256 == sha256_file(folder / "SOURCE.md")


def test_missing_data_is_unknown_not_a_crash(tmp_path: Path) -> None:
    info = load_benchmark("gsm8k", BenchmarkOptions(data_dir=tmp_path)).checker()
    assert info.data_sha256 == "unknown"


@pytest.mark.parametrize("name", benchmark_names())
def test_every_benchmark_names_its_checker(name: str) -> None:
    info = load_benchmark(name).checker()
    assert info.name in {"math-verify", "python", "sqlite3", "coqc", "z3", "python-sat"}
    assert info.version and info.data_sha256
