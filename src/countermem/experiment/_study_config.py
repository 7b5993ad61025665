"""The study's TOML config: what to run (benchmarks x agents x methods x backbones x seeds) and how.

One file describes a whole study so that a person can rerun it, share it, and see in the run's
manifest exactly what was compared. Unknown keys are errors (a typo must not silently fall back
to a default), and every error names the key and what would be accepted.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Literal
from urllib.parse import parse_qsl, urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from countermem.core import ConfigError, StoreError
from countermem.domains import benchmark_names
from countermem.llm import MODEL_BACKBONES
from countermem.memory import DEFAULT_SCOPE, GeneratorSettings, LessonSettings, validate_scope
from countermem.selector import DQNConfig

BackboneKind = Literal["local", "openai", "scripted", "simulated"]
TransferCondition = Literal["original-environment", "new-environment", "look-alike"]
TRANSFER_CONDITIONS: tuple[TransferCondition, ...] = ("original-environment", "new-environment", "look-alike")


class _Strict(BaseModel):
    """Unknown keys are errors; field docstrings become descriptions (docs/configuration.md is made from them)."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)


class BackboneSpec(_Strict):
    """`[backbones.<name>]`: one LLM the agents run on; `<name>` becomes a folder of the results."""

    kind: BackboneKind
    """`local`: an embedded GGUF model (llama.cpp); `openai`: any OpenAI-compatible server;
    `scripted`: replays each task's known answer (a plumbing test); `simulated`: the SIMULATED test bed."""
    model: str = ""
    """The model: a registry name for `local` (`countermem models list`), the server's model id for `openai`."""
    base_url: str | None = None
    """The server's URL for `openai`, e.g. `http://127.0.0.1:8000/v1`."""
    api_key_env: str | None = None
    """Name of the environment variable holding the API key; the key itself never enters the config."""
    timeout: float | None = Field(default=None, gt=0)
    """Seconds one request to the server may take in all (openai only; default 120). Not part of
    what a run measures, but part of the config, so a resume with another value is refused."""

    @model_validator(mode="after")
    def _timeout_needs_a_server(self) -> BackboneSpec:
        if self.timeout is not None and self.kind != "openai":
            raise ValueError(f"timeout bounds requests to a model server (kind openai); a {self.kind} backbone sends none")
        return self

    def api_key(self) -> str | None:
        if self.api_key_env is None:
            return None
        value = os.environ.get(self.api_key_env)
        if not value:
            raise ConfigError(f"environment variable {self.api_key_env} (api_key_env of a backbone) is not set")
        return value


