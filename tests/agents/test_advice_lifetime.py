"""`Advice.expires`: advice shown for one reply leaves the prompt once the model has answered it."""

from countermem.agents import Advice, AgentLimits, Decision, Outcome, ReActAgent, prompt_of
from countermem.agents._prompts import ADVICE_HEADER, ANSWER_IN_ADVICE_NOTE, EXPIRED_ADVICE_NOTE
from countermem.llm import ScriptedLLM


class _Memory:
    def __init__(self, expires: bool) -> None:
        self.expires = expires
        self.count = 0

    def advise(self, decision: Decision) -> Advice | None:
        self.count += 1
        return Advice(text=f"advice {self.count}", record_id=f"r{self.count}", expires=self.expires)

    def feedback(self, decision: Decision, advice: Advice | None, outcome: Outcome) -> None:
        pass


def _run(bench, expires: bool, limits: AgentLimits | None = None):  # type: ignore[no-untyped-def]
    events: list = []
    agent = ReActAgent(
        ScriptedLLM(["Action: check 3", "Action: check 4", "Action: submit 2"]), bench, bench.world_model(),
        memory=_Memory(expires), token_counter=lambda text: len(text.split()), sink=events.append,
        limits=limits,
    )
    outcome = agent.run(bench.tasks()[0])
    return agent, outcome, events


def _text(call) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(m.content for m in call)


def test_expiring_advice_is_in_the_one_prompt_it_informs_and_a_note_stands_in_for_it(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    agent, outcome, _ = _run(toy_benchmark, expires=True)
    assert outcome.solved and outcome.advice_record_ids == ["r1", "r2", "r3"]
    first, second, third = (_text(call) for call in agent.llm.calls)  # type: ignore[attr-defined]
    assert "advice 1" in first
    assert "advice 1" not in second and EXPIRED_ADVICE_NOTE.format(record_id="r1") in second
    assert "advice 2" in second
    assert "advice 2" not in third and "advice 3" in third
    assert EXPIRED_ADVICE_NOTE.format(record_id="r2") in third
    assert third.count(ADVICE_HEADER) == 1
    words = len(f"{ADVICE_HEADER}\nadvice 1".split())
    assert outcome.augmentation_tokens == 3 * words  # each block counted for its one call


def test_advice_that_does_not_expire_stays_and_is_paid_at_every_later_call(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    agent, outcome, _ = _run(toy_benchmark, expires=False)
    third = _text(agent.llm.calls[2])  # type: ignore[attr-defined]
    assert "advice 1" in third and "advice 2" in third and "advice 3" in third
    words = len(f"{ADVICE_HEADER}\nadvice 1".split())
    assert outcome.augmentation_tokens == (1 + 2 + 3) * words


def test_the_transcript_rebuilds_every_prompt_after_advice_left_it(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    for limits in (None, AgentLimits(after_failure="focused")):
        agent, _, events = _run(toy_benchmark, expires=True, limits=limits)
        calls = agent.llm.calls  # type: ignore[attr-defined]
        llm_events = [i for i, e in enumerate(events) if e.kind == "llm"]
        assert len(llm_events) == len(calls) == 3
        for index, call in zip(llm_events, calls, strict=True):
            assert prompt_of(events, index) == call


class _FormRepairMemory:
    """Advice after the malformed answer only, saying (or not) that it shows that answer."""

    def __init__(self, holds: bool) -> None:
        self.holds = holds

    def advise(self, decision: Decision) -> Advice | None:
        if decision.last_result is None or decision.last_result.status != "malformed":
            return None
        return Advice(text="the corrected answer", record_id="r1", holds_last_answer=self.holds)

    def feedback(self, decision: Decision, advice: Advice | None, outcome: Outcome) -> None:
        pass


def _run_malformed(bench, holds: bool):  # type: ignore[no-untyped-def]
    events: list = []
    agent = ReActAgent(
        ScriptedLLM(["MALFORMED draft 3 without an action line", "Action: check 3", "Action: submit 2"]),
        bench, bench.world_model(), memory=_FormRepairMemory(holds),
        token_counter=lambda text: len(text.split()), sink=events.append,
        limits=AgentLimits(memory_after_malformed=True),
    )
    return agent, agent.run(bench.tasks()[0]), events


def test_advice_that_shows_the_last_answer_takes_its_place_in_the_history(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    agent, outcome, events = _run_malformed(toy_benchmark, holds=True)
    calls = agent.llm.calls  # type: ignore[attr-defined]
    assert outcome.parse_errors == 1 and outcome.advice_record_ids == ["r1"]
    for later in calls[1:]:
        assert "MALFORMED draft" not in _text(later)
        assert next(m.content for m in later if m.role == "assistant") == ANSWER_IN_ADVICE_NOTE
    assert "the corrected answer" in _text(calls[1])
    llm_events = [i for i, e in enumerate(events) if e.kind == "llm"]
    for index, call in zip(llm_events, calls, strict=True):
        assert prompt_of(events, index) == call


def test_advice_that_does_not_show_the_last_answer_leaves_the_history_alone(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    agent, _, _ = _run_malformed(toy_benchmark, holds=False)
    calls = agent.llm.calls  # type: ignore[attr-defined]
    assert all("MALFORMED draft" in _text(later) for later in calls[1:])
    assert ANSWER_IN_ADVICE_NOTE not in _text(calls[-1])
