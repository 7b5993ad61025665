"""benchmarks/form_salvage.py and form_advice_replay.py read the right answers from a transcript."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from countermem.agents import Event
from countermem.core import Task
from countermem.domains.math import GSM8K
from countermem.llm import Message

ROOT = Path(__file__).resolve().parents[2] / "benchmarks"
TASK = Task(id="gsm8k-t1", benchmark="gsm8k", domain="math", prompt="How many?", gold="16")


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


def _transcript(tmp_path: Path) -> Path:
    events = [
        Event(kind="llm", step=1, text="Thought: 9 + 7 = 16, so \\boxed{16}.",
              messages=[Message(role="system", content="S"), Message(role="user", content="How many?")]),
        Event(kind="parse_error", step=1, text="no Action line"),
        Event(kind="llm", step=2, text="Thought: still 16.", messages=[Message(role="user", content="Answer again")]),
        Event(kind="parse_error", step=2, text="no Action line"),
        Event(kind="llm", step=3, text="Action: check\n```text\nAnswer: 16\n```",
              messages=[Message(role="user", content="Answer again")]),
    ]
    path = tmp_path / "transcripts" / "gsm8k-t1.jsonl"
    path.parent.mkdir()
    path.write_text("".join(e.model_dump_json() + "\n" for e in events))
    return path


def test_malformed_answers_are_the_replies_that_ended_in_a_parse_error(tmp_path: Path) -> None:
    answers = _script("form_salvage").malformed_answers(_transcript(tmp_path))
    assert answers == ["Thought: 9 + 7 = 16, so \\boxed{16}.", "Thought: still 16."]


def test_replay_points_are_the_replies_after_a_salvageable_malformed_answer(tmp_path: Path) -> None:
    points = _script("form_advice_replay").points_of(_transcript(tmp_path), TASK, GSM8K())
    (point,) = points  # "still 16." states no final answer, so the reply after it is no point
    assert point.salvaged == "Answer: 16" and point.recorded == "Thought: still 16."
    assert [m.content for m in point.messages] == ["S", "How many?", point.answer, "Answer again"]


def test_failed_checks_and_the_replies_after_one_refused_on_form(tmp_path: Path) -> None:
    from countermem.core import Action, CheckResult

    refused = CheckResult(utility=0.0, passed=False, completed=True, status="error",
                          details="no final answer found: end the action with \\boxed{...} or a line 'Answer: ...'")
    wrong = CheckResult(utility=0.0, passed=False, completed=True, status="wrong",
                        details="final answer '15': '15' is not the reference number [exact-number]")
    events = [
        Event(kind="llm", step=1, text="Action: check\n```text\n9 + 7 = 16\n```",
              messages=[Message(role="system", content="S"), Message(role="user", content="How many?")]),
        Event(kind="check", step=1, action=Action(content="9 + 7 = 16"), result=refused),
        Event(kind="llm", step=2, text="Observation: check FAILED", messages=[Message(role="user", content="Obs 1")]),
        Event(kind="check", step=2, action=Action(content="Answer: 15"), result=wrong),
        Event(kind="llm", step=3, text="Action: check\n```text\nAnswer: 16\n```",
              messages=[Message(role="user", content="Obs 2")]),
    ]
    path = tmp_path / "transcripts" / "gsm8k-t1.jsonl"
    path.parent.mkdir()
    path.write_text("".join(e.model_dump_json() + "\n" for e in events))
    (point,) = _script("form_advice_replay").points_after_checks(path, TASK, GSM8K())  # a wrong value is content
    assert point.salvaged == "9 + 7 = 16\nAnswer: 16" and point.result == refused
    assert point.recorded == "Observation: check FAILED"
    assert [m.content for m in point.messages][-1] == "Obs 1"
    assert _script("form_salvage").refused_checks(path) == [("9 + 7 = 16", refused), ("Answer: 15", wrong)]
