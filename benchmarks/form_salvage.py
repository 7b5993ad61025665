"""What the malformed answers of recorded runs held: how many a form repair could salvage, and how many of those pass (issue 24).

Run: .venv/bin/python benchmarks/form_salvage.py RUN_OR_STUDY... --benchmark NAME [--show N]

Every transcript under the given folders (a run directory, a study folder, or any folder above
them) is read; each answer the agent could not parse (an `llm` event followed by a `parse_error`)
is given to the benchmark's `salvage` (`Benchmark.salvage`: a closed code block, and on math also a
final answer stated with no block), and each salvaged action is checked from a reset of its task,
as construction checks a form repair. Printed: malformed answers, how many hold a block, how many
only a stated answer, how many salvaged actions pass, and on how many tasks. No model runs; the
checker does. A transcript whose task is not in the benchmark stops the script with its name.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from countermem.core import Action, Task
from countermem.domains import check_action, load_benchmark
from countermem.experiment._rundir import read_transcript, safe_name
from countermem.memory._generator import is_own_block


def malformed_answers(path: Path) -> list[str]:
    """The text of each answer in this transcript that ended in a parse error."""
    answers: list[str] = []
    last_text: str | None = None
    for event in read_transcript(path):
        if event.kind == "llm":
            last_text = event.text
        elif event.kind == "parse_error" and last_text is not None:
            answers.append(last_text.strip())
            last_text = None
    return answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument("--benchmark", required=True)
    parser.add_argument("--show", type=int, default=3, help="print this many salvaged answers that pass")
    args = parser.parse_args()
    benchmark = load_benchmark(args.benchmark)
    tasks: dict[str, Task] = {safe_name(t.id): t for t in benchmark.tasks()}
    world = benchmark.world_model()
    counts: Counter[str] = Counter()
    solved_tasks: set[str] = set()
    shown = 0
    files = sorted(p for folder in args.folders for p in folder.rglob(f"transcripts/{args.benchmark}-*.jsonl"))
    if not files:
        sys.exit(f"no transcripts of {args.benchmark} under {', '.join(map(str, args.folders))}")
    for path in files:
        task = tasks.get(path.stem)
        if task is None:
            sys.exit(f"{path}: task {path.stem} is not in {args.benchmark}")
        for answer in malformed_answers(path):
            counts["malformed"] += 1
            salvaged = benchmark.salvage(answer)
            if salvaged is None:
                continue
            counts["block" if is_own_block(answer, salvaged) else "stated answer only"] += 1
            world.reset(task)
            result = check_action(world, Action(content=salvaged))
            if result.passed:
                counts["passed"] += 1
                solved_tasks.add(task.id)
                if shown < args.show:
                    shown += 1
                    print(f"--- {task.id}: ...{answer[-160:]!r}\n    salvaged: {salvaged!r} -> passed")
    print(f"transcripts: {len(files)}; malformed answers: {counts['malformed']}")
    print(f"  salvageable: {counts['block'] + counts['stated answer only']} "
          f"({counts['block']} with a closed code block, {counts['stated answer only']} with only a stated answer)")
    print(f"  salvaged actions that pass their check: {counts['passed']}, on {len(solved_tasks)} tasks")


if __name__ == "__main__":
    main()
