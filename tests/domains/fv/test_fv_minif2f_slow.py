"""Every miniF2F proof we ship checks against its task (slow: one coqc run each, Reals included)."""

from __future__ import annotations

from collections import Counter

import pytest

from countermem.core import DataUnavailableError, Task
from countermem.domains import dataset_dir, load_benchmark
from countermem.domains.fv import CoqcLimits, CoqProblem, run_coqc
from required_tools import require_sandboxed_coqc


@pytest.mark.slow
@pytest.mark.usefixtures("coqc")
def test_all_shipped_minif2f_proofs_check() -> None:
    try:
        dataset_dir("minif2f_coq")
    except DataUnavailableError as error:
        pytest.skip(str(error))
    benchmark = load_benchmark("minif2f-coq")
    require_sandboxed_coqc()
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


@pytest.mark.slow
@pytest.mark.usefixtures("coqc")
def test_the_tactic_prelude_does_not_change_any_statement() -> None:
    """One task per import set (the first 15 sets by size): the fully printed statement type is the
    same with and without the lia/lra prelude."""
    try:
        dataset_dir("minif2f_coq")
    except DataUnavailableError as error:
        pytest.skip(str(error))
    benchmark = load_benchmark("minif2f-coq")
    by_environment: dict[str, Task] = {}
    for task in benchmark.tasks():
        by_environment.setdefault(task.environment or "", task)
    sizes = Counter(t.environment for t in benchmark.tasks())
    chosen = [by_environment[env] for env, _ in sizes.most_common(15) if env is not None]
    differences: list[str] = []
    for task in chosen:
        problem = CoqProblem.from_task(task)
        tail = f"\n{problem.statement}\nAdmitted.\nSet Printing All.\nCheck {problem.theorem}.\n"
        plain = run_coqc(problem.preamble + tail, CoqcLimits(timeout_s=60))
        with_prelude = run_coqc(problem.context + tail, CoqcLimits(timeout_s=60))
        assert plain.returncode == 0, plain.stderr
        assert with_prelude.returncode == 0, with_prelude.stderr
        if plain.stdout != with_prelude.stdout:
            differences.append(task.id)
    assert not differences, differences
