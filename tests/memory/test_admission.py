import re

import pytest

from countermem.core import Action, CheckResult, ConfigError, Cost, Facts, Task, Usage
from countermem.domains import State
from countermem.llm import ScriptedLLM
from countermem.memory import Record, RecordSource, SQLiteStore
from countermem.memory._admission import AdmissionReport, Admitter, learn_from_failure
from countermem.memory._generator import Alternative, Generator, GeneratorSettings, Proposal

TASK = Task(id="toy-1", benchmark="toy", domain="toy", prompt="reach 3", gold="3")
FACTS = Facts(values={"n_vars": 20, "columns": ("a.price", "a.id"), "engine": "sqlite"})


class ScoreWorldModel:
    """Judges `u=<utility>` actions; `timeout u=..` does not complete. Logs every protocol call."""

    def __init__(self) -> None:
        self.log: list[str] = []
        self.value = 0

    def reset(self, task: Task) -> State:
        self.value = 0
        return State(task_id=task.id, payload=0)

    def snapshot(self) -> State:
        self.log.append("snapshot")
        return State(task_id=TASK.id, payload=self.value)

    def restore(self, state: State) -> None:
        self.log.append(f"restore:{state.payload}")
        self.value = state.payload

    def check(self, action: Action) -> CheckResult:
        self.log.append(f"check:{action.content}")
        self.value += 1
        match = re.search(r"u=([0-9.]+)", action.content)
        utility = float(match.group(1)) if match else 0.0
        if action.content.startswith("timeout"):
            return CheckResult(
                utility=utility, passed=False, completed=False, status="timeout", cost=Cost(calls=1)
            )
        passed = utility == 1.0
        return CheckResult(
            utility=utility,
            passed=passed,
            completed=True,
            status="passed" if passed else "wrong",
            cost=Cost(calls=1),
        )


class CounterWorldModel:
    """A stateful world: `add N` moves a counter, which must end at the task's gold value."""

    def __init__(self) -> None:
        self.counter = 0
        self.task: Task | None = None
        self.log: list[str] = []

    def reset(self, task: Task) -> State:
        self.task, self.counter = task, 0
        return self.snapshot()

    def snapshot(self) -> State:
        assert self.task is not None
        return State(task_id=self.task.id, payload=self.counter, fingerprint=str(self.counter))

    def restore(self, state: State) -> None:
        self.log.append(f"restore:{state.payload}")
        self.counter = state.payload

    def check(self, action: Action) -> CheckResult:
        assert self.task is not None and self.task.gold is not None
        self.log.append(f"check:{action.content}@{self.counter}")
        self.counter += int(action.content.split()[1])
        ok = self.counter == int(self.task.gold)
        return CheckResult(
            utility=1.0 if ok else 0.0,
            passed=ok,
            completed=True,
            status="passed" if ok else "wrong",
            details=f"counter is {self.counter}",
        )


def failed(utility: float = 0.0) -> CheckResult:
    return CheckResult(utility=utility, passed=False, completed=True, status="wrong", details="wrong")


def proposal(*items: tuple[str, str | None]) -> Proposal:
    return Proposal(
        alternatives=[
            Alternative(action=Action(content=a), rationale=f"why {a}", condition_text=c) for a, c in items
        ],
        usage=Usage(),
        raw_text="",
    )


def admit(
    admitter: Admitter, wm: ScoreWorldModel, items: list[tuple[str, str | None]], failed_utility: float = 0.0
) -> AdmissionReport:
    state = State(task_id=TASK.id, payload=0)
    return admitter.verify_and_admit(
        task=TASK,
        world_model=wm,
        state=state,
        failed_action=Action(content="original"),
        failed_result=failed(failed_utility),
        proposal=proposal(*items),
        facts=FACTS,
        situation="the situation",
    )


def test_threshold_is_strict_and_configurable() -> None:
    store = SQLiteStore()
    report = admit(Admitter(store), ScoreWorldModel(), [("u=0.05", "none")])
    assert [v.verdict for v in report.verdicts] == ["below_threshold"] and len(store) == 0
    report = admit(Admitter(store), ScoreWorldModel(), [("u=0.75", "none")], failed_utility=0.7)
    assert report.verdicts[0].verdict == "below_threshold" and len(store) == 0
    report = admit(Admitter(store), ScoreWorldModel(), [("u=0.06", "none")])
    assert [v.verdict for v in report.verdicts] == ["admitted"] and len(store) == 1
    assert report.admitted_record_id == store.all()[0].id
    strict = SQLiteStore()
    report = admit(
        Admitter(strict, min_gain=0.1), ScoreWorldModel(), [("u=0.06", "none"), ("u=0.11", "none")]
    )
    assert [v.verdict for v in report.verdicts] == ["below_threshold", "admitted"]
    assert strict.all()[0].improved_action.content == "u=0.11"
    with pytest.raises(ConfigError):
        Admitter(store, min_gain=1.5)


