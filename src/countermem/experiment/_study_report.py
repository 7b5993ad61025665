"""The study report: many runs (methods x agents x benchmarks x seeds) in one Markdown and one
HTML page, with PNG plots.

Study layout, one finished run directory per leaf (what `collect_rows` walks):

    <root>/<method>/<agent>/<benchmark>/seed-<n>/   manifest.json, results.jsonl, metrics.json,
                                                    transcripts/, and stage.json for stage runs

`method` is a free name (`none`, `ours`, `top1`, ...); `none` is the no-memory baseline, and each
other method's run is paired with the `none` run of the same agent, benchmark and seed (the
paired measures need that twin; without it they are left out, never estimated). A leaf holds
the run the method is judged on (for memory methods, the evaluate stage); anything deeper
(e.g. a training stage's `epoch-N/`) is not read.

Aggregation: success and tokens are averaged over seeds (mean, sample std, n); the mean over
benchmarks is the mean of the per-benchmark means; per-domain success is the mean over that
domain's benchmarks. Paired counts (rescued, broken) are summed over seeds, and the per-use and
per-offer rates are pooled (summed numerators over summed denominators), which is what their
denominators say. Runs on the simulated backbone are labelled SIMULATED in the title, in every
table row and in the plots' titles; they form groups of their own ("<method> (SIMULATED)"), so a
simulated seed is never averaged with a real one.

A whole study (`countermem study`) has one such folder per backbone under `results/`, and the
extra analyses (accumulation, transfer, budget) under `analyses/` (see `_study_analyses`). The
report then has one section per backbone; the analyses render themselves into that section
through `StudyAnalyses.blocks`, so this module needs no import of them at run time.
Retention rules are ordinary methods (`retention-<rule>`) of the main comparison, so their
section is drawn here, from the rows.
"""

from __future__ import annotations

import base64
import html
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from countermem.core import ConfigError
from countermem.domains import BENCHMARKS, DOMAINS
from countermem.experiment._metrics import RunMetrics
from countermem.experiment._paired import (
    PairedMeasures,
    Spread,
    paired_measures,
    pooled_reach,
    read_metrics,
    read_stage,
    spread,
)
from countermem.experiment._rundir import safe_name
from countermem.experiment._significance import format_test, paired_test
from countermem.experiment._stages import BuildCost, StageReport

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from countermem.experiment._study_analyses import StudyAnalyses

BASELINE_METHOD = "none"
STUDY_LAYOUT = "<method>/<agent>/<benchmark>/seed-<n>/"
UNREGISTERED_DOMAIN = "other"
"""Domain of a benchmark that neither the registry nor the caller's mapping knows."""
SIMULATED = "SIMULATED"
RETENTION_PREFIX = "retention-"
"""Methods named `retention-<rule>` are the retention comparison (same capacity, another eviction rule)."""

SEED_DIR = re.compile(r"seed-(\d+)")


class StudyRow(BaseModel):
    model_config = ConfigDict(frozen=True)

    method: str
    agent: str
    benchmark: str
    domain: str
    seed: int
    metrics: RunMetrics
    backbone: str = ""
    """The study's backbone folder the run came from; empty for a plain study folder."""
    paired: PairedMeasures | None = None
    stage: StageReport | None = None
    build_cost: BuildCost | None = None

    @property
    def simulated(self) -> bool:
        return self.metrics.simulated or (self.paired is not None and self.paired.simulated)


def domain_of(benchmark: str, domains: Mapping[str, str] | None = None) -> str:
    if domains and benchmark in domains:
        return domains[benchmark]
    for entry in BENCHMARKS:
        if entry.name == benchmark:
            return entry.domain
    return UNREGISTERED_DOMAIN


def _study_leaves(root: Path, finished_only: bool = False) -> list[Path]:
    return sorted(
        p for p in root.glob("*/*/*/*")
        if p.is_dir() and SEED_DIR.fullmatch(p.name) and (not finished_only or (p / "metrics.json").is_file())
    )


def unfinished_leaves(root: Path) -> list[Path]:
    """Run folders of a study layout without metrics.json: still running, or interrupted."""
    return [p for p in _study_leaves(root) if not (p / "metrics.json").is_file()] if root.is_dir() else []


def has_study_runs(root: Path) -> bool:
    """Whether root holds at least one run folder in STUDY_LAYOUT (an absent folder holds none)."""
    return root.is_dir() and bool(_study_leaves(root))


