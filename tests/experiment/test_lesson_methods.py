"""The lesson methods: refused without lessons to show, sharing countermem's store, and settings that
leave older run folders resumable."""

from __future__ import annotations

from pathlib import Path

import pytest

from countermem.core import ConfigError
from countermem.experiment._methods import method_spec
from countermem.experiment._stages import MemorySettings
from countermem.experiment._study_config import parse_study_config
from countermem.memory import LessonSettings

BASE: dict[str, object] = {
    "name": "t", "benchmarks": ["sql-shop"], "agents": ["react"], "seeds": [0],
    "backbones": {"m": {"kind": "local", "model": "qwen2.5-coder-0.5b"}},
}


def test_a_lesson_method_needs_lessons_written_at_construction() -> None:
    with pytest.raises(ConfigError, match=r"countermem-lesson .*\[memory.lesson\] enabled = true"):
        parse_study_config({**BASE, "methods": ["none", "countermem-lesson"]})
    config = parse_study_config({**BASE, "methods": ["none", "countermem-lesson"], "memory": {"lesson": {"enabled": True}}})
    assert config.memory.lesson.enabled
    simulated = {**BASE, "backbones": {"s": {"kind": "simulated"}}, "methods": ["countermem"],
                 "memory": {"lesson": {"enabled": True}}}
    with pytest.raises(ConfigError, match="needs an LLM that writes lessons"):
        parse_study_config(simulated)


def test_lesson_methods_read_countermems_store() -> None:
    lesson, once, plain = method_spec("countermem-lesson"), method_spec("countermem-once"), method_spec("countermem")
    assert lesson.family == once.family == plain.family
    assert (lesson.rendering, lesson.repeat_offers) == ("lesson", False)
    assert (once.rendering, once.repeat_offers) == ("correction", False)
    after = method_spec("countermem-after-failure")
    assert after.family == plain.family and (after.rendering, after.repeat_offers) == ("correction", True)
    assert (after.offer_at_start, plain.offer_at_start) == (False, True)
    both = method_spec("countermem-lesson-after-failure")
    assert both.family == plain.family and (both.rendering, both.repeat_offers, both.offer_at_start) == (
        "lesson", False, False)


def test_default_lesson_settings_leave_the_recorded_memory_config_as_before(tmp_path: Path) -> None:
    flat = MemorySettings(store=tmp_path / "s.sqlite").flat()
    assert not {"lesson", "rendering", "repeat_offers", "offer_at_start"} & flat.keys()
    assert MemorySettings(store=tmp_path / "s.sqlite", offer_at_start=False).flat()["offer_at_start"] is False
    changed = MemorySettings(store=tmp_path / "s.sqlite", lesson=LessonSettings(enabled=True), rendering="lesson").flat()
    assert changed["rendering"] == "lesson" and '"enabled":true' in str(changed["lesson"])


def test_source_phrases_enter_the_recorded_lesson_config_only_when_on(tmp_path: Path) -> None:
    enabled = MemorySettings(store=tmp_path / "s.sqlite", lesson=LessonSettings(enabled=True)).flat()
    assert "source_phrases" not in str(enabled["lesson"]), "a lesson run recorded before the setting resumes"
    on = MemorySettings(store=tmp_path / "s.sqlite", lesson=LessonSettings(enabled=True, source_phrases=True)).flat()
    assert '"source_phrases":true' in str(on["lesson"])
