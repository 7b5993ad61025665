from collections.abc import Sequence

import numpy as np
import pytest

from countermem.core import Action, CheckResult, ConfigError, Facts, StoreError
from countermem.memory import (
    ApplicabilityCondition,
    Embedder,
    EmbedderUnavailableError,
    LexicalEmbedder,
    MiniLMEmbedder,
    Record,
    RecordSource,
    RetrievalQuery,
    RetrievalResult,
    Retriever,
    SQLiteStore,
    decision_text,
    record_key_text,
)

WRONG = CheckResult(utility=0.0, passed=False, completed=True, status="wrong")
RIGHT = CheckResult(utility=1.0, passed=True, completed=True, status="passed")
HALF = CheckResult(utility=0.5, passed=False, completed=True, status="wrong")

ORDERS = (
    "Question: how many orders did each customer place? Schema: customers(id, name), orders(id, customer_id)"
)
PROOF = "Goal: forall l : list nat, rev (rev l) = l. Tactic failed: induction on the wrong variable"
SAT = "Encode the pigeonhole problem with 5 pigeons and 4 holes as CNF clauses"

FACTS = Facts(values={"tables": ("customers", "orders"), "n_tables": 2, "dialect": "sqlite"})


def make(
    tag: str,
    situation: str,
    condition: str = "none",
    *,
    domain: str = "sql",
    benchmark: str = "spider",
    gain_from: CheckResult = WRONG,
    embedding: list[float] | None = None,
) -> Record:
    return Record(
        domain=domain,
        benchmark=benchmark,
        situation=situation,
        original_action=Action(content=f"SELECT {tag}"),
        improved_action=Action(content=f"SELECT {tag} FROM fixed"),
        original_check=gain_from,
        improved_check=RIGHT,
        condition=ApplicabilityCondition.from_text(condition),
        source=RecordSource(task_id=f"task-{tag}", benchmark=benchmark),
        embedding=embedding,
    )


def query(
    text: str = ORDERS, facts: Facts = FACTS, *, domain: str = "sql", benchmark: str = "spider"
) -> RetrievalQuery:
    return RetrievalQuery(text=text, facts=facts, domain=domain, benchmark=benchmark)


def ids(result: RetrievalResult) -> list[str]:
    return [c.record.id for c in result.candidates]


def test_a_record_whose_condition_is_false_is_never_returned() -> None:
    near_but_wrong = make("a", ORDERS, '"invoices" in tables')
    unknown_fact = make("b", ORDERS, "n_columns > 3")
    universal_far = make("c", PROOF)
    retriever = Retriever([near_but_wrong, unknown_fact, universal_far], LexicalEmbedder())
    result = retriever.retrieve(query())
    assert ids(result) == [universal_far.id]
    assert result.n_pool == 3
    assert result.n_eligible == 1
    assert result.eligible_exact
    assert result.any_eligible
    assert result.retrieval_tokens == 0
    assert not result.candidates[0].condition_specific
    assert result.candidates[0].condition_holds


def test_universal_and_true_conditions_are_returned_and_marked() -> None:
    specific = make("a", ORDERS, '"orders" in tables and n_tables >= 2')
    universal = make("b", ORDERS + " again")
    result = Retriever([specific, universal], LexicalEmbedder()).retrieve(query())
    by_id = {c.record.id: c for c in result.candidates}
    assert set(by_id) == {specific.id, universal.id}
    assert by_id[specific.id].condition_specific
    assert not by_id[universal.id].condition_specific


def test_no_eligible_record_means_no_candidates_but_a_pool() -> None:
    records = [make(str(i), ORDERS, f"n_tables > {10 + i}") for i in range(5)]
    result = Retriever(records, LexicalEmbedder()).retrieve(query())
    assert result.candidates == ()
    assert result.n_pool == 5
    assert result.n_eligible == 0
    assert not result.any_eligible


def test_at_most_three_best_first_with_ranks() -> None:
    records = [make(str(i), f"{ORDERS} variant {i}" if i < 4 else f"{PROOF} {i}") for i in range(10)]
    result = Retriever(records, LexicalEmbedder()).retrieve(query())
    assert len(result.candidates) == 3
    assert result.n_eligible == 10
    assert [c.rank for c in result.candidates] == [0, 1, 2]
    scores = [c.score for c in result.candidates]
    assert scores == sorted(scores, reverse=True)
    assert all(c.record.situation.startswith("Question") for c in result.candidates)
    assert all(-1.0 <= c.similarity <= 1.0 for c in result.candidates)