def collect_rows(
    root: Path, domains: Mapping[str, str] | None = None, *, backbone: str = "", finished_only: bool = False
) -> list[StudyRow]:
    """Read every run of a study folder and pair each memory method's run with its `none` twin.

    `finished_only` leaves out runs without metrics.json (a study still in progress) instead of
    refusing them."""
    if not root.is_dir():
        raise ConfigError(f"{root} is not a folder")
    leaves = _study_leaves(root, finished_only)
    if not leaves:
        raise ConfigError(
            f"{root} holds no run directories in the study layout {STUDY_LAYOUT} "
            "(a single run directory has a metrics.json at its top)"
        )
    found: dict[tuple[str, str, str, int], Path] = {}
    for leaf in leaves:
        method, agent, benchmark, seed_dir = leaf.relative_to(root).parts
        match = SEED_DIR.fullmatch(seed_dir)
        assert match is not None
        found[(method, agent, benchmark, int(match.group(1)))] = leaf
    rows: list[StudyRow] = []
    for (method, agent, benchmark, seed), leaf in sorted(found.items()):
        metrics = read_metrics(leaf)
        check_leaf(leaf, metrics, agent=agent, benchmark=benchmark, seed=seed)
        twin = found.get((BASELINE_METHOD, agent, benchmark, seed))
        paired = paired_measures(leaf, twin) if method != BASELINE_METHOD and twin is not None else None
        rows.append(StudyRow(
            method=method, agent=agent, benchmark=benchmark, domain=domain_of(benchmark, domains),
            seed=seed, metrics=metrics, paired=paired, stage=read_stage(leaf), backbone=backbone,
            build_cost=_read_build_cost(leaf),
        ))
    return rows


def check_leaf(leaf: Path, metrics: RunMetrics, *, agent: str, benchmark: str, seed: int) -> None:
    """Refuse a run whose own manifest disagrees with the folder it sits in (a misplaced copy)."""
    manifest = leaf / "manifest.json"
    if not manifest.is_file():
        raise ConfigError(f"{leaf} has no manifest.json; it is not a run directory")
    try:
        config = json.loads(manifest.read_text()).get("config", {})
    except json.JSONDecodeError as error:
        raise ConfigError(f"{manifest} is not valid JSON ({error}); rerun or remove {leaf}") from error
    problems = []
    if metrics.benchmark != benchmark:
        problems.append(f"benchmark {metrics.benchmark!r}, folder says {benchmark!r}")
    if config.get("agent") != agent:
        problems.append(f"agent {config.get('agent')!r}, folder says {agent!r}")
    if config.get("seed") != seed:
        problems.append(f"seed {config.get('seed')!r}, folder says {seed}")
    if problems:
        raise ConfigError(f"{leaf} does not match its place in {STUDY_LAYOUT}: {'; '.join(problems)}")


@dataclass
class ReportTable:
    """One table of the report; `intro` says in plain words what it measures and how to read it."""

    title: str
    headers: list[str]
    rows: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    intro: str = ""

    def markdown(self, level: int = 2) -> list[str]:
        lines = [f"{'#' * level} {self.title}", ""]
        if self.intro:
            lines += [self.intro, ""]
        lines += ["| " + " | ".join(self.headers) + " |", "|" + "---|" * len(self.headers)]
        lines += ["| " + " | ".join(row) + " |" for row in self.rows]
        return [*lines, "", *(f"{note}  " for note in self.notes), ""]

    def html(self, level: int = 2) -> str:
        head = "".join(f"<th>{html.escape(h)}</th>" for h in self.headers)
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>" for row in self.rows
        )
        intro = f"<p>{html.escape(self.intro)}</p>" if self.intro else ""
        notes = "".join(f"<p class='note'>{html.escape(n)}</p>" for n in self.notes)
        return (f"<h{level}>{html.escape(self.title)}</h{level}>{intro}"
                f"<table><tr>{head}</tr>{body}</table>{notes}")


@dataclass(frozen=True)
class ReportFigure:
    path: Path


@dataclass(frozen=True)
class ReportText:
    text: str


@dataclass(frozen=True)
class ReportHeading:
    """A backbone's heading in a report over several backbones."""

    text: str


Block = ReportTable | ReportFigure | ReportText | ReportHeading


