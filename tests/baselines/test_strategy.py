"""ReasoningBank baseline: items, the bank, the judge and distiller, the learner (incl. MaTTS), the memory."""

import hashlib
from pathlib import Path

import pytest

from countermem.agents import ReActAgent
from countermem.baselines import (
    STRATEGY_BLOCK_HEADER,
    StrategyBank,
    StrategyDistiller,
    StrategyItem,
    StrategyLearner,
    StrategyMemory,
    Trajectory,
    TrajectoryStep,
    is_strategy_prompt,
    parse_judgement,
)
from countermem.baselines._distill import DISTILL_MARKER, JUDGE_MARKER
from countermem.core import Action, CheckResult, ConfigError, Decision, Facts, Outcome, StoreError, Task
from countermem.llm import Message, ScriptedLLM
from countermem.memory import LexicalEmbedder

TASK = Task(id="t1", benchmark="spider", domain="sql", prompt="How many singers are there?")
FACTS = Facts(values={})
ITEMS_REPLY = (
    "# Memory Item 1\n## Title Count rows directly\n## Description Use COUNT(*) for how-many questions.\n"
    "## Content When a question asks how many, select COUNT(*) from the table instead of listing rows.\n"
    "# Memory Item 2\n## Title Check the table name\n## Description Match the schema's table.\n"
    "## Content Read the schema before writing FROM."
)
FAILED = CheckResult(utility=0.0, passed=False, completed=True, status="wrong", details="expected 1 row, got 6")


def item(title: str, content: str, domain: str = "sql", benchmark: str = "spider") -> StrategyItem:
    return StrategyItem(title=title, description=f"about {title}", content=content, domain=domain,
                        benchmark=benchmark, source_task_id="t0", label="success", label_source="checker")


class Router:
    """A scripted LLM answering judge and distill prompts; records which kind each call was."""

    def __init__(self, judge: str = "Thoughts: fine\nStatus: success", distill: str = ITEMS_REPLY) -> None:
        self.judge, self.distill = judge, distill
        self.kinds: list[str] = []
        self.llm = ScriptedLLM(self.reply)

    def reply(self, messages: list[Message]) -> str:
        assert is_strategy_prompt(messages)
        if messages[0].content.startswith(JUDGE_MARKER):
            self.kinds.append("judge")
            return self.judge
        assert messages[0].content.startswith(DISTILL_MARKER)
        self.kinds.append("contrast" if "self-contrast" in messages[0].content else
                          "success" if "successfully accomplished" in messages[0].content else "failure")
        return self.distill


def run_once(learner: StrategyLearner, solved: bool, action: str = "SELECT name FROM singer",
             task: Task = TASK) -> None:
    start = Decision(task=task, situation=f"Task: {task.prompt}", facts=FACTS)
    learner.advise(start)
    learner.advise(Decision(task=task, situation=start.situation, facts=FACTS, step=1,
                            last_action=Action(content=action), last_result=FAILED))
    final = "SELECT count(*) FROM singer"
    outcome = Outcome(task_id=task.id, solved=solved, final_utility=float(solved), evaluator_calls=1,
                      failed_attempts=1, tokens=10, final_action=Action(content=final),
                      final_result=CheckResult(utility=float(solved), passed=solved, completed=True,
                                               status="passed" if solved else "wrong", details="GRADE-SECRET"))
    learner.feedback(start, None, outcome)


# --- items and the bank ------------------------------------------------------------------------


def test_item_id_is_a_stable_content_hash() -> None:
    a = item("Count", "use count")
    assert a.id.startswith("s-") and a.id == item("Count", "use  count").id
    assert a.id != item("Count", "use sum").id != item("Count", "use count", domain="fv").id
    with pytest.raises(ValueError, match="does not match"):
        StrategyItem(**{**a.model_dump(), "id": "s-0000000000000000"})


def test_bank_dedupes_persists_and_read_only_refuses_writes_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "bank.sqlite"
    with StrategyBank(path) as bank:
        assert [i.title for i in bank.add([item("A", "a"), item("A", "a"), item("B", "b")])] == ["A", "B"]
        assert bank.add([item("A", "a")]) == [] and len(bank) == 2
    before = sorted(p.name for p in tmp_path.iterdir())
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    reader = StrategyBank(path, read_only=True)
    assert [i.title for i in reader.all()] == ["A", "B"] and item("B", "b").id in reader
    with pytest.raises(StoreError, match="read-only"):
        reader.add([item("C", "c")])
    reader.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == before, "read-only opening created files"
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
    assert len(StrategyBank(path)) == 2


