"""Form repairs of a stated answer (math): a malformed answer that states its final answer with no
code block and no `Action:` line is repaired by checking that answer alone, and a later agent is
shown the repair applied to its own stated answer, not the source task's working."""

from __future__ import annotations

from pathlib import Path

from countermem.agents import AgentLimits, ReActAgent, parse_step
from countermem.core import (
    MALFORMED_BLOCK_FACT,
    MALFORMED_FACT,
    Action,
    Advice,
    CheckResult,
    Cost,
    Decision,
    Facts,
    Outcome,
    Task,
    facts_after,
    malformed_result,
)
from countermem.domains import State
from countermem.domains.math import GSM8K
from countermem.llm import ScriptedLLM
from countermem.memory import (
    ANSWER_FORM_REPAIR_RATIONALE,
    Admitter,
    AdvisorOptions,
    ConditionContext,
    CounterfactualLearner,
    CounterfactualMemory,
    GenerationRequest,
    Generator,
    GeneratorSettings,
    Retriever,
    SQLiteStore,
    form_repair_alternative,
    is_form_repair,
    make_embedder,
)
from countermem.memory._advisor import render_record
from countermem.selector import TopOne

SALVAGE = GSM8K().salvage
SOURCE = "Thought: 9 + 7 = 16.\nTherefore, Lily found \\(\\boxed{16}\\) insects."
TASK = Task(id="g1", benchmark="gsm8k", domain="math", prompt="How many insects did Lily find?", gold="16")


class GoldWorld:
    """Passes an action whose `Answer:` line is the task's gold."""

    def __init__(self) -> None:
        self.gold = ""

    def reset(self, task: Task) -> State:
        self.gold = task.gold or ""
        return State(task_id=task.id, payload=0)

    def snapshot(self) -> State:
        return State(task_id="t", payload=0)

    def restore(self, state: State) -> None:
        pass

    def check(self, action: Action) -> CheckResult:
        ok = action.content.strip() == f"Answer: {self.gold}"
        return CheckResult(utility=float(ok), passed=ok, completed=True, status="passed" if ok else "wrong",
                           cost=Cost(calls=1))


def facts_of(task: Task, action: Action | None) -> Facts:
    return Facts(values={"numbers_in_problem": 2})


def _request(answer: str, salvaged: str | None) -> GenerationRequest:
    return GenerationRequest(
        domain="math", benchmark="gsm8k", action_language="text", situation=TASK.prompt,
        failed_action=Action(content=answer), failed_result=malformed_result("no Action line"), salvaged=salvaged,
    )


def test_the_stated_answer_is_the_repair_and_says_so_in_its_rationale() -> None:
    repair = form_repair_alternative(_request(SOURCE, SALVAGE(SOURCE)))
    assert repair is not None and repair.form_repair
    assert repair.action.content == "Answer: 16" and repair.rationale == ANSWER_FORM_REPAIR_RATIONALE
    assert form_repair_alternative(_request(SOURCE, None)) is None, "nothing salvaged, no repair"
    copied = "Thought: 4 left.\n```text\n2 boxes of 6 eggs hold 2 * 6 = 12 eggs.\nAnswer: 12\n```"
    assert SALVAGE(copied) is None
    assert form_repair_alternative(_request(copied, SALVAGE(copied))) is None, "no fallback to the copied block"


def _learn(store: SQLiteStore, answer: str) -> CounterfactualLearner:
    learner = CounterfactualLearner(
        Generator(ScriptedLLM([]), settings=GeneratorSettings(greedy=False, samples=0)),  # no reply to give
        Admitter(store), GoldWorld, action_language="text",
        conditions=ConditionContext(facts_of=facts_of, salvage=SALVAGE),
    )
    failed = Action(content=answer)
    learner.advise(Decision(task=TASK, situation=TASK.prompt, step=1, last_action=failed,
                            last_result=malformed_result("x"), facts=facts_after(facts_of, TASK, failed,
                                                                                  malformed_result("x"), None, SALVAGE)))
    return learner


