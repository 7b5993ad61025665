"""The three stages on disjoint task splits, each with frozen inputs and hashed outputs.

construct: source tasks run without advice; every failed action goes through Module I and II
           and may add a record to the store.
train:     training tasks run with advice from a read-only store; only the selector learns.
evaluate:  held-out tasks run with a frozen store snapshot and a frozen, greedy selector.

Each stage writes `stage.json` beside the run's metrics: what went in (with sha256 of the
store and checkpoint files) and what came out (records admitted, generator tokens, selector
losses, retrieval coverage). Selector-training and construction costs are reported there, on
their own lines, never inside task-run tokens.

A stage checks everything it was given (the run folder, the store, the checkpoint) before it
writes anything, so that a refused stage leaves no manifest behind and the corrected command
needs no `--resume`. It claims its run directory (writes the manifest) before it writes
anything beside it, so that a store or epoch folders inside `--out` do not make the folder look
like someone else's.
Evaluating with a DQN checkpoint that never made an update (a training split too small to reach
`learning_starts`) is allowed, since it is still a measurement, but the run's metrics and report
say so: its choices are those of an untrained network.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from countermem.baselines import UnverifiedAdmitter
from countermem.core import ArtifactMismatchError, ConfigError, Task, Usage
from countermem.core import sha256_file as file_sha256
from countermem.domains import Benchmark
from countermem.experiment._metrics import RunMetrics
from countermem.experiment._report import write_run_report
from countermem.experiment._rundir import RunDir
from countermem.experiment._runner import ProgressCallback, RunConfig, run_tasks
from countermem.llm import LLM, token_counter
from countermem.memory import (
    DEFAULT_RETIRE_HARM_RATE,
    DEFAULT_RETIRE_MIN_USES,
    DEFAULT_SCOPE,
    AdmissionReport,
    Admitter,
    AdviceLifetime,
    AdvisorOptions,
    AnyStore,
    ConditionContext,
    CounterfactualLearner,
    CounterfactualMemory,
    Generator,
    GeneratorSettings,
    LearnWhileAdvising,
    LessonSettings,
    LessonWriter,
    PostgresStore,
    Proposal,
    Record,
    Rendering,
    RetireByUse,
    Retriever,
    ScopeAccess,
    SQLiteStore,
    StoreLocationField,
    build_provenance,
    describe_location,
    has_verified_lesson,
    is_form_repair,
    make_embedder,
    open_store,
    store_sha256,
    validate_scope,
)
from countermem.selector import (
    AlwaysSkip,
    DQNConfig,
    DQNSelector,
    RandomChoice,
    RewardWeights,
    Selector,
    TopOne,
)

UNVERIFIED_HEADER = "Advice from past corrections that were NOT checked (use it only if it fits this task):"
SelectorKind = Literal["dqn", "skip", "top1", "random"]


_GENERATOR_SETTINGS_ADDED_LATER = ("portable", "max_situation_share", "check_error_atoms", "check_error_situation")
_LESSON_SETTINGS_ADDED_LATER = ("source_phrases",)


def _defaults_since_hashes(settings: BaseModel, added_later: tuple[str, ...]) -> set[str]:
    """Settings added after runs were recorded, at their defaults: left out of the stage config so
    that those runs keep their hash and resume."""
    fields = type(settings).model_fields
    return {name for name in added_later if getattr(settings, name) == fields[name].default}


_MEMORY_SETTINGS_ADDED_LATER = (
    "rendering", "repeat_offers", "offer_at_start", "advice_lifetime", "answer_once", "max_advice_tokens",
    "redact", "retire_harm_rate", "retire_min_uses", "record_scope", "readable_scopes", "merge",
)
"""Left out of a stage's hash at their defaults, as `_GENERATOR_SETTINGS_ADDED_LATER`."""


