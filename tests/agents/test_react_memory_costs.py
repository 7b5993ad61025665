"""World-model calls a memory hook makes for a task count as the task's evaluator calls."""

from countermem.agents import Advice, AgentLimits, Decision, Outcome, ReActAgent, ReflexionAgent
from countermem.llm import ScriptedLLM


class CostlyHook:
    """Offers nothing, but says it spent `calls` world-model calls at every failed check."""

    def __init__(self, calls: int) -> None:
        self.calls = calls

    def advise(self, decision: Decision) -> Advice | None:
        if decision.last_result is None:
            return None
        return Advice(text="", record_id=None, retrieval_tokens=7, details={"world_model_calls": self.calls})

    def feedback(self, decision: Decision, advice: Advice | None, outcome: Outcome) -> None:
        pass


def test_react_adds_the_hooks_world_model_calls(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    task = toy_benchmark.tasks()[0]  # 1 + 1
    replies = ["Action: check 5", "Action: check 4", "Action: submit 2"]
    plain = ReActAgent(ScriptedLLM(replies), toy_benchmark, toy_benchmark.world_model()).run(task)
    costly = ReActAgent(ScriptedLLM(replies), toy_benchmark, toy_benchmark.world_model(),
                        memory=CostlyHook(3)).run(task)
    assert plain.evaluator_calls == 2
    assert costly.evaluator_calls == 2 + 2 * 3
    assert costly.retrieval_tokens == 2 * 7


def test_reflexion_sums_them_over_trials(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    task = toy_benchmark.tasks()[0]
    replies = ["Action: check 5", "Action: submit 5", "it was wrong", "Action: check 6", "Action: submit 6"]
    outcome = ReflexionAgent(ScriptedLLM(replies), toy_benchmark, toy_benchmark.world_model(),
                             limits=AgentLimits(max_steps=2), memory=CostlyHook(4), max_trials=2).run(task)
    assert outcome.trials == 2 and not outcome.solved
    # two agent checks, one graded failed trial (Reflexion counts it), and 4 hook calls at each decision
    # after a failed action: the two failed checks and the retry's start after the failed submission
    assert outcome.evaluator_calls == 2 + 1 + 3 * 4
