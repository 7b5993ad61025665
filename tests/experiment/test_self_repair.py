"""Tasks classified by their checks: first try, repaired by the agent itself, never solved, no check."""

from __future__ import annotations

from pathlib import Path

import pytest

from countermem.agents import Event, TaskOutcome
from countermem.core import Action, CheckResult, Usage
from countermem.experiment._rundir import TranscriptWriter
from countermem.experiment._self_repair import (
    classify_task,
    compare_runs,
    failure_counts,
    failure_kind,
    repair_table,
    run_repairs,
)

WRONG = CheckResult(utility=0.0, passed=False, completed=True, status="wrong")
PASSED = CheckResult(utility=1.0, passed=True, completed=True, status="passed")


def checks(*results: CheckResult, tokens: int = 10) -> list[Event]:
    out = []
    for step, result in enumerate(results, start=1):
        out.append(Event(kind="llm", step=step, text="...", usage=Usage(prompt_tokens=tokens, completion_tokens=1)))
        out.append(Event(kind="check", step=step, action=Action(content=f"a{step}"), result=result))
    return out


def test_each_class_follows_the_order_of_the_checks() -> None:
    assert classify_task("t", checks(PASSED)).repair == "first_try"
    repaired = classify_task("t", checks(WRONG, WRONG, PASSED))
    assert repaired.repair == "self_repaired" and repaired.failed_before_pass == 2 and repaired.checks == 3
    never = classify_task("t", checks(WRONG, WRONG))
    assert never.repair == "never_solved" and never.failed_before_pass == 2
    assert classify_task("t", [Event(kind="parse_error", step=1, text="no Action line")]).repair == "no_check"
    assert classify_task("t", checks(WRONG, PASSED, tokens=10)).tokens == 22


def test_an_action_sent_to_the_checker_again_counts_as_repeated() -> None:
    contents = iter(["SELECT 1", "SELECT  1\n", "SELECT 2"])
    events = [e.model_copy(update={"action": Action(content=next(contents))}) if e.kind == "check" else e
              for e in checks(WRONG, WRONG, WRONG)]
    task = classify_task("t", events)
    assert task.repeated == 1 and task.checks == 3
    table = repair_table([task, classify_task("u", checks(WRONG, PASSED))])
    assert table.repeated["never_solved"] == 1 and table.checks["never_solved"] == 3
    assert table.repeated["self_repaired"] == 0 and table.checks["self_repaired"] == 2


def test_failures_are_counted_by_what_the_checker_said_without_names() -> None:
    column = CheckResult(utility=0.0, passed=False, completed=True, status="error",
                         details="SQLite error: no such column: T1.cust_id")
    syntax = CheckResult(utility=0.0, passed=False, completed=True, status="error",
                         details='SQLite error: near "Action": syntax error')
    assert failure_kind(column) == "error: no such column"
    assert failure_kind(syntax) == "error: near …"
    assert failure_kind(WRONG) == "wrong"
    never = classify_task("a", checks(column, WRONG))
    assert never.first_failure == "error: no such column" and never.failures == ["error: no such column", "wrong"]
    first, in_never = failure_counts([never, classify_task("b", checks(syntax, PASSED)), classify_task("c", checks(PASSED))])
    assert first == {"error: no such column": 1, "error: near …": 1}  # c passed at once
    assert in_never == {"error: no such column": 1, "wrong": 1}  # b was repaired


def test_the_table_counts_first_failures_and_the_share_repaired_alone() -> None:
    table = repair_table([
        classify_task("a", checks(PASSED)), classify_task("b", checks(WRONG, PASSED)),
        classify_task("c", checks(WRONG)), classify_task("d", checks(WRONG)), classify_task("e", []),
    ])
    assert table.tasks == 5 and table.first_failures == 3
    assert table.counts == {"first_try": 1, "self_repaired": 1, "never_solved": 2, "no_check": 1}
    assert table.self_repair_share == pytest.approx(1 / 3)
    assert repair_table([classify_task("a", checks(PASSED))]).self_repair_share is None


