"""Lookalikes: GSM8K replays calculator steps with new numbers; MATH-500 has none."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from fractions import Fraction

import pytest

from countermem.core import Action, Task
from countermem.domains import load_benchmark
from countermem.domains.math import GSM8K, Math500


@pytest.fixture(scope="module")
def gsm8k() -> Iterator[GSM8K]:
    benchmark = load_benchmark("gsm8k")
    assert isinstance(benchmark, GSM8K)
    if not benchmark.availability().available:
        pytest.skip(benchmark.availability().reason)
    yield benchmark
    benchmark.close()


def _by_start(benchmark: GSM8K, start: str) -> Task:
    return next(t for t in benchmark.tasks() if t.prompt.startswith(start))


def _numbers(template: Task, look: Task) -> list[Fraction]:
    """The numbers of `look` at the places where `template` has numbers, by matching the wording."""
    pieces = re.split(r"\d[\d,]*(?:\.\d+)?|\.\d+", template.prompt)
    pattern = r"(\d[\d,]*(?:\.\d+)?|\.\d+)".join(re.escape(piece) for piece in pieces)
    match = re.fullmatch(pattern, look.prompt)
    assert match, f"lookalike wording differs from the original:\n{template.prompt}\n{look.prompt}"
    return [Fraction(group.replace(",", "")) for group in match.groups()]


# Independent answers written from the question text by hand, over the numbers in order.
HAND_SOLVED: list[tuple[str, Callable[[list[Fraction]], Fraction]]] = [
    ("Toulouse has twice as many sheep", lambda n: 13 * n[1]),
    ("Luke is buying fabric", lambda n: n[0] * 5 * n[1]),
    ("Lloyd has an egg farm", lambda n: n[0] * 7 / 12 * n[1]),
    ("Patricia has 30 roses", lambda n: n[0] - n[1] + n[2]),
    ("Kimberly bought 8 packages", lambda n: n[0] * n[2] - n[1] * n[3]),
    ("A restaurant has 40 tables", lambda n: n[0] * n[1] + n[2] * n[3]),
    ("Martin's weight is 55 kg", lambda n: n[0] + n[1] + n[2] - n[3]),
    ("Henry made two stops", lambda n: n[0] - n[1] - n[2]),
]


@pytest.mark.parametrize(("start", "solve"), HAND_SOLVED)
def test_lookalike_golds_match_hand_solutions(gsm8k: GSM8K, start: str, solve: Callable[[list[Fraction]], Fraction]) -> None:
    task = _by_start(gsm8k, start)
    assert gsm8k.lookalike_refusal(task) is None
    assert Fraction(task.gold or "nan") == solve(_numbers(task, task))
    looks = gsm8k.lookalikes(task, random.Random(0)) + gsm8k.lookalikes(task, random.Random(1))
    assert looks
    for look in looks:
        assert Fraction(look.gold or "nan") == solve(_numbers(task, look)), look.prompt
        assert look.gold != task.gold


def test_lookalike_properties_on_the_first_tasks(gsm8k: GSM8K) -> None:
    world = gsm8k.world_model()
    rng = random.Random(5)
    covered = 0
    for task in gsm8k.tasks()[:120]:
        looks = gsm8k.lookalikes(task, rng)
        if gsm8k.lookalike_refusal(task) is not None:
            assert looks == []
            continue
        covered += bool(looks)
        for look in looks:
            _numbers(task, look)
            assert look.id != task.id and look.id.startswith(task.id)
            assert look.metadata["lookalike_of"] == task.id and look.metadata["substitutions"]
            assert look.gold is not None and look.gold != task.gold and re.fullmatch(r"\d+", look.gold)
            world.reset(look)
            assert world.check(gsm8k.gold_action(look)).passed
            stale = world.check(Action(content=f"Answer: {task.gold}"))
            assert stale.status == "wrong", "the original task's answer must be wrong on its lookalike"
    assert covered >= 25


@pytest.mark.parametrize(
    ("start", "reason"),
    [
        ("A merchant wants to make a choice", "chose"),
        ("Stephen borrowed $300", "next to a fixed number"),
        ("Josh decides to try flipping a house", "no source"),
    ],
)
def test_unreplayable_tasks_are_refused_with_a_reason(gsm8k: GSM8K, start: str, reason: str) -> None:
    task = _by_start(gsm8k, start)
    refusal = gsm8k.lookalike_refusal(task)
    assert refusal is not None and reason in refusal
    assert gsm8k.lookalikes(task, random.Random(0)) == []


def test_lookalikes_are_reproducible_from_the_seed(gsm8k: GSM8K) -> None:
    task = _by_start(gsm8k, "Toulouse has twice as many sheep")
    first = gsm8k.lookalikes(task, random.Random(9))
    second = gsm8k.lookalikes(task, random.Random(9))
    assert [(t.id, t.prompt, t.gold) for t in first] == [(t.id, t.prompt, t.gold) for t in second]


def test_math500_lookalikes_share_shape_and_reject_the_stored_answer() -> None:
    benchmark = Math500()
    if not benchmark.availability().available:
        pytest.skip(benchmark.availability().reason)
    world = benchmark.world_model()
    covered = 0
    for task in benchmark.tasks()[:12]:
        found = benchmark.lookalikes(task, random.Random(0))
        assert found == benchmark.lookalikes(task, random.Random(0))
        covered += bool(found)
        stored = benchmark.gold_action(task)
        for other in found:
            assert other.environment == task.environment
            assert other.metadata["level"] == task.metadata["level"]
            world.reset(other)
            assert not world.check(stored).passed
            assert world.check(benchmark.gold_action(other)).passed
    assert covered >= 6
