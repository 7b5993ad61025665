"""Applicability conditions derived by code from the facts, not written by the model.

Why: small models cannot write conditions (they put backticks, list literals or SQL where the
predicate belongs, and copy example conditions that name the environment), so edits that passed
their check were lost at admission. A condition needs no language skill when it is read off the
facts the domain already computes:

- *mistake atoms* come from the facts of the ACTION that differ between the failed action and its
  verified fix: they describe the kind of mistake (`"join" not in sql_keywords`, `not
  action_declares_all_answers`, `answer_form == "fraction"`), so a record fires where a later
  agent makes the same kind of mistake. They hold at the decision right after a failed check,
  where the agent's last action is known (retrieval runs there too), never at a task's first
  decision, where no action exists yet.
- *situation atoms* come from the facts of the TASK alone: true flags, items of short lists
  (question keywords, mentioned tables), short text values. Atoms whose text appears in the fix
  but not in the failed action rank first (a table the fix joins, a keyword it uses); with a
  population (the source tasks' facts, `GeneratorSettings.rarity`), the rarest atoms rank first
  (`"total" in question_keywords` before `"order_items" in tables`, which every task of the
  schema shares: measured on sql-shop, a record conditioned on it was offered after every failed
  query without GROUP BY, whatever the question asked).
- *the check's verdict* (`check_error`, with `GeneratorSettings.check_error_atoms`): the kind of
  mistake the failed check reported (`no_such_column`), the first mistake atom; a record that has
  it takes no situation atom, so it fires after the same kind of error on any question.
- *identity atoms* name the environment (a fact whose value is the task's environment or
  benchmark, e.g. `database == "shop_wholesale"`) or pin a small number (`n_vars == 20`). They never
  fire on a held-out environment, so they are used only when nothing else separates.

`derive_conditions` returns a ladder from most to least specific; admission keeps the first rung
that holds on the source decision (`choose_condition`). With `max_situation_share`, a rung of
situation atoms alone that holds on most source tasks is left out: it would fire almost anywhere.
The universal condition is a rung only when the decision has no facts at all: then no condition
can be tested anyway.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Literal

from countermem.core import (
    CHECK_ERROR_FACT,
    MALFORMED_FACT,
    Action,
    CheckResult,
    Facts,
    FactValue,
    FormFix,
    Salvage,
    Task,
    no_form_fix,
    salvaged_block,
    with_malformed_fact,
)
from countermem.memory._conditions import parse_condition
from countermem.memory._generator import Alternative, Proposal

AtomKind = Literal["mistake", "situation", "identity"]
SHORT_LIST_ITEMS = 12
"""A list fact with more items (all columns of a schema, all numbers of a problem) describes the
environment rather than the decision; its items are not used as atoms."""
SHORT_TEXT_CHARS = 32
MAX_IDENTITY_INT = 10_000


@dataclass(frozen=True)
class Atom:
    """One comparison, as condition text; `score` ranks situation atoms (higher is more relevant)."""

    text: str
    kind: AtomKind
    fact: str
    score: int = 0


@dataclass(frozen=True)
class DerivedCondition:
    """One rung of the ladder: the condition text and the atoms it joins."""

    text: str
    atoms: tuple[Atom, ...]
    rung: str

    @property
    def is_universal(self) -> bool:
        return not self.atoms


@dataclass(frozen=True)
class ConditionInputs:
    """What the builder reads; `situation` holds the task's facts alone (no action)."""

    situation: Facts
    failed: Facts
    fixed: Facts
    failed_text: str = ""
    fixed_text: str = ""
    identity_values: frozenset[str] = field(default_factory=frozenset)
    """Values that name the environment (task environment, benchmark name), compared casefolded."""
    population: tuple[Facts, ...] = ()
    """Task facts of the other decisions memory is built from (the source tasks). When given, a
    text fact that takes a different value on every one of them (a function's name, a theorem's
    name) is read as naming the task, so its atoms are identity atoms; and with `rank_by_rarity`
    situation atoms are ranked by how rarely they hold there, so the condition says what sets
    this decision apart rather than what every task of the schema shares."""
    rank_by_rarity: bool = True
    environments: tuple[str, ...] = ()
    """The environment of each task of `population` (same order); with `portable`, what tells a
    situation atom that transfers from one bound to the source's environment."""
    environment: str = ""
    """The source task's environment."""
    portable: bool = False
    """Situation atoms that hold on no population task of another environment become identity
    atoms (`GeneratorSettings.portable`)."""
    max_situation_share: float | None = None
    """A situation-only rung that holds on more than this share of `population` is left out
    (`GeneratorSettings.max_situation_share`)."""


