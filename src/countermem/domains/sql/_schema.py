"""Read a database's schema once, and render it compactly for the agent.

The schema is read from the SQLite file itself (not from Spider's tables.json), so what the
agent sees is exactly what its query runs against, for Spider and sql-shop alike. Rendering:
one `CREATE TABLE` line per table with primary and foreign keys, followed by a comment with
the row count and up to `SAMPLE_ROWS` example rows (values cut at `SAMPLE_VALUE_CHARS`).
If the text exceeds `SCHEMA_CHAR_LIMIT`, the example rows are dropped first; if it still does,
whole tables are left out from the end and a final comment says how many.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass

SCHEMA_CHAR_LIMIT = 8_000
SAMPLE_ROWS = 2
SAMPLE_VALUE_CHARS = 24

_PLAIN_NAME = re.compile(r"^[^\W\d]\w*$")
_RESERVED = frozenset(
    """
    add all alter and as asc autoincrement between by case cast check collate commit constraint create
    cross current_date current_time current_timestamp default deferrable delete desc distinct drop else
    end escape except exists for foreign from full glob group having if in index indexed inner insert
    intersect into is isnull join left like limit natural not notnull null on or order outer primary
    references regexp right rollback select set table then to transaction union unique update using
    values when where with
    """.split()  # noqa: SIM905
)
"""SQLite keywords that cannot serve as bare identifiers (the German Spider column `alter` is one)."""


def quote_identifier(name: str) -> str:
    if _PLAIN_NAME.match(name) and name.lower() not in _RESERVED:
        return name
    return '"' + name.replace('"', '""') + '"'


@dataclass(frozen=True)
class ColumnInfo:
    name: str
    type: str
    primary_key: bool
    comment: str = ""
    """A `-- comment` on the column's line of the original CREATE TABLE (units, codes, formats)."""


@dataclass(frozen=True)
class ForeignKey:
    column: str
    ref_table: str
    ref_column: str


@dataclass(frozen=True)
class TableInfo:
    name: str
    columns: tuple[ColumnInfo, ...]
    foreign_keys: tuple[ForeignKey, ...]
    row_count: int
    sample_rows: tuple[tuple[object, ...], ...]

    def create_statement(self) -> str:
        parts = []
        keys = [c.name for c in self.columns if c.primary_key]
        for column in self.columns:
            text = quote_identifier(column.name)
            if column.type:
                text += f" {column.type}"
            if column.primary_key and len(keys) == 1:
                text += " PRIMARY KEY"
            if column.comment:
                text += f" /* {column.comment} */"
            parts.append(text)
        if len(keys) > 1:
            parts.append(f"PRIMARY KEY ({', '.join(quote_identifier(k) for k in keys)})")
        for fk in self.foreign_keys:
            reference = quote_identifier(fk.ref_table)
            if fk.ref_column:
                reference += f"({quote_identifier(fk.ref_column)})"
            parts.append(f"FOREIGN KEY ({quote_identifier(fk.column)}) REFERENCES {reference}")
        return f"CREATE TABLE {quote_identifier(self.name)} ({', '.join(parts)});"

    def sample_comment(self) -> str:
        rows = "; ".join("(" + ", ".join(_sample_value(v) for v in row) + ")" for row in self.sample_rows)
        plural = "row" if self.row_count == 1 else "rows"
        return f"-- {self.row_count} {plural}" + (f"; e.g. {rows}" if rows else "")


@dataclass(frozen=True)
class SchemaInfo:
    tables: tuple[TableInfo, ...]

    @property
    def table_names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.tables)

    @property
    def has_foreign_keys(self) -> bool:
        return any(t.foreign_keys for t in self.tables)

    def render(self, max_chars: int = SCHEMA_CHAR_LIMIT, with_samples: bool = True) -> str:
        if with_samples:
            text = "\n".join(f"{t.create_statement()}\n{t.sample_comment()}" for t in self.tables)
            if len(text) <= max_chars:
                return text
        lines: list[str] = []
        used = 0
        for index, table in enumerate(self.tables):
            line = table.create_statement()
            if used + len(line) + 1 > max_chars:
                left = len(self.tables) - index
                lines.append(f"-- {left} more tables not shown (schema cut at {max_chars} characters)")
                break
            lines.append(line)
            used += len(line) + 1
        return "\n".join(lines)


def _sample_value(value: object) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bytes):
        return f"<{len(value)} bytes>"
    if isinstance(value, str):
        cut = value if len(value) <= SAMPLE_VALUE_CHARS else value[: SAMPLE_VALUE_CHARS - 3] + "..."
        return "'" + cut.replace("'", "''") + "'"
    return repr(value)


def read_schema(database: bytes) -> SchemaInfo:
    """Read tables, keys, row counts and example rows from the database bytes (in memory)."""
    connection = sqlite3.connect(":memory:")
    try:
        connection.deserialize(database)
        names = [
            row[0]
            for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
            )
        ]
        return SchemaInfo(tuple(_read_table(connection, name) for name in names))
    finally:
        connection.close()


_COMMENTED_LINE = re.compile(r"^\s*[\"`\[]?([^\s\"`\]]+)[\"`\]]?\s.*?--\s*(.+?)\s*$")


def _column_comments(create_sql: str) -> dict[str, str]:
    comments: dict[str, str] = {}
    for line in create_sql.splitlines():
        match = _COMMENTED_LINE.match(line)
        if match:
            comments[match.group(1).lower()] = match.group(2).replace("*/", "* /")
    return comments


def _read_table(connection: sqlite3.Connection, name: str) -> TableInfo:
    quoted = '"' + name.replace('"', '""') + '"'
    row = connection.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
    ).fetchone()
    comments = _column_comments(str(row[0] or "")) if row else {}
    columns = tuple(
        ColumnInfo(
            name=str(info[1]),
            type=str(info[2] or ""),
            primary_key=bool(info[5]),
            comment=comments.get(str(info[1]).lower(), ""),
        )
        for info in connection.execute(f"PRAGMA table_info({quoted})")
    )
    foreign_keys = tuple(
        ForeignKey(column=str(row[3]), ref_table=str(row[2]), ref_column=str(row[4] or ""))
        for row in connection.execute(f"PRAGMA foreign_key_list({quoted})")
    )
    row_count = int(connection.execute(f"SELECT COUNT(*) FROM {quoted}").fetchone()[0])
    samples = tuple(tuple(r) for r in connection.execute(f"SELECT * FROM {quoted} LIMIT {SAMPLE_ROWS}"))
    return TableInfo(name, columns, foreign_keys, row_count, samples)
