"""The page of a study folder: its report (report/report.md), then every run and store under it."""

from __future__ import annotations

import base64
import mimetypes
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

from countermem.view._html import LIST_CAP, attr, esc, facts, filters, link, note, section, table
from countermem.view._ids import Links, run_id, store_id
from countermem.view._load import StudyData

RUNS_TABLE = "runs"
INLINE_IMAGE_LIMIT = 4_000_000
"""Largest report image put into the page itself (as a data URI); larger ones are left as links."""


def render_markdown(text: str, base: Path) -> str:
    """Markdown to HTML with raw HTML in the text escaped, and the report's own images (files
    beside it) put into the page, so the page needs no other file."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(text)
    for token in tokens:
        for child in token.children or []:
            if child.type == "image":
                _inline_image(child, base)
    return str(md.renderer.render(tokens, md.options, {}))


def _inline_image(token: Token, base: Path) -> None:
    src = str(token.attrGet("src") or "")
    if not src or "://" in src or src.startswith(("data:", "/")):
        return
    path = (base / src).resolve()
    if not path.is_relative_to(base.resolve()) or not path.is_file() or path.stat().st_size > INLINE_IMAGE_LIMIT:
        return
    kind = mimetypes.guess_type(path.name)[0]
    if kind not in ("image/png", "image/jpeg", "image/svg+xml", "image/gif"):
        return
    token.attrSet("src", f"data:{kind};base64,{base64.b64encode(path.read_bytes()).decode()}")


def study_page(study: StudyData, links: Links) -> tuple[str, str]:
    manifest = study.manifest
    name = str(manifest.get("name") or study.path.name)
    failed = manifest.get("failed") or {}
    summary = facts([
        ("folder", esc(study.path)),
        ("config sha256", esc(manifest.get("config_sha256", "?"))),
        ("seeds", esc(manifest.get("seeds", "?"))),
        ("started / finished", esc(f"{manifest.get('started_at', '?')} / {manifest.get('finished_at', 'not finished')}")),
        ("git commit", esc(manifest.get("git_commit", "?"))),
        ("runs / stores", f"{len(study.runs)} / {len(study.stores)}"),
        ("failed jobs", esc(", ".join(failed) if isinstance(failed, dict) and failed else "none")),
    ])
    if study.report_md is None:
        report = note("no report yet (report/report.md); run `countermem report` on this folder to write it")
    else:
        report = f'<div class="report">{render_markdown(study.report_md, study.path / "report")}</div>'
    shown = study.runs[:LIST_CAP]
    columns = ("stage", "method", "agent", "benchmark", "seed")
    rows = [
        [link(links.href(run_id(r.rel)), r.rel, run=r.rel), *(esc(r.setting(c)) for c in columns),
         str(r.n_tasks), str(r.solved), f"{100 * r.solved / r.n_tasks:.1f}" if r.n_tasks else "–"]
        for r in shown
    ]
    row_attrs = [" ".join(f"data-{c}={attr(r.setting(c))}" for c in columns) for r in shown]
    controls = filters(
        RUNS_TABLE, {c: sorted({r.setting(c) for r in shown} - {""}) for c in ("stage", "method", "benchmark")}, {}
    )
    runs = (
        controls + table(
            ["run", *columns, "tasks", "solved", "success %"], rows, cls="runs", row_attrs=row_attrs, table_id=RUNS_TABLE
        )
        if rows else note("no run has results yet")
    )
    if len(study.runs) > LIST_CAP:
        runs = note(f"the first {LIST_CAP} of {len(study.runs)} runs") + runs
    stores = "".join(f"<li>{link(links.href(store_id(s)), s)}</li>" for s in study.stores[:LIST_CAP])
    body = [
        f"<h1>Study {esc(name)}</h1>", summary,
        section("Report", report),
        section(f"Runs ({len(study.runs)})", runs),
        section(f"Memory stores ({len(study.stores)})", f"<ul>{stores}</ul>" if stores else note("none")),
    ]
    return f"study {name}", "".join(body)
