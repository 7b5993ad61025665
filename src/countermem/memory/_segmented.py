"""The `segmented` embedding layout: the task part embedded once per task, the step part per decision.

Why. Under the `full` layout a decision is one text (situation, last action, observation) cut at
the model's 256 word pieces. Running the network on it costs tens of ms per distinct text, and
when the situation alone fills the window (79% of Spider's rendered tasks: the schema comes
before the question) neither the question nor the last action reaches the embedding at all.

The segmented layout embeds two parts and combines them:

- the task part, `"{question}\\n{situation}"`: the task's own text first (so it is inside the
  window whatever the schema's length), then the situation. It stays for the whole task, so its
  vector is computed once per task and cached (`SegmentedEncoder.task_cache`);
- the step part, `"{last action}\\n{its check result}"`, cut to `step_pieces` word pieces (64 by
  default): this is what changes between decisions, and running the network on 64 pieces costs
  a fraction of a 256-piece run.

The decision vector is `normalise(w * task + (1 - w) * step)` with `w = task_weight`; a decision
without an action yet is its task vector alone. A record's key is built the same way from its
`task_brief` and situation (task part) and its original action (step part), so queries and keys
live in one space. Vectors of this layout are not comparable with `full` ones: a retriever with
this layout ignores `record.embedding` (stored in the `full` layout) and embeds keys itself.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

import numpy as np

from countermem.core import ConfigError
from countermem.memory._embedding import _LRU, DEFAULT_CACHE_SIZE, Embedder, FloatRows, normalize_rows
from countermem.memory._record import Record, brief_of

EmbedLayout = Literal["full", "segmented"]
EMBED_LAYOUTS: tuple[EmbedLayout, ...] = ("full", "segmented")
DEFAULT_TASK_WEIGHT = 0.9
"""Weight of the task part (docs/embedding.md has the sweep this was chosen from)."""
DEFAULT_STEP_PIECES = 64
_CHARS_PER_PIECE = 4
_WORD = re.compile(r"\S+")


@runtime_checkable
class PieceCutter(Protocol):
    """An embedder that can cut a text to its first `n` word pieces (its own tokenizer's)."""

    def cut_to_pieces(self, text: str, n: int) -> str: ...


@dataclass(frozen=True)
class DecisionParts:
    """A decision (or a record key) split into its task part and its step part (may be empty)."""

    task: str
    step: str = ""


def task_part(question: str, situation: str) -> str:
    """The per-task text: the task's own text on one line (`brief_of`), then the situation."""
    brief = brief_of(question) if question else ""
    return f"{brief}\n{situation}" if brief else situation


def decision_parts(
    situation: str,
    question: str = "",
    last_action: str | None = None,
    last_observation: str | None = None,
) -> DecisionParts:
    """The parts of a decision: `question` is the task's own text (the agent's `task.prompt`)."""
    step = "\n".join(part for part in (last_action, last_observation) if part)
    return DecisionParts(task=task_part(question, situation), step=step)


def record_key_parts(record: Record) -> DecisionParts:
    """A record's key in the segmented layout: its source task and situation, its original action."""
    return DecisionParts(task=task_part(record.task_brief, record.situation), step=record.original_action.content)


def cut_words(text: str, n: int) -> str:
    """`text` up to the end of its `n`-th whitespace-separated word (embedders without a tokenizer)."""
    for i, match in enumerate(_WORD.finditer(text)):
        if i == n - 1:
            return text[: match.end()]
    return text


@dataclass
class SegmentedStats:
    """Network inputs asked of the embedder: task parts (once per task) and step parts (per decision)."""

    task_embeds: int = 0
    task_hits: int = 0
    step_embeds: int = 0


@dataclass
class SegmentedEncoder:
    """Builds segmented-layout vectors with `embedder`; caches task vectors by their text."""

    embedder: Embedder
    task_weight: float = DEFAULT_TASK_WEIGHT
    step_pieces: int = DEFAULT_STEP_PIECES
    cache_size: int = DEFAULT_CACHE_SIZE
    stats: SegmentedStats = field(default_factory=SegmentedStats)

    def __post_init__(self) -> None:
        if not (math.isfinite(self.task_weight) and 0.0 <= self.task_weight <= 1.0):
            raise ConfigError(f"task_weight must be within [0, 1], got {self.task_weight}")
        if self.step_pieces < 1:
            raise ConfigError(f"step_pieces must be at least 1, got {self.step_pieces}")
        self.task_cache = _LRU(self.cache_size)

    def cut_step(self, text: str) -> str:
        """The step part cut to `step_pieces` word pieces (by the embedder's tokenizer when it has one)."""
        if not text:
            return ""
        if isinstance(self.embedder, PieceCutter):
            return self.embedder.cut_to_pieces(text, self.step_pieces)
        return cut_words(text[: self.step_pieces * _CHARS_PER_PIECE * 2], self.step_pieces)

    def query_vector(self, parts: DecisionParts) -> FloatRows:
        """The unit vector of one decision: the task part from the cache (embedded on its first use)."""
        task = self.task_cache.get(parts.task)
        if task is None:
            task = normalize_rows(self.embedder.embed([parts.task]))[0]
            task.setflags(write=False)
            self.task_cache.put(parts.task, task)
            self.stats.task_embeds += 1
        else:
            self.stats.task_hits += 1
        step = self.cut_step(parts.step)
        if not step or self.task_weight == 1.0:
            alone: FloatRows = np.array(task, dtype=np.float32)
            return alone
        self.stats.step_embeds += 1
        step_row = normalize_rows(self.embedder.embed([step]))[0]
        combined: FloatRows = self._combine(task[None, :], step_row[None, :])[0]
        return combined

    def key_vectors(self, parts: list[DecisionParts]) -> FloatRows:
        """Unit vectors of many record keys, in one `embed` call (task and step texts together)."""
        if not parts:
            return np.zeros((0, self.embedder.dim), dtype=np.float32)
        steps = [self.cut_step(p.step) for p in parts]
        rows = normalize_rows(self.embedder.embed([p.task for p in parts] + steps))
        tasks, step_rows = rows[: len(parts)], rows[len(parts) :]
        empty = np.array([not s for s in steps])
        step_rows[empty] = tasks[empty]
        return self._combine(tasks, step_rows)

    def _combine(self, tasks: FloatRows, steps: FloatRows) -> FloatRows:
        w = np.float32(self.task_weight)
        return normalize_rows(w * tasks + (np.float32(1.0) - w) * steps)
