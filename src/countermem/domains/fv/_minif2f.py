"""minif2f-coq: the miniF2F statements (test and valid) in Coq, from LLM4Rocq/miniF2F-rocq.

Only statements that compile with Coq 8.16.1 and the standard library become tasks (446 of
488, per the data folder's `coq_8.16.1_check.tsv`); the others need Coquelicot, mathcomp or the
Rocq 9 `From Stdlib` prefix, and `skipped()` counts them by reason. A task's environment is its
import set (library names of its `Require` lines, sorted and joined by `+`; `Init` for none),
so splits keep import sets disjoint; `Reals` alone holds about 190 tasks.

miniF2F has no Coq proofs. `gold_action` therefore raises `DataUnavailableError` for every task
except the few we proved ourselves (package data `data/minif2f_proofs.json`, each checked by the
tests). Proofs may use the axioms of the standard library the task imports (the real numbers
rest on axioms) and the `Parameter`/`Axiom` a task's own context declares (`amc12a_2016_p3`
declares `Rfloor`); see `AxiomPolicy`. `audit_status` in a task's metadata repeats the source's
expert audit (`no changes`, `syntax improvement`, `reformulation`, `wrong`, or `not audited`);
we keep every compiling statement and do not judge them ourselves.

Look-alikes of a task are statements of the same competition family (`mathd_algebra`,
`amc12a`, `imo`, ...) with the same imports and a different statement. Where the task has one of
our proofs, only look-alikes on which that stored proof FAILS (checked with coqc) are returned;
for the other tasks there is no stored proof to check, so the look-alikes are the family
matches, unverified.
"""

from __future__ import annotations

import csv
import io
import json
import random
import re
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from countermem.core import Action, DataUnavailableError, Task
from countermem.domains._data import dataset_dir, recorded_checksums, verified_file
from countermem.domains.fv._benchmark import CoqBenchmark
from countermem.domains.fv._facts import imports_of
from countermem.domains.fv._lemma_files import read_data_text
from countermem.domains.fv._problem import CoqProblem


def _family(theorem: object) -> str:
    """`mathd_algebra_10` -> `mathd_algebra`, `amc12a_2019_p12` -> `amc12a`, `imo_1959_p1` -> `imo`."""
    parts = str(theorem).split("_")
    if parts[0] == "mathd" and len(parts) > 1:
        return "_".join(parts[:2])
    return parts[0]


DATASET = "minif2f_coq"
CHECK_TABLE = "coq_8.16.1_check.tsv"
PROOFS_FILE = "minif2f_proofs.json"
_PROOF_SENTENCE = re.compile(r"(?<![\w'.])Proof\s*\.")
_REAL_LIBRARIES = frozenset(
    {"Reals", "Rbase", "Rdefinitions", "RIneq", "Rfunctions", "Rbasic_fun", "Rpower", "Lra", "Psatz",
     "Qreals", "Rtrigo", "Ranalysis", "R_sqrt", "Rsqrt_def"}
)
LIA_PRELUDE = "From Coq Require Import Lia. (* added by countermem: lia, nia *)\n"
LRA_PRELUDE = "From Coq Require Import Lra. (* added by countermem: lra, nra *)\n"


def prelude_for(imports: tuple[str, ...]) -> str:
    """`lia` everywhere, `lra` where the task already loads the real numbers.

    Lia.v and Lra.v define tactics only (no terms, notations or scopes), and they come before
    the task's own imports, so they cannot change what the statement means. `lra` is not
    added elsewhere because it would load the real numbers (half a second per check).
    """
    return LIA_PRELUDE + (LRA_PRELUDE if _REAL_LIBRARIES.intersection(imports) else "")


@dataclass(frozen=True)
class ParsedStatement:
    preamble: str
    statement: str


def parse_statement_file(name: str, text: str) -> ParsedStatement:
    """Split a miniF2F file into the context before `Theorem <name>` and the statement up to
    `Proof.`; what follows (`Admitted.`, a second theorem in `imo_1966_p5`) is dropped."""
    header = re.search(rf"^(Theorem|Lemma)\s+{re.escape(name)}(?![\w'])", text, re.M)
    if header is None:
        raise DataUnavailableError(f"{name}.v has no `Theorem {name}`")
    proof = _PROOF_SENTENCE.search(text, header.end())
    if proof is None:
        raise DataUnavailableError(f"{name}.v has no `Proof.` after its theorem")
    return ParsedStatement(preamble=text[: header.start()].rstrip() + "\n", statement=text[header.start() : proof.start()].strip())


