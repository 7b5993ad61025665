"""rank="shuffled": valid records reaching the wrong decision (never the similarity top-k)."""

import pytest

from countermem.core import Action, CheckResult, ConfigError, Facts
from countermem.memory import (
    ApplicabilityCondition,
    LexicalEmbedder,
    Record,
    RecordSource,
    RetrievalQuery,
    RetrievalResult,
    Retriever,
)

WRONG = CheckResult(utility=0.0, passed=False, completed=True, status="wrong")
RIGHT = CheckResult(utility=1.0, passed=True, completed=True, status="passed")
FACTS = Facts(values={"n_tables": 2})
TOPICS = [
    "customers orders count join group by customer",
    "orders total price sum per customer",
    "employees salary average by department",
    "students courses enrolment count",
    "flights airports departures delayed",
    "songs artists albums release year",
    "cars makers horsepower maximum",
    "pets owners age minimum",
    "concerts stadiums capacity",
    "teachers classes schedule weekday",
]


def make(i: int, condition: str = "none", domain: str = "sql") -> Record:
    return Record(
        domain=domain, benchmark="spider", situation=f"Question about {TOPICS[i % len(TOPICS)]} #{i}",
        original_action=Action(content=f"SELECT c{i}"), improved_action=Action(content=f"SELECT c{i} FROM t"),
        original_check=WRONG, improved_check=RIGHT, condition=ApplicabilityCondition.from_text(condition),
        source=RecordSource(task_id=f"task-{i}", benchmark="spider"),
    )


def query(text: str) -> RetrievalQuery:
    return RetrievalQuery(text=text, facts=FACTS, domain="sql", benchmark="spider")


def ids(result: RetrievalResult) -> list[str]:
    return [c.record.id for c in result.candidates]


def test_shuffled_never_offers_the_similarity_top_k_and_offers_k() -> None:
    records = [make(i) for i in range(10)]
    embedder = LexicalEmbedder()
    for text in TOPICS:
        q = query(f"Question about {text}")
        top = set(ids(Retriever(records, embedder, k=3).retrieve(q)))
        shuffled = Retriever(records, embedder, k=3, rank="shuffled", seed=1).retrieve(q)
        assert len(top) == 3 and len(shuffled.candidates) == 3
        assert not top & set(ids(shuffled))
        assert [c.rank for c in shuffled.candidates] == [0, 1, 2]


def test_shuffled_is_reproducible_order_independent_and_seeded() -> None:
    records = [make(i) for i in range(10)]
    embedder = LexicalEmbedder()
    q = query("Question about songs artists albums")
    first = ids(Retriever(records, embedder, rank="shuffled", seed=3).retrieve(q))
    again = ids(Retriever(list(reversed(records)), embedder, rank="shuffled", seed=3).retrieve(q))
    assert first == again
    draws = {tuple(ids(Retriever(records, embedder, rank="shuffled", seed=s).retrieve(q))) for s in range(8)}
    assert len(draws) > 1, "the seed must change the draw"
    texts = {tuple(ids(Retriever(records, embedder, rank="shuffled").retrieve(query(f"Question {t}"))))
             for t in TOPICS}
    assert len(texts) > 1, "the query text must change the draw"


def test_shuffled_ignores_conditions_for_eligibility_but_reports_them() -> None:
    records = [make(i, condition="n_tables > 5") for i in range(6)] + [make(6)]
    result = Retriever(records, LexicalEmbedder(), k=3, rank="shuffled").retrieve(query("Question about cars"))
    assert result.n_eligible == 1
    assert make(6).id not in ids(result), "the one eligible record is the similarity top-1"
    assert len(result.candidates) == 3
    assert all(not c.condition_holds and not c.condition_specific for c in result.candidates)


def test_shuffled_offers_nothing_when_the_pool_is_the_top_k() -> None:
    records = [make(i) for i in range(3)] + [make(9, domain="fv")]
    result = Retriever(records, LexicalEmbedder(), k=3, rank="shuffled").retrieve(query("Question"))
    assert result.candidates == ()


def test_unknown_rank_names_shuffled() -> None:
    with pytest.raises(ConfigError, match="shuffled"):
        Retriever([], LexicalEmbedder(), rank="nearest")  # type: ignore[arg-type]
