"""`countermem memory ...`: read, export, freeze and copy a memory store; import into it and merge it.

A store is a file path (SQLite) or a postgresql:// URL. `list`, `show`, `stats`, `export` and
`freeze` open the store read-only, so they are safe to run while a construct run is writing, and
work on frozen snapshots as well; `import` and `merge` write, each in one store transaction per
record or merge, and `memory reverify` (in `_reverify`) retires records. `--scope` (and
`--read-scope` for scopes shared with it) shows only what a reader of that scope may read
(`countermem.memory._scope`); without it a command sees every scope. Record text is untrusted
(model-written), so everything
printed from a record goes through `terminal_safe`: an escape sequence in a record shows as text
and cannot clear the screen or retitle the window. A file is never written over without
`--force`, and a store is never written over by its own export. `copy` writes only to a new
store (an absent file, or an empty Postgres schema).
"""

from __future__ import annotations

import difflib
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console, Group
from rich.panel import Panel
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from countermem.core import CheckResult, ConfigError, StoreError, terminal_safe
from countermem.memory import (
    AnyStore,
    Record,
    ScopeAccess,
    StoreStats,
    access_of,
    copy_store,
    describe_location,
    open_store,
    records_from_jsonl,
)

memory_app = typer.Typer(
    help="Inspect, export, freeze and copy a memory store (read only); import, merge, and `reverify` to retire records.",
    no_args_is_help=True,
    add_completion=False,
)

StoreArg = Annotated[
    str, typer.Argument(help="The memory store: an SQLite file path or a postgresql://user@host/db URL.")
]
ScopeOpt = Annotated[
    str | None,
    typer.Option("--scope", help="Act as a reader of this scope (team, project, tenant); default: every scope."),
]
ReadScopeOpt = Annotated[
    list[str] | None,
    typer.Option("--read-scope", help="Also read this scope, shared with --scope (repeatable)."),
]


def _access(scope: str | None, read_scopes: list[str] | None) -> ScopeAccess | None:
    if read_scopes and scope is None:
        typer.echo("error: --read-scope names scopes shared with --scope; give --scope too", err=True)
        raise typer.Exit(2)
    try:
        return access_of(scope, read_scopes or ())
    except ConfigError as error:
        _error(error)
        raise typer.Exit(2) from error


def _console() -> Console:
    return Console(highlight=False, soft_wrap=False)


def _text(value: object, style: str = "") -> Text:
    """Untrusted text as a rich Text: control characters escaped, no markup read."""
    return Text(terminal_safe(str(value)), style=style)


def _error(error: Exception) -> None:
    typer.echo(f"error: {terminal_safe(str(error))}", err=True)


def _report_quarantined(store: AnyStore) -> None:
    for record_id, reason in store.quarantined.items():
        typer.echo(
            f"warning: record {terminal_safe(record_id)} cannot be read and is set aside (quarantined): "
            f"{terminal_safe(reason)}",
            err=True,
        )


@contextmanager
def _opened(location: str, access: ScopeAccess | None = None, *, write: bool = False) -> Iterator[AnyStore]:
    try:
        store = open_store(location, access=access) if write else open_store(location, read_only=True, access=access)
    except StoreError as error:
        _error(error)
        raise typer.Exit(1) from error
    try:
        yield store
    except StoreError as error:
        _error(error)
        raise typer.Exit(1) from error
    finally:
        store.close()


@contextmanager
def _writing(out: Path) -> Iterator[None]:
    """A destination the system will not let us write (permissions, a read-only disk, a folder) is one line."""
    try:
        yield
    except (OSError, sqlite3.Error) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        typer.echo(f"error: cannot write {terminal_safe(str(out))}: {reason}; give a writable file path", err=True)
        raise typer.Exit(1) from error


