"""A memory record: one verified counterfactual correction, with where it came from and how it fared.

Records are frozen. A change (new reuse counts, an edited condition) makes a new record with the
version bumped through `Record.revised`, and the store keeps the previous version in its history
table, so that no record is ever silently rewritten and a run can be traced to the exact version
it used.

The situation is truncated to `SITUATION_LIMIT` characters so that one long trajectory cannot blow
up the store or a prompt: the head (which holds the task statement) and the tail (which holds the
latest observation, usually the error that prompted the correction) are kept, joined by a marker,
and `situation_truncated` says that this happened.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from countermem.core import Action, CheckResult, ConfigError, Facts, clip_middle
from countermem.memory._conditions import Condition, ConditionError, parse_condition
from countermem.memory._scope import DEFAULT_SCOPE, validate_scope

SITUATION_LIMIT = 2000
"""Most characters of a situation a record keeps (head and tail, see the module docstring)."""

TASK_BRIEF_LIMIT = 400
"""Most characters of a source task's own text a record keeps in `task_brief`."""

GAIN_TOLERANCE = 1e-9

Stage = Literal["construct", "train", "heldout", "manual"]
"""Where a record was made; `manual` is a record a person wrote or imported."""

RecordStatus = Literal["live", "retired"]
"""`retired`: kept in the store and its history, never offered (`countermem.memory._reverify`)."""


def utc_now() -> datetime:
    return datetime.now(UTC)


def truncate_situation(text: str, limit: int = SITUATION_LIMIT) -> tuple[str, bool]:
    """Keep at most `limit` characters: head and tail joined by a marker that says how much was cut."""
    return clip_middle(text, limit)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ApplicabilityCondition(_Frozen):
    """A condition as written (`source`) and in canonical form; `parsed` is the AST code evaluates."""

    source: str = ""
    canonical: str = "none"
    _parsed: Condition = PrivateAttr()

    @model_validator(mode="before")
    @classmethod
    def _fill_canonical(cls, data: Any) -> Any:
        if isinstance(data, str):
            data = {"source": data}
        if isinstance(data, dict) and "canonical" not in data:
            data = {**data, "canonical": str(_parse(str(data.get("source", ""))))}
        return data

    def model_post_init(self, context: Any, /) -> None:
        parsed = _parse(self.source)
        if str(parsed) != self.canonical:
            raise ValueError(
                f"condition canonical form {self.canonical!r} does not match its source {self.source!r} "
                f"(which parses to {str(parsed)!r}); drop `canonical` to recompute it"
            )
        self._parsed = parsed

    @classmethod
    def from_text(cls, text: str) -> ApplicabilityCondition:
        """Parse `text` as written by an LLM; raises `ConditionError` (with the position) if it does not parse."""
        parsed = parse_condition(text)
        return cls.model_validate({"source": text, "canonical": str(parsed)})

    @property
    def parsed(self) -> Condition:
        return self._parsed

    @property
    def is_universal(self) -> bool:
        return self._parsed.is_universal

    def applies(self, facts: Facts) -> bool:
        return self._parsed.evaluate(facts)

    def __str__(self) -> str:
        return self.canonical


def _parse(text: str) -> Condition:
    """Parse inside a validator: a ConditionError becomes a ValueError so pydantic reports it."""
    try:
        return parse_condition(text)
    except ConditionError as error:
        raise ValueError(str(error)) from error


class Lesson(_Frozen):
    """A record's lesson, who wrote and checked it, and whether it passed both tests."""

    text: str
    verified: bool
    reason: str = ""
    """Why it was not admitted (names the source task, or no action written from it gained)."""
    writer: str = ""
    verifier: str = ""
    check: CheckResult | None = None
    """The best check of an action written from the lesson alone (None when it was never checked)."""
    leaked: list[str] = Field(default_factory=list)
    """Source-task names left in the lesson (a lesson with any is not verified)."""
    scrubbed: list[str] = Field(default_factory=list)
    """Source-task names the writer kept using, replaced by placeholders before the check."""
    copied_example: bool = False
    """The writer's last answer repeated an example of its prompt (such a lesson is not verified)."""
    control: CheckResult | None = None
    """The best check of an action written with no lesson (only with `[memory.lesson] control`): a
    lesson is verified only when this control did not gain too."""


UNKNOWN = "unknown"