@dataclass(frozen=True)
class BuilderLimits:
    mistake_atoms: int = 2
    situation_atoms_with_mistake: int = 1
    situation_atoms_alone: int = 2

    def __post_init__(self) -> None:
        if min(self.mistake_atoms, self.situation_atoms_alone) < 1 or self.situation_atoms_with_mistake < 0:
            raise ValueError("BuilderLimits: at least one mistake and one situation atom are needed")


def quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _number(value: float) -> str:
    return repr(int(value)) if float(value).is_integer() else repr(round(value, 6))


def _is_number(value: FactValue | None) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _looks_numeric(text: str) -> bool:
    try:
        float(text.replace(",", ""))
    except ValueError:
        return False
    return True


def _usable_text(text: str) -> bool:
    return bool(text.strip()) and "\n" not in text and len(text) <= SHORT_TEXT_CHARS


def action_fact_names(inputs: ConditionInputs) -> list[str]:
    """Facts that the action adds or changes, in the domain's order."""
    names: list[str] = []
    for facts in (inputs.failed, inputs.fixed):
        for name, value in facts.values.items():
            if name in names:
                continue
            if name not in inputs.situation.values or inputs.situation.values[name] != value:
                names.append(name)
    return names


def mistake_atoms(inputs: ConditionInputs) -> list[Atom]:
    """Atoms true of the failed action and false of its fix, at most one per fact."""
    by_kind: dict[str, list[Atom]] = {"bool": [], "list": [], "text": [], "number": []}
    for name in action_fact_names(inputs):
        failed = inputs.failed.get(name)
        fixed = inputs.fixed.get(name)
        if failed is None or failed == fixed:
            continue
        if isinstance(failed, bool):
            by_kind["bool"].append(Atom(name if failed else f"not {name}", "mistake", name))
        elif isinstance(failed, tuple):
            atom = _list_difference(name, failed, fixed)
            if atom is not None:
                by_kind["list"].append(atom)
        elif isinstance(failed, str):
            if _usable_text(failed):
                by_kind["text"].append(Atom(f"{name} == {quote(failed)}", "mistake", name))
        elif _is_number(failed):
            if _is_number(fixed):
                op = "<" if failed < fixed else ">"  # type: ignore[operator]
                by_kind["number"].append(Atom(f"{name} {op} {_number(fixed)}", "mistake", name))  # type: ignore[arg-type]
            else:
                by_kind["number"].append(Atom(f"{name} == {_number(failed)}", "mistake", name))
    atoms = [atom for kind in ("bool", "list", "text", "number") for atom in by_kind[kind]]
    return sorted(atoms, key=lambda atom: atom.fact != CHECK_ERROR_FACT)  # the check's own verdict first


def _list_difference(name: str, failed: tuple[str, ...], fixed: FactValue | None) -> Atom | None:
    fixed_items = {item.casefold() for item in fixed} if isinstance(fixed, tuple) else set()
    failed_items = {item.casefold() for item in failed}
    missing = [item for item in (fixed if isinstance(fixed, tuple) else ()) if item.casefold() not in failed_items]
    extra = [item for item in failed if item.casefold() not in fixed_items]
    for item in missing:
        if _usable_text(item):
            return Atom(f"{quote(item)} not in {name}", "mistake", name)
    for item in extra:
        if _usable_text(item):
            return Atom(f"{quote(item)} in {name}", "mistake", name)
    return None


def _relevance(text: str, inputs: ConditionInputs) -> int:
    needle = text.casefold()
    in_fixed = needle in inputs.fixed_text.casefold()
    in_failed = needle in inputs.failed_text.casefold()
    if in_fixed and not in_failed:
        return 2
    return 1 if in_fixed else 0