def test_bank_refuses_a_second_writer_and_reading_while_written(tmp_path: Path) -> None:
    path = tmp_path / "bank.sqlite"
    writer = StrategyBank(path)
    writer.add([item("A", "a")])
    with pytest.raises(StoreError, match="open for writing"):
        StrategyBank(path)
    with pytest.raises(StoreError, match="write-ahead log"):
        StrategyBank(path, read_only=True)
    writer.close()
    assert len(StrategyBank(path, read_only=True)) == 1
    with pytest.raises(StoreError, match="no strategy bank"):
        StrategyBank(tmp_path / "missing.sqlite", read_only=True)


# --- judge and distiller -----------------------------------------------------------------------


def test_judge_parses_status_and_counts_garbage_as_failure() -> None:
    assert parse_judgement("Thoughts: ok\nStatus: success") is True
    assert parse_judgement("**Status:** \"failure\"") is False
    assert parse_judgement("Thoughts: it says success first\nStatus: failure") is False
    assert parse_judgement("no idea") is None
    distiller = StrategyDistiller(ScriptedLLM(["I cannot tell"]))
    trajectory = Trajectory(task_id="t1", domain="sql", benchmark="spider")
    assert distiller.judge("task", trajectory) is False
    assert distiller.problems and "no status" in distiller.problems[0]
    assert distiller.usage_total.total > 0


def test_garbage_distillation_gives_no_items_and_a_problem() -> None:
    distiller = StrategyDistiller(ScriptedLLM(["Sure! Here are some thoughts without any format."]))
    trajectory = Trajectory(task_id="t1", domain="sql", benchmark="spider", final_action="SELECT 1")
    assert distiller.distill("task", [trajectory], [True]) == []
    assert any("no memory item" in p for p in distiller.problems)
    assert distiller.usage_total.total > 0


def test_distill_keeps_at_most_three_items_and_drops_incomplete_ones() -> None:
    reply = ITEMS_REPLY + "\n# Memory Item 3\n## Title No body\n" + "".join(
        f"\n# Memory Item {n}\n## Title T{n}\n## Description D{n}\n## Content C{n}" for n in (4, 5))
    distiller = StrategyDistiller(ScriptedLLM([reply]))
    trajectory = Trajectory(task_id="t1", domain="sql", benchmark="spider")
    items = distiller.distill("task", [trajectory], [False])
    assert [i.title for i in items] == ["Count rows directly", "Check the table name", "T4"]
    assert all(i.label == "failure" and i.label_source == "llm_judge" for i in items)
    assert any("no description, content" in p for p in distiller.problems)
    assert any("at most 3" in p for p in distiller.problems)


def test_trajectory_shows_what_the_agent_saw_but_not_the_final_grade() -> None:
    router = Router()
    learner = StrategyLearner(StrategyDistiller(router.llm), StrategyBank())
    run_once(learner, solved=False, action="SELECT name FROM singer")
    judge_prompt = router.llm.calls[0][1].content
    assert "How many singers" in judge_prompt and "SELECT name FROM singer" in judge_prompt
    assert "expected 1 row, got 6" in judge_prompt and "SELECT count(*) FROM singer" in judge_prompt
    assert "GRADE-SECRET" not in judge_prompt


# --- the learner -------------------------------------------------------------------------------


@pytest.mark.parametrize(("judged", "label", "prompt"), [("success", "success", "success"),
                                                          ("failure", "failure", "failure")])
def test_the_judge_label_decides_the_items_label(judged: str, label: str, prompt: str) -> None:
    router = Router(judge=f"Thoughts: hm\nStatus: {judged}")
    bank = StrategyBank()
    learner = StrategyLearner(StrategyDistiller(router.llm), bank)
    run_once(learner, solved=True)
    assert router.kinds == ["judge", prompt]
    assert len(bank) == 2 and {(i.label, i.label_source) for i in bank.all()} == {(label, "llm_judge")}
    assert learner.stats.judge_calls == 1 and learner.stats.judge_agrees == int(judged == "success")
    assert learner.stats.usage == learner.distiller.usage_total and learner.stats.usage.total > 0


