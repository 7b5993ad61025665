"""`countermem construct | train | evaluate` on the simulated backbone, and evaluate's hash check."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from countermem.cli import app

COMMON = ["--benchmark", "sql-shop", "--backbone", "simulated", "--split-by-task"]


def test_stages_chain_and_evaluate_refuses_a_changed_checkpoint(tmp_path: Path) -> None:
    runner = CliRunner()
    store, checkpoint = tmp_path / "store.sqlite", tmp_path / "dqn.pt"
    built = runner.invoke(app, ["construct", *COMMON, "--store", str(store), "--limit", "12",
                                "--out", str(tmp_path / "c")])
    assert built.exit_code == 0, built.output
    assert "records admitted" in built.output
    trained = runner.invoke(app, ["train", *COMMON, "--store", str(store), "--checkpoint", str(checkpoint),
                                  "--embedder", "lexical", "--limit", "4", "--out", str(tmp_path / "t")])
    assert trained.exit_code == 0, trained.output
    evaluate = ["evaluate", *COMMON, "--store", str(store), "--checkpoint", str(checkpoint), "--embedder",
                "lexical", "--limit", "4", "--trained", str(tmp_path / "t")]
    ok = runner.invoke(app, [*evaluate, "--out", str(tmp_path / "e1")])
    assert ok.exit_code == 0, ok.output
    checkpoint.write_bytes(checkpoint.read_bytes() + b"\0")
    refused = runner.invoke(app, [*evaluate, "--out", str(tmp_path / "e2")])
    assert refused.exit_code == 2
    said = " ".join(refused.output.split())
    assert "ArtifactMismatchError" in said and "the manifest says" in said
    wrong = runner.invoke(app, [*evaluate, "--trained", str(tmp_path / "c"), "--out", str(tmp_path / "e3")])
    assert wrong.exit_code == 2 and "no finished train stage" in " ".join(wrong.output.split())