def situation_atoms(inputs: ConditionInputs) -> tuple[list[Atom], list[Atom]]:
    """Informative atoms of the task and identity atoms (environment names, small whole numbers),
    each true on the situation. Informative ones are ranked rarest first over `population` when
    there is one, then by relevance to the fix, then in the domain's order; one item per list fact."""
    informative: list[tuple[int, Atom]] = []
    identity: list[Atom] = []
    bound: list[Atom] = []
    naming = identifier_facts(inputs.population)
    elsewhere = _other_environments(inputs)

    def transfers(atom: Atom) -> bool:
        if elsewhere is None:
            return True
        condition = parse_condition(atom.text)
        if any(condition.evaluate(facts) for facts in elsewhere):
            return True
        bound.append(replace(atom, kind="identity"))
        return False

    def rank(atom: Atom) -> tuple[float, int]:
        return _base_rate(atom, inputs), -atom.score

    for order, (name, value) in enumerate(inputs.situation.values.items()):
        if isinstance(value, bool):
            if value and transfers(atom := Atom(name, "situation", name)):
                informative.append((order, atom))
        elif isinstance(value, tuple):
            if len(value) > SHORT_LIST_ITEMS:
                continue
            items = [
                Atom(f"{quote(item)} in {name}", "situation", name, _relevance(item, inputs))
                for item in value
                if _usable_text(item) and not _looks_numeric(item) and item.casefold() not in inputs.identity_values
            ]
            items = [atom for atom in items if transfers(atom)]
            if items:
                informative.append((order, min(items, key=rank)))  # the first of equally ranked items
        elif isinstance(value, str):
            if not _usable_text(value):
                continue
            atom_text = f"{name} == {quote(value)}"
            if value.casefold() in inputs.identity_values or name in naming:
                identity.append(Atom(atom_text, "identity", name))
            elif transfers(atom := Atom(atom_text, "situation", name, _relevance(value, inputs))):
                informative.append((order, atom))
        elif isinstance(value, int) and abs(value) <= MAX_IDENTITY_INT:
            identity.append(Atom(f"{name} == {value}", "identity", name))
    informative.sort(key=lambda item: (*rank(item[1]), item[0]))
    return [atom for _, atom in informative], identity + sorted(bound, key=rank)


def _other_environments(inputs: ConditionInputs) -> list[Facts] | None:
    """Population facts of tasks in other environments than the source's; None when `portable` is
    off, or the population does not say which environment each task is in, or has no other one
    (then nothing tells an atom that transfers from one that does not)."""
    if not (inputs.portable and inputs.environment and inputs.population):
        return None
    if len(inputs.environments) != len(inputs.population):
        return None
    others = [
        facts for facts, environment in zip(inputs.population, inputs.environments, strict=True)
        if environment and environment.casefold() != inputs.environment.casefold()
    ]
    return others or None


MIN_TASKS_FOR_IDENTIFIERS = 3


def identifier_facts(population: tuple[Facts, ...]) -> frozenset[str]:
    """Text facts whose value differs on every task of `population` (at least
    `MIN_TASKS_FOR_IDENTIFIERS` tasks carry them): they name a task rather than describe it.
    Measured on humaneval: `function_name == "circular_shift"` was the situation atom of every
    record, so none could fire on another task."""
    seen: dict[str, list[str]] = {}
    for facts in population:
        for name, value in facts.values.items():
            if isinstance(value, str):
                seen.setdefault(name, []).append(value.casefold())
    return frozenset(
        name for name, values in seen.items()
        if len(values) >= MIN_TASKS_FOR_IDENTIFIERS and len(set(values)) == len(values)
    )


def _base_rate(atom: Atom, inputs: ConditionInputs) -> float:
    """Share of the population where the atom holds; 0 for all atoms when there is none (no ranking)."""
    if not inputs.rank_by_rarity:
        return 0.0
    return _share(atom.text, inputs.population)


def _share(condition_text: str, population: tuple[Facts, ...]) -> float:
    if not population:
        return 0.0
    condition = parse_condition(condition_text)
    return sum(1 for facts in population if condition.evaluate(facts)) / len(population)


def _too_broad(rung: DerivedCondition, inputs: ConditionInputs) -> bool:
    bound = inputs.max_situation_share
    return bound is not None and rung.rung == "situation" and _share(rung.text, inputs.population) > bound


def _join(atoms: list[Atom], rung: str) -> DerivedCondition:
    text = " and ".join(atom.text for atom in atoms) if atoms else "none"
    parse_condition(text)
    return DerivedCondition(text=text, atoms=tuple(atoms), rung=rung)


def derive_conditions(inputs: ConditionInputs, limits: BuilderLimits | None = None) -> list[DerivedCondition]:
    """The ladder of candidate conditions, most specific first (see the module docstring)."""
    limits = limits or BuilderLimits()
    mistakes = mistake_atoms(inputs)[: limits.mistake_atoms]
    informative, identity = situation_atoms(inputs)
    ladder: list[DerivedCondition] = []
    if mistakes:
        with_situation = informative[: limits.situation_atoms_with_mistake]
        if with_situation:
            ladder.append(_join(mistakes + with_situation, "mistake+situation"))
        ladder.append(_join(mistakes, "mistake"))
    if informative:
        situation = _join(informative[: limits.situation_atoms_alone], "situation")
        if not _too_broad(situation, inputs):
            ladder.append(situation)
    if identity:
        ladder.append(_join(identity[:1], "identity"))
    if not (inputs.situation.values or inputs.failed.values):
        ladder.append(_join([], "universal"))
    unique: list[DerivedCondition] = []
    for rung in ladder:
        if all(rung.text != seen.text for seen in unique):
            unique.append(rung)
    return unique


