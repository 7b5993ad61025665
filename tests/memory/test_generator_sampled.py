"""The sampled generator: one alternative per call, greedy then seeds, copies dropped and redrawn."""

from __future__ import annotations

import re

from countermem.core import Action, CheckResult, Cost, Facts, Task, Usage
from countermem.domains import State
from countermem.llm import Completion, GenerationParams, Message
from countermem.memory import (
    Admitter,
    ConditionContext,
    GenerationRequest,
    Generator,
    GeneratorSettings,
    SQLiteStore,
    learn_from_failure,
    parse_single,
)

FAILED = Action(content="SELECT price FROM orders")
FAILED_RESULT = CheckResult(utility=0.0, passed=False, completed=True, status="wrong", details="1 row, wanted 3")


class RecordingLLM:
    """Replies from a list and records the parameters of every call."""

    backend = "scripted"

    def __init__(self, replies: list[str]) -> None:
        self.replies = list(replies)
        self.params: list[GenerationParams] = []
        self.messages: list[list[Message]] = []

    @property
    def name(self) -> str:
        return "scripted:recording"

    def complete(self, messages: list[Message], params: GenerationParams | None = None) -> Completion:
        assert params is not None
        self.params.append(params)
        self.messages.append(messages)
        text = self.replies.pop(0)
        return Completion(text=text, usage=Usage(prompt_tokens=10, completion_tokens=len(text.split())),
                          model="recording", backend="scripted")


def sql(query: str) -> str:
    return f"Fix: something\n```sql\n{query}\n```"


def request(**overrides: object) -> GenerationRequest:
    fields: dict[str, object] = {
        "domain": "sql", "benchmark": "sql-shop", "action_language": "sql",
        "situation": "Question: list all prices", "failed_action": FAILED, "failed_result": FAILED_RESULT,
        "instructions": "Answer with ONE SQLite query. MARKER-OF-INSTRUCTIONS",
    }
    fields.update(overrides)
    return GenerationRequest.model_validate(fields)


def test_greedy_then_distinct_seeds_copies_dropped_and_redrawn() -> None:
    llm = RecordingLLM([
        sql(FAILED.content),  # greedy copies the failed action
        sql("SELECT a"),
        sql("SELECT  a"),  # duplicate after whitespace normalisation
        sql("SELECT b"),
        sql("SELECT c"),
        sql("SELECT d"),  # extra draw replacing a wasted one
    ])
    generator = Generator(llm, settings=GeneratorSettings(samples=4, extra_draws=2))
    proposal = generator.propose(request())
    assert [a.action.content for a in proposal.alternatives] == ["SELECT a", "SELECT b", "SELECT c", "SELECT d"]
    assert proposal.calls == 6 and generator.calls == 6 and not llm.replies
    assert llm.params[0].temperature == 0.0
    assert all(p.temperature == 0.8 for p in llm.params[1:])
    seeds = [p.seed for p in llm.params]
    assert len(set(seeds)) == len(seeds)
    assert all(p.max_tokens == 384 for p in llm.params), "sql gets its own max_tokens"
    assert any("identical to the failed action" in p for p in proposal.problems)
    assert any("duplicate of alternative 1" in p for p in proposal.problems)
    assert proposal.usage.prompt_tokens == 60
    assert proposal.alternatives[0].rationale == "something"


def test_no_extra_draws_when_nothing_was_wasted_and_stop_at_four() -> None:
    llm = RecordingLLM([sql(f"SELECT {i}") for i in range(10)])
    proposal = Generator(llm, settings=GeneratorSettings(samples=4)).propose(request())
    assert len(proposal.alternatives) == 4
    assert proposal.calls == 4, "greedy + 3 samples already give 4 distinct alternatives"


def test_extra_draws_are_bounded() -> None:
    llm = RecordingLLM([sql(FAILED.content)] * 10)
    proposal = Generator(llm, settings=GeneratorSettings(samples=2, extra_draws=2)).propose(request())
    assert proposal.alternatives == []
    assert proposal.calls == 5
    assert any("no usable alternative in 5 call(s)" in p for p in proposal.problems)


def test_prompt_carries_the_agent_instructions_and_no_condition_request() -> None:
    llm = RecordingLLM([sql("SELECT 1")] * 5)
    Generator(llm, settings=GeneratorSettings(samples=0)).propose(request())
    system, user = llm.messages[0]
    assert "MARKER-OF-INSTRUCTIONS" in system.content
    assert "Condition" not in system.content
    assert FAILED.content in user.content and "1 row, wanted 3" in user.content


