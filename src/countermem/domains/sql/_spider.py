"""Spider (dev set) as a countermem benchmark.

Data: `spider_en` (the original English Spider dev set) where present, else `spider` (the
German machine translation, MachineSpider). Both folders are read through
`countermem.domains._data`, which checks each file against the folder's SOURCE.md; a
decompressed English database is also checked against the per-database sha256 there.

What we do with the known defects, per SOURCE.md:
- English: the `wta_1` database is missing, so its items are skipped; any other item whose
  gold is marked `error` in dev_gold_check.tsv is skipped too (none at the time of writing).
- German: `wta_1` has no rows (every gold result empty), so its items are skipped. 42 golds
  fail only because they use the column `alter` (a keyword) unquoted; we quote it outside
  string literals and mark the task `gold_repaired`. Other `error` golds are skipped.
Skips are counted by reason in `load_report()`.

Task ids: `spider-<source_index>` (English) or `spider-de-<source_index>` (German), where
`source_index` is the item's position in the full upstream dev.json, so ids are stable and the
two languages never share one. `metadata.gold_empty` flags golds that return no rows: such a
task cannot tell a right query from a wrong one that also returns nothing, so a runner should
report them apart. `metadata.gold_rows` is the gold's row count as the tsv records it (or None).

Look-alikes: Spider rarely asks one question on two databases (16 of the 779 English dev tasks
here share half their question's content words with a task of another database), so a look-alike
is the same *kind* of question on another database: a task whose gold has the same shape
(`query_shape`: keywords, operators and structure, with names and values blanked) but other text,
closest questions first (content-word Jaccard, ties in the rng's order). "Return the name of the
high school student with the most friends" and "What is the name of the breed with the most dogs?"
share `select _ from _ join _ on _ = _ group by _ order by count ( * ) desc limit ?`; 518 of the
779 have at least one. A task whose shape no other database's gold has gets [].
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from countermem.core import DataUnavailableError, Task
from countermem.domains._data import dataset_dir, recorded_checksums, verified_file
from countermem.domains._protocol import Availability, BenchmarkOptions
from countermem.domains.sql._base import SQLBenchmark
from countermem.domains.sql._worldmodel import fingerprint

SPIDER_FOLDERS: tuple[tuple[str, str], ...] = (("spider_en", "en"), ("spider", "de"))
_SHAPE_KEYWORDS = frozenset(
    """
    select from where group by order having limit offset join on as and or not in like between is null
    distinct all count sum avg min max asc desc union intersect except exists inner left outer cross
    natural case when then else end cast
    """.split()  # noqa: SIM905
)
_SHAPE_TOKEN = re.compile(
    r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|`[^`]*`|\d+(?:\.\d+)?|[^\W\d]\w*|<=|>=|!=|<>|\S"
)
_STOPWORDS = frozenset(
    """
    a an the of in on for to by with and or is are was were be do does did we have has there that which
    who whom what when where how many much all each every me give show list find return tell
    """.split()  # noqa: SIM905
)
_ALTER = re.compile(r"\balter\b", re.IGNORECASE)
_QUOTED = re.compile(r"('(?:[^']|'')*'|\"(?:[^\"]|\"\")*\")")


@dataclass(frozen=True)
class SpiderLoadReport:
    folder: Path
    language: str
    items: int
    tasks: int
    skipped: dict[str, int] = field(default_factory=dict)
    repaired: int = 0
    gold_empty: int = 0


def quote_alter(sql: str) -> str:
    """Quote the bare identifier `alter` outside string literals (the MachineSpider defect)."""
    parts = _QUOTED.split(sql)
    return "".join(part if index % 2 else _ALTER.sub('"alter"', part) for index, part in enumerate(parts))


def _content_words(question: str) -> frozenset[str]:
    return frozenset(re.findall(r"[^\W\d_]+", question.lower())) - _STOPWORDS


def _recorded_rows(detail: str) -> int | None:
    """The gold's row count as dev_gold_check.tsv records it ("12 rows"), where it does."""
    match = re.match(r"(\d+) rows?\b", detail)
    return int(match.group(1)) if match else None


def _english_question(task: Task) -> str:
    return str(task.metadata.get("question_en") or task.prompt)


def query_shape(sql: str) -> str:
    """The query with its names and values blanked: what two look-alike questions' golds share.

    Names (tables, columns, aliases, `T1.x`, `x AS y`) become `_`; literals, numbers and quoted
    text become `?` (Spider writes string values in double quotes, so those count as values).
    """
    out: list[str] = []
    for token in _SHAPE_TOKEN.findall(sql.replace(";", " ")):
        lower = token.lower()
        if token[0] in "'\"" or token[0].isdigit():
            out.append("?")
        elif lower in _SHAPE_KEYWORDS:
            out.append(lower)
        elif token[0] == "`" or token[0].isalpha() or token[0] == "_":
            out.append("_")
        else:
            out.append(token)
    shape = " ".join(out)
    previous = None
    while previous != shape:
        previous = shape
        shape = shape.replace("_ . _", "_").replace(" as _", "").replace("_ _", "_")
    return shape


def _squash(sql: str) -> str:
    return " ".join(sql.lower().replace(";", " ").split())


