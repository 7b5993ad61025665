"""Why offered records did or did not help, per run of a study (issue 24, item 1).

Run: .venv/bin/python benchmarks/offer_causes.py STUDY_FOLDER [--json OUT]

For every run folder of the study whose method reads a store (countermem, countermem-lesson, ...),
each offer in its transcripts is classified (`countermem.experiment._offer_causes`: copied the
source task's correction or mistake, used names of the source task, left the action unchanged,
wrote an own edit, no action) and one row per run is printed: offers, content offers, changed
actions, next action passed, re-offers, and the causes of changed actions in tasks that stayed
unsolved. On look-alike runs it also counts the offers of the record built on the look-alike's own
source task (the best fit the store holds) and what the agent did with them. No model and no
checker runs.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from countermem.core import Task
from countermem.domains import Benchmark, load_benchmark
from countermem.experiment._methods import method_spec
from countermem.experiment._offer_causes import CAUSES, cause_table, run_offers
from countermem.experiment._study_config import StudyConfig
from countermem.experiment._study_plan import CellTasks, cell_tasks
from countermem.memory import SQLiteStore


def _cell(root: Path, seed: int, loaded: Benchmark) -> CellTasks | None:
    """The cell's task lists rebuilt from the study's manifest (None when it has none)."""
    manifest = root / "manifest.json"
    if not manifest.is_file():
        return None
    config = StudyConfig.model_validate(json.loads(manifest.read_text())["config"])
    return cell_tasks(loaded, config, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("study", type=Path)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    root: Path = args.study
    rows = []
    benchmarks: dict[str, tuple[Benchmark, dict[str, Task]]] = {}
    cells: dict[tuple[str, int], CellTasks | None] = {}
    for results in sorted(root.rglob("results.jsonl")):
        run = results.parent
        parts = run.relative_to(root).parts
        if len(parts) < 4 or not parts[-1].startswith("seed-") or parts[0] == "work":
            continue
        method, agent, benchmark = parts[-4], parts[-3], parts[-2]
        try:
            spec = method_spec(method)
        except Exception:
            continue
        if spec.family is None:
            continue
        stores = sorted(root.glob(f"work/*/{agent}/{benchmark}/{parts[-1]}/{spec.family}/store.sqlite"))
        if len(stores) != 1:
            print(f"{run}: {len(stores)} stores match, skipped")
            continue
        with SQLiteStore(stores[0], read_only=True) as store:
            records = {r.id: r for r in store.all()}
        if benchmark not in benchmarks:
            loaded = load_benchmark(benchmark)
            benchmarks[benchmark] = (loaded, {t.id: t for t in loaded.tasks()})
        loaded, known = benchmarks[benchmark]
        seed = int(parts[-1].removeprefix("seed-"))
        if (benchmark, seed) not in cells:
            cells[(benchmark, seed)] = _cell(root, seed, loaded)
        cell = cells[(benchmark, seed)]
        tasks = known if cell is None else {**known, **{t.id: t for t in cell.all()}}
        lookalike_of = cell.lookalike_of if cell is not None and "look-alike" in parts else None

        def task_text(task_id: str, b: Benchmark = loaded, t: dict[str, Task] = tasks) -> str:
            return b.render_task(t[task_id]) if task_id in t else ""

        offers = run_offers(run, records, task_text, loaded.action_language, lookalike_of)
        table = cause_table(offers)
        rows.append({"run": str(run.relative_to(root)), **table.model_dump()})
    changed_causes = [c for c in CAUSES if c not in ("unchanged", "no_action")]
    print("run | offers | content | changed | passed next | re-offered | failed+changed | "
          + " | ".join(changed_causes) + " || all content offers: " + " | ".join(CAUSES)
          + " || own source's record (look-alikes): offers | passed next | " + " | ".join(CAUSES))
    for row in rows:
        failed, every = row["failed_changed_causes"], row["causes"]
        print(" | ".join(str(v) for v in [
            row["run"], row["offers"], row["content_offers"], row["changed"], row["passed_next"], row["reoffered"],
            row["failed_changed"], *[failed[c] for c in changed_causes],
        ]) + " || " + " | ".join(str(every[c]) for c in CAUSES)
            + " || " + " | ".join(str(v) for v in [row["own_source_offers"], row["own_source_passed"],
                                                   *[row["own_source_causes"].get(c, 0) for c in CAUSES]]))
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
