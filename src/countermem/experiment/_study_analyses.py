"""The study's extra analyses, read from `STUDY/analyses/<backbone>/`: accumulation, transfer and budget.

Layout (every leaf is an ordinary run directory; `countermem study` writes it):

    accumulation/<method>/<agent>/<benchmark>/seed-<n>/after-<count>/heldout/   held-out tasks, store
    accumulation/<method>/<agent>/<benchmark>/seed-<n>/after-<count>/earlier/   snapshot after <count>
                                                                                source tasks
    transfer/<condition>/<method>/<agent>/<benchmark>/seed-<n>/                 STUDY_LAYOUT per condition
    budget-<tokens>/<method>/<agent>/<benchmark>/seed-<n>/                      STUDY_LAYOUT per budget

A part that is absent is empty, not an error: a study may skip an analysis, and the report then
leaves its section out. A leaf that is there but broken (no metrics.json, a manifest that disagrees
with its folder, `after-x`) is a ConfigError naming it, because a silently skipped seed would change
the means. Anything else inside `seed-<n>/` (a construction run, store files) is not read.

Measures and how they pool (docs/measures.md fixes the denominators):

- accumulation, per method/agent/benchmark and checkpoint, means over seeds: held-out success;
  retrieval + augmentation tokens per held-out task (the part of task-run tokens memory adds);
  records in the snapshot (stage.json `records_after`); score loss on earlier tasks = success on
  the earlier probe at the first non-zero checkpoint minus at this one, per seed (positive =
  forgetting). Before the first non-zero checkpoint the probe tasks were not yet learnt from, so
  there is no loss to report there (their success is still shown).
- transfer, per condition x method x agent: success as the mean of per-benchmark seed means;
  rescued / broken and harmful use from `paired_measures` against the same condition's `none` run
  (summed, pooled); retrieval coverage pooled per retrieval attempt (coverage weighted by attempts).
- budget, per budget x method x agent: success and task-run tokens per task, both as the mean of
  per-benchmark seed means.

The analyses render themselves (`StudyAnalyses.blocks`) so that `_study_report` can place them in
a backbone's section without importing this module at run time.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from countermem.core import ConfigError
from countermem.experiment._metrics import RunMetrics
from countermem.experiment._paired import Spread, read_metrics, read_stage, spread
from countermem.experiment._study_report import (
    BASELINE_METHOD,
    SEED_DIR,
    SIMULATED,
    STUDY_LAYOUT,
    Block,
    Plotter,
    ReportTable,
    StudyRow,
    check_leaf,
    collect_rows,
    domain_of,
    fmt_rate,
    fmt_spread,
    group_name,
    has_study_runs,
    unfinished_leaves,
    write_study_report,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

TRANSFER_CONDITIONS = ("original-environment", "new-environment", "look-alike")
"""The conditions in reading order: same environments as the source tasks, new ones, look-alikes."""

_AFTER_DIR = re.compile(r"after-(\d+)")
_BUDGET_DIR = re.compile(r"budget-(\d+)")


class AccumulationRun(BaseModel):
    """One seed's store snapshot after `processed` source tasks, evaluated on held-out and earlier tasks."""

    model_config = ConfigDict(frozen=True)

    method: str
    agent: str
    benchmark: str
    domain: str
    seed: int
    processed: int
    heldout: RunMetrics | None
    earlier: RunMetrics | None
    records: int | None
    """Records in the snapshot (stage.json `records_after`); None when neither run has a stage.json."""

    @property
    def simulated(self) -> bool:
        return any(m is not None and m.simulated for m in (self.heldout, self.earlier))

    @property
    def group(self) -> str:
        return f"{self.method} ({SIMULATED})" if self.simulated else self.method


class AccumulationPoint(BaseModel):
    """One checkpoint of one method/agent/benchmark, over seeds."""

    model_config = ConfigDict(frozen=True)

    method: str
    agent: str
    benchmark: str
    processed: int
    seeds: int
    success: Spread | None
    memory_tokens_per_task: float | None
    """Retrieval + augmentation tokens per held-out task, mean over seeds."""
    records: float | None
    earlier_success: Spread | None
    score_loss: Spread | None
    """Percentage points, earlier-probe success at the first non-zero checkpoint minus at this one."""


