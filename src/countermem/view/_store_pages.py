"""The pages of a memory store: the record list with its filters and evictions, and one record."""

from __future__ import annotations

import json
from collections.abc import Callable

from countermem.core import CheckResult
from countermem.memory import Record, ReverifyLine
from countermem.view._html import (
    LIST_CAP,
    badge,
    diff,
    esc,
    facts,
    filters,
    link,
    note,
    pre,
    section,
    table,
)
from countermem.view._ids import Links, record_id, store_id
from countermem.view._load import HistoryEntry, ReverifyData, StoreData

RECORDS_TABLE = "records"


def store_page(data: StoreData, key: str, links: Links, page: int = 1) -> tuple[str, str]:
    """The title and body of one page (`LIST_CAP` records) of a store's record list: the live
    records, then the retired ones (kept, never offered)."""
    stats = data.stats
    listed = data.listed
    pages = max(1, -(-len(listed) // LIST_CAP))
    page = min(max(page, 1), pages)
    shown = listed[(page - 1) * LIST_CAP : page * LIST_CAP]
    summary = facts([
        ("file", esc(data.path)),
        *([("read as", esc(data.access.describe()) + " " + note_inline("other scopes are not shown"))]
          if data.access is not None else []),
        ("records", (f"{stats.count} (capacity {stats.capacity} per scope)" if len(stats.by_scope) > 1
                     else f"{stats.count} of capacity {stats.capacity}") + (" (frozen snapshot)" if data.frozen else "")),
        ("retired (kept, never offered)", str(len(data.retired))),
        ("by scope", esc(_counts(_by_scope(listed)) or "none")),
        ("retention", esc(stats.retention)),
        ("by benchmark", esc(_counts(stats.by_benchmark))),
        ("mean utility gain", "–" if stats.mean_gain is None else f"{stats.mean_gain:.3f}"),
        ("universal conditions", str(stats.universal_conditions)),
        ("reuse (retrieved / selected / succeeded / harmed)",
         f"{stats.reuse.retrieved} / {stats.reuse.selected} / {stats.reuse.succeeded} / {stats.reuse.harmed}"),
        ("evictions by reason", esc(_counts(stats.evictions_by_reason) or "none")),
        ("re-verification", _reverify_summary(data.reverify)),
        ("quarantined (unreadable)", str(len(stats.quarantined))),
        ("redactions", esc(_counts(stats.redactions) or "none")),
    ])
    controls = filters(
        RECORDS_TABLE,
        {
            "status": ["live", "retired"],
            "scope": sorted({r.scope for r in listed}),
            "benchmark": sorted({r.benchmark for r in listed}),
            "stage": sorted({r.source.stage for r in listed}),
        },
        {"condition": "text in the condition (none = universal)", "text": "id, task or action text"},
    )
    rows = [_record_row(r, key, links) for r in shown]
    row_attrs = [
        f"data-status={_a(r.status)} data-scope={_a(r.scope)} "
        f"data-benchmark={_a(r.benchmark)} data-stage={_a(r.source.stage)} data-condition={_a(r.condition.canonical)} "
        f"data-text={_a(' '.join([r.id, r.source.task_id, r.task_brief, r.improved_action.content[:400]]))}"
        + (' class="retired"' if not r.live else "")
        for r in shown
    ]
    records = table(
        ["id", "status", "scope", "benchmark", "stage", "source task", "condition", "gain", "retrieved", "selected",
         "succeeded", "harmed", "version", "lesson"],
        rows, cls="records", row_attrs=row_attrs, table_id=RECORDS_TABLE,
    )
    heading = f"Records ({len(data.records)} live, {len(data.retired)} retired)"
    body = [f"<h1>Memory store {esc(data.path.name)}</h1>", summary, f"<h2>{esc(heading)}</h2>"]
    if pages > 1:
        body.append(note(
            f"records {(page - 1) * LIST_CAP + 1}-{(page - 1) * LIST_CAP + len(shown)} of {len(listed)} "
            f"({LIST_CAP} a page, live first); the filters act on this page"
        ))
        body.append(pager(pages, page, lambda n: links.href(store_id(key, n))))
    body += [controls, records if shown else note("the store holds no records")]
    body.append(section(f"Evictions ({len(data.evictions)})", _evictions(data, key, links), open_=bool(data.evictions)))
    if stats.quarantined:
        rows_q = [[esc(i), esc(why)] for i, why in list(stats.quarantined.items())[:LIST_CAP]]
        body.append(section("Quarantined records", table(["id", "why it cannot be read"], rows_q)))
    return f"store {data.path.name}", "".join(body)


def note_inline(text: str) -> str:
    return f'<span class="note">({esc(text)})</span>'


def _by_scope(records: list[Record]) -> dict[str, int]:
    found: dict[str, int] = {}
    for r in records:
        found[r.scope] = found.get(r.scope, 0) + 1
    return found


def _reverify_summary(reverify: ReverifyData | None) -> str:
    if reverify is None:
        return note_inline("never run (no reverify sidecar beside the store)")
    parts = [f"{n} {verdict}" for verdict, n in reverify.counts().items()] or ["no record of this view checked"]
    header = reverify.header
    when = f"pass begun {header.started_at:%Y-%m-%d %H:%M}, min gain {header.min_gain:g}" if header else "no pass line"
    torn = f"; {reverify.unreadable} line(s) unreadable" if reverify.unreadable else ""
    return esc(f"{', '.join(parts)} (last verdict per record; {when}{torn})")


def _a(value: object) -> str:
    return f'"{esc(value)}"'


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))