def test_incomplete_check_is_never_admitted() -> None:
    store = SQLiteStore()
    report = admit(Admitter(store), ScoreWorldModel(), [("timeout u=1.0", "none")])
    assert report.verdicts[0].verdict == "incomplete" and report.verdicts[0].gain == 1.0
    assert report.admitted_record_id is None and len(store) == 0


def test_bad_or_false_conditions_are_rejected_never_universal() -> None:
    store = SQLiteStore()
    items: list[tuple[str, str | None]] = [
        ("u=1.0 a", "n_vars >>> 3"),
        ("u=1.0 b", None),
        ("u=1.0 c", "n_vars > 100"),
        ("u=1.0 d", '"qty" in nonexistent_fact'),
        ("u=1.0 e", "none (universal)"),
        ("u=1.0 g", "(" * 3000 + "n_vars" + ")" * 3000),
    ]
    report = admit(Admitter(store), ScoreWorldModel(), items)
    verdicts = [v.verdict for v in report.verdicts]
    assert verdicts == [
        "bad_condition",
        "bad_condition",
        "condition_false_here",
        "condition_false_here",
        "bad_condition",
        "bad_condition",
    ]
    assert "nested too deeply" in report.verdicts[5].reason
    assert "does not parse" in report.verdicts[0].reason
    assert "unknown fact(s) nonexistent_fact" in report.verdicts[3].reason
    assert report.world_model_calls == 6 and len(store) == 0
    report = admit(
        Admitter(store), ScoreWorldModel(), [*items, ("u=1.0 f", '"A.PRICE" in columns and n_vars <= 20')]
    )
    assert report.verdicts[-1].verdict == "admitted"
    record = store.get(report.admitted_record_id or "")
    assert record.condition.canonical == '"A.PRICE" in columns and n_vars <= 20'
    assert not record.condition.is_universal


def test_checks_start_from_the_snapshot_not_the_post_failure_state() -> None:
    wm = CounterWorldModel()
    snapshot = wm.reset(TASK)
    failed_action = Action(content="add 2")
    failed_result = wm.check(failed_action)
    assert not failed_result.passed and wm.counter == 2
    # From the post-failure state `add 1` would pass: the test can tell the two states apart.
    probe = CounterWorldModel()
    probe.reset(TASK)
    probe.counter = 2
    assert probe.check(Action(content="add 1")).passed

    store = SQLiteStore()
    report = Admitter(store).verify_and_admit(
        task=TASK,
        world_model=wm,
        state=snapshot,
        failed_action=failed_action,
        failed_result=failed_result,
        proposal=proposal(("add 1", "none"), ("add 3", "none")),
        facts=FACTS,
        situation="counter starts at 0",
    )
    assert [v.verdict for v in report.verdicts] == ["below_threshold", "admitted"]
    assert [v.check.details for v in report.verdicts] == ["counter is 1", "counter is 3"]
    assert store.get(report.admitted_record_id or "").improved_action.content == "add 3"
    assert wm.log[-5:] == ["restore:0", "check:add 1@0", "restore:0", "check:add 3@0", "restore:2"]
    assert wm.counter == 2, "admission leaves the world model where the caller had it"


def test_restore_precedes_every_check_and_calls_are_counted() -> None:
    wm = ScoreWorldModel()
    admitter = Admitter(SQLiteStore())
    report = admit(admitter, wm, [("u=0.1", "none"), ("u=0.2", "none"), ("u=0.3", "none")])
    assert wm.log == [
        "snapshot",
        "restore:0",
        "check:u=0.1",
        "restore:0",
        "check:u=0.2",
        "restore:0",
        "check:u=0.3",
        "restore:0",
    ]
    assert report.world_model_calls == 3
    admit(admitter, ScoreWorldModel(), [("u=0.4", "none"), ("u=0.5", "none")])
    assert admitter.world_model_calls == 5
    empty = admit(admitter, wm, [])
    assert empty.world_model_calls == 0 and empty.verdicts == [] and empty.admitted_record_id is None


def test_only_the_best_admitted_alternative_is_stored() -> None:
    store = SQLiteStore()
    report = admit(
        Admitter(store, stage="train"),
        ScoreWorldModel(),
        [
            ("u=0.3", "none"),
            ("u=0.8 x", "n_vars > 10"),
            ("u=0.8 y", "none"),
            ("u=0.5", "none"),
            ("u=0.9", None),
        ],
        failed_utility=0.1,
    )
    assert [v.verdict for v in report.verdicts] == [
        "not_best",
        "admitted",
        "not_best",
        "not_best",
        "bad_condition",
    ]
    assert "gained more (0.700 vs 0.200)" in report.verdicts[0].reason
    assert "came first at equal gain" in report.verdicts[2].reason
    assert len(store) == 1
    record = store.all()[0]
    assert record.id == report.admitted_record_id and report.record == record
    assert record.improved_action.content == "u=0.8 x"
    assert record.original_action.content == "original"
    assert record.original_check.utility == 0.1 and record.improved_check.utility == 0.8
    assert record.utility_gain == pytest.approx(0.7)
    assert record.rationale == "why u=0.8 x" and record.situation == "the situation"
    assert record.task_brief == "reach 3"
    assert record.source == RecordSource(task_id=TASK.id, benchmark="toy", stage="train")
    assert record.domain == "toy" and record.embedding is None
    assert str(record.condition) == "n_vars > 10"


