"""make_llm: each backbone name builds the right backend; unknown names are config errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from countermem.core import ConfigError
from countermem.llm import (
    BACKBONES,
    CachedLLM,
    Message,
    OpenAIChat,
    ScriptedLLM,
    make_generator_llm,
    make_llm,
)


def test_scripted_with_cache(tmp_path: Path) -> None:
    llm = make_llm("scripted", model="toy", script=["x"], cache_path=tmp_path / "c.sqlite")
    assert isinstance(llm, CachedLLM) and isinstance(llm.inner, ScriptedLLM)
    assert llm.name == "scripted:toy"
    prompt = [Message(role="user", content="q")]
    assert llm.complete(prompt).text == "x" and llm.complete(prompt).cached


def test_openai_builds_without_contacting_a_server() -> None:
    llm = make_llm("openai", model="m", base_url="http://127.0.0.1:9/v1", api_key="k")
    assert isinstance(llm, OpenAIChat) and llm.name == "openai:m"


def test_openai_sampling_setting_reaches_the_backend() -> None:
    llm = make_llm("openai", model="m", base_url="http://127.0.0.1:9/v1", api_key="k", sampling="none")
    assert isinstance(llm, OpenAIChat) and llm.sampling == {}


def test_errors_are_config_errors() -> None:
    assert BACKBONES == ("openai", "local", "scripted", "simulated")
    with pytest.raises(ConfigError, match="unknown backbone 'gpt5'; choose one of: openai, local, scripted"):
        make_llm("gpt5")
    with pytest.raises(ConfigError, match="needs a script"):
        make_llm("scripted")


def test_a_generator_model_needs_a_backbone_that_loads_models(tmp_path: Path) -> None:
    for kind in ("scripted", "simulated"):
        with pytest.raises(ConfigError, match=f"needs a real backbone .*not {kind}"):
            make_generator_llm(kind, "qwen2.5-coder-1.5b")
    llm = make_generator_llm(
        "openai", "big", base_url="http://127.0.0.1:9/v1", api_key="k", cache_path=tmp_path / "g.sqlite"
    )
    assert isinstance(llm, CachedLLM) and llm.name == "openai:big"