def pager(pages: int, current: int, href: Callable[[int], str]) -> str:
    parts = [
        f"<b>{n}</b>" if n == current else f'<a href="{esc(href(n))}">{n}</a>' for n in range(1, pages + 1)
    ]
    return '<nav class="pages">page ' + " ".join(parts) + "</nav>"


def _record_row(r: Record, key: str, links: Links) -> list[str]:
    c = r.counters
    lesson = "–" if r.lesson is None else badge("verified" if r.lesson.verified else "not verified",
                                               "yes" if r.lesson.verified else "no")
    status = badge("live", "yes") if r.live else badge("retired", "no")
    return [
        link(links.href(record_id(key, r.id)), r.id, record=r.id), status, esc(r.scope), esc(r.benchmark),
        esc(r.source.stage),
        esc(r.source.task_id), f"<code>{esc(r.condition.canonical)}</code>", f"{r.utility_gain:+.3f}",
        str(c.retrieved), str(c.selected), str(c.succeeded), str(c.harmed), str(r.version), lesson,
    ]


def _evictions(data: StoreData, key: str, links: Links) -> str:
    if not data.evictions:
        return note("no record was evicted")
    rows = [
        [link(links.href(record_id(key, e.record_id)), e.record_id), esc(e.rule), esc(e.reason),
         esc(", ".join(f"{k}={v:.3g}" for k, v in sorted(e.scores.items()))), esc(e.at.isoformat(timespec="seconds")),
         str(e.version)]
        for e in data.evictions[-LIST_CAP:]
    ]
    cut = note(f"the last {LIST_CAP} of {len(data.evictions)} evictions") if len(data.evictions) > LIST_CAP else ""
    return cut + table(["record", "rule", "reason", "scores", "at", "version"], rows)


def check_cell(result: CheckResult | None) -> str:
    if result is None:
        return note("not checked")
    cost = f"{result.cost.seconds:.2f} s, {result.cost.calls} call(s)"
    return (
        f"{badge(result.status, result.status)} utility {result.utility:.3f}"
        f"{'' if result.completed else ' (check did not complete)'} · {esc(cost)}"
        + (pre(result.details) if result.details else "")
    )


def record_page(
    record: Record | None,
    record_key: str,
    store: StoreData,
    store_key: str,
    links: Links,
    history: list[HistoryEntry],
    evicted: bool,
) -> tuple[str, str]:
    back = link(links.href(store_id(store_key)), f"← store {store.path}")
    if record is None:
        return f"record {record_key}", (
            f"<h1>Record {esc(record_key)}</h1><p>{back}</p>"
            + note(f"no record {record_key} in {store.path}: neither live nor evicted (it may be from another store)")
        )
    r = record
    state = badge("evicted", "no") if evicted else badge("live", "yes") if r.live else badge("retired", "no")
    summary = facts([
        ("state", state),
        ("scope", esc(r.scope)),
        ("version", str(r.version)),
        ("domain / benchmark", esc(f"{r.domain} / {r.benchmark}")),
        ("stage", esc(r.source.stage)),
        ("source task", esc(r.source.task_id)),
        ("task brief", esc(r.task_brief) or "–"),
        ("condition", f"<code>{esc(r.condition.canonical)}</code>"
         + (f" (written as <code>{esc(r.condition.source)}</code>)" if r.condition.source and
            r.condition.source != r.condition.canonical else "")),
        ("utility gain", f"{r.utility_gain:+.3f}"),
        ("created", esc(r.created_at.isoformat(timespec="seconds"))),
        ("rationale", esc(r.rationale) or "–"),
        ("redactions", esc(_counts(r.redactions) or "none")),
    ])
    actions = (
        diff(r.original_action.content, r.improved_action.content)
        + '<div class="cols"><div><h2>original action</h2>' + pre(r.original_action.content, "action original")
        + '</div><div><h2>improved action</h2>' + pre(r.improved_action.content, "action improved") + "</div></div>"
    )
    checks = table(["", "check result"], [
        ["original", check_cell(r.original_check)], ["improved", check_cell(r.improved_check)],
    ])
    c = r.counters
    counters = facts([
        ("retrieved", str(c.retrieved)), ("selected", str(c.selected)), ("succeeded", str(c.succeeded)),
        ("harmed", str(c.harmed)),
        ("last used", esc(c.last_used_at.isoformat(timespec="seconds")) if c.last_used_at else "never"),
    ])
    body = [f"<h1>Record {esc(r.id)}</h1><p>{back}</p>"]
    if not r.live:
        when = r.retired_at.isoformat(timespec="seconds") if r.retired_at else "time not recorded"
        body.append(
            '<div class="retired-box"><b>retired — never offered</b> '
            f"<span>retired {esc(when)}: {esc(r.retired_reason or '')}</span></div>"
        )
    verdict = store.reverify.latest.get(r.id) if store.reverify is not None else None
    body.append(summary)
    if verdict is not None:
        body.append(section("Last re-verification", _verdict(verdict)))
    body += [
        section("Situation" + (" (middle cut)" if r.situation_truncated else ""), pre(r.situation)),
        section("Original vs improved action", actions),
        section("Check results", checks),
        section("Reuse counters", counters),
    ]
    if r.merged_from:
        body.append(section(f"Merged from {len(r.merged_from) + 1} records (every source task)", _merged(r)))
    if r.lesson is not None:
        body.append(section("Lesson", _lesson(r)))
    body.append(section("Provenance", facts((k, esc(v)) for k, v in r.provenance.model_dump().items())))
    body.append(section(f"Version history ({len(history) + 1} versions)", _history(r, history)))
    return f"record {r.id}", "".join(body)


