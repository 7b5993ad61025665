"""Retrieval ranked on the Postgres server, so that a store of 100,000 records is never loaded.

The steps are `Retriever`'s (pool, condition filter, similarity rank with the small gain
tie-break), done where the data is:

1. Keys: every live record's key embedding (`record_key_text`, or `record.embedding` when it has
   the embedder's width) is stored once in `record_keys`; `refresh` embeds only records with no
   key yet, and only when records came, went or were revised (not when only counters moved).
2. Condition prefilter: the pool's distinct conditions come from one grouped query; each is
   evaluated here on the decision's facts (conditions are countermem's language, not SQL) and
   the eligible ones go back to the server as `condition = ANY(...)`.
3. Rank: with pgvector, an HNSW index per embedder and `hnsw.iterative_scan = relaxed_order`,
   so a filter that rejects most neighbours still returns `k` rows; the result is approximate
   (HNSW), as any ANN index is. Without pgvector the eligible keys are fetched and ranked here,
   exactly. In both, `k + overfetch` rows come back and the gain tie-break and stable id order
   are applied here, as in `Retriever`.

Only `rank="similarity"` with conditions on runs on the server; `make_retriever` gives the
in-memory `Retriever` for the other modes, for SQLite stores, and for a Postgres store opened
read-only (the keys are written by the retriever, and a read-only store writes nothing).
"""

from __future__ import annotations

from time import perf_counter

import numpy as np

from countermem.core import Facts, StoreError
from countermem.memory._embedding import Embedder
from countermem.memory._pgstore import PostgresStore
from countermem.memory._record import ApplicabilityCondition
from countermem.memory._retrieval import (
    DEFAULT_GAIN_WEIGHT,
    DEFAULT_K,
    RankMode,
    RefreshReport,
    RetrievalQuery,
    RetrievalResult,
    RetrievalScope,
    RetrievedCandidate,
    Retriever,
    _stable_key,
    _timings,
)
from countermem.memory._scope import ScopeAccess
from countermem.memory._segmented import DEFAULT_TASK_WEIGHT, EmbedLayout
from countermem.memory._store import SQLiteStore

DEFAULT_OVERFETCH = 16
_KEY_BATCH = 512


