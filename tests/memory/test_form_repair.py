"""Form repairs: the malformed answer's own code block as a free first alternative, conditioned on
the slip alone, and shown to a later agent applied to that agent's own block."""

from __future__ import annotations

from pathlib import Path

from countermem.core import (
    MALFORMED_BLOCK_FACT,
    MALFORMED_FACT,
    Action,
    CheckResult,
    Cost,
    Decision,
    Facts,
    Task,
    Usage,
    facts_after,
    malformed_result,
    parse_record_texts,
    salvaged_block,
    with_malformed_fact,
)
from countermem.domains import State
from countermem.llm import Completion, GenerationParams, Message
from countermem.memory import (
    FORM_REPAIR_RATIONALE,
    Admitter,
    AdvisorOptions,
    ConditionContext,
    CounterfactualMemory,
    GenerationRequest,
    Generator,
    GeneratorSettings,
    Record,
    RecordSource,
    Retriever,
    SQLiteStore,
    form_repair_alternative,
    is_form_repair,
    learn_from_failure,
    make_embedder,
)
from countermem.memory._advisor import render_record
from countermem.selector import TopOne

CODE = "def add(a, b):\n    return a + b"
MALFORMED = f"Here is the function:\n```python\n{CODE}\n```\nIt adds the numbers."
TASK = Task(id="t", benchmark="toy", domain="coding", prompt="write add", environment="env")


class NoLLM:
    """Fails the test if the generator calls it."""

    backend = "scripted"
    name = "scripted:none"

    def complete(self, messages: list[Message], params: GenerationParams | None = None) -> Completion:
        raise AssertionError("a form repair needs no LLM call")


class Replies:
    backend = "scripted"
    name = "scripted:replies"

    def __init__(self, replies: list[str]) -> None:
        self.replies = list(replies)
        self.calls = 0

    def complete(self, messages: list[Message], params: GenerationParams | None = None) -> Completion:
        self.calls += 1
        return Completion(text=self.replies.pop(0), usage=Usage(prompt_tokens=1, completion_tokens=1),
                          model="r", backend="scripted")


class AddWorld:
    """Passes an action that defines `add` correctly."""

    def reset(self, task: Task) -> State:
        return State(task_id=task.id, payload=0)

    def snapshot(self) -> State:
        return State(task_id="t", payload=0)

    def restore(self, state: State) -> None:
        pass

    def check(self, action: Action) -> CheckResult:
        ok = action.content.strip() == CODE
        return CheckResult(utility=float(ok), passed=ok, completed=True, status="passed" if ok else "wrong",
                           cost=Cost(calls=1))


def facts_of(task: Task, action: Action | None) -> Facts:
    values: dict[str, bool | int | str | tuple[str, ...]] = {"returns_value": True, "function_name": "add"}
    if action is not None:
        values["defines_function"] = "def " in action.content
    return Facts(values=values)


def request(answer: str = MALFORMED, result: CheckResult | None = None) -> GenerationRequest:
    return GenerationRequest(
        domain="coding", benchmark="toy", action_language="python", situation="write add",
        failed_action=Action(content=answer), failed_result=result or malformed_result("no Action line"),
        salvaged=salvaged_block(answer),
    )


def test_salvaged_block_is_the_longest_closed_nonempty_block() -> None:
    assert salvaged_block(MALFORMED) == CODE
    usage = f"```python\n{CODE}\n```\nUsage:\n```python\nadd(1, 2)\n```"
    assert salvaged_block(usage) == CODE, "a usage example after the code is not the action"
    assert salvaged_block("def add(a, b): return a + b") is None
    assert salvaged_block("```python\ndef add(a, b):\n    return a + b") is None, "an unclosed block is no block"
    assert salvaged_block("```python\n\n```") is None


def test_the_decision_after_a_malformed_answer_with_a_block_says_so() -> None:
    after = facts_after(facts_of, TASK, Action(content=MALFORMED), malformed_result("x"))
    assert after.get(MALFORMED_FACT) is True and after.get(MALFORMED_BLOCK_FACT) is True
    assert "defines_function" not in after.values
    plain = facts_after(facts_of, TASK, Action(content="I think it adds."), malformed_result("x"))
    assert plain.get(MALFORMED_FACT) is True and plain.get(MALFORMED_BLOCK_FACT) is None
    checked = facts_after(facts_of, TASK, Action(content=CODE), CheckResult(utility=0.0, passed=False, completed=True, status="wrong"))
    assert checked.get(MALFORMED_FACT) is None and checked.get(MALFORMED_BLOCK_FACT) is None
    assert with_malformed_fact(after).get(MALFORMED_BLOCK_FACT) is None, "no answer given, no block known"


