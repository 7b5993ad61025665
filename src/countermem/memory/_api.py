"""Memory for other people's agents: open a store, ask for advice, hand over failures.

A user with their own agent loop needs three calls: `open_memory` (a store plus retrieval and a
selector, behind the `MemoryHook` protocol), `advise` at a decision, and `learn` with any
object that implements the world-model protocol when an action failed. Everything else in the
package is there for studies; this is the drop-in path.

Threads: one opened memory may be shared by any number of threads, advising and learning at
once (the memory and its store each hold a lock; a model call in `learn` runs outside them). A
second `open_memory` of the same store and scopes in the same process shares the first one's
writable store object (one connection, one copy of the records); other processes may open and write
the same store at once (see `countermem.memory._store`). A `postgresql://` URL opens the store on a
server (`countermem.memory._pgstore`), where processes on many machines share it, and retrieval
ranks on the server (`ServerRetriever`).
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Iterable
from pathlib import Path

from countermem.core import (
    Action,
    CheckResult,
    ConfigError,
    Facts,
    StoreError,
    Task,
    is_malformed,
    salvaged_block,
)
from countermem.domains import CheckerInfo, State, TimeLimitedWorldModel, WorldModel, validated_check
from countermem.llm import LLM
from countermem.memory._admission import MIN_GAIN, AdmissionReport, Admitter, learn_from_failure
from countermem.memory._advisor import AdvisorOptions, CounterfactualMemory, require_text
from countermem.memory._condition_builder import ConditionContext, FactsOf
from countermem.memory._embedding import make_embedder
from countermem.memory._generator import Generator, GeneratorSettings
from countermem.memory._open import AnyStore
from countermem.memory._pg_retrieval import make_retriever
from countermem.memory._pgstore import PostgresStore, display_url, is_postgres_url
from countermem.memory._provenance import build_provenance
from countermem.memory._retrieval import Retriever
from countermem.memory._scope import DEFAULT_SCOPE, ScopeAccess
from countermem.memory._segmented import DEFAULT_TASK_WEIGHT, EmbedLayout
from countermem.memory._store import SQLiteStore
from countermem.selector import Selector, TopOne

DEFAULT_CHECK_TIMEOUT_S = 300.0
"""How long `learn` waits for one `world_model.check` before it gives up on the world model."""

_writable_stores: weakref.WeakValueDictionary[str, AnyStore] = weakref.WeakValueDictionary()
_writable_stores_lock = threading.Lock()


def open_memory(
    store: str | Path,
    *,
    action_language: str,
    embedder: str = "minilm",
    embed_layout: EmbedLayout = "full",
    task_weight: float = DEFAULT_TASK_WEIGHT,
    selector: Selector | None = None,
    k: int = 3,
    capacity: int = 200,
    read_only: bool = False,
    scope: str = DEFAULT_SCOPE,
    read_scopes: Iterable[str] = (),
) -> CounterfactualMemory:
    """A ready `MemoryHook` over the store file (created when missing, unless read-only).

    Without a selector it offers the top-ranked eligible record (`TopOne`); pass a trained
    `DQNSelector` to let it skip records that would not help.

    The returned memory is safe to share across threads (see the module docstring). Opening the
    same store writable again in this process shares one store object. A refused open (a folder,
    a file that is not a countermem store, a foreign SQLite database) raises a `CountermemError`
    and leaves no file or folder behind that it created.

    `embed_layout` is `full` (default) or `segmented` (the task part embedded once per task, the
    step part per decision, weighted `task_weight` to `1 - task_weight`: `countermem.memory._segmented`,
    docs/embedding.md).

    `scope` is the team, project or tenant this memory belongs to: what it learns is stored in
    that scope, and it is offered only records of `scope` and of the `read_scopes` shared with it
    (`countermem.memory._scope`). A bad scope name is a `ConfigError`, before any file is touched.
    """
    access = ScopeAccess.of(scope, read_scopes)
    if not isinstance(action_language, str) or not action_language.strip():
        raise ConfigError(f"open_memory needs action_language (e.g. 'sql', 'python'), got {action_language!r}")
    if is_postgres_url(store):
        url = str(store)
        server = PostgresStore(url, read_only=True, access=access) if read_only else _writable(url, capacity, access)
        return CounterfactualMemory(
            make_retriever(
                server, make_embedder(embedder), k=k, access=access, embed_layout=embed_layout, task_weight=task_weight
            ),
            selector or TopOne(),
            action_language=action_language,
            store=server,
            options=AdvisorOptions(write_counters=not read_only),
        )
    path = _store_path(store)
    made = [] if read_only else _missing_folders(path.parent)
    try:
        if not read_only:
            path.parent.mkdir(parents=True, exist_ok=True)
        opened = SQLiteStore(path, read_only=True, access=access) if read_only else _writable(path, capacity, access)
        retriever = Retriever(opened, make_embedder(embedder), k=k, access=access, embed_layout=embed_layout, task_weight=task_weight)
    except BaseException:
        for folder in made:
            try:
                folder.rmdir()
            except OSError:
                break
        raise
    return CounterfactualMemory(
        retriever,
        selector or TopOne(),
        action_language=action_language,
        store=opened,
        options=AdvisorOptions(write_counters=not read_only),
    )


def _store_path(store: object) -> Path:
    if not isinstance(store, str | os.PathLike):
        raise ConfigError(f"open_memory needs the path of a store file, got {type(store).__name__}")
    path = Path(store)
    text = str(path)
    if not text or text == ".":
        raise ConfigError("open_memory needs the path of a store file, got an empty path")
    require_text(text, "the store path")
    if "\x00" in text:
        raise ConfigError(f"the store path {text!r} holds a NUL character; give a file path")
    return path


def _missing_folders(folder: Path) -> list[Path]:
    """The folders `mkdir(parents=True)` would create, deepest first (removed again on a refusal)."""
    missing: list[Path] = []
    current = folder
    while not current.exists() and current != current.parent:
        missing.append(current)
        current = current.parent
    return missing


def _writable(path: Path | str, capacity: int, access: ScopeAccess) -> AnyStore:
    where = path if isinstance(path, str) else str(path.resolve())
    key = f"{where}\x00{access.own}\x00{','.join(sorted(access.shared))}"
    with _writable_stores_lock:
        shared = _writable_stores.get(key)
        if shared is not None and not shared.closed:
            if shared.capacity != capacity:
                shown = display_url(path) if isinstance(path, str) else path
                raise StoreError(
                    f"{shown} is already open in this process with capacity {shared.capacity}; open it "
                    f"with the same capacity, not {capacity}"
                )
            return shared
        opened: AnyStore = (
            PostgresStore(path, capacity=capacity, access=access)
            if isinstance(path, str)
            else SQLiteStore(path, capacity=capacity, access=access)
        )
        _writable_stores[key] = opened
        return opened


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
    check_timeout: float | None = DEFAULT_CHECK_TIMEOUT_S,
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

    Each check's result is validated (a utility that is not a finite number in [0, 1] is a
    `WorldModelError` naming the world model, and nothing is stored), and each check may take at
    most `check_timeout` seconds: it runs on a helper thread, and a check that does not return in
    time is a `WorldModelError` (the world model is then not used again). Pass
    `check_timeout=None` only for a world model whose check must run on the caller's thread.
    The record's provenance names `llm` as the proposing model, `agent` (your agent's model, when
    given) and `checker` (your world model's checker and data version, when given); the rest
    says `unknown`. Secrets in the stored text are replaced by placeholders unless `redact=False`.
    """
    if not isinstance(memory, CounterfactualMemory):
        raise ConfigError(f"learn needs the memory open_memory returned, got {type(memory).__name__}")
    if memory.store is None:
        raise ConfigError("this memory has no store to learn into; open it with open_memory(path)")
    if not isinstance(task, Task):
        raise ConfigError(f"learn needs a countermem.Task, got {type(task).__name__}")
    if not isinstance(state, State):
        raise ConfigError(f"learn needs the world model's State from before the failed check, got {type(state).__name__}")
    if not isinstance(failed_action, Action):
        raise ConfigError(f"learn needs the failed countermem.Action, got {type(failed_action).__name__}")
    if not isinstance(situation, str):
        raise ConfigError(f"learn needs the situation as text, got {type(situation).__name__}")
    require_text(situation, "the situation")
    require_text(task.prompt, "the task's prompt")
    require_text(failed_action.content, "the failed action")
    failed_result = validated_check(failed_result, world_model)
    require_text(failed_result.details, "the failed check's details")
    if check_timeout is not None:
        world_model = TimeLimitedWorldModel(world_model, check_timeout)
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
        salvaged=salvaged_block(failed_action.content) if is_malformed(failed_result) else None,
    )
    memory.refresh()
    return report