class MemorySettings(BaseModel):
    """Everything about memory that a stage needs; part of the stage's config hash."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    store: StoreLocationField
    """A store file, or a postgresql:// URL of a store on a server (`countermem.memory._pgstore`)."""
    capacity: int = 200
    retention: str = "utility"
    embedder: Literal["minilm", "onnx", "onnx-int8", "lexical"] = "minilm"
    embed_layout: Literal["full", "segmented"] = "full"
    embed_task_weight: float = 0.9
    k: int = 3
    scope: Literal["domain", "benchmark"] = "domain"
    rank: Literal["similarity", "random", "shuffled"] = "similarity"
    use_conditions: bool = True
    show_task: bool = False
    after_malformed: bool = False
    """Learn from malformed answers and advise after them (`AgentLimits.memory_after_malformed`)."""
    selector: SelectorKind = "dqn"
    checkpoint: Path | None = None
    min_gain: float = 0.05
    max_alternatives: int = 4
    construct_advice: Literal["none", "top1"] = "none"
    """top1: during construction the agent is offered records of earlier source tasks (never its own),
    so that reuse statistics exist for the utility retention rule."""
    admission: Literal["verified", "unverified"] = "verified"
    """unverified: the 'no verification' ablation stores alternatives without checking them."""
    seed: int = 0
    reward: RewardWeights = Field(default_factory=RewardWeights)
    dqn: DQNConfig = Field(default_factory=DQNConfig)
    generator: GeneratorSettings = Field(default_factory=GeneratorSettings)
    """Module I: one alternative per call (greedy + samples) with derived conditions, by default."""
    generator_model: str = ""
    """The generator's own model when it is not the agent's (recorded, so a resume with another is refused)."""
    lesson: LessonSettings = Field(default_factory=LessonSettings)
    """Construction writes and verifies a lesson for each admitted content record (`_lesson`)."""
    rendering: Rendering = "correction"
    repeat_offers: bool = True
    offer_at_start: bool = True
    advice_lifetime: AdviceLifetime = "task"
    answer_once: bool = False
    max_advice_tokens: int | None = None
    redact: bool = True
    """Replace secrets in records with typed placeholders before they are stored (`countermem.memory._redact`)."""
    retire_harm_rate: float = DEFAULT_RETIRE_HARM_RATE
    retire_min_uses: int = DEFAULT_RETIRE_MIN_USES
    """Retirement by use in the construct stage's writable store (`countermem.memory.RetireByUse`)."""
    record_scope: str = DEFAULT_SCOPE
    """The scope (team, project, tenant) records are written to and read from (`countermem.memory._scope`)."""
    readable_scopes: tuple[str, ...] = ()
    """Other scopes shared with this one: their records are offered too, never written."""
    merge: bool = False
    """Merge an admitted record into an equivalent stored one (`countermem.memory._merge`)."""

    @field_validator("record_scope")
    @classmethod
    def _scope_name(cls, value: str) -> str:
        return validate_scope(value, "memory scope")

    @field_validator("readable_scopes")
    @classmethod
    def _scope_names(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted({validate_scope(name, "readable scope") for name in value}))

    @property
    def access(self) -> ScopeAccess:
        """What the stage reads and writes: its scope and the ones shared with it, nothing else."""
        return ScopeAccess.of(self.record_scope, self.readable_scopes)

    def flat(self) -> dict[str, str | int | float | bool | None]:
        data = self.model_dump(mode="json", exclude={"reward", "dqn", "generator", "lesson"})
        data["store"] = describe_location(self.store)  # a run folder never holds a server's password
        data["reward"] = self.reward.model_dump_json()
        data["dqn"] = self.dqn.model_dump_json()
        data["generator"] = self.generator.model_dump_json(
            exclude=_defaults_since_hashes(self.generator, _GENERATOR_SETTINGS_ADDED_LATER)
        )
        if self.lesson != LessonSettings():
            data["lesson"] = self.lesson.model_dump_json(
                exclude=_defaults_since_hashes(self.lesson, _LESSON_SETTINGS_ADDED_LATER)
            )
        data["readable_scopes"] = ",".join(self.readable_scopes)
        for name in _MEMORY_SETTINGS_ADDED_LATER:
            if getattr(self, name) == MemorySettings.model_fields[name].default:
                del data[name]  # a run recorded before these settings existed resumes unchanged
        return data

    def generator_for(self, simulated: bool) -> GeneratorSettings:
        """The SIMULATED backbone answers only the batch contract (one call, model-written
        conditions, which its test bed makes right or careless on purpose), so it gets that."""
        return GeneratorSettings.batch() if simulated else self.generator