class Plotter:
    """Draws the report's PNGs into one folder; `prefix` keeps several backbones' files apart.

    Without matplotlib nothing is drawn and `note` says so once, instead of failing the report.
    """

    def __init__(self, out_dir: Path, *, prefix: str = "", simulated: bool = False) -> None:
        self.out_dir = out_dir
        self.prefix = prefix
        self.tag = f" — {SIMULATED}" if simulated else ""
        self.note: str | None = None
        self._plt: ModuleType | None
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            self.note = "plots not drawn: matplotlib is not installed"
            self._plt = None
        else:
            self._plt = plt

    def save(
        self, name: str, *draws: Callable[[Axes], None], width: float, height: float = 3.6
    ) -> ReportFigure | None:
        """One PNG with one panel per draw function, side by side."""
        if self._plt is None:
            return None
        fig, axes = self._plt.subplots(1, len(draws), figsize=(width, height), squeeze=False)
        for draw, ax in zip(draws, axes[0], strict=True):
            draw(ax)
        fig.tight_layout()
        target = self.out_dir / f"{self.prefix}{name}"
        fig.savefig(target, dpi=100)
        self._plt.close(fig)
        return ReportFigure(target)


def group_name(row: StudyRow) -> str:
    """The method as tables show it: simulated runs form their own group, never averaged with real ones."""
    return f"{row.method} ({SIMULATED})" if row.simulated else row.method


class _Study:
    """The rows grouped the ways the tables need them."""

    def __init__(self, rows: Sequence[StudyRow]) -> None:
        if not rows:
            raise ConfigError("a study report needs at least one run")
        self.rows = list(rows)
        self.methods = sorted({group_name(r) for r in rows}, key=lambda m: (m.split()[0] != BASELINE_METHOD, m))
        self.agents = sorted({r.agent for r in rows})
        domain_rank = {d: i for i, d in enumerate(DOMAINS)}
        self.domains = sorted({r.domain for r in rows}, key=lambda d: (domain_rank.get(d, len(DOMAINS)), d))
        self.benchmarks = sorted(
            {(r.domain, r.benchmark) for r in rows}, key=lambda db: (self.domains.index(db[0]), db[1])
        )

    def runs(self, method: str, agent: str, benchmark: str | None = None) -> list[StudyRow]:
        return [
            r for r in self.rows
            if group_name(r) == method and r.agent == agent and (benchmark is None or r.benchmark == benchmark)
        ]

    def pairs(self) -> list[tuple[str, str]]:
        return [(m, a) for m in self.methods for a in self.agents if self.runs(m, a)]

    def success(self, method: str, agent: str, benchmark: str) -> Spread | None:
        runs = self.runs(method, agent, benchmark)
        return spread([r.metrics.success for r in runs]) if runs else None

    def mean_over(self, method: str, agent: str, benchmarks: Sequence[str]) -> tuple[float | None, bool]:
        """Mean of per-benchmark seed means, and whether every benchmark had runs."""
        means = [s.mean for b in benchmarks if (s := self.success(method, agent, b)) is not None]
        return (sum(means) / len(means) if means else None), len(means) == len(benchmarks)


def fmt_spread(value: Spread, digits: int = 1, signed: bool = False) -> str:
    std = f" ± {value.std:.{digits}f}" if value.std is not None else ""
    sign = "+" if signed else ""
    return f"{value.mean:{sign}.{digits}f}{std} (n={value.n})"


def fmt_rate(numerator: int, denominator: int) -> str:
    return f"{numerator / denominator:.2f} ({numerator}/{denominator})" if denominator else "n/a (none)"


def _mean_defined(values: Sequence[float | None], total: int, digits: int = 2) -> str:
    defined = [v for v in values if v is not None]
    if not defined:
        return "n/a (none solved)"
    note = "" if len(defined) == total else f" ({len(defined)} of {total} seeds)"
    return f"{sum(defined) / len(defined):.{digits}f}{note}"


def _main_table(study: _Study) -> ReportTable:
    names = [b for _, b in study.benchmarks]
    table = ReportTable("Success (0-100) by method, agent and benchmark",
                   ["method", "agent", *(f"{b} ({d})" for d, b in study.benchmarks), "mean over benchmarks"])
    partial = False
    for method, agent in study.pairs():
        cells = [fmt_spread(s) if (s := study.success(method, agent, b)) else "—" for b in names]
        mean, complete = study.mean_over(method, agent, names)
        partial |= not complete
        mean_cell = "—" if mean is None else f"{mean:.1f}" + ("" if complete else "*")
        table.rows.append([method, agent, *cells, mean_cell])
    table.intro = ("Share of held-out tasks each method solved; higher is better. "
                   f"`{BASELINE_METHOD}` is the agent without memory, so a method helps where its cell beats that row.")
    table.notes.append("Cells: mean ± sample std over seeds (n = seeds).")
    if partial:
        table.notes.append("* mean over the benchmarks this row has runs on only.")
    return table