@memory_app.command("list")
def list_records(
    store: StoreArg,
    domain: Annotated[str | None, typer.Option(help="Only records of this domain.")] = None,
    benchmark: Annotated[str | None, typer.Option(help="Only records of this benchmark.")] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="Show at most this many records.")] = None,
    retired: Annotated[
        bool, typer.Option("--retired", help="Show the retired records (kept, never offered) with the reason.")
    ] = False,
    scope: ScopeOpt = None,
    read_scope: ReadScopeOpt = None,
) -> None:
    """One line per record, in admission order (the live ones, or with --retired the retired ones)."""
    with _opened(store, _access(scope, read_scope)) as opened:
        if retired:
            pool = opened.retired()
            records = [
                r for r in pool
                if (domain is None or r.domain == domain) and (benchmark is None or r.benchmark == benchmark)
            ][:limit]
            total = len(pool)
        else:
            records = opened.search(domain=domain, benchmark=benchmark, limit=limit)
            total = len(opened)
        _report_quarantined(opened)
    kind = "retired records" if retired else "records"
    table = Table(title=_text(f"{len(records)} of {total} {kind} in {describe_location(store)}"))
    table.add_column("id", no_wrap=True, min_width=18)
    table.add_column("scope", no_wrap=True)
    table.add_column("benchmark", no_wrap=True)
    table.add_column("gain", justify="right")
    if retired:  # the reasons follow the table, one line each (they are long); conditions are in `show`
        table.add_column("sel/succ/harm", justify="right", no_wrap=True)
        table.add_column("retired at", no_wrap=True)
    else:
        table.add_column("condition", overflow="fold")
        table.add_column("sel/succ/harm", justify="right", no_wrap=True)
        table.add_column("v", justify="right")
    for record in records:
        c = record.counters
        uses = f"{c.selected}/{c.succeeded}/{c.harmed}"
        head = (_text(record.id), _text(record.scope), _text(record.benchmark), f"{record.utility_gain:+.3f}")
        if retired:
            when = f"{record.retired_at:%Y-%m-%d %H:%M}" if record.retired_at else "?"
            table.add_row(*head, uses, when)
        else:
            table.add_row(*head, _text(record.condition.canonical), uses, str(record.version))
    console = _console()
    console.print(table)
    for record in records if retired else []:
        console.print(_text(f"{record.id}: {record.retired_reason}"), soft_wrap=True)


def _find(store: AnyStore, record_id: str) -> tuple[Record, bool]:
    """The record with this id or unique id prefix; the flag says it was found among evictions."""
    if record_id in store:
        return store.get(record_id), False
    matches = [r for r in store.all() + store.retired() if r.id.startswith(record_id)]
    if len(matches) == 1:
        return matches[0], False
    if len(matches) > 1:
        raise StoreError(f"{record_id!r} matches {len(matches)} records; give more of the id")
    try:
        return store.evicted_record(record_id), True
    except StoreError:
        raise StoreError(
            f"no record {record_id!r} in {store.path}, kept or evicted; `countermem memory list` shows the ids"
        ) from None


def _check_table(original: CheckResult, improved: CheckResult) -> Table:
    table = Table(title="checks", show_header=True)
    table.add_column("")
    table.add_column("original")
    table.add_column("improved")
    for name in ("status", "utility", "passed", "completed", "details"):
        table.add_row(name, _text(getattr(original, name)), _text(getattr(improved, name)))
    table.add_row("cost", Text(f"{original.cost.seconds:.3f}s"), Text(f"{improved.cost.seconds:.3f}s"))
    return table


