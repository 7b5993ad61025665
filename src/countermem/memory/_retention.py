"""Retention rules: which record leaves when a scope of the store is over capacity.

Every rule sees the same candidates (the kept records plus the one being admitted) and the same
capacity, so that comparing rules compares only what they keep. Each returns the victim's id, a
short categorical reason (what the eviction log groups by) and the scores it decided on.

- `utility` (default) scores a record as
  ``gain_weight * utility_gain + reuse_weight * (succeeded - harmed) / (selected + 1)
  + frequency_weight * log1p(selected) - redundancy_weight * redundancy`` and evicts the lowest:
  checked gain is what the record proved, reuse is what it did for later tasks, frequency rewards
  records the selector keeps choosing, and redundancy (its highest similarity to another candidate)
  penalises near-duplicates that crowd out coverage. Weights default to 1 except frequency, 0.25:
  with equal weights a record that harmed on each of its 4 selections (reuse -0.8, frequency +1.6)
  would outscore an unused record of the same gain. At 0.25 a record that harmed every time stays
  below an unused one until about 50 selections; the selector should have stopped picking it by then.
- `similarity` evicts the most redundant record (of the closest pair, the one with lower gain).
- `recency` evicts the least recently used record (never used: its creation time).
- `random` evicts a uniformly drawn record with the seeded rng the store passes.

Ties go to the least recently touched record, then to the earlier candidate.

Capacity is per scope (issue 21): the candidates are only the records of the incoming record's
scope, and redundancy is measured only among them (`ScopedRedundancyIndex`), so that one tenant's
admissions can neither evict another tenant's records nor make them look redundant.
`plan_evictions` is that admission step, shared by every store backend so that they all evict
the same records with the same draws.

Similarity is cosine between embeddings when every candidate has one of the same size, otherwise
token Jaccard over situation + improved action, never a mix of both, since the two scales differ.
`RedundancyIndex` keeps the pairwise matrix up to date one record at a time, so that an admission
at capacity 200 costs one row, not a full recomputation; it holds an n x n matrix, which is why
rules that need it refuse stores larger than `MAX_REDUNDANCY_RECORDS`.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from countermem.core import ConfigError, StoreError
from countermem.memory._record import Record

MAX_REDUNDANCY_RECORDS = 20_000
_TOKEN = re.compile(r"\w+")
FloatMatrix = npt.NDArray[np.float64]


class Victim(NamedTuple):
    record_id: str
    reason: str
    scores: dict[str, float]


class Redundancy(NamedTuple):
    similarity: float
    nearest: str | None


@runtime_checkable
class RetentionRule(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def needs_redundancy(self) -> bool:
        """Whether `choose_victim` reads redundancy (the store then keeps a `RedundancyIndex`)."""
        ...

    def choose_victim(
        self,
        records: Sequence[Record],
        rng: random.Random,
        redundancy: Mapping[str, Redundancy] | None = None,
    ) -> Victim: ...


def record_tokens(record: Record) -> frozenset[str]:
    return frozenset(_TOKEN.findall((record.situation + "\n" + record.improved_action.content).lower()))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    shared = len(a & b)
    return shared / (len(a) + len(b) - shared)


class RedundancyIndex:
    """Pairwise similarities of a changing set of records, updated one row at a time.

    Token sets are kept as bit masks over a growing vocabulary (Python ints), so that one
    Jaccard is an AND and two popcounts; embeddings are kept as rows of one normalised matrix,
    so that a new record's cosines are one matrix-vector product. An embedding whose size
    differs from the first one seen counts as no embedding.
    """

    def __init__(self, records: Sequence[Record] = ()) -> None:
        self._slot: dict[str, int] = {}
        self._vocabulary: dict[str, int] = {}
        self._masks: list[int] = []
        self._sizes: list[int] = []
        self._embeddings: FloatMatrix | None = None
        self._has_vector = np.zeros(0, dtype=bool)
        self._jaccard: FloatMatrix = np.zeros((0, 0))
        self._cosine: FloatMatrix = np.zeros((0, 0))
        self._free: list[int] = []
        for record in records:
            self.add(record)

    def __len__(self) -> int:
        return len(self._slot)

    def __contains__(self, record_id: object) -> bool:
        return record_id in self._slot

    def add(self, record: Record) -> None:
        if record.id in self._slot:
            self.remove(record.id)
        if len(self._slot) >= MAX_REDUNDANCY_RECORDS:
            raise ConfigError(
                f"similarity-based retention keeps pairwise similarities and is limited to "
                f"{MAX_REDUNDANCY_RECORDS} records; use the recency or random rule for larger stores"
            )
        slot = self._free.pop() if self._free else self._grow()
        mask = self._mask(record_tokens(record))
        size = mask.bit_count()
        jac_row = np.zeros(len(self._masks))
        for other in self._slot.values():
            shared = (mask & self._masks[other]).bit_count()
            union = size + self._sizes[other] - shared
            jac_row[other] = shared / union if union else 1.0
        self._masks[slot] = mask
        self._sizes[slot] = size
        self._slot[record.id] = slot
        self._jaccard[slot, :] = jac_row
        self._jaccard[:, slot] = jac_row
        cos_row = np.full(len(self._masks), np.nan)
        vector = self._vector(record)
        if vector is not None and self._embeddings is not None:
            self._embeddings[slot] = vector
            self._has_vector[slot] = True
            cos_row = np.where(self._has_vector, self._embeddings @ vector, np.nan)
            cos_row[slot] = np.nan
        self._cosine[slot, :] = cos_row
        self._cosine[:, slot] = cos_row

    def _mask(self, tokens: frozenset[str]) -> int:
        mask = 0
        vocabulary = self._vocabulary
        for token in tokens:
            bit = vocabulary.get(token)
            if bit is None:
                bit = vocabulary[token] = len(vocabulary)
            mask |= 1 << bit
        return mask

    def _vector(self, record: Record) -> npt.NDArray[np.float64] | None:
        if record.embedding is None:
            return None
        raw = np.asarray(record.embedding, dtype=np.float64)
        if self._embeddings is None:
            self._embeddings = np.zeros((len(self._masks), raw.shape[0]))
        if raw.shape[0] != self._embeddings.shape[1]:
            return None
        norm = float(np.linalg.norm(raw))
        return raw / norm if norm > 0 else raw

    def remove(self, record_id: str) -> None:
        slot = self._slot.pop(record_id, None)
        if slot is None:
            return
        self._masks[slot] = 0
        self._sizes[slot] = 0
        self._has_vector[slot] = False
        self._free.append(slot)

    def _grow(self) -> int:
        size = len(self._masks)
        new_size = max(8, size * 2)
        for name in ("_jaccard", "_cosine"):
            grown = np.zeros((new_size, new_size))
            grown[:size, :size] = getattr(self, name)
            setattr(self, name, grown)
        if self._embeddings is not None:
            embeddings = np.zeros((new_size, self._embeddings.shape[1]))
            embeddings[:size] = self._embeddings
            self._embeddings = embeddings
        has_vector = np.zeros(new_size, dtype=bool)
        has_vector[:size] = self._has_vector
        self._has_vector = has_vector
        self._masks.extend([0] * (new_size - size))
        self._sizes.extend([0] * (new_size - size))
        self._free.extend(range(new_size - 1, size, -1))
        return size

    def uses_embeddings(self) -> bool:
        """Cosine only when every record has a (same-sized) embedding; never a mix of scales."""
        if not self._slot:
            return False
        slots = np.fromiter(self._slot.values(), dtype=np.int64, count=len(self._slot))
        return bool(self._has_vector[slots].all())

    def max_similarity(self) -> dict[str, Redundancy]:
        """Each record's highest similarity to another record, and which record that is."""
        ids = list(self._slot)
        if len(ids) < 2:
            return {record_id: Redundancy(0.0, None) for record_id in ids}
        slots = np.fromiter(self._slot.values(), dtype=np.int64, count=len(ids))
        matrix = (self._cosine if self.uses_embeddings() else self._jaccard)[np.ix_(slots, slots)]
        np.fill_diagonal(matrix, -np.inf)
        nearest = matrix.argmax(axis=1)
        best = matrix[np.arange(len(ids)), nearest].tolist()
        return {ids[i]: Redundancy(best[i], ids[n]) for i, n in enumerate(nearest.tolist())}