def _domain_table(study: _Study) -> ReportTable:
    table = ReportTable("Success (0-100) by domain (mean over the domain's benchmarks)",
                   ["method", "agent", *study.domains])
    for method, agent in study.pairs():
        cells = []
        for domain in study.domains:
            names = [b for d, b in study.benchmarks if d == domain]
            mean, complete = study.mean_over(method, agent, names)
            cells.append("—" if mean is None else f"{mean:.1f}" + ("" if complete else "*"))
        table.rows.append([method, agent, *cells])
    table.intro = "The same success, averaged within each domain, to see where memory helps and where it does not."
    if any(cell.endswith("*") for row in table.rows for cell in row):
        table.notes.append("* over the domain's benchmarks this row has runs on only.")
    return table


def _tokens_table(study: _Study) -> ReportTable:
    table = ReportTable("Task-run tokens (mean over seeds)",
                   ["method", "agent", "benchmark", "reasoning", "retrieval", "augmentation", "total",
                    "per task", "per solved task", "seeds"])
    for method, agent in study.pairs():
        for _, benchmark in study.benchmarks:
            runs = study.runs(method, agent, benchmark)
            if not runs:
                continue
            splits = [r.metrics.task_run_tokens for r in runs]
            means = [sum(getattr(s, part) for s in splits) / len(splits)
                     for part in ("reasoning", "retrieval", "augmentation", "total")]
            per_task = sum(r.metrics.task_run_tokens_per_task for r in runs) / len(runs)
            per_solved = [r.metrics.task_run_tokens_per_solved for r in runs]
            table.rows.append([method, agent, benchmark, *(f"{m:.0f}" for m in means),
                               f"{per_task:.0f}", _mean_defined(per_solved, len(runs), digits=0), str(len(runs))])
    table.intro = ("What the task runs cost: the agent's own tokens (reasoning) plus the tokens spent finding "
                   "records (retrieval) and showing them in prompts (augmentation). Lower is cheaper.")
    table.notes.append("Selector-training and construction costs are not task-run tokens; see each stage.json.")
    return table


def _cost_table(study: _Study) -> ReportTable:
    table = ReportTable("World-model calls and failed attempts per solved task (mean over seeds)",
                   ["method", "agent", "benchmark", "evaluator calls per solved", "failed attempts per solved"])
    for method, agent in study.pairs():
        for _, benchmark in study.benchmarks:
            runs = study.runs(method, agent, benchmark)
            if runs:
                table.rows.append([
                    method, agent, benchmark,
                    _mean_defined([r.metrics.evaluator_calls_per_solved for r in runs], len(runs)),
                    _mean_defined([r.metrics.failed_attempts_per_solved for r in runs], len(runs)),
                ])
    table.intro = ("How much checking a solved task took: checker calls and failed attempts divided by the "
                   "number of solved tasks. Lower means the agent found its answers with less trial and error.")
    return table


def _read_build_cost(leaf: Path) -> BuildCost | None:
    path = leaf / "build_cost.json"
    if not path.is_file():
        return None
    try:
        return BuildCost.model_validate_json(path.read_text())
    except ValueError as error:
        raise ConfigError(f"{path} is not a valid build-cost file: {error}") from error


def _mean_cost(costs: Sequence[BuildCost], field: str) -> str:
    values = [getattr(c, field) for c in costs]
    if any(v is None for v in values):
        return "not recorded"
    return f"{sum(values) / len(values):.0f}"


def _build_cost_table(study: _Study) -> ReportTable | None:
    table = ReportTable(
        "Cost of building memory and training the selector (not in task-run tokens; mean over seeds)",
        ["method", "agent", "benchmark", "source tasks", "source tasks solved", "records admitted", "generator tokens",
         "verification checks", "source-task tokens", "training tasks", "selector updates", "training tokens"],
    )
    for method, agent in study.pairs():
        for _, benchmark in study.benchmarks:
            costs = [r.build_cost for r in study.runs(method, agent, benchmark) if r.build_cost is not None]
            if not costs:
                continue
            fields = ("construct_tasks", "construct_solved", "records_admitted", "generator_tokens", "verification_calls",
                      "construct_task_run_tokens", "train_tasks", "selector_updates", "train_task_run_tokens")
            table.rows.append([method, agent, benchmark, *(_mean_cost(costs, f) for f in fields)])
    if not table.rows:
        return None
    table.intro = ("What each method paid before the held-out tasks: running the agent on source tasks, the "
                   "generator (or distiller) and the checks that verified its edits, and training the selector. "
                   "Records come from failed actions, so source tasks solved at the first try give none. "
                   "These costs are paid once per store, so they are kept apart from the per-task tokens above.")
    return table


def _paired_rows(runs: Sequence[StudyRow]) -> list[PairedMeasures]:
    return [r.paired for r in runs if r.paired is not None]


