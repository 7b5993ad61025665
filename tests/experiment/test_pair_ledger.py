"""Kept pairs: a study's paired runs written as small entries that pool like the run folders do."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_paired import build_pair

from countermem.core import ConfigError
from countermem.experiment._pair_ledger import (
    PairEntry,
    check_independent,
    entry_from_runs,
    keep_entry,
    match_versus,
    pool_entries,
    pool_versus,
    read_entry,
)
from countermem.experiment._paired import paired_measures
from countermem.experiment._self_repair import pool_pairs

ROOT = Path(__file__).resolve().parents[2]


def make_study(root: Path, toy_benchmark, *, seed: int = 1, name: str = "toy-study") -> tuple[Path, Path, Path]:  # type: ignore[no-untyped-def]
    """A study folder holding one countermem run and its none twin of the paired six-role scenario."""
    cell = Path("react") / "toy-add" / f"seed-{seed}"
    run = root / "results" / "scripted" / "countermem" / cell
    twin = root / "results" / "scripted" / "none" / cell
    run.parent.mkdir(parents=True)
    twin.parent.mkdir(parents=True)
    build_pair(toy_benchmark, root, with_dir=run, without_dir=twin)
    manifest = {"kind": "study", "name": name, "config_sha256": "abc", "git_commit": "c1",
                "versions": {"countermem": "0"}, "resumed": [{"git_commit": "c2"}]}
    (root / "manifest.json").write_text(json.dumps(manifest))
    return root, twin, run


def test_an_entry_keeps_the_pair_and_pools_as_its_run_folders(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    study, twin, run = make_study(tmp_path / "study", toy_benchmark)
    entry = entry_from_runs(study, twin, run, condition="heldout")
    assert (entry.study, entry.backbone, entry.agent, entry.benchmark, entry.seed, entry.method) == (
        "toy-study", "scripted", "react", "toy-add", 1, "countermem")
    assert entry.git_commits == ["c1", "c2"] and entry.measures == paired_measures(run, twin)
    assert pool_entries([entry]) == pool_pairs([(twin, run)])
    assert (pool_entries([entry]).test.rescued, pool_entries([entry]).test.broken) == (1, 2)

    path, status = keep_entry(entry, tmp_path / "kept")
    assert status == "new" and path.name == "toy-study--heldout--scripted--react--toy-add--seed-1--countermem-vs-none.json"
    assert read_entry(path) == entry
    assert keep_entry(entry.model_copy(update={"kept_at": "later"}), tmp_path / "kept")[1] == "unchanged"
    solved_all = [o.model_copy(update={"solved": True}) for o in entry.memory]
    assert keep_entry(entry.model_copy(update={"memory": solved_all}), tmp_path / "kept")[1] == "replaced"


def test_entries_of_one_seed_that_share_tasks_are_refused_and_seeds_pool(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    entry = entry_from_runs(*make_study(tmp_path / "s1", toy_benchmark), condition="heldout")
    replayed = entry.model_copy(update={"study": "another-study"})
    with pytest.raises(ConfigError, match="would count each twice"):
        check_independent([entry, replayed])
    seed2 = entry_from_runs(*make_study(tmp_path / "s2", toy_benchmark, seed=2), condition="heldout")
    pooled = pool_entries([entry, seed2])
    assert pooled.tasks == 12 and (pooled.test.rescued, pooled.test.broken) == (2, 4)
    other_tasks = entry.model_copy(update={
        "baseline": [o.model_copy(update={"task_id": o.task_id + "-x"}) for o in entry.baseline],
        "memory": [o.model_copy(update={"task_id": o.task_id + "-x"}) for o in entry.memory],
    })
    assert pool_entries([entry, other_tasks]).tasks == 12  # the same seed, other tasks: independent pairs


def test_a_file_that_is_not_a_kept_pair_is_refused_with_what_to_do(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"version": 1, "study": "x"}))
    with pytest.raises(ConfigError, match=r"is not a kept pair.*--keep"):
        read_entry(bad)
    with pytest.raises(ConfigError, match="cannot be read"):
        read_entry(tmp_path / "missing.json")


def _pooled_lines(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "pooled_pairs.py"), *args],
                          capture_output=True, text=True, check=True)
    return [line for line in done.stdout.splitlines() if line.startswith(("pooled over", "rescued", "reach"))]


def test_the_script_keeps_pairs_and_pools_the_kept_ones_as_the_study(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    study = make_study(tmp_path / "study", toy_benchmark)[0]
    kept = tmp_path / "kept"
    from_study = _pooled_lines(str(study), "--method", "countermem", "--keep", str(kept))
    assert from_study[0].startswith("pooled over 1 pair(s), 6 tasks") and "rescued 1 / broken 2" in from_study[1]
    assert len(list(kept.glob("*.json"))) == 1
    assert _pooled_lines(str(kept), "--method", "countermem") == from_study
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "pooled_pairs.py"), str(study), str(kept),
                           "--method", "countermem"], capture_output=True, text=True)
    assert done.returncode != 0 and "would count each twice" in done.stderr
    assert PairEntry.model_validate_json(next(kept.glob("*.json")).read_bytes()).method == "countermem"


def test_two_studies_that_replay_one_none_run_pair_their_memory_arms(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    entry = entry_from_runs(*make_study(tmp_path / "s1", toy_benchmark), condition="heldout")
    solved = {o.task_id: o.solved for o in entry.memory}
    flipped = [o.model_copy(update={"solved": not o.solved}) for o in entry.memory]
    more = entry.model_copy(update={"study": "more-sources", "memory": flipped})
    (pair,) = match_versus([more], [entry])
    assert pair == (entry, more)
    versus = pool_versus([pair])
    assert versus.tasks == len(solved)
    assert versus.test.rescued == sum(not s for s in solved.values())
    assert versus.test.broken == sum(solved.values())
    other_seed = entry.model_copy(update={"seed": 2})
    with pytest.raises(ConfigError, match="no kept pair has a counterpart"):
        match_versus([more], [other_seed])
    another_none = [o.model_copy(update={"solved": not o.solved}) for o in entry.baseline]
    with pytest.raises(ConfigError, match="not the same run"):
        match_versus([more], [entry.model_copy(update={"baseline": another_none})])
    with pytest.raises(ConfigError, match="compared with itself"):
        match_versus([entry], [entry])
    kept = tmp_path / "kept"
    keep_entry(entry, kept)
    more_path, _ = keep_entry(more, tmp_path / "more")
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "pooled_pairs.py"), str(more_path),
                           "--method", "countermem", "--versus", str(kept)], capture_output=True, text=True, check=True)
    row = next(line for line in done.stdout.splitlines() if line.startswith("toy-study -> more-sources"))
    assert f"| {versus.test.rescued} / {versus.test.broken} |" in row


def _table(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "pairs_table.py"), *args],
                          capture_output=True, text=True)


def test_the_table_prints_each_kept_pair_as_one_row_and_pools_nothing_by_name(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    kept = tmp_path / "kept"
    seed1 = entry_from_runs(*make_study(tmp_path / "s1", toy_benchmark), condition="heldout")
    seed2 = entry_from_runs(*make_study(tmp_path / "s2", toy_benchmark, seed=2, name="toy-seed2"), condition="heldout")
    for entry in (seed1, seed2):
        keep_entry(entry, kept)
    done = _table(str(kept))
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| heldout")]
    assert len(rows) == 2
    assert "| 1 | toy-study | countermem vs none | 6 | 66.7 (4/6) | 50.0 (3/6) | 1 / 2 |" in rows[0]
    assert "| 2 | toy-seed2 | countermem vs none | 6 |" in rows[1]
    assert "pooled_pairs.py" in done.stderr
    assert _table(str(kept), "--benchmark", "nothing-here").returncode != 0
    missing = _table(str(tmp_path / "absent"))
    assert missing.returncode != 0 and "does not exist" in missing.stderr