def test_construction_admits_it_as_a_form_repair_conditioned_on_the_slip(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "s.sqlite") as store:
        learner = _learn(store, SOURCE)
        (record,) = store.all()
    assert learner.stats.form_repairs_admitted == 1 and learner.stats.generator_calls == 0
    assert is_form_repair(record) and record.improved_action.content == "Answer: 16"
    assert str(record.condition) == f"{MALFORMED_FACT} and {MALFORMED_BLOCK_FACT}"
    assert not is_form_repair(record.revised(rationale="the model wrote this")), "a drawn answer is content"


def test_a_later_agent_sees_its_own_stated_answer_checked_not_the_source_working(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "s.sqlite") as store:
        _learn(store, SOURCE)
        (record,) = store.all()
        later = Action(content="Thought: 3 boxes of 4 is 12, minus 2.\nSo she has $\\boxed{10}$ left.")
        text = render_record(record, "text", last_action=later, salvaged=SALVAGE(later.content))
        assert "> So she has $\\boxed{10}$ left." in text and "16" not in text.split("\n", 1)[1]
        step = parse_step(text.split("\nand, corrected, is\n")[1])
        assert step.verb == "check" and step.action == Action(content="Answer: 10")
        memory = CounterfactualMemory(Retriever(store, make_embedder("lexical")), TopOne(),
                                      action_language="text", store=store, options=AdvisorOptions(answer_once=True))
        other = Task(id="g2", benchmark="gsm8k", domain="math", prompt="How many are left?", gold="10")
        facts = facts_after(facts_of, other, later, malformed_result("x"), None, SALVAGE)
        advice = memory.advise(Decision(task=other, situation=other.prompt, facts=facts, step=1, last_action=later,
                                        last_result=malformed_result("x"), salvaged=SALVAGE(later.content)))
        assert advice is not None and "Answer: 10" in advice.text
        assert not advice.holds_last_answer, "only its last line is shown, so the working stays in the history"
        nothing = Action(content="Thought: I am not sure yet.")
        facts = facts_after(facts_of, other, nothing, malformed_result("x"), None, SALVAGE)
        assert memory.advise(Decision(task=other, situation=other.prompt, facts=facts, step=2, last_action=nothing,
                                      last_result=malformed_result("x"))) is None, "no stated answer, no repair"
        from countermem.domains.math._base import EXAMPLE_ACTION

        copied = Action(content=f"Thought: 4 left.\n```text\n{EXAMPLE_ACTION}\n```")
        facts = facts_after(facts_of, other, copied, malformed_result("x"), None, SALVAGE)
        assert memory.advise(Decision(task=other, situation=other.prompt, facts=facts, step=3, last_action=copied,
                                      last_result=malformed_result("x"), salvaged=SALVAGE(copied.content))) is None, \
            "the copied example is no answer: the slip's facts name no salvage, so no repair is offered"


class Recorder:
    def __init__(self) -> None:
        self.decisions: list[Decision] = []

    def advise(self, decision: Decision) -> Advice | None:
        self.decisions.append(decision)
        return None

    def feedback(self, decision: Decision, advice: Advice | None, outcome: Outcome) -> None:
        pass


def test_the_agent_passes_its_benchmark_salvage_with_the_decision(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    class Stated(type(toy_benchmark)):  # type: ignore[misc]
        def salvage(self, answer: str) -> str | None:
            return answer.rsplit("is ", 1)[1].strip(". ") if "is " in answer else None

    bench = Stated()
    hook = Recorder()
    agent = ReActAgent(ScriptedLLM(["Thought: the sum is 3.", "Action: submit 3"]), bench, bench.world_model(),
                       memory=hook, limits=AgentLimits(max_steps=3, memory_after_malformed=True))
    agent.run(next(t for t in bench.tasks() if t.gold == "3"))
    after = [d for d in hook.decisions if d.last_action is not None]
    assert after and after[0].salvaged == "3"
    assert after[0].facts.get(MALFORMED_BLOCK_FACT) is True
