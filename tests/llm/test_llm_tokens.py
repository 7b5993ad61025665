from countermem.core import Usage
from countermem.llm import CachedLLM, Completion, GenerationParams, Message, ScriptedLLM, token_counter


def test_scripted_counts_words_and_cache_delegates(tmp_path) -> None:  # type: ignore[no-untyped-def]
    llm = ScriptedLLM([])
    assert token_counter(llm)("a b  c") == 3
    assert token_counter(CachedLLM(llm, tmp_path / "c.sqlite"))("one two") == 2


class _Server:
    """Counts characters as tokens plus a fixed template overhead of 7, like a chat template."""

    name = "fake:server"

    def __init__(self) -> None:
        self.calls = 0

    def complete(self, messages: list[Message], params: GenerationParams | None = None) -> Completion:
        self.calls += 1
        assert params is not None and params.max_tokens == 1
        return Completion(text="x", usage=Usage(prompt_tokens=7 + len(messages[0].content), completion_tokens=1),
                          model="m", backend="fake")


def test_probe_subtracts_template_overhead_and_caches() -> None:
    server = _Server()
    count = token_counter(server)
    assert count("hello") == 5
    assert count("hello") == 5
    assert count("hi") == 2
    assert server.calls == 3  # empty probe once, then each distinct text once


class _NoUsageServer(_Server):
    def complete(self, messages: list[Message], params: GenerationParams | None = None) -> Completion:
        self.calls += 1
        return Completion(text="x", usage=Usage.unknown(), model="m", backend="fake")


def test_a_probe_without_usage_is_refused_not_read_as_zero_tokens() -> None:
    import pytest

    from countermem.core import ConfigError

    with pytest.raises(ConfigError, match=r"without usage.*would read 0"):
        token_counter(_NoUsageServer())("hello")
