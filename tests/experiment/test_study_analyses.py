"""The study's analyses (accumulation, transfer, retention, budget) over small fake study trees.

Most leaves are written directly (RunDir manifest, results.jsonl, empty transcripts, metrics from
compute_metrics, stage.json), so every number below is chosen by the test; the transfer pairs are
real toy runs from test_paired (per seed: 1 rescued, 2 broken, 3 harmful of 5 selected uses).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_paired import build_pair
from typer.testing import CliRunner

from countermem.agents import TaskOutcome
from countermem.cli import app
from countermem.core import ConfigError, Usage
from countermem.experiment import (
    RunConfig,
    RunDir,
    StageReport,
    StudyAnalyses,
    collect_analyses,
    collect_rows,
    compute_metrics,
    write_study_folder_report,
    write_study_report,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
runner = CliRunner()


def write_run(
    path: Path, *, solved: list[bool], seed: int = 0, agent: str = "react", memory: bool = False,
    augmentation: int = 0, tokens: int = 10, records: int | None = None, coverage: tuple[int, float] | None = None,
    simulated: bool = False,
) -> Path:
    """A finished run of len(solved) toy tasks; `augmentation` and `tokens` are per task."""
    config = RunConfig(benchmark="toy-add", backbone="scripted", model="fake", agent=agent, seed=seed,
                       stage="evaluate" if memory else "run", memory={"selector": "fake"} if memory else None)
    run = RunDir(path)
    run.prepare(config, seed=seed, resume=False)
    outcomes = []
    for i, ok in enumerate(solved):
        outcome = TaskOutcome(
            task_id=f"t{i}", benchmark="toy-add", solved=ok, final_utility=1.0 if ok else 0.0,
            final_status="passed" if ok else "wrong", submitted=True, forced_submit=False, steps=1,
            evaluator_calls=0, failed_attempts=0 if ok else 1, parse_errors=0,
            usage=Usage(prompt_tokens=tokens + augmentation, completion_tokens=0),
            augmentation_tokens=augmentation, stop_reason="submitted", seconds=0.0,
        )
        with run.transcript_writer(outcome.task_id):
            pass
        run.append_result(outcome)
        outcomes.append(outcome)
    run.write_json("metrics.json", compute_metrics(outcomes, benchmark="toy-add", backbone="scripted",
                                                   model="fake", simulated=simulated))
    if records is not None or coverage is not None:
        attempts, share = coverage or (0, None)
        run.write_json("stage.json", StageReport(
            stage="evaluate", benchmark="toy-add", n_tasks=len(solved), store="s.sqlite", store_sha256="0" * 64,
            records_before=records or 0, records_after=records or 0, retrieval_attempts=attempts,
            retrieval_coverage=share,
        ))
    return path


def solved(k: int, n: int = 4) -> list[bool]:
    return [i < k for i in range(n)]


# checkpoint -> (held-out solved of 4, earlier solved of 4, records) per seed
ACCUMULATION = {
    0: {0: (1, 1, 0), 5: (2, 4, 3), 10: (3, 3, 7)},
    1: {0: (1, 0, 0), 5: (3, 2, 5), 10: (3, 2, 9)},
}


def build_accumulation(root: Path, simulated: bool = False) -> None:
    for seed, checkpoints in ACCUMULATION.items():
        for count, (heldout, earlier, records) in checkpoints.items():
            base = root / "accumulation" / "ours" / "react" / "toy-add" / f"seed-{seed}" / f"after-{count}"
            write_run(base / "heldout", solved=solved(heldout), seed=seed, memory=True, records=records,
                      augmentation=count, simulated=simulated)
            write_run(base / "earlier", solved=solved(earlier), seed=seed, memory=True, records=records,
                      simulated=simulated)
    (root / "accumulation" / "ours" / "react" / "toy-add" / "seed-0" / "construct").mkdir()  # not read


def build_transfer(benchmark, root: Path, results: Path) -> None:  # type: ignore[no-untyped-def]
    """look-alike: real paired toy runs for seeds 0 and 1; new-environment: links to the main results."""
    for seed, (attempts, share) in ((0, (8, 0.75)), (1, (2, 0.25))):
        leaf = Path("react") / "toy-add" / f"seed-{seed}"
        with_dir, _ = build_pair(benchmark, root, seed=seed, with_dir=root / "transfer" / "look-alike" / "ours" / leaf,
                                 without_dir=root / "transfer" / "look-alike" / "none" / leaf)
        RunDir(with_dir).write_json("stage.json", StageReport(
            stage="evaluate", benchmark="toy-add", n_tasks=6, store="s.sqlite", store_sha256="0" * 64,
            records_before=3, records_after=3, retrieval_attempts=attempts, retrieval_coverage=share,
        ))
    for method in ("none", "ours"):
        link = root / "transfer" / "new-environment" / method / "react" / "toy-add" / "seed-0"
        link.parent.mkdir(parents=True)
        link.symlink_to(results / method / "react" / "toy-add" / "seed-0", target_is_directory=True)


def build_budgets(root: Path) -> None:
    for budget, (none_solved, ours_solved) in ((1000, ((1, 2), (2, 2))), (4000, ((2, 2), (3, 4)))):
        for seed in (0, 1):
            leaf = Path("react") / "toy-add" / f"seed-{seed}"
            write_run(root / f"budget-{budget}" / "none" / leaf, solved=solved(none_solved[seed]), seed=seed,
                      tokens=budget // 10)
            write_run(root / f"budget-{budget}" / "ours" / leaf, solved=solved(ours_solved[seed]), seed=seed,
                      memory=True, tokens=budget // 10, augmentation=budget // 20)


def build_results(root: Path) -> Path:
    """Main comparison: none, ours, and two retention rules, seeds 0 and 1."""
    for seed in (0, 1):
        leaf = Path("react") / "toy-add" / f"seed-{seed}"
        write_run(root / "none" / leaf, solved=solved(2), seed=seed)
        write_run(root / "ours" / leaf, solved=solved(3), seed=seed, memory=True, records=20,
                  coverage=(4, 0.5))
        write_run(root / "retention-utility" / leaf, solved=solved(3 + seed), seed=seed, memory=True,
                  records=10 + seed)
        write_run(root / "retention-recency" / leaf, solved=solved(1), seed=seed, memory=True, records=6)
    return root


def build_study(benchmark, root: Path, backbones: tuple[str, ...] = ("tiny",), full: bool = True) -> Path:  # type: ignore[no-untyped-def]
    root.mkdir(parents=True)
    (root / "manifest.json").write_text(json.dumps({"kind": "study", "name": "t"}))
    for backbone in backbones:
        results = build_results(root / "results" / backbone)
        analyses = root / "analyses" / backbone
        build_transfer(benchmark, analyses, results)
        if full:
            build_accumulation(analyses)
            build_budgets(analyses)
    return root


def test_accumulation_means_records_tokens_and_score_loss(tmp_path: Path) -> None:
    build_accumulation(tmp_path / "tiny")
    analyses = collect_analyses(tmp_path / "tiny")
    assert analyses.backbone == "tiny" and not analyses.transfer and not analyses.budgets
    assert len(analyses.accumulation) == 6
    points = {p.processed: p for p in analyses.accumulation_points()}
    assert sorted(points) == [0, 5, 10]
    assert [points[c].success.mean for c in (0, 5, 10)] == [25.0, 62.5, 75.0]  # type: ignore[union-attr]
    assert [points[c].records for c in (0, 5, 10)] == [0.0, 4.0, 8.0]
    assert [points[c].memory_tokens_per_task for c in (0, 5, 10)] == [0.0, 5.0, 10.0]
    assert points[0].score_loss is None  # the probe tasks were not yet learnt from
    assert points[5].score_loss is not None and points[5].score_loss.mean == 0.0
    loss = points[10].score_loss
    assert loss is not None and loss.mean == pytest.approx(12.5) and loss.n == 2  # seed 0 forgot one task
    assert points[10].earlier_success is not None and points[10].earlier_success.mean == 62.5
    md_path, _ = write_study_report(tmp_path / "out", collect_rows(build_results(tmp_path / "res")), analyses)
    md = md_path.read_text()
    assert "## Accumulation: memory built from more and more source tasks" in md
    assert "| ours | react | toy-add | 10 | 8.0 | 75.0 ± 0.0 (n=2) | 10 | 62.5 ± 17.7 (n=2) | +12.5 ± 17.7 (n=2) | 2 |" in md
    assert "| ours | react | toy-add | 0 | 0.0 | 25.0 ± 0.0 (n=2) | 0 | 12.5 ± 17.7 (n=2) | — | 2 |" in md
    assert (tmp_path / "out" / "accumulation_toy-add.png").read_bytes().startswith(PNG_MAGIC)
    assert "Transfer:" not in md and "Budget:" not in md


def test_transfer_pairs_each_condition_with_its_own_none_runs(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    results = build_results(tmp_path / "results" / "tiny")
    build_transfer(toy_benchmark, tmp_path / "analyses" / "tiny", results)
    analyses = collect_analyses(tmp_path / "analyses" / "tiny")
    assert list(analyses.transfer) == ["new-environment", "look-alike"]  # reading order, not alphabetical
    cells = {(c.condition, c.method): c for c in analyses.transfer_cells()}
    look = cells[("look-alike", "ours")]
    assert (look.n_paired, look.rescued, look.broken) == (12, 2, 4)
    assert (look.harmful_uses, look.selected_uses) == (6, 10) and look.harmful_use == pytest.approx(0.6)
    assert look.retrieval_attempts == 10
    assert look.retrieval_coverage == pytest.approx((8 * 0.75 + 2 * 0.25) / 10)  # pooled per attempt
    assert look.success == pytest.approx(50.0) and cells[("look-alike", "none")].success == pytest.approx(400 / 6)
    linked = cells[("new-environment", "ours")]  # the link to the main results is followed
    assert (linked.success, linked.n_paired, linked.rescued, linked.broken) == (75.0, 4, 1, 0)
    assert linked.retrieval_coverage == 0.5 and cells[("new-environment", "none")].n_paired == 0
    md_path, html_path = write_study_report(tmp_path / "out", collect_rows(results), analyses)
    md = md_path.read_text()
    assert "| look-alike | ours | react | 50.0 | +2 / -4 (of 12) | 0.60 (6/10) | 0.65 | 2 |" in md
    assert "| look-alike | none | react | 66.7 | — | — | — | 2 |" in md
    assert (tmp_path / "out" / "transfer.png").read_bytes().startswith(PNG_MAGIC)
    assert "<td>0.60 (6/10)</td>" in html_path.read_text()


def test_retention_and_budget_sections(tmp_path: Path) -> None:
    rows = collect_rows(build_results(tmp_path / "res"))
    build_budgets(tmp_path / "an" / "tiny")
    analyses = collect_analyses(tmp_path / "an" / "tiny")
    assert list(analyses.budgets) == [1000, 4000] and not analyses.accumulation
    cells = {(c.budget, c.method): c for c in analyses.budget_cells()}
    assert cells[(1000, "none")].success == 37.5 and cells[(1000, "ours")].success == 50.0
    assert cells[(4000, "ours")].success == 87.5
    assert cells[(4000, "ours")].tokens_per_task == 400 + 200  # reasoning + augmentation
    assert cells[(1000, "none")].tokens_per_task == 100
    md = write_study_report(tmp_path / "out", rows, analyses)[0].read_text()
    assert "| 4000 | ours | react | 87.5 | 600 | 2 |" in md
    assert "| retention-utility | react | 87.5 | 10.5 | 2 |" in md
    assert "| retention-recency | react | 25.0 | 6.0 | 2 |" in md
    for name in ("budget.png", "retention.png"):
        data = (tmp_path / "out" / name).read_bytes()
        assert data.startswith(PNG_MAGIC) and len(data) > 1000
        assert f"]({name})" in md


def test_missing_analyses_give_a_report_without_those_sections(tmp_path: Path) -> None:
    analyses = collect_analyses(tmp_path / "nowhere" / "tiny")
    assert isinstance(analyses, StudyAnalyses) and analyses.empty and analyses.backbone == "tiny"
    (tmp_path / "bare" / "transfer" / "look-alike").mkdir(parents=True)  # folders without runs yet
    assert collect_analyses(tmp_path / "bare").empty
    rows = collect_rows(build_results(tmp_path / "res"))
    md_path, html_path = write_study_report(tmp_path / "out", rows, analyses)
    md = md_path.read_text()
    for section in ("Accumulation:", "Transfer:", "Budget:"):
        assert section not in md
    assert "## Success (0-100) by method, agent and benchmark" in md and "Retention rules" in md
    assert not (tmp_path / "out" / "transfer.png").exists() and not (tmp_path / "out" / "budget.png").exists()
    assert "<h2>Accumulation" not in html_path.read_text()


def test_malformed_leaves_are_named(tmp_path: Path) -> None:
    root = tmp_path / "tiny"
    seed_dir = root / "accumulation" / "ours" / "react" / "toy-add" / "seed-0"
    (seed_dir / "after-five").mkdir(parents=True)
    with pytest.raises(ConfigError, match="after-five: a checkpoint folder is named after-"):
        collect_analyses(root)
    (seed_dir / "after-five").rmdir()
    (seed_dir / "after-5").mkdir()
    with pytest.raises(ConfigError, match="after-5 has neither heldout/ nor earlier/"):
        collect_analyses(root)
    write_run(seed_dir / "after-5" / "heldout", solved=solved(1), seed=0, memory=True)
    (seed_dir / "after-5" / "heldout" / "metrics.json").unlink()
    with pytest.raises(ConfigError, match=r"heldout has no metrics\.json"):
        collect_analyses(root)
    write_run(seed_dir / "after-5" / "earlier", solved=solved(1), seed=3, memory=True)
    (seed_dir / "after-5" / "heldout").rename(tmp_path / "gone")
    with pytest.raises(ConfigError, match=r"earlier does not match its place.*seed 3, folder says 0"):
        collect_analyses(root)
    (root / "budget-lots").mkdir()
    (root / "accumulation").rename(tmp_path / "acc")
    with pytest.raises(ConfigError, match="budget-lots: a budget folder is named budget-<tokens>"):
        collect_analyses(root)


def test_countermem_report_on_a_study_folder(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    study = build_study(toy_benchmark, tmp_path / "study")
    result = runner.invoke(app, ["report", str(study)])
    assert result.exit_code == 0, result.output
    md = (study / "report" / "report.md").read_text()
    assert md.startswith("# Study report\n") and "Backbone: tiny." in md
    for section in ("Accumulation:", "Transfer:", "Budget:", "Retention rules", "Rescued / broken by domain"):
        assert section in md
    pngs = ["success_by_method.png", "rescued_broken_by_domain.png", "retention.png", "accumulation_toy-add.png",
            "transfer.png", "budget.png"]
    for name in pngs:
        assert (study / "report" / name).read_bytes().startswith(PNG_MAGIC)
    page = (study / "report" / "report.html").read_text()
    assert page.count("src='data:image/png;base64,") == len(pngs) and "http" not in page
    assert not (study / "study_report.md").exists()


def test_several_backbones_get_their_own_sections(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    study = build_study(toy_benchmark, tmp_path / "study", backbones=("alpha", "beta"), full=False)
    md_path, _ = write_study_folder_report(study, tmp_path / "out")
    md = md_path.read_text()
    assert md.index("## Backbone alpha") < md.index("## Backbone beta")
    assert md.count("### Success (0-100) by method, agent and benchmark") == 2
    assert md.count("### Transfer:") == 2
    for backbone in ("alpha", "beta"):
        assert (tmp_path / "out" / f"{backbone}-transfer.png").read_bytes().startswith(PNG_MAGIC)
        assert f"]({backbone}-success_by_method.png)" in md


def test_study_folder_without_results_is_refused(tmp_path: Path) -> None:
    study = tmp_path / "study"
    build_accumulation(study / "analyses" / "tiny")
    (study / "manifest.json").write_text(json.dumps({"kind": "study"}))
    result = runner.invoke(app, ["report", str(study)])
    assert result.exit_code == 2 and "no finished runs under results/" in " ".join(result.output.split())


def test_simulated_analyses_are_labelled(tmp_path: Path) -> None:
    build_accumulation(tmp_path / "tiny", simulated=True)
    analyses = collect_analyses(tmp_path / "tiny")
    assert analyses.simulated and {p.method for p in analyses.accumulation_points()} == {"ours (SIMULATED)"}
    md = write_study_report(tmp_path / "out", collect_rows(build_results(tmp_path / "res")), analyses)[0].read_text()
    assert md.startswith("# Study report (contains SIMULATED runs")
    assert "| ours (SIMULATED) | react | toy-add | 10 |" in md


def test_run_warnings_open_the_study_report(tmp_path: Path) -> None:
    from countermem.experiment._study_report import run_warnings

    rows = collect_rows(build_results(tmp_path / "res"))
    assert run_warnings(rows) == []
    warned = rows[0].model_copy(update={
        "metrics": rows[0].metrics.model_copy(update={"warnings": ["the DQN selector made 0 updates"]}),
    })
    lines = run_warnings([warned, *rows[1:]])
    assert lines == [
        f"Warning ({warned.method}, {warned.agent}, {warned.benchmark}, seed {warned.seed}): "
        "the DQN selector made 0 updates"
    ]
    md = write_study_report(tmp_path / "out", [warned, *rows[1:]])[0].read_text()
    assert lines[0] in md
