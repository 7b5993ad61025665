"""Seconds the math answer extractor takes on degenerate replies (long runs of blanks, open braces).

Run: .venv/bin/python benchmarks/answer_extraction_speed.py [--size N]
A small model sometimes emits hundreds of thousands of blanks or unclosed `\\boxed{`; a regex that
backtracks on them would stall an agent run for hours. This prints the time per input so a
regression shows as a figure; the tests only check the answers (with a hang guard).
"""

from __future__ import annotations

import argparse
import time

from countermem.domains.math import extract_final_answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=200_000, help="characters of filler per input")
    args = parser.parse_args()
    inputs = {
        "answer then blanks": "Answer: 5" + " " * args.size + "\t",
        "marker then blanks": "####" + " " * args.size,
        "unclosed boxed": "\\boxed{" * (args.size // 10),
    }
    print(f"{'input':22} {'chars':>9} {'seconds':>9}")
    for name, text in inputs.items():
        started = time.perf_counter()
        extract_final_answer(text)
        print(f"{name:22} {len(text):9d} {time.perf_counter() - started:9.4f}")


if __name__ == "__main__":
    main()
