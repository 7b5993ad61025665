"""Transcripts record the prompts: every model call's prompt is rebuilt exactly from the events."""

from countermem.agents import MODEL_CALLS, Event, ReActAgent, ReflexionAgent, prompt_of
from countermem.llm import ScriptedLLM


def _prompts(events: list[Event]) -> list[list[dict[str, str]] | None]:
    rebuilt = [prompt_of(events, i) for i, e in enumerate(events) if e.kind in MODEL_CALLS]
    return [None if p is None else [m.model_dump() for m in p] for p in rebuilt]


def _sent(llm: ScriptedLLM) -> list[list[dict[str, str]] | None]:
    return [[m.model_dump() for m in call] for call in llm.calls]


def test_react_prompts_are_rebuilt_from_the_transcript(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    events: list[Event] = []
    llm = ScriptedLLM(["the answer is 2", "Action: check 3", "Action: submit 2"])
    ReActAgent(llm, toy_benchmark, toy_benchmark.world_model(), sink=events.append).run(toy_benchmark.tasks()[0])
    assert len(llm.calls) == 3
    assert _prompts(events) == _sent(llm)
    first, second = (e for e in events if e.kind == "llm" and e.step in (1, 2))
    assert first.messages is not None and [m.role for m in first.messages] == ["system", "user"]
    assert second.messages is not None and len(second.messages) == 1  # only what was new: the reprompt


def test_reflexion_prompts_are_rebuilt_per_trial(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    events: list[Event] = []
    llm = ScriptedLLM(["Action: submit 3", "I added wrong.", "Action: submit 2"])
    agent = ReflexionAgent(llm, toy_benchmark, toy_benchmark.world_model(), sink=events.append, max_trials=3)
    assert agent.run(toy_benchmark.tasks()[0]).solved
    assert _prompts(events) == _sent(llm)


def test_an_old_transcript_line_without_prompts_still_reads() -> None:
    old = Event.model_validate_json('{"kind": "llm", "step": 1, "trial": 0, "text": "Action: submit 2"}')
    assert old.messages is None and prompt_of([old], 0) is None


def test_best_of_n_attempts_in_one_transcript_are_separate_conversations(toy_benchmark, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from countermem.experiment import RunConfig, RunDir, read_transcript, run_tasks, select_tasks

    config = RunConfig(benchmark="toy-add", backbone="scripted", model="s", limit=1, attempts=2,
                       attempt_temperature=0.7)
    tasks = select_tasks(toy_benchmark, config)
    wrong = str(int(toy_benchmark.gold_action(tasks[0]).content) + 1)
    llm = ScriptedLLM([f"Action: check {wrong}", f"Action: submit {wrong}", "Action: check 0", "Action: submit 0"])
    run_tasks(config, llm, toy_benchmark, tasks, RunDir(tmp_path))
    events = list(read_transcript(tmp_path / "transcripts" / f"{tasks[0].id}.jsonl"))
    assert len(llm.calls) == 4 and {e.trial for e in events} == {0}
    assert _prompts(events) == _sent(llm)
