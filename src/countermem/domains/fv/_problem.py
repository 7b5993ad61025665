"""One Coq task as the checker needs it: fixed context, fixed statement, assumption policy.

The problem travels inside `Task.metadata` so that a task read back from a log or a memory
record can be checked again without the benchmark that made it.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Literal

from countermem.core import ConfigError, Task

AxiomPolicy = Literal["closed", "library"]
"""`closed`: the proof must rest on no axiom at all (`Print Assumptions` says "Closed under the
global context"). `library`: axioms of the standard library the task imports are accepted (the
real numbers of `Reals` rest on two of them, so no real-number proof is closed), and so are the
assumptions the task's own context declares; anything the proof introduces is not."""

_DECLARATION = re.compile(
    r"(?<![\w'.])(?:Axiom|Axioms|Parameter|Parameters|Conjecture|Hypothesis|Hypotheses|Variable|Variables)"
    r"\s+([^:]+?)\s*:",
)


@dataclass(frozen=True)
class CoqProblem:
    theorem: str
    preamble: str
    """Imports, scopes and definitions that precede the theorem; fixed by the task."""
    statement: str
    """`Theorem name ... : ... .`; fixed by the task, only the proof is the agent's."""
    policy: AxiomPolicy
    prelude: str = ""
    """Tactic libraries the benchmark loads before the task's own context (so that `lia` and
    `lra` exist even where the source file did not import them); the context comes after it,
    so the task's own imports and definitions still take precedence for every name."""

    @property
    def context(self) -> str:
        """Everything before the theorem, as it is compiled."""
        return f"{self.prelude}{self.preamble}" if self.prelude else self.preamble

    @property
    def declared_assumptions(self) -> frozenset[str]:
        names: set[str] = set()
        for match in _DECLARATION.finditer(self.preamble):
            names.update(name.strip("() ") for name in match.group(1).split())
        return frozenset(name for name in names if name)

    @property
    def fingerprint(self) -> str:
        digest = hashlib.sha256(f"{self.prelude}\x00{self.preamble}\x00{self.statement}".encode())
        return digest.hexdigest()[:16]

    def to_metadata(self) -> dict[str, str]:
        return {
            "theorem": self.theorem,
            "preamble": self.preamble,
            "statement": self.statement,
            "axiom_policy": self.policy,
            "prelude": self.prelude,
        }

    @classmethod
    def from_task(cls, task: Task) -> CoqProblem:
        meta = task.metadata
        missing = [key for key in ("theorem", "preamble", "statement", "axiom_policy") if key not in meta]
        if missing:
            raise ConfigError(
                f"task {task.id!r} is not a Coq task: its metadata lacks {', '.join(missing)}; "
                "make Coq tasks with a fv benchmark's tasks()"
            )
        policy = meta["axiom_policy"]
        if policy not in ("closed", "library"):
            raise ConfigError(f"task {task.id!r} has axiom_policy {policy!r}; use 'closed' or 'library'")
        return cls(
            theorem=str(meta["theorem"]),
            preamble=str(meta["preamble"]),
            statement=str(meta["statement"]),
            policy=policy,
            prelude=str(meta.get("prelude", "")),
        )
