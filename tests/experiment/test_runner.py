import json
from pathlib import Path

import pytest

from countermem.core import ConfigError, LLMError
from countermem.experiment import RunConfig, RunDir, oracle_script, read_transcript, run_tasks, select_tasks
from countermem.llm import ScriptedLLM


def _config(**kw) -> RunConfig:  # type: ignore[no-untyped-def]
    return RunConfig(benchmark="toy-add", backbone="scripted", model="oracle-script", **kw)


def test_run_writes_a_complete_run_directory(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    config = _config(limit=6)
    tasks = select_tasks(toy_benchmark, config)
    llm = ScriptedLLM(oracle_script(toy_benchmark, tasks))
    metrics = run_tasks(config, llm, toy_benchmark, tasks, RunDir(tmp_path))
    assert metrics.n_tasks == 6 and metrics.n_solved == 6 and metrics.success == 100.0
    assert metrics.evaluator_calls == 6 and metrics.evaluator_calls_per_solved == 1.0
    assert metrics.failed_attempts_per_solved == 1.0
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["config"]["limit"] == 6 and "python" in manifest["versions"]
    stored = json.loads((tmp_path / "metrics.json").read_text())
    assert stored["usage"]["prompt_tokens"] > 0 and len(stored["per_task"]) == 6
    assert (tmp_path / "report.md").read_text().count("| toy-") == 6
    assert (tmp_path / "utility_per_task.png").stat().st_size > 1000
    events = list(read_transcript(tmp_path / "transcripts" / f"{tasks[0].id}.jsonl"))
    assert [e.kind for e in events] == ["llm", "check", "llm", "submit"]


def test_resume_skips_finished_tasks_and_matches_uninterrupted(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    config = _config(limit=8)
    tasks = select_tasks(toy_benchmark, config)
    script = oracle_script(toy_benchmark, tasks)
    calls = {"n": 0}

    def crashing(messages):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 7:  # in the middle of the fourth task
            raise KeyboardInterrupt
        return script(messages)

    with pytest.raises(KeyboardInterrupt):
        run_tasks(config, ScriptedLLM(crashing), toy_benchmark, tasks, RunDir(tmp_path / "a"))
    assert len(RunDir(tmp_path / "a").finished()) == 3
    resumed_llm = ScriptedLLM(script)
    resumed = run_tasks(config, resumed_llm, toy_benchmark, tasks, RunDir(tmp_path / "a"), resume=True)
    assert len(resumed_llm.calls) == 2 * 5  # only the five unfinished tasks ran
    straight = run_tasks(config, ScriptedLLM(script), toy_benchmark, tasks, RunDir(tmp_path / "b"))
    strip = lambda m: m.model_dump(exclude={"seconds", "per_task"})  # noqa: E731
    assert strip(resumed) == strip(straight)
    assert [t.model_dump() for t in resumed.per_task] == [t.model_dump() for t in straight.per_task]


def test_resume_refuses_other_config_and_existing_dir(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    config = _config(limit=2)
    tasks = select_tasks(toy_benchmark, config)
    run_tasks(config, ScriptedLLM(oracle_script(toy_benchmark, tasks)), toy_benchmark, tasks, RunDir(tmp_path))
    with pytest.raises(ConfigError, match="already holds a run"):
        run_tasks(config, ScriptedLLM([]), toy_benchmark, tasks, RunDir(tmp_path))
    with pytest.raises(ConfigError, match="different config"):
        run_tasks(_config(limit=3), ScriptedLLM([]), toy_benchmark, tasks, RunDir(tmp_path), resume=True)


def test_llm_error_on_one_task_is_recorded_not_fatal(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    config = _config(limit=2)
    tasks = select_tasks(toy_benchmark, config)
    script = oracle_script(toy_benchmark, tasks)
    replies = [LLMError("context overflow")]

    def reply(messages):  # type: ignore[no-untyped-def]
        if tasks[0].prompt in messages[1].content:
            raise replies[0]
        return script(messages)

    metrics = run_tasks(config, ScriptedLLM(reply), toy_benchmark, tasks, RunDir(tmp_path))
    assert metrics.n_solved == 1
    failed = [t for t in metrics.per_task if not t.solved]
    assert failed[0].stop_reason.startswith("llm_error: context overflow")


def test_per_solved_is_none_when_nothing_solved(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    config = _config(limit=2, max_steps=1)
    tasks = select_tasks(toy_benchmark, config)
    metrics = run_tasks(config, ScriptedLLM(lambda m: "Action: submit 0"), toy_benchmark, tasks, RunDir(tmp_path))
    assert metrics.n_solved == 0 and metrics.evaluator_calls_per_solved is None
    assert metrics.failed_attempts == 2


def test_a_folder_that_holds_no_run_is_refused_and_left_alone(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    config = _config(limit=2)
    tasks = select_tasks(toy_benchmark, config)
    foreign = {"report.md": "my notes\n", "results.jsonl": '{"mine": 1}\n'}
    for name, text in foreign.items():
        (tmp_path / name).write_text(text)
    for resume in (False, True):
        with pytest.raises(ConfigError, match="holds no countermem run"):
            run_tasks(config, ScriptedLLM(oracle_script(toy_benchmark, tasks)), toy_benchmark, tasks,
                      RunDir(tmp_path), resume=resume)
    assert {p.name: p.read_text() for p in tmp_path.iterdir()} == foreign
    with pytest.raises(ConfigError, match="is a file"):
        RunDir(tmp_path / "report.md").check(config, resume=False)
    with pytest.raises(ConfigError, match="cannot write"):  # fails for root too, unlike chmod
        RunDir(tmp_path / "report.md" / "run").check(config, resume=False)


def _half_run(toy_benchmark, path: Path, config: RunConfig) -> list:  # type: ignore[no-untyped-def]
    """Run the first three tasks of `config` into `path` (an interrupted run) and return all its tasks."""
    tasks = select_tasks(toy_benchmark, config)
    script = oracle_script(toy_benchmark, tasks)
    run_tasks(config, ScriptedLLM(script), toy_benchmark, tasks[:3], RunDir(path))
    return tasks


def test_resume_drops_a_torn_last_line_and_never_duplicates_a_task(  # type: ignore[no-untyped-def]
    toy_benchmark, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    config = _config(limit=6)
    tasks = _half_run(toy_benchmark, tmp_path, config)
    results = tmp_path / "results.jsonl"
    fourth = run_tasks(config, ScriptedLLM(oracle_script(toy_benchmark, tasks)), toy_benchmark, tasks[3:4],
                       RunDir(tmp_path / "other")).per_task[0]
    assert fourth.task_id == tasks[3].id
    line = (tmp_path / "other" / "results.jsonl").read_text()
    with results.open("a") as handle:
        handle.write(line[: len(line) // 2])  # a crash in the middle of the fourth task's line
    assert [o.task_id for o in RunDir(tmp_path).finished()] == [t.id for t in tasks[:3]]
    llm = ScriptedLLM(oracle_script(toy_benchmark, tasks))
    metrics = run_tasks(config, llm, toy_benchmark, [*tasks, tasks[0]], RunDir(tmp_path), resume=True)
    assert "torn" in caplog.text and "line 4" in caplog.text
    assert len(llm.calls) == 2 * 3  # tasks 4-6 ran, task 1 (listed twice) did not run again
    ids = [json.loads(line)["task_id"] for line in results.read_text().splitlines()]
    assert ids == [t.id for t in tasks]
    assert metrics.n_tasks == 7 and metrics.n_solved == 7


def test_resume_refuses_a_corrupt_line_in_the_middle(toy_benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    config = _config(limit=6)
    tasks = _half_run(toy_benchmark, tmp_path, config)
    results = tmp_path / "results.jsonl"
    lines = results.read_text().splitlines()
    results.write_text("\n".join([lines[0], "{not json", *lines[1:]]) + "\n")
    before = results.read_bytes()
    llm = ScriptedLLM(oracle_script(toy_benchmark, tasks))
    with pytest.raises(ConfigError, match=r"line 2 .*not a task result"):
        run_tasks(config, llm, toy_benchmark, tasks, RunDir(tmp_path), resume=True)
    assert results.read_bytes() == before and not llm.calls


def test_a_result_line_is_written_whole_in_one_write(toy_benchmark, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    import os

    config = _config(limit=2)
    tasks = select_tasks(toy_benchmark, config)
    writes: list[bytes] = []
    real_write = os.write

    def spy(fd: int, data: bytes) -> int:
        writes.append(bytes(data))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", spy)
    run_tasks(config, ScriptedLLM(oracle_script(toy_benchmark, tasks)), toy_benchmark, tasks, RunDir(tmp_path))
    lines = (tmp_path / "results.jsonl").read_bytes().splitlines(keepends=True)
    assert len(lines) == 2 and all(line in writes for line in lines)


def test_limit_below_one_is_refused() -> None:
    for limit in (0, -1):
        with pytest.raises(ValueError, match="greater than or equal to 1"):
            _config(limit=limit)