@memory_app.command("show")
def show(
    store: StoreArg,
    record_id: Annotated[str, typer.Argument(metavar="ID", help="Record id (a unique prefix is enough).")],
    scope: ScopeOpt = None,
    read_scope: ReadScopeOpt = None,
) -> None:
    """Everything about one record: situation, both actions as a diff, checks, condition, provenance."""
    with _opened(store, _access(scope, read_scope)) as opened:
        if record_id in opened.quarantined:
            why = opened.quarantined[record_id]
            raise StoreError(f"record {record_id} cannot be read and is set aside (quarantined): {why}")
        record, evicted = _find(opened, record_id)
        versions = len(opened.history(record.id)) if not evicted else None
    console = _console()
    title = f"record {record.id}  version {record.version}" + (
        "  [EVICTED]" if evicted else "" if record.live else "  [RETIRED: never offered]"
    )
    c = record.counters
    summary = Table.grid(padding=(0, 2))
    rows = [
        ("domain / benchmark", f"{record.domain} / {record.benchmark}"),
        ("scope", record.scope),
        ("source", f"task {record.source.task_id} ({record.source.benchmark}, stage {record.source.stage})"),
        ("created", record.created_at.isoformat()),
        ("utility gain", f"{record.utility_gain:+.4f}"),
        ("status", _status(record)),
        ("condition", record.condition.canonical),
        ("condition as written", record.condition.source or "(empty: universal)"),
        ("rationale", record.rationale or "(none)"),
        (
            "reuse",
            f"retrieved {c.retrieved}, selected {c.selected}, succeeded {c.succeeded}, harmed {c.harmed}"
            + (f", last used {c.last_used_at.isoformat()}" if c.last_used_at else ""),
        ),
        ("versions stored", "?" if versions is None else str(versions)),
        ("merged from", _merged_sources(record)),
        ("embedding", "none" if record.embedding is None else f"{len(record.embedding)} dimensions"),
    ]
    for name, value in rows:
        summary.add_row(Text(name, style="bold"), _text(value))
    console.print(Panel(summary, title=_text(title)))
    console.print(_provenance_panel(record))
    situation_title = "situation" + (" (truncated)" if record.situation_truncated else "")
    console.print(Panel(_text(record.situation), title=situation_title))
    diff = "\n".join(
        difflib.unified_diff(
            record.original_action.content.splitlines(),
            record.improved_action.content.splitlines(),
            fromfile="original",
            tofile="improved",
            lineterm="",
        )
    )
    console.print(
        Panel(Syntax(terminal_safe(diff) or "(no textual difference)", "diff", word_wrap=True), title="action diff")
    )
    console.print(
        Panel(
            Group(
                Text("original", style="bold"),
                _text(record.original_action.content),
                Text(""),
                Text("improved", style="bold"),
                _text(record.improved_action.content),
            ),
            title="actions",
        )
    )
    console.print(_check_table(record.original_check, record.improved_check))
    if record.lesson is not None:
        console.print(_lesson_panel(record))


def _status(record: Record) -> str:
    if record.live:
        return "live"
    when = f" {record.retired_at.isoformat(timespec='seconds')}" if record.retired_at else ""
    return f"retired{when}, never offered: {record.retired_reason}"


def _merged_sources(record: Record) -> str:
    if not record.merged_from:
        return "none"
    return "; ".join(f"{m.record_id} (task {m.source.task_id})" for m in record.merged_from)


def _lesson_panel(record: Record) -> Panel:
    """The lesson a later agent is shown instead of this task's code, and why it was or was not admitted."""
    lesson = record.lesson
    assert lesson is not None
    grid = Table.grid(padding=(0, 2))
    check = "never checked" if lesson.check is None else f"{lesson.check.status}, utility {lesson.check.utility:.3f}"
    control = "not run" if lesson.control is None else f"{lesson.control.status}, utility {lesson.control.utility:.3f}"
    for name, value in (
        ("lesson", lesson.text or "(none written)"),
        ("verified", "yes" if lesson.verified else f"no: {lesson.reason}"),
        ("check from the lesson", check),
        ("control (no lesson)", control),
        ("names scrubbed", ", ".join(lesson.scrubbed) or "none"),
        ("written / checked by", f"{lesson.writer or 'unknown'} / {lesson.verifier or 'unknown'}"),
    ):
        grid.add_row(Text(name, style="bold"), _text(value))
    return Panel(grid, title="lesson")


