"""CachedLLM: hits replay the original completion, keys separate params and models, processes share a file."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from countermem.llm import CachedLLM, GenerationParams, Message, ScriptedLLM, ScriptedReply, cache_key

PROMPT = [Message(role="user", content="write a query")]


def test_hit_returns_original_usage_and_is_marked_cached(tmp_path: Path) -> None:
    inner = ScriptedLLM([ScriptedReply(text="SELECT 1 ;", reasoning="think hard")])
    llm = CachedLLM(inner, tmp_path / "cache.sqlite")
    first = llm.complete(PROMPT)
    second = llm.complete(PROMPT)
    assert not first.cached and second.cached
    assert second.usage == first.usage and second.usage.reasoning_tokens == 2
    assert (second.text, second.reasoning, second.latency_s) == (first.text, first.reasoning, first.latency_s)
    assert len(inner.calls) == 1 and (llm.hits, llm.misses) == (1, 1)


def test_cache_survives_a_new_instance(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    CachedLLM(ScriptedLLM(["a"]), path).complete(PROMPT)
    replay = CachedLLM(ScriptedLLM([]), path)
    assert replay.complete(PROMPT).text == "a" and replay.entries() == 1


def test_different_params_messages_or_model_miss(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    llm = CachedLLM(ScriptedLLM(["a", "b", "c"]), path)
    assert llm.complete(PROMPT).text == "a"
    assert llm.complete(PROMPT, GenerationParams(temperature=0.7)).text == "b"
    assert llm.complete([Message(role="user", content="other")]).text == "c"
    other_model = CachedLLM(ScriptedLLM(["d"], model="other"), path)
    assert other_model.complete(PROMPT).text == "d"
    assert llm.entries() == 4


def test_key_is_stable_and_sensitive() -> None:
    base = cache_key("openai:m", PROMPT, GenerationParams())
    assert base == cache_key("openai:m", list(PROMPT), GenerationParams())
    assert base != cache_key("openai:m", PROMPT, GenerationParams(stop=("x",)))
    assert base != cache_key("local:m", PROMPT, GenerationParams())


def test_failed_calls_are_not_cached(tmp_path: Path) -> None:
    llm = CachedLLM(ScriptedLLM([RuntimeError("down"), "ok"]), tmp_path / "c.sqlite")
    with pytest.raises(RuntimeError, match="down"):
        llm.complete(PROMPT)
    assert llm.entries() == 0
    assert llm.complete(PROMPT).text == "ok"


def _worker(path: str, worker: int, rounds: int) -> None:
    llm = CachedLLM(ScriptedLLM(lambda m: m[-1].content + " answered"), Path(path))
    for i in range(rounds):
        llm.complete([Message(role="user", content=f"w{worker} q{i}")])
        llm.complete([Message(role="user", content=f"shared q{i}")])


def test_two_processes_share_one_file(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite"
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_worker, args=(str(path), w, 25)) for w in range(2)]
    for process in workers:
        process.start()
    for process in workers:
        process.join(60)
    assert [p.exitcode for p in workers] == [0, 0]
    assert CachedLLM(ScriptedLLM([]), path).entries() == 25 * 2 + 25


def test_a_grammar_is_part_of_the_key_and_its_absence_keeps_older_keys() -> None:
    import hashlib
    import json

    from countermem.llm._cache import _KEY_VERSION

    params = GenerationParams()
    older = {"v": _KEY_VERSION, "llm": "local:m", "messages": [m.model_dump(mode="json") for m in PROMPT],
             "params": {k: v for k, v in params.model_dump(mode="json").items() if k != "grammar"}}
    encoded = json.dumps(older, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert cache_key("local:m", PROMPT, params) == hashlib.sha256(encoded.encode("utf-8")).hexdigest()
    assert cache_key("local:m", PROMPT, GenerationParams(grammar='root ::= "a"')) != cache_key("local:m", PROMPT, params)