def test_verified_feedback_ignores_the_judge() -> None:
    router = Router(judge="Status: success")
    bank = StrategyBank()
    learner = StrategyLearner(StrategyDistiller(router.llm), bank, verified_feedback=True)
    run_once(learner, solved=False)
    assert router.kinds == ["failure"], "no judge call; the checker said failure"
    assert {(i.label, i.label_source) for i in bank.all()} == {("failure", "checker")}
    assert learner.stats.judge_calls == 0 and learner.stats.items_added == 2


def test_matts_distills_once_after_k_runs_with_a_contrast_prompt() -> None:
    router = Router()
    bank = StrategyBank()
    learner = StrategyLearner(StrategyDistiller(router.llm), bank, verified_feedback=True, scaling=3)
    run_once(learner, solved=False, action="SELECT a")
    run_once(learner, solved=True, action="SELECT b")
    assert router.kinds == [] and len(bank) == 0 and learner.waiting == {"t1": 2}
    run_once(learner, solved=False, action="SELECT c")
    assert router.kinds == ["contrast"]
    prompt = router.llm.calls[0][1].content
    assert "## Trajectory 1 (failure)" in prompt and "## Trajectory 2 (success)" in prompt
    assert all(a in prompt for a in ("SELECT a", "SELECT b", "SELECT c"))
    assert learner.stats.tasks == 1 and learner.stats.trajectories == 3 and learner.waiting == {}
    assert {i.label for i in bank.all()} == {"success"}


def test_flush_distills_tasks_short_of_k_runs_and_bad_options_are_refused(tmp_path: Path) -> None:
    router = Router()
    learner = StrategyLearner(StrategyDistiller(router.llm), StrategyBank(), verified_feedback=True, scaling=2)
    run_once(learner, solved=True)
    assert learner.flush() == 1 and router.kinds == ["success"]
    with pytest.raises(ConfigError):
        StrategyLearner(StrategyDistiller(router.llm), StrategyBank(), scaling=0)
    path = tmp_path / "b.sqlite"
    StrategyBank(path).close()
    with pytest.raises(ConfigError, match="read-only"):
        StrategyLearner(StrategyDistiller(router.llm), StrategyBank(path, read_only=True))


# --- the memory --------------------------------------------------------------------------------


def _decision(text: str, domain: str = "sql", **kw) -> Decision:  # type: ignore[no-untyped-def]
    task = Task(id="q", benchmark="spider", domain=domain, prompt=text)
    return Decision(task=task, situation=text, facts=FACTS, **kw)


def test_memory_injects_the_most_similar_item_of_the_domain() -> None:
    items = [item("Count rows", "how many singers count rows with COUNT"),
             item("Join keys", "join concerts and stadiums on the stadium id"),
             item("Count rows", "how many singers count rows with COUNT", domain="fv")]
    memory = StrategyMemory(items, LexicalEmbedder())
    advice = memory.advise(_decision("How many singers are there? count rows"))
    assert advice is not None and advice.record_id == items[0].id
    assert advice.text.startswith(STRATEGY_BLOCK_HEADER) and items[1].id not in advice.text
    assert (advice.candidates, advice.eligible) == (1, 2)
    other = memory.advise(_decision("join the stadiums to concerts by stadium id"))
    assert other is not None and other.record_id == items[1].id
    assert memory.advise(_decision("anything", domain="smt")) is None
    assert (memory.stats.attempts, memory.stats.covered, memory.stats.selected) == (3, 2, 2)
    assert memory.stats.coverage == pytest.approx(2 / 3)


def test_memory_k_order_independence_and_failed_check_option() -> None:
    items = [item(f"Tip {n}", f"shared words tip {n}") for n in range(4)]
    forward = StrategyMemory(items, LexicalEmbedder(), k=2).advise(_decision("shared words"))
    backward = StrategyMemory(list(reversed(items)), LexicalEmbedder(), k=2).advise(_decision("shared words"))
    assert forward is not None and backward is not None and forward.text == backward.text
    assert forward.candidates == 2 and len(str(forward.details["item_ids"]).split(",")) == 2
    after_failure = dict(last_action=Action(content="SELECT 1"), last_result=FAILED, step=1)
    assert StrategyMemory(items, LexicalEmbedder()).advise(_decision("shared", **after_failure)) is None
    assert StrategyMemory(items, LexicalEmbedder(), advise_after_failed_check=True).advise(
        _decision("shared", **after_failure)) is not None