class TransferCell(BaseModel):
    model_config = ConfigDict(frozen=True)

    condition: str
    method: str
    agent: str
    runs: int
    success: float
    """Mean over benchmarks of the per-benchmark mean over seeds."""
    n_paired: int
    rescued: int
    broken: int
    selected_uses: int
    harmful_uses: int
    retrieval_attempts: int
    retrieval_coverage: float | None
    """Pooled per retrieval attempt; None when no run had a stage.json with attempts."""

    @property
    def harmful_use(self) -> float | None:
        return self.harmful_uses / self.selected_uses if self.selected_uses else None


class BudgetCell(BaseModel):
    model_config = ConfigDict(frozen=True)

    budget: int
    method: str
    agent: str
    runs: int
    success: float
    tokens_per_task: float
    """Task-run tokens per task, mean over benchmarks of the per-benchmark mean over seeds."""


class StudyAnalyses(BaseModel):
    """Everything under one backbone's analyses folder; empty parts where the study did not run them."""

    model_config = ConfigDict(frozen=True)

    backbone: str
    accumulation: list[AccumulationRun] = Field(default_factory=list)
    transfer: dict[str, list[StudyRow]] = Field(default_factory=dict)
    """condition -> its runs (memory methods paired with the condition's `none` runs)."""
    budgets: dict[int, list[StudyRow]] = Field(default_factory=dict)
    """per-task token budget -> its runs."""

    @property
    def empty(self) -> bool:
        return not (self.accumulation or self.transfer or self.budgets)

    @property
    def simulated(self) -> bool:
        return (any(r.simulated for r in self.accumulation)
                or any(r.simulated for rows in (*self.transfer.values(), *self.budgets.values()) for r in rows))

    def accumulation_points(self) -> list[AccumulationPoint]:
        return accumulation_points(self.accumulation)

    def transfer_cells(self) -> list[TransferCell]:
        return transfer_cells(self.transfer)

    def budget_cells(self) -> list[BudgetCell]:
        return budget_cells(self.budgets)

    def blocks(self, plotter: Plotter) -> list[Block]:
        """This backbone's analysis sections (tables and plots); nothing for the parts that are empty."""
        return [*_accumulation_blocks(self, plotter), *_transfer_blocks(self, plotter),
                *_budget_blocks(self, plotter)]


def collect_analyses(
    backbone_root: Path, domains: Mapping[str, str] | None = None, *, finished_only: bool = False
) -> StudyAnalyses:
    """Read `STUDY/analyses/<backbone>/`; the backbone is the folder's name (`finished_only`: as in
    `collect_rows`)."""
    backbone = backbone_root.name
    if not backbone_root.is_dir():
        return StudyAnalyses(backbone=backbone)
    transfer: dict[str, list[StudyRow]] = {}
    transfer_root = backbone_root / "transfer"
    if transfer_root.is_dir():
        for condition in sorted(_subdirs(transfer_root), key=lambda p: _condition_rank(p.name)):
            if has_study_runs(condition):
                rows = collect_rows(condition, domains, backbone=backbone, finished_only=finished_only)
                if rows:
                    transfer[condition.name] = rows
    budgets: dict[int, list[StudyRow]] = {}
    for folder in _subdirs(backbone_root):
        if not folder.name.startswith("budget-"):
            continue
        match = _BUDGET_DIR.fullmatch(folder.name)
        if match is None:
            raise ConfigError(f"{folder}: a budget folder is named budget-<tokens> with a whole number of tokens")
        if has_study_runs(folder):
            rows = collect_rows(folder, domains, backbone=backbone, finished_only=finished_only)
            if rows:
                budgets[int(match.group(1))] = rows
    return StudyAnalyses(
        backbone=backbone,
        accumulation=_collect_accumulation(backbone_root / "accumulation", domains, finished_only),
        transfer=transfer,
        budgets=dict(sorted(budgets.items())),
    )


def _subdirs(root: Path) -> list[Path]:
    return sorted(p for p in root.iterdir() if p.is_dir())


