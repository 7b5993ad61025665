"""Observable facts of a text-to-SQL decision, for applicability conditions.

A condition such as "schema has a table named clients" or "the question asks for an average"
must be decidable by code, so every fact here is computed deterministically from the schema,
the question and (when given) the candidate query. The fact names are listed in the package
docstring (`countermem.domains.sql`).
"""

from __future__ import annotations

import re

import sqlglot
from sqlglot import exp

from countermem.core import FactValue
from countermem.domains.sql._schema import SchemaInfo

QUESTION_KEYWORDS: dict[str, tuple[str, ...]] = {
    "count": (r"\bhow many\b", r"\bnumber of\b", r"\bcount\b"),
    "average": (r"\baverage\b", r"\bmean\b", r"\bavg\b"),
    "total": (r"\btotal\b", r"\bsum\b", r"\bin all\b"),
    "most": (r"\bmost\b", r"\bhighest\b", r"\blargest\b", r"\bmaximum\b", r"\bbiggest\b", r"\boldest\b"),
    "least": (r"\bleast\b", r"\blowest\b", r"\bsmallest\b", r"\bminimum\b", r"\bfewest\b", r"\byoungest\b"),
    "each": (r"\beach\b", r"\bevery\b", r"\bper\b", r"\bfor all\b"),
    "order": (r"\border(ed)?\b", r"\bsort(ed)?\b", r"\bascending\b", r"\bdescending\b", r"\balphabetical"),
    "distinct": (r"\bdistinct\b", r"\bdifferent\b", r"\bunique\b"),
    "negation": (r"\bnot\b", r"\bnever\b", r"\bwithout\b", r"\bno\b", r"n't\b"),
    "comparison": (
        r"\bmore than\b",
        r"\bless than\b",
        r"\bgreater\b",
        r"\bfewer than\b",
        r"\bat least\b",
        r"\bat most\b",
        r"\babove\b",
        r"\bbelow\b",
        r"\bolder than\b",
        r"\byounger than\b",
    ),
    "both": (r"\bboth\b",),
    "either": (r"\beither\b",),
    "top_n": (r"\btop \d+\b", r"\b(three|two|five|ten|\d+) (\w+ )?with the\b", r"\bfirst \d+\b"),
    "time": (
        r"\b(year|month|day|date|week)s?\b",
        r"\b(19|20)\d\d\b",
        r"\b(january|february|march|april|june|july|august|september|october|november|december)\b",
    ),
}

_WORD = re.compile(r"[^\W\d_]+")


def question_keywords(question: str) -> tuple[str, ...]:
    text = question.lower()
    return tuple(
        name for name, patterns in QUESTION_KEYWORDS.items() if any(re.search(p, text) for p in patterns)
    )


def _name_variants(name: str) -> set[str]:
    base = name.lower().replace("_", " ").strip()
    variants = {base}
    if base.endswith("s"):
        variants.add(base[:-1])
    else:
        variants.add(base + "s")
    return variants


def mentioned_tables(question: str, schema: SchemaInfo) -> tuple[str, ...]:
    """Tables whose name (singular or plural, underscores as spaces) appears in the question."""
    text = " " + " ".join(_WORD.findall(question.lower())) + " "
    found = [
        t.name.lower()
        for t in schema.tables
        if any(f" {variant} " in text for variant in _name_variants(t.name) if variant)
    ]
    return tuple(sorted(found))


def task_facts(question: str, database: str, schema: SchemaInfo) -> dict[str, FactValue]:
    columns = tuple(sorted(f"{t.name.lower()}.{c.name.lower()}" for t in schema.tables for c in t.columns))
    return {
        "database": database,
        "tables": tuple(sorted(t.name.lower() for t in schema.tables)),
        "columns": columns,
        "n_tables": len(schema.tables),
        "n_columns": len(columns),
        "has_foreign_keys": schema.has_foreign_keys,
        "question_keywords": question_keywords(question),
        "mentioned_tables": mentioned_tables(question, schema),
    }


