"""A malformed answer as a failed action: what an agent reports and what memory may learn from.

Why: small models fail most often on the answer's form, not its content (a Thought that declares
a formula unsatisfiable and stops, a proof with no `Action:` line). Such an answer is a failed
attempt in the metrics; treating it as a failed action with utility 0 lets construction learn a
verified correction from it and lets retrieval offer one right after it, when a later agent
makes the same slip. The verdict is the agent's, never a checker's, and says so (`malformed`).
Agents do this only when asked (`AgentLimits.memory_after_malformed`, `[memory] after_malformed`):
on humaneval a 0.5B copied such a record's code for another task into its answer (docs/results.md).

The decision after a malformed answer carries the task's facts plus `malformed_answer = true`
and none of the action's facts (the raw text is no action a domain can describe), so a record
learned there is conditioned on the slip itself and fires only after another one. When the
answer held its action in a closed code block and only the `Action:` line was missing,
`malformed_has_block = true` as well: that slip has a repair that needs no new content (the
block itself, `salvaged_block`), which construction checks as one of its alternatives and
advice can show applied to a later agent's own block (`countermem.memory._form_repair`).
What counts as such a salvageable action is the domain's (`Benchmark.salvage`, a `Salvage`):
a closed code block everywhere, and on math also a final answer the working states without
any block (the 1.5B boxed the reference answer in its Thought and wrote no `Action:` line, 8
times in 10 gsm8k tasks; docs/results.md). The fact keeps its name for stored conditions.
A well-formed action can fail on form too, at the checker: math working with no final answer line
(`no final answer found`) is graded 0 whatever it computed. Its repair is the domain's as well
(`Benchmark.form_fix`, a `FormFix`), and it is learned and shown like a salvaged action.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeAlias

from countermem.core._types import Action, CheckResult, Facts, Task

MALFORMED_FACT = "malformed_answer"
"""True at the decision right after an answer that broke the output contract; absent elsewhere."""
MALFORMED_BLOCK_FACT = "malformed_has_block"
"""True after a malformed answer that holds a closed, non-empty fenced code block."""
_FLAGS = (MALFORMED_FACT, MALFORMED_BLOCK_FACT)
MALFORMED_DETAILS_PREFIX = "not checked: the answer did not follow the format: "
CHECK_ERROR_FACT = "check_error"
"""After a failed check, the kind of mistake it reports (`Benchmark.error_kind`), when the domain names one."""

CLOSED_FENCE = re.compile(r"^[ \t]*(`{3,})[ \t]*[A-Za-z0-9_+.-]*[ \t]*\n(.*?)^[ \t]*\1[ \t]*$", re.DOTALL | re.MULTILINE)
"""A closed fenced code block; group 2 is its body."""


Salvage: TypeAlias = Callable[[str], "str | None"]
"""The action a malformed answer holds when only the contract's form was missing; None if none."""
FormFix: TypeAlias = Callable[[str, CheckResult], "str | None"]
"""The action a *checked* action becomes when its check failed on the form of its answer alone
(`Benchmark.form_fix`: math working with no final answer line gets one); None if none."""


def no_form_fix(action: str, result: CheckResult) -> str | None:
    """The default: a domain whose checks have no failure of form alone."""
    return None


def form_repaired(action: str, result: CheckResult, salvage: Salvage, form_fix: FormFix) -> str | None:
    """What a failed action becomes by form alone (`Decision.salvaged`): what a malformed answer
    holds, or a checked action made well-formed; None after a pass. The agent offers form repairs
    of it and construction learns them, so both derive it here."""
    if result.passed:
        return None
    return salvage(action) if is_malformed(result) else form_fix(action, result)


def salvaged_block(answer: str) -> str | None:
    """The longest closed, non-empty fenced code block of a malformed answer, stripped; None if none.

    The longest: a small model that adds a usage example or a test after its code writes a
    shorter block, and the action is the code."""
    blocks = [match.group(2).strip() for match in CLOSED_FENCE.finditer(answer)]
    blocks = [block for block in blocks if block]
    return max(blocks, key=len) if blocks else None


def malformed_result(reason: str) -> CheckResult:
    """The agent's verdict on an answer it could not parse: failed, utility 0, no checker call."""
    return CheckResult(
        utility=0.0,
        passed=False,
        completed=True,
        status="malformed",
        details=MALFORMED_DETAILS_PREFIX + reason,
    )


def is_malformed(result: CheckResult | None) -> bool:
    return result is not None and result.status == "malformed"


def with_malformed_fact(facts: Facts, answer: str | None = None, salvage: Salvage = salvaged_block) -> Facts:
    """`facts` with `malformed_answer = true` first, so a derived condition names the slip first;
    with the malformed `answer`, also `malformed_has_block` when `salvage` finds its action."""
    flags: dict[str, bool] = {MALFORMED_FACT: True}
    if answer is not None and salvage(answer) is not None:
        flags[MALFORMED_BLOCK_FACT] = True
    return Facts(values={**flags, **{k: v for k, v in facts.values.items() if k not in _FLAGS}})



def facts_after(
    facts_of: Callable[[Task, Action | None], Facts],
    task: Task,
    action: Action | None,
    result: CheckResult | None,
    error_kind: Callable[[CheckResult], str | None] | None = None,
    salvage: Salvage = salvaged_block,
) -> Facts:
    """The facts of the decision after `action` was judged `result`: the agent asks at that decision
    and construction learns there, so both read the facts through this one function. With
    `error_kind` (a domain's `Benchmark.error_kind`), a failed check adds `check_error`, the kind
    of mistake it reports. `salvage` is the domain's (`Benchmark.salvage`)."""
    if is_malformed(result):
        return with_malformed_fact(facts_of(task, None), action.content if action is not None else None, salvage)
    facts = facts_of(task, action)
    if error_kind is None or result is None or result.passed:
        return facts
    kind = error_kind(result)
    return facts if kind is None else Facts(values={**facts.values, CHECK_ERROR_FACT: kind})
