"""A refused `construct` or `evaluate` writes nothing into --out: the corrected command needs no --resume."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from countermem.cli import app

BASE = ["--benchmark", "sql-shop", "--backbone", "scripted", "--limit", "2"]


@pytest.mark.parametrize("bad_store", ["not-a-store.sqlite", "a-folder"])
def test_a_refused_construct_leaves_no_manifest(tmp_path: Path, bad_store: str) -> None:
    out, store = tmp_path / "construct", tmp_path / bad_store
    if bad_store == "a-folder":
        store.mkdir()
    else:
        store.write_text("these are notes, not a memory store\n")
    refused = CliRunner().invoke(app, ["construct", *BASE, "--store", str(store), "--out", str(out)])
    assert refused.exit_code == 2, refused.output
    assert not (out / "manifest.json").exists(), "a refused construct claimed the run folder"
    assert store.is_dir() or store.read_text().startswith("these are notes"), "the bad store is left as it was"

    fixed = CliRunner().invoke(app, ["construct", *BASE, "--store", str(tmp_path / "m.sqlite"), "--out", str(out)])
    assert fixed.exit_code == 0, fixed.output  # the same command, corrected, without --resume


def test_a_refused_evaluate_leaves_no_manifest(tmp_path: Path) -> None:
    built = CliRunner().invoke(
        app, ["construct", *BASE, "--store", str(tmp_path / "m.sqlite"), "--out", str(tmp_path / "c")]
    )
    assert built.exit_code == 0, built.output
    out = tmp_path / "evaluate"
    evaluate = ["evaluate", *BASE, "--selector", "top1", "--embedder", "lexical", "--out", str(out)]
    for wrong in (["--store", str(tmp_path / "missing.sqlite")], ["--store", str(tmp_path / "m.sqlite"),
                                                                    "--trained", str(tmp_path / "c")]):
        refused = CliRunner().invoke(app, [*evaluate, *wrong])
        assert refused.exit_code == 2, refused.output
        assert not (out / "manifest.json").exists()
    fixed = CliRunner().invoke(app, [*evaluate, "--store", str(tmp_path / "m.sqlite")])
    assert fixed.exit_code == 0, fixed.output