def _paired_table(study: _Study) -> ReportTable:
    table = ReportTable("Paired with the no-memory run (same tasks, same seed)",
                   ["method", "agent", "benchmark", "paired tasks", "rescued", "broken", "success delta (pp)",
                    "McNemar p", "95% CI (pp)", "harmful use", "action change rate", "harmful change rate", "retrieval coverage",
                    "failures reached (solved)", "successes reached (kept)", "token delta per task"])
    for method, agent in study.pairs():
        for _, benchmark in study.benchmarks:
            runs = study.runs(method, agent, benchmark)
            paired = _paired_rows(runs)
            if not paired:
                continue
            comparable = sum(p.offers - p.uncomparable_offers for p in paired)
            coverage = [p.retrieval_coverage for p in paired if p.retrieval_coverage is not None]
            rescued, broken = sum(p.rescued for p in paired), sum(p.broken for p in paired)
            n_paired = sum(p.n_paired for p in paired)
            test_p, test_ci = format_test(paired_test(rescued, broken, n_paired))
            table.rows.append([
                method, agent, benchmark, str(n_paired), str(rescued), str(broken),
                fmt_spread(spread([p.success_delta for p in paired]), signed=True), test_p, test_ci,
                fmt_rate(sum(p.harmful_uses for p in paired), sum(p.selected_uses for p in paired)),
                fmt_rate(sum(p.changed_actions for p in paired), comparable),
                fmt_rate(sum(p.harmful_changes for p in paired), comparable),
                f"{sum(coverage) / len(coverage):.2f}" if coverage else "n/a (no stage.json)",
                *pooled_reach(paired).describe(),
                f"{sum(p.token_delta_per_task for p in paired) / len(paired):+.0f}",
            ])
    table.intro = ("Each memory run against the no-memory run on the same tasks and seed: rescued tasks were "
                   "solved only with memory, broken ones only without. Harmful use counts how often a record "
                   "the agent used went with a worse outcome than the no-memory twin; lower is better.")
    table.notes += [
        "rescued / broken: tasks solved only with / only without memory, summed over seeds.",
        "McNemar p: two-sided exact test that rescued and broken are an even split of the discordant tasks; "
        "95% CI: paired bootstrap (10,000 resamples of the tasks, seeded) of the success difference in "
        "percentage points; both on the counts pooled over seeds.",
        "harmful use: per selected record use, the with-memory task ended with lower final utility than "
        "its no-memory twin (ties are not harm); pooled over seeds.",
        "failures / successes reached: of the tasks the no-memory run failed / solved, those where a record was "
        "used, and in brackets how many of them the memory run solved; a rescue needs both reach and a turn.",
        "action change rates: per retrieval offer (advice event), next action differs from the twin's; "
        "harmful when its check utility is lower.",
    ]
    if not table.rows:
        table.notes.insert(0, f"No paired runs: a method needs a `{BASELINE_METHOD}` run of the same "
                              "agent, benchmark and seed.")
    return table


def _domain_paired(study: _Study) -> dict[tuple[str, str], tuple[int, int, int]]:
    """(method, domain) -> (rescued, broken, paired tasks), summed over agents, benchmarks, seeds."""
    out: dict[tuple[str, str], tuple[int, int, int]] = {}
    for row in study.rows:
        if row.paired is None:
            continue
        key = (group_name(row), row.domain)
        rescued, broken, n = out.get(key, (0, 0, 0))
        out[key] = (rescued + row.paired.rescued, broken + row.paired.broken,
                                         n + row.paired.n_paired)
    return out


def _domain_paired_table(study: _Study) -> ReportTable:
    counts = _domain_paired(study)
    table = ReportTable("Rescued / broken by domain (summed over agents, benchmarks and seeds)",
                   ["method", *study.domains])
    for method in study.methods:
        if not any(m == method for m, _ in counts):
            continue
        cells = []
        for domain in study.domains:
            value = counts.get((method, domain))
            cells.append("—" if value is None else f"+{value[0]} / -{value[1]} (of {value[2]})")
        table.rows.append([method, *cells])
    table.intro = ("Tasks memory rescued (+) and broke (-) in each domain, out of the paired tasks. "
                   "A method is only safe to use where it rescues more than it breaks.")
    return table


def _harm_by_method(study: _Study) -> dict[str, tuple[int, int]]:
    """method -> (harmful uses, selected uses), pooled over agents, benchmarks and seeds."""
    out: dict[str, tuple[int, int]] = {}
    for row in study.rows:
        if row.paired is not None:
            harmful, uses = out.get(group_name(row), (0, 0))
            out[group_name(row)] = (harmful + row.paired.harmful_uses, uses + row.paired.selected_uses)
    return out