def choose_condition(ladder: list[DerivedCondition], decision: Facts) -> DerivedCondition | None:
    """The most specific rung that holds on the decision where the record was learned."""
    for rung in ladder:
        if parse_condition(rung.text).evaluate(decision):
            return rung
    return None


FactsOf = Callable[[Task, Action | None], Facts]
"""A benchmark's `facts(task, action)`: the domain computes facts, memory only reads them."""


@dataclass(frozen=True)
class ConditionContext:
    """What deriving a condition needs beyond the proposal: the domain's facts function."""

    facts_of: FactsOf
    limits: BuilderLimits = field(default_factory=BuilderLimits)
    population: tuple[Facts, ...] = ()
    """Task facts of the source tasks (see `ConditionInputs.population`); empty: no rarity ranking
    and no identifier facts."""
    rank_by_rarity: bool = True
    environments: tuple[str, ...] = ()
    """The environment of each population task (see `ConditionInputs.environments`)."""
    portable: bool = False
    max_situation_share: float | None = None
    error_kind: Callable[[CheckResult], str | None] | None = None
    """`Benchmark.error_kind` when `GeneratorSettings.check_error_atoms` is on: construction's
    decision facts then carry `check_error`, which becomes the record's first mistake atom."""
    error_with_situation: bool = False
    """`GeneratorSettings.check_error_situation`: the error and one situation atom, no action atom."""
    salvage: Salvage = salvaged_block
    """`Benchmark.salvage`: the action a malformed answer holds (a form repair's action)."""
    form_fix: FormFix = no_form_fix
    """`Benchmark.form_fix`: the action a check failed on form alone becomes (a form repair's action)."""


def identity_values(task: Task) -> frozenset[str]:
    return frozenset(v.casefold() for v in (task.environment, task.benchmark, task.id) if v)


def derive_for_proposal(
    proposal: Proposal,
    *,
    task: Task,
    failed_action: Action,
    decision: Facts,
    context: ConditionContext | None,
) -> Proposal:
    """Each alternative gets the most specific derived condition that holds on `decision`.

    Without a context (a caller with no facts function), the decision's facts stand in for the
    task's and both actions', so only situation and identity atoms can be derived. After a
    malformed answer (`malformed_answer` in `decision`) the failed side is the task's facts plus
    that flag: the raw text is no action a domain can describe, and the slip is the mistake.
    A form repair (the answer's own block, unchanged) is conditioned on the slip alone, with no
    situation atom: the missing `Action:` line is the mistake whatever the task asks. With
    `context.error_kind`, the check's verdict (`check_error` in `decision`) is the failed side's
    first fact, and the record is conditioned on its mistake alone in the same way: the same kind of
    error after the same kind of action, whatever the question or schema (or, with
    `context.error_with_situation`, the error and the most telling situation atom).
    """
    if proposal.condition_source != "derived":
        return proposal
    if context is not None:
        situation = context.facts_of(task, None)
        failed = (
            with_malformed_fact(situation, failed_action.content, context.salvage)
            if decision.get(MALFORMED_FACT) is True
            else context.facts_of(task, failed_action)
        )
        limits = context.limits
        check_error = decision.get(CHECK_ERROR_FACT) if context.error_kind else None
        if isinstance(check_error, str):
            failed = Facts(values={CHECK_ERROR_FACT: check_error, **failed.values})
            limits = (replace(limits, mistake_atoms=1) if context.error_with_situation
                      else replace(limits, situation_atoms_with_mistake=0))
    else:
        situation = failed = decision
        limits = BuilderLimits()
    form_limits = replace(limits, situation_atoms_with_mistake=0)
    derived: list[Alternative] = []
    for alternative in proposal.alternatives:
        fixed = context.facts_of(task, alternative.action) if context is not None else decision
        inputs = ConditionInputs(
            situation=situation,
            failed=failed,
            fixed=fixed,
            failed_text=failed_action.content,
            fixed_text=alternative.action.content,
            identity_values=identity_values(task),
            environment=task.environment or "",
        )
        if context is not None:
            inputs = replace(
                inputs,
                population=context.population,
                rank_by_rarity=context.rank_by_rarity,
                environments=context.environments,
                portable=context.portable,
                max_situation_share=context.max_situation_share,
            )
        ladder = derive_conditions(
            inputs,
            form_limits if alternative.form_repair else limits,
        )
        chosen = choose_condition(ladder, decision)
        derived.append(
            alternative.model_copy(
                update={
                    "condition_text": chosen.text if chosen is not None else None,
                    "condition_origin": f"derived:{chosen.rung if chosen is not None else 'none'}",
                }
            )
        )
    return proposal.model_copy(update={"alternatives": derived})
