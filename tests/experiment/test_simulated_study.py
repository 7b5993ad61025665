"""The study on the SIMULATED backbone shows the directions the machinery must produce.

A test bed, not a result about LLMs (see countermem.experiment._simulation): the simulated model
gets sql-shop right on the retail schema only, follows every record it is shown, and its
generator proposes the gold repair (30% of the time with the careless condition `none`) and a
plausible wrong repair (first half of the time). Everything runs through `run_study`, as a user
would, on all of sql-shop's splits, pooled over split seeds 1-3.

The selector is always-top-1, so that harmful use measures what the records do, not what a
learned selector avoids. The margins below were measured when the test was written (pooled:
harmful use countermem 4/282, unverified 18/298, no-conditions 17/293; success countermem 53,
shuffled 34; retention at capacity 6: utility 41, random 33 of 141 tasks) and are set well
inside them, so a real regression fails and seed noise does not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from countermem.experiment import PairedMeasures, paired_measures
from countermem.experiment._study import run_study
from countermem.experiment._study_config import parse_study_config

SEEDS = (1, 2, 3)
METHODS = ["none", "countermem", "unverified", "no-conditions", "shuffled-retrieval",
           "retention-utility", "retention-random"]


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("simulated-study")
    config = parse_study_config({
        "name": "simulated-directions", "benchmarks": ["sql-shop"], "methods": METHODS, "seeds": list(SEEDS),
        "backbones": {"sim": {"kind": "simulated"}},
        "split": {"construct": None, "train": None, "heldout": None, "by_environment": False},
        "memory": {"embedder": "lexical", "selector": "top1", "construct_advice": "top1"},
        "baselines": {"retention_capacity": 6},
        "simulation": {"universal_rate": 0.3, "wrong_first_rate": 0.5},
    })
    outcome = run_study(config, root, write_report=False)
    assert outcome.ok, outcome.failed
    return root


def _pooled(root: Path, method: str) -> list[PairedMeasures]:
    leaf = root / "results" / "sim"
    return [
        paired_measures(leaf / method / "react" / "sql-shop" / f"seed-{s}", leaf / "none" / "react" / "sql-shop" / f"seed-{s}")
        for s in SEEDS
    ]


def _harm(root: Path, method: str) -> float:
    measures = _pooled(root, method)
    uses = sum(m.selected_uses for m in measures)
    assert uses > 100, f"{method}: too few record uses ({uses}) to compare harm"
    assert all(m.simulated for m in measures)
    return sum(m.harmful_uses for m in measures) / uses


def _solved(root: Path, method: str) -> int:
    return sum(m.solved_with for m in _pooled(root, method))


@pytest.mark.slow
def test_verification_lowers_harmful_use(study: Path) -> None:
    assert _harm(study, "countermem") + 0.02 < _harm(study, "unverified")


@pytest.mark.slow
def test_conditions_lower_harmful_use(study: Path) -> None:
    assert _harm(study, "countermem") + 0.02 < _harm(study, "no-conditions")


@pytest.mark.slow
def test_shuffled_retrieval_is_worse_than_matched(study: Path) -> None:
    assert _solved(study, "shuffled-retrieval") + 8 <= _solved(study, "countermem")


@pytest.mark.slow
def test_utility_retention_is_not_worse_than_random(study: Path) -> None:
    assert _solved(study, "retention-utility") >= _solved(study, "retention-random")
