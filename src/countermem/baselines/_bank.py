"""ReasoningBank-style strategy items and the SQLite bank that keeps them (a baseline of the study).

ReasoningBank (Ouyang et al. 2025) stores *strategies*: short natural-language items, each a
title, a one-sentence description and 1-3 sentences of content, that an LLM distills from its own
successful and failed trajectories, labelled by an LLM judge. Nothing is checked by a world model;
that is the point of comparing it with countermem. Items live in their own bank, not in the
record store: they have no actions, check results or conditions.

`StrategyItem.id` is a hash of what makes two items the same strategy (domain, benchmark, title,
description, content, whitespace-normalised), so the bank dedupes re-distilled items and a run
can name the exact item it used.

The bank is one SQLite file, like the record store: WAL while it is written (a crash loses no
added item), one writer at a time (an exclusive `flock` on `<path>.lock`). Closing a writable
bank checkpoints the WAL and switches the file back to a rollback journal, so a closed bank is a
single self-contained file: the lead hashes it for the manifest, and opening it `read_only=True`
reads it through a `mode=ro` connection that creates no `-wal`/`-shm` files and writes nothing.
A bank whose `-wal` file is still there was not closed (a writer is open, or crashed); reading it
then is refused, with what to do.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from countermem.core import StoreError

StrategyLabel = Literal["success", "failure"]
LabelSource = Literal["llm_judge", "checker"]

BANK_FORMAT = "countermem-strategy-bank-1"
MEMORY = ":memory:"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS items (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    domain TEXT NOT NULL,
    benchmark TEXT NOT NULL,
    label TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS items_by_domain ON items (domain, benchmark);
"""


def _norm(text: str) -> str:
    return " ".join(text.split())


def strategy_id(domain: str, benchmark: str, title: str, description: str, content: str) -> str:
    key = [domain, benchmark, _norm(title), _norm(description), _norm(content)]
    return "s-" + hashlib.sha256(json.dumps(key).encode()).hexdigest()[:16]


class StrategyItem(BaseModel):
    """One distilled strategy; `label` says whether it came from a success or a failure, and who said so."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = ""
    title: str
    description: str
    content: str
    domain: str
    benchmark: str
    source_task_id: str
    label: StrategyLabel
    label_source: LabelSource
    source_task_text: str = ""
    """The (clipped) task the item was distilled from; not part of the id. ReasoningBank retrieves
    by the similarity of the current task to this text (`StrategyMemory(key="task")`)."""

    @model_validator(mode="before")
    @classmethod
    def _derive_id(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        fields = ("domain", "benchmark", "title", "description", "content")
        if not all(isinstance(data.get(name), str) for name in fields):
            return data
        expected = strategy_id(*(str(data[name]) for name in fields))
        given = data.get("id")
        if given and given != expected:
            raise ValueError(
                f"strategy item id {given!r} does not match its content ({expected}); leave id out to compute it"
            )
        return {**data, "id": expected}

    @property
    def key_text(self) -> str:
        """The item's own text, what `StrategyMemory(key="item")` embeds."""
        return f"{self.title}\n{self.description}\n{self.content}"