def _harm_table(study: _Study) -> ReportTable:
    table = ReportTable("Harmful use by method (per selected record use)", ["method", "harmful use"])
    for method, (harmful, uses) in _harm_by_method(study).items():
        table.rows.append([method, fmt_rate(harmful, uses)])
    table.intro = ("Per record the agent actually used: the share whose task ended worse than without memory. "
                   "0 means no use was harmful; ties are not harm.")
    return table


def _selector_table(study: _Study) -> ReportTable | None:
    """Who the selector chose at each offer: without it, DQN against top-1, skip and random shows only
    as success, and a DQN that never skips looks like top-1 without anyone seeing why."""
    table = ReportTable(
        "Selector choices on held-out tasks (summed over seeds)",
        ["method", "agent", "benchmark", "selector", "offers", "used", "skipped", "skip share",
         "DQN updates in training", "success"],
    )
    for method, agent in study.pairs():
        for _, bench in study.benchmarks:
            stages = [r.stage for r in study.runs(method, agent, bench) if r.stage is not None]
            used = sum(s.records_selected for s in stages)
            skipped = sum(s.records_skipped for s in stages)
            if not used + skipped:
                continue
            kinds = sorted({s.selector for s in stages if s.selector})
            updates = [s.selector_checkpoint_updates for s in stages if s.selector_checkpoint_updates is not None]
            success = study.success(method, agent, bench)
            table.rows.append([
                method, agent, bench, ", ".join(kinds) or "—", str(used + skipped), str(used), str(skipped),
                f"{skipped / (used + skipped):.2f}", ", ".join(str(u) for u in updates) or "—",
                fmt_spread(success) if success else "—",
            ])
    if not table.rows:
        return None
    table.intro = ("At each decision with at least one eligible record the selector either used one or skipped "
                   "memory. A learned selector that never skips acts as always-top-1; compare its row with "
                   "the top1, skip and random rows of the same store.")
    return table


def _success_figure(study: _Study, plotter: Plotter) -> ReportFigure | None:
    names = [b for _, b in study.benchmarks]
    width = 0.8 / max(1, len(study.agents))

    def draw(ax: Axes) -> None:
        for i, agent in enumerate(study.agents):
            means = [study.mean_over(m, agent, names)[0] for m in study.methods]
            heights = [math.nan if v is None else v for v in means]  # no bar, not a zero, where no run
            ax.bar([x + i * width for x in range(len(study.methods))], heights, width, label=agent)
        ax.set_xticks([x + width * (len(study.agents) - 1) / 2 for x in range(len(study.methods))])
        ax.set_xticklabels(study.methods)
        ax.set_ylim(0, 100)
        ax.set_ylabel("success (0-100)")
        ax.set_title(f"success by method (mean over benchmarks){plotter.tag}")
        ax.legend(title="agent")

    return plotter.save("success_by_method.png", draw, width=max(6.0, 1.2 * len(study.methods)))


def _rescued_figure(study: _Study, plotter: Plotter) -> ReportFigure | None:
    counts = _domain_paired(study)
    if not counts:
        return None
    keys = sorted(counts, key=lambda k: (study.domains.index(k[1]), study.methods.index(k[0])))

    def draw(ax: Axes) -> None:
        xs = range(len(keys))
        ax.bar([x - 0.2 for x in xs], [counts[k][0] for k in keys], 0.4, color="tab:green", label="rescued")
        ax.bar([x + 0.2 for x in xs], [counts[k][1] for k in keys], 0.4, color="tab:red", label="broken")
        ax.set_xticks(list(xs))
        ax.set_xticklabels([f"{d}\n{m}" for m, d in keys])
        ax.set_ylabel("tasks (summed over seeds)")
        ax.set_title(f"rescued / broken per domain{plotter.tag}")
        ax.legend()

    return plotter.save("rescued_broken_by_domain.png", draw, width=max(6.0, 1.0 * len(keys)))


def _harm_figure(study: _Study, plotter: Plotter) -> ReportFigure | None:
    harm = {m: v for m, v in _harm_by_method(study).items() if v[1] > 0}
    if not harm:
        return None

    def draw(ax: Axes) -> None:
        methods = list(harm)
        ax.bar(range(len(methods)), [harm[m][0] / harm[m][1] for m in methods], color="tab:orange")
        ax.set_xticks(range(len(methods)))
        ax.set_xticklabels([f"{m}\n({harm[m][1]} uses)" for m in methods])
        ax.set_ylim(0, 1)
        ax.set_ylabel("share of selected uses")
        ax.set_title(f"harmful use by method{plotter.tag}")

    return plotter.save("harmful_use_by_method.png", draw, width=max(6.0, 1.2 * len(harm)))


