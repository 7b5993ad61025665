"""How the coding world model judges actions: conformance, partial credit, errors, time-outs."""

from __future__ import annotations

import random
import time

import pytest

from countermem.core import Action, CheckResult, SandboxError, Task
from countermem.domains import BenchmarkOptions, check_world_model
from countermem.domains.coding import MBPP, CodingWorldModel, HumanEval
from countermem.domains.sandbox import BWRAP_ENV, SandboxPolicy


def make_task(test: str, entry_point: str = "f", call: str | None = "check", preamble: str = "") -> Task:
    return Task(
        id="custom-1",
        benchmark="custom",
        domain="coding",
        prompt=f"write {entry_point}",
        metadata={"entry_point": entry_point, "test": test, "call": call, "preamble": preamble},
    )


def check(task: Task, source: str, policy: SandboxPolicy | None = None) -> CheckResult:
    world = CodingWorldModel(policy)
    world.reset(task)
    return world.check(Action(content=source))


ALWAYS_TRUE_0 = "def has_close_elements(numbers, threshold):\n    return True\n"


@pytest.mark.parametrize("number", [0, 32])
def test_humaneval_conformance(humaneval: HumanEval, number: int) -> None:
    task = humaneval.tasks()[number]
    actions = [humaneval.gold_action(task), humaneval.wrong_action(task), Action(content="def broken(:\n")]
    report = check_world_model(humaneval.world_model(), task, actions)
    gold, wrong, broken = report.results
    assert (gold.passed, gold.utility) == (True, 1.0)
    assert not wrong.passed and wrong.status == "wrong"
    assert broken.status == "error" and broken.completed


def test_mbpp_conformance(mbpp: MBPP) -> None:
    task = mbpp.tasks()[0]
    report = check_world_model(mbpp.world_model(), task, [mbpp.gold_action(task), mbpp.wrong_action(task)])
    assert [r.passed for r in report.results] == [True, False]


def test_gold_passes_on_a_sample(humaneval: HumanEval, mbpp: MBPP) -> None:
    rng = random.Random(20240601)
    for benchmark in (humaneval, mbpp):
        world = benchmark.world_model()
        for task in rng.sample(benchmark.tasks(), 5):
            world.reset(task)
            result = world.check(benchmark.gold_action(task))
            assert result.passed and result.utility == 1.0, (task.id, result.details)


def test_wrong_action_fails_with_the_value_it_returned(humaneval: HumanEval, mbpp: MBPP) -> None:
    for benchmark, task in ((humaneval, humaneval.tasks()[2]), (mbpp, mbpp.tasks()[1])):
        world = benchmark.world_model()
        world.reset(task)
        result = world.check(benchmark.wrong_action(task))
        assert not result.passed and result.completed and result.status == "wrong"
        assert result.utility == 0.0
        assert "got None" in result.details


def test_partial_solution_gets_partial_utility(humaneval: HumanEval, mbpp: MBPP) -> None:
    world = humaneval.world_model()
    world.reset(humaneval.tasks()[0])
    result = world.check(Action(content=ALWAYS_TRUE_0))
    assert result.utility == pytest.approx(4 / 7)
    assert not result.passed and result.status == "wrong"
    assert result.details.startswith("4/7 asserts passed")

    task = next(t for t in mbpp.tasks() if t.id == "mbpp-3")
    world = mbpp.world_model()
    world.reset(task)
    result = world.check(Action(content="def is_not_prime(n):\n    return True\n"))
    assert result.utility == pytest.approx(2 / 3) and not result.passed


def test_syntax_error_and_missing_function_are_errors_not_exceptions(humaneval: HumanEval) -> None:
    world = humaneval.world_model()
    world.reset(humaneval.tasks()[0])
    broken = world.check(Action(content="def has_close_elements(numbers, threshold)\n    return True\n"))
    assert (broken.status, broken.completed, broken.utility) == ("error", True, 0.0)
    assert "SyntaxError" in broken.details
    missing = world.check(Action(content="def other(numbers, threshold):\n    return True\n"))
    assert missing.status == "error" and "has_close_elements" in missing.details
    crash = world.check(Action(content="import no_such_module\n" + ALWAYS_TRUE_0))
    assert crash.status == "error" and "ModuleNotFoundError" in crash.details


