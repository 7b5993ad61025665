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
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from countermem.core import ConfigError
from countermem.domains import BENCHMARKS, DOMAINS
from countermem.experiment._metrics import RunMetrics
from countermem.experiment._paired import (
    PairedMeasures,
    Spread,
    paired_measures,
    read_metrics,
    read_stage,
    spread,
)
from countermem.experiment._stages import StageReport

if TYPE_CHECKING:
    from matplotlib.axes import Axes

BASELINE_METHOD = "none"
STUDY_LAYOUT = "<method>/<agent>/<benchmark>/seed-<n>/"
UNREGISTERED_DOMAIN = "other"
"""Domain of a benchmark that neither the registry nor the caller's mapping knows."""
SIMULATED = "SIMULATED"

_SEED_DIR = re.compile(r"seed-(\d+)")


class StudyRow(BaseModel):
    model_config = ConfigDict(frozen=True)

    method: str
    agent: str
    benchmark: str
    domain: str
    seed: int
    metrics: RunMetrics
    paired: PairedMeasures | None = None
    stage: StageReport | None = None

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


def collect_rows(root: Path, domains: Mapping[str, str] | None = None) -> list[StudyRow]:
    """Read every run of a study folder and pair each memory method's run with its `none` twin."""
    if not root.is_dir():
        raise ConfigError(f"{root} is not a folder")
    leaves = sorted(p for p in root.glob("*/*/*/*") if p.is_dir() and _SEED_DIR.fullmatch(p.name))
    if not leaves:
        raise ConfigError(
            f"{root} holds no run directories in the study layout {STUDY_LAYOUT} "
            "(a single run directory has a metrics.json at its top)"
        )
    found: dict[tuple[str, str, str, int], Path] = {}
    for leaf in leaves:
        method, agent, benchmark, seed_dir = leaf.relative_to(root).parts
        match = _SEED_DIR.fullmatch(seed_dir)
        assert match is not None
        found[(method, agent, benchmark, int(match.group(1)))] = leaf
    rows: list[StudyRow] = []
    for (method, agent, benchmark, seed), leaf in sorted(found.items()):
        metrics = read_metrics(leaf)
        _check_leaf(leaf, metrics, agent=agent, benchmark=benchmark, seed=seed)
        twin = found.get((BASELINE_METHOD, agent, benchmark, seed))
        paired = paired_measures(leaf, twin) if method != BASELINE_METHOD and twin is not None else None
        rows.append(StudyRow(
            method=method, agent=agent, benchmark=benchmark, domain=domain_of(benchmark, domains),
            seed=seed, metrics=metrics, paired=paired, stage=read_stage(leaf),
        ))
    return rows


def _check_leaf(leaf: Path, metrics: RunMetrics, *, agent: str, benchmark: str, seed: int) -> None:
    manifest = leaf / "manifest.json"
    if not manifest.is_file():
        raise ConfigError(f"{leaf} has no manifest.json; it is not a run directory")
    config = json.loads(manifest.read_text()).get("config", {})
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
class _Table:
    title: str
    headers: list[str]
    rows: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def markdown(self) -> list[str]:
        lines = [f"## {self.title}", "", "| " + " | ".join(self.headers) + " |",
                 "|" + "---|" * len(self.headers)]
        lines += ["| " + " | ".join(row) + " |" for row in self.rows]
        return [*lines, "", *(f"{note}  " for note in self.notes), ""]

    def html(self) -> str:
        head = "".join(f"<th>{html.escape(h)}</th>" for h in self.headers)
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>" for row in self.rows
        )
        notes = "".join(f"<p class='note'>{html.escape(n)}</p>" for n in self.notes)
        return f"<h2>{html.escape(self.title)}</h2><table><tr>{head}</tr>{body}</table>{notes}"


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
        self.simulated = any(r.simulated for r in rows)
        self.all_simulated = all(r.simulated for r in rows)

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


