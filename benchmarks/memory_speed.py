"""How long the memory layer takes per decision, per embedding and per store change.

    .venv/bin/python benchmarks/memory_speed.py            # 200 and 100,000 records
    .venv/bin/python benchmarks/memory_speed.py --quick    # 200 and 20,000 records, fewer samples
    .venv/bin/python benchmarks/memory_speed.py --parts a  # only (a); also b, c, d

(a) memory-layer time per decision, with the query embedding already computed: the retriever's
    condition filter and ranking (including its check that the store has not changed), a TopOne
    selection over the offered candidates, and rendering the chosen record as prompt text.
(b) embedding time per decision on its own: MiniLM (torch), the `onnx` embedder (int8 and float
    compute) and the lexical embedder on distinct ~1000-character situations (caches off, so every
    text is really embedded).
(c) store insert and evict time: `SQLiteStore` in a temporary file at capacity 200 (utility
    retention) and at a large capacity (recency retention; utility retention keeps an n x n
    redundancy matrix and refuses more than 20,000 records).

(d) decision time including the query embedding, per embedder (minilm, onnx, onnx-int8), at
    200 and the large size: tasks of 4 decisions whose situation stays while the last action and
    observation change, each decision = retrieve (embedding the query through the embedder's caches,
    as in a run) + TopOne + render; and how often the onnx and minilm embedders offer the same records.
    `--situations spider` takes the decisions from real Spider tasks instead (the store stays synthetic).
    `--layout segmented` embeds decisions and keys in the segmented layout (the task part once per
    task, the last action and its check per decision: `countermem.memory._segmented`).

Records are synthetic but shaped like the SQL domain's: a question, a schema of 4-8 tables,
the failed query and its error (about 1,000 characters), and conditions drawn from templates over
the facts the SQL domain reports (tables, n_tables, dialect, has_join, n_columns, error_kind);
about a fifth are universal. Record keys and queries are embedded with the lexical embedder
(512 wide; MiniLM's 384 would make the product slightly cheaper). Numbers depend on the load of
the machine; the script prints the load average next to them.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from countermem.core import Action, CheckResult, Facts
from countermem.memory import (
    DEFAULT_TASK_WEIGHT,
    DecisionParts,
    EmbedLayout,
    SegmentedEncoder,
    candidate_features,
    decision_parts,
    make_embedder,
    record_key_parts,
    render_record,
)
from countermem.memory._embedding import (
    Embedder,
    EmbedderUnavailableError,
    LexicalEmbedder,
    MiniLMEmbedder,
    normalize_rows,
)
from countermem.memory._record import ApplicabilityCondition, Record, RecordSource
from countermem.memory._retrieval import (
    EligibilityMode,
    RetrievalQuery,
    RetrievalResult,
    Retriever,
    decision_text,
    record_key_text,
)
from countermem.memory._store import SQLiteStore
from countermem.selector import SKIP, Observation, TopOne

TABLES = [
    "customers",
    "orders",
    "order_items",
    "products",
    "suppliers",
    "employees",
    "departments",
    "salaries",
    "invoices",
    "payments",
    "shipments",
    "warehouses",
    "stores",
    "regions",
    "countries",
    "cities",
    "singers",
    "concerts",
    "stadiums",
    "albums",
    "tracks",
    "artists",
    "genres",
    "playlists",
    "students",
    "courses",
    "enrollments",
    "teachers",
    "classrooms",
    "exams",
    "flights",
    "airports",
    "airlines",
    "routes",
    "aircraft",
    "passengers",
    "tickets",
    "hotels",
    "rooms",
    "bookings",
    "reviews",
    "users",
    "accounts",
    "transactions",
    "branches",
    "loans",
    "cards",
    "claims",
    "policies",
    "patients",
    "doctors",
    "visits",
    "prescriptions",
]
COLUMNS = [
    "id",
    "name",
    "title",
    "age",
    "city",
    "country",
    "price",
    "amount",
    "quantity",
    "date",
    "created_at",
    "status",
    "rating",
    "year",
    "genre",
    "capacity",
    "salary",
    "budget",
    "email",
    "phone",
    "address",
    "zip",
    "total",
    "discount",
    "category",
    "type",
    "level",
    "score",
    "grade",
    "start_date",
    "end_date",
    "duration",
    "distance",
    "seats",
    "gender",
    "nationality",
    "population",
    "area",
    "owner_id",
]
ERRORS = (
    ("no_such_column", "error: no such column: {c}"),
    ("no_such_table", "error: no such table: {t}"),
    ("ambiguous", "error: ambiguous column name: {c}"),
    ("wrong_result", "result differs from the expected rows: got {n} rows, expected {m}"),
    ("syntax", 'error: near "{c}": syntax error'),
    ("aggregate", "error: misuse of aggregate: COUNT()"),
)
DIALECTS = ("sqlite", "postgres", "mysql")
WRONG = CheckResult(utility=0.0, passed=False, completed=True, status="wrong")
RIGHT = CheckResult(utility=1.0, passed=True, completed=True, status="passed")
PARTIAL = CheckResult(utility=0.4, passed=False, completed=True, status="wrong")


@dataclass(frozen=True)
class Scene:
    """One synthetic decision: its situation text and the facts the domain would report."""

    situation: str
    action: str
    facts: Facts


def make_scene(rng: random.Random) -> Scene:
    tables = rng.sample(TABLES, rng.randint(4, 8))
    schema_lines, n_columns = [], 0
    for table in tables:
        columns = rng.sample(COLUMNS, rng.randint(4, 8))
        n_columns += len(columns)
        schema_lines.append(f"  {table}({', '.join(columns)})")
    a, b = tables[0], tables[1]
    col, col2 = rng.sample(COLUMNS, 2)
    question = (
        f"Question: for each {a[:-1]} list the {col} and the total {col2} of their {b}, "
        f"only for {b} created after {rng.randint(2001, 2023)}, ordered by {col2} descending."
    )
    has_join = rng.random() < 0.7
    action = (
        f"SELECT T1.{col}, SUM(T2.{col2}) FROM {a} AS T1 JOIN {b} AS T2 ON T1.id = T2.{a[:-1]}_id "
        f"WHERE T2.created_at > '{rng.randint(2001, 2023)}-01-01' GROUP BY T1.{col} ORDER BY 2 DESC"
        if has_join
        else f"SELECT {col}, {col2} FROM {a} WHERE {col2} > {rng.randint(1, 500)} ORDER BY {col2} DESC"
    )
    kind, template = rng.choice(ERRORS)
    observation = template.format(
        c=rng.choice(COLUMNS), t=rng.choice(TABLES), n=rng.randint(0, 9), m=rng.randint(10, 40)
    )
    dialect = rng.choice(DIALECTS)
    situation = "\n".join(
        [
            question,
            f"Database ({dialect}), {len(tables)} tables:",
            *schema_lines,
            "Hint: join keys follow the <table>_id convention; dates are ISO strings; names are unique.",
            f"Sample rows of {a}: "
            + "; ".join(f"({i}, '{rng.choice(COLUMNS)}_{rng.randint(1, 99)}')" for i in range(1, 9)),
            f"Previous attempt failed. Observation: {observation}",
        ]
    )
    facts = Facts(
        values={
            "tables": tuple(tables),
            "n_tables": len(tables),
            "dialect": dialect,
            "has_join": has_join,
            "n_columns": n_columns,
            "error_kind": kind,
        }
    )
    return Scene(situation=situation, action=action, facts=facts)


def make_condition(rng: random.Random, scene: Scene) -> str:
    """A condition as an LLM would write it for this scene: mostly true for it, rarely universal."""
    tables = scene.facts.get("tables")
    assert isinstance(tables, tuple)
    t = rng.choice(tables)
    other = rng.choice(TABLES)
    n = scene.facts.get("n_tables")
    kind = scene.facts.get("error_kind")
    dialect = scene.facts.get("dialect")
    choice = rng.randrange(8)
    if choice < 2:
        return "none"
    return [
        f'"{t}" in tables',
        f"n_tables >= {n}",
        f'"{t}" in tables and "{other}" in tables',
        f'error_kind == "{kind}" and has_join',
        f'dialect == "{dialect}" and n_columns > {rng.randint(10, 40)}',
        f'not "{other}" in tables and n_tables > {rng.randint(2, 6)}',
    ][choice - 2]


def make_records(n: int, seed: int, embedder: LexicalEmbedder | None, universal: bool = True) -> list[Record]:
    rng = random.Random(seed)
    records = []
    for i in range(n):
        scene = make_scene(rng)
        condition = make_condition(rng, scene)
        while not universal and condition == "none":
            condition = make_condition(rng, scene)
        records.append(
            Record(
                domain="sql",
                benchmark="spider" if i % 3 else "sql-shop",
                situation=scene.situation,
                original_action=Action(content=scene.action),
                improved_action=Action(content=scene.action.replace("DESC", "DESC LIMIT 10")),
                original_check=WRONG if i % 2 else PARTIAL,
                improved_check=RIGHT,
                utility_gain=RIGHT.utility - (WRONG if i % 2 else PARTIAL).utility,
                condition=ApplicabilityCondition.from_text(condition),
                source=RecordSource(
                    task_id=f"synthetic-{seed}-{i}", benchmark="spider" if i % 3 else "sql-shop"
                ),
            )
        )
    if embedder is not None:
        vectors = embedder.embed([record_key_text(r) for r in records])
        records = [
            r.model_copy(update={"embedding": v.tolist()}) for r, v in zip(records, vectors, strict=True)
        ]
    return records


def render(record: Record) -> str:
    """The real prompt text of a record, as the advisor renders it."""
    return render_record(record, action_language="sql")


def topone_selector() -> tuple[Callable[[RetrievalResult], Record | None], str]:
    """TopOne over an Observation built from the candidates, as the selector layer defines them."""
    selector = TopOne()

    def select(result: RetrievalResult) -> Record | None:
        features = candidate_features(result)
        observation = Observation(n_eligible=max(result.n_eligible, len(features)), candidates=features)
        choice = selector.choose(observation)
        return None if choice == SKIP else result.candidates[choice].record

    return select, "TopOne on a selector Observation"


def show(row: Row) -> None:
    cpu = f" (cpu {row.cpu_median:6.2f})" if row.cpu_median is not None else " " * 13
    print(f"    {row.label:<40} median {row.median:8.2f} ms{cpu}  p95 {row.p95:8.2f} ms   {row.note}")


def pct(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q))


@dataclass
class Row:
    label: str
    median: float
    p95: float
    note: str = ""
    cpu_median: float | None = None


def time_decisions(
    retriever: Retriever,
    queries: list[RetrievalQuery],
    select: Callable[[RetrievalResult], Record | None],
) -> tuple[Row, dict[str, float]]:
    totals: list[float] = []
    cpu: list[float] = []
    rank: list[float] = []
    filt: list[float] = []
    refresh: list[float] = []
    eligible, exact, any_eligible, evaluated, rendered = [], 0, 0, [], 0
    for query in queries[:5]:  # warm caches and numpy paths once
        retriever.retrieve(query)
    for query in queries:
        start, start_cpu = time.perf_counter(), time.process_time()
        result = retriever.retrieve(query)
        chosen = select(result)
        text = render(chosen) if chosen is not None else ""
        totals.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        rank.append(result.timings.rank_ms)
        filt.append(result.timings.filter_ms)
        refresh.append(result.timings.refresh_ms)
        eligible.append(result.n_eligible)
        exact += result.eligible_exact
        any_eligible += result.any_eligible
        evaluated.append(result.conditions_evaluated)
        rendered += bool(text)
    n = len(queries)
    row = Row("", statistics.median(totals), pct(totals, 95), cpu_median=statistics.median(cpu))
    stats = {
        "rank_ms": statistics.median(rank),
        "filter_ms": statistics.median(filt),
        "refresh_check_ms": statistics.median(refresh),
        "n_pool": float(result.n_pool),
        "n_eligible_median": statistics.median(eligible),
        "exact_share": exact / n,
        "coverage": any_eligible / n,
        "conditions_evaluated_median": statistics.median(evaluated),
        "rendered_share": rendered / n,
    }
    return row, stats


def part_a(sizes: list[int], n_decisions: int, embedder: LexicalEmbedder) -> list[Row]:
    print("\n(a) memory layer per decision (query embedding precomputed)")
    select, how = topone_selector()
    print(f"    select = {how}; render = the advisor's record text (render_record)")
    rng = random.Random(99)
    scenes = [make_scene(rng) for _ in range(n_decisions)]
    vectors = embedder.embed([decision_text(s.situation, s.action) for s in scenes])
    queries = [
        RetrievalQuery(
            text=decision_text(s.situation, s.action),
            facts=s.facts,
            domain="sql",
            benchmark="spider",
            embedding=v,
        )
        for s, v in zip(scenes, vectors, strict=True)
    ]
    rows: list[Row] = []
    for size in sizes:
        start = time.perf_counter()
        records = make_records(size, seed=size, embedder=embedder)
        made = time.perf_counter() - start
        start = time.perf_counter()
        distinct = len({r.condition.canonical for r in records})
        modes: list[EligibilityMode] = ["auto"] if size <= 1000 else ["auto", "lazy", "exact"]
        retriever = Retriever(records, embedder)
        built = time.perf_counter() - start
        print(
            f"    {size:>7} records: made + lexically embedded in {made:.1f} s, index built in {built:.2f} s, "
            f"{distinct} distinct conditions"
        )
        for mode in modes:
            retriever.eligibility = mode
            row, stats = time_decisions(retriever, queries, select)
            row.label = f"{size} records, eligibility={mode}"
            row.note = (
                f"rank {stats['rank_ms']:.2f} + filter/select {stats['filter_ms']:.2f} + store check "
                f"{stats['refresh_check_ms']:.2f} ms (medians); pool {int(stats['n_pool'])}, eligible "
                f"{stats['n_eligible_median']:.0f} (exact in {stats['exact_share']:.0%}), coverage "
                f"{stats['coverage']:.0%}, conditions evaluated {stats['conditions_evaluated_median']:.0f}"
            )
            rows.append(row)
        if size > 1000:
            retriever.auto_refresh = False
            retriever.eligibility = "auto"
            row, stats = time_decisions(retriever, queries, select)
            row.label = f"{size} records, auto, auto_refresh off"
            row.note = "frozen store: no identity check of the store's records"
            rows.append(row)
            hard = make_records(size // 10, seed=size + 1, embedder=embedder, universal=False)
            hard_retriever = Retriever(hard, embedder)
            nothing = [RetrievalQuery(q.text, Facts(), q.domain, q.benchmark, q.embedding) for q in queries]
            row, stats = time_decisions(hard_retriever, nothing, select)
            row.label = f"{size // 10} records, nothing eligible"
            row.note = (
                f"worst case: no universal records, no facts, every condition evaluated "
                f"({stats['conditions_evaluated_median']:.0f} per decision)"
            )
            rows.append(row)
    for row in rows:
        show(row)
    return rows


def time_embedding(label: str, embedder: Embedder, texts: list[str]) -> Row:
    wall: list[float] = []
    cpu: list[float] = []
    for text in texts:
        start, start_cpu = time.perf_counter(), time.process_time()
        embedder.embed([text])
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return Row(label, statistics.median(wall), pct(wall, 95), f"{len(texts)} texts", statistics.median(cpu))


def part_b(n_texts: int) -> list[Row]:
    print("\n(b) query embedding per decision (distinct ~1000-character situations, cache off)")
    rng = random.Random(7)
    texts = [decision_text(s.situation, s.action) for s in (make_scene(rng) for _ in range(n_texts))]
    print(f"    mean text length {statistics.mean(len(t) for t in texts):.0f} characters")
    rows = []
    lexical = LexicalEmbedder(cache_size=0)
    lexical.embed(texts[:3])
    rows.append(time_embedding("lexical (512 wide)", lexical, texts))
    try:
        minilm = MiniLMEmbedder(cache_size=0)
    except EmbedderUnavailableError as error:
        print(f"    MiniLM skipped: {error}")
    else:
        start = time.perf_counter()
        minilm.embed(["warm up"])
        loaded = time.perf_counter() - start
        row = time_embedding("MiniLM (384 wide, 1 thread)", minilm, texts[: max(10, n_texts // 4)])
        row.note = f"first call (load + warm-up) {loaded:.1f} s"
        rows.append(row)
    for kind in ("onnx", "onnx-int8"):
        try:
            onnx = make_embedder(kind, cache_size=0)
            start = time.perf_counter()
            onnx.embed(["warm up"])
        except EmbedderUnavailableError as error:
            print(f"    {kind} skipped: {error}")
            continue
        loaded = time.perf_counter() - start
        row = time_embedding(f"{kind} (384 wide, 1 thread)", onnx, texts[: max(10, n_texts // 2)])
        row.note = f"first call (load + warm-up) {loaded:.1f} s"
        rows.append(row)
    for row in rows:
        show(row)
    return rows


DECISIONS_PER_TASK = 4


@dataclass(frozen=True)
class TaskDecision:
    task: int
    text: str
    facts: Facts
    parts: DecisionParts


def task_decisions(n_tasks: int, seed: int) -> list[TaskDecision]:
    """Decisions as the agent makes them: a task's first (no action yet), then one after each failed
    action. The situation stays the task's; the last action and its observation change."""
    rng = random.Random(seed)
    out: list[TaskDecision] = []
    for task in range(n_tasks):
        scene = make_scene(rng)
        out.append(TaskDecision(task, decision_text(scene.situation), scene.facts, decision_parts(scene.situation)))
        for _ in range(DECISIONS_PER_TASK - 1):
            action = make_scene(rng).action
            _, template = rng.choice(ERRORS)
            observation = template.format(
                c=rng.choice(COLUMNS), t=rng.choice(TABLES), n=rng.randint(0, 9), m=rng.randint(10, 40)
            )
            out.append(
                TaskDecision(
                    task,
                    decision_text(scene.situation, action, observation),
                    scene.facts,
                    decision_parts(scene.situation, "", action, observation),
                )
            )
    return out


