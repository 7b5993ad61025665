"""sql-shop: a small text-to-SQL benchmark of our own, built to test look-alike situations.

One shop's facts (60 customers, 8 suppliers, 30 products, 240 orders, 480 order lines) are
generated deterministically by `data/shop_base.sql` (fixed lists and integer arithmetic, no
randomness) and reshaped into five schema variants, each its own database (environment), so
that splits by environment leave every stage at least one database:

- `shop_retail`: customers, suppliers, products(price), orders(status 'shipped'/'pending'/...),
  order_items(quantity).
- `shop_wholesale`: clients, vendors, products without a price, order_status lookup with
  integer codes, Unix-epoch times, order_items(unit_price) where some lines were discounted.
- `shop_marketplace`: surrogate `id` keys, first/last names, DD/MM/YYYY signup dates,
  categories table, price_cents, one-letter status codes, a returns table.
- `shop_legacy`: upper-case abbreviations (CUST, ORD_HDR, ORD_LN), yyyymmdd integer dates,
  country and category codes, line totals (LN_AMT) instead of unit prices.
- `shop_crm`: customers and suppliers in one `parties` table told apart by `kind`,
  `sales_orders` with capitalised status words.

Column comments in the variant scripts (units, codes, formats) are shown to the agent with the
schema, as a careful database designer would document them.

`data/shop_questions.json` holds the questions: most are asked in the same words on every
variant with a different gold query each, so a correction learned on one variant ("use
status = 'shipped'") is wrong on another (status = 1). `lookalikes` returns exactly those
other-variant tasks. Task ids are `sql-shop-<variant>-<question id>`.
"""

from __future__ import annotations

import random
import sqlite3
from importlib import resources
from typing import ClassVar

from pydantic import BaseModel, ConfigDict

from countermem.core import Action, ConfigError, DataUnavailableError, Task
from countermem.domains._protocol import Availability, BenchmarkOptions
from countermem.domains.sql._base import SQLBenchmark

ENVIRONMENT_PREFIX = "shop_"
_DATA_PACKAGE = "countermem.domains.sql"
_QUESTIONS_FILE = "shop_questions.json"
_BASE_SCRIPT = "shop_base.sql"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ShopVariant(_Model):
    script: str
    summary: str


class ShopQuestion(_Model):
    id: str
    question: str
    gold: dict[str, str]
    """variant name -> gold SQL on that variant."""


class ShopQuestions(_Model):
    description: str
    variants: dict[str, ShopVariant]
    questions: list[ShopQuestion]


def _data_text(name: str) -> str:
    path = resources.files(_DATA_PACKAGE) / "data" / name
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError as error:
        raise DataUnavailableError(
            f"sql-shop package data {name} is missing; reinstall countermem (it ships in the wheel)"
        ) from error


def load_questions() -> ShopQuestions:
    return ShopQuestions.model_validate_json(_data_text(_QUESTIONS_FILE))


def build_database(variant: ShopVariant) -> bytes:
    """Run the base script and the variant's script in memory; return the database bytes."""
    connection = sqlite3.connect(":memory:")
    try:
        connection.executescript(_data_text(_BASE_SCRIPT))
        connection.executescript(_data_text(variant.script))
        connection.commit()
        return connection.serialize()
    finally:
        connection.close()


class ShopBenchmark(SQLBenchmark):
    name: ClassVar[str] = "sql-shop"
    description: ClassVar[str] = (
        "A shop database in three schema variants with look-alike questions (same wording, different "
        "schema); text-to-SQL judged by execution"
    )

    def __init__(self, options: BenchmarkOptions | None = None) -> None:
        super().__init__(options)
        self._questions: ShopQuestions | None = None
        self._tasks: list[Task] | None = None

    @property
    def questions(self) -> ShopQuestions:
        if self._questions is None:
            self._questions = load_questions()
        return self._questions

    def availability(self) -> Availability:
        try:
            questions = self.questions
            for variant in questions.variants.values():
                _data_text(variant.script)
            _data_text(_BASE_SCRIPT)
        except DataUnavailableError as error:
            return Availability(False, str(error))
        return Availability(True)

    def tasks(self) -> list[Task]:
        if self._tasks is None:
            self._tasks = self._build_tasks()
        return list(self._tasks)

    def _build_tasks(self) -> list[Task]:
        questions = self.questions
        tasks: list[Task] = []
        for question in questions.questions:
            for variant in questions.variants:
                gold = question.gold.get(variant)
                if gold is None:
                    continue
                tasks.append(
                    Task(
                        id=f"{self.name}-{variant}-{question.id}",
                        benchmark=self.name,
                        domain=self.domain,
                        prompt=question.question,
                        environment=ENVIRONMENT_PREFIX + variant,
                        gold=gold,
                        metadata={
                            "db_id": ENVIRONMENT_PREFIX + variant,
                            "variant": variant,
                            "question_id": question.id,
                        },
                    )
                )
        return tasks

    def _load_database(self, environment: str) -> bytes:
        variant = environment.removeprefix(ENVIRONMENT_PREFIX)
        if not environment.startswith(ENVIRONMENT_PREFIX) or variant not in self.questions.variants:
            known = ", ".join(ENVIRONMENT_PREFIX + v for v in self.questions.variants)
            raise DataUnavailableError(f"sql-shop has no database {environment!r}; it has {known}")
        return build_database(self.questions.variants[variant])

    def naive_action(self, task: Task) -> Action:
        """The retail variant's gold for the same question: the simulated model assumes the common schema.

        So its mistake recurs and depends on the schema: right on retail (and wherever a variant's
        gold happens to equal retail's), wrong in a consistent way on the others. A question with
        no retail form (asked on one variant only) has no naive action: ConfigError.
        """
        question_id = task.metadata.get("question_id")
        question = next((q for q in self.questions.questions if q.id == question_id), None)
        if question is None:
            raise ConfigError(f"task {task.id} names no sql-shop question (metadata question_id={question_id!r})")
        retail = question.gold.get("retail")
        if retail is None:
            raise ConfigError(
                f"sql-shop question {question.id} is not asked on the retail variant, so the simulated "
                "backbone (which assumes the retail schema) has no naive action for it"
            )
        return Action(content=retail)

    def lookalikes(self, task: Task, rng: random.Random) -> list[Task]:
        """The same question on the other schema variants, where its gold query differs."""
        question_id = task.metadata.get("question_id")
        found = [
            other
            for other in self.tasks()
            if other.metadata.get("question_id") == question_id
            and other.environment != task.environment
            and " ".join((other.gold or "").split()) != " ".join((task.gold or "").split())
        ]
        rng.shuffle(found)
        return found
