"""Build the backend a command line or config names, optionally behind the response cache."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from countermem.core import ConfigError
from countermem.llm._cache import CachedLLM
from countermem.llm._local import LocalLLM
from countermem.llm._openai import DEFAULT_REQUEST_TIMEOUT_S, OpenAIChat, RetryPolicy
from countermem.llm._protocol import LLM
from countermem.llm._registry import DEFAULT_MODEL
from countermem.llm._sampling import SamplingValue
from countermem.llm._scripted import ScriptedLLM, ScriptFunction, ScriptItem
from countermem.llm._simulated import GeneratorDetector, GeneratorPolicy, NaiveActionFunction, SimulatedLLM

BACKBONES: tuple[str, ...] = ("openai", "local", "scripted", "simulated")
MODEL_BACKBONES: tuple[str, ...] = ("openai", "local")
"""The kinds that can load a second model by name (the generator's own model)."""


def make_llm(
    backbone: str,
    *,
    model: str | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
    cache_path: Path | None = None,
    models_dir: Path | None = None,
    n_threads: int | None = None,
    n_ctx: int = 4096,
    seed: int = 0,
    timeout_s: float = DEFAULT_REQUEST_TIMEOUT_S,
    retry: RetryPolicy | None = None,
    sampling: Mapping[str, SamplingValue] | str | None = None,
    script: Sequence[ScriptItem] | ScriptFunction | None = None,
    naive_action: NaiveActionFunction | None = None,
    generator_policy: GeneratorPolicy | None = None,
    is_generator_prompt: GeneratorDetector | None = None,
) -> LLM:
    """`model` is a server model name (openai), a registry name or GGUF path (local), or a label (scripted,
    simulated; a simulated backbone is a test bed, and what it makes must be labelled simulated).
    `sampling` is the openai backend's llama.cpp sampler extras (see `OpenAIChat`)."""
    llm: LLM
    if backbone == "openai":
        llm = OpenAIChat(
            model, base_url=base_url, api_key=api_key, timeout_s=timeout_s, retry=retry, sampling=sampling
        )
    elif backbone == "local":
        llm = LocalLLM(
            model or DEFAULT_MODEL, models_dir=models_dir, n_ctx=n_ctx, n_threads=n_threads, seed=seed
        )
    elif backbone == "scripted":
        if script is None:
            raise ConfigError("the scripted backbone needs a script (a list of replies or a function)")
        llm = ScriptedLLM(script, model=model or "scripted")
    elif backbone == "simulated":
        if naive_action is None:
            raise ConfigError(
                "the simulated backbone needs a naive-action map for its tasks; build it with "
                "countermem.experiment.simulated_llm_for(benchmark, tasks)"
            )
        llm = SimulatedLLM(
            naive_action,
            generator_policy=generator_policy,
            is_generator_prompt=is_generator_prompt,
            seed=seed,
            model=model or "simulated",
        )
    else:
        raise ConfigError(f"unknown backbone {backbone!r}; choose one of: {', '.join(BACKBONES)}")
    return CachedLLM(llm, cache_path) if cache_path is not None else llm


def make_generator_llm(
    backbone: str,
    model: str,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    cache_path: Path | None = None,
    n_threads: int | None = None,
    seed: int = 0,
    timeout_s: float = DEFAULT_REQUEST_TIMEOUT_S,
) -> LLM:
    """The generator's own model beside the agent's: same backbone kind and server, another model.

    Scripted and simulated backbones have no second model to load, so asking for one is a
    ConfigError rather than a silent fall back to the agent's canned replies."""
    if backbone not in MODEL_BACKBONES:
        raise ConfigError(
            f"a separate generator model ({model!r}) needs a real backbone ({' or '.join(MODEL_BACKBONES)}), "
            f"not {backbone}; leave the generator model out to let the agent's model write alternatives"
        )
    return make_llm(
        backbone, model=model, base_url=base_url, api_key=api_key, cache_path=cache_path,
        n_threads=n_threads, seed=seed, timeout_s=timeout_s,
    )
