"""coq-basics: 125 lemmas on nat, lists, booleans, options, pairs and trees that we wrote and
proved ourselves.

Every lemma ships with a real proof (package data `data/basics_<environment>.v`; each file
compiles with `coqc` as it stands). The ten files are the ten environments, so a split keeps
e.g. all `list_fun` lemmas together (with 0.4/0.2/0.4 fractions, split seeds 0-199 all give
50 construction, 25 training and 50 held-out tasks). Look-alike pairs share a shape but differ
in statement, and the proof of one fails on the other (`0 + n = n` by `reflexivity`, `n + 0 = n`
only by induction); `lookalikes` returns a task's partners. Proofs must be closed under the
global context (no axiom at all).
"""

from __future__ import annotations

import random
from functools import cached_property

from countermem.core import Action, DataUnavailableError, Task
from countermem.domains.fv._benchmark import WRONG_PROOF, CoqBenchmark
from countermem.domains.fv._lemma_files import LemmaFile, data_files, parse_lemma_file, read_data_text
from countermem.domains.fv._problem import CoqProblem
from countermem.domains.fv._script import blank_comments_and_strings, tactics_used

_PREFIX = "basics_"
_NAIVE_WRONG = "Proof.\n  intros.\n  reflexivity.\nQed."


def _group(environment: str, tags: dict[str, str]) -> str:
    group = tags.get("group", "")
    return f"{environment}:{group}" if group else ""


class CoqBasics(CoqBenchmark):
    name = "coq-basics"
    description = (
        "125 hand-written Coq lemmas on nat, lists, booleans, options, pairs and trees "
        "(induction, rewriting, lia), in 10 environments, with look-alike pairs; "
        "every lemma ships with a checked proof"
    )
    default_timeout_s = 10.0

    @cached_property
    def _files(self) -> tuple[LemmaFile, ...]:
        files = data_files(_PREFIX)
        if not files:
            raise DataUnavailableError("coq-basics lemma files (data/basics_*.v) are missing; reinstall countermem")
        return tuple(
            parse_lemma_file(name[: -len(".v")], read_data_text(name)) for name in files
        )

    def _available_note(self, count: int) -> str:
        return f"{count} lemmas"

    def tasks(self) -> list[Task]:
        return list(self._tasks)

    @cached_property
    def _tasks(self) -> tuple[Task, ...]:
        tasks: list[Task] = []
        for lemma_file in self._files:
            environment = lemma_file.stem[len(_PREFIX) :]
            for lemma in lemma_file.lemmas:
                problem = CoqProblem(
                    theorem=lemma.name,
                    preamble=lemma_file.preamble,
                    statement=lemma.statement,
                    policy="closed",
                )
                tasks.append(
                    Task(
                        id=f"coq-basics/{environment}/{lemma.name}",
                        benchmark=self.name,
                        domain=self.domain,
                        prompt=f"Prove in Coq: {' '.join(lemma.statement.split())}",
                        environment=environment,
                        gold=lemma.proof,
                        metadata={**problem.to_metadata(), "lookalike_group": _group(environment, lemma.tags)},
                    )
                )
        return tuple(tasks)

    def gold_action(self, task: Task) -> Action:
        if task.gold is None:
            raise DataUnavailableError(f"{task.id} has no gold proof; coq-basics tasks all ship one")
        return Action(content=task.gold)

    def wrong_action(self, task: Task) -> Action:
        """`intros. reflexivity.`, the naive first try, where the real proof needs more than
        that; where `reflexivity` does suffice, `exact I` (the goal is never `True`)."""
        gold = task.gold or ""
        used = set(tactics_used(blank_comments_and_strings(gold)[0]))
        return Action(content=WRONG_PROOF if used <= {"intros", "intro", "reflexivity"} else _NAIVE_WRONG)

    def lookalikes(self, task: Task, rng: random.Random) -> list[Task]:
        group = str(task.metadata.get("lookalike_group", ""))
        if not group:
            return []
        partners = [
            other
            for other in self._tasks
            if other.id != task.id and other.metadata.get("lookalike_group") == group
        ]
        rng.shuffle(partners)
        return partners