def condition_context(benchmark: Benchmark, tasks: Sequence[Task], settings: GeneratorSettings) -> ConditionContext:
    """What derived conditions read, for a construction over `tasks` (the source tasks)."""
    return ConditionContext(
        facts_of=benchmark.facts,
        population=tuple(benchmark.facts(t) for t in tasks),
        rank_by_rarity=settings.rarity,
        environments=tuple(t.environment or "" for t in tasks),
        portable=settings.portable,
        max_situation_share=settings.max_situation_share,
        error_kind=benchmark.error_kind if settings.check_error_atoms else None,
        error_with_situation=settings.check_error_situation,
        salvage=benchmark.salvage,
        form_fix=benchmark.form_fix,
    )


class StageReport(BaseModel):
    model_config = ConfigDict(frozen=True)

    stage: Literal["construct", "train", "evaluate"]
    benchmark: str
    n_tasks: int
    store: str
    store_sha256: str
    records_before: int
    records_after: int
    checkpoint: str | None = None
    checkpoint_sha256: str | None = None
    construction_failures_seen: int = 0
    construction_alternatives: int = 0
    construction_admitted: int = 0
    construction_malformed_failures: int = 0
    """Of the failures, malformed answers (no `Action:` line); learned from like failed checks."""
    construction_malformed_admitted: int = 0
    construction_form_repairs_admitted: int = 0
    """Of the admitted, form repairs: the malformed answer's own code block, unchanged."""
    construction_failures_skipped: int = 0
    """Failures left alone because their task reached the generator's `failures_per_task`."""
    construction_world_model_calls: int = 0
    construction_generator_calls: int = 0
    construction_lessons_written: int = 0
    construction_lessons_verified: int = 0
    lesson_usage: Usage = Field(default_factory=Usage)
    """Tokens spent writing and verifying lessons (construction cost, beside generator_usage)."""
    construction_learn_seconds: float = 0.0
    """Wall time spent generating and verifying alternatives (not in the task runs' time)."""
    generator_usage: Usage = Field(default_factory=Usage)
    selector: str = ""
    selector_updates: int = 0
    selector_final_loss: float | None = None
    selector_checkpoint_updates: int | None = None
    """Updates the evaluated DQN checkpoint made in training (None for other selectors)."""
    retrieval_attempts: int = 0
    retrieval_coverage: float | None = None
    records_selected: int = 0
    records_skipped: int = 0
    simulated: bool = False
    warnings: list[str] = Field(default_factory=list)


class BuildCost(BaseModel):
    """What building a method's memory and training its selector cost; never part of task-run tokens.

    A study writes it as build_cost.json beside a method's held-out run, so that the report can
    show these costs on their own lines next to the results they paid for.
    """

    model_config = ConfigDict(frozen=True)

    construct_tasks: int = 0
    construct_solved: int | None = None
    """Source tasks the agent solved (after failed checks or not); None in files written before it was kept."""
    construct_task_run_tokens: int = 0
    generator_tokens: int = 0
    """Generator (or judge and distiller) tokens of construction."""
    verification_calls: int = 0
    records_admitted: int = 0
    train_tasks: int = 0
    train_task_run_tokens: int = 0
    selector_updates: int = 0


class StageResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    metrics: RunMetrics
    report: StageReport


def stage_config(config: RunConfig, stage: str, settings: MemorySettings) -> RunConfig:
    """The config a stage's run directory records (and checks on resume): the run's plus memory."""
    return config.model_copy(update={"stage": stage, "memory": settings.flat()})


