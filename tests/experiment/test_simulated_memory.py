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


def _harmful_uses(with_memory: Path, without: Path) -> tuple[int, int]:
    """(uses, harmful uses): a use is harmful when the task ended worse than without memory."""
    import json

    def load(path: Path) -> dict[str, dict]:  # type: ignore[type-arg]
        rows = [json.loads(line) for line in (path / "results.jsonl").read_text().splitlines()]
        return {row["task_id"]: row for row in rows}

    used, base = load(with_memory), load(without)
    uses = sum(len(row["advice_record_ids"]) for row in used.values())
    harmful = sum(
        len(row["advice_record_ids"])
        for task_id, row in used.items()
        if row["final_utility"] < base[task_id]["final_utility"]
    )
    return uses, harmful


@pytest.mark.slow
def test_conditions_cut_harmful_use_on_lookalike_tasks(tmp_path: Path) -> None:
    """Records learned on one schema, offered on the same questions asked of another (look-alikes)."""
    bench = load_benchmark("sql-shop")
    tasks = bench.tasks()
    source = [t for t in tasks if t.environment == "shop_wholesale"]
    lookalikes = [t for t in tasks if t.environment == "shop_retail"]
    llm = simulated_llm_for(bench, tasks, universal_rate=0.3, seed=0)
    base = {"benchmark": "sql-shop", "backbone": "simulated", "model": "simulated"}
    settings = MemorySettings(store=tmp_path / "store.sqlite", embedder="lexical", selector="top1")
    built = construct_memory(RunConfig(split="construct", **base), settings, llm, bench, source,
                             RunDir(tmp_path / "construct"), simulated=True)
    assert built.report.construction_admitted >= 10
    heldout = RunConfig(split="heldout", **base)
    runs = {}
    for name, variant in (
        ("skip", settings.model_copy(update={"selector": "skip"})),
        ("conditions", settings),
        ("no-conditions", settings.model_copy(update={"use_conditions": False})),
    ):
        evaluate_memory(heldout, variant, llm, bench, lookalikes, RunDir(tmp_path / name), simulated=True)
        runs[name] = tmp_path / name
    uses_c, harm_c = _harmful_uses(runs["conditions"], runs["skip"])
    uses_n, harm_n = _harmful_uses(runs["no-conditions"], runs["skip"])
    assert uses_n > 0 and harm_n > 0
    rate_c = harm_c / uses_c if uses_c else 0.0
    assert harm_c < harm_n and rate_c + 0.1 <= harm_n / uses_n, (uses_c, harm_c, uses_n, harm_n)
