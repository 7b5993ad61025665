"""GSM8K lookalikes by replaying the reference solution's calculator steps with new numbers.

A GSM8K reference solution annotates each arithmetic step as `<<expression=result>>`. When every
number in every step can be traced to exactly one source, the solution is a small program over
the question's numbers, and running it on new numbers gives an honest new reference answer:

- a number written in the question with digits, in a plain context (not a percentage, not
  part of `3/4` or `3:30`, not an ordinal, not a negative sign): a *variable*;
- the result of an earlier step: a *reference* to that step;
- a fixed constant (a unit conversion or a number word of the question: 2, 7, 12, 60, 100,
  "dozen", "five"...): a *constant*; a question number whose value is also such a constant
  stays fixed, because then we cannot tell which one a step used.

A task is refused (no lookalikes) when any link is ambiguous or missing: a step token that
could be both an earlier result and a question number or constant, a token with no source, a
step whose stated result is not what its expression gives, a step with anything but
`+ - * / ( )`, an `=` in the prose that is not annotated (an unrecorded computation), a prose
number with no source, a plain question number the steps never use (the story may tie it to
the others, and changing its neighbours would make the question inconsistent), or a final
answer that is not the last step's result.

New values keep the original's magnitude and roundness (80,000 becomes another multiple of
10,000 between 40,000 and 120,000), differ from every other number of the question, and are
accepted only if every step result keeps its sign and its number of decimal places (so no
half-person appears) and the final answer changes. The remaining risk is a step that uses a
question number by coincidence of value; it is reduced by the prose checks, not excluded.
"""

from __future__ import annotations

import ast
import math
import random
import re
from dataclasses import dataclass
from fractions import Fraction

CONSTANTS = frozenset(Fraction(n) for n in (1, 2, 3, 4, 7, 10, 12, 24, 52, 60, 100, 365, 1000))
NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "hundred": 100, "thousand": 1000, "million": 1000000, "dozen": 12, "dozens": 12,
    "half": 2, "twice": 2, "double": 2, "pair": 2, "pairs": 2, "triple": 3, "thrice": 3, "quarter": 4,
    "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10,
    "eleventh": 11, "twelfth": 12, "fifteenth": 15, "twentieth": 20, "thirtieth": 30, "score": 20,
}
_ANY_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|(?<!\d)\.\d+")
_ANNOTATION = re.compile(r"<<([^<>]*)>>")
_WORD = re.compile(r"[A-Za-z]+")
_STEP_TOKEN = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+")
_STEP_REST = re.compile(r"[\s+\-*/()]*")
MAX_ATTEMPTS = 300


class Unsupported(Exception):
    """The reference solution cannot be replayed honestly; the message says why."""


@dataclass(frozen=True)
class Occurrence:
    start: int
    end: int
    text: str
    value: Fraction
    plain: bool


@dataclass(frozen=True)
class Variant:
    question: str
    gold: str
    substitutions: tuple[tuple[str, str], ...]
    steps: tuple[str, ...]


Ref = tuple[str, Fraction | int]
"""("var", value) | ("const", value) | ("step", index)."""


@dataclass(frozen=True)
class _Step:
    template: str
    tree: ast.Expression
    refs: tuple[Ref, ...]
    stated: Fraction
    decimals: int


def _value(text: str) -> Fraction:
    return Fraction(text.replace(",", ""))


def _decimals(text: str) -> int:
    return len(text.split(".", 1)[1]) if "." in text else 0


def _plain_context(question: str, start: int, end: int) -> bool:
    before = question[max(0, start - 2) : start]
    after = question[end : end + 9].lower()
    if before[-1:].isalnum() or before[-1:] in (".", "/", ":") or after[:1].isalnum():
        return False
    if after.lstrip().startswith(("/", ":", "%")) or after.startswith((" percent", "-percent")):
        return False
    return not (before.endswith("-") and (len(before) < 2 or not before[0].isalnum()))


def question_occurrences(question: str) -> list[Occurrence]:
    return [
        Occurrence(m.start(), m.end(), m.group(0), _value(m.group(0)), _plain_context(question, m.start(), m.end()))
        for m in _ANY_NUMBER.finditer(question)
    ]


def _evaluate(node: ast.AST, env: dict[str, Fraction]) -> Fraction:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body, env)
    if isinstance(node, ast.Name):
        return env[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _evaluate(node.operand, env)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp):
        left, right = _evaluate(node.left, env), _evaluate(node.right, env)
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Sub):
            return left - right
        if isinstance(node.op, ast.Mult):
            return left * right
        if isinstance(node.op, ast.Div):
            return left / right
    raise Unsupported(f"step uses an operation other than + - * /: {ast.dump(node)[:80]}")