class SplitSizes(_Strict):
    """How many tasks of each split a cell uses; None takes the whole split."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    source: int | None = Field(20, alias="construct")
    """Source (construction) tasks; written `construct` in the TOML file."""
    train: int | None = 10
    """Training tasks (they update only the selector)."""
    heldout: int | None = 20
    """Held-out tasks (store and selector frozen); they never reach construction or training."""
    by_environment: bool = True
    """Keep all tasks of one environment (a database, a Coq environment) in one split, so held-out
    tasks meet new environments; False mixes them (the transfer analysis's original environment)."""
    sources: Literal["all", "with-lookalike"] = Field(default="all", exclude_if=lambda value: value == "all")
    """`with-lookalike` draws the source tasks only among tasks that have a look-alike, so that each
    source task gives the look-alike condition a task: on gsm8k only about a third of the problems
    replay with new numbers (40 source tasks gave 15 look-alikes). Training and held-out tasks are
    drawn as before."""

    @model_validator(mode="after")
    def _positive(self) -> SplitSizes:
        for name, value in (("construct", self.source), ("train", self.train), ("heldout", self.heldout)):
            if value is not None and value < 1:
                raise ValueError(f"split.{name} must be at least 1 (or left out for the whole split)")
        return self


class AgentSettings(_Strict):
    """`[agent]`: the budget of every agent run."""

    max_steps: int = 5
    """LLM turns per trial (malformed answers included)."""
    max_trials: int = 3
    """Trials per task for Reflexion (ReAct makes one)."""
    max_tokens: int = 16000
    """Prompt plus completion tokens per task, over all trials."""
    max_new_tokens: int = 384
    """Tokens per LLM answer."""
    temperature: float = 0.0
    """Sampling temperature of the agent's LLM (0: greedy)."""
    after_failure: Literal["history", "focused"] = Field(default="history", exclude_if=lambda value: value == "history")
    """What the agent sees after a failed check: `history` (the whole episode) or `focused` (a fresh
    prompt with the task, the failed action, its check result and any advice)."""
    reuse_checks: bool = Field(default=False, exclude_if=lambda value: value is False)
    """Answer a repeated check with the earlier check's result instead of a world-model call (the
    episode is the same; only world-model calls fall)."""
    show_utility: bool = Field(default=True, exclude_if=lambda value: value is True)
    """Print the check's utility in the observation after each check; false: only PASSED/FAILED and
    the status (the 1.5B on gsm8k answered the printed `utility 0.00` in 12 of its 30 checks)."""
    one_action: bool = Field(default=False, exclude_if=lambda value: value is False)
    """End each reply at the start of its next step (a `Thought:` or `Observation:` line), sent as stop
    sequences and applied by the agent too: the 1.5B on gsm8k wrote invented further steps after its
    first action in half its replies."""


class GeneratorConfig(GeneratorSettings):
    """`[memory.generator]`: Module I's settings, and optionally its own model."""

    model: str = ""
    """Another model of the same backbone kind (and server) that writes the alternatives, e.g. the
    1.5B builds records that the 0.5B agent then uses; empty: the agent's model."""

    def settings(self) -> GeneratorSettings:
        return GeneratorSettings(**self.model_dump(exclude={"model"}))


class MemoryConfig(_Strict):
    """`[memory]`: how countermem builds, keeps and offers records."""

    capacity: int = 200
    """Live records each scope of the store holds; beyond it the retention rule evicts one of that scope's."""
    embedder: Literal["minilm", "onnx", "onnx-int8", "lexical"] = "minilm"
    """How situations are embedded for ranking: `minilm` (all-MiniLM-L6-v2 on torch), `onnx` (the same
    model as an int8-weight ONNX file on onnxruntime, no torch; `countermem models pull
    minilm-l6-onnx-int8`), `onnx-int8` (that file with int8 multiplies: faster, neighbours further
    from minilm's; docs/embedding.md) or `lexical` (no model)."""
    embed_layout: Literal["full", "segmented"] = "full"
    """What a decision's and a record key's embedding is made of: `full` (one text, situation then
    the last action and its check, cut at 256 word pieces) or `segmented` (the task's question and
    situation embedded once per task, the last action and its check, cut to 64 word pieces, per
    decision; a weighted sum of the two; docs/embedding.md)."""
    embed_task_weight: float = Field(default=0.9, ge=0.0, le=1.0)
    """`segmented` only: the task part's weight in the sum (1.0: the last action is not embedded)."""
    k: int = 3
    """Records offered at most per decision (after the condition filter and ranking)."""
    selector: Literal["dqn", "top1", "skip", "random"] = "dqn"
    """Who picks among the offered records: the learned `dqn`, or the fixed `top1`, `skip` and `random`."""
    train_epochs: int = 1
    """Passes over the training split that update the selector."""
    min_gain: float = 0.05
    """An alternative becomes a record only when its utility beats the failed action's by more than this."""
    max_alternatives: int = 4
    """Alternatives checked at most per failed action."""
    construct_advice: Literal["none", "top1"] = "top1"
    """`top1`: offer records of earlier source tasks during construction, so reuse statistics exist; `none`: offer none."""
    show_task: bool = False
    """Offered records open with their source task (`Past task: ...`); opt-in (no gain in the one cell measured)."""
    max_advice_tokens: int | None = Field(default=None, ge=16)
    """Most tokens one offered record may add to a prompt; longer renderings fall back to the
    record's verified lesson, then its correction alone, else it is not shown. None: no cap."""
    after_malformed: bool = False
    """Learn from malformed answers (no `Action:` line) and advise after them; opt-in (harmed on humaneval)."""
    redact: bool = True
    """Replace secrets (keys, tokens, passwords, e-mail addresses) in records with placeholders before storing."""
    retire_harm_rate: float = Field(default=0.5, ge=0.0, le=1.0)
    """A record that harmed more than this share of its selected uses is retired (kept, never offered); 1: never."""
    retire_min_uses: int = Field(default=5, ge=1)
    """Selected uses a record needs before `retire_harm_rate` can retire it (`memory list --retired` shows them)."""
    scope: str = DEFAULT_SCOPE
    """The scope (team, project, tenant) the study's records are written to; only its records and those of
    `readable_scopes` are offered."""
    readable_scopes: list[str] = Field(default_factory=list)
    """Other scopes shared with `scope`: their records are offered too, never written."""
    store: str | None = None
    """Keep the stores on a Postgres server: `postgresql://user@host/db`. Each construct job writes its
    store into a schema of its own there (named from the study's name and the job's cell), and the jobs
    that read it open that schema; empty: a SQLite file in each job's folder. The password is never
    written to the study folder (docs/postgres.md)."""
    merge: bool = False
    """Merge an admitted record into an equivalent stored one (same scope, condition and normalised edit),
    summing counters and keeping every source task; off by default (on the SIMULATED sql-shop bed it left
    held-out success unchanged)."""

    @field_validator("store")
    @classmethod
    def _server_store(cls, value: str | None) -> str | None:
        if value is None:
            return None
        from countermem.memory._pgstore import display_url, is_postgres_url, split_url

        if not is_postgres_url(value):
            raise ValueError(
                f"{display_url(value)!r} is not a Postgres URL; give postgresql://user@host:port/database "
                "(or leave memory.store out for a SQLite file in each job's folder)"
            )
        try:
            split_url(value)
        except StoreError as error:
            raise ValueError(str(error)) from None
        if "schema" in dict(parse_qsl(urlsplit(value).query)):
            raise ValueError(
                f"{display_url(value)!r} names a ?schema=; leave it out, the study names one schema per store"
            )
        return value

    @model_validator(mode="after")
    def _scope_names(self) -> MemoryConfig:
        try:
            validate_scope(self.scope, "memory.scope")
            for name in self.readable_scopes:
                validate_scope(name, "a memory.readable_scopes entry")
        except ConfigError as error:
            raise ValueError(str(error)) from None
        return self
    dqn: DQNConfig = Field(default_factory=DQNConfig)
    """`[memory.dqn]`: the selector's network and training."""
    generator: GeneratorConfig = Field(default_factory=lambda: GeneratorConfig())
    """`[memory.generator]`: how failed actions get their alternatives (Module I)."""
    lesson: LessonSettings = Field(default_factory=LessonSettings)
    """`[memory.lesson]`: construction writes and verifies a lesson for each admitted content record;
    needed by methods that show lessons (countermem-lesson)."""


class SimulationSettings(_Strict):
    """Parameters of the SIMULATED backbone's generator (see countermem.experiment._simulation)."""

    universal_rate: float = 0.3
    """Share of the simulated generator's records written with condition `none` (universal)."""
    wrong_first_rate: float = 0.5
    """Share of simulated generator answers that put the plausible wrong repair first."""


class BaselineSettings(_Strict):
    """`[baselines]`: the comparison methods' settings."""

    best_of_n: int = 4
    """Independent attempts per task of `best-of-n`."""
    best_of_n_temperature: float = 0.7
    """Sampling temperature of those attempts."""
    matts_k: int = 3
    """Trajectories per source task of `reasoningbank-matts` (parallel scaling)."""
    matts_temperature: float = 0.7
    """Sampling temperature of those trajectories."""
    strategy_k: int = 1
    """Strategy items the ReasoningBank methods offer per task."""
    strategy_model: Literal["agent", "generator"] = Field(
        default="agent", exclude_if=lambda value: value == "agent"
    )
    """Who judges and distills the ReasoningBank methods' strategy items: the `agent`'s model, or the
    model of `[memory.generator] model`, the one that writes countermem's records, so that both memories
    are built by the same model when the agent is a smaller one."""
    retention_capacity: int = 50
    """Capacity of the retention-rule methods: below the number of admitted records, or no rule ever evicts."""


class AnalysisSettings(_Strict):
    """`[analyses]`: the study's extra analyses; each is off while its list is empty."""

    transfer: list[TransferCondition] = Field(default_factory=list)
    """Transfer conditions to measure: `original-environment`, `new-environment`, `look-alike`."""
    transfer_methods: list[str] = Field(default_factory=lambda: ["countermem"])
    """Methods the transfer analysis runs."""
    transfer_tasks: int | None = Field(
        default=None, ge=1, exclude_if=lambda value: value is None  # studies written before it keep their hash
    )
    """Tasks per transfer condition (original-environment, look-alike); None: as many as `[split]
    heldout`. A look-alike study wants many look-alikes and few new held-out tasks."""
    accumulation: list[int] = Field(default_factory=list)
    """Checkpoints in processed source tasks, e.g. [0, 5, 10, 20]."""
    accumulation_methods: list[str] = Field(default_factory=lambda: ["countermem"])
    """Methods the accumulation analysis runs (each must keep a store)."""
    budgets: list[int] = Field(default_factory=list)
    """Per-task token budgets for the common-budget comparison."""
    budget_methods: list[str] = Field(default_factory=lambda: ["none", "countermem"])
    """Methods compared at each budget."""

    @model_validator(mode="after")
    def _sane(self) -> AnalysisSettings:
        if any(c < 0 for c in self.accumulation):
            raise ValueError("analyses.accumulation checkpoints count processed tasks and must be >= 0")
        if self.accumulation != sorted(set(self.accumulation)):
            raise ValueError("analyses.accumulation must be increasing, without repeats")
        if any(b < 100 for b in self.budgets):
            raise ValueError("analyses.budgets are per-task token budgets; each must be at least 100")
        return self


EXECUTION_KEYS = ("executor", "ray_address")
"""Top-level keys that say how a study runs, not what it computes."""


class StudyConfig(_Strict):
    """The whole study file: its top-level keys, then one table per section."""

    name: str = "study"
    """The study's name, shown in its report."""
    benchmarks: list[str]
    """Benchmarks to run (`countermem benchmarks` lists them); one whose data or checker is missing is skipped."""
    agents: list[Literal["react", "reflexion"]] = Field(default=["react"])
    """Agents to run: `react`, `reflexion`."""
    methods: list[str] = Field(default_factory=lambda: ["none", "countermem"])
    """Methods to compare (listed below); `none` is every other method's paired twin."""
    seeds: list[int] = Field(default_factory=lambda: [0])
    """Seeds; each gives its own split and task order."""
    backbones: dict[str, BackboneSpec]
    """`[backbones.<name>]`: the LLMs to run on, at least one."""
    split: SplitSizes = Field(default_factory=SplitSizes)
    """`[split]`: tasks per split."""
    agent: AgentSettings = Field(default_factory=AgentSettings)
    """`[agent]`: the agents' budget."""
    memory: MemoryConfig = Field(default_factory=MemoryConfig)
    """`[memory]`: countermem's settings."""
    baselines: BaselineSettings = Field(default_factory=BaselineSettings)
    """`[baselines]`: the comparison methods' settings."""
    analyses: AnalysisSettings = Field(default_factory=AnalysisSettings)
    """`[analyses]`: transfer, accumulation and common-budget analyses."""
    simulation: SimulationSettings = Field(default_factory=SimulationSettings)
    """`[simulation]`: the SIMULATED backbone's generator."""
    shard_size: int = Field(default=0, ge=0)
    """Split every evaluation run into shards of this many tasks, so that --workers share one run
    (results are the same: the store and selector are frozen there). 0: one job per run."""
    cache: bool = True
    """Keep every LLM reply in the study's response cache, so that a resumed stage replays it."""
    data_dir: Path | None = None
    """The benchmark data root (one folder per benchmark); empty: `$COUNTERMEM_DATA_DIR`, else the first
    `shared/data` beside the working directory or a parent."""
    unsafe_no_sandbox: bool = False
    """Run model-written code without bubblewrap; only where you accept that risk."""
    executor: Literal["workers", "ray"] = "workers"
    """How jobs run: `workers`, processes on this machine (`--workers`); `ray`, Ray tasks on a Ray
    instance started for the study or on the cluster at `ray_address` (docs/scale-out.md). Not part
    of the study's identity (results do not depend on it): a study may be resumed with the other;
    `countermem study --executor` overrides it."""
    ray_address: str | None = None
    """The Ray cluster of `executor = "ray"`: HOST:PORT of its head, or `auto` on one of its nodes;
    empty: start a Ray instance on this machine for the study. `--address` overrides it."""

    def identity_json(self) -> str:
        """The config without how it is executed: what the study's hash and manifest record.

        A server store is in it without its password: the password is not where results live, and
        this text is written to the study folder."""
        config = self
        if self.memory.store is not None:
            from countermem.memory._pgstore import display_url

            memory = self.memory.model_copy(update={"store": display_url(self.memory.store)})
            config = self.model_copy(update={"memory": memory})
        return config.model_dump_json(exclude=set(EXECUTION_KEYS))

    @model_validator(mode="after")
    def _non_empty(self) -> StudyConfig:
        for name in ("benchmarks", "agents", "methods", "seeds"):
            values = getattr(self, name)
            if not values:
                raise ValueError(f"{name} must name at least one")
            if len(set(values)) != len(values):
                raise ValueError(f"{name} lists something twice")
        if not self.backbones:
            raise ValueError("[backbones.<name>] must define at least one backbone")
        for name in self.backbones:
            if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name):
                raise ValueError(
                    f"backbone name {name!r} becomes a folder name: use letters, digits, '.', '_' and '-' "
                    '(quote a name with dots in TOML: [backbones."qwen-0.5b"])'
                )
        if self.split.sources == "with-lookalike" and "look-alike" not in self.analyses.transfer:
            raise ValueError("split.sources = 'with-lookalike' serves the look-alike condition: add "
                             "'look-alike' to [analyses] transfer, or leave split.sources out")
        return self


