"""The unverified-advice baseline: 0 world-model calls, and records that say they were never checked."""

import pytest

from countermem.baselines import UnverifiedAdmitter
from countermem.core import Action, CheckResult, Decision, Facts, Task
from countermem.domains import State
from countermem.llm import ScriptedLLM
from countermem.memory import (
    Admitter,
    CounterfactualLearner,
    Generator,
    GeneratorSettings,
    SQLiteStore,
    learn_from_failure,
)

TASK = Task(id="t1", benchmark="toy", domain="math", prompt="What is 2 + 2?", gold="4")
FACTS = Facts(values={"large": False})
FAILED = CheckResult(utility=0.2, passed=False, completed=True, status="wrong", details="wrong sum")
REPLY = (
    "### Alternative 1\nRationale: needs a big task\nCondition: large\n```text\n7\n```\n"
    "### Alternative 2\nRationale: off by one\nCondition: not large\n```text\n3\n```\n"
    "### Alternative 3\nRationale: the right sum\nCondition: none\n```text\n4\n```"
)


class NoCheckWorld:
    """A world model whose `check` must never be called."""

    def __init__(self) -> None:
        self.checks = 0

    def reset(self, task: Task) -> State:
        return State(task_id=task.id, payload=None)

    def snapshot(self) -> State:
        return State(task_id=TASK.id, payload=None)

    def restore(self, state: State) -> None:
        pass

    def check(self, action: Action) -> CheckResult:
        self.checks += 1
        raise AssertionError("the unverified admitter called the world model")


def _learn(admitter: UnverifiedAdmitter | Admitter, world: NoCheckWorld, reply: str = REPLY):  # type: ignore[no-untyped-def]
    return learn_from_failure(
        Generator(ScriptedLLM([reply]), settings=GeneratorSettings.batch()), admitter, task=TASK, world_model=world,
        state=world.reset(TASK), failed_action=Action(content="5"), failed_result=FAILED,
        facts=FACTS, situation=TASK.prompt, action_language="text",
    )


def test_stores_the_first_acceptable_alternative_unchecked_with_zero_calls() -> None:
    store = SQLiteStore()
    world = NoCheckWorld()
    admitter = UnverifiedAdmitter(store)
    _, report = _learn(admitter, world)
    assert world.checks == 0 and report.world_model_calls == 0 and admitter.world_model_calls == 0
    assert [v.verdict for v in report.verdicts] == ["condition_false_here", "admitted", "not_best"]
    record = store.get(report.admitted_record_id or "")
    assert record.improved_action.content == "3", "the wrong edit is stored: nothing checked it"
    check = record.improved_check
    assert (check.status, check.completed, check.passed) == ("unchecked", False, False)
    assert check.utility == FAILED.utility and record.utility_gain == 0.0
    assert "not checked" in check.details


def test_the_verified_admitter_on_the_same_proposal_calls_the_world_model() -> None:
    with pytest.raises(AssertionError, match="called the world model"):
        _learn(Admitter(SQLiteStore()), NoCheckWorld())


def test_without_conditions_the_first_alternative_is_stored_universal() -> None:
    store = SQLiteStore()
    reply = "### Alternative 1\nRationale: guess\nCondition: large and (\n```text\n9\n```"
    _, report = _learn(UnverifiedAdmitter(store, require_condition=False), NoCheckWorld(), reply)
    record = store.get(report.admitted_record_id or "")
    assert record.improved_action.content == "9" and record.condition.is_universal
    _, strict = _learn(UnverifiedAdmitter(SQLiteStore()), NoCheckWorld(), reply)
    assert not strict.admitted and strict.verdicts[0].verdict == "bad_condition"


def test_the_construction_hook_takes_the_unverified_admitter() -> None:
    store = SQLiteStore()
    world = NoCheckWorld()
    learner = CounterfactualLearner(Generator(ScriptedLLM([REPLY]), settings=GeneratorSettings.batch()), UnverifiedAdmitter(store), lambda: world,
                                    action_language="text")
    decision = Decision(task=TASK, situation=TASK.prompt, facts=FACTS, step=1,
                        last_action=Action(content="5"), last_result=FAILED)
    assert learner.advise(decision) is None
    assert learner.stats.admitted == 1 and learner.stats.world_model_calls == 0 and world.checks == 0
    assert len(store) == 1 and store.all()[0].improved_check.status == "unchecked"
