"""Retrieval quality of the `full` and `segmented` embedding layouts on real SQL tasks.

    PYTHONPATH=src .venv/bin/python benchmarks/embed_layout.py [--embedders minilm,onnx-int8] [--weights 0.5,0.7]

For each benchmark (Spider, sql-shop) the tasks are shuffled with a fixed seed; the first ones
become records (the rendered task, its `task_brief`, and the benchmark's wrong query as the
original action, the layout `record_key_text` embeds), the next ones give two decisions each: the
first (no action yet) and the one after the wrong query failed (with an observation). For every
decision the top-3 records by cosine (ties to the lower record index) are compared:

- overlap: the share of the `full` layout's top-3 (today's retrieval) that the segmented one keeps;
- relevance: a record counts as relevant to a decision when its source task runs on the same
  database and its gold query has the same SQL skeleton (the sequence of SQL keywords and
  parentheses, names and literals dropped). P@3 is the mean share of the top-3 that is relevant,
  hit@3 the share of decisions with at least one, both over decisions that have a relevant record
  in the pool; `db P@3` the share of the top-3 on the decision's own database.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
from dataclasses import dataclass

import numpy as np

from countermem.memory import (
    DecisionParts,
    EmbedderUnavailableError,
    SegmentedEncoder,
    decision_parts,
    decision_text,
    make_embedder,
    normalize_rows,
)
from countermem.memory._record import brief_of

OBSERVATION = "the result differs from the expected rows: 3 rows where 4 are expected"
_KEYWORDS = frozenset(
    ["select", "from", "where", "group", "by", "order", "having", "join", "on", "count", "sum", "avg", "min", "max", "distinct", "limit", "union", "intersect", "except", "not", "in", "like", "between", "desc", "asc", "and", "or", "as", "exists", "is", "null"]
)
_TOKEN = re.compile(r"[A-Za-z_]+|[()]")


def skeleton(sql: str) -> tuple[str, ...]:
    """The gold query's SQL keywords and parentheses in order (names and literals dropped)."""
    return tuple(t.lower() for t in _TOKEN.findall(sql) if t in "()" or t.lower() in _KEYWORDS)


@dataclass(frozen=True)
class Item:
    full: str
    parts: DecisionParts
    database: str
    shape: tuple[str, ...]


def build_set(name: str, n_records: int, n_query_tasks: int, seed: int) -> tuple[list[Item], list[Item]]:
    from countermem.domains import load_benchmark

    benchmark = load_benchmark(name)
    availability = benchmark.availability()
    if not availability.available:
        raise SystemExit(f"{name} data unavailable: {availability.reason}")
    tasks = benchmark.tasks()
    random.Random(seed).shuffle(tasks)
    records, queries = [], []
    for task in tasks[:n_records]:
        situation, wrong = benchmark.render_task(task), benchmark.wrong_action(task).content
        parts = DecisionParts(task=f"{brief_of(task.prompt)}\n{situation}", step=wrong)
        records.append(Item(decision_text(situation, wrong), parts, task.environment or "", skeleton(task.gold or "")))
    for task in tasks[n_records : n_records + n_query_tasks]:
        situation, wrong = benchmark.render_task(task), benchmark.wrong_action(task).content
        for action, observation in ((None, None), (wrong, OBSERVATION)):
            queries.append(
                Item(
                    decision_text(situation, action, observation),
                    decision_parts(situation, task.prompt, action, observation),
                    task.environment or "",
                    skeleton(task.gold or ""),
                )
            )
    return records, queries


def top3(keys: np.ndarray, query: np.ndarray) -> list[int]:
    sims = keys.astype(np.float64) @ query.astype(np.float64)
    return sorted(range(len(sims)), key=lambda i: (-round(float(sims[i]), 6), i))[:3]


def relevance(records: list[Item], queries: list[Item], tops: list[list[int]]) -> str:
    p3, hit, db = [], [], []
    for query, top in zip(queries, tops, strict=True):
        db.append(sum(records[i].database == query.database for i in top) / 3)
        if not any(r.database == query.database and r.shape == query.shape for r in records):
            continue
        good = [records[i].database == query.database and records[i].shape == query.shape for i in top]
        p3.append(sum(good) / 3)
        hit.append(any(good))
    return (
        f"P@3 {statistics.mean(p3):.3f}  hit@3 {statistics.mean(hit):.3f} (over {len(p3)})  "
        f"db P@3 {statistics.mean(db):.3f}"
    )


def overlap(a: list[list[int]], b: list[list[int]]) -> str:
    shares = [len(set(x) & set(y)) / 3 for x, y in zip(a, b, strict=True)]
    same = sum(set(x) == set(y) for x, y in zip(a, b, strict=True))
    return f"overlap with full {statistics.mean(shares):.3f} (same set {same}/{len(a)})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedders", default="minilm,onnx-int8")
    parser.add_argument("--weights", default="0.5,0.6,0.7,0.8,0.9,1.0")
    parser.add_argument("--sets", default="spider,sql-shop")
    args = parser.parse_args()
    weights = [float(w) for w in args.weights.split(",")]
    sizes = {"spider": (200, 50, 3), "sql-shop": (79, 40, 5)}
    for name in args.sets.split(","):
        records, queries = build_set(name, *sizes[name])
        print(f"\n{name}: {len(records)} records, {len(queries)} decisions ({len(queries) // 2} tasks x 2)")
        for label in args.embedders.split(","):
            try:
                embedder = make_embedder(label)
                keys = normalize_rows(embedder.embed([r.full for r in records]))
            except EmbedderUnavailableError as error:
                print(f"  {label} skipped: {error}")
                continue
            full = [top3(keys, normalize_rows(embedder.embed([q.full]))[0]) for q in queries]
            print(f"  {label:9} full             {relevance(records, queries, full)}")
            first = normalize_rows(embedder.embed([f"{r.parts.task}\n{r.parts.step}" for r in records]))
            reordered = [top3(first, normalize_rows(embedder.embed([q.parts.task + "\n" + q.parts.step]))[0]) for q in queries]
            print(f"  {label:9} full, question first {relevance(records, queries, reordered)}  {overlap(full, reordered)}")
            for weight in weights:
                encoder = SegmentedEncoder(embedder, task_weight=weight)
                seg_keys = encoder.key_vectors([r.parts for r in records])
                seg = [top3(seg_keys, encoder.query_vector(q.parts)) for q in queries]
                print(
                    f"  {label:9} segmented w={weight:.1f} {relevance(records, queries, seg)}  "
                    f"{overlap(full, seg)}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
