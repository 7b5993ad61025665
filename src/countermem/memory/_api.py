"""Memory for other people's agents: open a store, ask for advice, hand over failures.

A user with their own agent loop needs three calls: `open_memory` (a store plus retrieval and a
selector, behind the `MemoryHook` protocol), `advise` at a decision, and `learn` with any
object that implements the world-model protocol when an action failed. Everything else in the
package is there for studies; this is the drop-in path.
"""

from __future__ import annotations

from pathlib import Path

from countermem.core import Action, CheckResult, Facts, Task
from countermem.domains import CheckerInfo, State, WorldModel
from countermem.llm import LLM
from countermem.memory._admission import MIN_GAIN, AdmissionReport, Admitter, learn_from_failure
from countermem.memory._advisor import AdvisorOptions, CounterfactualMemory
from countermem.memory._condition_builder import ConditionContext, FactsOf
from countermem.memory._embedding import make_embedder
from countermem.memory._generator import Generator, GeneratorSettings
from countermem.memory._provenance import build_provenance
from countermem.memory._retrieval import Retriever
from countermem.memory._store import SQLiteStore
from countermem.selector import Selector, TopOne


def open_memory(
    store: str | Path,
    *,
    action_language: str,
    embedder: str = "minilm",
    selector: Selector | None = None,
    k: int = 3,
    capacity: int = 200,
    read_only: bool = False,
) -> CounterfactualMemory:
    """A ready `MemoryHook` over the store file (created when missing, unless read-only).

    Without a selector it offers the top-ranked eligible record (`TopOne`); pass a trained
    `DQNSelector` to let it skip records that would not help.
    """
    path = Path(store)
    if not read_only:
        path.parent.mkdir(parents=True, exist_ok=True)
    opened = SQLiteStore(path, capacity=None if read_only else capacity, read_only=read_only)
    retriever = Retriever(opened, make_embedder(embedder), k=k)
    return CounterfactualMemory(
        retriever,
        selector or TopOne(),
        action_language=action_language,
        store=opened,
        options=AdvisorOptions(write_counters=not read_only),
    )


def learn(
    memory: CounterfactualMemory,
    llm: LLM,
    *,
    task: Task,
    world_model: WorldModel,
    state: State,
    failed_action: Action,
    failed_result: CheckResult,
    facts: Facts,
    situation: str,
    min_gain: float = MIN_GAIN,
    max_alternatives: int = 4,
    generator: GeneratorSettings | None = None,
    instructions: str = "",
    facts_of: FactsOf | None = None,
    agent: LLM | None = None,
    checker: CheckerInfo | None = None,
    redact: bool = True,
) -> AdmissionReport:
    """Propose at most 4 local edits of a failed action, verify each from `state`, keep the best.

    `state` must be the world model's snapshot from before the failed action was checked; each
    edit is checked after `world_model.restore(state)`. Returns what was admitted and why.
    Conditions are derived from the facts (`generator.conditions`); give `facts_of(task, action)`
    (your domain's facts function) so they can describe the failed action too, and `facts` as
    the facts of the decision right after the failed action, where the record will be offered.

    The record's provenance names `llm` as the proposing model, `agent` (your agent's model, when
    given) and `checker` (your world model's checker and data version, when given); the rest
    says `unknown`. Secrets in the stored text are replaced by placeholders unless `redact=False`.
    """
    if memory.store is None:
        raise ValueError("this memory has no store to learn into")
    _, report = learn_from_failure(
        Generator(llm, settings=generator),
        Admitter(
            memory.store, min_gain=min_gain, stage="manual",
            provenance=build_provenance(agent=agent, proposer=llm, checker=checker), redact=redact,
        ),
        task=task,
        world_model=world_model,
        state=state,
        failed_action=failed_action,
        failed_result=failed_result,
        facts=facts,
        situation=situation,
        action_language=memory.action_language,
        max_alternatives=max_alternatives,
        instructions=instructions,
        conditions=ConditionContext(facts_of=facts_of) if facts_of is not None else None,
    )
    memory.retriever.refresh()
    return report