def test_a_run_folder_is_read_from_its_transcripts(tmp_path: Path) -> None:
    (tmp_path / "transcripts").mkdir()
    for name, events in {"t1": checks(WRONG, PASSED), "t2": checks(PASSED)}.items():
        with TranscriptWriter(tmp_path / "transcripts" / f"{name}.jsonl") as write:
            for event in events:
                write(event)
    assert [(r.task_id, r.repair) for r in run_repairs(tmp_path)] == [("t1", "self_repaired"), ("t2", "first_try")]
    (tmp_path / "results.jsonl").write_text('{"task_id": "t2", "solved": true}\n')  # t1 still in flight
    assert [r.task_id for r in run_repairs(tmp_path)] == ["t2"]
    with pytest.raises(FileNotFoundError, match="no transcripts"):
        run_repairs(tmp_path / "transcripts")


def _results(folder: Path, solved: dict[str, bool], tokens: int) -> Path:
    folder.mkdir()
    lines = [
        TaskOutcome(
            task_id=task, benchmark="b", solved=ok, final_utility=float(ok), final_status="x", submitted=True,
            forced_submit=False, steps=1, evaluator_calls=1, failed_attempts=0, parse_errors=0,
            usage=Usage(prompt_tokens=tokens, completion_tokens=0), stop_reason="submitted", seconds=0.0,
        ).model_dump_json()
        for task, ok in solved.items()
    ]
    (folder / "results.jsonl").write_text("\n".join(lines) + "\n")
    return folder


def test_two_runs_are_paired_on_the_tasks_both_finished(tmp_path: Path) -> None:
    first = _results(tmp_path / "history", {"a": True, "b": False, "c": False, "d": True, "only-here": False}, 100)
    second = _results(tmp_path / "focused", {"a": True, "b": True, "c": True, "d": False}, 60)
    pair = compare_runs(first, second)
    assert pair.tasks == 4 and (pair.solved_first, pair.solved_second) == (2, 3)
    assert pair.rescued_ids == ["b", "c"] and pair.broken_ids == ["d"]
    assert (pair.test.rescued, pair.test.broken, pair.test.n_paired) == (2, 1, 4)
    assert (pair.tokens_first, pair.tokens_second) == (400, 240)
    with pytest.raises(ValueError, match="share no finished task"):
        compare_runs(first, _results(tmp_path / "other", {"z": True}, 1))
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="no finished task"):
        compare_runs(first, tmp_path / "empty")


def test_reusable_checks_are_the_world_model_calls_reuse_checks_saves(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    from countermem.agents import AgentLimits, ReActAgent
    from countermem.llm import ScriptedLLM

    replies = ["Action: check 3", "Action: check 4", "Action: check  3", "Action: check 4", "Action: submit 2"]
    runs = []
    for reuse in (False, True):
        events: list[Event] = []
        agent = ReActAgent(ScriptedLLM(replies), toy_benchmark, toy_benchmark.world_model(),
                           limits=AgentLimits(max_steps=6, reuse_checks=reuse), sink=events.append)
        runs.append((agent.run(toy_benchmark.tasks()[0]), events))
    (plain, plain_events), (reused, _) = runs
    task = classify_task("t", plain_events)
    assert task.reusable == 2 and plain.evaluator_calls - reused.evaluator_calls == task.reusable
    timed_out = CheckResult(utility=0.0, passed=False, completed=False, status="timeout")
    again = [e.model_copy(update={"action": Action(content="same")}) if e.kind == "check" else e
             for e in checks(timed_out, WRONG, WRONG)]
    assert classify_task("t", again).reusable == 1  # the timed-out check is made again; the third repeats the second


def test_pairs_pool_into_one_test_where_the_same_task_id_counts_once_per_pair(tmp_path: Path) -> None:
    from countermem.experiment._self_repair import pool_pairs

    seed0 = (_results(tmp_path / "s0-none", {"a": False, "b": False}, 10), _results(tmp_path / "s0-with", {"a": True, "b": False}, 20))
    seed1 = (_results(tmp_path / "s1-none", {"a": False, "c": True}, 10), _results(tmp_path / "s1-with", {"a": True, "c": True}, 20))
    pooled = pool_pairs([seed0, seed1])
    assert pooled.tasks == 4 and (pooled.solved_first, pooled.solved_second) == (1, 3)
    assert pooled.rescued_ids == ["0:a", "1:a"] and pooled.broken_ids == []  # task a of each seed is its own pair
    assert (pooled.test.rescued, pooled.test.n_paired) == (2, 4) and pooled.tokens_second == 80
    assert compare_runs(*seed0).rescued_ids == ["a"]  # one pair keeps its task ids
    with pytest.raises(ValueError, match="no run pair"):
        pool_pairs([])
