"""An on-disk response cache in front of any backend.

A hit returns the completion exactly as first recorded (its usage and latency included) with
`cached=True`, so token measures of a replayed run equal those of the original run and a reader
can still tell which calls were replayed. The key is the sha256 of the backend's `name` (which by
convention is `backend:model`), the messages and the generation parameters; with a temperature
above zero a hit therefore replays one sampled answer, which is what makes reruns reproducible.

The store is one SQLite table in WAL mode so several worker processes can share the file; each
operation opens its own connection (safe across fork) and retries while the database is busy.
Failed calls are never cached.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from countermem.core import ResponseCacheError
from countermem.llm._protocol import LLM, Completion, GenerationParams, Message

_KEY_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS completions (
    key TEXT PRIMARY KEY,
    llm TEXT NOT NULL,
    completion TEXT NOT NULL,
    created_at REAL NOT NULL
)
"""

T = TypeVar("T")


def cache_key(llm_name: str, messages: list[Message], params: GenerationParams) -> str:
    payload = {
        "v": _KEY_VERSION,
        "llm": llm_name,
        "messages": [m.model_dump(mode="json") for m in messages],
        "params": params.model_dump(mode="json", exclude=None if params.grammar else {"grammar"}),
    }
    encoded = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(encoded.encode("utf-8")).hexdigest()


def _is_busy(error: sqlite3.OperationalError) -> bool:
    text = str(error).lower()
    return "locked" in text or "busy" in text


class CachedLLM:
    """Wraps `inner`; same `name`, so a cached and an uncached run log the same model."""

    def __init__(
        self, inner: LLM, path: Path, *, busy_timeout_s: float = 30.0, busy_retries: int = 8
    ) -> None:
        self.inner = inner
        self.path = Path(path)
        self.hits = 0
        self.misses = 0
        self._busy_timeout_s = busy_timeout_s
        self._busy_retries = busy_retries
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._with_retry(self._init_schema)

    @property
    def name(self) -> str:
        return self.inner.name

    def complete(self, messages: list[Message], params: GenerationParams | None = None) -> Completion:
        params = params or GenerationParams()
        key = cache_key(self.inner.name, messages, params)
        stored = self._with_retry(lambda: self._lookup(key))
        if stored is not None:
            self.hits += 1
            return Completion.model_validate_json(stored).model_copy(update={"cached": True})
        completion = self.inner.complete(messages, params)
        self.misses += 1
        record = completion.model_copy(update={"cached": False}).model_dump_json()
        self._with_retry(lambda: self._store(key, record))
        return completion

    def entries(self) -> int:
        """Stored completions (a method, not __len__, so an empty cache is still truthy)."""
        return self._with_retry(self._count)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        connection = sqlite3.connect(self.path, timeout=self._busy_timeout_s, isolation_level=None)
        try:
            yield connection
        finally:
            connection.close()

    def _with_retry(self, operation: Callable[[], T]) -> T:
        delay = 0.05
        for attempt in range(self._busy_retries + 1):
            try:
                return operation()
            except sqlite3.OperationalError as error:
                if not _is_busy(error) or attempt == self._busy_retries:
                    raise ResponseCacheError(
                        f"response cache {self.path} failed: {error}; check the file is writable and not "
                        "on a network file system (SQLite WAL needs local locking)"
                    ) from error
                time.sleep(delay)
                delay = min(delay * 2, 2.0)
        raise AssertionError("unreachable")

    def _init_schema(self) -> None:
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(_SCHEMA)

    def _lookup(self, key: str) -> str | None:
        with self._connect() as db:
            row = db.execute("SELECT completion FROM completions WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def _store(self, key: str, record: str) -> None:
        with self._connect() as db:
            db.execute(
                "INSERT OR IGNORE INTO completions (key, llm, completion, created_at) VALUES (?, ?, ?, ?)",
                (key, self.inner.name, record, time.time()),
            )

    def _count(self) -> int:
        with self._connect() as db:
            return int(db.execute("SELECT COUNT(*) FROM completions").fetchone()[0])
