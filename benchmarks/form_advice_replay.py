"""Replay the reply after each salvageable malformed answer with a form repair shown: does the agent then check its own answer (issue 24)?

Run: .venv/bin/python benchmarks/form_advice_replay.py RUN_OR_STUDY... --benchmark NAME
     [--after malformed|check] [--model qwen2.5-coder-1.5b] [--max-new-tokens 384] [--limit N] [--cache PATH]

Every recorded reply that followed a malformed answer holding an action (`Benchmark.salvage`) is
asked again of the model (greedy, the same prompt) with one form-repair record's advice put above
the re-prompt, as the agent puts it: the record is built from the first such answer whose salvaged
action passes, and it is never shown on its own source task. Printed: decisions replayed; of the
recorded replies and of the replies with advice, how many follow the output contract and how many
check or submit an action that passes (checked from a reset of the task). One decision per reply;
the rest of each trajectory is not replayed, so this measures the advice's first effect only.
With `--after check`, the replies replayed are those that followed a check failed on form alone
(`Benchmark.form_fix`: math working with no final answer line), the advice is a final-line form
repair put after the observation, as the agent puts it, and the record's condition is the slip's.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from countermem.agents import parse_step
from countermem.agents._prompts import ADVICE_HEADER
from countermem.agents._trajectory import prompt_of
from countermem.core import Action, CheckResult, ParseError, Task, malformed_result
from countermem.domains import Benchmark, check_action, load_benchmark
from countermem.experiment._rundir import read_transcript, safe_name
from countermem.llm import GenerationParams, Message, make_llm
from countermem.memory import (
    ANSWER_FORM_REPAIR_RATIONALE,
    FINAL_LINE_REPAIR_RATIONALE,
    FORM_REPAIR_RATIONALE,
    Record,
    RecordSource,
)
from countermem.memory._advisor import render_record
from countermem.memory._generator import is_own_block


@dataclass(frozen=True)
class Point:
    task: Task
    answer: str
    salvaged: str
    messages: list[Message]
    recorded: str
    result: CheckResult | None = None
    """The failed check of `answer` (`--after check`); None after a malformed answer."""


def points_of(path: Path, task: Task, benchmark: Benchmark) -> list[Point]:
    """Each recorded reply that followed a parse error of a salvageable answer."""
    events = list(read_transcript(path))
    out: list[Point] = []
    answer: str | None = None
    pending: str | None = None
    for index, event in enumerate(events):
        if event.kind == "llm":
            prompt = prompt_of(events, index) if pending is not None else None
            salvaged = benchmark.salvage(pending) if pending is not None else None
            if prompt is not None and pending is not None and salvaged is not None:
                out.append(Point(task, pending, salvaged, prompt, event.text))
            pending = None
            answer = event.text.strip()
        elif event.kind == "parse_error":
            pending, answer = answer, None
    return out


def points_after_checks(path: Path, task: Task, benchmark: Benchmark) -> list[Point]:
    """Each recorded reply that followed a check failed on form alone (`Benchmark.form_fix`)."""
    events = list(read_transcript(path))
    out: list[Point] = []
    pending: tuple[str, CheckResult, str] | None = None
    for index, event in enumerate(events):
        if event.kind == "check" and event.action is not None and event.result is not None:
            fixed = None if event.result.passed else benchmark.form_fix(event.action.content, event.result)
            pending = (event.action.content, event.result, fixed) if fixed is not None else None
        elif event.kind == "llm":
            prompt = prompt_of(events, index) if pending is not None else None
            if prompt is not None and pending is not None:
                out.append(Point(task, pending[0], pending[2], prompt, event.text, pending[1]))
            pending = None
    return out


def outcome(text: str, benchmark: Benchmark, task: Task) -> tuple[bool, bool]:
    """(follows the contract, its action passes)."""
    try:
        step = parse_step(text)
    except ParseError:
        return False, False
    if step.action is None:
        return True, False
    world = benchmark.world_model()
    world.reset(task)
    return True, check_action(world, step.action).passed


def _said(text: str, benchmark: Benchmark, task: Task) -> str:
    formed, passed = outcome(text, benchmark, task)
    return "passes" if passed else "well-formed, fails" if formed else "malformed"


def source_record(points: list[Point], benchmark: Benchmark) -> Record:
    for point in points:
        world = benchmark.world_model()
        world.reset(point.task)
        result: CheckResult = check_action(world, Action(content=point.salvaged))
        if result.passed and point.result is not None:
            return Record(
                domain=point.task.domain, benchmark=point.task.benchmark, situation=point.task.prompt,
                original_action=Action(content=point.answer), improved_action=Action(content=point.salvaged),
                original_check=point.result, improved_check=result, utility_gain=result.utility,
                condition='not has_final_answer and answer_marker == "none"',
                rationale=FINAL_LINE_REPAIR_RATIONALE,
                source=RecordSource(task_id=point.task.id, benchmark=point.task.benchmark),
            )
        if result.passed:
            return Record(
                domain=point.task.domain, benchmark=point.task.benchmark, situation=point.task.prompt,
                original_action=Action(content=point.answer), improved_action=Action(content=point.salvaged),
                original_check=malformed_result("no Action line"), improved_check=result,
                utility_gain=result.utility,
                condition="malformed_answer and malformed_has_block",
                rationale=FORM_REPAIR_RATIONALE if is_own_block(point.answer, point.salvaged)
                else ANSWER_FORM_REPAIR_RATIONALE,
                source=RecordSource(task_id=point.task.id, benchmark=point.task.benchmark),
            )
    sys.exit("no salvaged action passes its check: there is no form repair to show")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument("--benchmark", required=True)
    parser.add_argument("--after", choices=("malformed", "check"), default="malformed",
                        help="replay the replies after salvageable malformed answers, or after checks failed on form")
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--max-new-tokens", type=int, default=384)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--cache", type=Path, default=None, help="reply cache (a copy: new replies are added)")
    args = parser.parse_args()
    benchmark = load_benchmark(args.benchmark)
    tasks = {safe_name(t.id): t for t in benchmark.tasks()}
    files = sorted(p for folder in args.folders for p in folder.rglob(f"transcripts/{args.benchmark}-*.jsonl"))
    points: list[Point] = []
    for path in files:
        if path.stem not in tasks:
            sys.exit(f"{path}: task {path.stem} is not in {args.benchmark}")
        points += (points_of if args.after == "malformed" else points_after_checks)(path, tasks[path.stem], benchmark)
    if not points:
        sys.exit(f"no reply after a salvageable malformed answer (or, with --after check, a check failed on form) "
                 f"in {len(files)} transcripts")
    record = source_record(points, benchmark)
    points = [p for p in points if p.task.id != record.source.task_id][: args.limit]
    llm = make_llm("local", model=args.model, cache_path=args.cache, n_threads=2)
    params = GenerationParams(temperature=0.0, max_tokens=args.max_new_tokens)
    counts: dict[str, list[int]] = {"recorded": [0, 0], "advice": [0, 0]}
    for index, point in enumerate(points, 1):
        text = render_record(record, benchmark.action_language, last_action=Action(content=point.answer),
                             salvaged=point.salvaged)
        last = point.messages[-1]
        shown = (f"{ADVICE_HEADER}\n{text}\n\n{last.content}" if point.result is None
                 else f"{last.content}\n\n{ADVICE_HEADER}\n{text}")  # as the agent puts it
        messages = [*point.messages[:-1], Message(role=last.role, content=shown)]
        reply = llm.complete(messages, params).text
        for name, shown in (("recorded", point.recorded), ("advice", reply)):
            formed, passed = outcome(shown, benchmark, point.task)
            counts[name][0] += int(formed)
            counts[name][1] += int(passed)
        print(f"[{index}/{len(points)}] {point.task.id}: recorded reply {_said(point.recorded, benchmark, point.task)}; "
              f"with advice {_said(reply, benchmark, point.task)}", flush=True)
    print(f"decisions replayed: {len(points)} (record from {record.source.task_id}: {record.improved_action.content!r})")
    for name, (formed_n, passed_n) in counts.items():
        print(f"  {name:8s}: follows the contract {formed_n}, action passes {passed_n}")


if __name__ == "__main__":
    main()