class ScopedRedundancyIndex:
    """One `RedundancyIndex` per scope: a record is compared only with records of its own scope.

    A store keeps this instead of one index over every record, so that the retention rule, which
    chooses among one scope's records, also scores them only against that scope; another scope's
    near-duplicates never lower a record's utility. With one scope it is exactly one index.
    """

    def __init__(self, records: Iterable[Record] = ()) -> None:
        self._indexes: dict[str, RedundancyIndex] = {}
        self._scope: dict[str, str] = {}
        for record in records:
            self.add(record)

    def __len__(self) -> int:
        return len(self._scope)

    def __contains__(self, record_id: object) -> bool:
        return record_id in self._scope

    def add(self, record: Record) -> None:
        previous = self._scope.get(record.id)
        if previous is not None and previous != record.scope:
            self.remove(record.id)
        index = self._indexes.get(record.scope)
        if index is None:
            index = self._indexes[record.scope] = RedundancyIndex()
        index.add(record)
        self._scope[record.id] = record.scope

    def remove(self, record_id: str) -> None:
        scope = self._scope.pop(record_id, None)
        if scope is not None:
            self._indexes[scope].remove(record_id)

    def scope(self, scope: str) -> RedundancyIndex:
        """The index of one scope (empty when the scope holds no record)."""
        index = self._indexes.get(scope)
        return index if index is not None else RedundancyIndex()

    def max_similarity(self, scope: str) -> dict[str, Redundancy]:
        """Each record of `scope`'s highest similarity to another record of `scope`."""
        return self.scope(scope).max_similarity()