def test_k_is_configurable_and_must_be_positive() -> None:
    records = [make(str(i), f"{ORDERS} {i}") for i in range(5)]
    assert len(Retriever(records, LexicalEmbedder(), k=1).retrieve(query()).candidates) == 1
    with pytest.raises(ConfigError):
        Retriever(records, LexicalEmbedder(), k=0)


def _ranks_same_situation_first(embedder: Embedder) -> None:
    same = make("same", ORDERS)
    other_sql = make(
        "sql", "Question: list the names of all singers older than 30. Schema: singer(id, name, age)"
    )
    proof = make("proof", PROOF)
    retriever = Retriever([proof, other_sql, same], embedder)
    result = retriever.retrieve(
        query(
            decision_text("How many orders has each customer placed? Tables customers and orders", "SELECT 1")
        )
    )
    assert ids(result)[0] == same.id
    sims = {c.record.id: c.similarity for c in result.candidates}
    assert sims[same.id] > sims[proof.id]


def test_ranking_by_similarity_lexical() -> None:
    _ranks_same_situation_first(LexicalEmbedder())


@pytest.mark.slow
def test_ranking_by_similarity_minilm() -> None:
    try:
        embedder = MiniLMEmbedder()
    except EmbedderUnavailableError as error:
        pytest.skip(f"MiniLM embedder unavailable here: {error}")
    _ranks_same_situation_first(embedder)


def test_use_conditions_false_returns_the_filtered_record() -> None:
    filtered = make("a", ORDERS, '"invoices" in tables')
    far = make("b", PROOF)
    with_filter = Retriever([filtered, far], LexicalEmbedder()).retrieve(query())
    ablation = Retriever([filtered, far], LexicalEmbedder(), use_conditions=False).retrieve(query())
    assert filtered.id not in ids(with_filter)
    assert ids(ablation)[0] == filtered.id
    assert not ablation.candidates[0].condition_holds
    assert not ablation.candidates[0].condition_specific
    assert ablation.n_eligible == 2


def test_gain_breaks_near_ties_only() -> None:
    low_gain = make("low", ORDERS, gain_from=HALF)
    high_gain = make("high", ORDERS + " ", gain_from=WRONG)
    unrelated_high = make("far", PROOF, gain_from=WRONG)
    result = Retriever([low_gain, high_gain, unrelated_high], LexicalEmbedder()).retrieve(query())
    assert ids(result)[:2] == [high_gain.id, low_gain.id]
    assert result.candidates[0].similarity == pytest.approx(result.candidates[1].similarity)


def test_random_rank_is_seeded_and_still_filters() -> None:
    records = [make(str(i), f"{ORDERS} {i}") for i in range(30)]
    records.append(make("blocked", ORDERS, '"invoices" in tables'))
    texts = [f"decision {j}" for j in range(8)]

    def picks(seed: int, pool: Sequence[Record]) -> list[list[str]]:
        retriever = Retriever(pool, LexicalEmbedder(), rank="random", seed=seed)
        return [ids(retriever.retrieve(query(text))) for text in texts]

    first = picks(7, records)
    assert first == picks(7, records)
    assert first == picks(7, list(reversed(records)))  # independent of insertion order
    assert first != picks(8, records)
    assert len({tuple(p) for p in first}) > 1  # different decisions draw differently
    assert all(records[-1].id not in p and len(p) == 3 for p in first)
    similarity_pick = ids(Retriever(records, LexicalEmbedder()).retrieve(query(texts[0])))
    assert any(p != similarity_pick for p in first)