def construct_memory(
    config: RunConfig,
    settings: MemorySettings,
    llm: LLM,
    benchmark: Benchmark,
    tasks: list[Task],
    run_dir: RunDir,
    *,
    generator_llm: LLM | None = None,
    resume: bool = False,
    on_task_done: ProgressCallback | None = None,
    simulated: bool = False,
) -> StageResult:
    """Run the agent on source tasks and admit verified corrections of its failures."""
    construct_config = stage_config(config, "construct", settings)
    run_dir.check(construct_config, resume=resume)
    store = None if _made_in_run(settings.store, run_dir) else _construct_store(settings)
    try:
        run_dir.prepare(construct_config, seed=config.seed, resume=resume)
        if store is None:
            store = _construct_store(settings)  # after the manifest: it lives in the run folder
        before = len(store.all())
        generator_settings = settings.generator_for(simulated)
        provenance = build_provenance(agent=llm, proposer=generator_llm or llm, checker=benchmark.checker())
        learner = CounterfactualLearner(
            Generator(generator_llm or llm, settings=generator_settings),
            Admitter(
                store, min_gain=settings.min_gain, stage="construct", provenance=provenance, redact=settings.redact,
                merge=settings.merge,
            )
            if settings.admission == "verified"
            else UnverifiedAdmitter(store, stage="construct", provenance=provenance, redact=settings.redact),
            benchmark.world_model,
            action_language=benchmark.action_language,
            max_alternatives=settings.max_alternatives,
            on_learned=_admission_log(run_dir),
            instructions=benchmark.instructions(),
            mode=benchmark.repair_mode,
            conditions=condition_context(benchmark, tasks, generator_settings)
            if generator_settings.conditions == "derived" else None,
            lessons=LessonWriter(
                generator_llm or llm,
                llm if settings.lesson.verify_with == "agent" else (generator_llm or llm),
                settings.lesson,
                action_language=benchmark.action_language,
                instructions=benchmark.instructions(),
                mode=benchmark.repair_mode,
                min_gain=settings.min_gain,
                seed=settings.seed,
            )
            if settings.lesson.enabled and not simulated else None,
            lesson_store=store if settings.lesson.enabled and not simulated else None,
        )
        hook: CounterfactualLearner | LearnWhileAdvising = learner
        if settings.construct_advice == "top1":
            hook = _learn_while_advising(learner, store, settings, benchmark)
        metrics = run_tasks(
            construct_config, llm, benchmark, tasks, run_dir,
            resume=resume, memory=hook, on_task_done=on_task_done, simulated=simulated,
        )
        after = len(store.all())
    finally:
        if store is not None:
            store.close()
    stats = learner.stats
    report = StageReport(
        stage="construct", benchmark=benchmark.name, n_tasks=len(tasks), store=describe_location(settings.store),
        store_sha256=store_sha256(settings.store), records_before=before, records_after=after,
        construction_failures_seen=stats.failures_seen, construction_alternatives=stats.alternatives,
        construction_admitted=stats.admitted, construction_world_model_calls=stats.world_model_calls,
        construction_malformed_failures=stats.malformed_seen,
        construction_malformed_admitted=stats.malformed_admitted,
        construction_form_repairs_admitted=stats.form_repairs_admitted,
        construction_failures_skipped=stats.failures_skipped,
        construction_generator_calls=stats.generator_calls, construction_learn_seconds=round(stats.seconds, 3),
        construction_lessons_written=stats.lessons_written, construction_lessons_verified=stats.lessons_verified,
        lesson_usage=stats.lesson_usage,
        generator_usage=stats.generator_usage, simulated=simulated,
    )
    run_dir.write_json("stage.json", report)
    return StageResult(metrics=metrics, report=report)


def _made_in_run(store: Path | str, run_dir: RunDir) -> bool:
    """A new store inside the run folder is created after the manifest, so that the folder is a run
    (not someone else's files) when the store appears; any other store is opened first."""
    if isinstance(store, str):  # a server store
        return False
    return not store.exists() and store.resolve().is_relative_to(run_dir.path.resolve())