def test_form_repair_is_the_first_alternative_and_costs_no_call() -> None:
    generator = Generator(NoLLM(), settings=GeneratorSettings(greedy=False, samples=0))  # type: ignore[arg-type]
    proposal = generator.propose(request())
    (alternative,) = proposal.alternatives
    assert alternative.form_repair and alternative.action.content == CODE
    assert alternative.rationale == FORM_REPAIR_RATIONALE
    assert proposal.calls == 0 and generator.calls == 0
    assert form_repair_alternative(request(answer="no code here")) is None
    wrong = CheckResult(utility=0.0, passed=False, completed=True, status="wrong")
    checked = request(result=wrong).model_copy(update={"salvaged": None})
    assert form_repair_alternative(checked) is None, "after a check, only a domain's form fix (`Benchmark.form_fix`)"


def test_form_repair_takes_one_slot_but_no_draw() -> None:
    llm = Replies([MALFORMED, "```python\ndef add(a, b):\n    return b + a\n```", "```python\nx = 1\n```"])
    proposal = Generator(llm, settings=GeneratorSettings(samples=1, extra_draws=1)).propose(request())  # type: ignore[arg-type]
    # greedy repeats the form repair (dropped as a duplicate), so the one extra draw replaces it
    assert [a.form_repair for a in proposal.alternatives] == [True, False, False]
    assert llm.calls == 3 and not llm.replies
    off = Generator(Replies(["```python\nx = 2\n```"]), settings=GeneratorSettings(samples=0, form_repair=False))  # type: ignore[arg-type]
    assert [a.form_repair for a in off.propose(request()).alternatives] == [False]


def test_admitted_form_repair_is_conditioned_on_the_slip_alone(tmp_path: Path) -> None:
    failed = Action(content=MALFORMED)
    decision = facts_after(facts_of, TASK, failed, malformed_result("x"))
    with SQLiteStore(tmp_path / "s.sqlite") as store:
        _proposal, report = learn_from_failure(
            Generator(NoLLM(), settings=GeneratorSettings(greedy=False, samples=0)),  # type: ignore[arg-type]
            Admitter(store), task=TASK, world_model=AddWorld(), state=State(task_id="t", payload=0),
            failed_action=failed, failed_result=malformed_result("x"), facts=decision,
            situation="write add", action_language="python", conditions=ConditionContext(facts_of=facts_of),
            salvaged=salvaged_block(MALFORMED),
        )
        assert report.admitted and report.record is not None
        record = report.record
    assert str(record.condition) == f"{MALFORMED_FACT} and {MALFORMED_BLOCK_FACT}"
    assert is_form_repair(record)
    assert record.applies(decision)
    assert not record.applies(facts_after(facts_of, TASK, Action(content="no code"), malformed_result("x")))
    assert not record.applies(facts_of(TASK, Action(content=CODE)))


def _form_record() -> Record:
    return Record(
        domain="coding", benchmark="toy", situation="write add",
        original_action=Action(content=MALFORMED), improved_action=Action(content=CODE),
        original_check=malformed_result("no Action line"),
        improved_check=CheckResult(utility=1.0, passed=True, completed=True, status="passed"),
        condition=f"{MALFORMED_FACT} and {MALFORMED_BLOCK_FACT}", rationale=FORM_REPAIR_RATIONALE,
        source=RecordSource(task_id="t0", benchmark="toy"),
    )


def test_a_record_that_changed_the_code_is_no_form_repair() -> None:
    record = _form_record()
    assert is_form_repair(record)
    assert not is_form_repair(record.revised(improved_action=Action(content="def add(a, b):\n    return b + a")))
    wrong = CheckResult(utility=0.0, passed=False, completed=True, status="wrong")
    assert not is_form_repair(record.revised(original_check=wrong))


