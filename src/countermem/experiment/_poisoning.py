"""Poisoning on the SIMULATED bed: records that are right where they were made and wrong on look-alikes.

An outsider builds verified records on sql-shop source tasks (schemas other than retail) and
gives them to a victim, whose agent then works on the look-alike tasks: the same questions
asked of another schema, where each of those corrections is wrong. The records enter the
victim's scope through the two public doors: `memory import` of the outsider's export (the
conditions as construction derived them), and `SQLiteStore.add` of the same corrections with the
condition `none` (a poisoner who writes universal conditions, so conditions cannot help).

Each arm runs the victim's agent on the look-alikes with top-1 advice, `rounds` times in seeded
orders (a deployed agent meets recurring questions; one pass gives a record too few uses for
any rule to judge it), and is paired with a run without advice on the same tasks. A selected use is harmful when its task ended with a lower
final utility than the paired run (the study's measure). Arms: conditions on or off (for the
universal poison only on: a `none` condition holds everywhere, so the filter cannot differ), and
retirement by use off or under each given rule: the store's own `RetireByUse` (a record with at
least `min_uses` selected uses and harmed / selected > `harm_rate` is retired: kept, never
offered; the lifecycle default is 5 uses and 0.5). After each task every harmful use counts as
`harmed` on its record (`CounterfactualMemory.mark_harmed`), and the store applies the rule in
the same transaction; with retirement off the store gets no rule.

Everything here is SIMULATED (a controlled test bed, `countermem.experiment._simulation`): its
rates say what the machinery does with such records, not how often an LLM is misled.
"""

from __future__ import annotations

import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from countermem.agents import TaskOutcome
from countermem.core import Task
from countermem.domains import Benchmark, load_benchmark
from countermem.experiment._rundir import RunDir
from countermem.experiment._runner import RunConfig, run_tasks
from countermem.experiment._simulation import simulated_llm_for
from countermem.experiment._stages import MemorySettings, construct_memory
from countermem.llm import LLM
from countermem.memory import (
    AdvisorOptions,
    CounterfactualMemory,
    Record,
    RetireByUse,
    Retriever,
    ScopeAccess,
    SQLiteStore,
    make_embedder,
    records_from_jsonl,
)
from countermem.selector import TopOne

BENCHMARK = "sql-shop"
VICTIM = "victim"
NAIVE_ENVIRONMENT = "shop_retail"
"""The schema the simulated agent assumes: it is right there, so source tasks come from the others."""
DEFAULT_RETIREMENTS = (RetireByUse(0.5, 5), RetireByUse(0.25, 3))
"""The lifecycle's default rule, and a stricter one."""


def rule_label(rule: RetireByUse | None) -> str:
    return "off" if rule is None else f">{rule.harm_rate:g} after {rule.min_uses}"
_BASE = {"benchmark": BENCHMARK, "backbone": "simulated", "model": "simulated", "task_set": "look-alike"}


@dataclass(frozen=True)
class PoisoningArm:
    """One arm's selected uses and how many of them harmed, over the look-alike tasks."""

    poison: str
    conditions: bool
    retirement: RetireByUse | None
    tasks: int
    selected_uses: int
    harmful_uses: int
    broken: int
    """Tasks the no-advice run solved and this arm did not."""
    retired: int
    last_round_uses: int = 0
    last_round_harmful: int = 0

    @property
    def harmful_use(self) -> float | None:
        return self.harmful_uses / self.selected_uses if self.selected_uses else None

    @property
    def last_round_harmful_use(self) -> float | None:
        return self.last_round_harmful / self.last_round_uses if self.last_round_uses else None


@dataclass
class PoisoningResult:
    seed: int
    source_tasks: int
    lookalike_tasks: int
    poisoned_records: int
    rounds: int
    arms: list[PoisoningArm] = field(default_factory=list)

    def arm(self, poison: str, conditions: bool, retirement: RetireByUse | None) -> PoisoningArm:
        for arm in self.arms:
            if (arm.poison, arm.conditions, arm.retirement) == (poison, conditions, retirement):
                return arm
        raise KeyError((poison, conditions, retirement))

    def table(self) -> str:
        lines = [
            f"SIMULATED poisoning bed (sql-shop, seed {self.seed}): {self.poisoned_records} records built on "
            f"{self.source_tasks} source tasks, offered on {self.lookalike_tasks} look-alike tasks x {self.rounds} "
            "rounds; retirement by use = the store's RetireByUse (retire when harmed/selected > rate after n uses)",
            "poison              conditions  retirement    selected uses  harmful uses  harmful use  last round"
            "  broken  retired",
        ]
        for a in self.arms:
            lines.append(
                f"{a.poison:<19} {'on' if a.conditions else 'off':<11} {rule_label(a.retirement):<13} "
                f"{a.selected_uses:>13} {a.harmful_uses:>13} {_pct(a.harmful_use):>12} "
                f"{_pct(a.last_round_harmful_use):>11} {a.broken:>7} {a.retired:>8}"
            )
        return "\n".join(lines)


def _pct(rate: float | None) -> str:
    return "n/a" if rate is None else f"{100 * rate:.1f}%"


def lookalike_tasks(benchmark: Benchmark, sources: list[Task], seed: int) -> list[Task]:
    """Each source task's first look-alike, drawn as the study's look-alike transfer set draws it."""
    seen: set[str] = set()
    out: list[Task] = []
    for task in sources:
        variants = [v for v in benchmark.lookalikes(task, random.Random(f"{seed}|{task.id}")) if v.id not in seen]
        if variants:
            out.append(variants[0])
            seen.add(variants[0].id)
    return out


