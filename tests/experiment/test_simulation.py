"""The simulated backbone on sql-shop, judged by the real SQL world model and run by the real ReAct agent.

Everything here is a SIMULATED test bed for the memory machinery, not a result about LLMs.
"""

from __future__ import annotations

import pytest

from countermem.agents import Advice, Decision, Outcome, ReActAgent
from countermem.core import (
    Action,
    CheckResult,
    ConfigError,
    LLMError,
    Task,
    parse_record_texts,
    render_record_text,
)
from countermem.domains.sql import ShopBenchmark
from countermem.experiment import (
    Simulation,
    TaskIndex,
    derive_condition,
    is_generator_prompt,
    simulated_llm_for,
)
from countermem.llm import Message, apply_record
from countermem.memory import ApplicabilityCondition
from countermem.memory._generator import GenerationRequest, Generator, GeneratorSettings


@pytest.fixture(scope="module")
def shop() -> ShopBenchmark:
    bench = ShopBenchmark()
    if not bench.availability().available:
        pytest.skip(bench.availability().reason)
    return bench


@pytest.fixture(scope="module")
def simulation(shop: ShopBenchmark) -> Simulation:
    return Simulation(shop, shop.tasks(), universal_rate=0.0, seed=0)


def _task(shop: ShopBenchmark, variant: str, question: str) -> Task:
    return next(t for t in shop.tasks() if t.id == f"sql-shop-{variant}-{question}")


def _check(shop: ShopBenchmark, task: Task, sql: str) -> CheckResult:
    world = shop.world_model()
    world.reset(task)
    return world.check(Action(content=sql))


def _learned_record(shop: ShopBenchmark, source: Task, record_id: str = "w-q01") -> str:
    """A record as construction would store it: the naive action of `source` and its gold correction."""
    return render_record_text(
        record_id, '"clients" in tables', shop.naive_action(source).content, shop.gold_action(source).content,
        "sql", "this schema names customers clients", 0.0, 1.0,
    )


class OneRecordMemory:
    """A stand-in memory hook that offers one rendered record at the chosen steps."""

    def __init__(self, text: str, steps: tuple[int, ...] = (0,)) -> None:
        self.text, self.steps = text, steps
        self.feedback_calls: list[Outcome] = []

    def advise(self, decision: Decision) -> Advice | None:
        if decision.step not in self.steps:
            return None
        return Advice(text=self.text, record_id="w-q01", candidates=1, eligible=1)

    def feedback(self, decision: Decision, advice: Advice | None, outcome: Outcome) -> None:
        self.feedback_calls.append(outcome)


def test_naive_action_is_retail_gold_right_on_retail_wrong_on_wholesale(shop: ShopBenchmark) -> None:
    retail, wholesale = _task(shop, "retail", "q14"), _task(shop, "wholesale", "q14")
    assert shop.naive_action(wholesale) == shop.naive_action(retail) == shop.gold_action(retail)
    assert _check(shop, retail, shop.naive_action(retail).content).passed
    assert not _check(shop, wholesale, shop.naive_action(wholesale).content).passed
    with pytest.raises(ConfigError, match="not asked on the retail variant"):
        shop.naive_action(_task(shop, "marketplace", "q24"))


def test_a_record_from_another_wholesale_question_fixes_and_harms(shop: ShopBenchmark) -> None:
    """Learned on wholesale q01 (customers -> clients), it transfers to wholesale q14, breaks retail q14."""
    (record,) = parse_record_texts(_learned_record(shop, _task(shop, "wholesale", "q01")))
    wholesale, retail = _task(shop, "wholesale", "q14"), _task(shop, "retail", "q14")
    fixed = apply_record(shop.naive_action(wholesale).content, record)
    assert "clients" in fixed and _check(shop, wholesale, fixed).passed
    broken = apply_record(shop.naive_action(retail).content, record)
    result = _check(shop, retail, broken)
    assert not result.passed and result.status == "error"


def test_agent_succeeds_with_a_fitting_record_and_fails_with_a_mismatched_one(shop: ShopBenchmark) -> None:
    llm = simulated_llm_for(shop, shop.tasks())
    record = _learned_record(shop, _task(shop, "wholesale", "q01"))
    wholesale, retail = _task(shop, "wholesale", "q14"), _task(shop, "retail", "q14")

    def run(task: Task, memory: OneRecordMemory | None) -> bool:
        return ReActAgent(llm, shop, shop.world_model(), memory=memory).run(task).solved

    assert not run(wholesale, None) and run(retail, None)
    fitting = OneRecordMemory(record)
    assert run(wholesale, fitting) and fitting.feedback_calls[0].solved
    mismatched = OneRecordMemory(record)
    assert not run(retail, mismatched) and not mismatched.feedback_calls[0].solved


def test_advice_after_a_failed_check_leads_to_a_second_check(shop: ShopBenchmark) -> None:
    llm = simulated_llm_for(shop, shop.tasks())
    memory = OneRecordMemory(_learned_record(shop, _task(shop, "wholesale", "q01")), steps=(1,))
    outcome = ReActAgent(llm, shop, shop.world_model(), memory=memory).run(_task(shop, "wholesale", "q14"))
    assert outcome.solved and outcome.evaluator_calls == 2 and outcome.steps == 3
    assert outcome.advice_record_ids == ["w-q01"]


