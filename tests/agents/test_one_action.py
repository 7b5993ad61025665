"""`AgentLimits.one_action`: a reply ends where its next step begins, on every backend."""

from countermem.agents import AgentLimits, ReActAgent
from countermem.agents._react import NEXT_STEP_STOPS, cut_at_next_step
from countermem.llm import ScriptedLLM

RAMBLING = [
    "Thought: 3 first.\nAction: check\n```text\n3\n```\n\nThought: then 2.\nAction: submit\n```text\n2\n```",
    "Thought: it is 2.\nAction: check\n```text\n2\n```\nObservation: check PASSED\nAction: submit",
    "Action: submit",
]


def _run(bench, **limits):  # type: ignore[no-untyped-def]
    llm = ScriptedLLM(RAMBLING)
    agent = ReActAgent(llm, bench, bench.world_model(), limits=AgentLimits(max_steps=4, **limits))
    return agent.run(bench.tasks()[0]), llm


def test_the_history_keeps_each_reply_up_to_its_first_action_only(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    plain, plain_llm = _run(toy_benchmark)
    one, one_llm = _run(toy_benchmark, one_action=True)
    assert plain.solved and one.solved  # the first action of each reply is the same either way
    assert plain.evaluator_calls == one.evaluator_calls == 2
    kept = [m.content for m in one_llm.calls[1] if m.role == "assistant"]  # type: ignore[attr-defined]
    assert kept == ["Thought: 3 first.\nAction: check\n```text\n3\n```\n"]
    assert "then 2" in next(m.content for m in plain_llm.calls[1] if m.role == "assistant")  # type: ignore[attr-defined]


def test_the_stops_are_asked_of_the_backend_and_the_cut_matches_them(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    seen: list[tuple[str, ...]] = []

    class Recording(ScriptedLLM):
        def complete(self, messages, params=None):  # type: ignore[no-untyped-def]
            seen.append(params.stop)
            return super().complete(messages, params)

    for one_action, expected in ((False, ()), (True, NEXT_STEP_STOPS)):
        llm = Recording(["Action: check 2", "Action: submit"])
        limits = AgentLimits(one_action=one_action)
        assert ReActAgent(llm, toy_benchmark, toy_benchmark.world_model(), limits=limits).run(toy_benchmark.tasks()[0]).solved
        assert seen == [expected, expected] and limits.params.stop == ()
        seen.clear()
    assert set(NEXT_STEP_STOPS) == {"\nThought:", "\nObservation:"}
    assert cut_at_next_step("Thought: a\nAction: check 1\nThought: b") == "Thought: a\nAction: check 1"
    assert cut_at_next_step("Thought: a\nAction: check 1") == "Thought: a\nAction: check 1"
    assert cut_at_next_step("Action: check 1\nObservation: ok\nThought: b") == "Action: check 1"