def spider_decisions(n_tasks: int, seed: int) -> list[TaskDecision]:
    """The same shape of decisions over real Spider tasks (rendered as the agent sees them: the schema
    first, then the question), with the benchmark's own wrong query (and two edits of it) as failed actions."""
    from countermem.domains import load_benchmark

    benchmark = load_benchmark("spider")
    availability = benchmark.availability()
    if not availability.available:
        raise SystemExit(f"Spider data unavailable: {availability.reason}")
    rng = random.Random(seed)
    tasks = rng.sample(benchmark.tasks(), n_tasks)
    out: list[TaskDecision] = []
    for index, task in enumerate(tasks):
        situation, facts = benchmark.render_task(task), benchmark.facts(task)
        out.append(TaskDecision(index, decision_text(situation), facts, decision_parts(situation, task.prompt)))
        wrong = benchmark.wrong_action(task).content
        for action in (wrong, f"{wrong} LIMIT 1", f"{wrong} ORDER BY 1 DESC")[: DECISIONS_PER_TASK - 1]:
            _, template = rng.choice(ERRORS)
            observation = template.format(
                c=rng.choice(COLUMNS), t=rng.choice(TABLES), n=rng.randint(0, 9), m=rng.randint(10, 40)
            )
            parts = decision_parts(situation, task.prompt, action, observation)
            out.append(TaskDecision(index, decision_text(situation, action, observation), facts, parts))
    return out


