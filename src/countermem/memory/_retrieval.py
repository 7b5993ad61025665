"""Module III, retrieval: which (at most 3) records to offer at one decision.

A decision is described by its text (situation, plus the last failed action and observation),
its `Facts`, its domain and benchmark, and optionally a query embedding the caller already has.

1. Pool: records of the same domain (`scope="domain"`, default) or of the same benchmark only
   (`scope="benchmark"`). Other domains never compete: their situations are not comparable.
   Only records the reader's `ScopeAccess` may read are indexed at all (`countermem.memory._scope`;
   that is the record's team or tenant scope, not this pool scope).
2. Condition filter: a record whose applicability condition is false (or unknown) for the
   decision's facts is dropped before ranking, so a high similarity can never smuggle in a
   record that does not apply. Universal conditions always hold. `use_conditions=False` turns
   the filter off for the ablation (candidates still say whether their condition held).
3. Rank: cosine similarity between the query embedding and each record's key embedding, the
   embedding of `record_key_text` (situation + original action: what the agent saw and the
   action it was about to take, which is what the current decision looks like). Under
   `embed_layout="segmented"` both sides are instead a weighted sum of a per-task vector (question,
   then situation) and a per-step one (the action; `countermem.memory._segmented`). A tiny
   `gain_weight` (default 1e-3) times the record's checked utility gain breaks near-ties toward the
   record that proved more; it cannot reorder records whose similarities differ by more than 1e-3.
   Exact ties left after that go to a fixed pseudo-random key per record id, so the order does
   not depend on insertion order. `rank="random"` replaces the score by a pseudo-random number
   per (seed, query text, record id): seeded, reproducible across processes and on resume, and
   still condition-filtered. `rank="shuffled"` is the "valid records reaching the wrong decision"
   control: it offers k records drawn from the pool records that the similarity ranking (with the
   usual condition filter) would NOT offer here, in the same seeded per-(seed, query text, record
   id) order as `random`, so the draw is reproducible and independent of insertion order. Their
   conditions are ignored for eligibility (the draw may offer a record whose condition is false
   here, and `condition_holds` says so), but records are still rendered with their own conditions.
   `n_eligible` and `any_eligible` still describe the condition filter's pool, as in the other
   modes. When the pool holds no more than the similarity top-k, shuffled offers nothing.

Speed. Retrieval runs at every decision of every agent, so it keeps an index instead of reading
and embedding the store each time: per (domain, benchmark) a float32 matrix of key embeddings,
the records, their gains and a condition-group id per row. Records with the same canonical
condition share one group, so each distinct condition is evaluated at most once per decision.
A decision costs one matrix-vector product per block, a partial sort and the condition checks.
The product is numpy's einsum rather than BLAS: it runs on the calling thread, and on a shared
machine a threaded BLAS matrix-vector product was several times slower than einsum's single loop.
Key embeddings are computed once per record (or taken from `record.embedding` when it has the
embedder's width: a store must then be embedded with one embedder, over `record_key_text`).

The index follows the store: `refresh()` diffs the store's records against the index (by id and
object identity; records are frozen, so a change is a new object) and embeds only what is new.
With `auto_refresh` (default) every `retrieve` first compares the store's record list with
the one of the last refresh (list equality, which tests identity first in C; records equal by
value need no new row either way). Most of that cost is the store building its list: under
0.1 ms at 200 records, a few ms at 100,000 on a loaded two-core machine, so a caller with a
frozen store can switch it off.

Eligibility counting. `eligibility="exact"` evaluates every distinct condition in the pool, so
`n_eligible` is exact (the selector reads it). `"lazy"` walks records in rank order and stops at
k eligible ones; `n_eligible` is then a lower bound (`eligible_exact=False`), while `any_eligible`
(what retrieval coverage needs) stays exact. `"auto"` (default) is exact while the pool holds at
most `exact_limit` distinct conditions (always, at the study's 200 records) and lazy beyond.
If the lazy walk finds fewer than k in its first chunk it evaluates all remaining groups at once,
which makes the count exact again.

No LLM judges a condition here, so `retrieval_tokens` is always 0; the field stays so that a
retriever that does use an LLM reports into the same place.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from time import perf_counter
from typing import Literal, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from countermem.core import ConfigError, Facts, StoreError
from countermem.memory._conditions import Condition
from countermem.memory._embedding import Embedder, FloatRows, normalize_rows
from countermem.memory._record import ApplicabilityCondition, Record
from countermem.memory._scope import ScopeAccess
from countermem.memory._segmented import (
    DEFAULT_STEP_PIECES,
    DEFAULT_TASK_WEIGHT,
    EMBED_LAYOUTS,
    DecisionParts,
    EmbedLayout,
    SegmentedEncoder,
    decision_parts,
    record_key_parts,
)

RetrievalScope = Literal["domain", "benchmark"]
RankMode = Literal["similarity", "random", "shuffled"]
EligibilityMode = Literal["auto", "exact", "lazy"]

DEFAULT_K = 3
DEFAULT_GAIN_WEIGHT = 1e-3
DEFAULT_EXACT_LIMIT = 2048
_LAZY_CHUNK = 64
_TIE_TOLERANCE = 1e-5
_INITIAL_ROWS = 16

_IntArray = npt.NDArray[np.int64]
_KeyArray = npt.NDArray[np.uint64]
_Scores = npt.NDArray[np.float64]


def record_key_text(record: Record) -> str:
    """The text a record is indexed by; whoever stores `record.embedding` must embed exactly this."""
    return f"{record.situation}\n{record.original_action.content}"


def decision_text(situation: str, last_action: str | None = None, last_observation: str | None = None) -> str:
    """The query text of a decision, laid out like `record_key_text` so that the two compare."""
    parts = [situation]
    if last_action:
        parts.append(last_action)
    if last_observation:
        parts.append(last_observation)
    return "\n".join(parts)


@dataclass(frozen=True, eq=False)
class RetrievalQuery:
    """One decision as retrieval sees it; `embedding` (any width the embedder makes) skips embedding.

    `parts` is the decision split for the `segmented` layout (`for_decision` fills it); a query
    without it is embedded as `text` alone under that layout.
    """

    text: str
    facts: Facts
    domain: str
    benchmark: str
    embedding: FloatRows | Sequence[float] | None = None
    parts: DecisionParts | None = None

    @classmethod
    def for_decision(
        cls,
        *,
        situation: str,
        facts: Facts,
        domain: str,
        benchmark: str,
        last_action: str | None = None,
        last_observation: str | None = None,
        embedding: FloatRows | Sequence[float] | None = None,
        question: str = "",
    ) -> RetrievalQuery:
        return cls(
            text=decision_text(situation, last_action, last_observation),
            facts=facts,
            domain=domain,
            benchmark=benchmark,
            embedding=embedding,
            parts=decision_parts(situation, question, last_action, last_observation),
        )


@dataclass(frozen=True)
class RetrievedCandidate:
    """One offered record. `similarity` is the cosine in [-1, 1]; `score` is what ranked it.

    `condition_specific` is true when the record has a non-universal condition that held here,
    the stronger evidence of fit the selector reads; `condition_holds` is whether the condition
    held at all (false only under `use_conditions=False`).
    """

    record: Record
    similarity: float
    score: float
    rank: int
    condition_specific: bool
    condition_holds: bool
    same_benchmark: bool


@dataclass(frozen=True)
class RetrievalTimings:
    """Milliseconds spent per step of one `retrieve`; `total_ms` includes everything."""

    refresh_ms: float = 0.0
    embed_ms: float = 0.0
    rank_ms: float = 0.0
    filter_ms: float = 0.0
    total_ms: float = 0.0


@dataclass(frozen=True)
class RetrievalResult:
    """The offered candidates (best first) and what the pool looked like.

    `n_eligible` counts pool records whose condition held; it is exact when `eligible_exact`,
    otherwise a lower bound (lazy evaluation stopped once k were found). `any_eligible` is
    always exact. `conditions_evaluated` counts distinct conditions evaluated for this decision.
    """

    candidates: tuple[RetrievedCandidate, ...]
    n_pool: int
    n_eligible: int
    eligible_exact: bool
    any_eligible: bool
    conditions_evaluated: int
    retrieval_tokens: int = 0
    timings: RetrievalTimings = field(default_factory=RetrievalTimings)

    @property
    def n_eligible_lower_bound(self) -> int:
        return self.n_eligible

    @property
    def records(self) -> list[Record]:
        return [candidate.record for candidate in self.candidates]


@dataclass(frozen=True)
class RefreshReport:
    """What one `refresh` changed in the index; `embedded` counts key embeddings computed."""

    added: int = 0
    removed: int = 0
    updated: int = 0
    embedded: int = 0
    seconds: float = 0.0


@runtime_checkable
class RecordListing(Protocol):
    """Anything with `all()` (every `Store` has it)."""

    def all(self) -> list[Record]: ...


RecordProvider = RecordListing | Callable[[], Sequence[Record]] | Sequence[Record]


def _stable_key(record_id: str) -> int:
    return int.from_bytes(hashlib.blake2b(record_id.encode(), digest_size=8).digest(), "little")


def _uniform(keys: _KeyArray, salt: int) -> _Scores:
    """splitmix64 of (key xor salt) mapped to [0, 1): a seeded random number per record and query."""
    with np.errstate(over="ignore"):
        z = keys ^ np.uint64(salt)
        z = z + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))


class _Block:
    """Rows of one (domain, benchmark): embeddings, records, gains, condition groups, tie keys.

    Arrays grow by doubling; a removal moves the last row into the hole, so removal is O(dim).
    """

    def __init__(self, dim: int) -> None:
        self.matrix: FloatRows = np.zeros((_INITIAL_ROWS, dim), dtype=np.float32)
        self.gains = np.zeros(_INITIAL_ROWS, dtype=np.float64)
        self.groups: _IntArray = np.zeros(_INITIAL_ROWS, dtype=np.int64)
        self.keys: _KeyArray = np.zeros(_INITIAL_ROWS, dtype=np.uint64)
        self.records: list[Record] = []
        self.row: dict[str, int] = {}
        self.group_counts: Counter[int] = Counter()

    @property
    def n(self) -> int:
        return len(self.records)

    def add(self, record: Record, vector: FloatRows, group: int) -> None:
        row = self.n
        if row == len(self.gains):
            self._grow()
        self.matrix[row] = vector
        self.gains[row] = record.utility_gain
        self.groups[row] = group
        self.keys[row] = _stable_key(record.id)
        self.records.append(record)
        self.row[record.id] = row
        self.group_counts[group] += 1

    def remove(self, record_id: str) -> None:
        row = self.row.pop(record_id)
        group = int(self.groups[row])
        self.group_counts[group] -= 1
        if not self.group_counts[group]:
            del self.group_counts[group]
        last = self.n - 1
        if row != last:
            moved = self.records[last]
            self.matrix[row] = self.matrix[last]
            self.gains[row] = self.gains[last]
            self.groups[row] = self.groups[last]
            self.keys[row] = self.keys[last]
            self.records[row] = moved
            self.row[moved.id] = row
        self.records.pop()

    def replace(self, record: Record) -> None:
        row = self.row[record.id]
        self.records[row] = record
        self.gains[row] = record.utility_gain

    def _grow(self) -> None:
        size = len(self.gains) * 2
        self.matrix = np.resize(self.matrix, (size, self.matrix.shape[1]))
        self.gains = np.resize(self.gains, size)
        self.groups = np.resize(self.groups, size)
        self.keys = np.resize(self.keys, size)


@dataclass
class _Pool:
    """One decision's pool: concatenated views over the blocks it spans."""

    blocks: list[_Block]
    offsets: list[int]
    groups: _IntArray
    gains: _Scores
    keys: _KeyArray

    @property
    def size(self) -> int:
        return len(self.groups)

    def locate(self, position: int) -> tuple[_Block, int]:
        for block, start in zip(reversed(self.blocks), reversed(self.offsets), strict=True):
            if position >= start:
                return block, position - start
        raise IndexError(position)

    def record(self, position: int) -> Record:
        block, row = self.locate(position)
        return block.records[row]

    def rows(self, positions: _IntArray) -> FloatRows:
        if len(self.blocks) == 1:
            rows: FloatRows = self.blocks[0].matrix[positions]
            return rows
        which = np.searchsorted(np.asarray(self.offsets), positions, side="right") - 1
        out = np.empty((len(positions), self.blocks[0].matrix.shape[1]), dtype=np.float32)
        for b in np.unique(which).tolist():
            picked = which == b
            out[picked] = self.blocks[b].matrix[positions[picked] - self.offsets[b]]
        return out

    def exact_similarities(self, positions: _IntArray, vector: FloatRows) -> _Scores:
        """Cosines in float64, each row summed on its own, so a row's value never depends on its place."""
        if not len(positions):
            return np.zeros(0, dtype=np.float64)
        products = self.rows(positions).astype(np.float64) * vector.astype(np.float64)
        sims: _Scores = products.sum(axis=1)
        return sims

    def distinct_groups(self) -> list[int]:
        if len(self.blocks) == 1:
            return list(self.blocks[0].group_counts)
        return list(set().union(*(block.group_counts for block in self.blocks)))