def test_same_correction_twice_is_not_added_twice() -> None:
    store = SQLiteStore()
    first = admit(Admitter(store), ScoreWorldModel(), [("u=0.9", "none")])
    second = admit(Admitter(store), ScoreWorldModel(), [("u=0.9", "none")])
    assert first.admitted_record_id == second.admitted_record_id
    assert not first.already_stored and second.already_stored and len(store) == 1


def test_eviction_events_are_reported() -> None:
    store = SQLiteStore(capacity=1)
    old = Record(
        domain="toy",
        benchmark="toy",
        situation="older",
        original_action=Action(content="o"),
        improved_action=Action(content="i"),
        original_check=failed(0.0),
        improved_check=failed(0.1),
        utility_gain=0.1,
        source=RecordSource(task_id="toy-0", benchmark="toy"),
    )
    store.add(old)
    report = admit(Admitter(store), ScoreWorldModel(), [("u=1.0", "none")])
    assert [e.record_id for e in report.evictions] == [old.id]
    assert [r.id for r in store.all()] == [report.admitted_record_id]


def test_snapshot_of_another_task_is_refused() -> None:
    with pytest.raises(ConfigError, match="snapshot belongs to task"):
        Admitter(SQLiteStore()).verify_and_admit(
            task=TASK,
            world_model=ScoreWorldModel(),
            state=State(task_id="other", payload=0),
            failed_action=Action(content="x"),
            failed_result=failed(),
            proposal=proposal(("u=1.0", "none")),
            facts=FACTS,
            situation="",
        )


def test_learn_from_failure_runs_both_modules() -> None:
    answer = (
        "### Alternative 1\nRationale: overshoot\nCondition: none\n```text\nadd 4\n```\n"
        "### Alternative 2\nRationale: the counter starts at zero\nCondition: n_vars >= 20\n```text\nadd 3\n```\n"
    )
    llm = ScriptedLLM([answer])
    generator = Generator(llm, settings=GeneratorSettings.batch())
    wm = CounterWorldModel()
    snapshot = wm.reset(TASK)
    failed_action = Action(content="add 2")
    failed_result = wm.check(failed_action)
    store = SQLiteStore()
    prop, report = learn_from_failure(
        generator,
        Admitter(store),
        task=TASK,
        world_model=wm,
        state=snapshot,
        failed_action=failed_action,
        failed_result=failed_result,
        facts=FACTS,
        situation=TASK.prompt,
        action_language="text",
    )
    assert [a.action.content for a in prop.alternatives] == ["add 4", "add 3"]
    assert [v.verdict for v in report.verdicts] == ["below_threshold", "admitted"]
    assert report.world_model_calls == 2
    assert store.get(report.admitted_record_id or "").rationale == "the counter starts at zero"
    assert generator.usage_total == prop.usage and prop.usage.completion_tokens == len(answer.split())


def test_sql_shop_end_to_end_admits_the_gold_query() -> None:
    from countermem.domains import load_benchmark

    benchmark = load_benchmark("sql-shop")
    availability = benchmark.availability()
    if not availability.available:
        pytest.skip(f"sql-shop unavailable: {availability.reason}")
    task = benchmark.tasks()[0]
    wm = benchmark.world_model()
    snapshot = wm.reset(task)
    wrong = benchmark.wrong_action(task)
    wrong_result = wm.check(wrong)
    assert not wrong_result.passed
    facts = benchmark.facts(task, wrong)
    table = next(t for t in facts.values["tables"] if t in (task.gold or "").lower())  # type: ignore[union-attr]
    gold = benchmark.gold_action(task).content
    answer = (
        "### Alternative 1\nRationale: wrong table name\nCondition: none\n"
        "```sql\nSELECT COUNT(*) FROM no_such_table_here\n```\n\n"
        f'### Alternative 2\nRationale: drop the OFFSET that loses a row\nCondition: "{table}" in tables\n'
        f"```sql\n{gold}\n```\n"
    )
    llm = ScriptedLLM([answer])
    store = SQLiteStore()
    prop, report = learn_from_failure(
        Generator(llm, settings=GeneratorSettings.batch()),
        Admitter(store),
        task=task,
        world_model=wm,
        state=snapshot,
        failed_action=wrong,
        failed_result=wrong_result,
        facts=facts,
        situation=benchmark.render_task(task),
        action_language=benchmark.action_language,
    )
    assert len(prop.alternatives) == 2 and prop.problems == []
    assert "tables = [" in llm.calls[0][1].content
    assert [v.verdict for v in report.verdicts] == ["below_threshold", "admitted"]
    assert report.verdicts[0].check.status == "error"
    assert report.world_model_calls == 2
    assert len(store) == 1
    record = store.all()[0]
    assert record.improved_action.content == gold and record.improved_check.passed
    assert record.original_action == wrong and record.benchmark == "sql-shop" and record.domain == "sql"
    assert record.applies(facts) and record.source.task_id == task.id