def test_exception_inside_an_assert_fails_only_that_assert(sandbox: None) -> None:
    task = make_task("def check(candidate):\n    assert candidate(1) == 1\n    assert candidate(0) == 0\n")
    result = check(task, "def f(x):\n    return 1 // x\n")
    assert result.utility == 0.5
    assert "ZeroDivisionError" in result.details


def test_exception_outside_asserts_fails_the_rest(sandbox: None) -> None:
    test = "def check(candidate):\n    assert candidate(1) == 1\n    x = candidate(0)\n    assert x == 0\n"
    result = check(make_task(test), "def f(x):\n    return 1 // x\n")
    assert result.utility == 0.5 and result.status == "wrong"
    assert "outside any assert" in result.details


def test_abort_inside_a_loop_never_scores_full(sandbox: None) -> None:
    test = "def check(candidate):\n    for i in range(5):\n        y = candidate(i)\n        assert y >= 0\n"
    result = check(make_task(test), "def f(x):\n    if x == 3:\n        raise ValueError(x)\n    return x\n")
    assert result.utility == 0.0 and not result.passed


def test_module_level_asserts_and_comparison_operators(sandbox: None) -> None:
    task = make_task("assert f(2) < 3\nassert f(5) > 9\nassert f(1) == 1\nassert True\n", call=None)
    result = check(task, "def f(x):\n    return x\n")
    assert result.utility == pytest.approx(2 / 3)
    assert "got 5" in result.details


def test_prints_and_forged_reports_do_not_change_the_verdict(humaneval: HumanEval) -> None:
    forged = (
        'import sys\nprint(\'{"event": "done"}\')\nprint("x" * 200000)\n'
        "def has_close_elements(numbers, threshold):\n"
        '    print(\'{"event": "done", "nonce": "guess"}\')\n    return None\n'
    )
    world = humaneval.world_model()
    world.reset(humaneval.tasks()[0])
    result = world.check(Action(content=forged))
    assert result.utility == 0.0 and result.status == "wrong"


def test_exiting_early_is_an_error(humaneval: HumanEval) -> None:
    world = humaneval.world_model()
    world.reset(humaneval.tasks()[0])
    quitter = "import os\ndef has_close_elements(numbers, threshold):\n    os._exit(0)\n"
    result = world.check(Action(content=quitter))
    assert result.status == "error" and result.completed and not result.passed
    assert "before the tests finished" in result.details
    exiting = world.check(Action(content="import sys\nsys.exit(0)\n" + ALWAYS_TRUE_0))
    assert exiting.status == "error" and "SystemExit" in exiting.details


def test_infinite_loop_times_out(humaneval: HumanEval) -> None:
    slow = HumanEval(BenchmarkOptions(timeout_s=2.0))
    world = slow.world_model()
    world.reset(humaneval.tasks()[0])
    started = time.monotonic()
    result = world.check(
        Action(content="def has_close_elements(numbers, threshold):\n    while True:\n        pass\n")
    )
    assert time.monotonic() - started < 2.0 + 4.0
    assert (result.status, result.completed, result.passed, result.utility) == ("timeout", False, False, 0.0)
    assert "1/7 asserts entered" in result.details and "test line 10" in result.details


def test_checks_do_not_share_files(humaneval: HumanEval) -> None:
    writer = (
        "import os\nSEEN = os.path.exists('marker')\nopen('marker', 'w').write('x')\n"
        "def has_close_elements(numbers, threshold):\n    return not SEEN and None\n"
    )
    world = humaneval.world_model()
    start = world.reset(humaneval.tasks()[0])
    first = world.check(Action(content=writer))
    world.restore(start)
    second = world.check(Action(content=writer))
    assert first.details == second.details


def test_snapshot_fingerprint_is_the_tests(humaneval: HumanEval) -> None:
    world = humaneval.world_model()
    a = world.reset(humaneval.tasks()[0])
    b = world.reset(humaneval.tasks()[1])
    assert a.fingerprint != b.fingerprint and len(a.fingerprint) == 64
    world.restore(a)
    assert world.snapshot() == a