class SpiderBenchmark(SQLBenchmark):
    name: ClassVar[str] = "spider"
    description: ClassVar[str] = (
        "Spider dev set (English; German MachineSpider if the English data is absent): "
        "text-to-SQL judged by executing the query on the task's SQLite database"
    )

    def __init__(self, options: BenchmarkOptions | None = None) -> None:
        super().__init__(options)
        self._tasks: list[Task] | None = None
        self._report: SpiderLoadReport | None = None
        self._words: dict[str, frozenset[str]] | None = None
        self._shapes: dict[str, str] | None = None

    def data_source(self) -> Path | None:
        return self._locate()[0]

    def _locate(self) -> tuple[Path, str]:
        reasons: list[str] = []
        for name, language in SPIDER_FOLDERS:
            if self.options.data_dir is not None:
                folder = Path(self.options.data_dir) / name
                if (folder / "SOURCE.md").is_file():
                    return folder, language
                reasons.append(f"{folder} has no SOURCE.md")
                continue
            try:
                return dataset_dir(name), language
            except DataUnavailableError as error:
                reasons.append(str(error))
        raise DataUnavailableError("no Spider data found: " + "; ".join(reasons))

    def availability(self) -> Availability:
        try:
            folder, _ = self._locate()
            verified_file(folder, "dev.json")
            verified_file(folder, "dev_gold_check.tsv")
        except DataUnavailableError as error:
            return Availability(False, str(error))
        return Availability(True)

    def load_report(self) -> SpiderLoadReport:
        """How many items were read, kept, skipped (by reason) and repaired."""
        self.tasks()
        assert self._report is not None
        return self._report

    def tasks(self) -> list[Task]:
        if self._tasks is None:
            self._tasks, self._report = self._read_tasks()
        return list(self._tasks)

    def _read_tasks(self) -> tuple[list[Task], SpiderLoadReport]:
        folder, language = self._locate()
        items: list[dict[str, Any]] = json.loads(
            verified_file(folder, "dev.json").read_text(encoding="utf-8")
        )
        table = verified_file(folder, "dev_gold_check.tsv").read_text(encoding="utf-8")
        checks = list(csv.DictReader(io.StringIO(table), delimiter="\t"))
        if len(checks) != len(items):
            raise DataUnavailableError(
                f"{folder}: dev_gold_check.tsv has {len(checks)} rows for {len(items)} items; see SOURCE.md"
            )
        tasks: list[Task] = []
        skipped: dict[str, int] = {}
        repaired = 0
        for item, check in zip(items, checks, strict=True):
            if check["db_id"] != item["db_id"]:
                raise DataUnavailableError(
                    f"{folder}: dev_gold_check.tsv row {check['source_index']} names {check['db_id']}, "
                    f"dev.json names {item['db_id']}"
                )
            reason = self._skip_reason(language, item, check)
            if reason is not None:
                skipped[reason] = skipped.get(reason, 0) + 1
                continue
            gold = str(item["query"])
            metadata: dict[str, Any] = {
                "db_id": item["db_id"],
                "source_index": int(check["source_index"]),
                "language": language,
                "gold_exec": check["gold_exec"],
                "gold_rows": _recorded_rows(check["detail"]),
                "gold_empty": check["gold_exec"] == "empty",
                "gold_all_zero_or_null": check["gold_exec"] == "all_zero_or_null"
                or "all values 0/NULL" in check["detail"],
            }
            if check["gold_exec"] == "error":
                gold = quote_alter(gold)
                metadata["gold_repaired"] = "quoted the column name alter"
                repaired += 1
            if language == "de":
                metadata["question_en"] = item.get("match", "")
            prefix = "spider" if language == "en" else "spider-de"
            tasks.append(
                Task(
                    id=f"{prefix}-{check['source_index']}",
                    benchmark=self.name,
                    domain=self.domain,
                    prompt=str(item["question"]),
                    environment=str(item["db_id"]),
                    gold=gold,
                    metadata=metadata,
                )
            )
        report = SpiderLoadReport(
            folder=folder,
            language=language,
            items=len(items),
            tasks=len(tasks),
            skipped=skipped,
            repaired=repaired,
            gold_empty=sum(1 for t in tasks if t.metadata["gold_empty"]),
        )
        return tasks, report

    @staticmethod
    def _skip_reason(language: str, item: dict[str, Any], check: dict[str, str]) -> str | None:
        if item["db_id"] == "wta_1":
            if language == "en":
                return "wta_1: database missing (SOURCE.md, known problems)"
            return "wta_1: database has no rows, every gold result is empty (SOURCE.md)"
        if check["gold_exec"] != "error":
            return None
        if language == "de" and 'near "alter"' in check["detail"]:
            return None
        return f"gold query does not run: {check['detail']}"

    def _load_database(self, environment: str) -> bytes:
        folder, _ = self._locate()
        relative = f"database/{environment}/{environment}.sqlite.gz"
        database = gzip.decompress(verified_file(folder, relative).read_bytes())
        expected = recorded_checksums(folder).get(environment)
        if expected is not None and (len(database) != expected[0] or fingerprint(database) != expected[1]):
            raise DataUnavailableError(
                f"{folder / relative} decompresses to bytes that do not match SOURCE.md "
                f"(expected {expected[0]} bytes, sha256 {expected[1]})"
            )
        return database

    def lookalikes(self, task: Task, rng: random.Random) -> list[Task]:
        tasks = self.tasks()
        if self._words is None or self._shapes is None:
            self._words = {t.id: _content_words(_english_question(t)) for t in tasks}
            self._shapes = {t.id: query_shape(t.gold or "") for t in tasks}
        all_words, shapes = self._words, self._shapes
        shape = shapes.get(task.id) or query_shape(task.gold or "")
        words = all_words.get(task.id) or _content_words(_english_question(task))
        if not shape:
            return []
        found = [
            other
            for other in tasks
            if other.environment != task.environment
            and shapes[other.id] == shape
            and _squash(other.gold or "") != _squash(task.gold or "")
        ]
        rng.shuffle(found)

        def closeness(other: Task) -> float:
            union = words | all_words[other.id]
            return len(words & all_words[other.id]) / len(union) if union else 0.0

        return sorted(found, key=closeness, reverse=True)