def _construct_store(settings: MemorySettings) -> AnyStore:
    if isinstance(settings.store, str):
        return PostgresStore(
            settings.store, capacity=settings.capacity, retention=settings.retention, seed=settings.seed,
            retire_by_use=RetireByUse(settings.retire_harm_rate, settings.retire_min_uses), access=settings.access,
        )
    if settings.store.is_dir():
        raise ConfigError(f"--store {settings.store} is a folder; give the path of a memory store file")
    settings.store.parent.mkdir(parents=True, exist_ok=True)
    return SQLiteStore(
        settings.store, capacity=settings.capacity, retention=settings.retention, seed=settings.seed,
        durable=True, retire_by_use=RetireByUse(settings.retire_harm_rate, settings.retire_min_uses),
        access=settings.access,
    )


def _learn_while_advising(
    learner: CounterfactualLearner, store: AnyStore, settings: MemorySettings, benchmark: Benchmark
) -> LearnWhileAdvising:
    excluded: list[LearnWhileAdvising] = []

    def earlier_records() -> list[Record]:
        task = excluded[0].exclude_task() if excluded else None
        return [r for r in store.all() if r.source.task_id != task]

    retriever = Retriever(
        earlier_records, make_embedder(settings.embedder), k=settings.k, scope=settings.scope,
        embed_layout=settings.embed_layout, task_weight=settings.embed_task_weight,
        use_conditions=settings.use_conditions, rank=settings.rank, seed=settings.seed, access=settings.access,
    )
    advisor = CounterfactualMemory(
        retriever, TopOne(), action_language=benchmark.action_language, store=store,
        options=AdvisorOptions(
            show_condition=settings.use_conditions, show_task=settings.show_task, write_counters=True
        ),
    )
    hook = LearnWhileAdvising(learner, advisor)
    excluded.append(hook)
    return hook


def _offerable_pool(store: AnyStore) -> Callable[[], list[Record]]:
    """The records lesson rendering may offer: those with a verified lesson, and form repairs."""
    records = [r for r in store.all() if has_verified_lesson(r) or is_form_repair(r)]
    return lambda: records


def _admission_log(run_dir: RunDir) -> Callable[[Proposal, AdmissionReport], None]:
    """Append each failure's proposal (raw LLM text, parse problems) and verdicts to admissions.jsonl."""
    path = run_dir.path / "admissions.jsonl"

    def write(proposal: Proposal, report: AdmissionReport) -> None:
        entry = {
            "task_id": report.task_id,
            "raw_text": proposal.raw_text,
            "problems": proposal.problems,
            "calls": proposal.calls,
            "condition_source": proposal.condition_source,
            "usage": proposal.usage.model_dump(),
            "report": report.model_dump(mode="json", exclude={"record"}),
        }
        with path.open("a") as handle:
            handle.write(json.dumps(entry) + "\n")

    return write


def make_selector(settings: MemorySettings, *, training: bool) -> Selector:
    if settings.selector == "skip":
        return AlwaysSkip()
    if settings.selector == "top1":
        return TopOne()
    if settings.selector == "random":
        return RandomChoice(seed=settings.seed)
    if training:
        selector = DQNSelector(settings.dqn)
        selector.train()
        return selector
    if settings.checkpoint is None:
        raise ConfigError("the dqn selector needs --checkpoint (train one with `countermem train`)")
    return DQNSelector.load(settings.checkpoint)


def untrained_selector_warnings(selector: Selector, checkpoint: str) -> list[str]:
    """Why a frozen selector's choices may mean little: a DQN checkpoint that never updated, or
    one fitted on fewer transitions than `learning_starts` asks for.

    `checkpoint` names the file as the reader should see it: the path a person typed on the
    console, the bare file name in a run's metrics (so that twin runs in two folders agree).
    """
    if not isinstance(selector, DQNSelector):
        return []
    stats, c = selector.train_step_stats, selector.config
    if stats.updates > 0:
        if stats.observed is None or stats.observed >= c.learning_starts:
            return []
        return [
            f"the DQN selector in {checkpoint} learned from only {stats.observed} transitions (fewer than "
            f"learning_starts {c.learning_starts}: its {stats.updates} updates are the final fit on them), so its "
            "choices rest on little evidence; train on more tasks or compare with --selector top1"
        ]
    return [
        f"the DQN selector in {checkpoint} made 0 updates in training (its replay buffer never reached "
        f"{max(c.learning_starts, c.batch_size)} transitions: learning_starts {c.learning_starts}, batch_size "
        f"{c.batch_size}), so it chooses as an untrained network; train on more tasks or more epochs, lower "
        "dqn.learning_starts, or evaluate a fixed policy (--selector top1 | skip)"
    ]