def test_memory_reads_a_bank_and_follows_new_items(tmp_path: Path) -> None:
    bank = StrategyBank(tmp_path / "b.sqlite")
    memory = StrategyMemory(bank, LexicalEmbedder())
    assert memory.advise(_decision("count singers")) is None
    bank.add([item("Count", "count singers")])
    advice = memory.advise(_decision("count singers"))
    assert advice is not None and advice.record_id == bank.all()[0].id


def test_an_agent_puts_the_item_in_its_prompt(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    task = toy_benchmark.tasks()[0]
    tip = item("Add exactly", "add the two integers exactly", domain="math", benchmark="toy-add")
    llm = ScriptedLLM(["Action: submit 2"])
    outcome = ReActAgent(llm, toy_benchmark, toy_benchmark.world_model(), token_counter=llm.count_tokens,
                         memory=StrategyMemory([tip], LexicalEmbedder())).run(task)
    assert outcome.solved and outcome.advice_record_ids == [tip.id]
    assert "add the two integers exactly" in llm.calls[0][1].content and outcome.augmentation_tokens > 10


def test_trajectory_render_keeps_order_and_cuts_huge_actions() -> None:
    steps = (TrajectoryStep(action="SELECT 1", status="wrong", utility=0.0, observation="no rows"),
             TrajectoryStep(trial=1, action="x" * 50_000, status="error", utility=0.0))
    text = Trajectory(task_id="t", domain="sql", benchmark="spider", steps=steps, final_action=None).render("sql")
    assert text.index("SELECT 1") < text.index("Step 2 (trial 2)") < text.index("Final answer: none")
    assert len(text) < 6000 and "characters cut" in text


def test_key_task_ranks_items_by_the_task_they_came_from() -> None:
    singers = item("Tip A", "stadium concerts").model_copy(update={"source_task_text": "how many singers"})
    stadiums = item("Tip B", "how many singers are there").model_copy(
        update={"source_task_text": "which stadium holds the most concerts"})
    query = _decision("how many singers are there")
    by_item = StrategyMemory([stadiums, singers], LexicalEmbedder()).advise(query)
    by_task = StrategyMemory([stadiums, singers], LexicalEmbedder(), key="task").advise(query)
    assert by_item is not None and by_item.record_id == stadiums.id
    assert by_task is not None and by_task.record_id == singers.id
    assert singers.id == item("Tip A", "stadium concerts").id, "the task text is not part of the id"
    with pytest.raises(ConfigError, match="strategy key"):
        StrategyMemory([], LexicalEmbedder(), key="query")  # type: ignore[arg-type]


def test_the_learner_stores_the_source_task_text() -> None:
    bank = StrategyBank()
    run_once(StrategyLearner(StrategyDistiller(Router().llm), bank, verified_feedback=True), solved=True)
    assert {i.source_task_text for i in bank.all()} == {"Task: How many singers are there?"}


def test_the_learner_follows_a_real_agent_run(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    task = toy_benchmark.tasks()[0]  # 1 + 1
    router = Router(judge="Status: failure")
    bank = StrategyBank()
    learner = StrategyLearner(StrategyDistiller(router.llm, action_language="text"), bank)
    outcome = ReActAgent(ScriptedLLM(["Action: check 5", "Action: submit 2"]), toy_benchmark,
                         toy_benchmark.world_model(), memory=learner).run(task)
    assert outcome.solved and outcome.advice_record_ids == []
    assert router.kinds == ["judge", "failure"], "the judge (wrongly) said failure, and that is the label"
    judged = router.llm.calls[0][1].content
    assert "What is 1 + 1?" in judged and "```text\n5\n```" in judged and "Final answer:\n```text\n2\n```" in judged
    assert learner.stats.judge_agrees == 0 and {i.label for i in bank.all()} == {"failure"}
    assert all(i.domain == "math" and i.benchmark == "toy-add" and i.source_task_id == task.id for i in bank.all())
