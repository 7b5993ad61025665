"""A server fault is not a task result: the run stops, the task stays unfinished, resume redoes it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from countermem.core import LLMServerFaultError, Task
from countermem.experiment import RunConfig, RunDir, oracle_script, run_tasks, select_tasks
from countermem.llm import Message, OpenAIChat, RetryPolicy
from fake_chat_server import Reply, Responder, completion, serving

FAULTS: dict[str, tuple[int, str, bytes]] = {
    "503": (503, "application/json", b'{"error": {"message": "overloaded"}}'),
    "html": (200, "text/html", b"<html><body>upstream proxy error</body></html>"),
    "broken-json": (200, "application/json", b'{"choices": [{"mess'),
    "no-choices": (200, "application/json", b'{"id": "c", "object": "chat.completion", "choices": []}'),
}


class OracleServer(Responder):
    """Answers from the oracle script; in `mode` "ok" with usage, "no-usage" without, else a fault."""

    def __init__(self, script: Callable[[list[Message]], str]) -> None:
        self.mode = "ok"
        self.script = script


    def __call__(self, body: dict[str, Any]) -> Reply:
        if self.mode in FAULTS:
            return FAULTS[self.mode]
        text = self.script([Message(**m) for m in body["messages"]])
        return completion(text, model=body["model"], usage=self.mode == "ok")


@pytest.fixture
def toy_run(toy_benchmark: Any) -> Iterator[tuple[OracleServer, list[Task], RunConfig, OpenAIChat]]:
    tasks = select_tasks(toy_benchmark, RunConfig(benchmark="toy-add", backbone="openai", model="m", limit=4))
    oracle = OracleServer(oracle_script(toy_benchmark, tasks))
    with serving(oracle) as served:
        config = RunConfig(benchmark="toy-add", backbone="openai", model="m", base_url=served.url, limit=4)
        llm = OpenAIChat("m", base_url=served.url, api_key="k", retry=RetryPolicy(max_retries=2, initial_s=0.0))
        yield oracle, tasks, config, llm


@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_server_fault_stops_the_run_and_resume_redoes_exactly_the_unfinished_tasks(
    toy_benchmark: Any, toy_run: tuple[OracleServer, list[Task], RunConfig, OpenAIChat], tmp_path: Path,
    fault: str,
) -> None:
    served, tasks, config, llm = toy_run

    def on_done(outcome: Any, count: int, total: int) -> None:
        if count == 1:
            served.mode = fault

    with pytest.raises(LLMServerFaultError) as caught:
        run_tasks(config, llm, toy_benchmark, tasks, RunDir(tmp_path), on_task_done=on_done)
    assert "\n" not in str(caught.value) and served.url in str(caught.value)
    finished = RunDir(tmp_path).finished()
    assert [o.task_id for o in finished] == [tasks[0].id], "the task in flight is not recorded as failed"
    assert not (tmp_path / "metrics.json").exists()

    served.mode, served.requests = "ok", 0
    metrics = run_tasks(config, llm, toy_benchmark, tasks, RunDir(tmp_path), resume=True)
    assert served.requests == 2 * 3, "resume ran the three unfinished tasks (two requests each), and only those"
    assert metrics.n_tasks == 4 and metrics.n_solved == 4 and metrics.usage.known


def test_a_run_without_usage_counts_it_as_unknown_and_says_so(
    toy_benchmark: Any, toy_run: tuple[OracleServer, list[Task], RunConfig, OpenAIChat], tmp_path: Path
) -> None:
    served, tasks, config, llm = toy_run
    served.mode = "no-usage"
    metrics = run_tasks(config, llm, toy_benchmark, tasks[:2], RunDir(tmp_path))
    assert metrics.n_solved == 2, "a reply without usage is still an answer"
    assert metrics.usage.unknown_calls == served.requests > 0 and metrics.usage.total == 0
    assert any("lower bound" in w and f"{served.requests} model call(s)" in w for w in metrics.warnings)
    assert "lower bound" in (tmp_path / "report.md").read_text()


def test_a_failed_response_cache_stops_the_run_instead_of_failing_its_tasks(toy_benchmark: Any, tmp_path: Path) -> None:
    from countermem.core import ResponseCacheError
    from countermem.llm import CachedLLM, ScriptedLLM

    tasks = select_tasks(toy_benchmark, RunConfig(benchmark="toy-add", backbone="scripted", model="m", limit=4))
    config = RunConfig(benchmark="toy-add", backbone="scripted", model="m", limit=4)
    folder = tmp_path / "cache"
    folder.mkdir()
    llm = CachedLLM(ScriptedLLM(oracle_script(toy_benchmark, tasks)), folder / "replies.sqlite")

    def on_done(outcome: Any, count: int, total: int) -> None:
        if count == 1:  # the cache folder goes away mid-run (measured: a person cleaning up)
            for path in folder.iterdir():
                path.unlink()
            folder.rmdir()

    with pytest.raises(ResponseCacheError, match="response cache"):
        run_tasks(config, llm, toy_benchmark, tasks, RunDir(tmp_path / "run"), on_task_done=on_done)
    assert [o.task_id for o in RunDir(tmp_path / "run").finished()] == [tasks[0].id]

    folder.mkdir()
    again = CachedLLM(ScriptedLLM(oracle_script(toy_benchmark, tasks)), folder / "replies.sqlite")
    metrics = run_tasks(config, again, toy_benchmark, tasks, RunDir(tmp_path / "run"), resume=True)
    assert metrics.n_tasks == 4 and metrics.n_solved == 4
