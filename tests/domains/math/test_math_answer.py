"""The answer contract: where the final answer is, what counts as a plain number, answer forms."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import pytest

from countermem.domains.math import answer_form, extract_final_answer, plain_number


@pytest.mark.parametrize(
    ("text", "answer", "marker"),
    [
        ("so x = 4.\nAnswer: 18", "18", "answer_line"),
        ("Final answer: $\\frac{1}{2}$.", "\\frac{1}{2}", "answer_line"),
        ("We get $\\boxed{\\frac{\\sqrt{3}}{3}}$.", "\\frac{\\sqrt{3}}{3}", "boxed"),
        ("first \\boxed{1} then \\boxed{2}", "2", "boxed"),
        ("\\boxed{1}\nAnswer: 7", "7", "answer_line"),
        ("Answer: 7\nOn reflection \\boxed{8}", "8", "boxed"),
        ("Answer: $\\boxed{(0,9) \\cup (9,36)}$", "(0,9) \\cup (9,36)", "boxed"),
        ("#### 1,000", "1,000", "hashes"),
        ("**Answer:** 42", "42", "answer_line"),
        ("\\boxed{\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}}", "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", "boxed"),
    ],
)
def test_final_answer_is_the_last_marker(text: str, answer: str, marker: str) -> None:
    final = extract_final_answer(text)
    assert final is not None
    assert (final.text, final.marker) == (answer, marker)


@pytest.mark.parametrize(
    "text", ["The answer is 18", "", "Answer:", "\\boxed{unclosed", "I computed 2+2=4 and stopped."]
)
def test_no_final_answer(text: str) -> None:
    assert extract_final_answer(text) is None


@pytest.mark.parametrize(
    ("text", "word_units", "value"),
    [
        ("1,000", False, Fraction(1000)),
        ("\\$18.90", False, Fraction(189, 10)),
        ("$18", True, Fraction(18)),
        ("18 apples", True, Fraction(18)),
        ("-\\frac{3}{4}", False, Fraction(-3, 4)),
        ("\\dfrac{3}{4}", False, Fraction(3, 4)),
        ("3/4", False, Fraction(3, 4)),
        ("50\\%", False, Fraction(50)),
        ("30^\\circ", False, Fraction(30)),
        ("5.4 \\text{ cents}", False, Fraction(54, 10)),
        (".35625", False, Fraction(35625, 100000)),
    ],
)
def test_plain_numbers(text: str, word_units: bool, value: Fraction) -> None:
    assert plain_number(text, word_units) == value


@pytest.mark.parametrize("text", ["18 apples", "3 pi", "2k", "3, 5, 7", "1,00", "x", "\\sqrt{2}", "1/0"])
def test_not_plain_numbers_without_word_units(text: str) -> None:
    assert plain_number(text) is None


@pytest.mark.parametrize(
    ("text", "form"),
    [
        ("12", "integer"),
        ("0.15", "decimal"),
        ("\\frac{3}{20}", "fraction"),
        ("3\\sqrt{13}", "radical"),
        ("p - q", "expression"),
        ("(0,9) \\cup (9,36)", "interval"),
        ("[-2,7]", "interval"),
        ("y = 2x + 3", "equation"),
        ("\\left( 3, \\frac{\\pi}{2} \\right)", "tuple"),
        ("3, 5, 7", "set"),
        ("3 \\pm 2 \\sqrt{2}", "set"),
        ("\\text{Evelyn}", "text"),
        ("\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", "matrix"),
    ],
)
def test_answer_forms(text: str, form: str) -> None:
    assert answer_form(text) == form


def test_extraction_handles_degenerate_text() -> None:
    """Speed is measured by benchmarks/answer_extraction_speed.py; this checks the answers.

    The subprocess timeout is a hang guard only: a backtracking regex takes hours on these inputs.
    """
    code = (
        "from countermem.domains.math import extract_final_answer as f\n"
        "a = f('Answer: 5' + ' ' * 200_000 + '\\t')\n"
        "print(a is not None and a.text.strip() == '5', f('####' + ' ' * 200_000) is None,"
        " f('\\\\boxed{' * 20_000) is None)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    assert done.stdout.split() == ["True", "True", "True"]


def test_an_overlong_answer_is_returned_whole_for_the_caller_to_refuse() -> None:
    final = extract_final_answer("Answer: " + "$" * 100_000)
    assert final is not None and len(final.text) == 100_000


@pytest.mark.parametrize("text, answer", [("255000", "255000"), (" $1,200. ", "$1,200"), ("-3.5", "-3.5"), ("3/4", "3/4")])
def test_an_action_that_is_only_a_number_is_its_answer(text: str, answer: str) -> None:
    final = extract_final_answer(text)
    assert final is not None and (final.text, final.marker) == (answer, "bare")


@pytest.mark.parametrize("text", ["200 * 600 + 300 * 450", "12 eggs", "1\n2", "x = 5", "The answer is 5"])
def test_anything_more_than_one_number_still_needs_a_marker(text: str) -> None:
    assert extract_final_answer(text) is None
