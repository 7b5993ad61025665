"""`MathBenchmark.salvage`: the action a malformed math answer holds, block or stated answer."""

from countermem.domains.math import GSM8K, MAX_ANSWER_CHARS

BOXED = "Thought: 9 + 7 = 16.\nTherefore, Lily found \\(\\boxed{16}\\) insects."


def test_a_boxed_answer_in_the_thought_is_salvaged_as_that_answer_alone() -> None:
    assert GSM8K().salvage(BOXED) == "Answer: 16"
    assert GSM8K().salvage("Thought: the total is 12.\nAnswer: 12 eggs") == "Answer: 12 eggs"


def test_a_closed_code_block_wins_over_a_stated_answer() -> None:
    answer = "Thought: so \\boxed{3}\n```text\n2 * 6 = 12\nAnswer: 12\n```"
    assert GSM8K().salvage(answer) == "2 * 6 = 12\nAnswer: 12"


def test_a_block_with_no_final_answer_is_not_the_action() -> None:
    assert GSM8K().salvage("so \\boxed{8}\n```text\nAction: check\n```") == "Answer: 8"
    assert GSM8K().salvage("leaving 8 slices.\n```text\nAction: check\n```") is None


def test_working_with_no_final_answer_or_too_long_a_one_holds_nothing() -> None:
    assert GSM8K().salvage("Thought: first I add the eggs, then I divide.") is None
    assert GSM8K().salvage("Answer: " + "x" * (MAX_ANSWER_CHARS + 1)) is None


def test_other_domains_salvage_only_a_closed_code_block(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    assert toy_benchmark.salvage(BOXED) is None
    assert toy_benchmark.salvage("```sql\nSELECT 1\n```") == "SELECT 1"


def test_the_instructions_example_copied_into_an_answer_is_not_its_action() -> None:
    from countermem.domains.math._base import EXAMPLE_ACTION, INSTRUCTIONS

    assert f"```text\n{EXAMPLE_ACTION}\n```" in INSTRUCTIONS
    copied = f"Thought: 16 * 12 = 192.\n```text\n{EXAMPLE_ACTION}\n```"
    assert GSM8K().salvage(copied) is None
    assert GSM8K().salvage(f"So \\boxed{{192}}.\n```\n{EXAMPLE_ACTION}\n```") == "Answer: 192"
