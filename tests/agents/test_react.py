from countermem.agents import Advice, AgentLimits, Decision, Outcome, ReActAgent
from countermem.core import LLMError
from countermem.llm import ScriptedLLM


def _agent(bench, replies, **kw):  # type: ignore[no-untyped-def]
    events = []
    agent = ReActAgent(ScriptedLLM(replies), bench, bench.world_model(), sink=events.append, **kw)
    return agent, events


def test_check_then_submit(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    task = toy_benchmark.tasks()[0]  # 1 + 1
    agent, events = _agent(
        toy_benchmark,
        ["Thought: guess\nAction: check\n```text\n3\n```", "Thought: fix\nAction: submit\n```text\n2\n```"],
    )
    outcome = agent.run(task)
    assert outcome.solved and outcome.submitted and not outcome.forced_submit
    assert outcome.evaluator_calls == 1
    assert outcome.failed_attempts == 1
    assert outcome.steps == 2
    assert [e.kind for e in events] == ["llm", "check", "llm", "submit"]
    assert outcome.usage.prompt_tokens > 0 and outcome.usage.completion_tokens > 0
    observation = agent.llm.calls[1][-1].content  # type: ignore[attr-defined]
    assert "FAILED" in observation and "wrong sum" in observation


def test_malformed_answer_counts_and_reprompts(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    task = toy_benchmark.tasks()[0]
    agent, events = _agent(toy_benchmark, ["the answer is 2", "Action: submit 2"])
    outcome = agent.run(task)
    assert outcome.solved
    assert outcome.parse_errors == 1 and outcome.failed_attempts == 1
    assert "did not follow the format" in agent.llm.calls[1][-1].content  # type: ignore[attr-defined]
    assert events[1].kind == "parse_error"


def test_step_limit_grades_last_checked_action(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    task = toy_benchmark.tasks()[0]
    replies = ["Action: check 5", "Action: check 2", "Action: check 7"]
    agent, _ = _agent(toy_benchmark, replies, limits=AgentLimits(max_steps=3))
    outcome = agent.run(task)
    assert outcome.stop_reason == "step_limit" and outcome.forced_submit
    assert not outcome.solved and outcome.final_action is not None
    assert outcome.final_action.content == "7"
    assert outcome.evaluator_calls == 3 and outcome.failed_attempts == 2


def test_no_action_at_all_is_unsolved(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    task = toy_benchmark.tasks()[0]
    agent, _ = _agent(toy_benchmark, ["nothing"] * 2, limits=AgentLimits(max_steps=2))
    outcome = agent.run(task)
    assert not outcome.solved and outcome.final_action is None and outcome.final_status == "none"


def test_token_limit_stops(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    task = toy_benchmark.tasks()[0]
    agent, _ = _agent(toy_benchmark, ["Action: check 5"] * 5, limits=AgentLimits(max_tokens=60))
    outcome = agent.run(task)
    assert outcome.stop_reason == "token_limit"
    assert outcome.steps < 5


def test_llm_error_propagates(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    task = toy_benchmark.tasks()[0]
    agent, _ = _agent(toy_benchmark, [LLMError("boom")])
    try:
        agent.run(task)
    except LLMError as error:
        assert "boom" in str(error)
    else:
        raise AssertionError("the LLM error was swallowed")


class _Memory:
    def __init__(self) -> None:
        self.decisions: list[Decision] = []
        self.feedback_calls: list[Outcome] = []

    def advise(self, decision: Decision) -> Advice | None:
        self.decisions.append(decision)
        return Advice(text="Add the two numbers exactly.", record_id="r1", retrieval_tokens=3)

    def feedback(self, decision: Decision, advice: Advice | None, outcome: Outcome) -> None:
        self.feedback_calls.append(outcome)


def test_memory_hook_is_rendered_and_counted(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    task = toy_benchmark.tasks()[0]
    memory = _Memory()
    agent, _ = _agent(
        toy_benchmark,
        ["Action: check 3", "Action: submit 2"],
        memory=memory,
        token_counter=lambda text: len(text.split()),
    )
    outcome = agent.run(task)
    assert len(memory.decisions) == 2  # at the start and after the failed check
    assert memory.decisions[1].last_result is not None and not memory.decisions[1].last_result.passed
    first_prompt = agent.llm.calls[0][1].content  # type: ignore[attr-defined]
    assert "Add the two numbers exactly." in first_prompt
    assert outcome.retrieval_tokens == 6
    assert outcome.augmentation_tokens > 0
    assert outcome.advice_record_ids == ["r1", "r1"]
    assert len(memory.feedback_calls) == 2 and memory.feedback_calls[0].solved
    assert outcome.task_run_tokens == outcome.usage.total + outcome.retrieval_tokens


def test_reflexion_retries_with_reflection(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    from countermem.agents import ReflexionAgent

    task = toy_benchmark.tasks()[0]
    replies = [
        "Action: submit 3",
        "I added wrong; I will add carefully.",
        "Action: submit 2",
    ]
    events: list = []
    agent = ReflexionAgent(ScriptedLLM(replies), toy_benchmark, toy_benchmark.world_model(),
                           sink=events.append, max_trials=3)
    outcome = agent.run(task)
    assert outcome.solved and outcome.trials == 2
    assert outcome.evaluator_calls == 1  # the failed first trial's verdict was used as feedback
    assert outcome.failed_attempts == 1
    second_prompt = agent.llm.calls[2][1].content  # type: ignore[attr-defined]
    assert "I added wrong" in second_prompt
    assert [e.kind for e in events].count("reflection") == 1


def test_reflexion_stops_after_max_trials(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    from countermem.agents import ReflexionAgent

    task = toy_benchmark.tasks()[0]
    replies = ["Action: submit 3", "r1", "Action: submit 4", "r2", "Action: submit 5"]
    agent = ReflexionAgent(ScriptedLLM(replies), toy_benchmark, toy_benchmark.world_model(), max_trials=3)
    outcome = agent.run(task)
    assert not outcome.solved and outcome.trials == 3
    assert outcome.final_action is not None and outcome.final_action.content == "5"
    assert outcome.failed_attempts == 3 and outcome.evaluator_calls == 2


def test_bare_submit_submits_last_checked(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    task = toy_benchmark.tasks()[0]
    agent, _ = _agent(toy_benchmark, ["Action: check 2", "Action: submit"])
    outcome = agent.run(task)
    assert outcome.solved and outcome.submitted and outcome.parse_errors == 0
    assert outcome.final_action is not None and outcome.final_action.content == "2"


def test_bare_submit_without_a_check_is_malformed(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    task = toy_benchmark.tasks()[0]
    agent, _ = _agent(toy_benchmark, ["Action: submit", "Action: submit 2"])
    outcome = agent.run(task)
    assert outcome.solved and outcome.parse_errors == 1 and outcome.failed_attempts == 1


def test_reflexion_retry_starts_at_a_decision_after_the_failed_action(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    from countermem.agents import ReflexionAgent

    task = toy_benchmark.tasks()[0]
    memory = _Memory()
    replies = ["Action: submit 3", "I added wrong.", "Action: submit 2"]
    agent = ReflexionAgent(ScriptedLLM(replies), toy_benchmark, toy_benchmark.world_model(), memory=memory,
                           max_trials=3)
    assert agent.run(task).solved
    first, retry = memory.decisions
    assert first.trial == 0 and first.last_action is None
    assert retry.trial == 1 and retry.step == 0
    assert retry.last_action is not None and retry.last_action.content == "3"
    assert retry.last_result is not None and not retry.last_result.passed
    assert retry.facts == toy_benchmark.facts(task, retry.last_action)


def test_an_unterminated_block_is_checked_and_noted(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    task = toy_benchmark.tasks()[0]  # 1 + 1
    agent, events = _agent(toy_benchmark, ["Action: check\n```text\n3", "Action: submit\n```text\n2"])
    outcome = agent.run(task)
    assert outcome.solved and outcome.parse_errors == 0 and outcome.evaluator_calls == 1
    assert outcome.failed_attempts == 1
    checked = [e for e in events if e.kind in ("check", "submit")]
    assert [e.action.content for e in checked] == ["3", "2"]  # type: ignore[union-attr]
    assert all("never closed" in e.text for e in checked)


def test_a_malformed_answer_is_a_failed_action_memory_hears_about(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    from countermem.core import MALFORMED_FACT

    task = toy_benchmark.tasks()[0]
    memory = _Memory()
    agent, _ = _agent(toy_benchmark, ["I think it is 2", "Action: submit 2"], memory=memory,
                      limits=AgentLimits(memory_after_malformed=True))
    outcome = agent.run(task)
    assert outcome.solved and outcome.parse_errors == 1 and outcome.failed_attempts == 1
    assert outcome.evaluator_calls == 0  # no checker saw the malformed answer
    start, after = memory.decisions
    assert start.last_action is None and start.facts.get(MALFORMED_FACT) is None
    assert after.step == 1 and after.last_action is not None
    assert after.last_action.content == "I think it is 2"
    assert after.last_result is not None and after.last_result.status == "malformed"
    assert not after.last_result.passed and after.last_result.utility == 0.0
    assert "no line 'Action: check'" in after.last_result.details
    assert after.facts.get(MALFORMED_FACT) is True
    assert {k: v for k, v in after.facts.values.items() if k != MALFORMED_FACT} == toy_benchmark.facts(task, None).values
    reprompt = agent.llm.calls[1][-1].content  # type: ignore[attr-defined]
    advice_at = reprompt.index("Add the two numbers exactly.")
    assert advice_at < reprompt.index("Your answer did not follow the format")  # the instruction comes last
    assert outcome.advice_record_ids == ["r1", "r1"]


def test_an_empty_malformed_answer_has_a_visible_action(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    from countermem.agents._react import EMPTY_ANSWER

    memory = _Memory()
    agent, _ = _agent(toy_benchmark, ["   ", "Action: submit 2"], memory=memory,
                      limits=AgentLimits(memory_after_malformed=True))
    assert agent.run(toy_benchmark.tasks()[0]).solved
    assert memory.decisions[1].last_action is not None
    assert memory.decisions[1].last_action.content == EMPTY_ANSWER


def test_by_default_memory_is_not_consulted_after_a_malformed_answer(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    memory = _Memory()
    agent, _ = _agent(toy_benchmark, ["I think it is 2", "Action: submit 2"], memory=memory)
    outcome = agent.run(toy_benchmark.tasks()[0])
    assert outcome.solved and outcome.parse_errors == 1
    assert [d.step for d in memory.decisions] == [0]  # only the task's start
    assert agent.llm.calls[1][-1].content.startswith("Your answer did not follow the format")  # type: ignore[attr-defined]


def test_after_a_failed_check_the_decision_carries_the_domains_error_kind(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    from countermem.core import CHECK_ERROR_FACT, CheckResult

    class Named(type(toy_benchmark)):  # type: ignore[misc]
        def error_kind(self, result: CheckResult) -> str | None:
            return "wrong_sum"

    bench = Named()
    task = bench.tasks()[0]
    memory = _Memory()
    agent, _ = _agent(bench, ["Action: check\n```text\n3\n```", "Action: submit\n```text\n2\n```"], memory=memory)
    assert agent.run(task).solved
    start, after = memory.decisions
    assert start.facts.get(CHECK_ERROR_FACT) is None
    assert after.facts.get(CHECK_ERROR_FACT) == "wrong_sum"
    assert {k: v for k, v in after.facts.values.items() if k != CHECK_ERROR_FACT} == bench.facts(task, after.last_action).values
