"""A study as a graph of jobs: which stage runs on which tasks, where it writes, what it waits for.

A *cell* is one (backbone, agent, benchmark, seed). Its task lists are a pure function of the
benchmark and the config, so a job in another process rebuilds exactly the same lists. The seed
sets the split, the task order and the generation seed; the no-memory run with the same seed is
the paired twin of every method's run.

Task sets of a cell (held-out tasks never reach construct or train; `check_disjoint` enforces it):
- construct: the first `split.construct` tasks of the construction split (seeded order);
- train: the first `split.train` tasks of the selector-training split;
- heldout: the first `split.heldout` tasks of the held-out split (new environments when the
  split is by environment);
- original-environment: the next tasks of the construction split after those processed (same
  environments as the store's records, never run during construction);
- look-alike: for each processed source task in order, its first look-alike variant (each transfer
  condition gets `analyses.transfer_tasks` tasks, else as many as held out);
- earlier (accumulation probe): the source tasks processed before the first non-zero checkpoint.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from countermem.core import ConfigError, Task
from countermem.domains import Benchmark, split_tasks
from countermem.experiment._methods import method_spec
from countermem.experiment._study_config import StudyConfig

JobKind = Literal["construct", "train", "evaluate", "merge"]


@dataclass(frozen=True)
class Cell:
    backbone: str
    agent: str
    benchmark: str
    seed: int

    @property
    def key(self) -> str:
        return f"{self.backbone}/{self.agent}/{self.benchmark}/seed-{self.seed}"


@dataclass(frozen=True)
class CellTasks:
    construct: list[Task]
    train: list[Task]
    heldout: list[Task]
    original_environment: list[Task]
    lookalike: list[Task]
    lookalike_of: dict[str, str] = field(default_factory=dict)
    """Look-alike task id -> the source task it is a look-alike of: which record is its own."""

    def by_name(self, name: str) -> list[Task]:
        if name == "earlier":
            raise ConfigError("the earlier-task probe depends on the checkpoints; use earlier()")
        attribute = {"look-alike": "lookalike", "original-environment": "original_environment"}.get(name, name)
        if attribute not in ("construct", "train", "heldout", "original_environment", "lookalike"):
            raise ConfigError(f"unknown task set {name!r}")
        return list(getattr(self, attribute))

    def earlier(self, checkpoints: list[int]) -> list[Task]:
        first = next((c for c in checkpoints if c > 0), 0)
        return self.construct[:first]

    def all(self) -> list[Task]:
        return [*self.construct, *self.train, *self.heldout, *self.original_environment, *self.lookalike]


def _ordered(tasks: tuple[Task, ...] | list[Task], seed: int) -> list[Task]:
    order = list(tasks)
    random.Random(seed).shuffle(order)
    return order


def _cut(tasks: list[Task], limit: int | None) -> list[Task]:
    return tasks if limit is None else tasks[:limit]


def _with_lookalikes(benchmark: Benchmark, tasks: list[Task], seed: int, enough: int | None) -> list[Task]:
    """The tasks, in order, that have a look-alike, until `enough` are found (None: all)."""
    kept: list[Task] = []
    for task in tasks:
        if enough is not None and len(kept) >= enough:
            break
        if benchmark.lookalikes(task, random.Random(f"{seed}|{task.id}")):
            kept.append(task)
    if not kept:
        raise ConfigError(f"split.sources = 'with-lookalike', but no source task of {benchmark.name} has a look-alike")
    return kept


def cell_tasks(benchmark: Benchmark, config: StudyConfig, seed: int) -> CellTasks:
    """The cell's task lists (module docstring); deterministic in (benchmark data, config, seed)."""
    splits = split_tasks(benchmark.tasks(), seed=seed, by_environment=config.split.by_environment)
    source = _ordered(splits.by_name("construct"), seed)
    train = _cut(_ordered(splits.by_name("train"), seed), config.split.train)
    heldout = _cut(_ordered(splits.by_name("heldout"), seed), config.split.heldout)
    wanted = config.analyses.transfer_tasks or config.split.heldout or len(heldout)
    if config.split.sources == "with-lookalike":
        source = _with_lookalikes(benchmark, source, seed, None if config.split.source is None else config.split.source + wanted)
    construct = _cut(source, config.split.source)
    original = source[len(construct) : len(construct) + wanted]
    lookalike: list[Task] = []
    lookalike_of: dict[str, str] = {}
    seen: set[str] = {t.id for t in construct} | {t.id for t in train}
    if "look-alike" in config.analyses.transfer:
        for task in construct:
            if len(lookalike) >= wanted:
                break
            variants = [v for v in benchmark.lookalikes(task, random.Random(f"{seed}|{task.id}")) if v.id not in seen]
            if variants:
                lookalike.append(variants[0])
                lookalike_of[variants[0].id] = task.id
                seen.add(variants[0].id)
    tasks = CellTasks(construct, train, heldout, original, lookalike, lookalike_of)
    check_disjoint(tasks)
    return tasks