def _condition_rank(name: str) -> tuple[int, str]:
    return (TRANSFER_CONDITIONS.index(name) if name in TRANSFER_CONDITIONS else len(TRANSFER_CONDITIONS), name)


def _collect_accumulation(
    root: Path, domains: Mapping[str, str] | None, finished_only: bool = False
) -> list[AccumulationRun]:
    if not root.is_dir():
        return []
    runs: list[AccumulationRun] = []
    for seed_dir in sorted(root.glob("*/*/*/*")):
        seed_match = SEED_DIR.fullmatch(seed_dir.name)
        if seed_match is None or not seed_dir.is_dir():
            continue
        method, agent, benchmark, _ = seed_dir.relative_to(root).parts
        seed = int(seed_match.group(1))
        for after in _subdirs(seed_dir):
            if not after.name.startswith("after-"):
                continue
            match = _AFTER_DIR.fullmatch(after.name)
            if match is None:
                raise ConfigError(f"{after}: a checkpoint folder is named after-<source tasks processed>")
            sides = {}
            for side in ("heldout", "earlier"):
                leaf = after / side
                if leaf.is_dir() and (not finished_only or (leaf / "metrics.json").is_file()):
                    metrics = read_metrics(leaf)
                    check_leaf(leaf, metrics, agent=agent, benchmark=benchmark, seed=seed)
                    sides[side] = metrics
            if not sides:
                if finished_only:
                    continue
                raise ConfigError(f"{after} has neither heldout/ nor earlier/; rerun the checkpoint or remove it")
            stages = [s for side in ("heldout", "earlier") if (s := read_stage(after / side)) is not None]
            runs.append(AccumulationRun(
                method=method, agent=agent, benchmark=benchmark, domain=domain_of(benchmark, domains),
                seed=seed, processed=int(match.group(1)), heldout=sides.get("heldout"),
                earlier=sides.get("earlier"), records=stages[0].records_after if stages else None,
            ))
    return runs


def accumulation_points(runs: Sequence[AccumulationRun]) -> list[AccumulationPoint]:
    groups: dict[tuple[str, str, str], list[AccumulationRun]] = {}
    for run in runs:
        groups.setdefault((run.group, run.agent, run.benchmark), []).append(run)
    points: list[AccumulationPoint] = []
    for (method, agent, benchmark), members in sorted(groups.items()):
        losses = _score_losses(members)
        for processed in sorted({r.processed for r in members}):
            here = [r for r in members if r.processed == processed]
            heldout = [r.heldout for r in here if r.heldout is not None]
            earlier = [r.earlier.success for r in here if r.earlier is not None]
            records = [r.records for r in here if r.records is not None]
            loss = [losses[(r.seed, processed)] for r in here if (r.seed, processed) in losses]
            points.append(AccumulationPoint(
                method=method, agent=agent, benchmark=benchmark, processed=processed, seeds=len(here),
                success=spread([m.success for m in heldout]) if heldout else None,
                memory_tokens_per_task=(
                    sum(_memory_tokens_per_task(m) for m in heldout) / len(heldout) if heldout else None
                ),
                records=sum(records) / len(records) if records else None,
                earlier_success=spread(earlier) if earlier else None,
                score_loss=spread(loss) if loss else None,
            ))
    return points


def _memory_tokens_per_task(metrics: RunMetrics) -> float:
    tokens = metrics.task_run_tokens
    return (tokens.retrieval + tokens.augmentation) / metrics.n_tasks if metrics.n_tasks else 0.0


def _score_losses(members: Sequence[AccumulationRun]) -> dict[tuple[int, int], float]:
    """(seed, checkpoint) -> earlier-probe success at the seed's first non-zero checkpoint minus here."""
    out: dict[tuple[int, int], float] = {}
    for seed in {r.seed for r in members}:
        probed = sorted((r.processed, r.earlier.success) for r in members
                        if r.seed == seed and r.earlier is not None)
        reference = next(((c, s) for c, s in probed if c > 0), None)
        if reference is None:
            continue
        for processed, success in probed:
            if processed >= reference[0]:
                out[(seed, processed)] = reference[1] - success
    return out


