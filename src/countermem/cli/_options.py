"""Option types shared by the commands that run agents, so every command spells them alike."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

Domain = Annotated[str | None, typer.Option(help="sql, math, coding, fv, smt or sat (picks its default benchmark)")]
BenchmarkName = Annotated[str | None, typer.Option("--benchmark", help="a benchmark; see `countermem benchmarks`")]
Backbone = Annotated[str, typer.Option(help="local | openai | scripted | simulated")]
Model = Annotated[str | None, typer.Option(help="local registry name, GGUF path, or server model name")]
BaseUrl = Annotated[str | None, typer.Option(help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1")]
RequestTimeout = Annotated[
    float | None,
    typer.Option(
        "--request-timeout",
        min=0.001,
        help="seconds one request to an openai-backbone server may take in all (default 120); "
        "a server that answers later counts as a fault, retried and then stopping the run",
    ),
]
ApiKey = Annotated[str | None, typer.Option(help="API key (default $COUNTERMEM_API_KEY / $OPENAI_API_KEY)")]
Limit = Annotated[int | None, typer.Option(min=1, help="run at most this many tasks (at least 1; leave out for all)")]
SplitSeed = Annotated[int, typer.Option(help="seed of the splits and of the task order")]
SplitByEnv = Annotated[
    bool, typer.Option("--split-by-environment/--split-by-task", help="keep environments in one split")
]
Seed = Annotated[int, typer.Option(help="sampling seed")]
Agent = Annotated[str, typer.Option(help="react | reflexion")]
AfterFailure = Annotated[
    str,
    typer.Option(help="after a failed check the model sees: history (the whole episode) | focused (task, failed action, check result)"),
]
ReuseChecks = Annotated[
    bool,
    typer.Option(help="answer a repeated check with the earlier result instead of a world-model call (same episode, fewer calls)"),
]
ShowUtility = Annotated[
    bool,
    typer.Option("--show-utility/--hide-utility",
                 help="print the check's utility in each observation (hide: only PASSED/FAILED and the status)"),
]
OneAction = Annotated[
    bool,
    typer.Option(help="end each reply at the start of its next step (a Thought: or Observation: line): no invented further steps"),
]
MaxTrials = Annotated[int, typer.Option(help="Reflexion trials per task")]
MaxSteps = Annotated[int, typer.Option(help="LLM turns per trial")]
MaxTokens = Annotated[int, typer.Option(help="prompt+completion tokens per task")]
MaxNewTokens = Annotated[int, typer.Option(help="tokens per LLM answer")]
Temperature = Annotated[float, typer.Option(help="sampling temperature")]
Out = Annotated[Path, typer.Option(help="run directory")]
Resume = Annotated[bool, typer.Option(help="continue the run in OUT, skipping finished tasks")]
Quiet = Annotated[bool, typer.Option("--quiet", help="no progress lines (printed per finished task when not on a terminal)")]
Cache = Annotated[Path | None, typer.Option(help="response cache file (SQLite) for reproducible, free reruns")]
DataDir = Annotated[Path | None, typer.Option(help="data root holding <benchmark>/SOURCE.md")]
Unsafe = Annotated[
    bool, typer.Option("--unsafe-no-sandbox", help="run model-written code without bubblewrap (logged)")
]
Store = Annotated[str, typer.Option(help="memory store: an SQLite file, or postgresql://user@host/db for a shared server store")]
Capacity = Annotated[int, typer.Option(help="records the store keeps")]
Retention = Annotated[str, typer.Option(help="utility | similarity | recency | random")]
Embedder = Annotated[str, typer.Option(help="minilm | onnx (MiniLM on onnxruntime, no torch) | onnx-int8 (faster, less exact) | lexical")]
Conditions = Annotated[
    bool, typer.Option("--conditions/--no-conditions", help="filter and render applicability conditions")
]
SelectorKind = Annotated[str, typer.Option("--selector", help="dqn | skip | top1 | random")]
Checkpoint = Annotated[Path | None, typer.Option(help="selector checkpoint file")]
MinGain = Annotated[float, typer.Option(help="admit only edits that gain more than this utility")]
Epochs = Annotated[int, typer.Option(help="passes over the training split")]
GeneratorModel = Annotated[
    str | None,
    typer.Option(
        "--generator-model",
        help="another model of the same backbone that writes the alternatives (e.g. the 1.5B builds records "
        "the 0.5B agent uses); default: the agent's model",
    ),
]
Samples = Annotated[
    int, typer.Option(min=0, max=32, help="generator calls at temperature after the greedy one (one alternative each)")
]
FailuresPerTask = Annotated[
    int | None,
    typer.Option(min=1, help="learn from at most this many failures of each source task (a build budget; default: all)"),
]
AfterMalformed = Annotated[
    bool,
    typer.Option(
        "--after-malformed/--no-after-malformed",
        help="learn from answers without an 'Action:' line and advise after them (opt-in: harmed on humaneval)",
    ),
]
Redact = Annotated[
    bool,
    typer.Option(
        "--redact/--no-redact",
        help="replace secrets (keys, tokens, passwords, e-mail addresses) in stored records with placeholders",
    ),
]
Scope = Annotated[
    str,
    typer.Option(
        "--scope",
        help="the scope (team, project, tenant) whose records this run writes and reads; others stay unseen",
    ),
]
ReadScope = Annotated[
    list[str] | None,
    typer.Option("--read-scope", help="also offer records of this scope, shared with --scope (repeatable)"),
]
MergeRecords = Annotated[
    bool,
    typer.Option(
        "--merge/--no-merge",
        help="merge an admitted record into an equivalent one (same condition and edit) instead of adding it",
    ),
]
GeneratorGrammar = Annotated[
    bool,
    typer.Option(
        "--generator-grammar/--no-generator-grammar",
        help="hold each sampled edit to its answer form with a GBNF grammar (llama.cpp backends only)",
    ),
]
GeneratorStrategy = Annotated[
    str,
    typer.Option(help="sampled: one alternative per call, conditions derived from facts; batch: one call, "
                 "the model writes up to 4 alternatives and their conditions"),
]
