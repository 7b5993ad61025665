"""`MathBenchmark.form_fix`: working the judge refused for want of a final answer line gets one."""

from countermem.core import Action, Task
from countermem.domains.math import GSM8K

TASK = Task(id="g-off", benchmark="gsm8k", domain="math", prompt="What is 140 with 5% off?", gold="133")
WORKING = "140 * 0.05 = 7\n140 - 7 = 133"


def _check(content: str, gold: str = "133"):  # type: ignore[no-untyped-def]
    world = GSM8K().world_model()
    world.reset(TASK.model_copy(update={"gold": gold}))
    return world.check(Action(content=content))


def test_working_with_no_final_answer_gets_its_last_number_as_the_answer_and_then_passes() -> None:
    refused = _check(WORKING)
    assert refused.status == "error" and GSM8K().error_kind(refused) == "no_final_answer"
    fixed = GSM8K().form_fix(WORKING, refused)
    assert fixed == f"{WORKING}\nAnswer: 133"
    assert _check(fixed).passed


def test_the_last_number_as_working_writes_it() -> None:
    bench, refused = GSM8K(), _check("no answer here 1")
    assert bench.form_fix("She saves 1,200.50 dollars in all.", refused) == (
        "She saves 1,200.50 dollars in all.\nAnswer: 1200.50")
    assert bench.form_fix("16-7 = 9 plants are left.", refused) == "16-7 = 9 plants are left.\nAnswer: 9"
    assert bench.form_fix("The change is -3 over x2", refused) == "The change is -3 over x2\nAnswer: -3"


def test_no_repair_where_the_answer_was_read_or_nothing_is_a_number() -> None:
    bench = GSM8K()
    wrong = _check(f"{WORKING}\nAnswer: 132")
    assert not wrong.passed and bench.form_fix(f"{WORKING}\nAnswer: 132", wrong) is None
    assert bench.form_fix("first add the eggs, then divide", _check("first add the eggs")) is None
    assert bench.form_fix(WORKING, _check(f"{WORKING}\nAnswer: 133")) is None, "a passed check needs no repair"


def test_other_domains_have_no_form_fix(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    assert toy_benchmark.form_fix(WORKING, _check(WORKING)) is None
