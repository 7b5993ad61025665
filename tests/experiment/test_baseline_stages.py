"""ReasoningBank's strategy items written by the model that writes countermem's records, when asked:
both memories then come from the same model while a smaller one is the agent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from countermem.baselines import StrategyBank
from countermem.baselines._distill import JUDGE_MARKER
from countermem.core import ConfigError
from countermem.domains import load_benchmark
from countermem.experiment import _study_jobs
from countermem.experiment._study_config import parse_study_config
from countermem.experiment._study_jobs import execute_job
from countermem.experiment._study_plan import construct_store, plan_study
from countermem.llm import Message, ScriptedLLM

ITEM = (
    "# Memory Item 1\n## Title Count what is asked\n## Description How many means one number.\n"
    "## Content When a question asks how many, select COUNT(*) instead of listing rows."
)


def _config(strategy_model: str, generator: bool = True) -> Any:
    data: dict[str, Any] = {
        "name": "t", "benchmarks": ["sql-shop"], "methods": ["none", "reasoningbank"], "seeds": [1],
        "backbones": {"b": {"kind": "local", "model": "qwen2.5-coder-0.5b"}},
        "split": {"construct": 2, "train": 1, "heldout": 1},
        "memory": {"embedder": "lexical", **({"generator": {"model": "qwen2.5-coder-1.5b"}} if generator else {})},
        "baselines": {"strategy_model": strategy_model},
    }
    return parse_study_config(data)


def _writer() -> ScriptedLLM:
    def reply(messages: list[Message]) -> str:
        return "Thoughts: no\nStatus: failure" if messages[0].content.startswith(JUDGE_MARKER) else ITEM
    return ScriptedLLM(reply, model="writer")


@pytest.mark.parametrize("strategy_model", ["agent", "generator"])
def test_the_strategy_items_are_written_by_the_chosen_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, strategy_model: str
) -> None:
    config = _config(strategy_model)
    bench = load_benchmark("sql-shop")
    plan = plan_study(config, {"sql-shop": bench}, {})
    job = next(j for j in plan.jobs if j.kind == "construct" and j.family == "strategy-judge")

    def agent_reply(messages: list[Message]) -> str:
        if messages[0].content.startswith(JUDGE_MARKER):
            return "Thoughts: no\nStatus: failure"
        if "Memory Item" in messages[0].content:
            return ITEM
        return "Thought: list them\nAction: submit\n```sql\nSELECT 1\n```"

    agent = ScriptedLLM(agent_reply, model="agent")
    writer = _writer()
    monkeypatch.setattr(_study_jobs, "build_llm", lambda ctx: agent)
    monkeypatch.setattr(_study_jobs, "build_generator_llm", lambda ctx: writer)
    execute_job(tmp_path, config, job)
    bank_path = tmp_path / construct_store(job.cell, "strategy-judge")

    agent_wrote_items = any("Memory Item" in m.content for call in agent.calls for m in call)
    writer_wrote_items = any("Memory Item" in m.content for call in writer.calls for m in call)
    if strategy_model == "generator":
        assert writer.calls and writer_wrote_items and not agent_wrote_items
    else:
        assert not writer.calls and agent_wrote_items
    assert len(agent.calls) >= 2, "the agent still solves the source tasks"
    bank = StrategyBank(bank_path, read_only=True)
    try:
        assert len(bank) >= (1 if strategy_model == "generator" else 0)
    finally:
        bank.close()


def test_strategy_model_generator_needs_a_generator_model() -> None:
    with pytest.raises(ConfigError, match=r"strategy_model = \"generator\" needs \[memory.generator\] model"):
        _config("generator", generator=False)