def _benchmark_mean(rows: Sequence[StudyRow], value: Callable[[StudyRow], float]) -> float:
    """Mean over benchmarks of the per-benchmark mean over seeds (each benchmark weighs the same)."""
    by_benchmark: dict[str, list[float]] = {}
    for row in rows:
        by_benchmark.setdefault(row.benchmark, []).append(value(row))
    means = [sum(v) / len(v) for v in by_benchmark.values()]
    return sum(means) / len(means)


def _by_method_agent(rows: Sequence[StudyRow]) -> list[tuple[str, str, list[StudyRow]]]:
    groups: dict[tuple[str, str], list[StudyRow]] = {}
    for row in rows:
        groups.setdefault((group_name(row), row.agent), []).append(row)
    order = sorted(groups, key=lambda k: (k[0].split()[0] != BASELINE_METHOD, k))
    return [(m, a, groups[(m, a)]) for m, a in order]


def transfer_cells(transfer: Mapping[str, Sequence[StudyRow]]) -> list[TransferCell]:
    cells: list[TransferCell] = []
    for condition in sorted(transfer, key=_condition_rank):
        for method, agent, rows in _by_method_agent(transfer[condition]):
            paired = [r.paired for r in rows if r.paired is not None]
            stages = [r.stage for r in rows if r.stage is not None and r.stage.retrieval_attempts > 0]
            attempts = sum(s.retrieval_attempts for s in stages)
            covered = sum((s.retrieval_coverage or 0.0) * s.retrieval_attempts for s in stages)
            cells.append(TransferCell(
                condition=condition, method=method, agent=agent, runs=len(rows),
                success=_benchmark_mean(rows, lambda r: r.metrics.success),
                n_paired=sum(p.n_paired for p in paired), rescued=sum(p.rescued for p in paired),
                broken=sum(p.broken for p in paired), selected_uses=sum(p.selected_uses for p in paired),
                harmful_uses=sum(p.harmful_uses for p in paired), retrieval_attempts=attempts,
                retrieval_coverage=covered / attempts if attempts else None,
            ))
    return cells


def budget_cells(budgets: Mapping[int, Sequence[StudyRow]]) -> list[BudgetCell]:
    cells: list[BudgetCell] = []
    for budget in sorted(budgets):
        for method, agent, rows in _by_method_agent(budgets[budget]):
            cells.append(BudgetCell(
                budget=budget, method=method, agent=agent, runs=len(rows),
                success=_benchmark_mean(rows, lambda r: r.metrics.success),
                tokens_per_task=_benchmark_mean(rows, lambda r: r.metrics.task_run_tokens_per_task),
            ))
    return cells


def _opt(value: float | None, fmt: str = ".1f", missing: str = "n/a") -> str:
    return missing if value is None else format(value, fmt)


def _label(method: str, agent: str, agents: set[str]) -> str:
    return method if len(agents) == 1 else f"{method} / {agent}"