class PrecomputedKeys:
    """Queries go to the real embedder; the store's keys get vectors given up front.

    Embedding 100,000 record keys with MiniLM would take hours, and what a decision costs depends on
    the matrix's size, not on its values: so the large store reuses the 200 real key vectors
    (tiled, with a little noise) and only the query is embedded for real, at every decision.
    """

    def __init__(self, inner: Embedder, keys: np.ndarray) -> None:
        self.inner = inner
        self._keys: np.ndarray | None = keys

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int:
        return self.inner.dim

    def cut_to_pieces(self, text: str, n: int) -> str:
        cut: str = self.inner.cut_to_pieces(text, n)  # type: ignore[attr-defined]
        return cut

    def embed(self, texts: list[str]) -> np.ndarray:
        if self._keys is not None:
            keys, self._keys = self._keys, None
            # the first embed call is the store's keys; the segmented layout asks for a task and a
            # step text per record in that one call: both get the key's vector, which sums to it
            assert len(texts) % len(keys) == 0, "the first embed call is the store's keys"
            return np.tile(keys, (len(texts) // len(keys), 1))
        return self.inner.embed(texts)


EMBEDDERS = ("minilm", "onnx", "onnx-int8")


def part_d(
    sizes: list[int],
    n_tasks: int,
    situations: str,
    layout: EmbedLayout = "full",
    task_weight: float = DEFAULT_TASK_WEIGHT,
) -> list[Row]:
    print(
        f"\n(d) decision time including the query embedding: {n_tasks} {situations} tasks x {DECISIONS_PER_TASK} "
        "decisions (the first without an action, then after each failed one), retrieve + TopOne + render, "
        f"{layout} layout" + (f" (task weight {task_weight})" if layout == "segmented" else "")
    )
    select, _ = topone_selector()
    decisions = task_decisions(n_tasks, seed=11) if situations == "synthetic" else spider_decisions(n_tasks, seed=11)
    print(f"    mean decision text {statistics.mean(len(d.text) for d in decisions):.0f} characters")
    base = make_records(200, seed=5, embedder=None)
    stores = {size: base if size == 200 else make_records(size, seed=size, embedder=None) for size in sizes}
    rows: list[Row] = []
    offered: dict[str, list[list[str]]] = {}
    for label in EMBEDDERS:
        try:
            if layout == "segmented":
                keys = SegmentedEncoder(make_embedder(label), task_weight=task_weight).key_vectors([record_key_parts(r) for r in base])
            else:
                keys = normalize_rows(make_embedder(label).embed([record_key_text(r) for r in base]))
        except EmbedderUnavailableError as error:
            print(f"    {label} skipped: {error}")
            continue
        noise = np.random.default_rng(0)
        for size, records in stores.items():
            tiled = keys[np.arange(size) % len(keys)]
            if size > len(keys):
                tiled = normalize_rows(tiled + noise.normal(0, 0.02, tiled.shape).astype(np.float32))
            inner = make_embedder(label)  # fresh caches: nothing is embedded before the timed decisions
            inner.embed(["warm up: load the model"])
            retriever = Retriever(records, PrecomputedKeys(inner, tiled), embed_layout=layout, task_weight=task_weight)
            wall: list[float] = []
            cpu: list[float] = []
            embed: list[float] = []
            chosen_ids: list[str] = []
            for decision in decisions:
                start, start_cpu = time.perf_counter(), time.process_time()
                query = RetrievalQuery(decision.text, decision.facts, "sql", "spider", parts=decision.parts)
                result = retriever.retrieve(query)
                chosen = select(result)
                _ = render(chosen) if chosen is not None else ""
                wall.append((time.perf_counter() - start) * 1000)
                cpu.append((time.process_time() - start_cpu) * 1000)
                embed.append(result.timings.embed_ms)
                chosen_ids.append(",".join(c.record.id for c in result.candidates))
            if size == 200:
                offered[label] = [ids.split(",") for ids in chosen_ids]
            stats = getattr(inner, "stats", None)
            cached = f", word-piece window reused in {stats.window_hits}/{stats.texts}" if stats else ""
            if retriever.segments is not None:
                seg = retriever.segments.stats
                cached += f", task part embedded {seg.task_embeds}x, reused {seg.task_hits}x, steps {seg.step_embeds}"
            rows.append(
                Row(
                    f"{label}, {size} records" + ("" if situations == "synthetic" else f", {situations}"),
                    statistics.median(wall),
                    pct(wall, 95),
                    f"embedding median {statistics.median(embed):.2f} ms{cached}",
                    statistics.median(cpu),
                )
            )
    if "minilm" in offered:
        for label, got in offered.items():
            if label == "minilm":
                continue
            pairs = list(zip(offered["minilm"], got, strict=True))
            overlap = statistics.mean(len(set(a) & set(b)) / max(len(a), 1) for a, b in pairs)
            same = sum(a == b for a, b in pairs)
            print(
                f"    offered records at 200 records, {label} vs minilm: mean overlap {overlap:.3f}, "
                f"same list in {same}/{len(pairs)} decisions"
            )
    for row in rows:
        show(row)
    return rows


def part_c(large: int, folder: Path) -> list[Row]:
    print("\n(c) store insert / evict (SQLiteStore in a temporary file, records without embeddings)")
    rows = []
    records = make_records(400, seed=1, embedder=None)
    with SQLiteStore(folder / "cap200.sqlite", capacity=200, retention="utility") as store:
        fill: list[float] = []
        evict: list[float] = []
        for i, record in enumerate(records):
            start = time.perf_counter()
            events = store.add(record)
            (fill if i < 200 else evict).append((time.perf_counter() - start) * 1000)
            assert (i >= 200) == bool(events)
    rows.append(
        Row("cap 200, insert (below capacity)", statistics.median(fill), pct(fill, 95), "utility rule")
    )
    rows.append(
        Row("cap 200, insert + evict (at capacity)", statistics.median(evict), pct(evict, 95), "utility rule")
    )

    start = time.perf_counter()
    big = make_records(large + 50, seed=2, embedder=None)
    made = time.perf_counter() - start
    path = folder / f"cap{large}.sqlite"
    with SQLiteStore(path, capacity=large, retention="recency") as store:
        start = time.perf_counter()
        times = []
        for record in big[:large]:
            t = time.perf_counter()
            store.add(record)
            times.append((time.perf_counter() - t) * 1000)
        filled = time.perf_counter() - start
        evict = []
        for record in big[large:]:
            t = time.perf_counter()
            events = store.add(record)
            evict.append((time.perf_counter() - t) * 1000)
            assert events
    size_mb = path.stat().st_size / 1e6
    rows.append(
        Row(
            f"cap {large}, insert (filling)",
            statistics.median(times),
            pct(times, 95),
            f"recency rule; filling took {filled:.1f} s ({made:.1f} s to make the records), file {size_mb:.0f} MB",
        )
    )
    rows.append(
        Row(
            f"cap {large}, insert + evict (at capacity)",
            statistics.median(evict),
            pct(evict, 95),
            "recency rule",
        )
    )
    start = time.perf_counter()
    with SQLiteStore(path, read_only=True) as store:
        opened = time.perf_counter() - start
        start = time.perf_counter()
        retriever = Retriever(store, LexicalEmbedder(), auto_refresh=False)
        indexed = time.perf_counter() - start
    rows.append(
        Row(
            f"cap {large}, open read-only",
            opened * 1000,
            opened * 1000,
            f"then index (embedding every key) {indexed:.1f} s",
        )
    )
    del retriever
    for row in rows:
        show(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--quick", action="store_true", help="20,000 instead of 100,000 records, fewer samples"
    )
    parser.add_argument("--parts", default="abcd", help="which parts to run, e.g. 'ab' (default: abcd)")
    parser.add_argument(
        "--situations",
        choices=("synthetic", "spider"),
        default="synthetic",
        help="(d): synthetic SQL situations, or real Spider tasks as decisions (needs the Spider data)",
    )
    parser.add_argument(
        "--layout",
        choices=("full", "segmented"),
        default="full",
        help="(d): the embedding layout of decisions and record keys (docs/embedding.md)",
    )
    parser.add_argument(
        "--task-weight", type=float, default=DEFAULT_TASK_WEIGHT, help="(d), segmented: the task part's weight"
    )
    args = parser.parse_args(argv)
    large = 20_000 if args.quick else 100_000
    decisions = 200
    print(
        f"memory speed: python {sys.version.split()[0]}, numpy {np.__version__}, load average {os.getloadavg()}"
    )
    embedder = LexicalEmbedder()
    rows_a = part_a([200, large], decisions, embedder) if "a" in args.parts else []
    rows_b = part_b(40 if args.quick else 200) if "b" in args.parts else []
    rows_d = part_d([200, large], 10 if args.quick else 25, args.situations, args.layout, args.task_weight) if "d" in args.parts else []
    rows_c: list[Row] = []
    if "c" in args.parts:
        with tempfile.TemporaryDirectory(prefix="countermem-speed-") as folder:
            rows_c = part_c(large, Path(folder))
    print(f"\nsummary (ms; load average now {os.getloadavg()})")
    print(f"{'measure':<44} {'median':>9} {'p95':>9} {'cpu med':>9}")
    for row in [*rows_a, *rows_b, *rows_c, *rows_d]:
        cpu = f"{row.cpu_median:>9.2f}" if row.cpu_median is not None else f"{'':>9}"
        print(f"{row.label:<44} {row.median:>9.2f} {row.p95:>9.2f} {cpu}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