class _RecordIndex:
    """Every indexed record, by (domain, benchmark) block, plus the table of distinct conditions."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.blocks: dict[str, dict[str, _Block]] = {}
        self.where: dict[str, tuple[str, str]] = {}
        self.records: dict[str, Record] = {}
        self.group_of: dict[str, int] = {}
        self.conditions: list[Condition] = []
        self.universal: list[bool] = []

    def __len__(self) -> int:
        return len(self.records)

    def group(self, condition: ApplicabilityCondition) -> int:
        gid = self.group_of.get(condition.canonical)
        if gid is None:
            gid = len(self.conditions)
            self.group_of[condition.canonical] = gid
            self.conditions.append(condition.parsed)
            self.universal.append(condition.is_universal)
        return gid

    def add(self, record: Record, vector: FloatRows) -> None:
        block = self.blocks.setdefault(record.domain, {}).get(record.benchmark)
        if block is None:
            block = self.blocks[record.domain][record.benchmark] = _Block(self.dim)
        block.add(record, vector, self.group(record.condition))
        self.where[record.id] = (record.domain, record.benchmark)
        self.records[record.id] = record

    def remove(self, record_id: str) -> None:
        domain, benchmark = self.where.pop(record_id)
        del self.records[record_id]
        block = self.blocks[domain][benchmark]
        block.remove(record_id)
        if not block.n:
            del self.blocks[domain][benchmark]
            if not self.blocks[domain]:
                del self.blocks[domain]

    def replace(self, record: Record) -> None:
        domain, benchmark = self.where[record.id]
        self.blocks[domain][benchmark].replace(record)
        self.records[record.id] = record

    def pool(self, domain: str, benchmark: str, scope: RetrievalScope) -> _Pool | None:
        by_benchmark = self.blocks.get(domain, {})
        if scope == "benchmark":
            only = by_benchmark.get(benchmark)
            blocks = [only] if only is not None else []
        else:
            blocks = [by_benchmark[name] for name in sorted(by_benchmark)]
        if not blocks:
            return None
        if len(blocks) == 1:
            b = blocks[0]
            return _Pool(blocks, [0], b.groups[: b.n], b.gains[: b.n], b.keys[: b.n])
        offsets = list(np.cumsum([0] + [b.n for b in blocks[:-1]]).tolist())
        return _Pool(
            blocks,
            offsets,
            np.concatenate([b.groups[: b.n] for b in blocks]),
            np.concatenate([b.gains[: b.n] for b in blocks]),
            np.concatenate([b.keys[: b.n] for b in blocks]),
        )


def _same_key(old: Record, new: Record) -> bool:
    """Whether `new` can reuse `old`'s row (only counters, gain or bookkeeping changed)."""
    return (
        old.domain == new.domain
        and old.benchmark == new.benchmark
        and old.situation == new.situation
        and old.original_action == new.original_action
        and old.condition.canonical == new.condition.canonical
        and old.embedding == new.embedding
    )