def _accumulation_blocks(analyses: StudyAnalyses, plotter: Plotter) -> list[Block]:
    points = analyses.accumulation_points()
    if not points:
        return []
    table = ReportTable(
        "Accumulation: memory built from more and more source tasks",
        ["method", "agent", "benchmark", "source tasks processed", "records in store", "held-out success",
         "retrieval + augmentation tokens per task", "earlier-task success", "score loss on earlier tasks (pp)",
         "seeds"],
        intro=("The store is snapshotted as construction works through the source tasks, and each snapshot is "
               "evaluated on the held-out tasks and on a fixed set of earlier source tasks. Held-out success "
               "should rise as records accumulate; a positive score loss means the store got worse on tasks it "
               "had already learnt from (forgetting), a negative one that it kept improving on them."),
    )
    for p in points:
        table.rows.append([
            p.method, p.agent, p.benchmark, str(p.processed), _opt(p.records),
            fmt_spread(p.success) if p.success else "n/a (no heldout run)",
            _opt(p.memory_tokens_per_task, ".0f"),
            fmt_spread(p.earlier_success) if p.earlier_success else "n/a (no earlier run)",
            fmt_spread(p.score_loss, signed=True) if p.score_loss else "—",
            str(p.seeds),
        ])
    table.notes += [
        "Success cells: mean ± sample std over seeds (n = seeds with that run).",
        "score loss = earlier-task success at the first checkpoint after 0 minus at this checkpoint, per seed; "
        "— before that checkpoint, where the earlier tasks had not yet been learnt from.",
    ]
    blocks: list[Block] = [table]
    agents = {p.agent for p in points}
    for benchmark in sorted({p.benchmark for p in points}):
        mine = [p for p in points if p.benchmark == benchmark]
        lines = sorted({(p.method, p.agent) for p in mine})

        def panel(
            value: Callable[[AccumulationPoint], float | None], ylabel: str, title: str,
            ylim: float | None = None,
            mine: list[AccumulationPoint] = mine, lines: list[tuple[str, str]] = lines,
        ) -> Callable[[Axes], None]:
            def draw(ax: Axes) -> None:
                for method, agent in lines:
                    series = [(p.processed, value(p)) for p in mine if (p.method, p.agent) == (method, agent)]
                    xs = [x for x, _ in series]
                    ys = [math.nan if y is None else y for _, y in series]
                    ax.plot(xs, ys, marker="o", label=_label(method, agent, agents))
                ax.set_xlabel("source tasks processed")
                ax.set_ylabel(ylabel)
                if ylim is not None:
                    ax.set_ylim(0, ylim)
                ax.set_title(f"{title}{plotter.tag}", fontsize=9)
                ax.legend(fontsize=7)

            return draw

        figure = plotter.save(
            f"accumulation_{benchmark}.png",
            panel(lambda p: p.success.mean if p.success else None, "held-out success (0-100)",
                  f"{benchmark}: held-out success", 100.0),
            panel(lambda p: p.score_loss.mean if p.score_loss else None, "score loss (pp)",
                  "score loss on earlier tasks"),
            panel(lambda p: p.records, "records", "records in store"),
            panel(lambda p: p.memory_tokens_per_task, "tokens per task", "retrieval + augmentation tokens"),
            width=16.0,
        )
        if figure is not None:
            blocks.append(figure)
    return blocks


def _transfer_blocks(analyses: StudyAnalyses, plotter: Plotter) -> list[Block]:
    cells = analyses.transfer_cells()
    if not cells:
        return []
    table = ReportTable(
        "Transfer: the same memory on tasks near and far from where it was built",
        ["condition", "method", "agent", "success (mean over benchmarks)", "rescued / broken",
         "harmful use", "retrieval coverage", "runs"],
        intro=("Records built on source tasks are used on held-out tasks from the same environments "
               "(original-environment), from unseen environments (new-environment), and on look-alike tasks "
               "that resemble the source tasks but need a different answer. Good memory keeps rescuing more "
               "than it breaks as tasks move away, and its conditions should stop it from being used "
               "(lower coverage, little harmful use) on look-alikes."),
    )
    for c in cells:
        table.rows.append([
            c.condition, c.method, c.agent, f"{c.success:.1f}",
            f"+{c.rescued} / -{c.broken} (of {c.n_paired})" if c.n_paired else "—",
            fmt_rate(c.harmful_uses, c.selected_uses) if c.n_paired else "—",
            _opt(c.retrieval_coverage, ".2f", "n/a (no stage.json)") if c.method.split()[0] != BASELINE_METHOD
            else "—",
            str(c.runs),
        ])
    table.notes += [
        f"rescued / broken and harmful use: against the same condition's `{BASELINE_METHOD}` run (same agent, "
        "benchmark, seed), summed / pooled over benchmarks and seeds; — where there is no such twin.",
        "retrieval coverage: share of retrieval attempts with at least one eligible record, pooled over runs.",
    ]
    conditions = list(dict.fromkeys(c.condition for c in cells))
    methods = list(dict.fromkeys(c.method for c in cells))
    memory_methods = [m for m in methods if m.split()[0] != BASELINE_METHOD]

    def grouped(
        value: Callable[[list[TransferCell]], float | None], shown: list[str], ylabel: str, title: str,
        ylim: float | None,
    ) -> Callable[[Axes], None]:
        def draw(ax: Axes) -> None:
            width = 0.8 / max(1, len(shown))
            for i, method in enumerate(shown):
                heights = []
                for condition in conditions:
                    v = value([c for c in cells if c.condition == condition and c.method == method])
                    heights.append(math.nan if v is None else v)
                ax.bar([x + i * width for x in range(len(conditions))], heights, width, label=method)
            ax.set_xticks([x + width * (len(shown) - 1) / 2 for x in range(len(conditions))])
            ax.set_xticklabels(conditions, fontsize=8)
            if ylim is not None:
                ax.set_ylim(0, ylim)
            ax.set_ylabel(ylabel)
            ax.set_title(f"{title}{plotter.tag}", fontsize=9)
            ax.legend(fontsize=7)

        return draw

    def mean_success(group: list[TransferCell]) -> float | None:
        return sum(c.success for c in group) / len(group) if group else None

    def coverage(group: list[TransferCell]) -> float | None:
        attempts = sum(c.retrieval_attempts for c in group)
        covered = sum((c.retrieval_coverage or 0.0) * c.retrieval_attempts for c in group)
        return covered / attempts if attempts else None

    def harm(group: list[TransferCell]) -> float | None:
        uses = sum(c.selected_uses for c in group)
        return sum(c.harmful_uses for c in group) / uses if uses else None

    figure = plotter.save(
        "transfer.png",
        grouped(mean_success, methods, "success (0-100)", "success by condition (mean over agents)", 100.0),
        grouped(coverage, memory_methods, "share of attempts", "retrieval coverage", 1.0),
        grouped(harm, memory_methods, "share of selected uses", "harmful use", 1.0),
        width=max(12.0, 1.5 * len(conditions) * max(1, len(methods))),
    )
    return [table, *([figure] if figure else [])]


