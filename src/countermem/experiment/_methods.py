"""The methods a study compares, each a recipe over the three stages.

A method says which store it builds on source tasks (its *family*: methods that differ only in
how they read a store share one build), whether a selector is trained, and how advice reaches
the agent on held-out tasks. Ablations are methods too, so that every comparison of the paper
is one more name in a study config.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from countermem.core import ConfigError

MethodKind = Literal["none", "countermem", "strategy", "checked", "best_of_n"]
RETENTION_RULES = ("utility", "similarity", "recency", "random")


class MethodSpec(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    kind: MethodKind
    description: str
    family: str | None = None
    """Construct group; methods with the same family read the same store. None: no store."""
    admission: Literal["verified", "unverified"] = "verified"
    rank: Literal["similarity", "random", "shuffled"] = "similarity"
    use_conditions: bool = True
    retention: str = "utility"
    retention_capacity: bool = False
    """Use baselines.retention_capacity instead of memory.capacity (the retention comparison)."""
    strategy_labels: Literal["llm_judge", "checker"] = "llm_judge"
    matts: bool = False
    rendering: Literal["correction", "compact", "lesson"] = "correction"
    """How an offered record is shown (`AdvisorOptions.rendering`)."""
    repeat_offers: bool = True
    """False: a record is offered at most once per task (`AdvisorOptions.repeat_offers`)."""
    offer_at_start: bool = True
    """False: no record before the agent's first action (`AdvisorOptions.offer_at_start`)."""
    advice_lifetime: Literal["task", "reply"] = "task"
    """reply: an offered record leaves the prompt after the reply it informs (`AdvisorOptions.advice_lifetime`)."""
    answer_once: bool = False
    """A form repair shown applied to the agent's last answer takes that answer's place in its
    history (`AdvisorOptions.answer_once`)."""
    selector: Literal["dqn", "top1", "skip", "random"] | None = None
    """The selector this method uses whatever `[memory] selector` says (None: the config's), so
    that one study compares selectors on the same store and tasks."""

    def selector_in(self, configured: str) -> str:
        """The selector this method evaluates with, given the study's `[memory] selector`."""
        return self.selector or configured

    @property
    def uses_store(self) -> bool:
        return self.family is not None


def _retention(rule: str) -> MethodSpec:
    return MethodSpec(
        name=f"retention-{rule}", kind="countermem", family=f"retention-{rule}", retention=rule,
        retention_capacity=True,
        description=f"countermem with the {rule} retention rule at the retention comparison's capacity",
    )


def _selector(kind: Literal["dqn", "top1", "skip", "random"]) -> MethodSpec:
    return MethodSpec(
        name=f"countermem-{kind}", kind="countermem", family="verified", selector=kind,
        description=f"countermem's store with the {kind} selector, whatever [memory] selector says",
    )


def _lesson(
    name: str, description: str, *, use_conditions: bool = True, offer_at_start: bool = True,
    advice_lifetime: Literal["task", "reply"] = "task", answer_once: bool = False,
) -> MethodSpec:
    """countermem's store, each record shown as its verified lesson at most once per task."""
    return MethodSpec(
        name=name, kind="countermem", family="verified", rendering="lesson", repeat_offers=False,
        use_conditions=use_conditions, offer_at_start=offer_at_start, advice_lifetime=advice_lifetime,
        answer_once=answer_once, description=description,
    )