def _parse_step(expression: str) -> tuple[str, ast.Expression, list[str]]:
    tokens: list[str] = []

    def name(match: re.Match[str]) -> str:
        tokens.append(match.group(0))
        return f" n{len(tokens) - 1} "

    template = _STEP_TOKEN.sub(name, expression)
    if not _STEP_REST.fullmatch(re.sub(r"\bn\d+\b", "", template)):
        raise Unsupported(f"step {expression!r} has symbols other than numbers and + - * / ( )")
    try:
        tree = ast.parse(template.strip(), mode="eval")
    except SyntaxError as error:
        raise Unsupported(f"step {expression!r} is not an arithmetic expression") from error
    return template, tree, tokens


@dataclass(frozen=True)
class ReplayPlan:
    """The reference solution as a program over the question's variable numbers."""

    question: str
    occurrences: tuple[Occurrence, ...]
    variables: tuple[Fraction, ...]
    fixed: frozenset[Fraction]
    words: frozenset[Fraction]
    steps: tuple[_Step, ...]
    gold: Fraction

    def run(self, values: dict[Fraction, Fraction]) -> list[Fraction]:
        results: list[Fraction] = []
        for step in self.steps:
            env: dict[str, Fraction] = {}
            for index, (kind, ref) in enumerate(step.refs):
                if kind == "var":
                    assert isinstance(ref, Fraction)
                    env[f"n{index}"] = values[ref]
                elif kind == "const":
                    assert isinstance(ref, Fraction)
                    env[f"n{index}"] = ref
                else:
                    env[f"n{index}"] = results[int(ref)]
            results.append(_evaluate(step.tree, env))
        return results

    def _acceptable(self, results: list[Fraction]) -> bool:
        for step, new in zip(self.steps, results, strict=True):
            if (new * 10**step.decimals).denominator != 1:
                return False
            if (step.stated > 0 and new <= 0) or (step.stated >= 0 and new < 0):
                return False
        return results[-1] != self.gold and results[-1].denominator == 1

    def _propose(self, old: Fraction, rng: random.Random, taken: set[Fraction]) -> Fraction | None:
        decimals = max((_decimals(o.text) for o in self.occurrences if o.value == old), default=0)
        scaled = int(old * 10**decimals)
        zeros = 0
        while scaled >= 10 and scaled % 10 ** (zeros + 1) == 0 and zeros < 6:
            zeros += 1
        step = 10**zeros
        low = max(step, math.floor(scaled / 2 / step) * step)
        high = max(low + 4 * step, math.ceil(scaled * 3 / 2 / step) * step)
        choices = [n for n in range(low, high + 1, step) if Fraction(n, 10**decimals) not in taken]
        choices = [n for n in choices if n != scaled]
        return Fraction(rng.choice(choices), 10**decimals) if choices else None

    def _render(self, values: dict[Fraction, Fraction]) -> tuple[str, tuple[tuple[str, str], ...]]:
        text = self.question
        changes: list[tuple[str, str]] = []
        for occurrence in sorted(self.occurrences, key=lambda o: o.start, reverse=True):
            if not occurrence.plain or occurrence.value not in values:
                continue
            new = values[occurrence.value]
            decimals = _decimals(occurrence.text)
            rendered = f"{float(new):,.{decimals}f}" if "," in occurrence.text else f"{float(new):.{decimals}f}"
            if occurrence.text.startswith(".") and rendered.startswith("0."):
                rendered = rendered[1:]
            text = text[: occurrence.start] + rendered + text[occurrence.end :]
            changes.append((occurrence.text, rendered))
        return text, tuple(reversed(changes))

    def variants(self, rng: random.Random, count: int) -> list[Variant]:
        found: list[Variant] = []
        seen: set[str] = set()
        base_taken = {o.value for o in self.occurrences} | set(CONSTANTS) | set(self.fixed) | self.words
        for _ in range(MAX_ATTEMPTS):
            if len(found) >= count:
                break
            values: dict[Fraction, Fraction] = {}
            taken = set(base_taken)
            for old in self.variables:
                new = self._propose(old, rng, taken)
                if new is None:
                    break
                values[old] = new
                taken.add(new)
            if len(values) != len(self.variables):
                continue
            try:
                results = self.run(values)
            except ZeroDivisionError:
                continue
            if not self._acceptable(results):
                continue
            question, changes = self._render(values)
            if question in seen:
                continue
            seen.add(question)
            steps = tuple(
                f"{_show(results, step, values)}={_fmt(result)}"
                for step, result in zip(self.steps, results, strict=True)
            )
            found.append(Variant(question, _fmt(results[-1]), changes, steps))
        return found


