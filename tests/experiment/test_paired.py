"""Paired measures on real runs of the toy benchmark: a scripted model that reacts to advice and a
fake memory hook that offers records on chosen tasks, so every paired measure has a known value.

Roles of the six tasks (in run order):
0 rescued: plain submits a wrong sum; advised (record r1) submits the right one.
1 broken: plain solves; advised (r2) submits a wrong sum.
2 neutral: advised (r1) and plain both submit the right sum (no change).
3 skipped offer: the hook offers but skips (record_id None), so the prompt is unchanged.
4 no offer: the hook returns None; plain submits a wrong sum.
5 two uses, harmful: plain checks a wrong sum, then submits the right one; advised (r3 at step 0
  and again after its failed check) checks gold+2, then submits gold+1.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from countermem.agents import Advice, Decision, Outcome
from countermem.core import ConfigError, Task
from countermem.domains import Benchmark
from countermem.experiment import (
    PairedMeasures,
    RunConfig,
    RunDir,
    StageReport,
    paired_measures,
    run_tasks,
    select_tasks,
    spread,
)
from countermem.experiment._paired import pooled_reach
from countermem.llm import Message, ScriptedLLM

MARK = "ADVICE-RECORD"


def make_config(**kw: object) -> RunConfig:
    base: dict[str, object] = {"benchmark": "toy-add", "backbone": "scripted", "model": "paired-script", "limit": 6}
    base.update(kw)
    return RunConfig.model_validate(base)


class FakeMemory:
    """Offers fixed records on chosen tasks; `plan` maps task id -> record id per advice call."""

    def __init__(self, plan: dict[str, list[str | None]]) -> None:
        self.plan = {k: list(v) for k, v in plan.items()}

    def advise(self, decision: Decision) -> Advice | None:
        queue = self.plan.get(decision.task.id)
        if not queue:
            return None
        record = queue.pop(0)
        if record is None:
            return Advice(text="", record_id=None, candidates=2, eligible=1)
        return Advice(text=f"{MARK} {record}: mind the sum", record_id=record, candidates=2, eligible=1)

    def feedback(self, decision: Decision, advice: Advice | None, outcome: Outcome) -> None:
        return None


def scripted_model(tasks: list[Task]) -> ScriptedLLM:
    roles = {t.id: i for i, t in enumerate(tasks)}
    gold = {t.id: int(t.gold or 0) for t in tasks}

    def reply(messages: list[Message]) -> str:
        user = next(m.content for m in messages if m.role == "user")
        task_id = user.split(":")[0].removeprefix("Task ").strip()
        role, answer = roles[task_id], gold[task_id]
        advised = any(MARK in m.content for m in messages)
        turns = sum(1 for m in messages if m.role == "assistant")
        if role == 0:
            return f"Action: submit {answer if advised else answer + 1}"
        if role == 1:
            return f"Action: submit {answer + 1 if advised else answer}"
        if role == 4:
            return f"Action: submit {answer + 1}"
        if role == 5:
            if advised:
                return f"Action: check {answer + 2}" if turns == 0 else f"Action: submit {answer + 1}"
            return f"Action: check {answer + 1}" if turns == 0 else f"Action: submit {answer}"
        return f"Action: submit {answer}"

    return ScriptedLLM(reply)


def memory_plan(tasks: list[Task]) -> dict[str, list[str | None]]:
    return {tasks[0].id: ["r1"], tasks[1].id: ["r2"], tasks[2].id: ["r1"], tasks[3].id: [None],
            tasks[5].id: ["r3", "r3"]}


def build_pair(
    benchmark: Benchmark, root: Path, *, seed: int = 0, simulated: bool = False,
    with_dir: Path | None = None, without_dir: Path | None = None, **without_kw: object,
) -> tuple[Path, Path]:
    """A memory run and its no-memory twin of the six-role scenario (default root/memory, root/none)."""
    with_dir = with_dir or root / "memory"
    without_dir = without_dir or root / "none"
    with_config = make_config(seed=seed, stage="evaluate", memory={"selector": "fake", "k": 3})
    tasks = select_tasks(benchmark, with_config)
    run_tasks(with_config, scripted_model(tasks), benchmark, tasks, RunDir(with_dir),
              memory=FakeMemory(memory_plan(tasks)), simulated=simulated)
    plain_config = make_config(seed=seed, **without_kw)
    plain_tasks = tasks[: plain_config.limit] if plain_config.limit is not None else tasks
    run_tasks(plain_config, scripted_model(tasks), benchmark, plain_tasks, RunDir(without_dir),
              simulated=simulated)
    return with_dir, without_dir


def test_paired_measures_have_the_scenario_values(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with_dir, without_dir = build_pair(toy_benchmark, tmp_path)
    tasks = select_tasks(toy_benchmark, make_config())
    m = paired_measures(with_dir, RunDir(without_dir))
    assert isinstance(m, PairedMeasures)
    assert m.n_paired == 6 and m.benchmark == "toy-add" and not m.simulated
    assert (m.solved_with, m.solved_without) == (3, 4)
    assert m.success_delta == pytest.approx(50.0 - 400 / 6)
    assert (m.rescued, m.broken) == (1, 2)
    assert m.rescued_tasks == [tasks[0].id]
    assert m.broken_tasks == sorted([tasks[1].id, tasks[5].id])
    assert (m.selected_uses, m.harmful_uses) == (5, 3) and m.harmful_use == pytest.approx(0.6)
    assert (m.offers, m.selected_offers, m.uncomparable_offers) == (6, 5, 0)
    assert (m.changed_actions, m.harmful_changes) == (4, 2)
    assert m.action_change_rate == pytest.approx(4 / 6) and m.harmful_change_rate == pytest.approx(2 / 6)
    assert m.retrieval_coverage is None and m.retrieval_attempts is None
    # plain fails tasks 0 and 4; records are used on 0 (rescued) and on 1, 2, 5 (plain solved them; 2 stays solved)
    assert (m.reached_failures, m.reached_failures_solved) == (1, 1)
    assert (m.reached_successes, m.reached_successes_solved) == (3, 1)
    reach = pooled_reach([m, m])
    assert (reach.failed, reach.failures_reached, reach.failures_solved) == (4, 2, 2)
    assert (reach.solved, reach.successes_reached, reach.successes_kept) == (8, 6, 2)
    assert reach.describe() == ("2 of 4 (2)", "6 of 8 (2)")
    assert m.evaluator_calls_per_solved_with == pytest.approx(1 / 3)
    assert m.evaluator_calls_per_solved_without == pytest.approx(1 / 4)
    assert m.failed_attempts_per_solved_with == pytest.approx(4 / 3)
    assert m.failed_attempts_per_solved_without == pytest.approx(3 / 4)
    with_metrics = json.loads((with_dir / "metrics.json").read_text())["task_run_tokens"]
    without_metrics = json.loads((without_dir / "metrics.json").read_text())["task_run_tokens"]
    assert m.tokens_with.model_dump() == with_metrics and m.tokens_without.model_dump() == without_metrics
    assert m.tokens_with.augmentation > 0 and m.tokens_without.augmentation == 0
    assert m.token_delta == with_metrics["total"] - without_metrics["total"]


def test_coverage_comes_from_stage_json(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with_dir, without_dir = build_pair(toy_benchmark, tmp_path)
    RunDir(with_dir).write_json("stage.json", StageReport(
        stage="evaluate", benchmark="toy-add", n_tasks=6, store="s.sqlite", store_sha256="0" * 64,
        records_before=3, records_after=3, retrieval_attempts=8, retrieval_coverage=0.75,
    ))
    m = paired_measures(with_dir, without_dir)
    assert (m.retrieval_attempts, m.retrieval_coverage) == (8, 0.75)


def test_refuses_runs_that_are_not_twins(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with_dir, without_dir = build_pair(toy_benchmark, tmp_path / "a", max_steps=4)
    with pytest.raises(ConfigError, match="max_steps: 5 vs 4"):
        paired_measures(with_dir, without_dir)
    with_dir, without_dir = build_pair(toy_benchmark, tmp_path / "b", seed=1)
    other_seed = build_pair(toy_benchmark, tmp_path / "c", seed=2)[1]
    with pytest.raises(ConfigError, match="seed: 1 vs 2"):
        paired_measures(with_dir, other_seed)


def test_refuses_different_task_sets_and_names_them(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    config = make_config()
    tasks = select_tasks(toy_benchmark, config)
    with_dir, _ = build_pair(toy_benchmark, tmp_path)
    run_tasks(config, scripted_model(tasks), toy_benchmark, tasks[:5], RunDir(tmp_path / "short"))
    with pytest.raises(ConfigError, match=f"only in the memory run: {tasks[5].id}"):
        paired_measures(with_dir, tmp_path / "short")


def test_refuses_swapped_arguments_and_unfinished_runs(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with_dir, without_dir = build_pair(toy_benchmark, tmp_path)
    with pytest.raises(ConfigError, match="used memory records"):
        paired_measures(without_dir, with_dir)
    (without_dir / "metrics.json").unlink()
    with pytest.raises(ConfigError, match="did not finish"):
        paired_measures(with_dir, without_dir)
    with pytest.raises(ConfigError, match=r"no manifest\.json"):
        paired_measures(with_dir, tmp_path / "nowhere")


def test_spread() -> None:
    s = spread([1.0, 2.0, 3.0])
    assert (s.mean, s.std, s.n) == (2.0, 1.0, 3)
    single = spread([4.0])
    assert (single.mean, single.std, single.n) == (4.0, None, 1)
    with pytest.raises(ValueError):
        spread([])