BUILTIN_METHODS: dict[str, MethodSpec] = {
    spec.name: spec
    for spec in [
        MethodSpec(name="none", kind="none", description="the unaugmented agent"),
        MethodSpec(
            name="countermem", kind="countermem", family="verified",
            description="verified counterfactual records, conditions, similarity ranking, learned selector",
        ),
        MethodSpec(
            name="reasoningbank", kind="strategy", family="strategy-judge",
            description="ReasoningBank-style strategy items from successes and failures judged by the LLM; "
            "embedding retrieval, no verification",
        ),
        MethodSpec(
            name="reasoningbank-matts", kind="strategy", family="strategy-matts", matts=True,
            description="ReasoningBank with MaTTS parallel scaling (k trajectories per source task, self-contrast)",
        ),
        MethodSpec(
            name="reasoningbank-verified", kind="strategy", family="strategy-checker", strategy_labels="checker",
            description="ReasoningBank with verified feedback: success labels from the checker, not the LLM",
        ),
        MethodSpec(
            name="unverified", kind="countermem", family="unverified", admission="unverified",
            description="alternatives stored without checking them (no verification)",
        ),
        MethodSpec(
            name="checked-alternatives", kind="checked",
            description="checked alternatives on the current task only, no persistent store",
        ),
        MethodSpec(
            name="random-retrieval", kind="countermem", family="verified", rank="random",
            description="countermem's store, records offered in random order among those whose condition holds",
        ),
        MethodSpec(
            name="shuffled-retrieval", kind="countermem", family="verified", rank="shuffled",
            description="countermem's store, valid records offered to the wrong decisions",
        ),
        MethodSpec(
            name="no-conditions", kind="countermem", family="verified", use_conditions=False,
            description="countermem without applicability conditions (not filtered on, not shown)",
        ),
        _lesson(
            "countermem-lesson",
            "countermem's store, each record shown as its verified lesson (no source-task code), "
            "at most once per task; records with no verified lesson are not offered",
        ),
        MethodSpec(
            name="countermem-compact", kind="countermem", family="verified", rendering="compact",
            repeat_offers=False,
            description="countermem's store, each record shown as its correction alone (no mistake block), "
            "at most once per task",
        ),
        MethodSpec(
            name="countermem-once", kind="countermem", family="verified", repeat_offers=False,
            description="countermem's store and rendering, each record offered at most once per task",
        ),
        MethodSpec(
            name="countermem-transient", kind="countermem", family="verified", advice_lifetime="reply",
            description="countermem's store and rendering; an offered record stays in the prompt for the one "
            "reply it informs, then leaves it (not paid again at every later step)",
        ),
        MethodSpec(
            name="countermem-lean", kind="countermem", family="verified", advice_lifetime="reply",
            answer_once=True,
            description="countermem-transient, and a form repair shown applied to the agent's last answer "
            "takes that answer's place in the history (not three copies of it in the prompt: history, before, after)",
        ),
        _lesson(
            "countermem-lesson-no-conditions",
            "countermem-lesson with conditions ignored (no-conditions' retrieval): every decision "
            "may get the most similar verified lesson, so a lesson reaches failures its condition does not name",
            use_conditions=False,
        ),
        _lesson(
            "countermem-lesson-lean",
            "countermem-lesson made lean as countermem-lean is: the advice leaves the prompt after "
            "the one reply it informs, and a form repair shown applied to the last answer takes its place",
            advice_lifetime="reply", answer_once=True,
        ),
        MethodSpec(
            name="countermem-after-failure", kind="countermem", family="verified", offer_at_start=False,
            description="countermem's store and rendering, records offered only after a failed action "
            "(never before the agent's first action)",
        ),
        _lesson(
            "countermem-lesson-after-failure",
            "countermem-lesson, offered only after a failed action (never before the agent's first action)",
            offer_at_start=False,
        ),
        MethodSpec(
            name="best-of-n", kind="best_of_n",
            description="N independent attempts on the current task, the best checked one kept; no memory",
        ),
        *[_selector(kind) for kind in ("dqn", "top1", "skip", "random")],
        *[_retention(rule) for rule in RETENTION_RULES],
    ]
}


def method_spec(name: str) -> MethodSpec:
    spec = BUILTIN_METHODS.get(name)
    if spec is None:
        raise ConfigError(f"unknown method {name!r}; choose from {', '.join(BUILTIN_METHODS)}")
    return spec