def _fmt(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return format(float(value), "g")


def _show(results: list[Fraction], step: _Step, values: dict[Fraction, Fraction]) -> str:
    shown: list[str] = []
    for kind, ref in step.refs:
        if kind == "var":
            assert isinstance(ref, Fraction)
            shown.append(_fmt(values[ref]))
        elif kind == "const":
            assert isinstance(ref, Fraction)
            shown.append(_fmt(ref))
        else:
            shown.append(_fmt(results[int(ref)]))
    return re.sub(r" n(\d+) ", lambda m: shown[int(m.group(1))], step.template)


def _word_values(question: str) -> set[Fraction]:
    return {Fraction(NUMBER_WORDS[w.lower()]) for w in _WORD.findall(question) if w.lower() in NUMBER_WORDS}


_DECISION = re.compile(
    r"[<>≤≥]|\b(?:maximi[sz]e|minimi[sz]e|cheap(?:er|est)|better|best|larger|largest|smaller|smallest|"
    r"greater|greatest|highest|lowest|instead|rather|either|whichever|round(?:ed|ing)?|at least|at most)\b",
    re.IGNORECASE,
)


def _check_prose(solution: str, known: set[Fraction]) -> None:
    for match in re.finditer(r"=", solution):
        inside = solution.rfind("<<", 0, match.start()) > solution.rfind(">>", 0, match.start())
        if inside:
            continue
        if not re.match(r"[\s$]*<<", solution[match.end() :]):
            raise Unsupported("the solution's prose has a computation without a calculator annotation")
    prose = _ANNOTATION.sub(" ", solution.split("####")[0])
    decision = _DECISION.search(prose)
    if decision:
        raise Unsupported(f"the solution compares or chooses ({decision.group(0)!r}); a replay cannot re-decide")
    for match in _ANY_NUMBER.finditer(prose):
        if _value(match.group(0)) not in known:
            raise Unsupported(f"the solution's prose uses {match.group(0)}, which has no traced source")


def analyse(question: str, answer: str) -> ReplayPlan:
    """Turn a GSM8K question and reference solution into a replayable plan, or raise Unsupported."""
    if "####" not in answer:
        raise Unsupported("reference solution has no '####' final answer")
    solution, _, final = answer.rpartition("####")
    gold = _value(final.strip())
    occurrences = question_occurrences(question)
    question_values = {o.value for o in occurrences}
    words = _word_values(question)
    fixed = frozenset(
        {o.value for o in occurrences if not o.plain} | (question_values & (set(CONSTANTS) | words))
    )
    steps: list[_Step] = []
    stated: list[Fraction] = []
    used: set[Fraction] = set()
    annotations = _ANNOTATION.findall(solution)
    if not annotations:
        raise Unsupported("reference solution has no calculator annotations")
    for expression_and_result in annotations:
        parts = expression_and_result.split("=")
        if len(parts) != 2 or not re.fullmatch(r"\s*-?[\d,]*\.?\d+\s*", parts[1]):
            raise Unsupported(f"annotation {expression_and_result!r} is not 'expression=number'")
        template, tree, tokens = _parse_step(parts[0])
        refs: list[Ref] = []
        for token in tokens:
            value = _value(token)
            earlier = [i for i, result in enumerate(stated) if result == value]
            in_question = value in question_values
            is_constant = value in CONSTANTS or value in words
            if earlier and (in_question or is_constant or len(earlier) > 1):
                raise Unsupported(f"{token} could be an earlier result or a given number; ambiguous")
            if earlier:
                refs.append(("step", earlier[0]))
            elif in_question and value not in fixed:
                refs.append(("var", value))
                used.add(value)
            elif in_question or is_constant:
                refs.append(("const", value))
            else:
                raise Unsupported(f"{token} in step {parts[0].strip()!r} has no source in the question")
        result_text = parts[1].strip()
        step = _Step(template, tree, tuple(refs), _value(result_text), _decimals(result_text))
        steps.append(step)
        stated.append(step.stated)
    variables = tuple(sorted({o.value for o in occurrences if o.plain and o.value not in fixed}))
    unused = [v for v in variables if v not in used]
    if unused:
        raise Unsupported(f"question number {_fmt(unused[0])} is not used by any calculator step")
    if not variables:
        raise Unsupported("no question number can be changed (all are constants or percentages)")
    neighbours = words | {o.value for o in occurrences if not o.plain}
    for value in variables:
        if value - 1 in neighbours or value + 1 in neighbours:
            raise Unsupported(f"question number {_fmt(value)} sits next to a fixed number (e.g. '11 months ... twelfth')")
    plan = ReplayPlan(question, tuple(occurrences), variables, fixed, frozenset(words), tuple(steps), gold)
    try:
        replayed = plan.run({v: v for v in variables})
    except ZeroDivisionError as error:
        raise Unsupported("a step divides by zero") from error
    for step, result in zip(steps, replayed, strict=True):
        if result != step.stated:
            raise Unsupported(f"a step states {_fmt(step.stated)} but computes {_fmt(result)}")
    if stated[-1] != gold:
        raise Unsupported("the final answer is not the last calculator step's result")
    referenced = {int(ref) for step in steps for kind, ref in step.refs if kind == "step"}
    for index, step in enumerate(steps):
        if len(step.refs) == 1 and not re.search(r"[-+*/]", step.template):
            raise Unsupported("a step only restates a number: the solution chose it in prose")
        if index < len(steps) - 1 and index not in referenced:
            raise Unsupported("a step's result is never used later: the solution may have chosen between results")
    decision = _DECISION.search(question)
    if decision:
        raise Unsupported(f"the question asks to compare or choose ({decision.group(0)!r}); a replay cannot re-decide")
    _check_prose(solution, question_values | set(stated) | set(CONSTANTS) | words)
    return plan
