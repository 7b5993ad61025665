"""Every miniF2F proof we ship checks against its task (slow: one coqc run each, Reals included)."""

from __future__ import annotations

import pytest

from countermem.core import DataUnavailableError
from countermem.domains import dataset_dir, load_benchmark
from countermem.domains.fv import coqc_path


@pytest.mark.slow
@pytest.mark.skipif(coqc_path() is None, reason="coqc is not installed (apt-get install coq)")
def test_all_shipped_minif2f_proofs_check() -> None:
    try:
        dataset_dir("minif2f_coq")
    except DataUnavailableError as error:
        pytest.skip(str(error))
    benchmark = load_benchmark("minif2f-coq")
    availability = benchmark.availability()
    if not availability.available:
        pytest.skip(availability.reason)
    proved = [t for t in benchmark.tasks() if t.gold is not None]
    assert len(proved) >= 5
    world = benchmark.world_model()
    failures: list[str] = []
    for task in proved:
        world.reset(task)
        result = world.check(benchmark.gold_action(task))
        if not result.passed:
            failures.append(f"{task.id}: {result.details}")
        if world.check(benchmark.wrong_action(task)).passed:
            failures.append(f"wrong action passed on {task.id}")
    assert not failures, "\n".join(failures)
