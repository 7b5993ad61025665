"""Verified lessons: written without the source task's names, admitted only when an action written
from the lesson alone passes from the source task's reset state, shown instead of the source
task's code, and a record offered at most once per task when asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from countermem.core import Action, CheckResult, ConfigError, Cost, Decision, Facts, Task, Usage
from countermem.domains import State, load_benchmark
from countermem.llm import Completion, GenerationParams, Message
from countermem.memory import (
    Admitter,
    AdvisorOptions,
    CounterfactualLearner,
    CounterfactualMemory,
    Generator,
    GeneratorSettings,
    Lesson,
    LessonSettings,
    LessonWriter,
    Record,
    RecordSource,
    Retriever,
    SQLiteStore,
    has_verified_lesson,
    leaked_names,
    lesson_examples,
    make_embedder,
    parse_lesson,
    repeated_phrases,
    scrub_names,
    source_names,
)
from countermem.memory._advisor import render_record
from countermem.memory._lesson import FIXED_EXAMPLES, NO_LESSON, VARIED_EXAMPLES, copied_example, write_system
from countermem.selector import TopOne

TASK = Task(id="t0", benchmark="toy", domain="sql", prompt="Which city has the most customers?", environment="shop")
FAILED = "SELECT city, COUNT(*) FROM customers GROUP BY city ORDER BY COUNT(*) DESC LIMIT 1"
FIXED = "SELECT city FROM customers GROUP BY city ORDER BY COUNT(*) DESC LIMIT 1"
WRONG = CheckResult(utility=0.0, passed=False, completed=True, status="wrong", details="extra column in the result")
PASSED = CheckResult(utility=1.0, passed=True, completed=True, status="passed")
GOOD_LESSON = "Lesson: When the question wants the biggest group, return only that item and leave the tally to the ordering clause."


class Replies:
    """Answers in order and keeps every prompt it saw."""

    backend = "scripted"

    def __init__(self, replies: list[str], name: str = "scripted:replies") -> None:
        self.replies = list(replies)
        self.name = name
        self.prompts: list[list[Message]] = []
        self.params: list[GenerationParams | None] = []

    def complete(self, messages: list[Message], params: GenerationParams | None = None) -> Completion:
        self.prompts.append(list(messages))
        self.params.append(params)
        return Completion(text=self.replies.pop(0), usage=Usage(prompt_tokens=10, completion_tokens=5),
                          model="r", backend="scripted")


class OneQueryWorld:
    """Passes exactly FIXED; counts checks and restores."""

    def __init__(self) -> None:
        self.checks: list[str] = []
        self.restored = 0

    def reset(self, task: Task) -> State:
        return State(task_id=task.id, payload=0)

    def snapshot(self) -> State:
        return State(task_id="t0", payload=0)

    def restore(self, state: State) -> None:
        self.restored += 1

    def check(self, action: Action) -> CheckResult:
        self.checks.append(action.content)
        ok = " ".join(action.content.split()) == FIXED
        return (PASSED if ok else WRONG).model_copy(update={"cost": Cost(calls=1)})


def record(lesson: Lesson | None = None) -> Record:
    return Record(
        domain="sql", benchmark="toy", situation=TASK.prompt, original_action=Action(content=FAILED),
        improved_action=Action(content=FIXED), original_check=WRONG, improved_check=PASSED,
        rationale="return only the city, not the count", source=RecordSource(task_id="t0", benchmark="toy"),
        lesson=lesson,
    )


def writer(replies: list[str], verifier_replies: list[str], **settings: int) -> tuple[LessonWriter, Replies, Replies]:
    write, verify = Replies(replies, "scripted:writer"), Replies(verifier_replies, "scripted:agent")
    lessons = LessonWriter(write, verify, LessonSettings(enabled=True, **settings), action_language="sql",  # type: ignore[arg-type]
                           instructions="Answer with Action: submit and one sql block.")
    return lessons, write, verify


def test_source_names_are_the_actions_identifiers_and_values_not_keywords() -> None:
    names = source_names([FAILED, "SELECT name FROM orders WHERE status = 'shipped'"], "sql")
    assert {"city", "customers", "orders", "shipped", "name", "status"} <= names
    assert not {"select", "count", "order", "group", "limit", "desc", "from"} & names
    assert leaked_names("Return only the city, not its count.", names) == ["city"]
    assert leaked_names("Rank with ORDER BY COUNT(*) and return only the item.", names) == []
    assert leaked_names("Filter on the 'shipped' status value.", names) == ["shipped", "status"]


def test_parse_lesson_reads_the_labelled_line() -> None:
    assert parse_lesson("Sure.\n**Lesson:** Keep `x` out.\nMore") == "Keep x out."
    assert parse_lesson("  Return only the item.\n") == "Return only the item."
    assert parse_lesson("") == ""
    assert len(parse_lesson("Lesson: " + "a" * 900)) == 400


def test_a_lesson_is_verified_when_an_action_written_from_it_alone_passes() -> None:
    lessons, _write, verify = writer([GOOD_LESSON], [f"```sql\n{FIXED}\n```"])
    world = OneQueryWorld()
    lesson = lessons.lesson_for(record(), world, State(task_id="t0", payload=0))
    assert lesson.verified and lesson.check is not None and lesson.check.passed
    assert lesson.writer == "scripted:writer" and lesson.verifier == "scripted:agent"
    assert world.checks == [FIXED]
    shown = "\n".join(m.content for m in verify.prompts[0])
    assert FIXED not in shown, "the verifier never sees the corrected action"
    assert FAILED in shown and "return only that item" in shown
    assert lessons.calls == 2 and lessons.usage_total.total == 30 and lessons.verified == 1


def test_a_lesson_that_does_not_teach_the_edit_is_kept_but_not_verified() -> None:
    lessons, _, _ = writer([GOOD_LESSON], [f"```sql\n{FAILED}\n```", "no code at all"], attempts=2)
    world = OneQueryWorld()
    lesson = lessons.lesson_for(record(), world, State(task_id="t0", payload=0))
    assert not lesson.verified and "gained 0.000" in lesson.reason
    assert world.checks == [FAILED], "the second draw had no action to check"


def test_a_lesson_naming_the_source_task_is_rewritten_then_refused() -> None:
    leaky = "Lesson: Return only the city from customers, not the count."
    lessons, write, verify = writer([leaky, GOOD_LESSON], [f"```sql\n{FIXED}\n```"])
    lesson = lessons.lesson_for(record(), OneQueryWorld(), State(task_id="t0", payload=0))
    assert lesson.verified and lesson.text.startswith("When the question")
    assert "city, customers" in write.prompts[1][-1].content, "the retry names what leaked"

    lessons, _, verify = writer([leaky, leaky], [f"```sql\n{FAILED}\n```", f"```sql\n{FAILED}\n```"])
    world = OneQueryWorld()
    lesson = lessons.lesson_for(record(), world, State(task_id="t0", payload=0))
    assert lesson.text == "Return only the <name> from <name>, not the count."
    assert lesson.scrubbed == ["city", "customers"] and lesson.leaked == []
    assert "city" not in verify.prompts[0][-1].content.split("## Lesson")[1], "the check sees the scrubbed lesson"
    assert not lesson.verified and world.checks == [FAILED, FAILED], "scrubbed, checked, and it did not teach"


def test_scrub_names_keeps_the_shape_and_drops_the_names() -> None:
    names = source_names(["SELECT COUNT(*) FROM products WHERE category = 'electronics' AND price > 25"], "sql")
    text = "Count the rows of products where category = 'electronics' and price is over 25; the productsX table."
    assert scrub_names(text, names) == (
        "Count the rows of <name> where <name> = '<value>' and <name> is over 25; the productsX table."
    )
    assert leaked_names(scrub_names(text, names), names) == []
    assert parse_lesson("Lesson: use COUNT.\n```sql\nSELECT 1\n```") == "use COUNT."


def test_construction_writes_the_lesson_onto_the_admitted_record(tmp_path: Path) -> None:
    generator_llm = Replies([f"Fix: drop the count\n```sql\n{FIXED}\n```", GOOD_LESSON])
    agent = Replies([f"```sql\n{FIXED}\n```"])
    with SQLiteStore(tmp_path / "s.sqlite") as store:
        lessons = LessonWriter(generator_llm, agent, LessonSettings(enabled=True), action_language="sql")  # type: ignore[arg-type]
        learner = CounterfactualLearner(
            Generator(generator_llm, settings=GeneratorSettings(samples=0)),  # type: ignore[arg-type]
            Admitter(store), OneQueryWorld, action_language="sql", lessons=lessons, lesson_store=store,
        )
        decision = Decision(task=TASK, step=1, situation=TASK.prompt, facts=Facts(),
                            last_action=Action(content=FAILED), last_result=WRONG)
        learner.advise(decision)
        (stored,) = store.all()
        assert has_verified_lesson(stored) and stored.version == 2
        history = store.history(stored.id)
        assert [r.version for r in history] == [1, 2] and history[0].lesson is None, "the first version is kept"
    assert learner.stats.lessons_written == 1 and learner.stats.lessons_verified == 1
    assert learner.stats.lesson_calls == 2 and learner.stats.lesson_usage.total == 30


def test_lesson_rendering_shows_no_source_code_and_offers_only_verified_lessons(tmp_path: Path) -> None:
    verified = record(Lesson(text=GOOD_LESSON.removeprefix("Lesson: "), verified=True))
    text = render_record(verified, "sql", rendering="lesson")
    assert "verified lesson" in text and "return only that item" in text
    assert FIXED not in text and FAILED not in text and "customers" not in text
    assert FIXED in render_record(verified, "sql"), "correction rendering is unchanged"

    unverified = record(Lesson(text="x", verified=False, reason="r"))
    decision = Decision(task=TASK.model_copy(update={"id": "t1"}), step=2, situation="Which shop sells most?",
                        facts=Facts(), last_action=Action(content="SELECT 1"), last_result=WRONG)
    for stored, offered in ((verified, True), (unverified, False)):
        with SQLiteStore(tmp_path / f"{offered}.sqlite") as store:
            store.add(stored)
            memory = CounterfactualMemory(Retriever(store, make_embedder("lexical")), TopOne(),
                                          action_language="sql", options=AdvisorOptions(rendering="lesson"))
            advice = memory.advise(decision)
            assert (advice is not None and advice.record_id == stored.id) is offered
            assert memory.stats.covered == 1, "coverage is the retriever's: the condition held"


def test_a_record_is_offered_once_per_task_when_repeat_offers_is_off(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "s.sqlite") as store:
        store.add(record())
        decision = Decision(task=TASK.model_copy(update={"id": "t1"}), step=2, situation="Which shop sells most?",
                            facts=Facts(), last_action=Action(content="SELECT 1"), last_result=WRONG)
        for repeat, expected in ((True, [True, True]), (False, [True, False])):
            memory = CounterfactualMemory(Retriever(store, make_embedder("lexical")), TopOne(), action_language="sql",
                                          options=AdvisorOptions(repeat_offers=repeat, write_counters=False))
            got = []
            for _ in range(2):
                advice = memory.advise(decision)
                got.append(advice is not None and advice.record_id is not None)
            assert got == expected
        other = decision.model_copy(update={"task": TASK.model_copy(update={"id": "t2"})})
        advice = memory.advise(other)
        assert advice is not None and advice.record_id is not None, "another task gets it again"


def test_no_record_before_the_first_action_when_offer_at_start_is_off(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "s.sqlite") as store:
        store.add(record())
        start = Decision(task=TASK.model_copy(update={"id": "t1"}), step=0, situation="Which shop sells most?",
                         facts=Facts())
        failed = start.model_copy(update={"step": 1, "last_action": Action(content="SELECT 1"), "last_result": WRONG})
        for at_start, expected in ((True, [True, True]), (False, [False, True])):
            memory = CounterfactualMemory(Retriever(store, make_embedder("lexical")), TopOne(), action_language="sql",
                                          options=AdvisorOptions(offer_at_start=at_start, write_counters=False))
            got = []
            for decision in (start, failed):
                advice = memory.advise(decision)
                got.append(advice is not None and advice.record_id is not None)
            assert got == expected, at_start


def test_a_worked_answer_names_its_numbers_and_people() -> None:
    answer = "Janet has 16 eggs and eats 3, so she sells 16 - 3 = 13 eggs at $2.50 each: 32.5 dollars. Answer: 32.5"
    names = source_names([answer], "text")
    assert {"16", "13", "2.50", "32.5"} <= names and "3" not in names
    assert "janet" not in names, "a capital at the start of a sentence is not known to be a name"
    assert "eggs" not in names and "sells" not in names
    assert source_names(["so Janet sold them"], "text") == {"janet"}
    assert leaked_names("Subtract what is eaten before multiplying by the price.", names) == []
    assert leaked_names("She had 16 eggs; 160 is no match.", names) == ["16"]


def words(text: str) -> int:
    return len(text.split())


def test_a_lesson_tells_the_agent_to_keep_what_its_own_domain_has() -> None:
    lesson = Lesson(text="State the final answer on its own line.", verified=True)
    sql = render_record(record(lesson), "sql", rendering="lesson")
    math = render_record(record(lesson).model_copy(update={"domain": "math"}), "text", rendering="lesson")
    assert sql.endswith("keep your own tables, names and question.")
    assert math.endswith("keep your own names, numbers and task.") and "tables" not in math


def test_compact_rendering_shows_the_correction_alone() -> None:
    text = render_record(record(), "sql", rendering="compact")
    assert FIXED in text and FAILED not in text and "keep your own names" in text


def test_a_token_cap_falls_back_to_shorter_renderings_then_skips(tmp_path: Path) -> None:
    lesson = Lesson(text="Return only the item the question asks for.", verified=True)
    decision = Decision(task=TASK.model_copy(update={"id": "t1"}), step=2, situation="Which shop sells most?",
                        facts=Facts(), last_action=Action(content="SELECT 1"), last_result=WRONG)
    full = words(render_record(record(lesson), "sql"))
    compact = words(render_record(record(), "sql", rendering="compact"))
    short = words(render_record(record(lesson), "sql", rendering="lesson"))
    assert short < compact < full
    cases = [(record(lesson), full, "correction"), (record(lesson), full - 1, "lesson"),
             (record(), full - 1, "compact"), (record(), compact - 1, None)]
    for index, (stored, cap, shown) in enumerate(cases):
        with SQLiteStore(tmp_path / f"{index}.sqlite") as store:
            store.add(stored)
            memory = CounterfactualMemory(
                Retriever(store, make_embedder("lexical")), TopOne(), action_language="sql",
                options=AdvisorOptions(max_advice_tokens=cap, write_counters=False), token_counter=words,
            )
            advice = memory.advise(decision)
            assert advice is not None
            if shown is None:
                assert advice.record_id is None and advice.details["choice"] == "over_budget"
                assert memory.stats.over_budget == 1 and memory.stats.selected == 0 and memory.stats.skipped == 0
            else:
                assert advice.record_id == stored.id and words(advice.text) <= cap
                assert advice.text == render_record(stored, "sql", rendering=shown)  # type: ignore[arg-type]


def test_a_cap_without_a_token_counter_is_refused(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "s.sqlite") as store, pytest.raises(ConfigError, match="token counter"):
        CounterfactualMemory(Retriever(store, make_embedder("lexical")), TopOne(), action_language="sql",
                             options=AdvisorOptions(max_advice_tokens=100))


def test_a_lesson_is_redacted_before_it_is_stored(tmp_path: Path) -> None:
    email = "ops.team@example-corp.com"
    leaky_lesson = GOOD_LESSON + f" Report failures to {email}."
    generator_llm = Replies([f"Fix: drop the count\n```sql\n{FIXED}\n```", leaky_lesson])
    agent = Replies([f"```sql\n{FIXED}\n```"])
    path = tmp_path / "s.sqlite"
    with SQLiteStore(path) as store:
        lessons = LessonWriter(generator_llm, agent, LessonSettings(enabled=True), action_language="sql")  # type: ignore[arg-type]
        learner = CounterfactualLearner(
            Generator(generator_llm, settings=GeneratorSettings(samples=0)),  # type: ignore[arg-type]
            Admitter(store), OneQueryWorld, action_language="sql", lessons=lessons, lesson_store=store,
        )
        learner.advise(Decision(task=TASK, step=1, situation=TASK.prompt, facts=Facts(),
                                last_action=Action(content=FAILED), last_result=WRONG))
        (stored,) = store.all()
        raw = path.read_bytes() + Path(f"{path}-wal").read_bytes()
    assert stored.lesson is not None and "<SECRET:e-mail>" in stored.lesson.text
    assert stored.redactions == {"e-mail": 1}
    assert email.encode() not in raw


def test_a_lesson_that_copies_a_prompt_example_is_rewritten_then_refused() -> None:
    copy = "Lesson: " + FIXED_EXAMPLES[0]
    assert copied_example(FIXED_EXAMPLES[0].replace("DESC LIMIT 1 ", ""), FIXED_EXAMPLES) == FIXED_EXAMPLES[0]
    assert copied_example(GOOD_LESSON, FIXED_EXAMPLES) is None
    lessons, write, _ = writer([copy, GOOD_LESSON], [f"```sql\n{FIXED}\n```"])
    lesson = lessons.lesson_for(record(), OneQueryWorld(), State(task_id="t0", payload=0))
    assert lesson.verified and not lesson.copied_example
    assert "one of the examples" in write.prompts[1][-1].content

    lessons, _, verify = writer([copy, copy], [])
    world = OneQueryWorld()
    lesson = lessons.lesson_for(record(), world, State(task_id="t0", payload=0))
    assert not lesson.verified and lesson.copied_example and "copies an example" in lesson.reason
    assert world.checks == [] and verify.prompts == [], "a copied lesson is never checked"


@pytest.mark.parametrize("language", ["sql", "python", "coq", "smt2", "dimacs", "text"])
def test_the_examples_variants_of_the_writing_prompt(language: str) -> None:
    fixed, varied, none = (write_system(v, language) for v in ("fixed", "varied", "none"))  # type: ignore[arg-type]
    assert all(e in fixed for e in FIXED_EXAMPLES), "fixed is the first version whatever the language"
    assert all(e in varied for e in VARIED_EXAMPLES[language]) and "never copy one" in varied
    assert "Lesson: When" not in none and "own words" in none
    assert len(lesson_examples("varied", language)) == 5 and lesson_examples("none", language) == ()
    lessons, write, _ = writer([GOOD_LESSON], [f"```sql\n{FIXED}\n```"], examples="none")  # type: ignore[arg-type]
    lessons.lesson_for(record(), OneQueryWorld(), State(task_id="t0", payload=0))
    assert write.prompts[0][0].content == write_system("none", "sql")


def test_the_control_refuses_a_lesson_the_agent_did_not_need() -> None:
    lessons, _, verify = writer([GOOD_LESSON], [f"```sql\n{FIXED}\n```", f"```sql\n{FIXED}\n```"], control="required")  # type: ignore[arg-type]
    lesson = lessons.lesson_for(record(), OneQueryWorld(), State(task_id="t0", payload=0))
    assert not lesson.verified and "without the lesson" in lesson.reason
    assert lesson.control is not None and lesson.control.passed and lessons.verified == 0
    control_prompt = verify.prompts[1][-1].content
    assert NO_LESSON in control_prompt and "leave the tally" not in control_prompt

    lessons, _, _ = writer(
        [GOOD_LESSON], [f"```sql\n{FIXED}\n```", f"```sql\n{FAILED}\n```", f"```sql\n{FAILED}\n```"], control="required",  # type: ignore[arg-type]
    )
    world = OneQueryWorld()
    lesson = lessons.lesson_for(record(), world, State(task_id="t0", payload=0))
    assert lesson.verified and lesson.control is not None and not lesson.control.passed
    assert world.checks == [FIXED, FAILED, FAILED], "the control gets as many draws as the lesson"


def test_further_candidates_are_written_until_one_is_verified() -> None:
    vague = "Lesson: When a query is wrong, check it again."
    lessons, write, _ = writer(
        [vague, vague, GOOD_LESSON],
        [f"```sql\n{FAILED}\n```", f"```sql\n{FIXED}\n```"],
        candidates=3, attempts=1,
    )
    world = OneQueryWorld()
    lesson = lessons.lesson_for(record(), world, State(task_id="t0", payload=0))
    assert lesson.verified and lesson.text.startswith("When the question wants")
    assert [len(p) for p in write.prompts] == [2, 2, 2], "each candidate is a fresh write, not a retry"
    assert [p.temperature for p in write.params if p is not None] == [0.0, 0.8, 0.8]
    assert len({p.seed for p in write.params if p is not None}) == 3
    assert world.checks == [FAILED, FIXED], "a repeated candidate is not checked twice"
    assert lessons.written == 1 and lessons.verified == 1

    lessons, write, _ = writer([vague, vague], [f"```sql\n{FAILED}\n```"], candidates=2, attempts=1)
    lesson = lessons.lesson_for(record(), OneQueryWorld(), State(task_id="t0", payload=0))
    assert not lesson.verified and "gained 0.000" in lesson.reason and len(write.prompts) == 2


def test_a_recorded_control_is_kept_but_does_not_refuse_the_lesson() -> None:
    lessons, _, _ = writer([GOOD_LESSON], [f"```sql\n{FIXED}\n```", f"```sql\n{FIXED}\n```"], control="record")  # type: ignore[arg-type]
    lesson = lessons.lesson_for(record(), OneQueryWorld(), State(task_id="t0", payload=0))
    assert lesson.verified and lesson.control is not None and lesson.control.passed
    lessons, _, verify = writer([GOOD_LESSON], [f"```sql\n{FIXED}\n```"])
    lesson = lessons.lesson_for(record(), OneQueryWorld(), State(task_id="t0", payload=0))
    assert lesson.verified and lesson.control is None and len(verify.prompts) == 1, "off: no control is run"


def test_advice_expires_after_one_reply_only_when_its_lifetime_is_reply(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "s.sqlite") as store:
        store.add(record())
        decision = Decision(task=TASK.model_copy(update={"id": "t1"}), step=2, situation="Which shop sells most?",
                            facts=Facts(), last_action=Action(content="SELECT 1"), last_result=WRONG)
        for lifetime, expires in (("task", False), ("reply", True)):
            memory = CounterfactualMemory(Retriever(store, make_embedder("lexical")), TopOne(), action_language="sql",
                                          options=AdvisorOptions(advice_lifetime=lifetime, write_counters=False))
            advice = memory.advise(decision)
            assert advice is not None and advice.record_id is not None and advice.expires is expires


RETURNS_TASK = "Database `shop` (SQLite). Schema:\nsales(id, state)\n\nQuestion: How many orders were returned?"
RETURNS_FAILED = "SELECT COUNT(*) FROM sales WHERE state = 'back'"
RETURNS_FIXED = "SELECT COUNT(*) FROM sales WHERE state = 'R'"
QUESTION_LESSON = "Lesson: When the question asks how many orders were returned, compare with the stored code."
GENERAL_LESSON = "Lesson: When a filter value is encoded, look up its encoding in the schema before comparing."


def returns_record() -> Record:
    return record().model_copy(update={
        "situation": RETURNS_TASK, "original_action": Action(content=RETURNS_FAILED),
        "improved_action": Action(content=RETURNS_FIXED),
    })


def test_repeated_phrases_are_the_content_words_a_lesson_repeats_from_its_source() -> None:
    assert repeated_phrases(QUESTION_LESSON, RETURNS_TASK, "sql") == ["orders", "returned"]
    assert repeated_phrases(GENERAL_LESSON, RETURNS_TASK, "sql") == []
    assert repeated_phrases("Count the number of rows.", "What is the number of orders?", "sql") == [], (
        "a phrase of function and generic words names nothing of the task"
    )
    assert repeated_phrases(GOOD_LESSON, TASK.prompt, "sql") == []
    assert repeated_phrases("the most customers wins", TASK.prompt, "sql") == ["customers"]
    assert not source_names([RETURNS_FAILED, RETURNS_FIXED], "sql") & {"orders"}, (
        "the question's words are not names of the actions: only the phrase check sees them"
    )


def test_a_lesson_repeating_its_source_question_is_rewritten_only_with_source_phrases() -> None:
    lessons, _, _ = writer([QUESTION_LESSON], [f"```sql\n{FIXED}\n```"])
    assert lessons.lesson_for(returns_record(), OneQueryWorld(), State(task_id="t0", payload=0)).verified, (
        "off by default: the first version admits it"
    )

    lessons, write, _ = writer([QUESTION_LESSON, GENERAL_LESSON], [f"```sql\n{FIXED}\n```"], source_phrases=True)  # type: ignore[arg-type]
    lesson = lessons.lesson_for(returns_record(), OneQueryWorld(), State(task_id="t0", payload=0))
    assert lesson.verified and lesson.text == GENERAL_LESSON.removeprefix("Lesson: ")
    assert "orders, returned" in write.prompts[1][-1].content, "the retry names the repeated words"

    lessons, _, verify = writer([QUESTION_LESSON, QUESTION_LESSON], [f"```sql\n{FIXED}\n```"], source_phrases=True)  # type: ignore[arg-type]
    lesson = lessons.lesson_for(returns_record(), OneQueryWorld(), State(task_id="t0", payload=0))
    assert lesson.text == "When the question asks how many <name> were <name>, compare with the stored code."
    assert lesson.scrubbed == ["orders", "returned"] and lesson.leaked == []
    assert "orders" not in verify.prompts[0][-1].content.split("## Lesson")[1], "the check sees the scrubbed lesson"


def test_source_phrases_refuse_the_measured_leaking_lesson_and_keep_the_rescuing_one() -> None:
    shop = load_benchmark("sql-shop")
    tasks = {t.id: t for t in shop.tasks()}
    leaking = (  # the 1.5B's lesson shown after 6 unknown-column failures of other questions, which it then answered
        "When the question asks how many orders were returned, the failed action used a condition that does not "
        "exist in the <name> table. The correct action is to simply count the rows."
    )
    rescuing = (  # the lesson that turned two held-out tasks, applied to the agent's own query
        "The failed action used <name> as a column name, which does not exist in the <name> table. The corrected "
        "action uses COUNT(<name>) instead."
    )
    returns = shop.render_task(tasks["sql-shop-wholesale-q04"])
    assert repeated_phrases(leaking, returns, "sql") == ["orders", "returned"]
    for task_id in ("sql-shop-wholesale-q04", "sql-shop-wholesale-q14", "sql-shop-marketplace-q15"):
        assert repeated_phrases(rescuing, shop.render_task(tasks[task_id]), "sql") == []