def _is_subquery(select: exp.Select, root: exp.Expr) -> bool:
    node = select.parent
    while node is not None and node is not root:
        if isinstance(node, exp.CTE):
            return False
        if isinstance(node, exp.Select):
            return True
        node = node.parent
    return isinstance(root, exp.Select) and node is root


def action_facts(sql: str, schema: SchemaInfo) -> dict[str, FactValue]:
    """Facts of a candidate query; `sql_parses` is False (and the rest empty) when sqlglot cannot read it."""
    try:
        tree = sqlglot.parse_one(sql, read="sqlite")
    except (sqlglot.errors.ParseError, sqlglot.errors.TokenError):
        tree = None
    if not isinstance(tree, exp.Query):
        return {
            "sql_parses": False,
            "sql_keywords": (),
            "sql_tables": (),
            "sql_unknown_tables": (),
            "n_joins": 0,
            "n_select_items": 0,
        }
    cte_names = {cte.alias_or_name.lower() for cte in tree.find_all(exp.CTE)}
    tables = sorted({t.name.lower() for t in tree.find_all(exp.Table) if t.name} - cte_names)
    known = {name.lower() for name in schema.table_names}
    joins = list(tree.find_all(exp.Join))
    keywords = {
        "join": bool(joins),
        "left_join": any(j.side.upper() == "LEFT" for j in joins),
        "group_by": tree.find(exp.Group) is not None,
        "having": tree.find(exp.Having) is not None,
        "order_by": tree.find(exp.Order) is not None,
        "limit": tree.find(exp.Limit) is not None,
        "distinct": tree.find(exp.Distinct) is not None,
        "subquery": any(_is_subquery(s, tree) for s in tree.find_all(exp.Select) if s is not tree),
        "union": tree.find(exp.Union) is not None,
        "intersect": tree.find(exp.Intersect) is not None,
        "except": tree.find(exp.Except) is not None,
        "cte": tree.find(exp.With) is not None,
        "aggregate": tree.find(exp.AggFunc) is not None,
        "like": tree.find(exp.Like) is not None,
        "case": tree.find(exp.Case) is not None,
        "window": tree.find(exp.Window) is not None,
        "exists": tree.find(exp.Exists) is not None,
        "not_in": any(isinstance(n.this, exp.In) for n in tree.find_all(exp.Not)),
    }
    return {
        "sql_parses": True,
        "sql_keywords": tuple(name for name, present in keywords.items() if present),
        "sql_tables": tuple(tables),
        "sql_unknown_tables": tuple(t for t in tables if t not in known),
        "n_joins": len(joins),
        "n_select_items": len(tree.selects),
    }


ERROR_KINDS: tuple[tuple[str, str], ...] = (
    ("no_such_column", r"^SQLite error: no such column\b"),
    ("no_such_table", r"^SQLite error: no such table\b"),
    ("no_such_function", r"^SQLite error: no such function\b"),
    ("ambiguous_column", r"^SQLite error: ambiguous column\b"),
    ("misused_aggregate", r"^SQLite error: misuse of aggregate\b"),
    ("syntax_error", r"^SQLite error: .*(syntax error|incomplete input|unrecognized token)"),
    ("sql_error", r"^SQLite error: "),
    ("wrong_columns", r"^returned \d+ columns, the question needs \d+"),
    ("wrong_order", r"^the right rows in the wrong order\b"),
    ("wrong_rows", r"^wrong rows: "),
)
"""The kind of a failed check, named without the query's or the schema's names, first match wins."""


def error_kind(status: str, details: str) -> str | None:
    """What kind of mistake a failed SQL check reports (`check_error`), or None for a pass.

    Why: the error is the most direct description of the mistake, and unlike the question's
    keywords or the schema's tables it carries over to another database and another question.
    """
    if status == "passed":
        return None
    if status in ("rejected", "timeout"):
        return status
    for kind, pattern in ERROR_KINDS:
        if re.search(pattern, details):
            return kind
    return status