def test_advice_shows_the_repair_applied_to_the_current_answer(tmp_path: Path) -> None:
    own = "def mul(a, b):\n    return a * b"
    answer = Action(content=f"Sure:\n```python\n{own}\n```")
    record = _form_record()
    text = render_record(record, "python", last_action=answer, salvaged=salvaged_block(answer.content))
    assert f"Action: check\n```python\n{own}\n```" in text
    assert CODE not in text, "the source task's code is not shown"
    assert parse_record_texts(text) == []
    plain = render_record(record, "python")
    assert parse_record_texts(plain)[0].improved.endswith(f"{CODE}\n```"), "without a current block: as stored"

    with SQLiteStore(tmp_path / "s.sqlite") as store:
        store.add(record)
        memory = CounterfactualMemory(Retriever(store, make_embedder("lexical")), TopOne(),
                                      action_language="python", store=store)
        mul = Task(id="m", benchmark="toy", domain="coding", prompt="write mul")
        facts = facts_after(facts_of, mul, answer, malformed_result("x"))
        advice = memory.advise(Decision(task=mul, situation="write mul", facts=facts, step=1,
                                        last_action=answer, last_result=malformed_result("x"), salvaged=own))
        assert advice is not None and own in advice.text and CODE not in advice.text
        no_block = Action(content="I would multiply them.")
        facts = facts_after(facts_of, mul, no_block, malformed_result("x"))
        assert memory.advise(Decision(task=mul, situation="write mul", facts=facts, step=2,
                                      last_action=no_block, last_result=malformed_result("x"))) is None


def test_form_repair_condition_comes_from_the_mistake_rung() -> None:
    from countermem.memory import Proposal, derive_for_proposal

    failed = Action(content=MALFORMED)
    decision = facts_after(facts_of, TASK, failed, malformed_result("x"))
    repair = form_repair_alternative(request())
    assert repair is not None
    proposal = Proposal(alternatives=[repair], usage=Usage(), raw_text="", condition_source="derived")
    (out,) = derive_for_proposal(proposal, task=TASK, failed_action=failed, decision=decision,
                                 context=ConditionContext(facts_of=facts_of)).alternatives
    assert out.condition_origin == "derived:mistake"
    assert out.condition_text == f"{MALFORMED_FACT} and {MALFORMED_BLOCK_FACT}"


def test_construction_counts_admitted_form_repairs(tmp_path: Path) -> None:
    from countermem.memory import CounterfactualLearner

    with SQLiteStore(tmp_path / "s.sqlite") as store:
        learner = CounterfactualLearner(
            Generator(NoLLM(), settings=GeneratorSettings(greedy=False, samples=0)),  # type: ignore[arg-type]
            Admitter(store), AddWorld, action_language="python", conditions=ConditionContext(facts_of=facts_of),
        )
        for answer in (MALFORMED, "Sure:\n```python\ndef add(a, b):\n    return a - b\n```"):
            failed = Action(content=answer)
            learner.advise(Decision(task=TASK, situation="write add", step=1, last_action=failed,
                                    last_result=malformed_result("x"),
                                    facts=facts_after(facts_of, TASK, failed, malformed_result("x"))))
        stats = learner.stats
        assert (stats.malformed_seen, stats.malformed_admitted, stats.form_repairs_admitted) == (2, 1, 1)
        assert stats.generator_calls == 0 and stats.world_model_calls == 2


def test_form_repair_text_shows_the_answer_before_and_after() -> None:
    from countermem.agents import parse_step

    own = "def mul(a, b):\n    return a * b"
    text = render_record(_form_record(), "python", last_action=Action(content=f"```python\n{own}\n```"), salvaged=own)
    before, after = text.split("\nbecomes\n")
    assert before.endswith(f"```python\n{own}\n```")
    assert after.startswith("Thought: ")
    step = parse_step(after)
    assert step.verb == "check" and step.action is not None and step.action.content == own


def test_malformed_draws_off_leaves_the_form_repair_and_failed_checks_alone() -> None:
    settings = GeneratorSettings(samples=2, malformed_draws=False)
    proposal = Generator(NoLLM(), settings=settings).propose(request())  # type: ignore[arg-type]
    assert [a.form_repair for a in proposal.alternatives] == [True] and proposal.calls == 0
    llm = Replies(["```python\nx = 1\n```", "```python\nx = 2\n```", "```python\nx = 3\n```"])
    wrong = CheckResult(utility=0.0, passed=False, completed=True, status="wrong")
    checked = Generator(llm, settings=settings).propose(request(answer=CODE, result=wrong))  # type: ignore[arg-type]
    assert len(checked.alternatives) == 3 and llm.calls == 3, "a failed check still gets greedy + 2 samples"


