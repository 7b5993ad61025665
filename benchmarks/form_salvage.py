"""What the malformed answers of recorded runs held: how many a form repair could salvage, and how many of those pass (issue 24).

Run: .venv/bin/python benchmarks/form_salvage.py RUN_OR_STUDY... --benchmark NAME [--show N] [--after check]

Every transcript under the given folders (a run directory, a study folder, or any folder above
them) is read; each answer the agent could not parse (an `llm` event followed by a `parse_error`)
is given to the benchmark's `salvage` (`Benchmark.salvage`: a closed code block, and on math also a
final answer stated with no block), and each salvaged action is checked from a reset of its task,
as construction checks a form repair. Printed: malformed answers, how many hold a block, how many
only a stated answer, how many salvaged actions pass, and on how many tasks. No model runs; the
checker does. A transcript whose task is not in the benchmark stops the script with its name.
With `--after check`, the failed checks are read instead: each one the domain can repair on form
(`Benchmark.form_fix`: math working refused for want of a final answer line) is repaired and the
repaired action checked, as construction checks a final-line form repair.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from countermem.core import Action, CheckResult, Task
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


def refused_checks(path: Path) -> list[tuple[str, CheckResult]]:
    """Each failed check of this transcript: (its action, its result)."""
    return [(e.action.content, e.result) for e in read_transcript(path)
            if e.kind == "check" and e.action is not None and e.result is not None and not e.result.passed]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument("--benchmark", required=True)
    parser.add_argument("--show", type=int, default=3, help="print this many salvaged answers that pass")
    parser.add_argument("--after", choices=("malformed", "check"), default="malformed",
                        help="read malformed answers, or failed checks the domain can repair on form")
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
        if args.after == "check":
            for action, failed in refused_checks(path):
                fixed = benchmark.form_fix(action, failed)
                counts["failed checks"] += 1
                if fixed is None:
                    continue
                counts["repairable"] += 1
                world.reset(task)
                if check_action(world, Action(content=fixed)).passed:
                    counts["passed"] += 1
                    solved_tasks.add(task.id)
            continue
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
    if args.after == "check":
        print(f"transcripts: {len(files)}; failed checks: {counts['failed checks']}; repairable on form: "
              f"{counts['repairable']}; repaired actions that pass: {counts['passed']}, on {len(solved_tasks)} tasks")
        return
    print(f"transcripts: {len(files)}; malformed answers: {counts['malformed']}")
    print(f"  salvageable: {counts['block'] + counts['stated answer only']} "
          f"({counts['block']} with a closed code block, {counts['stated answer only']} with only a stated answer)")
    print(f"  salvaged actions that pass their check: {counts['passed']}, on {len(solved_tasks)} tasks")


if __name__ == "__main__":
    main()