def checkpoint_warnings(settings: MemorySettings) -> list[str]:
    """The warnings evaluation will give for this selector, read from its checkpoint before a model loads."""
    if settings.selector != "dqn":
        return []
    return untrained_selector_warnings(make_selector(settings, training=False), str(settings.checkpoint))


def _advised_stage(
    stage: Literal["train", "evaluate"],
    config: RunConfig,
    settings: MemorySettings,
    llm: LLM,
    benchmark: Benchmark,
    tasks: list[Task],
    run_dir: RunDir,
    *,
    resume: bool,
    on_task_done: ProgressCallback | None,
    simulated: bool,
    expected_store_sha256: str | None,
    expected_checkpoint_sha256: str | None = None,
    selector: Selector | None = None,
    epochs: int = 1,
) -> StageResult:
    if isinstance(settings.store, Path) and not settings.store.is_file():
        raise ConfigError(f"store {settings.store} does not exist; build one with `countermem construct`")
    store_hash = store_sha256(settings.store)
    if expected_store_sha256 is not None and store_hash != expected_store_sha256:
        raise ArtifactMismatchError(
            f"store {settings.store} has sha256 {store_hash}, the manifest says {expected_store_sha256}"
        )
    if expected_checkpoint_sha256 is not None:
        if settings.checkpoint is None or not settings.checkpoint.is_file():
            raise ConfigError(f"the manifest names a selector checkpoint, but {settings.checkpoint} does not exist")
        checkpoint_now = file_sha256(settings.checkpoint)
        if checkpoint_now != expected_checkpoint_sha256:
            raise ArtifactMismatchError(
                f"selector checkpoint {settings.checkpoint} has sha256 {checkpoint_now}, the manifest says "
                f"{expected_checkpoint_sha256}; retrain it or restore the file the manifest names"
            )
    store = open_store(settings.store, read_only=True, access=settings.access)
    try:
        training = stage == "train"
        chosen = selector or make_selector(settings, training=training)
        where = settings.checkpoint.name if settings.checkpoint else "its checkpoint"
        warnings = [] if training else untrained_selector_warnings(chosen, where)
        retriever = Retriever(
            _offerable_pool(store) if settings.rendering == "lesson" else store,
            make_embedder(settings.embedder), k=settings.k, scope=settings.scope,
            embed_layout=settings.embed_layout, task_weight=settings.embed_task_weight,
            use_conditions=settings.use_conditions, rank=settings.rank, seed=settings.seed, access=settings.access,
        )
        advisor = CounterfactualMemory(
            retriever, chosen, action_language=benchmark.action_language, store=store,
            options=AdvisorOptions(
                show_condition=settings.use_conditions, show_task=settings.show_task, write_counters=False,
                rendering=settings.rendering, repeat_offers=settings.repeat_offers,
                offer_at_start=settings.offer_at_start, max_advice_tokens=settings.max_advice_tokens,
                advice_lifetime=settings.advice_lifetime, answer_once=settings.answer_once,
                train_selector=training and settings.selector == "dqn",
                header=UNVERIFIED_HEADER if settings.admission == "unverified" else None,
            ),
            reward_weights=settings.reward,
            token_counter=token_counter(llm) if settings.max_advice_tokens is not None else None,
        )
        advised_config = stage_config(config, stage, settings)
        run_dir.prepare(advised_config, seed=config.seed, resume=resume)  # before its epoch-N/ folders
        if training and epochs > 1:
            for epoch in range(epochs - 1):
                run_tasks(
                    advised_config, llm, benchmark, tasks, RunDir(run_dir.path / f"epoch-{epoch + 1}"),
                    resume=resume, memory=advisor, on_task_done=on_task_done, simulated=simulated,
                )
        metrics = run_tasks(
            advised_config, llm, benchmark, tasks, run_dir, resume=resume,
            memory=advisor, on_task_done=on_task_done, simulated=simulated,
        )
        if warnings:
            metrics = metrics.model_copy(update={"warnings": [*metrics.warnings, *warnings]})
            run_dir.write_json("metrics.json", metrics)
            write_run_report(run_dir.path, metrics)
        if training and isinstance(chosen, DQNSelector):
            advisor.stats.losses.extend(chosen.fit())
        records = len(store.all())
    finally:
        store.close()
    checkpoint: str | None = None
    checkpoint_hash: str | None = None
    if training and isinstance(chosen, DQNSelector):
        if settings.checkpoint is None:
            raise ConfigError("training a dqn selector needs a checkpoint path to save to")
        checkpoint_hash = chosen.save(settings.checkpoint)
        checkpoint = str(settings.checkpoint)
    elif settings.checkpoint is not None and settings.selector == "dqn":
        checkpoint, checkpoint_hash = str(settings.checkpoint), file_sha256(settings.checkpoint)
    report = StageReport(
        stage=stage, benchmark=benchmark.name, n_tasks=len(tasks), store=describe_location(settings.store),
        store_sha256=store_hash, records_before=records, records_after=records, checkpoint=checkpoint,
        checkpoint_sha256=checkpoint_hash, selector=chosen.name,
        selector_updates=len(advisor.stats.losses),
        selector_final_loss=advisor.stats.losses[-1] if advisor.stats.losses else None,
        retrieval_attempts=advisor.stats.attempts, retrieval_coverage=advisor.stats.coverage,
        records_selected=advisor.stats.selected, records_skipped=advisor.stats.skipped,
        selector_checkpoint_updates=chosen.train_step_stats.updates
        if isinstance(chosen, DQNSelector) and not training else None,
        simulated=simulated, warnings=warnings,
    )
    run_dir.write_json("stage.json", report)
    return StageResult(metrics=metrics, report=report)