def short_split_note(benchmark: Benchmark, config: StudyConfig, tasks: CellTasks) -> str:
    """Which of the cell's splits got fewer tasks than asked; "" when none. A reader who asked for 40
    held-out tasks must learn from the report, not from counting rows, that the data gave 15."""
    asked = {"construct": config.split.source, "train": config.split.train, "heldout": config.split.heldout}
    got = {"construct": len(tasks.construct), "train": len(tasks.train), "heldout": len(tasks.heldout)}
    short = [f"{got[name]} {name} tasks of {want} asked" for name, want in asked.items()
             if want is not None and got[name] < want]
    if not short:
        return ""
    return f"{', '.join(short)} (the benchmark has {len(benchmark.tasks())} tasks in all)"


def check_disjoint(tasks: CellTasks) -> None:
    """No held-out task may reach construction or training; raise before anything runs if one would."""
    used = {t.id for t in tasks.construct} | {t.id for t in tasks.train}
    for name in ("heldout", "original_environment", "lookalike"):
        leaked = used & {t.id for t in getattr(tasks, name)}
        if leaked:
            raise ConfigError(
                f"{len(leaked)} {name} task(s) also appear in construction or training (e.g. "
                f"{sorted(leaked)[0]}); the split is broken"
            )
    if {t.id for t in tasks.construct} & {t.id for t in tasks.train}:
        raise ConfigError("construction and training tasks overlap; the split is broken")


@dataclass(frozen=True)
class Job:
    id: str
    kind: JobKind
    cell: Cell
    out: Path
    """The job's own folder, relative to the study root; wiped when an unfinished job restarts."""
    method: str | None = None
    family: str | None = None
    tasks: str = ""
    """Which task set: construct, train, heldout, original-environment, look-alike, earlier."""
    variant: str = "main"
    """main | transfer:<condition> | accumulation:<count>:<heldout|earlier> | budget:<tokens>"""
    depends: tuple[str, ...] = ()
    planned_runs: int = 0
    """Tasks this job will finish (x passes, x epochs), for the progress display."""
    checkpoints: tuple[int, ...] = ()
    budget: int | None = None
    shard: tuple[int, int] | None = None
    """(index, shard size): this evaluate job runs tasks [index*size, (index+1)*size) of its set."""


@dataclass
class StudyPlan:
    jobs: list[Job] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    """Benchmark -> why it was skipped (data or checker missing)."""
    links: dict[Path, Path] = field(default_factory=dict)
    """Link -> target (relative to the root): transfer/new-environment points at the main results."""
    short_splits: dict[str, str] = field(default_factory=dict)
    """"benchmark, seed N" -> which splits have fewer tasks than the config asks (the data has no more)."""

    def job(self, job_id: str) -> Job:
        for job in self.jobs:
            if job.id == job_id:
                return job
        raise KeyError(job_id)


def _family_dir(cell: Cell, family: str) -> Path:
    return Path("work") / cell.key / family


def construct_store(cell: Cell, family: str) -> Path:
    return _family_dir(cell, family) / "store.sqlite"


def selector_checkpoint(cell: Cell, method: str) -> Path:
    return Path("work") / cell.key / "selectors" / method / "selector.pt"


def leaf(root: str, cell: Cell, method: str) -> Path:
    return Path(root) / method / cell.agent / cell.benchmark / f"seed-{cell.seed}"


def plan_study(
    config: StudyConfig, benchmarks: dict[str, Benchmark], skipped: dict[str, str]
) -> StudyPlan:
    """Every job of the study, dependencies first."""
    plan = StudyPlan(skipped=dict(skipped))
    epochs = config.memory.train_epochs
    for backbone in config.backbones:
        for bench_name in config.benchmarks:
            if bench_name not in benchmarks:
                continue
            for agent in config.agents:
                for seed in config.seeds:
                    cell = Cell(backbone, agent, bench_name, seed)
                    tasks = cell_tasks(benchmarks[bench_name], config, seed)
                    short = short_split_note(benchmarks[bench_name], config, tasks)
                    if short:
                        plan.short_splits[f"{bench_name}, seed {seed}"] = short
                    _plan_cell(plan, config, cell, tasks, epochs)
    return plan