def _budget_blocks(analyses: StudyAnalyses, plotter: Plotter) -> list[Block]:
    cells = analyses.budget_cells()
    if not cells:
        return []
    table = ReportTable(
        "Budget: every method held to the same per-task token budget",
        ["budget (tokens per task)", "method", "agent", "success (mean over benchmarks)",
         "task-run tokens per task", "runs"],
        intro=("The held-out runs again, with every method given the same cap on the LLM tokens it may spend "
               "per task (records shown in a prompt are part of that prompt, so memory spends from the same cap). "
               "A method that leads only because it spends more tokens loses its lead here."),
    )
    for c in cells:
        table.rows.append([str(c.budget), c.method, c.agent, f"{c.success:.1f}", f"{c.tokens_per_task:.0f}",
                           str(c.runs)])
    agents = {c.agent for c in cells}
    lines = list(dict.fromkeys((c.method, c.agent) for c in cells))

    def panel(value: Callable[[BudgetCell], float], ylabel: str, title: str) -> Callable[[Axes], None]:
        def draw(ax: Axes) -> None:
            for method, agent in lines:
                series = [c for c in cells if (c.method, c.agent) == (method, agent)]
                ax.plot([c.budget for c in series], [value(c) for c in series], marker="o",
                        label=_label(method, agent, agents))
            ax.set_xticks(sorted({c.budget for c in cells}))
            ax.set_xlabel("token budget per task")
            ax.set_ylabel(ylabel)
            ax.set_title(f"{title}{plotter.tag}", fontsize=9)
            ax.legend(fontsize=7)

        return draw

    figure = plotter.save(
        "budget.png",
        panel(lambda c: c.success, "success (0-100)", "success by budget"),
        panel(lambda c: c.tokens_per_task, "task-run tokens per task", "tokens spent by budget"),
        width=12.0,
    )
    return [table, *([figure] if figure is not None else [])]



STUDY_REPORT_NAME = "report"
"""`countermem report STUDY` writes STUDY/report/report.md and report.html (plus PNGs)."""


def _study_manifest(study_root: Path) -> dict[str, object]:
    path = study_root / "manifest.json"
    return json.loads(path.read_text()) if path.is_file() else {}


