"""Checked alternatives without a store: the gold edit is offered, costs are counted, nothing persists."""

import re

from countermem.agents import ReActAgent
from countermem.baselines import CheckedAlternatives
from countermem.core import Action, CheckResult, Cost, Decision, Facts, Outcome, Task, parse_record_texts
from countermem.domains import State
from countermem.llm import ScriptedLLM
from countermem.memory import Generator, GeneratorSettings

FACTS = Facts(values={"large": False})


def _reply(*actions: str) -> str:
    return "\n".join(
        f"### Alternative {i}\nRationale: try {a}\nCondition: none\n```text\n{a}\n```"
        for i, a in enumerate(actions, 1)
    )


class ScoreWorld:
    """`u=<utility>` actions score that utility; `timeout` ones do not complete; counts calls."""

    def __init__(self) -> None:
        self.checks = 0
        self.resets = 0

    def reset(self, task: Task) -> State:
        self.resets += 1
        return State(task_id=task.id, payload=None)

    def snapshot(self) -> State:
        return State(task_id="x", payload=None)

    def restore(self, state: State) -> None:
        pass

    def check(self, action: Action) -> CheckResult:
        self.checks += 1
        match = re.search(r"u=([0-9.]+)", action.content)
        utility = float(match.group(1)) if match else 0.0
        done = not action.content.startswith("timeout")
        return CheckResult(utility=utility, passed=utility == 1.0, completed=done,
                           status=("passed" if utility == 1.0 else "wrong") if done else "timeout",
                           cost=Cost(calls=1))


def _task(name: str = "t1") -> Task:
    return Task(id=name, benchmark="toy", domain="toy", prompt="reach 1", gold="1")


def _failed_at(task: Task, action: str, utility: float = 0.2) -> Decision:
    failed = CheckResult(utility=utility, passed=False, completed=True, status="wrong")
    return Decision(task=task, situation=task.prompt, facts=FACTS, step=1,
                    last_action=Action(content=action), last_result=failed)


def test_offers_the_gold_edit_and_reports_its_costs(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    task = toy_benchmark.tasks()[0]  # 1 + 1
    worlds = []

    def factory():  # type: ignore[no-untyped-def]
        worlds.append(toy_benchmark.world_model())
        return worlds[-1]

    llm = ScriptedLLM([_reply("5", "2", "3 ")])
    hook = CheckedAlternatives(Generator(llm, settings=GeneratorSettings.batch()), factory, action_language="text")
    failed = CheckResult(utility=0.0, passed=False, completed=True, status="wrong")
    decision = Decision(task=task, situation=task.prompt, facts=FACTS, step=1,
                        last_action=Action(content="3"), last_result=failed)
    advice = hook.advise(decision)
    assert advice is not None and advice.record_id is not None
    shown = parse_record_texts(advice.text)
    assert [(r.original, r.improved, r.condition) for r in shown] == [("3", "2", "always")]
    assert advice.details["world_model_calls"] == 2 == worlds[0].checks, "the copy of '3' is dropped"
    assert advice.retrieval_tokens > 0
    assert advice.retrieval_tokens == hook.generator.usage_total.total
    assert (advice.candidates, advice.eligible) == (2, 1)


def test_never_offers_a_gain_at_or_below_the_threshold_or_an_incomplete_check() -> None:
    world = ScoreWorld()
    hook = CheckedAlternatives(Generator(ScriptedLLM([_reply("u=0.25", "timeout u=1.0"), _reply("u=0.26")]), settings=GeneratorSettings.batch()),
                               lambda: world, action_language="text")
    advice = hook.advise(_failed_at(_task(), "u=0.2"))
    assert advice is not None and advice.record_id is None and advice.text == ""
    assert advice.details["world_model_calls"] == 2 and advice.retrieval_tokens > 0
    better = hook.advise(_failed_at(_task(), "u=0.2 again"))
    assert better is not None and parse_record_texts(better.text)[0].improved == "u=0.26"
    assert hook.stats.world_model_calls == 3 and hook.stats.offered == 1


def test_the_best_gain_wins_and_ties_go_to_the_first() -> None:
    hook = CheckedAlternatives(Generator(ScriptedLLM([_reply("u=0.5 a", "u=0.9 b", "u=0.9 c")]), settings=GeneratorSettings.batch()), ScoreWorld,
                               action_language="text")
    advice = hook.advise(_failed_at(_task(), "u=0.2"))
    assert advice is not None and parse_record_texts(advice.text)[0].improved == "u=0.9 b"
    assert advice.details["gain"] == 0.7


def test_forgets_between_tasks_and_repairs_one_failure_once_per_task() -> None:
    llm = ScriptedLLM(lambda messages: _reply("u=1.0"))
    hook = CheckedAlternatives(Generator(llm, settings=GeneratorSettings.batch()), ScoreWorld, action_language="text")
    assert hook.advise(_failed_at(_task("a"), "u=0.1")) is not None
    assert hook.advise(_failed_at(_task("a"), "u=0.1 ")) is None, "the same failure is repaired once"
    assert len(llm.calls) == 1
    assert hook.advise(_failed_at(_task("b"), "u=0.1")) is not None, "a new task starts from nothing"
    outcome = Outcome(task_id="b", solved=True, final_utility=1.0, evaluator_calls=1, failed_attempts=1, tokens=1)
    hook.feedback(_failed_at(_task("b"), "u=0.1"), None, outcome)
    assert hook.advise(_failed_at(_task("b"), "u=0.1")) is not None, "feedback ends the task"
    assert len(llm.calls) == 3


def test_no_advice_at_step_zero_or_after_a_passed_check() -> None:
    llm = ScriptedLLM([])
    hook = CheckedAlternatives(Generator(llm, settings=GeneratorSettings.batch()), ScoreWorld, action_language="text")
    task = _task()
    assert hook.advise(Decision(task=task, situation=task.prompt, facts=FACTS)) is None
    passed = CheckResult(utility=1.0, passed=True, completed=True, status="passed")
    assert hook.advise(Decision(task=task, situation="s", facts=FACTS, step=1, last_action=Action(content="1"),
                                last_result=passed)) is None
    assert not llm.calls


def test_an_agent_counts_the_hooks_checks_as_evaluator_calls(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    task = toy_benchmark.tasks()[0]  # 1 + 1

    def agent_or_generator(messages):  # type: ignore[no-untyped-def]
        if "LOCAL edits" in messages[0].content:
            return _reply("4", "2")
        last = messages[-1].content
        if "Correction:" in last:
            return "Thought: use the correction\nAction: check\n```text\n2\n```"
        if "PASSED" in last:
            return "Action: submit"
        return "Thought: guess\nAction: check\n```text\n3\n```"

    llm = ScriptedLLM(agent_or_generator)
    hook = CheckedAlternatives(Generator(llm, settings=GeneratorSettings.batch()), toy_benchmark.world_model, action_language="text")
    outcome = ReActAgent(llm, toy_benchmark, toy_benchmark.world_model(), memory=hook).run(task)
    assert outcome.solved
    assert outcome.evaluator_calls == 2 + 2, "two agent checks plus the hook's two"
    assert outcome.retrieval_tokens == hook.generator.usage_total.total > 0
    assert outcome.advice_record_ids == [hook.stats.uses[0][1]]