class Provenance(_Frozen):
    """Who and what made a record: models, checker and data, countermem build, environment.

    Every field defaults to `unknown`, which is what a record stored before provenance existed
    reads as. It is not part of the record's content id: the same correction verified again by
    another build is the same correction. The time is the record's `created_at`.
    """

    proposing_model: str = UNKNOWN
    """The generator model that proposed the correction (backend:model, or the server's model id)."""
    proposing_weights: str = UNKNOWN
    """sha256 of the proposing model's weights, where countermem pins them (embedded GGUF models)."""
    agent_model: str = UNKNOWN
    agent_weights: str = UNKNOWN
    checker: str = UNKNOWN
    checker_version: str = UNKNOWN
    data_sha256: str = UNKNOWN
    """sha256 of the benchmark data's SOURCE.md, `packaged` for tasks shipped in countermem."""
    countermem_version: str = UNKNOWN
    git_commit: str = UNKNOWN
    environment: str = UNKNOWN
    """The source task's environment (a database, a Coq import set), `none` when it has none."""


class RecordSource(_Frozen):
    task_id: str
    benchmark: str
    stage: Stage = "construct"


class ReuseCounters(_Frozen):
    """How a record fared when offered: `succeeded` and `harmed` count outcomes of selected uses."""

    retrieved: int = Field(default=0, ge=0)
    selected: int = Field(default=0, ge=0)
    succeeded: int = Field(default=0, ge=0)
    harmed: int = Field(default=0, ge=0)
    last_used_at: datetime | None = None

    @model_validator(mode="after")
    def _outcomes_follow_selection(self) -> ReuseCounters:
        if self.succeeded > self.selected or self.harmed > self.selected:
            raise ValueError(
                f"succeeded ({self.succeeded}) and harmed ({self.harmed}) count outcomes of selected uses "
                f"and cannot exceed selected ({self.selected}); count the selection first"
            )
        return self

    def plus(
        self, *, retrieved: int = 0, selected: int = 0, succeeded: int = 0, harmed: int = 0, at: datetime
    ) -> ReuseCounters:
        if min(retrieved, selected, succeeded, harmed) < 0:
            raise ValueError("reuse counters only grow; got a negative increment")
        return ReuseCounters(
            retrieved=self.retrieved + retrieved,
            selected=self.selected + selected,
            succeeded=self.succeeded + succeeded,
            harmed=self.harmed + harmed,
            last_used_at=at if (retrieved or selected or succeeded or harmed) else self.last_used_at,
        )


class MergedSource(_Frozen):
    """A record merged into this one (`countermem.memory._merge`): its id, version and source task."""

    record_id: str
    version: int = Field(ge=1)
    source: RecordSource