def _resolve_provider(provider: RecordProvider) -> Callable[[], Sequence[Record]]:
    if isinstance(provider, RecordListing):
        return provider.all
    if isinstance(provider, Sequence):
        records = provider
        return lambda: records
    if callable(provider):
        return provider
    raise ConfigError(
        f"a retriever reads records from a store, a callable or a sequence, got {type(provider).__name__}"
    )


class Retriever:
    """Offers at most `k` records for a decision; see the module docstring for the steps and modes."""

    def __init__(
        self,
        records: RecordProvider,
        embedder: Embedder,
        *,
        k: int = DEFAULT_K,
        scope: RetrievalScope = "domain",
        use_conditions: bool = True,
        rank: RankMode = "similarity",
        seed: int = 0,
        gain_weight: float = DEFAULT_GAIN_WEIGHT,
        eligibility: EligibilityMode = "auto",
        exact_limit: int = DEFAULT_EXACT_LIMIT,
        auto_refresh: bool = True,
        use_record_embeddings: bool = True,
        access: ScopeAccess | None = None,
        embed_layout: EmbedLayout = "full",
        task_weight: float = DEFAULT_TASK_WEIGHT,
        step_pieces: int = DEFAULT_STEP_PIECES,
    ) -> None:
        if embed_layout not in EMBED_LAYOUTS:
            raise ConfigError(f"unknown embed layout {embed_layout!r}; choose {' or '.join(EMBED_LAYOUTS)}")
        if k < 1:
            raise ConfigError(f"retrieval must offer at least 1 record, got k={k}")
        if scope not in ("domain", "benchmark"):
            raise ConfigError(f"unknown retrieval scope {scope!r}; choose domain or benchmark")
        if rank not in ("similarity", "random", "shuffled"):
            raise ConfigError(f"unknown retrieval rank {rank!r}; choose similarity, random or shuffled")
        if eligibility not in ("auto", "exact", "lazy"):
            raise ConfigError(f"unknown eligibility mode {eligibility!r}; choose auto, exact or lazy")
        if not math.isfinite(gain_weight) or gain_weight < 0:
            raise ConfigError(f"gain_weight must be a finite number >= 0, got {gain_weight}")
        self.k = k
        self.scope: RetrievalScope = scope
        self.use_conditions = use_conditions
        self.rank: RankMode = rank
        self.seed = seed
        self.gain_weight = gain_weight
        self.eligibility: EligibilityMode = eligibility
        self.exact_limit = exact_limit
        self.auto_refresh = auto_refresh
        self.use_record_embeddings = use_record_embeddings
        self.embedder = embedder
        self.embed_layout: EmbedLayout = embed_layout
        self.segments = (
            SegmentedEncoder(embedder, task_weight=task_weight, step_pieces=step_pieces)
            if embed_layout == "segmented"
            else None
        )
        """The segmented layout's encoder (None under `full`); its `stats` count task and step embeds."""
        self.access = access
        """Only records of these scopes enter the index (None: every record given); a store opened
        with an access filters already, this also holds for records given as a list or callable."""
        provider = _resolve_provider(records)
        self._provider = provider if access is None else (lambda: access.visible(provider()))
        self._index = _RecordIndex(embedder.dim)
        self._seen: list[Record] = []
        self.refresh()

    def __len__(self) -> int:
        return len(self._index)

    # --- keeping the index in step with the store ----------------------------------------------

    def refresh(self, records: Sequence[Record] | None = None) -> RefreshReport:
        """Bring the index in line with the store (or with `records`); embeds only new keys."""
        start = perf_counter()
        if records is None:
            current = list(self._provider())
        else:
            current = list(records) if self.access is None else self.access.visible(records)
        offerable = [r for r in current if r.live]  # a retired record is never offered, whoever lists it
        by_id: dict[str, Record] = {}
        for record in offerable:
            if record.id in by_id:
                raise StoreError(f"record id {record.id} appears twice in the records given to retrieval")
            by_id[record.id] = record
        index = self._index
        stale = [record_id for record_id in index.records if record_id not in by_id]
        for record_id in stale:
            index.remove(record_id)
        fresh: list[Record] = []
        updated = 0
        for record in offerable:
            old = index.records.get(record.id)
            if old is None:
                fresh.append(record)
            elif old is not record:
                if _same_key(old, record):
                    index.replace(record)
                    updated += 1
                else:
                    index.remove(record.id)
                    fresh.append(record)
        vectors, embedded = self._key_vectors(fresh)
        for record, vector in zip(fresh, vectors, strict=True):
            index.add(record, vector)
        self._seen = current
        return RefreshReport(
            added=len(fresh),
            removed=len(stale),
            updated=updated,
            embedded=embedded,
            seconds=perf_counter() - start,
        )

    def _changed(self) -> list[Record] | None:
        current = self._provider()
        seen = self._seen
        if len(current) == len(seen) and list(current) == seen:
            return None
        return list(current)

    def _key_vectors(self, records: list[Record]) -> tuple[FloatRows, int]:
        dim = self.embedder.dim
        out = np.zeros((len(records), dim), dtype=np.float32)
        to_embed: list[int] = []
        if self.segments is not None:  # stored embeddings are in the full layout: not comparable
            return self.segments.key_vectors([record_key_parts(r) for r in records]), len(records)
        for i, record in enumerate(records):
            stored = record.embedding
            if self.use_record_embeddings and stored is not None and len(stored) == dim:
                out[i] = normalize_rows(stored)[0]
            else:
                to_embed.append(i)
        if to_embed:
            rows = self.embedder.embed([record_key_text(records[i]) for i in to_embed])
            out[to_embed] = normalize_rows(rows)
        return out, len(to_embed)

    def key_embedding(self, record_id: str) -> FloatRows:
        """The unit key vector the index holds for a record (a copy)."""
        if record_id not in self._index.where:
            raise StoreError(f"record {record_id!r} is not in the retrieval index; refresh() after adding it")
        domain, benchmark = self._index.where[record_id]
        block = self._index.blocks[domain][benchmark]
        row: FloatRows = np.array(block.matrix[block.row[record_id]], copy=True)
        return row

    # --- one decision --------------------------------------------------------------------------

    def embed_query(self, text: str) -> FloatRows:
        """The query vector for `text` (unit norm); callers may compute it once and reuse it.

        Under the `segmented` layout `text` is taken as a task part without a step part."""
        if self.segments is not None:
            return self.segments.query_vector(DecisionParts(task=text))
        row: FloatRows = normalize_rows(self.embedder.embed([text]))[0]
        return row

    def retrieve(self, query: RetrievalQuery) -> RetrievalResult:
        t_start = perf_counter()
        if self.auto_refresh:
            changed = self._changed()
            if changed is not None:
                self.refresh(changed)
        t_refreshed = perf_counter()
        vector = self._query_vector(query)
        t_embedded = perf_counter()
        pool = self._index.pool(query.domain, query.benchmark, self.scope)
        if pool is None:
            return RetrievalResult(
                candidates=(),
                n_pool=0,
                n_eligible=0,
                eligible_exact=True,
                any_eligible=False,
                conditions_evaluated=0,
                timings=_timings(t_start, t_refreshed, t_embedded, perf_counter(), perf_counter()),
            )
        ranking = self._ranking(pool, vector, query.text)
        t_ranked = perf_counter()
        holds: dict[int, bool] = {}
        chosen, n_eligible, exact, evaluated = self._choose(pool, ranking, query.facts, holds)
        if self.rank == "shuffled":
            chosen, ranking = self._shuffled(pool, chosen, query.text)
        sims = pool.exact_similarities(np.asarray(chosen, dtype=np.int64), vector)
        candidates = []
        for rank, position in enumerate(chosen):
            record = pool.record(position)
            group = int(pool.groups[position])
            held = holds.get(group)
            if held is None:
                held = self._holds(group, query.facts)
            candidates.append(
                RetrievedCandidate(
                    record=record,
                    similarity=float(np.clip(sims[rank], -1.0, 1.0)),
                    score=ranking.final_score(position),
                    rank=rank,
                    condition_specific=held and not self._index.universal[group],
                    condition_holds=held,
                    same_benchmark=record.benchmark == query.benchmark,
                )
            )
        t_end = perf_counter()
        return RetrievalResult(
            candidates=tuple(candidates),
            n_pool=pool.size,
            n_eligible=n_eligible,
            eligible_exact=exact,
            any_eligible=n_eligible > 0,
            conditions_evaluated=evaluated,
            timings=_timings(t_start, t_refreshed, t_embedded, t_ranked, t_end),
        )

    def _ranking(self, pool: _Pool, vector: FloatRows, text: str) -> _Ranking:
        if self.rank == "random":
            return _Ranking(_uniform(pool.keys, self._random_salt(text)), pool.keys, None)
        parts = [np.einsum("ij,j->i", block.matrix[: block.n], vector) for block in pool.blocks]
        scores = (parts[0] if len(parts) == 1 else np.concatenate(parts)).astype(np.float64)
        if self.gain_weight:
            scores += self.gain_weight * pool.gains
        gain_weight = self.gain_weight

        def exact(positions: _IntArray) -> _Scores:
            return pool.exact_similarities(positions, vector) + gain_weight * pool.gains[positions]

        return _Ranking(scores, pool.keys, exact)

    def _shuffled(self, pool: _Pool, offered: list[int], text: str) -> tuple[list[int], _Ranking]:
        """k pool positions outside `offered` (the similarity choice), in the seeded per-record order."""
        draw = _uniform(pool.keys, self._random_salt(text))
        mask = np.ones(pool.size, dtype=bool)
        mask[np.asarray(offered, dtype=np.int64)] = False
        ranking = _Ranking(draw, pool.keys, None)
        return (ranking.top(mask, self.k) if mask.any() else []), ranking

    def _query_vector(self, query: RetrievalQuery) -> FloatRows:
        if query.embedding is None:
            if self.segments is not None:
                return self.segments.query_vector(query.parts or DecisionParts(task=query.text))
            return self.embed_query(query.text)
        vector = np.asarray(query.embedding, dtype=np.float32).reshape(-1)
        if vector.shape != (self.embedder.dim,):
            raise ConfigError(
                f"query embedding has {vector.size} values but the {self.embedder.name} index has "
                f"{self.embedder.dim}; embed the query with the retriever's embedder (Retriever.embed_query)"
            )
        if not np.all(np.isfinite(vector)):
            raise ConfigError("query embedding holds NaN or infinite values; recompute it")
        unit: FloatRows = normalize_rows(vector)[0]
        return unit

    def _random_salt(self, text: str) -> int:
        digest = hashlib.blake2b(f"{self.seed}\x00{text}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "little")

    def _holds(self, group: int, facts: Facts) -> bool:
        return True if self._index.universal[group] else self._index.conditions[group].evaluate(facts)

    def _choose(
        self, pool: _Pool, ranking: _Ranking, facts: Facts, holds: dict[int, bool]
    ) -> tuple[list[int], int, bool, int]:
        """Positions of the chosen rows (best first), n_eligible, whether exact, conditions evaluated."""
        if not self.use_conditions:
            return ranking.top(None, self.k), pool.size, True, 0
        lazy = self.eligibility == "lazy" or (
            self.eligibility == "auto" and self._distinct_count(pool) > self.exact_limit
        )
        if lazy:
            found = self._lazy_scan(pool, ranking, facts, holds)
            if found is not None:
                return found, len(found), False, _evaluated(holds, self._index.universal)
        for group in pool.distinct_groups():
            if group not in holds:
                holds[group] = self._holds(group, facts)
        ok = np.zeros(len(self._index.conditions), dtype=bool)
        ok[list(holds)] = list(holds.values())
        eligible = ok[pool.groups]
        n_eligible = int(np.count_nonzero(eligible))
        chosen = ranking.top(eligible, self.k) if n_eligible else []
        return chosen, n_eligible, True, _evaluated(holds, self._index.universal)

    def _distinct_count(self, pool: _Pool) -> int:
        if len(pool.blocks) == 1:
            return len(pool.blocks[0].group_counts)
        return sum(len(block.group_counts) for block in pool.blocks)

    def _lazy_scan(
        self, pool: _Pool, ranking: _Ranking, facts: Facts, holds: dict[int, bool]
    ) -> list[int] | None:
        """The first k eligible rows in rank order among the top chunk, or None if the chunk has fewer."""
        chunk = min(pool.size, max(_LAZY_CHUNK, 16 * self.k))
        found: list[int] = []
        for position in ranking.top(None, chunk):
            group = int(pool.groups[position])
            held = holds.get(group)
            if held is None:
                held = holds[group] = self._holds(group, facts)
            if held:
                found.append(position)
                if len(found) == self.k:
                    return found
        return None


def _evaluated(holds: dict[int, bool], universal: list[bool]) -> int:
    return sum(1 for group in holds if not universal[group])


class _Ranking:
    """One decision's order over the pool.

    `scores` come from a float32 matrix-vector product, whose rounding (about 1e-7) depends on
    where a row sits in memory; two records with the same key text could then swap places between
    an index built incrementally and one built afresh. So the top of the order is decided on a
    shortlist, every row within `_TIE_TOLERANCE` of the k-th score, rescored in float64 row by row
    (`exact`); exact ties then go to the record's stable key.
    """

    def __init__(
        self, scores: _Scores, keys: _KeyArray, exact: Callable[[_IntArray], _Scores] | None
    ) -> None:
        self.scores = scores
        self.keys = keys
        self.exact = exact
        self._final: dict[int, float] = {}

    def final_score(self, position: int) -> float:
        return self._final.get(position, float(self.scores[position]))

    def top(self, mask: npt.NDArray[np.bool_] | None, k: int) -> list[int]:
        """Positions of the k best rows (among `mask`), best first."""
        candidates = np.flatnonzero(mask) if mask is not None else None
        values = self.scores if candidates is None else self.scores[candidates]
        if len(values) > k:
            kth = values[np.argpartition(-values, k - 1)[:k]].min()
            floor = kth - _TIE_TOLERANCE if self.exact is not None else kth
            short = np.flatnonzero(values >= floor)
        else:
            short = np.arange(len(values))
        positions = short if candidates is None else candidates[short]
        if self.exact is not None:
            final = self.exact(positions)
            self._final.update(zip(positions.tolist(), final.tolist(), strict=True))
        else:
            final = self.scores[positions]
        order = np.lexsort((self.keys[positions], -final))[:k]
        return [int(p) for p in positions[order]]


def _timings(start: float, refreshed: float, embedded: float, ranked: float, end: float) -> RetrievalTimings:
    ms = 1000.0
    return RetrievalTimings(
        refresh_ms=(refreshed - start) * ms,
        embed_ms=(embedded - refreshed) * ms,
        rank_ms=(ranked - embedded) * ms,
        filter_ms=(end - ranked) * ms,
        total_ms=(end - start) * ms,
    )