def universal(record: Record) -> Record:
    """The same correction with the condition `none`, as a poisoner who wants it offered everywhere writes it."""
    data = record.model_dump()
    for key in ("id", "version", "counters"):
        del data[key]
    data["condition"] = {"source": "none"}
    return Record.model_validate(data)


def run_poisoning(
    root: Path, *, seed: int = 0, source_tasks: int = 40, rounds: int = 4,
    retirements: tuple[RetireByUse, ...] = DEFAULT_RETIREMENTS,
) -> PoisoningResult:
    """Build, poison and measure under `root` (a new or empty folder); see the module docstring."""
    root.mkdir(parents=True, exist_ok=True)
    bench = load_benchmark(BENCHMARK)
    tasks = bench.tasks()
    pool = [t for t in tasks if t.environment != NAIVE_ENVIRONMENT]
    random.Random(seed).shuffle(pool)
    sources = pool[:source_tasks]
    lookalikes = lookalike_tasks(bench, sources, seed)
    llm = simulated_llm_for(bench, tasks, seed=seed)

    outsider = MemorySettings(store=root / "outsider.sqlite", embedder="lexical", selector="top1", seed=seed,
                              record_scope="outsider")
    construct_memory(RunConfig(split="construct", seed=seed, **_BASE), outsider, llm, bench, sources,
                     RunDir(root / "outsider-construct"), simulated=True)
    export = root / "outsider.jsonl"
    with SQLiteStore(outsider.store, read_only=True, access=outsider.access) as store:
        store.export_jsonl(export)
    imported = list(records_from_jsonl(export, VICTIM))
    stores = {"import (derived)": root / "victim-import.sqlite", "api (universal)": root / "victim-api.sqlite"}
    for poison, records in (("import (derived)", imported), ("api (universal)", [universal(r) for r in imported])):
        with SQLiteStore(stores[poison], capacity=max(200, len(records)), access=ScopeAccess.of(VICTIM)) as store:
            for record in records:
                store.add(record)

    base = run_tasks(RunConfig(seed=seed, **_BASE), llm, bench, lookalikes, RunDir(root / "no-advice"),
                     simulated=True)
    assert base.simulated
    baseline = _outcomes(root / "no-advice")
    result = PoisoningResult(seed, len(sources), len(lookalikes), len(imported), rounds)
    for poison, store_path in stores.items():
        for conditions in (True, False) if poison.startswith("import") else (True,):
            for n, retirement in enumerate((None, *retirements)):
                name = f"{poison.split()[0]}-{'cond' if conditions else 'nocond'}-{n}"
                arm = _arm(root / name, store_path, llm, bench, lookalikes, baseline, seed=seed, rounds=rounds,
                           conditions=conditions, retire=retirement)
                result.arms.append(PoisoningArm(poison, conditions, retirement, len(lookalikes) * rounds, **arm))
    return result


def _outcomes(run: Path) -> dict[str, TaskOutcome]:
    lines = (run / "results.jsonl").read_text().splitlines()
    return {o.task_id: o for o in (TaskOutcome.model_validate_json(line) for line in lines)}


def _arm(
    folder: Path, store_path: Path, llm: LLM, bench: Benchmark, tasks: list[Task],
    baseline: dict[str, TaskOutcome], *, seed: int, rounds: int, conditions: bool, retire: RetireByUse | None,
) -> dict[str, int]:
    """Selected and harmful uses (in all and in the last round), broken tasks and records retired."""
    folder.mkdir(parents=True)
    copy = folder / "store.sqlite"
    shutil.copyfile(store_path, copy)
    access = ScopeAccess.of(VICTIM)
    store = SQLiteStore(copy, access=access, retire_by_use=retire)
    retriever = Retriever(store, make_embedder("lexical"), use_conditions=conditions, seed=seed, access=access)
    advisor = CounterfactualMemory(
        retriever, TopOne(), action_language=bench.action_language, store=store,
        options=AdvisorOptions(show_condition=conditions, write_counters=True),
    )
    counts = {"selected_uses": 0, "harmful_uses": 0, "broken": 0, "last_round_uses": 0, "last_round_harmful": 0}
    last = [False]

    def after_task(outcome: TaskOutcome, done: int, total: int) -> None:
        before = baseline[outcome.task_id]
        harmed = outcome.final_utility < before.final_utility
        uses, harmful = len(outcome.advice_record_ids), len(outcome.advice_record_ids) if harmed else 0
        counts["selected_uses"] += uses
        counts["harmful_uses"] += harmful
        counts["broken"] += int(before.solved and not outcome.solved)
        if last[0]:
            counts["last_round_uses"] += uses
            counts["last_round_harmful"] += harmful
        for record_id in outcome.advice_record_ids if harmed else ():  # one per use, as harmful use counts
            advisor.mark_harmed(record_id)

    config = RunConfig(seed=seed, memory={"conditions": conditions, "retirement": rule_label(retire)}, **_BASE)
    try:
        for round_ in range(rounds):
            order = list(tasks)
            random.Random(f"{seed}|round {round_}").shuffle(order)
            last[0] = round_ == rounds - 1
            run_tasks(config, llm, bench, order, RunDir(folder / f"round-{round_ + 1}"), memory=advisor,
                      on_task_done=after_task, simulated=True)
        retired = len(store.retired())
    finally:
        store.close()
    return {**counts, "retired": retired}
