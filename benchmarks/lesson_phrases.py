"""Which stored lessons repeat their source task's words (issue 24): the `source_phrases` check, offline.

Run: .venv/bin/python benchmarks/lesson_phrases.py STORE [STORE ...] [--verified-only]

For every content record with a lesson in each STORE (a study's construction store), prints the
lesson, whether construction verified it, and the content words of the three-word phrases it
repeats from the record's situation (its question, schema or prompt): the words that
`[memory.lesson] source_phrases = true` would have sent back to the writer and then scrubbed. No
model runs; the stores are only read. The last line counts lessons, verified lessons, and the
verified lessons the check would have refused as first written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from countermem.domains import load_benchmark
from countermem.memory import SQLiteStore, has_verified_lesson, is_form_repair, repeated_phrases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stores", type=Path, nargs="+")
    parser.add_argument("--verified-only", action="store_true", help="list verified lessons only")
    args = parser.parse_args()
    missing = [str(p) for p in args.stores if not p.is_file()]
    if missing:
        sys.exit(f"no store at {', '.join(missing)}: give the store files a study's construction wrote")
    languages: dict[str, str] = {}
    lessons = verified = refused = 0
    print("store | record | source task | verified | repeated words | lesson")
    for path in args.stores:
        with SQLiteStore(path, read_only=True) as store:
            records = sorted((r for r in store.all() if r.lesson is not None and not is_form_repair(r)),
                             key=lambda r: (r.source.task_id, r.id))
        for record in records:
            assert record.lesson is not None
            if record.benchmark not in languages:
                languages[record.benchmark] = load_benchmark(record.benchmark).action_language
            words = repeated_phrases(record.lesson.text, record.situation, languages[record.benchmark])
            ok = has_verified_lesson(record)
            lessons += 1
            verified += int(ok)
            refused += int(ok and bool(words))
            if ok or not args.verified_only:
                print(f"{path.parent.name}/{path.name} | {record.id[:12]} | {record.source.task_id} | {ok} | "
                      f"{', '.join(words) or '-'} | {record.lesson.text}")
    print(f"lessons {lessons}; verified {verified}; verified but repeating source words {refused}")


if __name__ == "__main__":
    main()
