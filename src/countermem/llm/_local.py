"""GGUF models run in-process through llama-cpp-python, so experiments need no server.

`llama_cpp` is imported only when a `LocalLLM` is built: the package is an optional extra
(`countermem[local]`) that compiles C++ at install time, and nothing else should pay for it.
The model file is a verified registry model (see `_registry`) or, for experiments with other
weights, an explicit path to a GGUF file, which is then the caller's responsibility.
Usage is llama.cpp's own token count; these models do not report reasoning tokens.

Reproducibility: llama.cpp reuses the KV cache of the previous prompt's common prefix, and a
reply can differ in rare cases with what was evaluated before (batch boundaries change the
arithmetic). So the cache is kept only while a call continues the previous conversation (its
messages begin with the previous messages and reply, as an agent's next step does) and reset
otherwise: a reply is then a function of its own conversation, whatever ran before in this
process, and a run and its no-memory twin in another process get the same replies. A study
showed the difference before this rule (two twins on one sql-shop task diverged at step 2).
One exception: a call with exactly the previous call's messages (memory's generator drawing
several samples of one prompt) keeps the cache, which saves evaluating a long prompt again for
each draw; such a reply is a function of its prompt and the draw before it, and the generator
always draws in the same order (greedy, then seeds), so runs stay reproducible.

Sampler settings are passed explicitly (`_sampling.LLAMA_CPP_SAMPLING`, equal to this library's
defaults) so the `openai` backend can send the same ones to a llama.cpp server.
"""

from __future__ import annotations

import importlib
import os
import threading
import time
from pathlib import Path
from typing import Any

from countermem.core import LLMError, ModelUnavailableError, Usage
from countermem.llm._protocol import Completion, GenerationParams, Message
from countermem.llm._pull import resolve_model_path
from countermem.llm._registry import DEFAULT_MODEL, MODELS
from countermem.llm._sampling import LLAMA_CPP_SAMPLING


def usable_cores() -> int:
    """Cores this process may run on (`taskset`, a container's CPU set), not all the machine has."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # no affinity API on this platform
        return max(1, os.cpu_count() or 1)


def default_threads() -> int:
    """Two threads at most: measured faster than more on small shared machines, and polite to others."""
    return min(2, usable_cores())


def _import_llama_cpp() -> Any:
    try:
        return importlib.import_module("llama_cpp")
    except ImportError as error:
        raise ModelUnavailableError(
            f"the local backend needs llama-cpp-python ({error}); run: pip install 'countermem[local]'"
        ) from error


class LocalLLM:
    """One loaded GGUF model. Calls are serialised: a llama.cpp context is not thread-safe."""

    backend = "local"

    def __init__(
        self,
        model: str | Path = DEFAULT_MODEL,
        *,
        models_dir: Path | None = None,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        seed: int = 0,
    ) -> None:
        llama_cpp = _import_llama_cpp()
        self.weights_sha256: str | None = None
        """The pinned sha256 of a registry model's bytes (provenance); None for a GGUF file given by path."""
        if isinstance(model, str) and model in MODELS:
            self.model = model
            self.path = resolve_model_path(model, models_dir)
            self.weights_sha256 = MODELS[model].sha256
        else:
            self.path = Path(model)
            self.model = self.path.name
            if not self.path.is_file():
                known = ", ".join(sorted(MODELS))
                raise ModelUnavailableError(
                    f"{model!r} is neither a registry model ({known}) nor an existing GGUF file"
                )
        self.n_ctx = n_ctx
        self.n_threads = n_threads or default_threads()
        self._lock = threading.Lock()
        self._conversation: list[tuple[str, str]] = []
        self._grammars: dict[str, Any] = {}
        self._llama = llama_cpp.Llama(
            model_path=str(self.path),
            n_ctx=n_ctx,
            n_threads=self.n_threads,
            n_threads_batch=self.n_threads,
            seed=seed,
            verbose=False,
        )

    @property
    def name(self) -> str:
        return f"{self.backend}:{self.model}"

    def count_tokens(self, text: str) -> int:
        """llama.cpp's own tokenizer, without the beginning-of-sequence token."""
        with self._lock:
            return len(self._llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def _grammar(self, text: str | None) -> Any:
        """The grammar object, kept per text, once llama.cpp's parser accepted the text."""
        if not text:
            return None
        if text not in self._grammars:
            llama_cpp = importlib.import_module("llama_cpp")
            # llama-cpp-python parses the grammar only while sampling, and crashes the process on a
            # bad one; parsing it here first turns that into an error.
            probe = llama_cpp.llama_sampler_init_grammar(
                self._llama._model.vocab, text.encode("utf-8"), b"root"
            )
            if not probe:
                raise LLMError(
                    "llama.cpp could not parse the GBNF grammar of this request (its parser printed why on "
                    "stderr); fix the grammar or leave it out"
                )
            llama_cpp.llama_sampler_free(probe)
            self._grammars[text] = llama_cpp.LlamaGrammar.from_string(text, verbose=False)
        return self._grammars[text]

    def complete(self, messages: list[Message], params: GenerationParams | None = None) -> Completion:
        params = params or GenerationParams()
        started = time.perf_counter()
        turns = [(m.role, m.content) for m in messages]
        try:
            with self._lock:
                previous = self._conversation
                continues = bool(previous) and turns[: len(previous)] == previous
                resample = bool(previous) and turns == previous[:-1]
                if not (continues or resample):
                    self._llama.reset()
                response = self._llama.create_chat_completion(
                    messages=[{"role": m.role, "content": m.content} for m in messages],
                    temperature=params.temperature,
                    max_tokens=params.max_tokens,
                    seed=params.seed,
                    stop=list(params.stop),
                    grammar=self._grammar(params.grammar),
                    **LLAMA_CPP_SAMPLING,
                )
        except ValueError as error:
            raise LLMError(
                f"local model {self.model} rejected the request ({error}); shorten the prompt or lower "
                f"max_tokens (context is {self.n_ctx} tokens)"
            ) from error
        latency = time.perf_counter() - started
        self._conversation = [*turns, ("assistant", response["choices"][0]["message"].get("content") or "")]
        usage = response.get("usage")
        if not usage:
            raise LLMError(f"llama.cpp returned no usage for {self.model}; countermem never estimates tokens")
        return Completion(
            text=response["choices"][0]["message"].get("content") or "",
            usage=Usage(prompt_tokens=usage["prompt_tokens"], completion_tokens=usage["completion_tokens"]),
            model=self.model,
            backend=self.backend,
            latency_s=latency,
        )