def test_a_free_form_repair_does_not_use_up_the_task_build_budget(tmp_path: Path) -> None:
    from countermem.memory import CounterfactualLearner

    settings = GeneratorSettings(greedy=True, samples=0, malformed_draws=False, failures_per_task=1)
    llm = Replies(["```python\nx = 1\n```", "```python\nx = 2\n```", "```python\nx = 3\n```"])
    with SQLiteStore(tmp_path / "s.sqlite") as store:
        learner = CounterfactualLearner(
            Generator(llm, settings=settings), Admitter(store), AddWorld,  # type: ignore[arg-type]
            action_language="python", conditions=ConditionContext(facts_of=facts_of),
        )
        wrong = CheckResult(utility=0.0, passed=False, completed=True, status="wrong")
        answers = [(MALFORMED, malformed_result("x")), ("def add(a, b):\n    return a - b", wrong),
                   ("def add(a, b):\n    return a * b", wrong)]
        for answer, result in answers:
            failed = Action(content=answer)
            learner.advise(Decision(task=TASK, situation="write add", step=1, last_action=failed, last_result=result,
                                    facts=facts_after(facts_of, TASK, failed, result)))
        stats = learner.stats
        assert stats.failures_seen == 2 and stats.failures_skipped == 1
        assert llm.calls == 1, "the first failed check reaches the generator after the free form repair"


def test_without_block_draws_only_for_a_malformed_answer_with_nothing_to_salvage() -> None:
    settings = GeneratorSettings(samples=1, malformed_draws="without_block")
    repaired = Generator(NoLLM(), settings=settings).propose(request())  # type: ignore[arg-type]
    assert [a.form_repair for a in repaired.alternatives] == [True] and repaired.calls == 0
    llm = Replies(["```python\nx = 1\n```", "```python\nx = 2\n```"])
    unopened = "Action: check\ndef add(a, b):\n    return a + b\n```"
    drawn = Generator(llm, settings=settings).propose(request(answer=unopened))  # type: ignore[arg-type]
    assert llm.calls == 2 and not any(a.form_repair for a in drawn.alternatives)
    assert settings.draws_after_malformed(salvaged_block(unopened))
    assert not settings.draws_after_malformed(salvaged_block(MALFORMED))
    assert GeneratorSettings(malformed_draws=False).draws_after_malformed(None) is False


def test_malformed_draws_takes_a_bool_or_without_block_only() -> None:
    import pydantic
    import pytest

    assert GeneratorSettings.model_validate({"malformed_draws": "without_block"}).malformed_draws == "without_block"
    assert GeneratorSettings.model_validate({"malformed_draws": False}).malformed_draws is False
    with pytest.raises(pydantic.ValidationError):
        GeneratorSettings.model_validate({"malformed_draws": "sometimes"})


def test_answer_once_marks_only_a_form_repair_applied_to_the_last_answer(tmp_path: Path) -> None:
    answer = Action(content="Sure:\n```python\ndef mul(a, b):\n    return a * b\n```")
    mul = Task(id="m", benchmark="toy", domain="coding", prompt="write mul")
    content = _form_record().revised(improved_action=Action(content="def add(a, b):\n    return b + a"))
    cases = ((_form_record(), True, True), (_form_record(), False, False), (content, True, False))
    for index, (record, answer_once, holds) in enumerate(cases):
        with SQLiteStore(tmp_path / f"{index}.sqlite") as store:
            store.add(record)
            memory = CounterfactualMemory(
                Retriever(store, make_embedder("lexical")), TopOne(), action_language="python", store=store,
                options=AdvisorOptions(answer_once=answer_once, write_counters=False),
            )
            facts = facts_after(facts_of, mul, answer, malformed_result("x"))
            advice = memory.advise(Decision(task=mul, situation="write mul", facts=facts, step=1,
                                            last_action=answer, last_result=malformed_result("x"),
                                            salvaged=salvaged_block(answer.content)))
            assert advice is not None and advice.record_id == record.id
            assert advice.holds_last_answer is holds
