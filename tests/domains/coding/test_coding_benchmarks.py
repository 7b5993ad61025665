"""HumanEval and MBPP as benchmarks: data, ids, prompts, facts, wrong actions and look-alikes."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from countermem.core import Action, DataUnavailableError
from countermem.domains import BenchmarkOptions, dataset_dir, load_benchmark
from countermem.domains.coding import MBPP, HumanEval, instrument_asserts


def test_registry_loads_both() -> None:
    assert isinstance(load_benchmark("humaneval"), HumanEval)
    assert isinstance(load_benchmark("mbpp"), MBPP)


def test_humaneval_tasks_and_ids(humaneval: HumanEval) -> None:
    tasks = humaneval.tasks()
    assert [t.id for t in tasks] == [f"humaneval-{n}" for n in range(164)]
    first = tasks[0]
    assert first.metadata["entry_point"] == "has_close_elements"
    assert first.metadata["source_id"] == "HumanEval/0"
    assert first.gold is not None and first.gold.startswith(first.prompt)
    assert first.environment is None


def test_mbpp_tasks_and_ids(mbpp: MBPP) -> None:
    tasks = mbpp.tasks()
    assert len(tasks) == 779
    ids = [t.id for t in tasks]
    assert len(set(ids)) == len(ids) and ids[0] == "mbpp-1"
    assert all(t.metadata["entry_point"] in (t.gold or "") for t in tasks)
    assert all(len(t.metadata["test_list"]) == 3 for t in tasks)


def test_mbpp_refuses_data_that_does_not_match_its_checksum(tmp_path: Path, mbpp: MBPP) -> None:
    source = dataset_dir("mbpp")
    folder = tmp_path / "mbpp"
    folder.mkdir()
    shutil.copy(source / "SOURCE.md", folder / "SOURCE.md")
    data = (source / "mbpp.jsonl").read_bytes()
    (folder / "mbpp.jsonl").write_bytes(data.replace(b"min_cost", b"max_cost", 1))
    changed = MBPP(BenchmarkOptions(data_dir=tmp_path))
    availability = changed.availability()
    assert not availability.available and "checksum" in availability.reason
    with pytest.raises(DataUnavailableError):
        changed.tasks()


def test_render_shows_the_signature_or_the_tests_but_never_the_solution(humaneval: HumanEval, mbpp: MBPP) -> None:
    task = humaneval.tasks()[0]
    text = humaneval.render_task(task)
    assert "def has_close_elements(numbers: List[float], threshold: float) -> bool:" in text
    assert "for idx, elem in enumerate(numbers)" not in text
    assert "check(" not in text
    task = mbpp.tasks()[0]
    text = mbpp.render_task(task)
    assert "`min_cost`" in text and "assert min_cost([[1, 2, 3], [4, 8, 2], [1, 5, 3]], 2, 2) == 8" in text
    assert "tc[0][0]" not in text
    assert "```python" in humaneval.instructions() and humaneval.action_language == "python"


def test_task_and_action_facts(humaneval: HumanEval, mbpp: MBPP) -> None:
    task = humaneval.tasks()[0]
    facts = humaneval.facts(task)
    assert facts.get("function_name") == "has_close_elements"
    assert facts.get("n_params") == 2
    assert facts.get("param_types") == ("List[float]", "float")
    assert facts.get("returns_list") is False and facts.get("mentions_list") is True
    assert facts.get("uses_loop") is None
    recursive = "import math\ndef has_close_elements(numbers, threshold):\n    return has_close_elements(numbers[1:], threshold)\n"
    with_action = humaneval.facts(task, Action(content=recursive))
    assert with_action.get("uses_recursion") is True and with_action.get("uses_loop") is False
    assert with_action.get("imports") == ("math",)
    assert humaneval.facts(task, Action(content="def (")).get("action_parses") is False
    assert humaneval.facts(humaneval.tasks()[34]).get("mentions_sort") is True
    assert humaneval.facts(humaneval.tasks()[1]).get("returns_list") is True

    facts = mbpp.facts(mbpp.tasks()[0])
    assert facts.get("function_name") == "min_cost" and facts.get("n_params") == 3
    assert facts.get("returns_list") is False


def test_wrong_action_keeps_the_signature(humaneval: HumanEval, mbpp: MBPP) -> None:
    task = humaneval.tasks()[0]
    wrong = humaneval.wrong_action(task).content
    assert "def has_close_elements(numbers: List[float], threshold: float) -> bool:" in wrong
    assert "return None" in wrong and "enumerate" not in wrong
    assert "return None" in mbpp.wrong_action(mbpp.tasks()[0]).content


def test_lookalikes_change_the_contract_honestly(humaneval: HumanEval, mbpp: MBPP) -> None:
    """A look-alike's reference passes its tests, and the original reference fails them."""
    cases = [(humaneval, humaneval.tasks()[0]), (humaneval, humaneval.tasks()[1]), (humaneval, humaneval.tasks()[13]), (mbpp, mbpp.tasks()[2])]
    for benchmark, task in cases:
        lookalikes = benchmark.lookalikes(task, random.Random(0))
        assert lookalikes, task.id
        world = benchmark.world_model()
        for lookalike in lookalikes:
            assert lookalike.id.startswith(task.id + "~")
            assert lookalike.metadata["entry_point"] == task.metadata["entry_point"]
            assert "CHANGED CONTRACT" in lookalike.prompt
            world.reset(lookalike)
            assert world.check(benchmark.gold_action(lookalike)).passed, lookalike.id
            original = world.check(benchmark.gold_action(task))
            assert original.completed and not original.passed, lookalike.id
        assert benchmark.lookalikes(lookalikes[0], random.Random(0)) == []


def test_lookalike_signature_is_unchanged(humaneval: HumanEval) -> None:
    task = humaneval.tasks()[0]
    (lookalike,) = humaneval.lookalikes(task, random.Random(0))
    assert lookalike.metadata["transform"] == "negated"
    assert humaneval.facts(lookalike) == humaneval.facts(task), "a look-alike must not differ in its facts"
    assert "return the opposite truth value" in lookalike.prompt.lower()


def test_many_tasks_have_lookalikes(humaneval: HumanEval, mbpp: MBPP) -> None:
    rng = random.Random(0)
    for benchmark, least in ((humaneval, 100), (mbpp, 500)):
        with_lookalikes = sum(1 for t in benchmark.tasks() if benchmark.lookalikes(t, rng))
        assert with_lookalikes >= least, (benchmark.name, with_lookalikes)


def test_instrumentation_counts_sites_and_skips_constant_asserts() -> None:
    test = "def check(c):\n    assert c(1) == 2\n    assert True, 'x'\n    for i in range(3):\n        assert c(i) < 9\n"
    instrumented = instrument_asserts(test)
    assert [s.line for s in instrumented.sites] == [2, 5]
    assert "assert True" in instrumented.source
    assert "_cm_got < c(i)" not in instrumented.source and "_cm_got < 9" in instrumented.source
