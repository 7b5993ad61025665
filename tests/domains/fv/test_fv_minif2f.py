"""minif2f-coq: data loading against SOURCE.md, task shape, gold honesty, our own proofs."""

from __future__ import annotations

import random
import shutil
from collections import Counter
from pathlib import Path

import pytest

from countermem.core import Action, DataUnavailableError, Task
from countermem.domains import BenchmarkOptions, WorldModel, check_world_model, dataset_dir, load_benchmark
from countermem.domains.fv import MiniF2FCoq
from required_tools import require_sandboxed_coqc

needs_coqc = pytest.mark.usefixtures("coqc")


def _data_or_skip() -> Path:
    try:
        return dataset_dir("minif2f_coq")
    except DataUnavailableError as error:
        pytest.skip(str(error))


@pytest.fixture(scope="module")
def minif2f() -> MiniF2FCoq:
    _data_or_skip()
    benchmark = load_benchmark("minif2f-coq")
    assert isinstance(benchmark, MiniF2FCoq)
    return benchmark


def world_or_skip(benchmark: MiniF2FCoq) -> WorldModel:
    require_sandboxed_coqc()
    availability = benchmark.availability()
    if not availability.available:
        pytest.skip(availability.reason)
    return benchmark.world_model()


def task_named(benchmark: MiniF2FCoq, theorem: str) -> Task:
    return next(t for t in benchmark.tasks() if t.metadata["theorem"] == theorem)


def test_tasks_are_the_statements_that_compile(minif2f: MiniF2FCoq) -> None:
    tasks = minif2f.tasks()
    assert len(tasks) == 446
    assert Counter(t.metadata["split"] for t in tasks) == {"test": 229, "valid": 217}
    assert minif2f.skipped() == {
        "need Coquelicot": 39,
        "need Rocq>=9 Stdlib prefix": 2,
        "need mathcomp": 1,
    }
    assert len({t.id for t in tasks}) == len(tasks)
    assert all(t.metadata["statement"].startswith(("Theorem", "Lemma")) for t in tasks)
    assert all("Admitted" not in t.metadata["statement"] for t in tasks)


def test_environment_is_the_import_set(minif2f: MiniF2FCoq) -> None:
    environments = Counter(t.environment for t in minif2f.tasks())
    assert environments["Reals"] > 150
    task = task_named(minif2f, "mathd_numbertheory_101")
    assert task.environment == "Arith"
    assert minif2f.facts(task).get("imports") == ("Arith",)


def test_second_theorem_in_a_file_is_dropped(minif2f: MiniF2FCoq) -> None:
    task = task_named(minif2f, "imo_1966_p5")
    assert "imo_1966_p5'" not in task.metadata["statement"]
    assert task.metadata["statement"].rstrip().endswith(".")


def test_gold_is_honest(minif2f: MiniF2FCoq) -> None:
    with_gold = [t for t in minif2f.tasks() if t.gold is not None]
    assert len(with_gold) >= 5
    without = next(t for t in minif2f.tasks() if t.gold is None)
    with pytest.raises(DataUnavailableError, match="no gold proof"):
        minif2f.gold_action(without)


def test_lookalikes_of_an_unproved_task_share_family_and_imports(minif2f: MiniF2FCoq) -> None:
    """No proof to break, so no checker: this part runs without coqc."""
    unproved = next(
        t for t in minif2f.tasks() if t.gold is None and t.id.rsplit("/", 1)[-1].startswith("amc12a")
    )
    found = minif2f.lookalikes(unproved, random.Random(0))
    assert found and found == minif2f.lookalikes(unproved, random.Random(0))
    for other in found:
        assert other.id.rsplit("/", 1)[-1].startswith("amc12a") and other.environment == unproved.environment
        assert other.prompt != unproved.prompt


@needs_coqc
def test_lookalikes_share_family_and_imports_and_break_the_stored_proof(minif2f: MiniF2FCoq) -> None:
    world = world_or_skip(minif2f)  # lookalikes() of a proved task checks the proof, so it needs coqc too
    task = next(t for t in minif2f.tasks() if t.gold is not None and "/mathd_" in t.id)
    found = minif2f.lookalikes(task, random.Random(0))
    assert found and found == minif2f.lookalikes(task, random.Random(0))
    family = "_".join(task.id.rsplit("/", 1)[-1].split("_")[:2])
    for other in found:
        assert other.environment == task.environment and family in other.id and other.prompt != task.prompt
        world.reset(other)
        assert not world.check(minif2f.gold_action(task)).passed


def test_statement_facts(minif2f: MiniF2FCoq) -> None:
    facts = minif2f.facts(
        task_named(minif2f, "mathd_algebra_24"), Action(content="Proof. intros x H. lra. Qed.")
    )
    assert facts.get("uses_real") is True
    assert facts.get("has_division") is True
    assert facts.get("quantifiers") == 1
    assert facts.get("tactic_lra") is True
    nat_facts = minif2f.facts(task_named(minif2f, "mathd_numbertheory_101"))
    assert nat_facts.get("uses_nat") is True and nat_facts.get("has_modulo") is True
    assert nat_facts.get("uses_real") is False


def test_render_shows_the_prelude_and_statement(minif2f: MiniF2FCoq) -> None:
    text = minif2f.render_task(task_named(minif2f, "mathd_algebra_24"))
    assert "From Coq Require Import Lia." in text and "From Coq Require Import Lra." in text
    assert "Theorem mathd_algebra_24" in text


def test_tampered_data_is_refused(tmp_path: Path) -> None:
    source = _data_or_skip()
    copy = tmp_path / "minif2f_coq"
    copy.mkdir()
    for name in ("SOURCE.md", "audit.json"):
        shutil.copyfile(source / name, copy / name)
    table = (source / "coq_8.16.1_check.tsv").read_text(encoding="utf-8")
    (copy / "coq_8.16.1_check.tsv").write_text(table.replace("\tok\t", "\tfail\t", 1), encoding="utf-8")
    benchmark = load_benchmark("minif2f-coq", BenchmarkOptions(data_dir=tmp_path))
    with pytest.raises(DataUnavailableError, match="checksum"):
        benchmark.tasks()
    assert not benchmark.availability().available


@needs_coqc
@pytest.mark.parametrize("theorem", ["mathd_numbertheory_101", "amc12a_2002_p6", "mathd_algebra_125"])
def test_our_proofs_check(minif2f: MiniF2FCoq, theorem: str) -> None:
    task = task_named(minif2f, theorem)
    world = world_or_skip(minif2f)
    world.reset(task)
    result = world.check(minif2f.gold_action(task))
    assert result.passed, result.details


@needs_coqc
def test_the_statement_with_admit_is_rejected(minif2f: MiniF2FCoq) -> None:
    task = task_named(minif2f, "mathd_numbertheory_101")
    world = world_or_skip(minif2f)
    world.reset(task)
    as_shipped = f"{task.metadata['statement']}\nProof.\nAdmitted."
    assert world.check(Action(content=as_shipped)).status == "rejected"
    admitted = world.check(Action(content="Proof.\n  admit.\nQed."))
    assert admitted.status == "rejected"
    wrong = world.check(minif2f.wrong_action(task))
    assert wrong.status == "wrong" and 'The term "I" has type "True"' in wrong.details


@needs_coqc
def test_conformance(minif2f: MiniF2FCoq) -> None:
    task = task_named(minif2f, "mathd_numbertheory_81")
    report = check_world_model(
        world_or_skip(minif2f), task, [minif2f.gold_action(task), minif2f.wrong_action(task)]
    )
    assert [r.status for r in report.results] == ["passed", "wrong"]
