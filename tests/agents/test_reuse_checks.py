"""`AgentLimits.reuse_checks`: a repeated check is answered from the earlier one, the episode unchanged."""

from conftest import ToyWorldModel
from countermem.agents import AgentLimits, ReActAgent
from countermem.agents._react import REUSED_NOTE
from countermem.core import Action, CheckResult
from countermem.llm import ScriptedLLM

REPLIES = ["Action: check 3", "Action: check 4", "Action: check  3", "Action: check 3", "Action: submit 2"]


def _run(bench, replies, world_model=None, **limits):  # type: ignore[no-untyped-def]
    events = []
    wm = world_model or bench.world_model()
    agent = ReActAgent(ScriptedLLM(replies), bench, wm, limits=AgentLimits(max_steps=6, **limits), sink=events.append)
    return agent.run(bench.tasks()[0]), agent, wm, events


def test_a_repeated_action_costs_no_world_model_call_and_changes_nothing_else(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    plain, plain_agent, plain_wm, plain_events = _run(toy_benchmark, REPLIES)
    reused, reused_agent, reused_wm, reused_events = _run(toy_benchmark, REPLIES, reuse_checks=True)
    assert plain.evaluator_calls == 4 and reused.evaluator_calls == 2  # "3" (twice more, once re-spaced) reused
    assert plain_wm.checks == 5 and reused_wm.checks == 3  # the submission is graded in both
    assert plain.solved and reused.solved
    assert plain.failed_attempts == reused.failed_attempts == 4
    assert plain_agent.llm.calls == reused_agent.llm.calls  # type: ignore[attr-defined]  # the same prompts
    checks = [e for e in reused_events if e.kind == "check"]
    assert [e.result for e in checks] == [e.result for e in plain_events if e.kind == "check"]
    assert [e.text for e in checks] == ["", "", f"{REUSED_NOTE} 1", f"{REUSED_NOTE} 1"]


class _TimesOutOnSeven(ToyWorldModel):
    def check(self, action: Action) -> CheckResult:
        result = super().check(action)
        if action.content.strip() == "7":
            return CheckResult(utility=0.0, passed=False, completed=False, status="timeout", details="time limit")
        return result


def test_a_check_that_did_not_complete_is_made_again(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    replies = ["Action: check 7", "Action: check 7", "Action: submit 2"]
    outcome, _, wm, events = _run(toy_benchmark, replies, world_model=_TimesOutOnSeven(), reuse_checks=True)
    assert outcome.evaluator_calls == 2 and wm.checks == 3
    assert all(REUSED_NOTE not in e.text for e in events)


def test_repeats_across_trials_are_checked_again(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    """A trial starts from the task's reset; what a trial remembers of its checks ends with it."""
    from countermem.agents import ReflexionAgent

    replies = ["Action: check 3", "Action: submit 3", "Reflection: wrong", "Action: check 3", "Action: submit 2"]
    outcomes = []
    for reuse in (False, True):
        wm = toy_benchmark.world_model()
        agent = ReflexionAgent(ScriptedLLM(replies), toy_benchmark, wm, limits=AgentLimits(reuse_checks=reuse), max_trials=2)
        outcomes.append((agent.run(toy_benchmark.tasks()[0]), wm.checks))
    (plain, plain_checks), (reused, reused_checks) = outcomes
    assert plain.solved and reused.solved
    assert reused.evaluator_calls == plain.evaluator_calls and reused_checks == plain_checks == 4
