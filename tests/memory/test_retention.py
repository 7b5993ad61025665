import random
from datetime import UTC, datetime, timedelta

import pytest

from countermem.core import Action, CheckResult, ConfigError
from countermem.memory import (
    RETENTION_RULES,
    RandomRetention,
    RecencyRetention,
    Record,
    RecordSource,
    RedundancyIndex,
    ReuseCounters,
    SimilarityRetention,
    SQLiteStore,
    UtilityRetention,
    UtilityWeights,
    jaccard,
    make_retention,
    redundancy_of,
)
from countermem.memory._retention import record_tokens

T0 = datetime(2025, 1, 1, tzinfo=UTC)


def make(
    name: str,
    *,
    gain: float = 0.5,
    text: str | None = None,
    counters: ReuseCounters | None = None,
    minutes: int = 0,
    embedding: list[float] | None = None,
) -> Record:
    return Record(
        id=name,
        domain="sql",
        benchmark="spider",
        situation=text if text is not None else f"{name} alpha{name} beta{name} gamma{name}",
        original_action=Action(content=f"bad {name}"),
        improved_action=Action(content=f"good {name}"),
        original_check=CheckResult(utility=0.0, passed=False, completed=True, status="wrong"),
        improved_check=CheckResult(utility=gain, passed=gain == 1.0, completed=True, status="wrong"),
        source=RecordSource(task_id=name, benchmark="spider"),
        created_at=T0 + timedelta(minutes=minutes),
        counters=counters or ReuseCounters(),
        embedding=embedding,
    )


RNG = random.Random(0)


def test_utility_evicts_the_lowest_checked_gain() -> None:
    records = [make("a", gain=0.9), make("b", gain=0.2), make("c", gain=0.6)]
    victim = UtilityRetention().choose_victim(records, RNG)
    assert victim.record_id == "b"
    assert victim.reason == "lowest-utility"
    assert victim.scores["gain"] == pytest.approx(0.2)
    assert victim.scores["score"] == pytest.approx(0.2 - victim.scores["redundancy"])


def test_utility_counts_reuse_and_harm() -> None:
    helpful = make("helpful", gain=0.3, counters=ReuseCounters(retrieved=9, selected=4, succeeded=4))
    harmful = make("harmful", gain=0.6, counters=ReuseCounters(retrieved=9, selected=4, harmed=4))
    fresh = make("fresh", gain=0.5)
    victim = UtilityRetention().choose_victim([helpful, harmful, fresh], RNG)
    assert victim.record_id == "harmful"
    assert victim.scores["reuse"] == pytest.approx(-4 / 5)
    assert UtilityRetention(UtilityWeights(reuse=0.0)).choose_victim(
        [helpful, harmful, fresh], RNG
    ).record_id == ("fresh")


def test_utility_penalises_near_duplicates() -> None:
    shared = "users table plural name count rows select from where group order"
    dup1 = make("dup1", gain=0.5, text=shared + " one")
    dup2 = make("dup2", gain=0.5, text=shared + " two", minutes=1)
    distinct = make("distinct", gain=0.45, text="proof tactic induction lemma rewrite")
    victim = UtilityRetention().choose_victim([dup1, dup2, distinct], RNG)
    assert victim.record_id == "dup1"  # duplicates tie; the older one goes
    assert victim.scores["redundancy"] > 0.5
    no_redundancy = UtilityRetention(UtilityWeights(redundancy=0.0))
    assert no_redundancy.choose_victim([dup1, dup2, distinct], RNG).record_id == "distinct"


def test_similarity_evicts_the_weaker_of_the_closest_pair() -> None:
    shared = "users table plural name count rows select from where group order"
    strong = make("strong", gain=0.9, text=shared + " one")
    weak = make("weak", gain=0.4, text=shared + " two")
    other = make("other", gain=0.1, text="proof tactic induction lemma rewrite")
    victim = SimilarityRetention().choose_victim([strong, other, weak], RNG)
    assert victim.record_id == "weak"
    assert victim.reason == "most-redundant"
    assert victim.scores["redundancy"] == pytest.approx(
        redundancy_of([strong, other, weak])["weak"].similarity
    )


