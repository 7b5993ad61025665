"""How many of a store's content records get a verified lesson, per way of writing it (issue 24).

Run: .venv/bin/python benchmarks/lesson_yield.py STORE [--variants fixed varied none]
         [--candidates N] [--writer qwen2.5-coder-1.5b] [--agent qwen2.5-coder-0.5b] [--cache DIR]
         [--out DIR] [--limit N] [--source-phrases]

For every content record of STORE (form repairs teach their form already and have no lesson), and
for every examples variant of the writing prompt (`[memory.lesson] examples`), the lesson is
written again by the writer model and checked from the record's source task's reset state as at
construction, and then checked against the control: the agent given no lesson, only its failed
action and the check result, with as many draws. A lesson counts as teaching only where it passed
and the control did not. The store is only read. Replies are cached in `--cache` (give it copies
of a study's `cache/` files to reuse its replies), so a stopped run resumes where it was.

Prints one row per variant: records, lessons written, copies of a prompt example, names leaked
(after scrubbing), passed the check, the control passed too, verified (passed, control did not),
writer tokens, seconds. `--out` also gets one JSON line per record and variant.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from countermem.domains import load_benchmark
from countermem.llm import make_llm
from countermem.memory import LessonSettings, LessonWriter, SQLiteStore, is_form_repair
from countermem.memory._lesson import LessonExamples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store", type=Path)
    parser.add_argument("--variants", nargs="+", default=["fixed", "varied", "none"], choices=["fixed", "varied", "none"])
    parser.add_argument("--writer", default="qwen2.5-coder-1.5b")
    parser.add_argument("--agent", default="qwen2.5-coder-0.5b")
    parser.add_argument("--cache", type=Path, default=Path("runs/lesson-yield-cache"))
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--candidates", type=int, default=1, help="lessons written per record until one is verified (1-4)")
    parser.add_argument("--source-phrases", action="store_true", help="[memory.lesson] source_phrases: refuse lessons repeating the source task's words")
    args = parser.parse_args()
    if not args.store.is_file():
        sys.exit(f"no store at {args.store}: give the store file a study's construction wrote")
    with SQLiteStore(args.store, read_only=True) as store:
        records = [r for r in store.all() if not is_form_repair(r)]
    records.sort(key=lambda r: (r.source.task_id, r.id))
    if args.limit is not None:
        records = records[: args.limit]
    if not records:
        sys.exit(f"{args.store} holds no content records")
    args.cache.mkdir(parents=True, exist_ok=True)
    writer = make_llm("local", model=args.writer, cache_path=args.cache / "writer.sqlite")
    agent = make_llm("local", model=args.agent, cache_path=args.cache / "agent.sqlite")
    benchmarks = {name: load_benchmark(name) for name in {r.source.benchmark for r in records}}
    tasks = {(b.name, t.id): t for b in benchmarks.values() for t in b.tasks()}
    worlds = {name: b.world_model() for name, b in benchmarks.items()}
    out = None
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        out = (args.out / "lessons.jsonl").open("w", encoding="utf-8")
    print("variant | candidates | records | written | copied example | leaked | passed | control passed too | verified | writer tokens | seconds")
    try:
        for variant in args.variants:
            row = _variant(variant, args.candidates, args.source_phrases, records, benchmarks, worlds, tasks, writer, agent, out)
            print(" | ".join(str(v) for v in row), flush=True)
    finally:
        if out is not None:
            out.close()


def _variant(variant: LessonExamples, candidates: int, source_phrases: bool, records, benchmarks, worlds, tasks, writer, agent, out) -> list[object]:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    counts = {"written": 0, "copied": 0, "leaked": 0, "passed": 0, "control": 0, "verified": 0, "tokens": 0}
    settings = LessonSettings(
        enabled=True, examples=variant, control="required", candidates=candidates, source_phrases=source_phrases
    )
    for index, record in enumerate(records, 1):
        benchmark = benchmarks[record.source.benchmark]
        task = tasks.get((benchmark.name, record.source.task_id))
        if task is None:
            print(f"  skip {record.id}: task {record.source.task_id} is not in {benchmark.name}", file=sys.stderr)
            continue
        lessons = LessonWriter(
            writer, agent, settings, action_language=benchmark.action_language,
            instructions=benchmark.instructions(), mode=benchmark.repair_mode,
        )
        world = worlds[benchmark.name]
        state = world.reset(task)
        lesson = lessons.lesson_for(record, world, state)
        counts["written"] += int(bool(lesson.text))
        counts["copied"] += int(lesson.copied_example)
        counts["leaked"] += int(bool(lesson.leaked))
        passed = lesson.check is not None and lesson.check.utility - record.original_check.utility > 0.05
        counts["passed"] += int(passed)
        counts["control"] += int(passed and not lesson.verified)
        counts["verified"] += int(lesson.verified)
        counts["tokens"] += lessons.usage_total.total
        print(
            f"  {variant} {index}/{len(records)} {record.id} verified={lesson.verified} {lesson.reason[:80]}",
            file=sys.stderr, flush=True,
        )
        if out is not None:
            out.write(json.dumps({"variant": variant, "candidates": candidates, "record": record.id, "task": task.id, **lesson.model_dump(mode="json")}) + "\n")
            out.flush()
    return [
        variant, candidates, len(records), counts["written"], counts["copied"], counts["leaked"], counts["passed"],
        counts["control"], counts["verified"], counts["tokens"], round(time.perf_counter() - started),
    ]


if __name__ == "__main__":
    main()
