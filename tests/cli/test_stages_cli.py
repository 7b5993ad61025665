"""`countermem construct | train | evaluate` on the simulated backbone, and evaluate's hash check."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from typer.testing import CliRunner

from countermem.cli import app
from countermem.memory import PostgresStore, SQLiteStore, open_store, store_sha256

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


def _train_then_evaluate(tmp_path: Path, store: Path) -> tuple[str, str, list[str]]:
    runner = CliRunner()
    checkpoint = tmp_path / "dqn.pt"
    trained = runner.invoke(app, ["train", *COMMON, "--store", str(store), "--checkpoint", str(checkpoint),
                                  "--embedder", "lexical", "--limit", "2", "--out", str(tmp_path / "t")])
    assert trained.exit_code == 0, trained.output
    result = runner.invoke(app, ["evaluate", *COMMON, "--store", str(store), "--checkpoint", str(checkpoint),
                                 "--embedder", "lexical", "--limit", "2", "--out", str(tmp_path / "e")])
    assert result.exit_code == 0, result.output
    warnings = json.loads((tmp_path / "e" / "metrics.json").read_text())["warnings"]
    return " ".join(result.output.split()), (tmp_path / "e" / "report.md").read_text(), warnings


def test_evaluate_warns_when_the_dqn_checkpoint_never_updated(tmp_path: Path) -> None:
    # an empty store gives the selector no decision, so not even its final fit has anything to learn
    store = tmp_path / "store.sqlite"
    SQLiteStore(store).close()
    said, report, warnings = _train_then_evaluate(tmp_path, store)
    assert "warning:" in said and " 0 updates" in said and "dqn.pt" in said
    assert " 0 updates" in report and "untrained" in report
    assert " 0 updates" in " ".join(warnings)


def test_evaluate_warns_when_the_dqn_learned_from_few_transitions(tmp_path: Path) -> None:
    store = tmp_path / "store.sqlite"
    built = CliRunner().invoke(app, ["construct", *COMMON, "--store", str(store), "--limit", "6",
                                     "--out", str(tmp_path / "c")])
    assert built.exit_code == 0, built.output
    # two training tasks stay below the DQN's learning_starts; the final fit still trains on them
    said, report, warnings = _train_then_evaluate(tmp_path, store)
    assert "warning:" in said and "learned from only" in said and "final fit" in said
    assert "learned from only" in report and "untrained" not in report
    assert len(warnings) == 1 and "fewer than learning_starts 32" in warnings[0]
    stage = json.loads((tmp_path / "t" / "stage.json").read_text())
    assert stage["selector_updates"] == 200


def test_generator_options_are_checked_and_recorded(tmp_path: Path) -> None:
    from countermem.experiment._stages import MemorySettings

    runner = CliRunner()
    base = ["construct", "--benchmark", "sql-shop", "--backbone", "scripted", "--store", str(tmp_path / "s.sqlite"),
            "--limit", "2"]
    scripted = runner.invoke(app, [*base, "--generator-model", "qwen2.5-coder-1.5b", "--out", str(tmp_path / "a")])
    assert scripted.exit_code == 2 and "separate generator model ('qwen2.5-coder-1.5b') needs a real backbone" in " ".join(scripted.output.split())
    strategy = runner.invoke(app, [*base, "--generator-strategy", "greedy", "--out", str(tmp_path / "b")])
    assert strategy.exit_code == 2 and "unknown --generator-strategy 'greedy'" in " ".join(strategy.output.split())
    # the generator's model is part of the stage config, so a resume with another one is refused
    one = MemorySettings(store=tmp_path / "s.sqlite", generator_model="qwen2.5-coder-1.5b").flat()
    other = MemorySettings(store=tmp_path / "s.sqlite", generator_model="qwen2.5-coder-0.5b").flat()
    assert one != other and one["generator_model"] == "qwen2.5-coder-1.5b"


def test_construct_refuses_a_foreign_sqlite_store_and_leaves_it_unchanged(tmp_path: Path) -> None:
    import sqlite3

    foreign = tmp_path / "app.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    conn.commit()
    conn.close()
    before = foreign.read_bytes()
    result = CliRunner().invoke(app, ["construct", *COMMON, "--store", str(foreign), "--limit", "2",
                                      "--out", str(tmp_path / "c")])
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.split())
    assert "StoreError" in said and "not a memory store" in said and "invoices" in said
    assert foreign.read_bytes() == before
    conn = sqlite3.connect(foreign)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")] == ["invoices"]
    conn.close()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("app.db")) == ["app.db"]


def test_train_refuses_to_write_its_checkpoint_over_the_store_or_another_file(tmp_path: Path) -> None:
    store = tmp_path / "store.sqlite"
    with SQLiteStore(store):
        pass
    notes = tmp_path / "notes.txt"
    notes.write_text("keep me")
    before = store.read_bytes()
    for target, said in ((store, "the memory store itself"), (notes, "not a selector checkpoint")):
        result = CliRunner().invoke(app, ["train", *COMMON, "--store", str(store), "--checkpoint", str(target),
                                          "--embedder", "lexical", "--limit", "2", "--out", str(tmp_path / "t")])
        assert result.exit_code == 2, result.output
        assert said in " ".join(result.output.split())
    assert store.read_bytes() == before and notes.read_text() == "keep me"
    assert not (tmp_path / "t").exists()


def test_construct_writes_into_its_scope_and_refuses_a_bad_scope_name(tmp_path: Path) -> None:
    runner = CliRunner()
    store = tmp_path / "store.sqlite"
    built = runner.invoke(app, ["construct", *COMMON, "--store", str(store), "--limit", "6",
                                "--scope", "team-a", "--merge", "--out", str(tmp_path / "c")])
    assert built.exit_code == 0, built.output
    with SQLiteStore(store, read_only=True) as opened:
        assert opened.stats().by_scope and set(opened.stats().by_scope) == {"team-a"}
    bad = runner.invoke(app, ["construct", *COMMON, "--store", str(store), "--limit", "2", "--scope", "Team A",
                              "--out", str(tmp_path / "bad")])
    assert bad.exit_code == 2 and "not a valid scope name" in " ".join(bad.output.split())


def test_construct_and_evaluate_with_a_postgres_store(tmp_path: Path, pg_url: Callable[[], str]) -> None:
    url = pg_url()
    runner = CliRunner()
    built = runner.invoke(app, ["construct", *COMMON, "--store", url, "--limit", "12", "--out", str(tmp_path / "c")])
    assert built.exit_code == 0, built.output
    stage = json.loads((tmp_path / "c" / "stage.json").read_text())
    with open_store(url, read_only=True) as store:
        assert isinstance(store, PostgresStore)
        assert stage["records_after"] == len(store) > 0
        assert stage["store_sha256"] == store.content_sha256() == store_sha256(url)
    assert stage["store"] == url
    evaluated = runner.invoke(app, ["evaluate", *COMMON, "--store", url, "--selector", "top1", "--embedder",
                                    "lexical", "--limit", "3", "--out", str(tmp_path / "e")])
    assert evaluated.exit_code == 0, evaluated.output
    assert json.loads((tmp_path / "e" / "stage.json").read_text())["store_sha256"] == stage["store_sha256"]