def _main_runs_not_finished(study_root: Path, manifest: dict[str, object]) -> int:
    from countermem.experiment._study_jobs import read_record

    jobs = manifest.get("jobs")
    if not isinstance(jobs, list):
        return 0
    main = [j["id"] for j in jobs if isinstance(j, dict) and str(j.get("id", "")).endswith("/main")]
    return sum(1 for job_id in main if read_record(study_root, job_id) is None)


def _short_splits(manifest: dict[str, object]) -> dict[str, str]:
    notes = manifest.get("short_splits", {})
    return {str(k): str(v) for k, v in notes.items()} if isinstance(notes, dict) else {}


def run_commits(study_root: Path) -> dict[str, list[str]]:
    """The code commit each run folder of the study started at (its manifest), as commit -> the
    parts of the study that ran there (`work`: construction and training, `results`: held-out
    runs, `analyses`: transfer and other analyses). A study resumed after the code changed has
    several; a reader comparing two arms must know whether they ran the same code."""
    found: dict[str, set[str]] = {}
    seen: set[Path] = set()
    for part in ("work", "results", "analyses"):
        root = study_root / part
        if not root.is_dir():
            continue
        for manifest in sorted(root.rglob("manifest.json")):
            where = manifest.resolve()
            if where in seen:
                continue
            seen.add(where)
            try:
                commit = str(json.loads(manifest.read_text()).get("git_commit", "unknown"))
            except (OSError, ValueError):
                continue
            found.setdefault(commit, set()).add(part)
    return {commit: sorted(parts) for commit, parts in found.items()}


def _commit_note(commits: Mapping[str, list[str]]) -> list[str]:
    if len(commits) <= 1:
        return []
    listed = "; ".join(f"{commit[:7]} ({', '.join(parts)})" for commit, parts in sorted(commits.items()))
    return [f"The runs of this study started at {len(commits)} code commits: {listed}. Arms compared with "
            "each other should have run the same code, or the changes between the commits should not touch "
            "what is compared (`git log A..B`)."]


def write_study_folder_report(
    study_root: Path, out_dir: Path | None = None, domains: Mapping[str, str] | None = None
) -> tuple[Path, Path]:
    """The report of a `countermem study` folder: results/<backbone>/ and analyses/<backbone>/, one
    section per backbone, into out_dir (default STUDY/report/)."""
    results, analyses_root = study_root / "results", study_root / "analyses"
    backbones = sorted({p.name for root in (results, analyses_root) if root.is_dir() for p in _subdirs(root)})
    rows: list[StudyRow] = []
    analyses: list[StudyAnalyses] = []
    unfinished = 0
    for backbone in backbones:
        if has_study_runs(results / backbone):
            rows += collect_rows(results / backbone, domains, backbone=backbone, finished_only=True)
            unfinished += len(unfinished_leaves(results / backbone))
        found = collect_analyses(analyses_root / backbone, domains, finished_only=True)
        if not found.empty:
            analyses.append(found)
    if not rows:
        raise ConfigError(
            f"{study_root} has no finished runs under results/<backbone>/{STUDY_LAYOUT}; "
            "run `countermem study` on its config to produce them"
        )
    manifest = _study_manifest(study_root)
    missing = max(unfinished, _main_runs_not_finished(study_root, manifest))
    preface = [
        f"This study is not finished: {missing} main-comparison run(s) have not finished (still to run, "
        "running, or interrupted) and are left out below; run `countermem study` on the same config to "
        "finish them."
    ] if missing else []
    preface += [f"Short split ({cell}): {note}." for cell, note in _short_splits(manifest).items()]
    preface += _commit_note(run_commits(study_root))
    return write_study_report(
        out_dir or study_root / STUDY_REPORT_NAME, rows, analyses, name=STUDY_REPORT_NAME, preface=preface
    )


def condition_root(study: Path, backbone: str, condition: str) -> Path:
    """Where a backbone's runs of one condition live (method/agent/benchmark/seed-N below it):
    `heldout` in the study's `results/`, a transfer condition under `analyses/`."""
    if condition == "heldout":
        return study / "results" / backbone
    return study / "analyses" / backbone / "transfer" / condition