def test_scope_keeps_other_domains_out_and_benchmark_scope_narrows() -> None:
    spider = make("spider", ORDERS)
    bird = make("bird", ORDERS + " bird", benchmark="bird")
    coq = make("coq", ORDERS + " coq", domain="fv", benchmark="coq")
    records = [spider, bird, coq]
    domain_result = Retriever(records, LexicalEmbedder()).retrieve(query())
    assert set(ids(domain_result)) == {spider.id, bird.id}
    assert {c.record.id: c.same_benchmark for c in domain_result.candidates} == {
        spider.id: True,
        bird.id: False,
    }
    bench_result = Retriever(records, LexicalEmbedder(), scope="benchmark").retrieve(query())
    assert ids(bench_result) == [spider.id]
    assert bench_result.n_pool == 1
    empty = Retriever(records, LexicalEmbedder()).retrieve(query(domain="math", benchmark="gsm8k"))
    assert empty.candidates == ()
    assert empty.n_pool == 0


def test_each_distinct_condition_is_evaluated_once() -> None:
    conditions = ['"orders" in tables', "n_tables >= 2", "none", 'dialect == "postgres"']
    records = [make(str(i), f"{ORDERS} {i}", conditions[i % 4]) for i in range(40)]
    result = Retriever(records, LexicalEmbedder()).retrieve(query())
    assert result.conditions_evaluated == 3
    assert result.n_eligible == 30


def test_lazy_and_exact_eligibility_agree_on_candidates() -> None:
    rng = np.random.default_rng(0)
    records = []
    for i in range(300):
        bound = int(rng.integers(0, 6))
        condition = "none" if i % 50 == 0 else f"n_tables > {bound} and n_tables < {bound + 2}"
        records.append(make(str(i), f"{ORDERS} variant {i} {'x' * (i % 7)}", condition))
    texts = [ORDERS, PROOF, "customers orders variant 17", "nothing in common"]
    for facts in (FACTS, Facts(values={"n_tables": 9}), Facts(values={})):
        exact = Retriever(records, LexicalEmbedder(), eligibility="exact")
        lazy = Retriever(records, LexicalEmbedder(), eligibility="lazy")
        for text in texts:
            a, b = exact.retrieve(query(text, facts)), lazy.retrieve(query(text, facts))
            assert ids(a) == ids(b)
            assert a.any_eligible == b.any_eligible
            assert a.eligible_exact
            assert b.n_eligible_lower_bound <= a.n_eligible
            if not b.eligible_exact:
                assert b.n_eligible_lower_bound == 3
            else:
                assert b.n_eligible == a.n_eligible


def test_auto_eligibility_switches_to_lazy_beyond_the_limit() -> None:
    records = [make(str(i), f"{ORDERS} {i}", f"n_tables < {i + 3}") for i in range(20)]
    result = Retriever(records, LexicalEmbedder(), exact_limit=5).retrieve(query())
    assert not result.eligible_exact
    assert result.any_eligible
    assert Retriever(records, LexicalEmbedder()).retrieve(query()).eligible_exact


def test_record_embedding_of_the_right_width_is_used_and_other_widths_are_ignored() -> None:
    embedder = LexicalEmbedder()
    proof_vector = embedder.embed([PROOF])[0]
    disguised = make("disguised", ORDERS, embedding=[float(v) * 3 for v in proof_vector])
    wrong_width = make("wide", PROOF, embedding=[1.0, 0.0, 0.0])
    retriever = Retriever([disguised, wrong_width], embedder)
    np.testing.assert_allclose(retriever.key_embedding(disguised.id), proof_vector, atol=1e-6)
    np.testing.assert_allclose(
        retriever.key_embedding(wrong_width.id), embedder.embed([record_key_text(wrong_width)])[0], atol=1e-6
    )
    assert retriever.refresh().embedded == 0
    ignoring = Retriever([disguised], embedder, use_record_embeddings=False)
    assert not np.allclose(ignoring.key_embedding(disguised.id), proof_vector)


def test_query_embedding_is_used_and_checked() -> None:
    embedder = LexicalEmbedder()
    orders, proof = make("orders", ORDERS), make("proof", PROOF)
    retriever = Retriever([orders, proof], embedder)
    given = RetrievalQuery(
        text=ORDERS, facts=FACTS, domain="sql", benchmark="spider", embedding=embedder.embed([PROOF])[0]
    )
    assert ids(retriever.retrieve(given))[0] == proof.id
    bad = RetrievalQuery(text=ORDERS, facts=FACTS, domain="sql", benchmark="spider", embedding=[0.1, 0.2])
    with pytest.raises(ConfigError, match="embed_query"):
        retriever.retrieve(bad)


