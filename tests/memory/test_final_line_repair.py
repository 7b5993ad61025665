"""Form repairs of a checked action (math): working the judge refused for want of a final answer
line is repaired by adding one (`Benchmark.form_fix`), with no generator call, and a later agent is
shown that edit applied to its own working, not the source task's."""

from __future__ import annotations

from pathlib import Path

from test_answer_form_repair import Recorder

from countermem.agents import AgentLimits, ReActAgent, parse_step
from countermem.core import Action, CheckResult, Decision, Task, facts_after
from countermem.domains.math import GSM8K
from countermem.llm import ScriptedLLM
from countermem.memory import (
    FINAL_LINE_REPAIR_RATIONALE,
    Admitter,
    ConditionContext,
    CounterfactualLearner,
    CounterfactualMemory,
    Generator,
    GeneratorSettings,
    Retriever,
    SQLiteStore,
    is_final_line_repair,
    is_form_repair,
    make_embedder,
)
from countermem.memory._advisor import render_record
from countermem.selector import TopOne

BENCH = GSM8K()
SOURCE = Task(id="g-off", benchmark="gsm8k", domain="math", prompt="What is 140 with 5% off?", gold="133")
LATER = Task(id="g-left", benchmark="gsm8k", domain="math", prompt="3 boxes of 4 eggs, 2 eaten: how many left?",
             gold="10")
WORKING = "140 * 0.05 = 7\n140 - 7 = 133"
LATER_WORKING = "3 * 4 = 12\n12 - 2 = 10"


def _check(task: Task, content: str) -> CheckResult:
    world = BENCH.world_model()
    world.reset(task)
    return world.check(Action(content=content))


def _decision(task: Task, content: str, salvaged: str | None = None) -> Decision:
    action, result = Action(content=content), _check(task, content)
    facts = facts_after(BENCH.facts, task, action, result, BENCH.error_kind, BENCH.salvage)
    return Decision(task=task, situation=task.prompt, facts=facts, step=1, last_action=action, last_result=result,
                    salvaged=salvaged)


def _learn(store: SQLiteStore) -> CounterfactualLearner:
    learner = CounterfactualLearner(
        Generator(ScriptedLLM([]), settings=GeneratorSettings(greedy=False, samples=0)),  # no reply to give
        Admitter(store), BENCH.world_model, action_language="text",
        conditions=ConditionContext(facts_of=BENCH.facts, salvage=BENCH.salvage, form_fix=BENCH.form_fix),
    )
    learner.advise(_decision(SOURCE, WORKING))
    return learner


def test_construction_admits_the_added_line_as_a_form_repair_with_no_generator_call(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "s.sqlite") as store:
        learner = _learn(store)
        (record,) = store.all()
    assert learner.stats.generator_calls == 0 and learner.stats.form_repairs_admitted == 1
    assert record.improved_action.content == f"{WORKING}\nAnswer: 133" and record.improved_check.passed
    assert record.rationale == FINAL_LINE_REPAIR_RATIONALE and is_final_line_repair(record) and is_form_repair(record)
    assert "has_final_answer" in str(record.condition) and "has_percent" not in str(record.condition), \
        "conditioned on the slip alone, whatever the problem"
    assert not is_form_repair(record.revised(rationale="the model wrote this")), "a drawn answer is content"


def test_a_later_agent_sees_its_own_working_with_the_line_added(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "s.sqlite") as store:
        _learn(store)
        (record,) = store.all()
        decision = _decision(LATER, LATER_WORKING, salvaged=BENCH.form_fix(LATER_WORKING, _check(LATER, LATER_WORKING)))
        text = render_record(record, "text", last_action=decision.last_action, salvaged=decision.salvaged)
        assert "> 12 - 2 = 10" in text and "133" not in text and "140" not in text
        step = parse_step(text.split("\nand, corrected, is\n")[1])
        assert step.verb == "check" and step.action == Action(content="12 - 2 = 10\nAnswer: 10")
        assert _check(LATER, step.action.content).passed
        memory = CounterfactualMemory(Retriever(store, make_embedder("lexical")), TopOne(),
                                      action_language="text", store=store)
        advice = memory.advise(decision)
        assert advice is not None and "Answer: 10" in advice.text and "Answer: 133" not in advice.text
        wrong = f"{LATER_WORKING}\nAnswer: 11"
        assert memory.advise(_decision(LATER, wrong)) is None, "a wrong final answer is content: no form repair holds"


def test_the_agent_passes_its_benchmark_form_fix_with_the_decision_after_a_failed_check() -> None:
    reply = f"Thought: 5% of 140 is 7.\nAction: check\n```text\n{WORKING}\n```"
    hook = Recorder()
    agent = ReActAgent(ScriptedLLM([reply, reply]), BENCH, BENCH.world_model(), memory=hook,
                       limits=AgentLimits(max_steps=2))
    agent.run(SOURCE)
    after = [d for d in hook.decisions if d.last_action is not None]
    assert after and after[0].salvaged == f"{WORKING}\nAnswer: 133"
    assert after[0].facts.get("has_final_answer") is False