def _plan_cell(plan: StudyPlan, config: StudyConfig, cell: Cell, tasks: CellTasks, epochs: int) -> None:
    methods = list(dict.fromkeys(config.methods))
    analyses = config.analyses
    transfer_methods = list(dict.fromkeys(["none", *analyses.transfer_methods])) if analyses.transfer else []
    budget_methods = list(dict.fromkeys(analyses.budget_methods)) if analyses.budgets else []
    accumulation_methods = list(analyses.accumulation_methods) if analyses.accumulation else []
    needed = list(dict.fromkeys([*methods, *transfer_methods, *budget_methods, *accumulation_methods]))
    specs = {name: method_spec(name) for name in needed}
    snapshot_families = {specs[m].family for m in accumulation_methods}
    matts_k = config.baselines.matts_k
    for family in dict.fromkeys(s.family for s in specs.values() if s.family is not None):
        assert family is not None
        passes = matts_k if any(s.matts and s.family == family for s in specs.values()) else 1
        plan.jobs.append(Job(
            id=f"construct/{cell.key}/{family}", kind="construct", cell=cell, out=_family_dir(cell, family),
            family=family, tasks="construct", planned_runs=len(tasks.construct) * passes,
            checkpoints=tuple(c for c in analyses.accumulation if c <= len(tasks.construct))
            if family in snapshot_families else (),
        ))
    trained: set[str] = set()
    for name, spec in specs.items():
        if spec.kind == "countermem" and spec.selector_in(config.memory.selector) == "dqn":
            trained.add(name)
            plan.jobs.append(Job(
                id=f"train/{cell.key}/{name}", kind="train", cell=cell, method=name, family=spec.family,
                out=selector_checkpoint(cell, name).parent, tasks="train",
                depends=(f"construct/{cell.key}/{spec.family}",), planned_runs=len(tasks.train) * epochs,
            ))

    def evaluate(name: str, out: Path, task_set: str, variant: str, n: int, budget: int | None = None) -> None:
        spec = specs[name]
        depends: tuple[str, ...] = ()
        if name in trained:
            depends = (f"train/{cell.key}/{name}",)
        elif spec.family is not None:
            depends = (f"construct/{cell.key}/{spec.family}",)
        job_id = f"evaluate/{cell.key}/{name}/{variant}"
        size = config.shard_size
        if not size or n <= size:
            plan.jobs.append(Job(
                id=job_id, kind="evaluate", cell=cell, method=name, family=spec.family, out=out, tasks=task_set,
                variant=variant, depends=depends, planned_runs=n, budget=budget,
            ))
            return
        shards: list[str] = []
        for index in range((n + size - 1) // size):
            shard_id = f"{job_id}/shard-{index + 1}"
            shards.append(shard_id)
            plan.jobs.append(Job(
                id=shard_id, kind="evaluate", cell=cell, method=name, family=spec.family,
                out=Path("work") / cell.key / "shards" / name / variant.replace(":", "-") / f"shard-{index + 1}",
                tasks=task_set, variant=variant, depends=depends, planned_runs=min(size, n - index * size),
                budget=budget, shard=(index, size),
            ))
        plan.jobs.append(Job(
            id=job_id, kind="merge", cell=cell, method=name, family=spec.family, out=out, tasks=task_set,
            variant=variant, depends=tuple(shards), budget=budget,
        ))

    results = f"results/{cell.backbone}"
    analysis = f"analyses/{cell.backbone}"
    for name in methods:
        evaluate(name, leaf(results, cell, name), "heldout", "main", len(tasks.heldout))
    for condition in analyses.transfer:
        for name in transfer_methods:
            target = leaf(f"{analysis}/transfer/{condition}", cell, name)
            if condition == "new-environment":
                if name not in methods:
                    evaluate(name, leaf(results, cell, name), "heldout", "main", len(tasks.heldout))
                    methods.append(name)
                plan.links[target] = leaf(results, cell, name)
                continue
            task_set = "original-environment" if condition == "original-environment" else "look-alike"
            n = len(tasks.by_name(task_set))
            if n == 0:
                plan.skipped[f"{cell.key} transfer {condition}"] = (
                    "no tasks: " + ("every source-split task is used for construction; lower split.construct"
                                    if task_set == "original-environment" else "the benchmark has no look-alikes")
                )
                continue
            evaluate(name, target, task_set, f"transfer:{condition}", n)
    earlier = tasks.earlier(analyses.accumulation)
    counts = [c for c in analyses.accumulation if c <= len(tasks.construct)]
    if len(counts) < len(analyses.accumulation):
        plan.skipped[f"{cell.key} accumulation"] = (
            f"checkpoints above the {len(tasks.construct)} source tasks are left out: "
            + ", ".join(str(c) for c in analyses.accumulation if c > len(tasks.construct))
        )
    for name in accumulation_methods:
        for count in counts:
            base = leaf(f"{analysis}/accumulation", cell, name) / f"after-{count}"
            evaluate(name, base / "heldout", "heldout", f"accumulation:{count}:heldout", len(tasks.heldout))
            if earlier:
                evaluate(name, base / "earlier", "earlier", f"accumulation:{count}:earlier", len(earlier))
    for budget in analyses.budgets:
        for name in budget_methods:
            evaluate(name, leaf(f"{analysis}/budget-{budget}", cell, name), "heldout", f"budget:{budget}",
                     len(tasks.heldout), budget=budget)
