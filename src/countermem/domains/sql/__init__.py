"""Text-to-SQL: Spider and sql-shop, judged by running the query on a private SQLite copy.

World model (`SQLiteWorldModel`): a query runs read-only (URI `mode=ro`, `PRAGMA query_only`,
an authorizer that allows reads only) under a wall-clock limit (5 s, or
`BenchmarkOptions.timeout_s`) and a row cap; its result is compared with the cached gold
result (rules and the partial score in `_compare`). Bad SQL gives status `error`, a write or
several statements `rejected`, a runaway query `timeout` (completed False) - never an exception.

Facts (`Benchmark.facts`), for applicability conditions:
- `database` (str): the environment, e.g. `concert_singer` or `shop_wholesale`.
- `tables` (tuple[str]), `columns` (tuple of `table.column`): lower-cased, sorted.
- `n_tables`, `n_columns` (int); `has_foreign_keys` (bool).
- `question_keywords` (tuple[str]): which of count, average, total, most, least, each, order,
  distinct, negation, comparison, both, either, top_n, time the question uses.
- `mentioned_tables` (tuple[str]): tables named in the question (singular or plural).
With an action also:
- `sql_parses` (bool): sqlglot reads it as a query (SQLite itself is the judge of validity).
- `sql_keywords` (tuple[str]): which of join, left_join, group_by, having, order_by, limit,
  distinct, subquery, union, intersect, except, cte, aggregate, like, case, window, exists,
  not_in the query uses.
- `sql_tables` (tuple[str]): tables it reads (CTE names excluded); `sql_unknown_tables`: those
  of them the schema lacks; `n_joins` (int); `n_select_items` (int): expressions the outer
  SELECT returns (`*` is one; the first branch of a set operation), so a record can say "the
  query returned more columns than asked for".
"""

from countermem.domains.sql._base import INSTRUCTIONS, SQLBenchmark
from countermem.domains.sql._compare import (
    FLOAT_DIGITS,
    PARTIAL_CEILING,
    Comparison,
    compare_results,
    has_top_level_order_by,
    normalise_rows,
    normalise_value,
)
from countermem.domains.sql._execution import DEFAULT_MAX_ROWS, DEFAULT_TIMEOUT_S, QueryOutcome, run_query
from countermem.domains.sql._facts import QUESTION_KEYWORDS, action_facts, question_keywords, task_facts
from countermem.domains.sql._schema import SCHEMA_CHAR_LIMIT, SchemaInfo, TableInfo, read_schema
from countermem.domains.sql._shop import ShopBenchmark, ShopQuestions, build_database, load_questions
from countermem.domains.sql._spider import SpiderBenchmark, SpiderLoadReport, query_shape, quote_alter
from countermem.domains.sql._worldmodel import DatabaseSource, GoldCache, GoldResult, SQLiteWorldModel

__all__ = [
    "DEFAULT_MAX_ROWS",
    "DEFAULT_TIMEOUT_S",
    "FLOAT_DIGITS",
    "INSTRUCTIONS",
    "PARTIAL_CEILING",
    "QUESTION_KEYWORDS",
    "SCHEMA_CHAR_LIMIT",
    "Comparison",
    "DatabaseSource",
    "GoldCache",
    "GoldResult",
    "QueryOutcome",
    "SQLBenchmark",
    "SQLiteWorldModel",
    "SchemaInfo",
    "ShopBenchmark",
    "ShopQuestions",
    "SpiderBenchmark",
    "SpiderLoadReport",
    "TableInfo",
    "action_facts",
    "build_database",
    "compare_results",
    "has_top_level_order_by",
    "load_questions",
    "normalise_rows",
    "normalise_value",
    "query_shape",
    "question_keywords",
    "quote_alter",
    "read_schema",
    "run_query",
    "task_facts",
]