def _records_for_store(n: int) -> list[Record]:
    conditions = ["none", '"orders" in tables', "n_tables >= 3", 'not "invoices" in tables']
    topics = [ORDERS, PROOF, SAT, "Question: which singers are older than 30? Schema: singer(id, name, age)"]
    return [make(str(i), f"{topics[i % 4]} case {i}", conditions[i % 3 + (i % 5 == 0)]) for i in range(n)]


def _assert_same_results(a: Retriever, b: Retriever, texts: list[str], facts: Facts) -> None:
    for text in texts:
        ra, rb = a.retrieve(query(text, facts)), b.retrieve(query(text, facts))
        assert ids(ra) == ids(rb)
        assert [c.similarity for c in ra.candidates] == pytest.approx([c.similarity for c in rb.candidates])
        assert (ra.n_pool, ra.n_eligible) == (rb.n_pool, rb.n_eligible)
        assert [c.record for c in ra.candidates] == [c.record for c in rb.candidates]


def test_incremental_index_matches_a_fresh_rebuild() -> None:
    embedder = LexicalEmbedder()
    texts = [ORDERS, PROOF, SAT, "case 17", "singers older"]
    facts = Facts(values={"tables": ("orders",), "n_tables": 4})
    with SQLiteStore(capacity=25, retention="recency") as store:
        records = _records_for_store(60)
        for record in records[:10]:
            store.add(record)
        retriever = Retriever(store, embedder)
        assert len(retriever) == 10
        for record in records[10:]:
            store.add(record)  # evicts once over 25
            retriever.refresh()
        kept = store.all()
        store.update_counters(kept[0].id, retrieved=1, selected=1)
        store.revise(kept[1].id, condition=ApplicabilityCondition.from_text('"invoices" in tables'))
        store.revise(kept[2].id, situation=PROOF + " revised")
        store.evict(kept[3].id, "test")
        report = retriever.refresh()
        assert (report.removed, report.updated) == (1, 1)
        assert report.added == report.embedded == 2  # the changed condition and the changed situation
        assert len(retriever) == len(store) == 24
        fresh = Retriever(store.all(), embedder)
        _assert_same_results(retriever, fresh, texts, facts)
        for record in store.all():
            np.testing.assert_allclose(
                retriever.key_embedding(record.id), fresh.key_embedding(record.id), atol=1e-6
            )
        assert retriever.retrieve(query(PROOF, facts)).candidates[0].record.version >= 1


def test_auto_refresh_follows_the_store_and_can_be_switched_off() -> None:
    with SQLiteStore(capacity=10) as store:
        store.add(make("far", PROOF))
        following = Retriever(store, LexicalEmbedder())
        frozen = Retriever(store, LexicalEmbedder(), auto_refresh=False)
        near = make("near", ORDERS)
        store.add(near)
        assert ids(following.retrieve(query()))[0] == near.id
        assert near.id not in ids(frozen.retrieve(query()))
        frozen.refresh()
        assert ids(frozen.retrieve(query()))[0] == near.id
        updated = store.update_counters(near.id, selected=1)
        assert following.retrieve(query()).candidates[0].record is updated


def test_duplicate_ids_and_unknown_modes_are_refused() -> None:
    record = make("a", ORDERS)
    with pytest.raises(StoreError, match="twice"):
        Retriever([record, record], LexicalEmbedder())
    with pytest.raises(ConfigError):
        Retriever([record], LexicalEmbedder(), rank="best")  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        Retriever([record], LexicalEmbedder(), scope="everything")  # type: ignore[arg-type]
    with pytest.raises(StoreError, match="refresh"):
        Retriever([record], LexicalEmbedder()).key_embedding("r-missing")


def test_decision_text_lays_out_like_record_keys() -> None:
    record = make("a", ORDERS)
    assert decision_text(ORDERS, "SELECT a") == record_key_text(record)
    assert decision_text("s", None, "error") == "s\nerror"
    q = RetrievalQuery.for_decision(
        situation="s", facts=FACTS, domain="sql", benchmark="spider", last_action="x"
    )
    assert q.text == "s\nx"