def _retention_blocks(study: _Study, plotter: Plotter) -> list[Block]:
    """Mean success and records kept of the retention-* methods (same capacity, another eviction rule)."""
    methods = [m for m in study.methods if m.startswith(RETENTION_PREFIX)]
    if not methods:
        return []
    names = [b for _, b in study.benchmarks]
    table = ReportTable(
        "Retention rules (same store capacity, different eviction rule)",
        ["method", "agent", "success (mean over benchmarks)", "records kept (mean over runs)", "runs"],
        intro=("When the store is full, a retention rule decides which record to drop. Each row uses one rule "
               "at the same capacity; higher success means the rule kept more of the records that still help. "
               "Records kept is the number of records in the store the held-out tasks were run with."),
    )
    success: dict[str, float] = {}
    kept: dict[str, float] = {}
    for method in methods:
        for agent in study.agents:
            runs = study.runs(method, agent)
            if not runs:
                continue
            mean, complete = study.mean_over(method, agent, names)
            records = [r.stage.records_after for r in runs if r.stage is not None]
            table.rows.append([
                method, agent, "—" if mean is None else f"{mean:.1f}" + ("" if complete else "*"),
                f"{sum(records) / len(records):.1f}" if records else "n/a (no stage.json)", str(len(runs)),
            ])
        means = [v for a in study.agents if (v := study.mean_over(method, a, names)[0]) is not None]
        success[method] = sum(means) / len(means) if means else math.nan
        records = [r.stage.records_after for r in study.rows if group_name(r) == method and r.stage]
        kept[method] = sum(records) / len(records) if records else math.nan
    if any(cell.endswith("*") for row in table.rows for cell in row):
        table.notes.append("* mean over the benchmarks this row has runs on only.")

    def draw_success(ax: Axes) -> None:
        ax.bar(range(len(methods)), [success[m] for m in methods], color="tab:blue")
        ax.set_xticks(range(len(methods)))
        ax.set_xticklabels([m.removeprefix(RETENTION_PREFIX) for m in methods])
        ax.set_ylim(0, 100)
        ax.set_ylabel("success (0-100)")
        ax.set_title(f"success by retention rule{plotter.tag}")

    def draw_kept(ax: Axes) -> None:
        ax.bar(range(len(methods)), [kept[m] for m in methods], color="tab:gray")
        ax.set_xticks(range(len(methods)))
        ax.set_xticklabels([m.removeprefix(RETENTION_PREFIX) for m in methods])
        ax.set_ylabel("records kept")
        ax.set_title(f"records kept by retention rule{plotter.tag}")

    figure = plotter.save("retention.png", draw_success, draw_kept, width=max(8.0, 2.4 * len(methods)))
    return [table, *([figure] if figure else [])]


def _main_blocks(study: _Study, plotter: Plotter) -> list[Block]:
    summary = (f"{len(study.rows)} runs: methods {', '.join(study.methods)}; agents {', '.join(study.agents)}; "
               f"{len(study.benchmarks)} benchmarks in {len(study.domains)} domains.")
    ordered: list[Block | None] = [
        ReportText(summary),
        _main_table(study), _success_figure(study, plotter), _domain_table(study),
        _paired_table(study), _domain_paired_table(study), _rescued_figure(study, plotter),
        _harm_table(study), _harm_figure(study, plotter), _selector_table(study), _tokens_table(study),
        _cost_table(study),
        _build_cost_table(study),
        *_retention_blocks(study, plotter),
    ]
    return [b for b in ordered if b is not None]


def _title(simulated: bool, all_simulated: bool) -> str:
    if all_simulated:
        return f"Study report ({SIMULATED} backbone: a test bed, not a result about LLMs)"
    if simulated:
        return f"Study report (contains {SIMULATED} runs, kept apart and marked in every table)"
    return "Study report"


def _as_list(analyses: StudyAnalyses | Sequence[StudyAnalyses] | None) -> list[StudyAnalyses]:
    if analyses is None:
        return []
    if isinstance(analyses, Sequence):
        return list(analyses)
    return [analyses]


def run_warnings(rows: Sequence[StudyRow]) -> list[str]:
    """Each run's own warnings (an untrained selector, a cut budget), named by its cell: a reader of
    the study report must not need to open every run to learn that one of them is not what it seems."""
    lines: list[str] = []
    for row in rows:
        where = f"{row.method}, {row.agent}, {row.benchmark}, seed {row.seed}"
        if row.backbone:
            where = f"{row.backbone}: {where}"
        lines += [f"Warning ({where}): {warning}" for warning in row.metrics.warnings]
    return lines