def test_recency_evicts_the_least_recently_touched() -> None:
    old_but_used = make(
        "old", minutes=0, counters=ReuseCounters(retrieved=1, last_used_at=T0 + timedelta(hours=5))
    )
    middle = make("middle", minutes=10)
    new = make("new", minutes=20)
    victim = RecencyRetention().choose_victim([old_but_used, middle, new], RNG)
    assert victim.record_id == "middle"
    assert victim.reason == "least-recent"


def test_random_is_seeded_and_uniform_enough() -> None:
    records = [make(str(i)) for i in range(5)]
    first = [RandomRetention().choose_victim(records, random.Random(s)).record_id for s in range(40)]
    again = [RandomRetention().choose_victim(records, random.Random(s)).record_id for s in range(40)]
    assert first == again
    assert len(set(first)) == 5


def test_cosine_replaces_jaccard_only_when_every_record_has_an_embedding() -> None:
    same_text = "identical words in every record"
    a = make("a", text=same_text, embedding=[1.0, 0.0, 0.0])
    b = make("b", text=same_text, embedding=[0.0, 1.0, 0.0])
    c = make("c", text=same_text, embedding=[0.0, 0.9, 0.1])
    with_vectors = redundancy_of([a, b, c])
    assert with_vectors["a"].similarity == pytest.approx(0.0)
    assert with_vectors["b"].nearest == "c"
    assert SimilarityRetention().choose_victim([a, b, c], RNG).record_id in {"b", "c"}
    d = make("d", text=same_text)
    mixed = redundancy_of([a, b, c, d])
    expected = jaccard(record_tokens(a), record_tokens(d))  # Jaccard for all, not cosine for some
    assert mixed["a"].similarity == pytest.approx(expected)
    assert expected > 0.5


def test_incremental_index_matches_a_fresh_one() -> None:
    rng = random.Random(3)
    words = [f"w{i}" for i in range(30)]
    pool = [make(f"r{i}", text=" ".join(rng.sample(words, 8))) for i in range(40)]
    index = RedundancyIndex()
    kept: dict[str, Record] = {}
    for record in pool:
        index.add(record)
        kept[record.id] = record
        if len(kept) > 12:
            gone = rng.choice(sorted(kept))
            index.remove(gone)
            del kept[gone]
        incremental = index.max_similarity()
        assert incremental.keys() == kept.keys()
        for key, value in incremental.items():
            others = [
                jaccard(record_tokens(kept[key]), record_tokens(r)) for k, r in kept.items() if k != key
            ]
            assert value.similarity == pytest.approx(max(others, default=0.0))
            if others:
                assert jaccard(record_tokens(kept[key]), record_tokens(kept[value.nearest or ""])) == max(
                    others
                )
    assert len(index) == len(kept)


def test_make_retention() -> None:
    assert {make_retention(name).name for name in RETENTION_RULES} == set(RETENTION_RULES)
    assert make_retention("utility", UtilityWeights(gain=2.0)) == UtilityRetention(UtilityWeights(gain=2.0))
    with pytest.raises(ConfigError, match="unknown retention rule"):
        make_retention("lru")
    with pytest.raises(ConfigError, match="only apply"):
        make_retention("random", UtilityWeights())


@pytest.mark.parametrize("rule", RETENTION_RULES)
def test_store_never_exceeds_capacity(rule: str) -> None:
    rng = random.Random(1)
    words = [f"w{i}" for i in range(50)]
    with SQLiteStore(capacity=10, retention=rule, seed=5) as store:
        evicted = 0
        for i in range(60):
            record = make(
                f"r{i:02d}", gain=rng.uniform(0.1, 1.0), text=" ".join(rng.sample(words, 10)), minutes=i
            )
            events = store.add(record)
            evicted += len(events)
            assert len(store) == min(i + 1, 10)
            assert all(e.rule == rule for e in events)
        assert evicted == 50
        assert len(store.evictions()) == 50
        assert store.stats().count == 10
        if rule == "recency":
            assert sorted(r.id for r in store.all()) == [f"r{i}" for i in range(50, 60)]
        if rule == "utility":
            kept_min = min(r.utility_gain for r in store.all())
            assert kept_min > sorted(e.scores["gain"] for e in store.evictions())[0]