def train_selector(
    config: RunConfig,
    settings: MemorySettings,
    llm: LLM,
    benchmark: Benchmark,
    tasks: list[Task],
    run_dir: RunDir,
    *,
    resume: bool = False,
    on_task_done: ProgressCallback | None = None,
    simulated: bool = False,
    epochs: int = 1,
) -> StageResult:
    """Training tasks with advice from a read-only store; only the selector learns.

    With `epochs` > 1 the training split is run again with the same selector (earlier epochs in
    `epoch-N/` subfolders); the stage's metrics are those of the last epoch.
    """
    if epochs < 1:
        raise ConfigError(f"epochs must be at least 1, got {epochs}")
    return _advised_stage(
        "train", config, settings, llm, benchmark, tasks, run_dir, resume=resume,
        on_task_done=on_task_done, simulated=simulated, expected_store_sha256=None, epochs=epochs,
    )


def evaluate_memory(
    config: RunConfig,
    settings: MemorySettings,
    llm: LLM,
    benchmark: Benchmark,
    tasks: list[Task],
    run_dir: RunDir,
    *,
    expected_store_sha256: str | None = None,
    expected_checkpoint_sha256: str | None = None,
    resume: bool = False,
    on_task_done: ProgressCallback | None = None,
    simulated: bool = False,
) -> StageResult:
    """Held-out tasks with a frozen store and a greedy selector; refuses artifacts the manifest does not name."""
    return _advised_stage(
        "evaluate", config, settings, llm, benchmark, tasks, run_dir, resume=resume,
        on_task_done=on_task_done, simulated=simulated, expected_store_sha256=expected_store_sha256,
        expected_checkpoint_sha256=expected_checkpoint_sha256,
    )
