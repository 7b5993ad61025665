"""A report a person can open: a Markdown summary, a per-task table and two PNG plots."""

from __future__ import annotations

from pathlib import Path

from countermem.experiment._metrics import RunMetrics, format_per_solved


def write_run_report(path: Path, metrics: RunMetrics) -> Path:
    plots = _plots(path, metrics)
    label = " (SIMULATED backbone: a test bed, not a result about LLMs)" if metrics.simulated else ""
    lines = [
        f"# Run report: {metrics.benchmark}{label}",
        "",
        f"Backbone `{metrics.backbone}`, model `{metrics.model}`, {metrics.n_tasks} tasks.",
        "",
        "| measure | value |",
        "|---|---|",
        f"| success (0-100) | {metrics.success:.1f} ({metrics.n_solved}/{metrics.n_tasks}) |",
        f"| task-run tokens | {metrics.task_run_tokens.total} "
        f"(reasoning {metrics.task_run_tokens.reasoning}, retrieval {metrics.task_run_tokens.retrieval}, "
        f"augmentation {metrics.task_run_tokens.augmentation}) |",
        f"| task-run tokens per task | {metrics.task_run_tokens_per_task:.0f} |",
        f"| task-run tokens per solved task | {format_per_solved(metrics.task_run_tokens_per_solved, 0)} |",
        f"| model-reported usage | prompt {metrics.usage.prompt_tokens}, completion "
        f"{metrics.usage.completion_tokens}, reasoning {metrics.usage.reasoning_tokens} |",
        f"| evaluator calls per solved task | {format_per_solved(metrics.evaluator_calls_per_solved)} "
        f"({metrics.evaluator_calls} in all) |",
        f"| failed attempts per solved task | {format_per_solved(metrics.failed_attempts_per_solved)} "
        f"({metrics.failed_attempts} in all) |",
        f"| malformed answers | {metrics.parse_errors} |",
        f"| forced submissions (limit reached) | {metrics.forced_submits} |",
        f"| wall time of task runs | {metrics.seconds:.1f} s |",
        "",
    ]
    if metrics.warnings:
        lines += ["## Warnings", "", *(f"- {warning}" for warning in metrics.warnings), ""]
    for plot in plots:
        lines += [f"![{plot.stem}]({plot.name})", ""]
    lines += [
        "## Tasks",
        "",
        "| task | solved | utility | status | evaluator calls | failed attempts | tokens | stop |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for task in metrics.per_task:
        lines.append(
            f"| {task.task_id} | {'yes' if task.solved else 'no'} | {task.utility:.2f} | {task.status} | "
            f"{task.evaluator_calls} | {task.failed_attempts} | {task.tokens} | {task.stop_reason} |"
        )
    report = path / "report.md"
    report.write_text("\n".join(lines) + "\n")
    return report


def _plots(path: Path, metrics: RunMetrics) -> list[Path]:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    if not metrics.per_task:
        return []
    out: list[Path] = []
    utilities = [t.utility for t in metrics.per_task]
    colours = ["tab:green" if t.solved else "tab:red" for t in metrics.per_task]
    fig, ax = plt.subplots(figsize=(max(6.0, 0.25 * len(utilities)), 3.2))
    ax.bar(range(len(utilities)), utilities, color=colours)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("task (run order)")
    ax.set_ylabel("final utility")
    ax.set_title(f"{metrics.benchmark}: final utility per task (green = solved)")
    fig.tight_layout()
    target = path / "utility_per_task.png"
    fig.savefig(target, dpi=100)
    plt.close(fig)
    out.append(target)
    fig, ax = plt.subplots(figsize=(6.0, 3.2))
    ax.hist([t.tokens for t in metrics.per_task], bins=min(20, len(metrics.per_task)), color="tab:blue")
    ax.set_xlabel("task-run tokens")
    ax.set_ylabel("tasks")
    ax.set_title("task-run tokens per task")
    fig.tight_layout()
    target = path / "tokens_per_task.png"
    fig.savefig(target, dpi=100)
    plt.close(fig)
    out.append(target)
    return out
