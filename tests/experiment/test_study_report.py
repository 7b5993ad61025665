"""The study report over a small study folder of real toy runs (the six-role scenario of test_paired:
per seed 1 rescued, 2 broken, 3 harmful of 5 selected uses; memory 3/6 solved, none 4/6)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_paired import build_pair

from countermem.core import ConfigError
from countermem.experiment import collect_rows, write_study_report

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def build_study(benchmark, root: Path, seeds: tuple[int, ...] = (0, 1), simulated_seeds: tuple[int, ...] = ()) -> Path:  # type: ignore[no-untyped-def]
    for seed in seeds:
        leaf = Path("react") / "toy-add" / f"seed-{seed}"
        build_pair(benchmark, root, seed=seed, simulated=seed in simulated_seeds,
                   with_dir=root / "fake" / leaf, without_dir=root / "none" / leaf)
    return root


def test_collect_rows_pairs_each_method_with_its_none_twin(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    rows = collect_rows(build_study(toy_benchmark, tmp_path), domains={"toy-add": "math"})
    assert [(r.method, r.seed) for r in rows] == [("fake", 0), ("fake", 1), ("none", 0), ("none", 1)]
    assert all(r.domain == "math" and r.agent == "react" for r in rows)
    fake = [r for r in rows if r.method == "fake"]
    assert all(r.paired is not None and (r.paired.rescued, r.paired.broken) == (1, 2) for r in fake)
    assert all(r.paired is None for r in rows if r.method == "none")
    assert collect_rows(tmp_path)[0].domain == "other"  # not in the registry, no mapping given


def test_study_report_tables_plots_and_html(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    rows = collect_rows(build_study(toy_benchmark, tmp_path / "study"), domains={"toy-add": "math"})
    md_path, html_path = write_study_report(tmp_path / "out", rows)
    md = md_path.read_text()
    assert md.startswith("# Study report\n") and "SIMULATED" not in md
    assert "| none | react | 66.7 ± 0.0 (n=2) | 66.7 |" in md
    assert "| fake | react | 50.0 ± 0.0 (n=2) | 50.0 |" in md
    # McNemar on the pooled 2 rescued / 4 broken: 2 * P(X <= 2), X ~ Binomial(6, 1/2) = 44/64
    assert ("| fake | react | toy-add | 12 | 2 | 4 | -16.7 ± 0.0 (n=2) | 0.688 | [-50.0, +25.0] | 0.60 (6/10) "
            "| 0.67 (8/12) | 0.33 (4/12) |") in md
    assert "| n/a (no stage.json) | 2 of 4 (2) | 6 of 8 (2) |" in md  # per seed: none fails 2 tasks, a record reaches 1 (solved) and 3 it solved (1 kept)
    assert "| fake | +2 / -4 (of 12) |" in md
    assert "| fake | react | toy-add | 0.33 | 1.33 |" in md  # evaluator calls, failed attempts per solved
    sections = [line for line in md.splitlines() if line.startswith("## ")]
    intros = [md.split(s, 1)[1].split("\n")[2] for s in sections]
    assert len(sections) == 7 and all(len(i) > 40 and not i.startswith("|") for i in intros)  # plain words first
    assert "Retention rules" not in md and not (tmp_path / "out" / "retention.png").exists()
    pngs = ["success_by_method.png", "rescued_broken_by_domain.png", "harmful_use_by_method.png"]
    for name in pngs:
        data = (tmp_path / "out" / name).read_bytes()
        assert data.startswith(PNG_MAGIC) and len(data) > 1000
        assert f"]({name})" in md
    page = html_path.read_text()
    assert page.count("src='data:image/png;base64,") == 3 and page.count("<table>") == 7
    assert "http" not in page and "<script" not in page and "<link" not in page
    assert "<td>0.60 (6/10)</td>" in page


def test_simulated_runs_are_labelled(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    rows = collect_rows(build_study(toy_benchmark, tmp_path / "all", seeds=(0,), simulated_seeds=(0,)))
    md = write_study_report(tmp_path / "out-all", rows)[0].read_text()
    assert md.startswith("# Study report (SIMULATED backbone")
    table_rows = [line for line in md.splitlines() if line.startswith("| fake") or line.startswith("| none")]
    assert table_rows and all("(SIMULATED)" in line for line in table_rows)
    mixed = collect_rows(build_study(toy_benchmark, tmp_path / "mixed", simulated_seeds=(1,)))
    md_path, html_path = write_study_report(tmp_path / "out-mixed", mixed)
    md = md_path.read_text()
    assert md.startswith("# Study report (contains SIMULATED runs")
    assert "| none | react | 66.7 (n=1) | 66.7 |" in md  # seed 0, real
    assert "| none (SIMULATED) | react | 66.7 (n=1) | 66.7 |" in md  # seed 1 kept apart, not averaged in
    assert "<h1>Study report (contains SIMULATED runs" in html_path.read_text()


def test_collect_rows_refuses_empty_and_misplaced_runs(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "empty").mkdir()
    with pytest.raises(ConfigError, match="no run directories in the study layout"):
        collect_rows(tmp_path / "empty")
    root = tmp_path / "misplaced"
    build_pair(toy_benchmark, root, with_dir=root / "fake" / "reflexion" / "toy-add" / "seed-0",
               without_dir=root / "none" / "reflexion" / "toy-add" / "seed-0")
    with pytest.raises(ConfigError, match="agent 'react', folder says 'reflexion'"):
        collect_rows(root)


def test_the_selector_table_shows_each_selectors_uses_and_skips(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from countermem.experiment._stages import StageReport

    root = build_study(toy_benchmark, tmp_path / "study")
    for seed, (used, skipped) in enumerate([(3, 1), (2, 2)]):
        stage = StageReport(stage="evaluate", benchmark="toy-add", n_tasks=6, store="s", store_sha256="x",
                            records_before=4, records_after=4, selector="dqn", selector_checkpoint_updates=200,
                            records_selected=used, records_skipped=skipped)
        (root / "fake" / "react" / "toy-add" / f"seed-{seed}" / "stage.json").write_text(stage.model_dump_json())
    md = write_study_report(tmp_path / "out", collect_rows(root, domains={"toy-add": "math"}))[0].read_text()
    assert "## Selector choices on held-out tasks (summed over seeds)" in md
    assert "| fake | react | toy-add | dqn | 8 | 5 | 3 | 0.38 | 200, 200 | 50.0 ± 0.0 (n=2) |" in md


def test_the_build_cost_table_says_when_a_cost_file_predates_a_measure(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    study = build_study(toy_benchmark, tmp_path / "study")
    old = '{"construct_tasks": 30, "construct_task_run_tokens": 9000, "records_admitted": 7}'
    (study / "fake" / "react" / "toy-add" / "seed-0" / "build_cost.json").write_text(old)
    (study / "fake" / "react" / "toy-add" / "seed-1" / "build_cost.json").write_text(
        old.replace("{", '{"construct_solved": 16, '))
    rows = collect_rows(study, domains={"toy-add": "math"})
    md = write_study_report(tmp_path / "out", rows)[0].read_text()
    assert "| fake | react | toy-add | 30 | not recorded | 7 |" in md  # never a 0 for a count not kept
    (study / "fake" / "react" / "toy-add" / "seed-0" / "build_cost.json").write_text(
        old.replace("{", '{"construct_solved": 12, '))
    md = write_study_report(tmp_path / "out2", collect_rows(study, domains={"toy-add": "math"}))[0].read_text()
    assert "| fake | react | toy-add | 30 | 14 | 7 |" in md