def _provenance_panel(record: Record) -> Panel:
    """Who and what made the record; a record stored before provenance existed says `unknown`."""
    p = record.provenance
    grid = Table.grid(padding=(0, 2))
    redacted = ", ".join(f"{kind}: {n}" for kind, n in record.redactions.items()) or "none"
    for name, value in (
        ("proposing model", f"{p.proposing_model} (weights {p.proposing_weights})"),
        ("agent model", f"{p.agent_model} (weights {p.agent_weights})"),
        ("checker", f"{p.checker} {p.checker_version}"),
        ("data sha256", p.data_sha256),
        ("countermem", f"{p.countermem_version} (commit {p.git_commit})"),
        ("environment", p.environment),
        ("created", record.created_at.isoformat()),
        ("secrets redacted", redacted),
    ):
        grid.add_row(Text(name, style="bold"), _text(value))
    return Panel(grid, title="provenance")


@memory_app.command("stats")
def stats(
    store: StoreArg,
    as_json: Annotated[bool, typer.Option("--json", help="Print the statistics as JSON.")] = False,
    scope: ScopeOpt = None,
    read_scope: ReadScopeOpt = None,
) -> None:
    """Counts by domain and benchmark, mean gain, evictions by reason, reuse totals."""
    with _opened(store, _access(scope, read_scope)) as opened:
        result = opened.stats()
        if not as_json:
            _report_quarantined(opened)
    if as_json:
        typer.echo(result.model_dump_json(indent=2))
        return
    table = Table(title=_text(f"memory store {describe_location(store)}"), show_header=False)
    table.add_column("", style="bold")
    table.add_column("")
    mean = "n/a" if result.mean_gain is None else f"{result.mean_gain:.4f}"
    reuse = result.reuse
    lines = [
        ("records", _against_capacity(result)),
        ("retired (kept, not offered)", str(result.retired)),
        ("retention", result.retention),
        ("frozen", "yes" if result.frozen else "no"),
        ("mean gain", mean),
        ("universal conditions", str(result.universal_conditions)),
        ("quarantined (unreadable)", ", ".join(result.quarantined) or "none"),
        ("secrets redacted", _counts(result.redactions)),
        ("by scope", ", ".join(f"{k}: {v} / {result.capacity}" for k, v in result.by_scope.items()) or "none"),
        ("by domain", _counts(result.by_domain)),
        ("by benchmark", _counts(result.by_benchmark)),
        ("evictions", _counts(result.evictions_by_reason)),
        (
            "reuse",
            f"retrieved {reuse.retrieved}, selected {reuse.selected}, "
            f"succeeded {reuse.succeeded}, harmed {reuse.harmed}",
        ),
    ]
    for name, value in lines:
        table.add_row(name, _text(value))
    _console().print(table)


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{k}: {v}" for k, v in counts.items()) or "none"


def _against_capacity(stats: StoreStats) -> str:
    """Live records against the capacity, which each scope has on its own (issue 21)."""
    if len(stats.by_scope) > 1:
        return f"{stats.count} (capacity {stats.capacity} per scope)"
    return f"{stats.count} / capacity {stats.capacity}"


@memory_app.command("export")
def export(
    store: StoreArg,
    out: Annotated[Path, typer.Argument(help="JSONL file to write, one record per line.")],
    force: Annotated[
        bool, typer.Option("--force", help="Write over OUT if it exists (never over the store itself).")
    ] = False,
    scope: ScopeOpt = None,
    read_scope: ReadScopeOpt = None,
) -> None:
    """Write every record (of the scopes read) as one JSON line; an existing OUT is refused unless --force."""
    access = _access(scope, read_scope)
    if out.exists() and not out.is_dir() and not force:
        typer.echo(
            f"error: {terminal_safe(str(out))} already exists; give a new path, or --force to write over it",
            err=True,
        )
        raise typer.Exit(1)
    with _opened(store, access) as opened, _writing(out):
        count = opened.export_jsonl(out, overwrite=force)
    typer.echo(f"wrote {count} records to {terminal_safe(str(out))}")


