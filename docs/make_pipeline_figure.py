"""Draw docs/pipeline.png, the README's picture of the pipeline.

Run: python docs/make_pipeline_figure.py   (needs matplotlib, in the `report` extra)
The picture is committed; rerun this after changing what it shows.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

OUT = Path(__file__).resolve().parent / "pipeline.png"
W, H = 2.35, 0.95
AGENT, CHECK, BUILD, USE = "#dbe9f6", "#e3f1df", "#fbe5c8", "#eadcf2"


def box(ax, x: float, y: float, title: str, body: str, color: str) -> None:  # type: ignore[no-untyped-def]
    ax.add_patch(FancyBboxPatch((x - W / 2, y - H / 2), W, H, boxstyle="round,pad=0.04,rounding_size=0.12",
                                facecolor=color, edgecolor="#444444", linewidth=1.2))
    ax.text(x, y + 0.2, title, ha="center", va="center", fontsize=10.5, fontweight="bold")
    ax.text(x, y - 0.15, body, ha="center", va="center", fontsize=8, linespacing=1.25)


def arrow(ax, start: tuple[float, float], end: tuple[float, float], label: str = "",  # type: ignore[no-untyped-def]
          rad: float = 0.0, where: tuple[float, float] = (0.0, 0.0)) -> None:
    ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=14, linewidth=1.3,
                                 color="#333333", connectionstyle=f"arc3,rad={rad}"))
    if label:
        ax.text(*where, label, ha="center", va="center", fontsize=8.5, style="italic", color="#333333")


def main() -> None:
    fig, ax = plt.subplots(figsize=(12, 4.6), dpi=110)
    ax.set_xlim(0, 12.6)
    ax.set_ylim(0, 4.6)
    ax.axis("off")
    top, bottom = 3.5, 1.3
    xs = [1.4, 4.6, 7.8, 11.0]
    box(ax, xs[0], top, "agent acts", "ReAct or Reflexion;\nthe base LLM never changes", AGENT)
    box(ax, xs[1], top, "world model checks", "tests, a proof checker, a SQL\nresult check, an SMT/SAT solver", CHECK)
    box(ax, xs[2], top, "generator", "failed action: at most 4\nlocal edits, from an LLM", BUILD)
    box(ax, xs[3], top, "verify", "each edit checked from a\ncopy of the state it failed in", CHECK)
    box(ax, xs[3], bottom, "admit + store", "gain > 0.05 and a checkable\ncondition; <= 200 records", BUILD)
    box(ax, xs[2], bottom, "retrieve", "drop records whose condition\nis false; rank; offer <= 3", USE)
    box(ax, xs[1], bottom, "selector", "a learned DQN uses one\nrecord or skips memory", USE)
    box(ax, xs[0], bottom, "advice", "the record shown in the\nprompt: mistake, correction", USE)
    half = W / 2 + 0.05
    arrow(ax, (xs[0] + half, top), (xs[1] - half, top), "action", where=((xs[0] + xs[1]) / 2, top + 0.22))
    arrow(ax, (xs[1] + half, top), (xs[2] - half, top), "failed", where=((xs[1] + xs[2]) / 2, top + 0.22))
    arrow(ax, (xs[2] + half, top), (xs[3] - half, top), "edits", where=((xs[2] + xs[3]) / 2, top + 0.22))
    arrow(ax, (xs[3], top - H / 2 - 0.05), (xs[3], bottom + H / 2 + 0.05), "passed and\nbetter",
          where=(xs[3] + 0.62, (top + bottom) / 2))
    arrow(ax, (xs[3] - half, bottom), (xs[2] + half, bottom), "later", where=((xs[2] + xs[3]) / 2, bottom + 0.22))
    arrow(ax, (xs[2] - half, bottom), (xs[1] + half, bottom))
    arrow(ax, (xs[1] - half, bottom), (xs[0] + half, bottom))
    arrow(ax, (xs[0], bottom + H / 2 + 0.05), (xs[0], top - H / 2 - 0.05), "next\ndecision",
          where=(xs[0] + 0.5, (top + bottom) / 2))
    ax.text(6.2, 0.35, "construct: source tasks build records   ->   train: training tasks teach only the selector"
            "   ->   evaluate: held-out tasks, store and selector frozen",
            ha="center", va="center", fontsize=8.8, color="#333333")
    fig.savefig(OUT, bbox_inches="tight", facecolor="white")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
