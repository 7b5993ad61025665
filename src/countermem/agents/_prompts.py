"""Prompts shared by the agents; domain specifics come from `Benchmark.instructions()`."""

from __future__ import annotations

from countermem.core import ADVICE_BLOCK_HEADER, CheckResult

OBSERVATION_LIMIT = 600
"""Characters of a check's details shown to the agent; longer details are cut with a marker."""

SYSTEM_TEMPLATE = """You solve {domain} tasks. An executable checker judges your actions.
Answer every turn in exactly this format:

Thought: <one or two sentences>
Action: check
```{language}
<the complete action>
```

Use `Action: check` to run the checker on an action and see the result (each check costs one \
evaluator call). Use `Action: submit` with the same format to give your final answer; this ends \
the task; a bare `Action: submit` submits the action you checked last. Submit as soon as a \
check passes.

{instructions}"""

MALFORMED_TEMPLATE = """Your answer did not follow the format: {reason}
Answer again with a Thought, then `Action: check` or `Action: submit`, then the action in a \
```{language} code block."""

ADVICE_HEADER = ADVICE_BLOCK_HEADER
EXPIRED_ADVICE_NOTE = "(memory advice, record {record_id}, was shown here for one reply)"
"""What stays of advice that expires (`Advice.expires`) once the model has answered it."""
ANSWER_IN_ADVICE_NOTE = "(my answer had no `Action:` line; the memory advice below shows it, corrected)"
"""What stays of a malformed answer that the advice after it shows whole (`Advice.holds_last_answer`)."""

FOCUSED_TEMPLATE = """{task}
{earlier}
## Your last action (it failed its check)
```{language}
{action}
```

## Check result
{observation}{repeated}
{advice}
Correct YOUR action for THIS task from the check result. Answer with a Thought, then \
`Action: check`, then the complete corrected action in a ```{language} code block."""
"""The prompt after a failed check when `AgentLimits.after_failure` is `focused`: the task, the
failed action and its verdict, not the whole history (docs/results.md, issue 24). Earlier failed
actions are listed briefly, and a repeat is named, so that a greedy model given the same failure
twice is not given the same prompt twice (it would answer the same)."""

FOCUSED_EARLIER = """
## Earlier actions of yours that failed (do not send them again)
{actions}
"""

FOCUSED_REPEATED = """
You sent this same action before, and it failed the same way: change it."""

FOCUSED_EARLIER_LIMIT = 2
"""Earlier failed actions listed in a focused prompt (the most recent ones)."""


def truncate(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[: limit - 20].rstrip() + f"\n...[{len(text) - limit + 20} characters cut]"


def render_observation(result: CheckResult, *, show_utility: bool = True) -> str:
    verdict = "PASSED" if result.passed else "FAILED"
    utility = f", utility {result.utility:.2f}" if show_utility else ""
    lines = [f"Observation: check {verdict} (status {result.status}{utility})."]
    if result.details:
        lines.append(truncate(result.details, OBSERVATION_LIMIT))
    if result.passed:
        lines.append("Submit it now: answer `Action: submit` (the checked action is submitted).")
    return "\n".join(lines)