def _fmt_spread(value: Spread, digits: int = 1, signed: bool = False) -> str:
    std = f" ± {value.std:.{digits}f}" if value.std is not None else ""
    sign = "+" if signed else ""
    return f"{value.mean:{sign}.{digits}f}{std} (n={value.n})"


def _fmt_rate(numerator: int, denominator: int) -> str:
    return f"{numerator / denominator:.2f} ({numerator}/{denominator})" if denominator else "n/a (none)"


def _mean_defined(values: Sequence[float | None], total: int) -> str:
    defined = [v for v in values if v is not None]
    if not defined:
        return "n/a (none solved)"
    note = "" if len(defined) == total else f" ({len(defined)} of {total} seeds)"
    return f"{sum(defined) / len(defined):.2f}{note}"


def _main_table(study: _Study) -> _Table:
    names = [b for _, b in study.benchmarks]
    table = _Table("Success (0-100) by method, agent and benchmark",
                   ["method", "agent", *(f"{b} ({d})" for d, b in study.benchmarks), "mean over benchmarks"])
    partial = False
    for method, agent in study.pairs():
        cells = [_fmt_spread(s) if (s := study.success(method, agent, b)) else "—" for b in names]
        mean, complete = study.mean_over(method, agent, names)
        partial |= not complete
        mean_cell = "—" if mean is None else f"{mean:.1f}" + ("" if complete else "*")
        table.rows.append([method, agent, *cells, mean_cell])
    table.notes.append("Cells: mean ± sample std over seeds (n = seeds).")
    if partial:
        table.notes.append("* mean over the benchmarks this row has runs on only.")
    return table


def _domain_table(study: _Study) -> _Table:
    table = _Table("Success (0-100) by domain (mean over the domain's benchmarks)",
                   ["method", "agent", *study.domains])
    for method, agent in study.pairs():
        cells = []
        for domain in study.domains:
            names = [b for d, b in study.benchmarks if d == domain]
            mean, complete = study.mean_over(method, agent, names)
            cells.append("—" if mean is None else f"{mean:.1f}" + ("" if complete else "*"))
        table.rows.append([method, agent, *cells])
    if any(cell.endswith("*") for row in table.rows for cell in row):
        table.notes.append("* over the domain's benchmarks this row has runs on only.")
    return table


def _tokens_table(study: _Study) -> _Table:
    table = _Table("Task-run tokens (mean over seeds)",
                   ["method", "agent", "benchmark", "reasoning", "retrieval", "augmentation", "total",
                    "per task", "seeds"])
    for method, agent in study.pairs():
        for _, benchmark in study.benchmarks:
            runs = study.runs(method, agent, benchmark)
            if not runs:
                continue
            splits = [r.metrics.task_run_tokens for r in runs]
            means = [sum(getattr(s, part) for s in splits) / len(splits)
                     for part in ("reasoning", "retrieval", "augmentation", "total")]
            per_task = sum(r.metrics.task_run_tokens_per_task for r in runs) / len(runs)
            table.rows.append([method, agent, benchmark, *(f"{m:.0f}" for m in means),
                               f"{per_task:.0f}", str(len(runs))])
    table.notes.append("Selector-training and construction costs are not task-run tokens; see each stage.json.")
    return table