def test_model_conditions_are_asked_for_when_configured() -> None:
    llm = RecordingLLM(["Fix: x\nCondition: n_rows > 1\n```sql\nSELECT 2\n```"])
    settings = GeneratorSettings(samples=0, conditions="model")
    proposal = Generator(llm, settings=settings).propose(request(facts=Facts(values={"n_rows": 3})))
    assert "Condition" in llm.messages[0][0].content and "n_rows = 3" in llm.messages[0][1].content
    assert proposal.alternatives[0].condition_text == "n_rows > 1"


def test_resolve_mode_takes_the_whole_reply_fenced_or_not() -> None:
    reply = "Let x = 2.\nThen 2x = 4.\nAnswer: 4"
    alternative, problem = parse_single(reply, action_language="text", mode="resolve")
    assert problem is None and alternative is not None
    assert alternative.action.content == reply
    fenced, _ = parse_single("```text\nAnswer: 4\n```", action_language="text", mode="resolve")
    assert fenced is not None and fenced.action.content == "Answer: 4"
    llm = RecordingLLM([reply])
    Generator(llm, settings=GeneratorSettings(samples=0)).propose(
        request(action_language="text", mode="resolve", instructions="end with Answer:")
    )
    assert "Solve the task again" in llm.messages[0][0].content
    assert llm.params[0].max_tokens == 1024


def test_edit_mode_drops_a_truncated_block_and_prefers_the_tagged_one() -> None:
    missing, problem = parse_single("Fix: y\n```sql\nSELECT 1 FROM", action_language="sql")
    assert missing is None and problem is not None and "unterminated" in problem
    chosen, _ = parse_single("```text\nnotes\n```\n```sql\nSELECT 9\n```", action_language="sql")
    assert chosen is not None and chosen.action.content == "SELECT 9"


class ToyWorld:
    def __init__(self) -> None:
        self.value = 0

    def reset(self, task: Task) -> State:
        return State(task_id=task.id, payload=0)

    def snapshot(self) -> State:
        return State(task_id="t", payload=0)

    def restore(self, state: State) -> None:
        self.value = state.payload

    def check(self, action: Action) -> CheckResult:
        match = re.search(r"u=([0-9.]+)", action.content)
        utility = float(match.group(1)) if match else 0.0
        return CheckResult(utility=utility, passed=utility == 1.0, completed=True,
                           status="passed" if utility == 1.0 else "wrong", cost=Cost(calls=1))


def test_learn_from_failure_admits_with_a_derived_condition(tmp_path: object) -> None:
    from pathlib import Path

    task = Task(id="t", benchmark="toy", domain="toy", prompt="reach 1", environment="env-a")

    def facts_of(task: Task, action: Action | None) -> Facts:
        values: dict[str, bool | int | str | tuple[str, ...]] = {"env": "env-a", "hard": True}
        if action is not None:
            values["mentions_u"] = "u=" in action.content
        return Facts(values=values)

    failed = Action(content="try 0")
    llm = RecordingLLM(["```text\nu=0.02\n```", "```text\nu=1.0\n```", "```text\nu=0.5\n```"])
    with SQLiteStore(Path(str(tmp_path)) / "s.sqlite") as store:
        _proposal, report = learn_from_failure(
            Generator(llm, settings=GeneratorSettings(samples=2, extra_draws=0)),
            Admitter(store),
            task=task, world_model=ToyWorld(), state=State(task_id="t", payload=0), failed_action=failed,
            failed_result=CheckResult(utility=0.0, passed=False, completed=True, status="wrong"),
            facts=facts_of(task, failed), situation="reach 1", action_language="text",
            conditions=ConditionContext(facts_of=facts_of),
        )
        assert report.admitted and report.record is not None
        assert report.record.improved_action.content == "u=1.0"
        assert str(report.record.condition) == "not mentions_u and hard"
        assert [v.verdict for v in report.verdicts] == ["below_threshold", "admitted", "not_best"]
        assert len(store.all()) == 1


def test_grammar_goes_with_every_edit_draw_when_asked_and_never_with_resolve() -> None:
    from countermem.memory._grammar import edit_grammar

    plain = RecordingLLM([sql("SELECT 1"), sql("SELECT 2")])
    Generator(plain, settings=GeneratorSettings(samples=1)).propose(request())
    assert all(p.grammar is None for p in plain.params)
    held = RecordingLLM([sql("SELECT 1"), sql("SELECT 2")])
    Generator(held, settings=GeneratorSettings(samples=1, grammar=True)).propose(request())
    assert [p.grammar for p in held.params] == [edit_grammar("sql")] * 2
    resolve = RecordingLLM(["The answer is 4. #### 4", "So #### 5"])
    Generator(resolve, settings=GeneratorSettings(samples=1, grammar=True)).propose(
        request(mode="resolve", action_language="text")
    )
    assert all(p.grammar is None for p in resolve.params)