def load_study_config(path: Path) -> StudyConfig:
    """Read and validate a study TOML file; every problem becomes one ConfigError naming the key."""
    if not path.is_file():
        raise ConfigError(f"study config {path} does not exist")
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path} is not valid TOML: {error}") from error
    return parse_study_config(data, source=str(path))


def parse_study_config(data: dict[str, object], *, source: str = "study config") -> StudyConfig:
    try:
        config = StudyConfig.model_validate(data)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '(top level)'}: {e['msg']}" for e in error.errors()
        )
        raise ConfigError(f"{source}: {problems}") from error
    from countermem.experiment._methods import method_spec

    known = benchmark_names()
    for name in config.benchmarks:  # only a known benchmark whose data or checker is missing is skipped
        if name not in known:
            raise ConfigError(f"{source}: benchmarks: unknown benchmark {name!r}; known benchmarks: {', '.join(known)}")
    for name in [*config.methods, *config.analyses.transfer_methods, *config.analyses.accumulation_methods,
                 *config.analyses.budget_methods]:
        method_spec(name)
    strategy = [m for m in dict.fromkeys([*config.methods, *config.analyses.transfer_methods])
                if method_spec(m).kind == "strategy"]
    canned = [name for name, b in config.backbones.items() if b.kind == "simulated"]
    if strategy and canned:
        raise ConfigError(
            f"{source}: methods {', '.join(strategy)} need an LLM that answers judge and distillation "
            f"prompts; the {', '.join(canned)} backbone(s) cannot. Run them on a local or openai backbone"
        )
    generator_model = config.memory.generator.model
    if config.baselines.strategy_model == "generator" and not generator_model:
        raise ConfigError(
            f"{source}: baselines.strategy_model = \"generator\" needs [memory.generator] model (the model that "
            "writes the records); set it, or use strategy_model = \"agent\""
        )
    cannot_load = [name for name, b in config.backbones.items() if b.kind not in MODEL_BACKBONES]
    if generator_model and cannot_load:
        raise ConfigError(
            f"{source}: memory.generator.model = {generator_model!r} needs backbones that can load a second "
            f"model (local or openai); {', '.join(cannot_load)} cannot. Remove the model line or those backbones"
        )
    lesson_methods = [
        m for m in dict.fromkeys([*config.methods, *config.analyses.transfer_methods])
        if method_spec(m).rendering == "lesson"
    ]
    if lesson_methods and not config.memory.lesson.enabled:
        raise ConfigError(
            f"{source}: methods {', '.join(lesson_methods)} show verified lessons, which construction writes only "
            "with [memory.lesson] enabled = true; add that table or drop those methods"
        )
    if config.memory.lesson.enabled and canned:
        raise ConfigError(
            f"{source}: [memory.lesson] needs an LLM that writes lessons; the {', '.join(canned)} backbone(s) "
            "cannot. Run it on a local or openai backbone"
        )
    for name in config.analyses.accumulation_methods:
        if not method_spec(name).uses_store:
            raise ConfigError(f"{source}: analyses.accumulation_methods: {name!r} keeps no store to snapshot")
    return config