def write_study_report(
    out_dir: Path,
    rows: Sequence[StudyRow],
    analyses: StudyAnalyses | Sequence[StudyAnalyses] | None = None,
    *,
    name: str = "study_report",
    preface: Sequence[str] = (),
) -> tuple[Path, Path]:
    """Write <name>.md and <name>.html (plus PNG plots) into out_dir; `preface` lines open the report.

    Rows and analyses are grouped by backbone (`StudyRow.backbone`, `StudyAnalyses.backbone`); with
    more than one backbone each gets its own section and its plots a file-name prefix. A single
    `StudyAnalyses` (not a list) given with rows of one backbone belongs to those rows, so a plain
    study folder's rows (backbone "") can be reported with the analyses read from elsewhere.
    """
    if not rows:
        raise ConfigError("a study report needs at least one run")
    extra = _as_list(analyses)
    backbones = sorted({r.backbone for r in rows})
    by_backbone: dict[str, StudyAnalyses] = {}
    if len(backbones) == 1 and analyses is not None and not isinstance(analyses, Sequence):
        by_backbone[backbones[0]] = analyses  # one backbone's rows and its analyses, whatever the names
    else:
        backbones += sorted({a.backbone for a in extra} - set(backbones))
        for item in extra:
            if item.backbone in by_backbone:
                raise ConfigError(f"two analyses for backbone {item.backbone!r}; pass one per backbone")
            by_backbone[item.backbone] = item
    out_dir.mkdir(parents=True, exist_ok=True)
    flags = [r.simulated for r in rows] + [a.simulated for a in extra if not a.empty]
    simulated, all_simulated = any(flags), all(flags)
    several = len(backbones) > 1
    blocks: list[Block] = []
    notes: set[str] = set()
    for backbone in backbones:
        own = [r for r in rows if r.backbone == backbone]
        plotter = Plotter(out_dir, prefix=f"{safe_name(backbone)}-" if several else "",
                          simulated=any(r.simulated for r in own) or (
                              backbone in by_backbone and by_backbone[backbone].simulated))
        if several:
            blocks.append(ReportHeading(f"Backbone {backbone}"))
        elif backbone:
            blocks.append(ReportText(f"Backbone: {backbone}."))
        if own:
            blocks += _main_blocks(_Study(own), plotter)
        else:
            blocks.append(ReportText("No main-comparison runs for this backbone (nothing under results/)."))
        if backbone in by_backbone:
            blocks += by_backbone[backbone].blocks(plotter)
        if plotter.note:
            notes.add(plotter.note)
    title = _title(simulated, all_simulated)
    blocks = [
        *(ReportText(p) for p in preface), *(ReportText(w) for w in run_warnings(rows)),
        *(ReportText(n) for n in sorted(notes)), *blocks,
    ]
    md_path = out_dir / f"{name}.md"
    md_path.write_text("\n".join(_markdown(title, blocks, several)))
    html_path = out_dir / f"{name}.html"
    html_path.write_text(_html(title, blocks, several))
    return md_path, html_path


def _markdown(title: str, blocks: Sequence[Block], several: bool) -> list[str]:
    lines = [f"# {title}", ""]
    for block in blocks:
        if isinstance(block, ReportTable):
            lines += block.markdown(level=3 if several else 2)
        elif isinstance(block, ReportFigure):
            lines += [f"![{block.path.stem}]({block.path.name})", ""]
        elif isinstance(block, ReportHeading):
            lines += [f"## {block.text}", ""]
        else:
            lines += [block.text, ""]
    return lines


def _html(title: str, blocks: Sequence[Block], several: bool) -> str:
    parts: list[str] = []
    for block in blocks:
        if isinstance(block, ReportTable):
            parts.append(block.html(level=3 if several else 2))
        elif isinstance(block, ReportFigure):
            data = base64.b64encode(block.path.read_bytes()).decode()
            parts.append(f"<figure><img alt='{html.escape(block.path.stem)}' src='data:image/png;base64,{data}'>"
                         "</figure>")
        elif isinstance(block, ReportHeading):
            parts.append(f"<h2>{html.escape(block.text)}</h2>")
        else:
            parts.append(f"<p>{html.escape(block.text)}</p>")
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>"
        "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:.5em}"
        "td,th{border:1px solid #999;padding:2px 8px;text-align:left}.note{color:#555;font-size:90%;margin:.2em 0}"
        "</style></head><body>"
        f"<h1>{html.escape(title)}</h1>" + "".join(parts) + "</body></html>\n"
    )