def test_no_memory_success_is_the_share_the_naive_actions_pass(shop: ShopBenchmark) -> None:
    """Figures: 32 of 119 sql-shop tasks solved without memory (24 retail + 8 where retail's query fits)."""
    tasks = shop.tasks()
    llm = simulated_llm_for(shop, tasks)
    agent = ReActAgent(llm, shop, shop.world_model())
    solved: set[str] = set()
    errors: list[str] = []
    for task in tasks:
        try:
            if agent.run(task).solved:
                solved.add(task.id)
        except LLMError:
            errors.append(task.id)
    assert errors == ["sql-shop-marketplace-q24"]
    expected = {
        t.id for t in tasks if t.id not in errors and _check(shop, t, shop.naive_action(t).content).passed
    }
    retail = {t.id for t in tasks if t.metadata["variant"] == "retail"}
    assert solved == expected and retail <= solved
    assert (len(tasks), len(retail), len(solved)) == (119, 24, 32)


def test_generator_policy_through_the_real_generator(shop: ShopBenchmark, simulation: Simulation) -> None:
    task, retail = _task(shop, "wholesale", "q01"), _task(shop, "retail", "q01")
    failed = shop.naive_action(task)
    request = GenerationRequest(
        domain=shop.domain, benchmark=shop.name, action_language=shop.action_language,
        situation=shop.render_task(task), failed_action=failed, failed_result=_check(shop, task, failed.content),
        facts=shop.facts(task, failed),
    )
    proposal = Generator(simulation.llm(), settings=GeneratorSettings.batch()).propose(request)
    assert proposal.problems == []
    gold, distractor = sorted(proposal.alternatives, key=lambda a: a.action != shop.gold_action(task))
    assert gold.action == shop.gold_action(task) and gold.condition_text == '"clients" in tables'
    condition = ApplicabilityCondition.from_text(gold.condition_text)
    assert condition.applies(shop.facts(task)) and not condition.applies(shop.facts(retail))
    assert distractor.condition_text == "none" and distractor.action not in (failed, gold.action)
    assert not _check(shop, task, distractor.action.content).passed
    assert proposal.usage.completion_tokens > 0


def test_universal_rate_and_seed(shop: ShopBenchmark) -> None:
    tasks = [
        t for t in shop.tasks()
        if t.metadata["variant"] == "wholesale" and shop.naive_action(t) != shop.gold_action(t)
    ]

    def conditions(rate: float, seed: int) -> list[str | None]:
        llm = simulated_llm_for(shop, shop.tasks(), universal_rate=rate, seed=seed)
        found = []
        for task in tasks:
            failed = shop.naive_action(task)
            request = GenerationRequest(
                domain=shop.domain, benchmark=shop.name, action_language=shop.action_language,
                situation=shop.render_task(task), failed_action=failed,
                failed_result=CheckResult(utility=0.0, passed=False, completed=True, status="wrong"),
                facts=shop.facts(task, failed), max_alternatives=1,
            )
            (alternative,) = Generator(llm, settings=GeneratorSettings.batch()).propose(request).alternatives
            found.append(alternative.condition_text)
        return found

    never, always = conditions(0.0, 0), conditions(1.0, 0)
    assert always == ["none"] * len(tasks)
    assert never.count("none") < len(tasks) and "\"clients\" in tables" in never
    some = conditions(0.3, 0)
    assert some == conditions(0.3, 0)
    assert 0 < some.count("none") < len(tasks)
    assert all(s == "none" or s == n for s, n in zip(some, never, strict=True))
    assert some != conditions(0.3, 1)


def test_derive_condition_uses_only_listed_facts() -> None:
    listed = {"tables": ("clients", "orders"), "columns": ("clients.full_name", "orders.status")}
    assert derive_condition("SELECT full_name FROM clients", "SELECT name FROM customers", listed) == (
        '"clients" in tables'
    )
    assert derive_condition("SELECT full_name FROM t", "SELECT name FROM t", listed) == (
        '"clients.full_name" in columns'
    )
    assert derive_condition("SELECT x FROM t WHERE s = 'clients'", "SELECT y FROM t", listed) == "none"
    assert derive_condition("SELECT full_name FROM clients", "SELECT name FROM customers", {}) == "none"


def test_unknown_prompts_and_benchmarks_without_naive_actions(shop: ShopBenchmark, toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    simulation = Simulation(shop, shop.tasks())
    assert list(simulation.unsupported) == ["sql-shop-marketplace-q24"]
    assert simulation.naive_action("not a task") is None
    with pytest.raises(LLMError, match="q24"):
        simulation.naive_action(shop.render_task(_task(shop, "marketplace", "q24")))
    assert not is_generator_prompt([Message(role="system", content="You solve sql tasks.")])
    with pytest.raises(ConfigError, match="no naive action"):
        simulated_llm_for(toy_benchmark, toy_benchmark.tasks())
    with pytest.raises(ConfigError, match="universal_rate"):
        Simulation(shop, shop.tasks(), universal_rate=1.5)


def test_task_index_takes_the_longest_rendered_prefix(shop: ShopBenchmark) -> None:
    tasks = shop.tasks()
    index = TaskIndex(shop, tasks)
    task = _task(shop, "crm", "q19")
    text = shop.render_task(task)
    assert index.find(text) == task
    assert index.find(f"{text}\n\nAdvice from verified past corrections\n\nmore") == task
    assert index.find(text[:-5]) is None
    duplicate = task.model_copy(update={"id": "copy"})
    with pytest.raises(ConfigError, match="same text"):
        TaskIndex(shop, [task, duplicate])
