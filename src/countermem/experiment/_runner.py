"""Runs an agent over a list of tasks into a run directory, resumably.

A backend error of one task (a prompt longer than the context, a simulated backbone that does
not know the task) is that task's failure. A backbone fault (`BACKBONE_FAULTS`: the server is
unreachable, refuses every request, or failed past its retries) is not: it stops the run with
the task in flight unfinished, so `--resume` redoes exactly the tasks it did not record.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from countermem.agents import AgentLimits, MemoryHook, ReActAgent, ReflexionAgent, TaskOutcome
from countermem.agents._react import AfterFailure, EventSink
from countermem.core import BACKBONE_FAULTS, ConfigError, LLMError, Task, Usage
from countermem.domains import Benchmark, WorldModel, split_tasks
from countermem.experiment._metrics import RunMetrics, compute_metrics
from countermem.experiment._report import write_run_report
from countermem.experiment._rundir import RunDir
from countermem.llm import DEFAULT_MODEL as DEFAULT_LOCAL_MODEL
from countermem.llm import LLM, GenerationParams, TokenCounter, token_counter

DEFAULT_MODELS = {"local": DEFAULT_LOCAL_MODEL, "scripted": "oracle-script", "simulated": "simulated"}
"""Model name recorded for a backbone when none is given (the local default is the registry's)."""
SplitName = Literal["all", "construct", "train", "heldout"]
ProgressCallback = Callable[[TaskOutcome, int, int], None]


class RunConfig(BaseModel):
    """Everything that determines a run's results; its hash guards resumption."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    benchmark: str
    backbone: str
    model: str
    base_url: str | None = None
    agent: Literal["react", "reflexion"] = "react"
    max_trials: int = 3
    after_failure: AfterFailure = Field(default="history", exclude_if=lambda value: value == "history")
    """`AgentLimits.after_failure`; left out of the config (and its hash) at the default, so that
    runs recorded before it existed resume."""
    reuse_checks: bool = Field(default=False, exclude_if=lambda value: value is False)
    """`AgentLimits.reuse_checks`; left out of the config (and its hash) when off, like `after_failure`."""
    show_utility: bool = Field(default=True, exclude_if=lambda value: value is True)
    """`AgentLimits.show_utility`; left out of the config (and its hash) at the default."""
    one_action: bool = Field(default=False, exclude_if=lambda value: value is False)
    """`AgentLimits.one_action`; left out of the config (and its hash) when off."""
    stage: Literal["run", "construct", "train", "evaluate"] = "run"
    memory: dict[str, str | int | float | bool | None] | None = None
    """The memory settings of a stage run, flattened, so that they are part of the config hash."""
    split: SplitName = "all"
    split_seed: int = 0
    split_by_environment: bool = True
    """False puts tasks of one environment into several splits (the 'original environment' setting)."""
    limit: int | None = Field(default=None, ge=1)
    """At most this many tasks; below 1 would be a Python slice (-1: all tasks but one), so refused."""
    seed: int = 0
    max_steps: int = 5
    max_tokens: int = 16000
    max_new_tokens: int = 384
    temperature: float = 0.0
    unsafe_no_sandbox: bool = False
    method: str | None = None
    """The study method this run belongs to (None outside a study)."""
    task_set: str | None = None
    """The study's name for an explicit task list (heldout, look-alike, ...); None when `split` chose them."""
    attempts: int = 1
    """Best-of-N: independent attempts per task, the best checked one kept."""
    attempt_temperature: float | None = None
    """Sampling temperature of the attempts when `attempts` > 1 (they would be identical at 0)."""


def select_tasks(benchmark: Benchmark, config: RunConfig) -> list[Task]:
    """The run's tasks: the chosen split, in a seeded order, cut to the limit."""
    tasks = benchmark.tasks()
    if config.split != "all":
        splits = split_tasks(tasks, seed=config.split_seed, by_environment=config.split_by_environment)
        tasks = list(splits.by_name(config.split))
    order = list(tasks)
    random.Random(config.split_seed).shuffle(order)
    if config.limit is not None:
        order = order[: config.limit]
    return order


def run_tasks(
    config: RunConfig,
    llm: LLM,
    benchmark: Benchmark,
    tasks: list[Task],
    run_dir: RunDir,
    *,
    resume: bool = False,
    memory: MemoryHook | None = None,
    on_task_done: ProgressCallback | None = None,
    simulated: bool = False,
) -> RunMetrics:
    finished = {o.task_id: o for o in run_dir.prepare(config, seed=config.seed, resume=resume)}
    world_model = benchmark.world_model()
    limits = AgentLimits(
        max_steps=config.max_steps,
        max_tokens=config.max_tokens,
        params=GenerationParams(
            temperature=config.temperature, max_tokens=config.max_new_tokens, seed=config.seed
        ),
        memory_after_malformed=(config.memory or {}).get("after_malformed") is True,
        after_failure=config.after_failure,
        reuse_checks=config.reuse_checks,
        show_utility=config.show_utility,
        one_action=config.one_action,
    )
    if config.attempts < 1:
        raise ConfigError(f"attempts must be at least 1, got {config.attempts}")
    counter = token_counter(llm) if memory is not None else None
    outcomes: list[TaskOutcome] = []
    total = len(tasks)
    for task in tasks:
        if task.id in finished:
            outcomes.append(finished[task.id])
            if on_task_done:
                on_task_done(finished[task.id], len(outcomes), total)
            continue
        with run_dir.transcript_writer(task.id) as sink:
            tries: list[TaskOutcome] = []
            for attempt in range(config.attempts):
                attempt_limits = limits if config.attempts == 1 else _attempt_limits(limits, config, attempt)
                agent = make_agent(config, llm, benchmark, world_model, attempt_limits, memory, sink, counter)
                started = time.perf_counter()
                try:
                    tries.append(agent.run(task))
                except BACKBONE_FAULTS:
                    raise  # the server failed, not the agent: stop, and leave this task to --resume
                except LLMError as error:
                    tries.append(_failed_outcome(task, f"llm_error: {error}", time.perf_counter() - started))
            outcome = tries[0] if len(tries) == 1 else best_of(tries)
        run_dir.append_result(outcome)
        finished[task.id] = outcome  # a task listed twice is recorded once
        outcomes.append(outcome)
        if on_task_done:
            on_task_done(outcome, len(outcomes), total)
    metrics = compute_metrics(
        outcomes, benchmark=benchmark.name, backbone=config.backbone, model=config.model,
        simulated=simulated,
    )
    run_dir.write_json("metrics.json", metrics)
    write_run_report(run_dir.path, metrics)
    return metrics


def _attempt_limits(limits: AgentLimits, config: RunConfig, attempt: int) -> AgentLimits:
    temperature = config.attempt_temperature if config.attempt_temperature is not None else config.temperature
    params = limits.params.model_copy(update={"temperature": temperature, "seed": config.seed + attempt})
    return replace(limits, params=params)


def best_of(tries: list[TaskOutcome]) -> TaskOutcome:
    """The best attempt by (solved, final utility), first on ties, carrying the cost of all attempts."""
    best_index = max(range(len(tries)), key=lambda i: (tries[i].solved, tries[i].final_utility, -i))
    best = tries[best_index]
    usage = Usage()
    for attempt in tries:
        usage = usage + attempt.usage
    return best.model_copy(update={
        "usage": usage,
        "steps": sum(t.steps for t in tries),
        "evaluator_calls": sum(t.evaluator_calls for t in tries),
        "failed_attempts": sum(t.failed_attempts for t in tries),
        "parse_errors": sum(t.parse_errors for t in tries),
        "retrieval_tokens": sum(t.retrieval_tokens for t in tries),
        "augmentation_tokens": sum(t.augmentation_tokens for t in tries),
        "seconds": sum(t.seconds for t in tries),
        "notes": [*best.notes, f"best of {len(tries)} attempts: attempt {best_index + 1} kept "
                  f"(solved by {sum(t.solved for t in tries)})"],
    })


def make_agent(
    config: RunConfig,
    llm: LLM,
    benchmark: Benchmark,
    world_model: WorldModel,
    limits: AgentLimits,
    memory: MemoryHook | None,
    sink: EventSink | None,
    counter: TokenCounter | None = None,
) -> ReActAgent:
    if config.agent == "reflexion":
        return ReflexionAgent(
            llm, benchmark, world_model, limits, memory=memory, token_counter=counter, sink=sink,
            max_trials=config.max_trials,
        )
    return ReActAgent(llm, benchmark, world_model, limits, memory=memory, token_counter=counter, sink=sink)


def _failed_outcome(task: Task, reason: str, seconds: float) -> TaskOutcome:
    return TaskOutcome(
        task_id=task.id, benchmark=task.benchmark, solved=False, final_utility=0.0,
        final_status="none", submitted=False, forced_submit=False, steps=0, evaluator_calls=0,
        failed_attempts=0, parse_errors=0, usage=Usage(), stop_reason=reason, seconds=seconds,
    )
