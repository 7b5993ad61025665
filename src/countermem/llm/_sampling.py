"""The sampler settings both llama.cpp backends use, so a served model answers like the embedded one.

The embedded `local` backend calls llama-cpp-python's `create_chat_completion`, whose defaults
are top_p 0.95, top_k 40, min_p 0.05, typical_p 1.0, repeat_penalty 1.0 and no presence or
frequency penalty (llama-cpp-python 0.3.36). A `llama_cpp.server` fills an omitted field with
its own default instead, and one differs: repeat_penalty 1.1. Even a greedy run then picks other
tokens once a token repeats, so the `openai` backend sends these values in the request body and
the `local` backend passes them explicitly: one constant, not two libraries' defaults, decides.

Servers that reject fields they do not know (OpenAI itself answers 400 to `top_k`) get none of
them with the setting `none` (or an empty string).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from types import MappingProxyType

from countermem.core import ConfigError

SamplingValue = int | float
SAMPLING_ENV = "COUNTERMEM_SAMPLING"

LLAMA_CPP_SAMPLING: Mapping[str, SamplingValue] = MappingProxyType(
    {
        "top_p": 0.95,
        "top_k": 40,
        "min_p": 0.05,
        "typical_p": 1.0,
        "repeat_penalty": 1.0,
        "presence_penalty": 0.0,
        "frequency_penalty": 0.0,
    }
)
"""llama-cpp-python's own `create_chat_completion` defaults; a test checks they still are."""


def parse_sampling(text: str) -> dict[str, SamplingValue]:
    """`none` or empty: send nothing; `default`: `LLAMA_CPP_SAMPLING`; else `name=value,name=value`.

    Values that read as integers stay integers, because servers validate `top_k` as an integer.
    """
    spec = text.strip()
    if spec.lower() in {"", "none"}:
        return {}
    if spec.lower() == "default":
        return dict(LLAMA_CPP_SAMPLING)
    settings: dict[str, SamplingValue] = {}
    for item in spec.split(","):
        name, sep, raw = item.partition("=")
        name, raw = name.strip(), raw.strip()
        if not sep or not name or not raw:
            raise ConfigError(
                f"sampling setting {item.strip()!r} is not name=value; write e.g. "
                f"'top_k=40,min_p=0.05', 'default' or 'none'"
            )
        try:
            settings[name] = int(raw)
        except ValueError:
            try:
                value = float(raw)
            except ValueError:
                value = math.nan
            if not math.isfinite(value):
                raise ConfigError(f"sampling setting {name}={raw!r} is not a finite number") from None
            settings[name] = value
    return settings


def resolve_sampling(sampling: Mapping[str, SamplingValue] | str | None) -> dict[str, SamplingValue]:
    """The argument if given (a mapping or a `parse_sampling` text), else $COUNTERMEM_SAMPLING if set
    (even to an empty string, which means none), else `LLAMA_CPP_SAMPLING`."""
    if isinstance(sampling, str):
        return parse_sampling(sampling)
    if sampling is not None:
        return dict(sampling)
    from_env = os.environ.get(SAMPLING_ENV)
    if from_env is not None:
        return parse_sampling(from_env)
    return dict(LLAMA_CPP_SAMPLING)
