import pytest

from countermem.core import ConfigError, Task
from countermem.domains import BENCHMARKS, DOMAINS, benchmark_names, load_benchmark, split_tasks


def _tasks(n: int, envs: int) -> list[Task]:
    return [Task(id=f"t{i}", benchmark="b", domain="d", prompt="p", environment=f"e{i % envs}") for i in range(n)]


def test_splits_are_disjoint_deterministic_and_cover_everything() -> None:
    tasks = _tasks(200, 20)
    a = split_tasks(tasks, seed=3)
    b = split_tasks(tasks, seed=3)
    assert a == b
    ids = [t.id for t in a.construct + a.train + a.heldout]
    assert sorted(ids) == sorted(t.id for t in tasks) and len(set(ids)) == len(ids)
    envs = [{t.environment for t in part} for part in (a.construct, a.train, a.heldout)]
    assert not (envs[0] & envs[1]) and not (envs[0] & envs[2]) and not (envs[1] & envs[2])
    assert a != split_tasks(tasks, seed=4)
    assert abs(len(a.construct) - 80) <= 10 and abs(len(a.heldout) - 80) <= 10


def test_split_by_task_mixes_environments() -> None:
    s = split_tasks(_tasks(100, 2), seed=0, by_environment=False)
    assert {t.environment for t in s.construct} == {t.environment for t in s.heldout} == {"e0", "e1"}


def test_bad_fractions_and_names() -> None:
    with pytest.raises(ConfigError):
        split_tasks(_tasks(10, 2), seed=0, fractions=(0.5, 0.5, 0.5))
    with pytest.raises(ConfigError):
        split_tasks(_tasks(10, 2), seed=0).by_name("test")


def test_registry_names_twelve_benchmarks_in_six_domains() -> None:
    assert len(BENCHMARKS) == 12 and len(benchmark_names()) == 12
    assert {e.domain for e in BENCHMARKS} == set(DOMAINS) and len(DOMAINS) == 6
    assert all(len(benchmark_names(d)) == 2 for d in DOMAINS)
    with pytest.raises(ConfigError, match="unknown benchmark"):
        load_benchmark("nope")


def test_coarse_environments_still_fill_every_split() -> None:
    tasks = [
        Task(id=f"{env}-{i}", benchmark="b", domain="d", prompt="p", environment=env)
        for env, n in (("a", 800), ("b", 800), ("c", 800), ("d", 80))
        for i in range(n)
    ]
    for seed in range(5):
        counts = split_tasks(tasks, seed=seed).counts()
        assert all(value >= 80 for value in counts.values()), counts
