"""Provenance stamps for records: which models, checker, data and countermem build made them.

Built once per construction stage (or `learn` call) and copied onto every record with the source
task's environment filled in; see `Provenance` for what each field means.
"""

from __future__ import annotations

from countermem.core import Task, countermem_version, git_commit
from countermem.domains import CheckerInfo
from countermem.llm import LLM
from countermem.memory._record import UNKNOWN, Provenance


def model_weights(llm: LLM) -> str:
    """The pinned sha256 of a model's weights where countermem knows it, else `unknown`.

    A served model (an OpenAI-compatible endpoint) is known only by its model id, which `name`
    already carries; wrappers such as the completion cache are looked through.
    """
    seen = 0
    current: object = llm
    while seen < 8:
        weights = getattr(current, "weights_sha256", None)
        if isinstance(weights, str) and weights:
            return weights
        inner = getattr(current, "inner", None)
        if inner is None:
            break
        current, seen = inner, seen + 1
    return UNKNOWN


def build_provenance(
    *, agent: LLM | None = None, proposer: LLM | None = None, checker: CheckerInfo | None = None
) -> Provenance:
    """A stamp for records made now by this build; what is not given stays `unknown`."""
    checker = checker or CheckerInfo()
    return Provenance(
        proposing_model=proposer.name if proposer is not None else UNKNOWN,
        proposing_weights=model_weights(proposer) if proposer is not None else UNKNOWN,
        agent_model=agent.name if agent is not None else UNKNOWN,
        agent_weights=model_weights(agent) if agent is not None else UNKNOWN,
        checker=checker.name,
        checker_version=checker.version,
        data_sha256=checker.data_sha256,
        countermem_version=countermem_version(),
        git_commit=git_commit(),
    )


def for_task(provenance: Provenance, task: Task) -> Provenance:
    """The stamp with the source task's environment filled in."""
    return provenance.model_copy(update={"environment": task.environment or "none"})