class MiniF2FCoq(CoqBenchmark):
    name = "minif2f-coq"
    description = (
        "miniF2F olympiad statements in Coq (LLM4Rocq/miniF2F-rocq, test+valid), the 446 that compile "
        "with Coq 8.16 and the standard library; no gold proofs except a few of our own"
    )
    default_timeout_s = 30.0

    def data_source(self) -> Path | None:
        return self._folder()

    def _folder(self) -> Path:
        if self.options.data_dir is not None:
            folder = self.options.data_dir / DATASET
            if not (folder / "SOURCE.md").is_file():
                raise DataUnavailableError(f"{folder} has no SOURCE.md: minif2f-coq data is missing there")
            return folder
        return dataset_dir(DATASET)

    def _available_note(self, count: int) -> str:
        skipped = ", ".join(f"{n} {why}" for why, n in sorted(self.skipped().items()))
        return f"{count} statements (skipped: {skipped})"

    def tasks(self) -> list[Task]:
        return list(self._loaded[0])

    def skipped(self) -> dict[str, int]:
        """Statements not made into tasks, counted by reason."""
        return dict(self._loaded[1])

    @cached_property
    def _proofs(self) -> dict[str, str]:
        raw = json.loads(read_data_text(PROOFS_FILE))
        return {str(name): str(proof) for name, proof in raw["proofs"].items()}

    @cached_property
    def _loaded(self) -> tuple[tuple[Task, ...], Counter[str]]:
        folder = self._folder()
        rows = list(
            csv.DictReader(
                io.StringIO(verified_file(folder, CHECK_TABLE).read_text(encoding="utf-8")), delimiter="\t"
            )
        )
        audit = json.loads(verified_file(folder, "audit.json").read_text(encoding="utf-8"))
        recorded = recorded_checksums(folder)
        tasks: list[Task] = []
        skipped: Counter[str] = Counter()
        for row in rows:
            relative = row["file"]
            if row["coqc_8.16.1_stdlib"] != "ok":
                need = row["non_stdlib_requirement"]
                skipped[f"need {need}" if need and need != "-" else "fail with coqc 8.16.1"] += 1
                continue
            if relative not in recorded:
                skipped["not listed in SOURCE.md"] += 1
                continue
            tasks.append(self._task(folder, relative, audit))
        return tuple(tasks), skipped

    def _task(self, folder: Path, relative: str, audit: dict[str, dict[str, object]]) -> Task:
        split, filename = relative.split("/", 1)
        theorem = filename[: -len(".v")]
        parsed = parse_statement_file(theorem, verified_file(folder, relative).read_text(encoding="utf-8"))
        imports = imports_of(parsed.preamble)
        problem = CoqProblem(
            theorem=theorem,
            preamble=parsed.preamble,
            statement=parsed.statement,
            policy="library",
            prelude=prelude_for(imports),
        )
        audit_entry = audit.get(theorem)
        return Task(
            id=f"minif2f-coq/{split}/{theorem}",
            benchmark=self.name,
            domain=self.domain,
            prompt=f"Prove in Coq: {' '.join(parsed.statement.split())}",
            environment="+".join(imports) or "Init",
            gold=self._proofs.get(theorem),
            metadata={
                **problem.to_metadata(),
                "split": split,
                "source_file": relative,
                "audit_status": str(audit_entry["status"]) if audit_entry else "not audited",
            },
        )

    LOOKALIKES_PER_TASK = 3

    def lookalikes(self, task: Task, rng: random.Random) -> list[Task]:
        family = _family(task.metadata.get("theorem", task.id.rsplit("/", 1)[-1]))
        pool = [
            other for other in self.tasks()
            if other.id != task.id and other.environment == task.environment
            and _family(str(other.metadata.get("theorem", other.id.rsplit("/", 1)[-1]))) == family
            and other.prompt != task.prompt
        ]
        rng.shuffle(pool)
        if task.gold is None:
            return pool[: self.LOOKALIKES_PER_TASK]
        stored = self.gold_action(task)
        world = self.world_model()
        found: list[Task] = []
        for other in pool:
            world.reset(other)
            if not world.check(stored).passed:
                found.append(other)
            if len(found) == self.LOOKALIKES_PER_TASK:
                break
        return found

    def gold_action(self, task: Task) -> Action:
        if task.gold is None:
            raise DataUnavailableError(
                f"{task.id} has no gold proof: miniF2F ships statements only, and we proved just "
                f"{len(self._proofs)} of them ourselves (data/{PROOFS_FILE}); filter on `task.gold` "
                "to use only those"
            )
        return Action(content=task.gold)