@memory_app.command("freeze")
def freeze(
    store: StoreArg,
    out: Annotated[Path, typer.Argument(help="Path of the read-only snapshot to create.")],
) -> None:
    """Write a read-only snapshot for evaluation and print its sha256."""
    with _opened(store) as opened, _writing(out):
        snapshot = opened.freeze(out)
    typer.echo(f"froze {snapshot.records} records to {terminal_safe(str(snapshot.path))}")
    typer.echo(f"sha256 {snapshot.sha256}")


@memory_app.command("import")
def import_records(
    store: StoreArg,
    source: Annotated[Path, typer.Argument(help="JSONL file of records (what `memory export` writes).")],
    scope: Annotated[
        str | None,
        typer.Option("--scope", help="Store every record in this scope (default: each record's own scope)."),
    ] = None,
) -> None:
    """Add the records of a JSONL file; each is admitted like a new record, with its reuse counters at 0.

    Counters are evidence of the store that counted them, so an imported record earns its own
    here (a file cannot make a record look proven). With --scope the records get that scope
    (and so new ids); without it they keep theirs.
    """
    access = _access(scope, None)
    try:
        records = list(records_from_jsonl(source, scope))
    except (OSError, StoreError, ConfigError) as error:
        _error(error)
        raise typer.Exit(1) from error
    added = already = evicted = 0
    with _opened(store, access, write=True) as opened:
        for record in records:
            if record.id in opened:
                already += 1
                continue
            evicted += len(opened.add(record))
            added += 1
    where = f" into scope {scope}" if scope else ""
    typer.echo(
        f"imported {added} records{where} from {terminal_safe(str(source))} "
        f"({already} already stored, {evicted} evicted by the retention rule)"
    )


@memory_app.command("merge")
def merge(
    store: StoreArg,
    scope: Annotated[
        str | None, typer.Option("--scope", help="Merge only this scope's records (default: every scope, each apart).")
    ] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Print what would merge; change nothing.")] = False,
) -> None:
    """Merge equivalent records (same scope, condition and normalised edit) in one transaction.

    The best-verified member is kept, with the counters of all summed and every source task
    listed; the others go to the eviction log (rule `merge`). Conditions are never generalised.
    """
    with _opened(store, _access(scope, None), write=not dry_run) as opened:
        groups = opened.merge(dry_run=dry_run)
    verb = "would merge" if dry_run else "merged"
    for group in groups:
        tasks = ", ".join(
            terminal_safe(t) for t in dict.fromkeys(
                [group.kept.source.task_id, *(r.source.task_id for r in group.merged)]
            )
        )
        c = group.kept.counters
        typer.echo(
            f"{verb} {', '.join(r.id for r in group.merged)} into {group.kept.id} "
            f"(scope {group.kept.scope}; condition {terminal_safe(group.kept.condition.canonical)}; tasks {tasks}"
            + ("" if dry_run else f"; selected {c.selected}, succeeded {c.succeeded}, harmed {c.harmed}")
            + ")"
        )
    removed = sum(len(g.merged) for g in groups)
    typer.echo(f"{verb} {removed} records into {len(groups)} ({'dry run: nothing changed' if dry_run else 'one transaction'})")


@memory_app.command("copy")
def copy(
    source: StoreArg,
    target: Annotated[
        str, typer.Argument(help="The new store: an absent file path, or a postgresql:// URL of an empty schema.")
    ],
) -> None:
    """Copy a whole store (records, earlier versions, evictions, settings) into a new one, e.g. SQLite -> Postgres."""
    try:
        count = copy_store(source, target)
    except StoreError as error:
        _error(error)
        raise typer.Exit(1) from error
    typer.echo(
        f"copied {count} records with their history and evictions from {terminal_safe(describe_location(source))} "
        f"to {terminal_safe(describe_location(target))}"
    )