def _merged(r: Record) -> str:
    """Every record merged into this one, with the task each was learnt from."""
    own = [esc(r.id) + " " + note_inline("this record, kept"), "–", esc(r.source.task_id), esc(r.source.benchmark),
           esc(r.source.stage)]
    rows = [own] + [
        [esc(m.record_id), str(m.version), esc(m.source.task_id), esc(m.source.benchmark), esc(m.source.stage)]
        for m in r.merged_from
    ]
    return table(["record", "version merged", "source task", "benchmark", "stage"], rows)


def _verdict(line: ReverifyLine) -> str:
    kind = {"holds": "yes", "retired": "no", "unchecked": "unchecked"}[line.verdict]
    new = "–" if line.new_gain is None else f"{line.new_gain:+.3f}"
    return facts([
        ("verdict", badge(line.verdict, kind)),
        ("gain (admitted → now)", esc(f"{line.old_gain:+.3f} → {new}")),
        ("reason", esc(line.reason) or "–"),
        ("what changed", esc("; ".join(line.changed)) or "–"),
        ("version checked", str(line.version)),
        ("checked", esc(line.at.isoformat(timespec="seconds"))),
    ])


def _lesson(r: Record) -> str:
    lesson = r.lesson
    assert lesson is not None
    return facts([
        ("verified", badge("yes" if lesson.verified else "no", "yes" if lesson.verified else "no")),
        ("text", pre(lesson.text)),
        ("why not admitted", esc(lesson.reason) or "–"),
        ("writer / verifier", esc(f"{lesson.writer or '–'} / {lesson.verifier or '–'}")),
        ("check of an action written from it", check_cell(lesson.check)),
        ("no-lesson control", check_cell(lesson.control)),
        ("source names left / scrubbed", esc(f"{', '.join(lesson.leaked) or '–'} / {', '.join(lesson.scrubbed) or '–'}")),
    ])


def _history(current: Record, history: list[HistoryEntry]) -> str:
    """Each version and what changed from the one before (reuse counts, a revised condition ...)."""
    versions = [(h.record, f"replaced {h.replaced_at[:19]}") for h in history] + [(current, "current")]
    rows = []
    previous: Record | None = None
    for record, when in versions:
        changed = "first version" if previous is None else _changes(previous, record)
        c = record.counters
        rows.append([str(record.version), esc(when), f"{c.retrieved}/{c.selected}/{c.succeeded}/{c.harmed}", changed])
        previous = record
    return table(["version", "", "retrieved/selected/succeeded/harmed", "changed from the version before"], rows)


def _changes(before: Record, after: Record) -> str:
    a, b = before.model_dump(mode="json"), after.model_dump(mode="json")
    fields = [k for k in b if k != "version" and a.get(k) != b.get(k)]
    if not fields:
        return "nothing but the version"
    parts = []
    for name in fields:
        old, new = a.get(name), b.get(name)
        if isinstance(old, dict) and isinstance(new, dict):
            inner = [f"{k}: {json.dumps(old.get(k))} → {json.dumps(new.get(k))}" for k in new if old.get(k) != new.get(k)]
            parts.append(f"{name} ({'; '.join(inner)})")
        else:
            parts.append(name)
    return esc(", ".join(parts))