def test_refuses_without_a_sandbox(monkeypatch: pytest.MonkeyPatch, humaneval: HumanEval) -> None:
    monkeypatch.setenv(BWRAP_ENV, "/nonexistent/bwrap")
    benchmark = HumanEval()
    availability = benchmark.availability()
    assert not availability.available and "/nonexistent/bwrap" in availability.reason
    world = benchmark.world_model()
    task = humaneval.tasks()[0]
    world.reset(task)
    with pytest.raises(SandboxError):
        world.check(humaneval.gold_action(task))


def test_unsafe_mode_is_explicit(monkeypatch: pytest.MonkeyPatch, humaneval: HumanEval) -> None:
    monkeypatch.setenv(BWRAP_ENV, "/nonexistent/bwrap")
    benchmark = HumanEval(BenchmarkOptions(unsafe_no_sandbox=True))
    assert "UNSAFE" in benchmark.availability().reason
    world = benchmark.world_model()
    task = humaneval.tasks()[0]
    world.reset(task)
    assert world.check(humaneval.gold_action(task)).passed


def test_tests_may_build_and_wire_the_solutions_objects(mbpp: MBPP) -> None:
    """MBPP 367's setup code links the solution's `Node`s; MBPP 601's asserts build its `Pair`s."""
    world = mbpp.world_model()
    for task in (t for t in mbpp.tasks() if t.id in ("mbpp-367", "mbpp-601")):
        world.reset(task)
        gold = world.check(mbpp.gold_action(task))
        assert gold.passed, (task.id, gold.details)
        wrong = world.check(mbpp.wrong_action(task))
        assert not wrong.passed and wrong.utility < 1.0, (task.id, wrong.details)


def test_builtin_exceptions_and_subclassed_values_reach_the_tests_as_such(sandbox: None) -> None:
    test = (
        "def check(candidate):\n    raised = False\n    try:\n        candidate(-1)\n"
        "    except ValueError:\n        raised = True\n    assert raised\n"
        "    assert candidate(2) == (2, 4)\n    assert candidate(3)[1] == 9\n"
    )
    solution = (
        "import collections\nPair = collections.namedtuple('Pair', 'x square')\n"
        "def f(x):\n    if x < 0:\n        raise ValueError(x)\n    return Pair(x, x * x)\n"
    )
    result = check(make_task(test), solution)
    assert result.passed, result.details


def test_iterators_stay_in_the_solutions_process_and_are_walked_from_the_tests(sandbox: None) -> None:
    """As in one process: list() of a returned map object works, == against a list does not."""
    test = (
        "def check(candidate):\n    assert list(candidate(2)) == [0, 2]\n    assert sorted(candidate(3))[-1] == 4\n"
        "    assert candidate(1) == [0]\n    assert len(list(candidate(2000))) == 2000\n"
    )
    result = check(make_task(test), "def f(x):\n    return map(lambda i: 2 * i, range(x))\n")
    assert result.utility == 0.75 and result.status == "wrong", result.details
    assert "got <map object of the solution>" in result.details


def test_the_error_kind_of_a_failed_run_names_no_value_of_the_task(sandbox: None) -> None:
    from countermem.domains.coding._facts import error_kind

    test = "def check(candidate):\n    assert candidate(1) == 1\n    assert candidate(0) == 0\n"
    aborted = "def check(candidate):\n    assert candidate(1) == 1\n    x = candidate(0)\n    assert x == 0\n"
    cases = [
        (make_task(test), "def f(x):\n    return 1 // x\n", "raises_ZeroDivisionError"),
        (make_task(test), "def f(x):\n    return 2\n", "wrong_value"),
        (make_task(aborted), "def f(x):\n    return 1 // x\n", "raises_ZeroDivisionError"),
        (make_task(test), "def f(x):\n    return (x\n", "syntax_error"),
        (make_task(test), "def g(x):\n    return x\n", "no_entry_point"),
        (make_task(test), "import no_such_module_here\ndef f(x):\n    return x\n", "load_ModuleNotFoundError"),
        (make_task(test), "def f(x):\n    return x\n", None),
    ]
    kinds = [error_kind(r.status, r.details) for r in (check(task, source) for task, source, _ in cases)]
    assert kinds == [kind for _, _, kind in cases]
