"""What the two Coq benchmarks share: the action contract, prompts, facts and world model."""

from __future__ import annotations

from abc import abstractmethod

from countermem.core import Action, CheckerUnavailableError, CheckResult, DataUnavailableError, Facts, Task
from countermem.domains._protocol import Availability, Benchmark
from countermem.domains.fv._coqc import CoqcLimits, coqc_path, coqc_version, run_coqc
from countermem.domains.fv._errors import error_kind
from countermem.domains.fv._facts import coq_facts
from countermem.domains.fv._problem import CoqProblem
from countermem.domains.fv._sandboxed import coq_sandbox_availability, run_coqc_sandboxed
from countermem.domains.fv._worldmodel import CoqWorldModel

WRONG_PROOF = "Proof.\n  intros.\n  exact I.\nQed."
"""Wrong for every theorem whose conclusion is not `True`, which holds for every task we ship:
`I` proves only `True`, so coqc answers with a type error naming the real goal."""

INSTRUCTIONS = """\
You write Coq proofs checked by coqc 8.16 with the standard library only.
The task gives a fixed context (imports, scopes, definitions) and a theorem. Both are already in
the file; you cannot change them. Your action is the proof of that theorem and nothing else:

```coq
Proof.
  intros n.
  induction n as [| n IH].
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed.
```

Rules:
- Start with `Proof.` and end with `Qed.`; write only tactics in between.
- If you need a helper fact, prove it inside the proof with `assert (H : ...). { ... }`.
- Never use `admit`, `Admitted`, `Axiom`, `Parameter`, `Hypothesis`, `Variable`, `Abort`,
  `Require`, `Set`/`Unset` or a second `Theorem`/`Lemma`: such proofs are refused.
- If you restate the theorem, it must be exactly the task's statement; changed statements are refused.
Useful tactics: intros, simpl, rewrite, reflexivity, induction, destruct, apply, exact, lia
(linear arithmetic on nat/Z), nia (nonlinear), lra/nra (real numbers), ring, field, auto.
When a check fails you see coqc's error and the proof line it points at; change that step."""


class CoqBenchmark(Benchmark):
    """Shared behaviour; subclasses supply the tasks and their gold proofs."""

    domain = "fv"
    action_language = "coq"
    checker_name = "coqc"
    default_timeout_s = 20.0

    def _coqc_reason(self) -> str | None:
        if coqc_path() is None:
            return "coqc is not on PATH: install Coq 8.16 (Debian/Ubuntu: apt-get install coq)"
        if not self.options.unsafe_no_sandbox:
            sandbox = coq_sandbox_availability()
            if not sandbox.available:
                return (
                    f"coqc cannot run sandboxed: {sandbox.reason}. Only if you accept checking proofs "
                    "with rlimits alone, pass unsafe_no_sandbox"
                )
        return None

    def availability(self) -> Availability:
        reason = self._coqc_reason()
        if reason:
            return Availability(False, reason)
        try:
            count = len(self.tasks())
        except DataUnavailableError as error:
            return Availability(False, str(error))
        return Availability(True, f"{self._available_note(count)}, coqc {self.checker_version() or '?'}")

    @abstractmethod
    def _available_note(self, count: int) -> str:
        """What the benchmark holds, given its task count, for an `Availability` reason."""

    def checker_version(self) -> str | None:
        return coqc_version()

    def world_model(self) -> CoqWorldModel:
        """Sandboxed by default; rlimits only when the options say `unsafe_no_sandbox`."""
        reason = self._coqc_reason()
        if reason:
            raise CheckerUnavailableError(reason)
        timeout = self.options.timeout_s if self.options.timeout_s is not None else self.default_timeout_s
        limits = CoqcLimits(timeout_s=timeout)
        if self.options.unsafe_no_sandbox:
            return CoqWorldModel(limits, run_coqc, sandboxed=False)
        return CoqWorldModel(limits, run_coqc_sandboxed, sandboxed=True)

    def instructions(self) -> str:
        return INSTRUCTIONS

    def render_task(self, task: Task) -> str:
        problem = CoqProblem.from_task(task)
        return (
            f"Prove the theorem `{problem.theorem}`.\n\n"
            f"Fixed context (already in the file):\n```coq\n{problem.context.strip()}\n```\n\n"
            f"Theorem (already in the file, do not change it):\n```coq\n{problem.statement.strip()}\n```\n\n"
            "Answer with the proof only, from `Proof.` to `Qed.`, in a ```coq block."
        )

    def facts(self, task: Task, action: Action | None = None) -> Facts:
        return coq_facts(CoqProblem.from_task(task), task.environment, action)

    def error_kind(self, result: CheckResult) -> str | None:
        return error_kind(result.status, result.details)

    def wrong_action(self, task: Task) -> Action:
        return Action(content=WRONG_PROOF)
