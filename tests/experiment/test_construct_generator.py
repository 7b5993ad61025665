"""Construction with a generator model of its own (e.g. the 1.5B writes the alternatives the 0.5B
agent will use) and conditions derived from the facts, on real sql-shop tasks and checks."""

from __future__ import annotations

from pathlib import Path

from countermem.domains import load_benchmark
from countermem.experiment import RunConfig, RunDir, select_tasks
from countermem.experiment._stages import MemorySettings, construct_memory
from countermem.llm import Message, ScriptedLLM
from countermem.memory import GeneratorSettings, SQLiteStore, parse_condition

WRONG = "SELECT 'not the answer' AS wrong"


def test_the_generator_model_writes_the_alternatives_and_conditions_come_from_facts(tmp_path: Path) -> None:
    bench = load_benchmark("sql-shop")
    config = RunConfig(benchmark="sql-shop", backbone="scripted", model="agent", split="construct", limit=2, stage="construct")
    tasks = select_tasks(bench, config)

    def generator_reply(messages: list[Message]) -> str:
        task = next(t for t in tasks if t.prompt in messages[-1].content)
        return f"Fix: answer the question that was asked\n```sql\n{task.gold}\n```"

    agent = ScriptedLLM(lambda _: f"Thought: guess\nAction: submit\n```sql\n{WRONG}\n```", model="agent")
    generator = ScriptedLLM(generator_reply, model="generator")
    settings = MemorySettings(
        store=tmp_path / "store.sqlite", embedder="lexical",
        generator=GeneratorSettings(samples=1, extra_draws=0),
    )
    result = construct_memory(config, settings, agent, bench, tasks, RunDir(tmp_path / "construct"),
                              generator_llm=generator)

    assert result.report.construction_failures_seen == 2 and result.report.construction_admitted == 2
    assert result.report.construction_generator_calls == len(generator.calls) == 2 * 2  # greedy + 1 sample
    assert all(calls[0].content.startswith("You correct an action") for calls in generator.calls)
    assert not any(m.content.startswith("You correct an action") for calls in agent.calls for m in calls)
    assert bench.instructions().splitlines()[0] in generator.calls[0][0].content  # the agent's own rules
    with SQLiteStore(settings.store) as store:
        records = store.all()
    by_task = {t.id: t for t in tasks}
    for record in records:
        task = by_task[record.source.task_id]
        assert record.improved_action.content == task.gold and record.original_action.content == WRONG
        condition = parse_condition(str(record.condition))
        assert str(record.condition) not in ("", "none")  # never universal: the decision has facts
        # learned at the decision right after the failed submission, where it must hold
        assert condition.evaluate(bench.facts(task, record.original_action))


def test_a_malformed_answer_is_learned_from_and_its_record_fires_only_after_one(tmp_path: Path) -> None:
    from countermem.core import MALFORMED_FACT, Action, with_malformed_fact

    bench = load_benchmark("sql-shop")
    config = RunConfig(benchmark="sql-shop", backbone="scripted", model="agent", split="construct", limit=1,
                       stage="construct")
    tasks = select_tasks(bench, config)

    def generator_reply(messages: list[Message]) -> str:
        task = next(t for t in tasks if t.prompt in messages[-1].content)
        return f"Fix: write the query in a code block after Action: check\n```sql\n{task.gold}\n```"

    agent = ScriptedLLM(lambda _: "Thought: I think the answer is the customers table.", model="agent")
    generator = ScriptedLLM(generator_reply, model="generator")
    settings = MemorySettings(
        store=tmp_path / "store.sqlite", embedder="lexical",
        generator=GeneratorSettings(samples=1, extra_draws=0), after_malformed=True,
    )
    result = construct_memory(config, settings, agent, bench, tasks, RunDir(tmp_path / "construct"),
                              generator_llm=generator)

    assert result.report.construction_failures_seen == 1  # the same malformed text is learned from once
    assert result.report.construction_admitted == 1
    assert "status: malformed" in generator.calls[0][-1].content
    with SQLiteStore(settings.store) as store:
        (record,) = store.all()
    task = tasks[0]
    assert record.original_check.status == "malformed" and record.original_check.utility == 0.0
    assert record.original_action.content.startswith("Thought: I think")
    assert record.improved_action.content == task.gold and record.improved_check.passed
    condition = parse_condition(str(record.condition))
    assert MALFORMED_FACT in str(record.condition)
    assert condition.evaluate(with_malformed_fact(bench.facts(task, None)))
    assert not condition.evaluate(bench.facts(task, None))  # the task's first decision
    assert not condition.evaluate(bench.facts(task, Action(content=WRONG)))  # after a well-formed failure
    off = settings.model_copy(update={"after_malformed": False, "store": tmp_path / "off.sqlite"})
    quiet = ScriptedLLM(generator_reply, model="generator")
    result = construct_memory(config, off, agent, bench, tasks, RunDir(tmp_path / "off"), generator_llm=quiet)
    assert result.report.construction_failures_seen == 0 and not quiet.calls  # off by default


def test_with_check_error_atoms_a_record_is_conditioned_on_the_checks_error(tmp_path: Path) -> None:
    from countermem.core import CHECK_ERROR_FACT, facts_after

    bench = load_benchmark("sql-shop")
    config = RunConfig(benchmark="sql-shop", backbone="scripted", model="agent", split="construct", limit=1,
                       stage="construct")
    tasks = select_tasks(bench, config)
    unknown = "SELECT no_such_column_here FROM " + bench.schema(tasks[0].environment or "").tables[0].name

    def generator_reply(messages: list[Message]) -> str:
        return f"Fix: use the right column\n```sql\n{tasks[0].gold}\n```"

    conditions = []
    for on in (False, True):
        agent = ScriptedLLM(lambda _: f"Thought: guess\nAction: submit\n```sql\n{unknown}\n```", model="agent")
        settings = MemorySettings(
            store=tmp_path / f"store-{on}.sqlite", embedder="lexical",
            generator=GeneratorSettings(samples=0, extra_draws=0, check_error_atoms=on),
        )
        construct_memory(config, settings, agent, bench, tasks, RunDir(tmp_path / f"construct-{on}"),
                         generator_llm=ScriptedLLM(generator_reply, model="generator"))
        with SQLiteStore(settings.store) as store:
            (record,) = store.all()
        conditions.append(parse_condition(str(record.condition)))
    off, on_ = conditions
    assert CHECK_ERROR_FACT not in off.facts_used()
    assert CHECK_ERROR_FACT in on_.facts_used()
    assert not on_.facts_used() & {"question_keywords", "mentioned_tables", "tables"}
    failed = record.original_action, record.original_check
    assert on_.evaluate(facts_after(bench.facts, tasks[0], *failed, bench.error_kind))
    assert not on_.evaluate(facts_after(bench.facts, tasks[0], *failed))  # the agent must report the error kind
