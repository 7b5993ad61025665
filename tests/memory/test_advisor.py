"""The advisor hook: retrieve, select, render; counters written only to a writable store; the
selector learns from task outcomes; the construction hook learns from failed checks."""

from pathlib import Path

from countermem.core import Action, CheckResult, Decision, Facts, Outcome, Task, parse_record_texts
from countermem.memory import (
    AdvisorOptions,
    CounterfactualLearner,
    CounterfactualMemory,
    GeneratorSettings,
    Record,
    RecordSource,
    Retriever,
    SQLiteStore,
    make_embedder,
)
from countermem.selector import AlwaysSkip, DQNConfig, DQNSelector, TopOne

TASK = Task(id="t1", benchmark="toy", domain="math", prompt="What is 2 + 2?", gold="4")
FACTS = Facts(values={"large": False})


def _record(condition: str = "none") -> Record:
    return Record(
        domain="math", benchmark="toy", situation="What is 2 + 3?",
        original_action=Action(content="6"), improved_action=Action(content="5"),
        original_check=CheckResult(utility=0.0, passed=False, completed=True, status="wrong"),
        improved_check=CheckResult(utility=1.0, passed=True, completed=True, status="passed"),
        condition=condition, rationale="add exactly", source=RecordSource(task_id="t0", benchmark="toy"),
        task_brief="What is 2 + 3?",
    )


def _memory(store: SQLiteStore, selector, **options) -> CounterfactualMemory:  # type: ignore[no-untyped-def]
    retriever = Retriever(store, make_embedder("lexical"))
    return CounterfactualMemory(retriever, selector, action_language="text", store=store,
                                options=AdvisorOptions(**options))


def _outcome(solved: bool) -> Outcome:
    return Outcome(task_id=TASK.id, solved=solved, final_utility=float(solved), evaluator_calls=1,
                   failed_attempts=0, tokens=100)


def test_top1_renders_the_record_and_counts_its_use(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.sqlite")
    record = _record()
    store.add(record)
    memory = _memory(store, TopOne())
    decision = Decision(task=TASK, situation=TASK.prompt, facts=FACTS)
    advice = memory.advise(decision)
    assert advice is not None and advice.record_id == record.id
    rendered = parse_record_texts(advice.text)
    assert rendered[0].improved == "5" and rendered[0].condition == "always"
    assert rendered[0].task == "", "the source task is shown only when asked"
    memory.feedback(decision, advice, _outcome(True))
    counters = store.get(record.id).counters
    assert (counters.retrieved, counters.selected, counters.succeeded) == (1, 1, 1)
    assert store.get(record.id).version > 1
    assert memory.stats.coverage == 1.0 and memory.stats.uses == [(TASK.id, record.id)]
    shown = _memory(store, TopOne(), show_task=True).advise(decision)
    assert shown is not None and parse_record_texts(shown.text)[0].task == "What is 2 + 3?"


def test_skip_and_false_conditions_offer_nothing(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.sqlite")
    store.add(_record("large"))
    memory = _memory(store, TopOne())
    assert memory.advise(Decision(task=TASK, situation=TASK.prompt, facts=FACTS)) is None
    assert memory.stats.coverage == 0.0
    store.add(_record())
    skipping = _memory(store, AlwaysSkip())
    advice = skipping.advise(Decision(task=TASK, situation=TASK.prompt, facts=FACTS))
    assert advice is not None and advice.record_id is None and advice.text == ""
    assert skipping.stats.skipped == 1


def test_read_only_store_is_never_written(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    writer = SQLiteStore(path)
    record = _record()
    writer.add(record)
    writer.close()
    store = SQLiteStore(path, read_only=True)
    memory = _memory(store, TopOne())
    decision = Decision(task=TASK, situation=TASK.prompt, facts=FACTS)
    advice = memory.advise(decision)
    memory.feedback(decision, advice, _outcome(True))
    assert store.get(record.id).counters.selected == 0 and memory.stats.selected == 1


def test_training_feeds_the_dqn(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.sqlite")
    store.add(_record())
    selector = DQNSelector(DQNConfig(seed=0, learning_starts=2, batch_size=2))
    selector.train()
    memory = _memory(store, selector, train_selector=True, updates_per_task=1)
    for index in range(4):
        task = TASK.model_copy(update={"id": f"t{index}"})
        decision = Decision(task=task, situation=task.prompt, facts=FACTS)
        advice = memory.advise(decision)
        memory.feedback(decision, advice, _outcome(True).model_copy(update={"task_id": task.id}))
    assert selector.train_step_stats.buffer_size == 4
    assert len(memory.stats.losses) >= 1


class _World:
    def __init__(self) -> None:
        self.task = TASK

    def reset(self, task):  # type: ignore[no-untyped-def]
        from countermem.domains import State

        self.task = task
        return State(task_id=task.id, payload=task, fingerprint=task.id)

    def snapshot(self):  # type: ignore[no-untyped-def]
        return self.reset(self.task)

    def restore(self, state) -> None:  # type: ignore[no-untyped-def]
        self.task = state.payload

    def check(self, action: Action) -> CheckResult:
        ok = action.content.strip() == self.task.gold
        return CheckResult(utility=float(ok), passed=ok, completed=True, status="passed" if ok else "wrong")


def test_construction_hook_learns_from_a_failed_check(tmp_path: Path) -> None:
    from countermem.llm import ScriptedLLM
    from countermem.memory import Admitter, Generator

    store = SQLiteStore(tmp_path / "s.sqlite")
    reply = "### Alternative 1\nRationale: add exactly\nCondition: not large\n```text\n4\n```"
    learner = CounterfactualLearner(Generator(ScriptedLLM([reply]), settings=GeneratorSettings.batch()), Admitter(store), _World,
                                    action_language="text")
    failed = CheckResult(utility=0.0, passed=False, completed=True, status="wrong")
    decision = Decision(task=TASK, situation=TASK.prompt, facts=FACTS, step=1,
                        last_action=Action(content="5"), last_result=failed)
    assert learner.advise(decision) is None
    assert learner.advise(decision) is None  # the same failure is learned from once
    assert learner.stats.failures_seen == 1 and learner.stats.admitted == 1
    assert [r.improved_action.content for r in store.all()] == ["4"]
    assert learner.stats.generator_usage.total > 0


def test_construction_learns_from_at_most_failures_per_task(tmp_path: Path) -> None:
    from countermem.llm import ScriptedLLM
    from countermem.memory import Admitter, Generator

    store = SQLiteStore(tmp_path / "s.sqlite")
    reply = "### Alternative 1\nRationale: add exactly\nCondition: not large\n```text\n4\n```"
    settings = GeneratorSettings.batch().model_copy(update={"failures_per_task": 1})
    llm = ScriptedLLM([reply, reply])
    learner = CounterfactualLearner(Generator(llm, settings=settings), Admitter(store), _World, action_language="text")
    failed = CheckResult(utility=0.0, passed=False, completed=True, status="wrong")
    for wrong in ("5", "6"):
        learner.advise(Decision(task=TASK, situation=TASK.prompt, facts=FACTS, step=1,
                                last_action=Action(content=wrong), last_result=failed))
    assert learner.stats.failures_seen == 1 and learner.stats.failures_skipped == 1
    assert len(llm.calls) == 1
    other = TASK.model_copy(update={"id": "another"})
    learner.advise(Decision(task=other, situation=other.prompt, facts=FACTS, step=1,
                            last_action=Action(content="6"), last_result=failed))
    assert learner.stats.failures_seen == 2  # the budget is per task