class StrategyBank:
    """Strategy items in one SQLite file (or `:memory:` for tests); see the module docstring."""

    def __init__(self, path: str | Path = MEMORY, *, read_only: bool = False) -> None:
        self.path = str(path)
        self.read_only = read_only
        self._lock: IO[bytes] | None = None
        self._conn: sqlite3.Connection | None = None
        self._items: dict[str, StrategyItem] = {}
        try:
            if read_only:
                self._items = self._read_only_load()
            else:
                self._conn = self._open_writable()
                self._items = _load(self._conn, self.path)
        except BaseException:
            self.close()
            raise

    def _read_only_load(self) -> dict[str, StrategyItem]:
        file = Path(self.path)
        if self.path == MEMORY:
            raise StoreError("an in-memory strategy bank cannot be opened read-only; give a file path")
        if not file.is_file():
            raise StoreError(f"no strategy bank at {file}; build one in the construct stage first")
        wal = Path(f"{file}-wal")
        if wal.exists():
            raise StoreError(
                f"{file} has a write-ahead log ({wal.name}): a writer has it open or crashed; close the writer, "
                "or open the bank once without read_only=True to recover it, then read it"
            )
        try:
            conn = sqlite3.connect(file.resolve().as_uri() + "?mode=ro", uri=True, isolation_level=None)
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{file} is not a readable strategy bank ({error})") from error
        try:
            _check_format(conn, self.path)
            return _load(conn, self.path)
        finally:
            conn.close()

    def _open_writable(self) -> sqlite3.Connection:
        if self.path == MEMORY:
            conn = sqlite3.connect(MEMORY, isolation_level=None)
        else:
            file = Path(self.path)
            if not file.parent.is_dir():
                raise StoreError(f"cannot create a strategy bank at {file}: folder {file.parent} does not exist")
            self._take_lock(file)
            try:
                conn = sqlite3.connect(file, isolation_level=None)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
            except sqlite3.DatabaseError as error:
                raise StoreError(f"{file} is not a strategy bank ({error})") from error
        try:
            conn.executescript(_SCHEMA)
            if _meta(conn, "format") is None:
                conn.execute("INSERT INTO meta (key, value) VALUES ('format', ?)", (BANK_FORMAT,))
            _check_format(conn, self.path)
        except sqlite3.DatabaseError as error:
            conn.close()
            raise StoreError(f"{self.path} is not a strategy bank ({error})") from error
        except BaseException:
            conn.close()
            raise
        return conn

    def _take_lock(self, file: Path) -> None:
        handle = open(f"{file}.lock", "wb")  # noqa: SIM115 - held for the bank's lifetime
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as error:
            handle.close()
            raise StoreError(
                f"{file} is open for writing by another bank object or process; close it first"
            ) from error
        self._lock = handle

    # --- reading -------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._items

    def all(self) -> list[StrategyItem]:
        """Every item, in the order it was added."""
        return list(self._items.values())

    # --- writing -------------------------------------------------------------------------------

    def add(self, items: Iterable[StrategyItem]) -> list[StrategyItem]:
        """Add the items not already present (by id) in one transaction; returns those added."""
        if self.read_only or self._conn is None:
            raise StoreError(f"{self.path} was opened read-only (or is closed); open it writable to add items")
        fresh: dict[str, StrategyItem] = {}
        for item in items:
            if item.id not in self._items and item.id not in fresh:
                fresh[item.id] = item
        if not fresh:
            return []
        with self._transaction():
            self._conn.executemany(
                "INSERT INTO items (id, domain, benchmark, label, body) VALUES (?, ?, ?, ?, ?)",
                [(i.id, i.domain, i.benchmark, i.label, i.model_dump_json()) for i in fresh.values()],
            )
        self._items.update(fresh)
        return list(fresh.values())

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        assert self._conn is not None
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
        except sqlite3.Error as error:
            raise StoreError(f"writing to the strategy bank {self.path} failed: {error}") from error

    # --- lifecycle -----------------------------------------------------------------------------

    def close(self) -> None:
        """Checkpoint and leave one self-contained file (no WAL), so it can be hashed and read read-only."""
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                if self.path != MEMORY:
                    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                    conn.execute("PRAGMA journal_mode=DELETE")
            finally:
                conn.close()
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def __enter__(self) -> StrategyBank:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


def _meta(conn: sqlite3.Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def _check_format(conn: sqlite3.Connection, path: str) -> None:
    try:
        found = _meta(conn, "format")
    except sqlite3.DatabaseError as error:
        raise StoreError(f"{path} is not a strategy bank ({error})") from error
    if found != BANK_FORMAT:
        raise StoreError(f"{path} is not a strategy bank (format {found!r}, expected {BANK_FORMAT!r})")


def _load(conn: sqlite3.Connection, path: str) -> dict[str, StrategyItem]:
    items: dict[str, StrategyItem] = {}
    for item_id, body in conn.execute("SELECT id, body FROM items ORDER BY seq"):
        try:
            items[str(item_id)] = StrategyItem.model_validate_json(body)
        except ValidationError as error:
            raise StoreError(f"strategy item {item_id} in {path} does not parse: {error}") from error
    return items