class ServerRetriever(Retriever):
    """`Retriever` over a `PostgresStore`, ranking on the server (see the module docstring)."""

    def __init__(
        self,
        store: PostgresStore,
        embedder: Embedder,
        *,
        k: int = DEFAULT_K,
        scope: RetrievalScope = "domain",
        gain_weight: float = DEFAULT_GAIN_WEIGHT,
        auto_refresh: bool = True,
        use_record_embeddings: bool = True,
        overfetch: int = DEFAULT_OVERFETCH,
    ) -> None:
        self.store = store
        self.overfetch = max(0, overfetch)
        self._seen_change: int | None = None
        self._pools: dict[tuple[str, str | None], dict[str, int]] = {}
        self._conditions: dict[str, ApplicabilityCondition] = {}
        super().__init__(
            [],
            embedder,
            k=k,
            scope=scope,
            gain_weight=gain_weight,
            auto_refresh=auto_refresh,
            use_record_embeddings=use_record_embeddings,
        )

    def __len__(self) -> int:
        return sum(sum(pool.values()) for pool in self._pools.values())

    def refresh(self, records: object = None) -> RefreshReport:
        """Embed and store the keys of records that have none (only when records came, went or changed)."""
        start = perf_counter()
        change = self.store.key_change_number()
        if change == self._seen_change:
            return RefreshReport()
        missing = self.store.ids_without_key(self.embedder.name)
        added = embedded = 0
        for first in range(0, len(missing), _KEY_BATCH):
            found = self.store.get_many(missing[first : first + _KEY_BATCH])
            batch = list(found.values())
            vectors, computed = self._key_vectors(batch)
            self.store.put_keys(self.embedder.name, batch, vectors)
            added += len(batch)
            embedded += computed
        self.store.ensure_key_index(self.embedder.name, self.embedder.dim)
        self._pools.clear()
        self._seen_change = change
        return RefreshReport(added=added, embedded=embedded, seconds=perf_counter() - start)

    def _holds_text(self, canonical: str, facts: Facts) -> tuple[bool, bool]:
        """(whether the condition holds here, whether it is universal)."""
        condition = self._conditions.get(canonical)
        if condition is None:
            condition = self._conditions[canonical] = ApplicabilityCondition(source=canonical)
        universal = condition.is_universal
        return (True if universal else bool(condition.parsed.evaluate(facts))), universal

    def retrieve(self, query: RetrievalQuery) -> RetrievalResult:
        t_start = perf_counter()
        if self.auto_refresh:
            self.refresh()
        t_refreshed = perf_counter()
        vector = self._query_vector(query)
        t_embedded = perf_counter()
        benchmark = query.benchmark if self.scope == "benchmark" else None
        key = (query.domain, benchmark)
        pool = self._pools.get(key)
        if pool is None:
            pool = self._pools[key] = self.store.key_conditions(self.embedder.name, query.domain, benchmark)
        verdicts = {canonical: self._holds_text(canonical, query.facts) for canonical in pool}
        eligible = [canonical for canonical, (held, _) in verdicts.items() if held]
        n_eligible = sum(pool[c] for c in eligible)
        rows = (
            self.store.nearest_keys(
                self.embedder.name,
                vector,
                domain=query.domain,
                benchmark=benchmark,
                conditions=eligible,
                limit=self.k + self.overfetch,
                gain_weight=self.gain_weight,
            )
            if eligible
            else []
        )
        t_ranked = perf_counter()
        scored = sorted(
            ((sim + self.gain_weight * gain, sim, record_id) for record_id, sim, gain in rows),
            key=lambda row: (-row[0], _stable_key(row[2])),
        )
        ranked = [record_id for _, _, record_id in scored]
        records = self.store.get_many(ranked[: self.k])  # the rest only when one was evicted meanwhile
        if len(records) < self.k < len(ranked):
            records.update(self.store.get_many(ranked[self.k :]))
        candidates: list[RetrievedCandidate] = []
        for score, sim, record_id in scored:
            record = records.get(record_id)
            if record is None:  # evicted by another writer since the ranking
                continue
            held, universal = verdicts.get(record.condition.canonical) or self._holds_text(
                record.condition.canonical, query.facts
            )
            candidates.append(
                RetrievedCandidate(
                    record=record,
                    similarity=float(np.clip(sim, -1.0, 1.0)),
                    score=score,
                    rank=len(candidates),
                    condition_specific=held and not universal,
                    condition_holds=held,
                    same_benchmark=record.benchmark == query.benchmark,
                )
            )
            if len(candidates) == self.k:
                break
        t_end = perf_counter()
        return RetrievalResult(
            candidates=tuple(candidates),
            n_pool=sum(pool.values()),
            n_eligible=n_eligible,
            eligible_exact=True,
            any_eligible=n_eligible > 0,
            conditions_evaluated=len(verdicts),
            timings=_timings(t_start, t_refreshed, t_embedded, t_ranked, t_end),
        )


def make_retriever(
    store: SQLiteStore | PostgresStore,
    embedder: Embedder,
    *,
    k: int = DEFAULT_K,
    scope: RetrievalScope = "domain",
    rank: RankMode = "similarity",
    use_conditions: bool = True,
    access: ScopeAccess | None = None,
    embed_layout: EmbedLayout = "full",
    task_weight: float = DEFAULT_TASK_WEIGHT,
) -> Retriever:
    """The retriever for a store: on the server for a Postgres store in the plain mode, else in memory.

    With `access`, only records of the scopes it may read are offered; a Postgres store must then
    have been opened with the same access (its queries carry the scope filter). The server holds
    keys of the `full` layout only, so the `segmented` layout ranks in memory."""
    server_ranks = rank == "similarity" and use_conditions and embed_layout == "full"
    if isinstance(store, PostgresStore) and not store.read_only and server_ranks:
        if access is not None and store.access != access:
            raise StoreError(
                f"the Postgres store was opened for {store.access.describe() if store.access else 'every scope'}, "
                f"not {access.describe()}; open it with access=... to retrieve for that reader"
            )
        return ServerRetriever(store, embedder, k=k, scope=scope)
    return Retriever(
        store, embedder, k=k, scope=scope, rank=rank, use_conditions=use_conditions, access=access,
        embed_layout=embed_layout, task_weight=task_weight,
    )
