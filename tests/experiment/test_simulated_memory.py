"""The memory machinery learns what it should, on the SIMULATED backbone (a test bed, not an LLM).

The simulated model assumes the retail schema of sql-shop: right on retail tasks, wrong with a
recurring pattern on the other schemas. Construction admits verified corrections (some with
universal conditions, which harm retail tasks); the DQN is trained on the training split; on
held-out tasks it must beat always-skip and always-top-1, pooled over three split seeds.
"""

from pathlib import Path

import pytest

from countermem.domains import load_benchmark
from countermem.experiment import RunConfig, RunDir, select_tasks, simulated_llm_for
from countermem.experiment._stages import MemorySettings, construct_memory, evaluate_memory, train_selector
from countermem.selector import DQNConfig

SEEDS = (1, 2, 3)
MARGIN_TASKS = 3


def _study(root: Path, split_seed: int) -> dict[str, int]:
    bench = load_benchmark("sql-shop")
    llm = simulated_llm_for(bench, bench.tasks(), universal_rate=0.3, seed=0)
    base = {"benchmark": "sql-shop", "backbone": "simulated", "model": "simulated",
            "split_by_environment": False, "split_seed": split_seed}
    settings = MemorySettings(
        store=root / "store.sqlite", embedder="lexical", checkpoint=root / "dqn.pt",
        dqn=DQNConfig(seed=0, epsilon_decay_steps=300, learning_starts=16),
    )
    construct = RunConfig(split="construct", **base)
    built = construct_memory(construct, settings, llm, bench, select_tasks(bench, construct),
                             RunDir(root / "construct"), simulated=True)
    assert built.report.construction_admitted > 10
    log = (root / "construct" / "admissions.jsonl").read_text().splitlines()
    assert len(log) == built.report.construction_failures_seen
    assert built.metrics.simulated
    train = RunConfig(split="train", **base)
    train_selector(train, settings, llm, bench, select_tasks(bench, train), RunDir(root / "train"),
                   simulated=True, epochs=12)
    heldout = RunConfig(split="heldout", **base)
    tasks = select_tasks(bench, heldout)
    solved: dict[str, int] = {}
    for kind in ("skip", "top1", "dqn"):
        result = evaluate_memory(heldout, settings.model_copy(update={"selector": kind}), llm, bench, tasks,
                                 RunDir(root / f"eval-{kind}"), simulated=True)
        solved[kind] = result.metrics.n_solved
        augmentation = result.metrics.task_run_tokens.augmentation
        assert (augmentation > 0) == (kind != "skip"), (kind, augmentation)
        assert result.report.retrieval_coverage is not None and result.report.retrieval_coverage > 0
        assert "SIMULATED" in (root / f"eval-{kind}" / "report.md").read_text()
    return solved


@pytest.mark.slow
def test_dqn_beats_skip_and_top1_on_heldout_lookalikes(tmp_path: Path) -> None:
    totals = {"skip": 0, "top1": 0, "dqn": 0}
    for seed in SEEDS:
        for kind, value in _study(tmp_path / f"seed{seed}", seed).items():
            totals[kind] += value
    assert totals["dqn"] >= totals["skip"] + MARGIN_TASKS, totals
    assert totals["dqn"] >= totals["top1"] + MARGIN_TASKS, totals