class Record(_Frozen):
    """One verified correction. `id` defaults to a content hash, so the same correction gets the same id."""

    id: str = ""
    domain: str
    benchmark: str
    situation: str
    situation_truncated: bool = False
    original_action: Action
    improved_action: Action
    original_check: CheckResult
    improved_check: CheckResult
    utility_gain: float
    condition: ApplicabilityCondition = Field(default_factory=ApplicabilityCondition)
    rationale: str = ""
    task_brief: str = Field(default="", max_length=TASK_BRIEF_LIMIT)
    """The source task's own text on one line, clipped (`brief_of`): shown with the record, so a
    model can see which question the correction answered before it borrows from it."""
    source: RecordSource
    created_at: datetime = Field(default_factory=utc_now)
    version: int = Field(default=1, ge=1)
    counters: ReuseCounters = Field(default_factory=ReuseCounters)
    embedding: list[float] | None = None
    lesson: Lesson | None = None
    """What the correction teaches without the source task's names, and whether that was verified
    (`countermem.memory._lesson`); None when construction wrote no lesson."""
    provenance: Provenance = Field(default_factory=Provenance)
    redactions: dict[str, int] = Field(default_factory=dict)
    """Secrets replaced by placeholders before the record was stored, counted by kind
    (`countermem.memory._redact`); empty when nothing was found or redaction was off."""
    status: RecordStatus = "live"
    """A retired record stays in the store (and `memory list --retired`) but is never offered."""
    retired_reason: str | None = None
    retired_at: datetime | None = None
    scope: str = DEFAULT_SCOPE
    """Who may read the record (`countermem.memory._scope`); part of the id unless `default`."""
    merged_from: list[MergedSource] = Field(default_factory=list)
    """Equivalent records merged into this one, with their source tasks (empty: never merged)."""

    @model_validator(mode="before")
    @classmethod
    def _derive(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        situation = data.get("situation")
        if isinstance(situation, str) and len(situation) > SITUATION_LIMIT:
            data["situation"], _ = truncate_situation(situation)
            data["situation_truncated"] = True
        brief = data.get("task_brief")
        if isinstance(brief, str) and len(brief) > TASK_BRIEF_LIMIT:
            data["task_brief"] = brief_of(brief)
        if "utility_gain" not in data:
            original, improved = data.get("original_check"), data.get("improved_check")
            if isinstance(original, CheckResult | dict) and isinstance(improved, CheckResult | dict):
                before = CheckResult.model_validate(original).utility
                data["utility_gain"] = CheckResult.model_validate(improved).utility - before
        if not data.get("id"):
            data["id"] = _content_id(data)
        return data

    @field_validator("scope")
    @classmethod
    def _scope_name(cls, value: str) -> str:
        try:
            return validate_scope(value)
        except ConfigError as error:
            raise ValueError(str(error)) from None

    @field_validator("created_at")
    @classmethod
    def _utc(cls, value: datetime) -> datetime:
        if value.tzinfo is None:
            raise ValueError("created_at must carry a time zone (UTC); use countermem.memory.utc_now()")
        return value.astimezone(UTC)

    @model_validator(mode="after")
    def _consistent(self) -> Record:
        expected = self.improved_check.utility - self.original_check.utility
        if abs(self.utility_gain - expected) > GAIN_TOLERANCE:
            raise ValueError(
                f"utility_gain {self.utility_gain} disagrees with the check results "
                f"({self.improved_check.utility} - {self.original_check.utility} = {expected}); "
                "leave it out to have it computed"
            )
        if self.source.benchmark != self.benchmark:
            raise ValueError(
                f"record benchmark {self.benchmark!r} differs from its source benchmark "
                f"{self.source.benchmark!r}"
            )
        if len(self.situation) > SITUATION_LIMIT:
            raise ValueError(f"situation is longer than SITUATION_LIMIT={SITUATION_LIMIT}")
        if self.embedding is not None and not self.embedding:
            raise ValueError("embedding is empty; use None when there is no embedding")
        if (self.status == "retired") != (self.retired_reason is not None):
            raise ValueError("a retired record needs its retired_reason, and only a retired record has one")
        return self

    @property
    def live(self) -> bool:
        """Whether the record may be offered (not retired)."""
        return self.status == "live"

    def marked_retired(self, reason: str, at: datetime | None = None) -> Record:
        """This version marked retired (same version: the store stores it as the next one)."""
        if not reason.strip():
            raise ValueError("say why the record is retired; the reason is kept with it")
        return self.model_copy(
            update={"status": "retired", "retired_reason": reason.strip(), "retired_at": at or utc_now()}
        )

    def applies(self, facts: Facts) -> bool:
        return self.condition.applies(facts)

    @property
    def last_touched(self) -> datetime:
        """When the record was last used, or created if never used (what the recency rule orders by)."""
        return self.counters.last_used_at or self.created_at

    def revised(self, **changes: Any) -> Record:
        """A new version of this record with `changes` applied; `id` and `created_at` cannot change."""
        forbidden = {"id", "version", "created_at", "scope"} & changes.keys()
        if forbidden:
            raise ValueError(f"a revision cannot change {sorted(forbidden)}")
        data = self.model_dump()
        if {"original_check", "improved_check"} & changes.keys() and "utility_gain" not in changes:
            del data["utility_gain"]
        data.update(changes)
        data["version"] = self.version + 1
        return Record.model_validate(data)

    def with_counts(
        self,
        *,
        retrieved: int = 0,
        selected: int = 0,
        succeeded: int = 0,
        harmed: int = 0,
        at: datetime | None = None,
    ) -> Record:
        counters = self.counters.plus(
            retrieved=retrieved, selected=selected, succeeded=succeeded, harmed=harmed, at=at or utc_now()
        )
        return self.model_copy(update={"counters": counters, "version": self.version + 1})


def _content_id(data: dict[str, Any]) -> str:
    """Hash of what makes a correction the same correction; inputs are normalised through their models."""
    condition = data.get("condition")
    key = {
        "domain": data.get("domain"),
        "benchmark": data.get("benchmark"),
        "source": RecordSource.model_validate(data.get("source")).model_dump(mode="json"),
        "original": Action.model_validate(data.get("original_action")).content,
        "improved": Action.model_validate(data.get("improved_action")).content,
        "condition": "none"
        if condition is None
        else ApplicabilityCondition.model_validate(condition).canonical,
    }
    scope = data.get("scope")
    if scope is not None and scope != DEFAULT_SCOPE:
        key["scope"] = scope  # the same correction in two scopes is two records; default ids stay as they were
    digest = hashlib.sha256(json.dumps(key, sort_keys=True, default=str).encode()).hexdigest()
    return "r-" + digest[:16]


def brief_of(task_text: str, limit: int = TASK_BRIEF_LIMIT) -> str:
    """`task_text` on one line, cut to `limit` characters with an ellipsis."""
    line = " ".join(task_text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"
