"""LocalLLM: the missing-extra error always; a real generation with smollm2 when it is installed and pulled."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from countermem.core import ModelUnavailableError
from countermem.llm import LLAMA_CPP_SAMPLING, GenerationParams, LocalLLM, Message, resolve_model_path


def test_missing_llama_cpp_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # None in sys.modules makes `import` fail
    with pytest.raises(ModelUnavailableError, match=r"pip install 'countermem\[local\]'"):
        LocalLLM("smollm2-135m")


def test_unpulled_model_says_how_to_pull(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed")
    with pytest.raises(ModelUnavailableError, match="run: countermem models pull smollm2-135m"):
        LocalLLM("smollm2-135m", models_dir=tmp_path)


def _smollm2() -> LocalLLM:
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed")
    try:
        resolve_model_path("smollm2-135m")
    except ModelUnavailableError as error:
        pytest.skip(str(error))
    return LocalLLM("smollm2-135m", n_ctx=1024)


@pytest.mark.slow
def test_smollm2_generates_with_engine_usage_and_is_deterministic() -> None:
    llm = _smollm2()
    messages = [Message(role="user", content="Name one colour.")]
    params = GenerationParams(max_tokens=12, temperature=0.0, seed=1)
    first = llm.complete(messages, params)
    second = llm.complete(messages, params)
    assert first.text.strip() and first.backend == "local" and first.model == "smollm2-135m"
    assert first.usage.prompt_tokens > 5
    assert 0 < first.usage.completion_tokens <= 12 and first.usage.reasoning_tokens == 0
    assert (second.text, second.usage) == (first.text, first.usage)


class _FakeLlama:
    """Records what LocalLLM asks of llama.cpp (no model needed)."""

    def __init__(self) -> None:
        self.resets = 0
        self.kwargs: list[dict[str, object]] = []

    def reset(self) -> None:
        self.resets += 1

    def create_chat_completion(self, messages: list[dict[str, str]], **kwargs: object) -> dict[str, object]:
        self.kwargs.append(kwargs)
        return {"choices": [{"message": {"content": f"reply to {len(messages)}"}}],
                "usage": {"prompt_tokens": 3, "completion_tokens": 2}}


def test_kv_cache_is_kept_only_while_a_conversation_continues() -> None:
    import threading

    llm = LocalLLM.__new__(LocalLLM)
    fake = _FakeLlama()
    llm._llama, llm._lock, llm._conversation, llm.model, llm.n_ctx = fake, threading.Lock(), [], "fake", 64
    system, user = Message(role="system", content="s"), Message(role="user", content="task A")
    first = llm.complete([system, user])
    assert fake.resets == 1
    step = [system, user, Message(role="assistant", content=first.text), Message(role="user", content="obs")]
    llm.complete(step)
    assert fake.resets == 1, "the next step of the same conversation keeps the cache"
    llm.complete([system, Message(role="user", content="task B")])
    assert fake.resets == 2, "another conversation starts from an empty cache"
    edited = [system, Message(role="user", content="task B"), Message(role="assistant", content="not the reply")]
    llm.complete(edited)
    assert fake.resets == 3, "a conversation whose history was changed is not a continuation"


def test_sampler_settings_are_passed_explicitly() -> None:
    """The openai backend sends the same constant, so both must read it rather than library defaults."""
    import threading

    llm = LocalLLM.__new__(LocalLLM)
    fake = _FakeLlama()
    llm._llama, llm._lock, llm._conversation, llm.model, llm.n_ctx = fake, threading.Lock(), [], "fake", 64
    llm.complete([Message(role="user", content="hi")])
    assert {name: fake.kwargs[0].get(name) for name in LLAMA_CPP_SAMPLING} == dict(LLAMA_CPP_SAMPLING)


def test_sampler_settings_are_llama_cpp_defaults() -> None:
    """Passing them explicitly must not change what the local backend did before (the library's defaults)."""
    import inspect

    llama_cpp = pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed")
    parameters = inspect.signature(llama_cpp.Llama.create_chat_completion).parameters
    assert {name: parameters[name].default for name in LLAMA_CPP_SAMPLING} == dict(LLAMA_CPP_SAMPLING)


def test_kv_cache_is_kept_for_a_resample_of_the_same_prompt() -> None:
    import threading

    llm = LocalLLM.__new__(LocalLLM)
    fake = _FakeLlama()
    llm._llama, llm._lock, llm._conversation, llm.model, llm.n_ctx = fake, threading.Lock(), [], "fake", 64
    prompt = [Message(role="system", content="generator"), Message(role="user", content="failed action")]
    llm.complete(prompt, GenerationParams(temperature=0.0, seed=0))
    llm.complete(prompt, GenerationParams(temperature=0.8, seed=1))
    llm.complete(prompt, GenerationParams(temperature=0.8, seed=2))
    assert fake.resets == 1, "draws of one prompt reuse its evaluated prefix"
    llm.complete([prompt[0], Message(role="user", content="another failure")])
    assert fake.resets == 2


def test_threads_follow_the_cores_this_process_may_use(monkeypatch: pytest.MonkeyPatch) -> None:
    from countermem.experiment._study import threads_per_worker
    from countermem.llm import default_threads, usable_cores

    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {3}, raising=False)  # e.g. `taskset -c 3`
    monkeypatch.setattr("os.cpu_count", lambda: 16)
    assert usable_cores() == 1 and default_threads() == 1 and threads_per_worker(1) == 1
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: set(range(8)), raising=False)
    assert default_threads() == 2 and threads_per_worker(2) == 4


def _any_pulled() -> LocalLLM:
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed")
    for name in ("smollm2-135m", "qwen2.5-coder-0.5b"):
        try:
            resolve_model_path(name)
        except ModelUnavailableError:
            continue
        return LocalLLM(name, n_ctx=1024, n_threads=1)
    pytest.skip("neither smollm2-135m nor qwen2.5-coder-0.5b is pulled (countermem models pull NAME)")


@pytest.mark.slow
def test_a_grammar_holds_the_answer_to_its_form_and_a_bad_one_is_an_error() -> None:
    from countermem.core import LLMError
    from countermem.memory import parse_single
    from countermem.memory._grammar import edit_grammar

    llm = _any_pulled()
    messages = [Message(role="user", content="Fix this query: SELECT nam FROM customers (no column nam; use name).")]
    for seed in (0, 1):
        params = GenerationParams(max_tokens=160, temperature=0.8, seed=seed, grammar=edit_grammar("sql"))
        reply = llm.complete(messages, params)
        assert reply.text.startswith("Fix: "), reply.text
        if reply.usage.completion_tokens < params.max_tokens:  # it ended on its own: the grammar's end
            alternative, problem = parse_single(reply.text, action_language="sql")
            assert alternative is not None and reply.text.endswith("```"), (problem, reply.text)
    with pytest.raises(LLMError, match="could not parse the GBNF grammar"):
        llm.complete(messages, GenerationParams(max_tokens=8, grammar="root ::= ( broken"))