def scope_pool(records: Iterable[Record], scope: str) -> list[Record]:
    """The live records of `scope`, in the order given: the ones that scope's capacity counts."""
    return [r for r in records if r.live and r.scope == scope]


class PlannedEviction(NamedTuple):
    record: Record
    victim: Victim


def plan_evictions(
    rule: RetentionRule,
    kept: Sequence[Record],
    incoming: Record,
    capacity: int,
    *,
    seed: int,
    evicted_before: int,
    index: ScopedRedundancyIndex | None = None,
) -> list[PlannedEviction]:
    """The records an admission of `incoming` evicts, in order, while its scope is over `capacity`.

    `kept` are the stored records; only the live ones of `incoming`'s scope are candidates (with
    `incoming` itself, last), so an admission never evicts another scope's record. The n-th
    eviction of the store draws from `random.Random(f"{seed}:{n}")` (`evicted_before` is how many
    the store logged so far), so a reopened store, or another backend, draws the same. `index`
    (when the rule needs redundancy) must already hold `incoming`; each victim is removed from it.
    """
    pool = [*scope_pool((r for r in kept if r.id != incoming.id), incoming.scope), incoming]
    planned: list[PlannedEviction] = []
    while len(pool) > capacity:
        rng = random.Random(f"{seed}:{evicted_before + len(planned)}")
        similar = index.max_similarity(incoming.scope) if index is not None else None
        victim = rule.choose_victim(pool, rng, similar)
        position = next((i for i, r in enumerate(pool) if r.id == victim.record_id), None)
        if position is None:
            raise StoreError(
                f"retention rule {rule.name} chose unknown record {victim.record_id}: not one of the "
                f"{len(pool)} candidates of scope {incoming.scope!r}; fix the rule"
            )
        record = pool.pop(position)
        planned.append(PlannedEviction(record, victim))
        if index is not None:
            index.remove(record.id)
    return planned


def redundancy_of(records: Sequence[Record]) -> dict[str, Redundancy]:
    return RedundancyIndex(records).max_similarity()


def _tie_key(record: Record, position: int) -> tuple[datetime, int]:
    return (record.counters.last_used_at or record.created_at, position)


@dataclass(frozen=True)
class UtilityWeights:
    gain: float = 1.0
    reuse: float = 1.0
    frequency: float = 0.25
    redundancy: float = 1.0


