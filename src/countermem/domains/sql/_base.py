"""What Spider and sql-shop share: the world model, prompts, schema rendering and facts.

A subclass says where tasks and database bytes come from; everything an agent sees or a
condition tests is derived here in one way for both, so a record learned on one SQL benchmark
describes its situation in the same terms as the other.
"""

from __future__ import annotations

import sqlite3
from abc import abstractmethod

from countermem.core import Action, CheckResult, ConfigError, Facts, Task
from countermem.domains._protocol import Benchmark, BenchmarkOptions
from countermem.domains.sql._execution import DEFAULT_TIMEOUT_S
from countermem.domains.sql._facts import action_facts, error_kind, task_facts
from countermem.domains.sql._schema import SchemaInfo, read_schema
from countermem.domains.sql._worldmodel import GoldCache, GoldResult, SQLiteWorldModel

INSTRUCTIONS = """\
You answer a question about a SQLite database by writing ONE SQLite query.
- Write a single read-only statement: SELECT, or WITH ... SELECT. Writes (INSERT, UPDATE, DELETE, \
CREATE, DROP, PRAGMA, ATTACH) and several statements are refused.
- Use only the tables and columns of the schema shown; mind the exact spelling, the value formats \
in the example rows (codes, case, date formats, units) and the foreign keys.
- Return exactly the columns the question asks for, no extra ones. Column names and column order \
do not matter; rows are compared as a multiset, and their order matters only when the question \
asks for an order.
- Text is compared exactly (case and spaces matter); numbers are compared after rounding to 6 decimals.
- A query has {timeout:g} seconds to run."""


class SQLBenchmark(Benchmark):
    """Common part of the SQL benchmarks; subclasses supply tasks and database bytes."""

    domain = "sql"
    action_language = "sql"
    checker_name = "sqlite3"

    def __init__(self, options: BenchmarkOptions | None = None) -> None:
        super().__init__(options)
        self._databases: dict[str, bytes] = {}
        self._schemas: dict[str, SchemaInfo] = {}
        self._gold_cache = GoldCache()
        self._scratch: SQLiteWorldModel | None = None

    def checker_version(self) -> str | None:
        return sqlite3.sqlite_version

    @abstractmethod
    def _load_database(self, environment: str) -> bytes:
        """The bytes of one SQLite database; raise DataUnavailableError with the reason."""

    @property
    def timeout_s(self) -> float:
        return self.options.timeout_s if self.options.timeout_s is not None else DEFAULT_TIMEOUT_S

    def database_bytes(self, task: Task) -> bytes:
        return self.environment_bytes(_environment(task))

    def environment_bytes(self, environment: str) -> bytes:
        if environment not in self._databases:
            self._databases[environment] = self._load_database(environment)
        return self._databases[environment]

    def schema(self, environment: str) -> SchemaInfo:
        if environment not in self._schemas:
            self._schemas[environment] = read_schema(self.environment_bytes(environment))
        return self._schemas[environment]

    def world_model(self) -> SQLiteWorldModel:
        return SQLiteWorldModel(self, timeout_s=self.timeout_s, gold_cache=self._gold_cache)

    def gold_action(self, task: Task) -> Action:
        if task.gold is None:
            raise ConfigError(f"task {task.id} has no gold query")
        return Action(content=task.gold)

    def instructions(self) -> str:
        return INSTRUCTIONS.format(timeout=self.timeout_s)

    def render_task(self, task: Task) -> str:
        environment = _environment(task)
        schema = self.schema(environment).render()
        return f"Database `{environment}` (SQLite). Schema:\n{schema}\n\nQuestion: {task.prompt}"

    def facts(self, task: Task, action: Action | None = None) -> Facts:
        environment = _environment(task)
        schema = self.schema(environment)
        values = task_facts(task.prompt, environment, schema)
        if action is not None:
            values.update(action_facts(action.content, schema))
        return Facts(values=values)

    def error_kind(self, result: CheckResult) -> str | None:
        return error_kind(result.status, result.details)

    def gold_result(self, task: Task) -> GoldResult:
        """Run (or fetch from the cache) the gold query of `task`."""
        if self._scratch is None:
            self._scratch = SQLiteWorldModel(self, timeout_s=self.timeout_s, gold_cache=self._gold_cache)
        self._scratch.reset(task)
        return self._scratch.gold_result()

    def wrong_action(self, task: Task) -> Action:
        """The gold result minus one row (a strict sub-multiset), or one row where the gold has none.

        It runs the gold query's own work, so checker-speed figures taken with it are realistic.
        """
        gold = self.gold_result(task)
        if not gold.usable:
            raise ConfigError(f"the gold query of {task.id} does not run: {gold.outcome.message}")
        if not gold.rows:
            return Action(content="SELECT 'countermem: a row where none is expected' AS wrong")
        body = (task.gold or "").strip().rstrip(";").strip()
        return Action(content=f"SELECT * FROM ({body}) LIMIT -1 OFFSET 1")


def _environment(task: Task) -> str:
    if not task.environment:
        raise ConfigError(f"task {task.id} names no database (environment)")
    return task.environment
