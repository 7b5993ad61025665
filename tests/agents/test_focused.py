"""`AgentLimits.after_failure = "focused"`: after a failed check the prompt starts afresh."""

from itertools import pairwise

from countermem.agents import Advice, AgentLimits, Decision, Outcome, ReActAgent, prompt_of
from countermem.agents._prompts import ADVICE_HEADER
from countermem.llm import ScriptedLLM

FOCUSED = AgentLimits(after_failure="focused")


def _agent(bench, replies, **kw):  # type: ignore[no-untyped-def]
    events = []
    agent = ReActAgent(ScriptedLLM(replies), bench, bench.world_model(), sink=events.append, **kw)
    return agent, events


def test_the_prompt_after_a_failed_check_holds_the_task_the_failed_action_and_its_verdict(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    task = toy_benchmark.tasks()[0]  # 1 + 1
    replies = ["Thought: a\nAction: check\n```text\n3\n```", "Thought: b\nAction: check\n```text\n4\n```",
               "Action: submit\n```text\n2\n```"]
    agent, events = _agent(toy_benchmark, replies, limits=FOCUSED)
    outcome = agent.run(task)
    assert outcome.solved and outcome.evaluator_calls == 2 and outcome.failed_attempts == 2
    calls = agent.llm.calls  # type: ignore[attr-defined]
    third = calls[2]
    assert [m.role for m in third] == ["system", "user"]  # no history: neither answer nor observation
    prompt = third[1].content
    assert toy_benchmark.render_task(task) in prompt
    last = prompt.index("## Your last action")
    assert prompt.index("```text\n4\n```") > last  # the last failed action in full
    assert prompt.index("Earlier actions of yours that failed") < prompt.index("```text\n3\n```") < last
    assert "FAILED" in prompt and "wrong sum" in prompt
    assert prompt.rstrip().endswith("code block.")
    assert [e.kind for e in events] == ["llm", "check", "llm", "check", "llm", "submit"]
    llm_events = [e for e in events if e.kind == "llm"]
    assert llm_events[2].messages == third  # the transcript records the whole fresh prompt
    assert prompt_of(events, events.index(llm_events[2])) == third  # and rebuilds it as sent


def test_history_mode_keeps_the_whole_episode(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    task = toy_benchmark.tasks()[0]
    agent, _ = _agent(toy_benchmark, ["Action: check 3", "Action: check 4", "Action: submit 2"])
    agent.run(task)
    third = agent.llm.calls[2]  # type: ignore[attr-defined]
    assert [m.role for m in third] == ["system", "user", "assistant", "user", "assistant", "user"]


def test_a_focused_prompt_does_not_grow_with_the_steps(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    task = toy_benchmark.tasks()[0]
    replies = ["Action: check 3", "Action: check 4", "Action: check 5", "Action: check 6", "Action: submit 2"]
    history, _ = _agent(toy_benchmark, replies, limits=AgentLimits(max_steps=6))
    focused, _ = _agent(toy_benchmark, replies, limits=AgentLimits(max_steps=6, after_failure="focused"))
    history.run(task)
    focused.run(task)

    def sizes(agent: ReActAgent) -> list[int]:
        return [sum(len(m.content) for m in call) for call in agent.llm.calls]  # type: ignore[attr-defined]

    bounded = sizes(focused)
    assert bounded[3] == bounded[4]  # the last failed action and at most two earlier ones, whatever the step
    grown = sizes(history)
    assert all(a < b for a, b in pairwise(grown))  # the history grows with every step


def test_a_repeated_action_is_named_so_that_the_next_prompt_differs(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    task = toy_benchmark.tasks()[0]
    agent, _ = _agent(toy_benchmark, ["Action: check 3", "Action: check 3", "Action: submit 2"], limits=FOCUSED)
    assert agent.run(task).solved
    second, third = (call[1].content for call in agent.llm.calls[1:])  # type: ignore[attr-defined]
    assert "same action before" not in second and "same action before" in third
    assert "Earlier actions" not in third  # a repeat is not listed as an earlier, other action


class _Memory:
    def __init__(self) -> None:
        self.decisions: list[Decision] = []

    def advise(self, decision: Decision) -> Advice | None:
        self.decisions.append(decision)
        return Advice(text=f"advice {len(self.decisions)}", record_id=f"r{len(self.decisions)}")

    def feedback(self, decision: Decision, advice: Advice | None, outcome: Outcome) -> None:
        pass


def test_advice_after_a_failed_check_goes_into_the_fresh_prompt_and_earlier_advice_leaves_it(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    task = toy_benchmark.tasks()[0]
    memory = _Memory()
    agent, _ = _agent(
        toy_benchmark, ["Action: check 3", "Action: submit 2"], limits=FOCUSED, memory=memory,
        token_counter=lambda text: len(text.split()),
    )
    outcome = agent.run(task)
    assert len(memory.decisions) == 2
    assert memory.decisions[1].last_action is not None and memory.decisions[1].last_action.content == "3"
    first, second = (call[1].content for call in agent.llm.calls)  # type: ignore[attr-defined]
    assert "advice 1" in first
    assert "advice 2" in second and "advice 1" not in second
    assert second.index("advice 2") > second.index("wrong sum")  # after the verdict, before the instruction
    assert second.index("advice 2") < second.index("Correct YOUR action")
    words = len(f"{ADVICE_HEADER}\nadvice 1".split())  # both blocks have as many words
    assert outcome.augmentation_tokens == 2 * words  # each call counts only the advice in its own prompt
    assert outcome.advice_record_ids == ["r1", "r2"]

    history, _ = _agent(
        toy_benchmark, ["Action: check 3", "Action: submit 2"], memory=_Memory(),
        token_counter=lambda text: len(text.split()),
    )
    assert history.run(task).augmentation_tokens == 3 * words  # the first advice is still in the history