def utility_parts(record: Record, redundancy: float) -> dict[str, float]:
    counters = record.counters
    return {
        "gain": record.utility_gain,
        "reuse": (counters.succeeded - counters.harmed) / (counters.selected + 1),
        "frequency": math.log1p(counters.selected),
        "redundancy": redundancy,
    }


@dataclass(frozen=True)
class UtilityRetention:
    weights: UtilityWeights = UtilityWeights()
    name: str = "utility"
    needs_redundancy: bool = True

    def value(self, record: Record, redundancy: float) -> float:
        w, c = self.weights, record.counters
        return (
            w.gain * record.utility_gain
            + w.reuse * (c.succeeded - c.harmed) / (c.selected + 1)
            + w.frequency * math.log1p(c.selected)
            - w.redundancy * redundancy
        )

    def score(self, record: Record, redundancy: float) -> dict[str, float]:
        """The parts of the score and the score itself, as the eviction log keeps them."""
        return {**utility_parts(record, redundancy), "score": self.value(record, redundancy)}

    def choose_victim(
        self,
        records: Sequence[Record],
        rng: random.Random,
        redundancy: Mapping[str, Redundancy] | None = None,
    ) -> Victim:
        _require(records)
        similar = redundancy if redundancy is not None else redundancy_of(records)
        _, victim = min(
            ((self.value(r, similar[r.id].similarity), *_tie_key(r, i)), r) for i, r in enumerate(records)
        )
        return Victim(victim.id, "lowest-utility", self.score(victim, similar[victim.id].similarity))


@dataclass(frozen=True)
class SimilarityRetention:
    name: str = "similarity"
    needs_redundancy: bool = True

    def choose_victim(
        self,
        records: Sequence[Record],
        rng: random.Random,
        redundancy: Mapping[str, Redundancy] | None = None,
    ) -> Victim:
        _require(records)
        similar = redundancy if redundancy is not None else redundancy_of(records)
        _, record = min(
            enumerate(records),
            key=lambda item: (
                -similar[item[1].id].similarity,
                item[1].utility_gain,
                *_tie_key(item[1], item[0]),
            ),
        )
        scores = {"redundancy": similar[record.id].similarity, "gain": record.utility_gain}
        return Victim(record.id, "most-redundant", scores)


@dataclass(frozen=True)
class RecencyRetention:
    name: str = "recency"
    needs_redundancy: bool = False

    def choose_victim(
        self,
        records: Sequence[Record],
        rng: random.Random,
        redundancy: Mapping[str, Redundancy] | None = None,
    ) -> Victim:
        _require(records)
        _, record = min(enumerate(records), key=lambda item: _tie_key(item[1], item[0]))
        return Victim(record.id, "least-recent", {"last_touched": record.last_touched.timestamp()})


@dataclass(frozen=True)
class RandomRetention:
    name: str = "random"
    needs_redundancy: bool = False

    def choose_victim(
        self,
        records: Sequence[Record],
        rng: random.Random,
        redundancy: Mapping[str, Redundancy] | None = None,
    ) -> Victim:
        _require(records)
        index = rng.randrange(len(records))
        return Victim(records[index].id, "random", {"draw": float(index), "candidates": float(len(records))})


RETENTION_RULES = ("utility", "similarity", "recency", "random")


def make_retention(name: str, weights: UtilityWeights | None = None) -> RetentionRule:
    """The rule called `name`; `weights` only applies to `utility`."""
    if name == "utility":
        return UtilityRetention(weights or UtilityWeights())
    if weights is not None:
        raise ConfigError(f"retention weights only apply to the utility rule, not {name!r}")
    if name == "similarity":
        return SimilarityRetention()
    if name == "recency":
        return RecencyRetention()
    if name == "random":
        return RandomRetention()
    raise ConfigError(f"unknown retention rule {name!r}; choose one of {', '.join(RETENTION_RULES)}")


def _require(records: Sequence[Record]) -> None:
    if not records:
        raise ValueError("choose_victim needs at least one candidate record")