def _cost_table(study: _Study) -> _Table:
    table = _Table("World-model calls and failed attempts per solved task (mean over seeds)",
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
    return table


def _paired_rows(runs: Sequence[StudyRow]) -> list[PairedMeasures]:
    return [r.paired for r in runs if r.paired is not None]


def _paired_table(study: _Study) -> _Table:
    table = _Table("Paired with the no-memory run (same tasks, same seed)",
                   ["method", "agent", "benchmark", "paired tasks", "rescued", "broken", "success delta (pp)",
                    "harmful use", "action change rate", "harmful change rate", "retrieval coverage",
                    "token delta per task"])
    for method, agent in study.pairs():
        for _, benchmark in study.benchmarks:
            runs = study.runs(method, agent, benchmark)
            paired = _paired_rows(runs)
            if not paired:
                continue
            comparable = sum(p.offers - p.uncomparable_offers for p in paired)
            coverage = [p.retrieval_coverage for p in paired if p.retrieval_coverage is not None]
            table.rows.append([
                method, agent, benchmark, str(sum(p.n_paired for p in paired)),
                str(sum(p.rescued for p in paired)), str(sum(p.broken for p in paired)),
                _fmt_spread(spread([p.success_delta for p in paired]), signed=True),
                _fmt_rate(sum(p.harmful_uses for p in paired), sum(p.selected_uses for p in paired)),
                _fmt_rate(sum(p.changed_actions for p in paired), comparable),
                _fmt_rate(sum(p.harmful_changes for p in paired), comparable),
                f"{sum(coverage) / len(coverage):.2f}" if coverage else "n/a (no stage.json)",
                f"{sum(p.token_delta_per_task for p in paired) / len(paired):+.0f}",
            ])
    table.notes += [
        "rescued / broken: tasks solved only with / only without memory, summed over seeds.",
        "harmful use: per selected record use, the with-memory task ended with lower final utility than "
        "its no-memory twin (ties are not harm); pooled over seeds.",
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


def _domain_paired_table(study: _Study) -> _Table:
    counts = _domain_paired(study)
    table = _Table("Rescued / broken by domain (summed over agents, benchmarks and seeds)",
                   ["method", *study.domains])
    for method in study.methods:
        if not any(m == method for m, _ in counts):
            continue
        cells = []
        for domain in study.domains:
            value = counts.get((method, domain))
            cells.append("—" if value is None else f"+{value[0]} / -{value[1]} (of {value[2]})")
        table.rows.append([method, *cells])
    return table


def _harm_by_method(study: _Study) -> dict[str, tuple[int, int]]:
    """method -> (harmful uses, selected uses), pooled over agents, benchmarks and seeds."""
    out: dict[str, tuple[int, int]] = {}
    for row in study.rows:
        if row.paired is not None:
            harmful, uses = out.get(group_name(row), (0, 0))
            out[group_name(row)] = (harmful + row.paired.harmful_uses, uses + row.paired.selected_uses)
    return out


def _harm_table(study: _Study) -> _Table:
    table = _Table("Harmful use by method (per selected record use)", ["method", "harmful use"])
    for method, (harmful, uses) in _harm_by_method(study).items():
        table.rows.append([method,
                           _fmt_rate(harmful, uses)])
    return table


def _plots(out_dir: Path, study: _Study) -> tuple[list[Path], str | None]:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return [], "plots not drawn: matplotlib is not installed"
    tag = f" — {SIMULATED}" if study.simulated else ""
    out: list[Path] = []

    def save(name: str, draw: Callable[[Axes], None], width: float) -> None:
        fig, ax = plt.subplots(figsize=(width, 3.6))
        draw(ax)
        fig.tight_layout()
        target = out_dir / name
        fig.savefig(target, dpi=100)
        plt.close(fig)
        out.append(target)

    names = [b for _, b in study.benchmarks]
    width = 0.8 / max(1, len(study.agents))

    def success(ax: Axes) -> None:
        for i, agent in enumerate(study.agents):
            means = [study.mean_over(m, agent, names)[0] for m in study.methods]
            heights = [math.nan if v is None else v for v in means]  # no bar, not a zero, where no run
            ax.bar([x + i * width for x in range(len(study.methods))], heights, width, label=agent)
        ax.set_xticks([x + width * (len(study.agents) - 1) / 2 for x in range(len(study.methods))])
        ax.set_xticklabels(study.methods)
        ax.set_ylim(0, 100)
        ax.set_ylabel("success (0-100)")
        ax.set_title(f"success by method (mean over benchmarks){tag}")
        ax.legend(title="agent")

    save("success_by_method.png", success, max(6.0, 1.2 * len(study.methods)))
    counts = _domain_paired(study)
    if counts:
        keys = sorted(counts, key=lambda k: (study.domains.index(k[1]), study.methods.index(k[0])))

        def rescued(ax: Axes) -> None:
            xs = range(len(keys))
            ax.bar([x - 0.2 for x in xs], [counts[k][0] for k in keys], 0.4, color="tab:green", label="rescued")
            ax.bar([x + 0.2 for x in xs], [counts[k][1] for k in keys], 0.4, color="tab:red", label="broken")
            ax.set_xticks(list(xs))
            ax.set_xticklabels([f"{d}\n{m}" for m, d in keys])
            ax.set_ylabel("tasks (summed over seeds)")
            ax.set_title(f"rescued / broken per domain{tag}")
            ax.legend()

        save("rescued_broken_by_domain.png", rescued, max(6.0, 1.0 * len(keys)))
    harm = {m: v for m, v in _harm_by_method(study).items() if v[1] > 0}
    if harm:

        def harmful(ax: Axes) -> None:
            methods = list(harm)
            ax.bar(range(len(methods)), [harm[m][0] / harm[m][1] for m in methods], color="tab:orange")
            ax.set_xticks(range(len(methods)))
            ax.set_xticklabels([f"{m}\n({harm[m][1]} uses)" for m in methods])
            ax.set_ylim(0, 1)
            ax.set_ylabel("share of selected uses")
            ax.set_title(f"harmful use by method{tag}")

        save("harmful_use_by_method.png", harmful, max(6.0, 1.2 * len(harm)))
    return out, None


def _title(study: _Study) -> str:
    if study.all_simulated:
        return f"Study report ({SIMULATED} backbone: a test bed, not a result about LLMs)"
    if study.simulated:
        return f"Study report (contains {SIMULATED} runs, kept apart and marked in every table)"
    return "Study report"


def write_study_report(out_dir: Path, rows: Sequence[StudyRow]) -> tuple[Path, Path]:
    """Write study_report.md and study_report.html (plus PNG plots) into out_dir."""
    study = _Study(rows)
    out_dir.mkdir(parents=True, exist_ok=True)
    tables = [_main_table(study), _domain_table(study), _paired_table(study), _domain_paired_table(study),
              _harm_table(study), _tokens_table(study), _cost_table(study)]
    plots, plot_note = _plots(out_dir, study)
    title = _title(study)
    summary = (f"{len(study.rows)} runs: methods {', '.join(study.methods)}; agents {', '.join(study.agents)}; "
               f"{len(study.benchmarks)} benchmarks in {len(study.domains)} domains.")
    lines = [f"# {title}", "", summary, ""]
    for plot in plots:
        lines += [f"![{plot.stem}]({plot.name})", ""]
    if plot_note:
        lines += [plot_note, ""]
    for table in tables:
        lines += table.markdown()
    md_path = out_dir / "study_report.md"
    md_path.write_text("\n".join(lines))
    images = "".join(
        f"<figure><img alt='{html.escape(p.stem)}' src='data:image/png;base64,"
        f"{base64.b64encode(p.read_bytes()).decode()}'></figure>"
        for p in plots
    )
    page = (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>"
        "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:.5em}"
        "td,th{border:1px solid #999;padding:2px 8px;text-align:left}.note{color:#555;font-size:90%;margin:.2em 0}"
        "</style></head><body>"
        f"<h1>{html.escape(title)}</h1><p>{html.escape(summary)}</p>{images}"
        + (f"<p>{html.escape(plot_note)}</p>" if plot_note else "")
        + "".join(t.html() for t in tables)
        + "</body></html>\n"
    )
    html_path = out_dir / "study_report.html"
    html_path.write_text(page)
    return md_path, html_path
