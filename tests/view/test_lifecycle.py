"""The record lifecycle in the viewer: scopes, retired records, merged records and the reverify
sidecar, and a scoped view (`--scope`) that carries nothing of another scope."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner
from view_fixtures import SECRET_A

from countermem.cli import app
from countermem.core import UnviewablePathError
from countermem.memory import Record, ScopeAccess, SQLiteStore, progress_path
from countermem.view import Links, Site
from countermem.view._ids import record_id, store_id

SERVER = Links("server")
KEY = "memory.sqlite"
runner = CliRunner()


def _body(site: Site, page: str) -> str:
    found = site.render(page, SERVER)
    assert found is not None, page
    return found[1]


def _records(path: Path, scope: str) -> tuple[list[Record], list[Record], list[str]]:
    """The scope's live and retired records and the ids of its evicted ones, read through the store."""
    with SQLiteStore(path, read_only=True, access=ScopeAccess.of(scope)) as store:
        return store.all(), store.retired(), [e.record_id for e in store.evictions()]


def test_the_store_page_lists_live_and_retired_records_with_status_and_scope(lifecycle_store: Path) -> None:
    page = _body(Site(lifecycle_store), store_id(KEY))
    live_b, retired_b, _ = _records(lifecycle_store, "team-b")
    (retired,) = retired_b
    assert "Records (4 live, 2 retired)" in page
    assert 'data-status="retired" data-scope="team-b"' in page
    row = re.search(rf'<tr data-status="retired"[^>]*class="retired"><td><a [^>]*>{retired.id}</a>', page)
    assert row is not None, "the retired record is listed, marked retired"
    assert '<select data-key="status" name="status"><option value="">all</option><option value="live">' in page
    assert '<select data-key="scope"' in page and '<option value="team-a">' in page and '<option value="team-b">' in page
    assert "<tr><th>by scope</th><td>team-a 3, team-b 3</td></tr>" in page
    assert "<tr><th>retired (kept, never offered)</th><td>2</td></tr>" in page
    assert "2 holds, 2 retired (last verdict per record" in page and "min gain 0.05" in page
    assert all(f'data-record="{r.id}"' in page for r in live_b)


def test_a_retired_record_page_says_it_is_never_offered_with_reason_time_and_verdict(lifecycle_store: Path) -> None:
    _, (retired,), _ = _records(lifecycle_store, "team-b")
    assert retired.retired_at is not None
    page = html.unescape(_body(Site(lifecycle_store), record_id(KEY, retired.id)))
    assert "retired — never offered" in page and 'class="badge no">retired' in page
    assert f"retired {retired.retired_at.isoformat(timespec='seconds')}: gain +1.000 -> +0.000 (team-b" in page
    assert "Last re-verification" in page and "+1.000 → +0.000" in page and "wrong now in team-b" in page
    assert "checker 1 -> 2" in page


def test_a_live_record_page_is_not_marked_retired(lifecycle_store: Path) -> None:
    live = next(r for r in _records(lifecycle_store, "team-b")[0] if not r.merged_from and r.source.task_id == "spider-20")
    page = html.unescape(_body(Site(lifecycle_store), record_id(KEY, live.id)))
    assert "never offered" not in page and 'class="badge yes">live' in page
    assert "+1.000 → +1.000" in page and "still holds in team-b" in page


def test_a_merged_record_lists_every_source_task(lifecycle_store: Path) -> None:
    (merged,) = [r for r in _records(lifecycle_store, "team-b")[0] if r.merged_from]
    page = _body(Site(lifecycle_store), record_id(KEY, merged.id))
    assert "Merged from 2 records (every source task)" in page
    tasks = re.findall(r"<td>(spider-2[34])</td>", page.split("Merged from")[1].split("</details>")[0])
    assert sorted(tasks) == ["spider-23", "spider-24"]
    assert merged.merged_from[0].record_id in page


def test_a_scope_b_view_never_carries_a_record_of_scope_a(lifecycle_store: Path, tmp_path: Path) -> None:
    live_a, retired_a, evicted_a = _records(lifecycle_store, "team-a")
    ids_a = [r.id for r in live_a + retired_a] + evicted_a
    merged_a = [m.record_id for r in live_a for m in r.merged_from]
    assert len(ids_a) == 5 and merged_a and set(merged_a) <= set(evicted_a)  # the fixture holds every kind
    owner = Site(lifecycle_store).single_file()
    assert SECRET_A in owner and all(i in owner for i in ids_a)  # the owner's view does show them

    out = tmp_path / "b.html"
    result = runner.invoke(app, ["view", str(lifecycle_store), "--scope", "team-b", "--out", str(out)])
    assert result.exit_code == 0, result.output
    document = out.read_bytes()
    for leak in [SECRET_A, "team-a", "stale for team-a", "wrong now in team-a", *ids_a]:
        assert leak.encode() not in document, leak
    live_b, retired_b, evicted_b = _records(lifecycle_store, "team-b")
    assert all(r.id.encode() in document for r in live_b + retired_b) and evicted_b[0].encode() in document
    assert b"as a reader of scope team-b" in document and b"stale for team-b" in document

    scoped = Site(lifecycle_store, access=ScopeAccess.of("team-b"))
    for rid in ids_a:  # asked for by id, a scope-A record is unknown to a scope-B reader
        page = _body(scoped, record_id(KEY, rid))
        assert "neither live nor evicted" in page and SECRET_A not in page and "team-a" not in page


def test_a_shared_scope_is_read_with_read_scope(lifecycle_store: Path, tmp_path: Path) -> None:
    out = tmp_path / "ab.html"
    result = runner.invoke(
        app, ["view", str(lifecycle_store), "--scope", "team-b", "--read-scope", "team-a", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert SECRET_A in out.read_text() and "also reads team-a" in out.read_text()
    alone = runner.invoke(app, ["view", str(lifecycle_store), "--read-scope", "team-a"])
    assert alone.exit_code == 2 and "give --scope too" in alone.output


def test_scope_is_refused_for_a_run_or_study_folder(run_path: Path) -> None:
    with pytest.raises(UnviewablePathError, match="give the store file with --scope"):
        Site(run_path, access=ScopeAccess.of("team-b"))


def test_the_sidecar_is_only_read_and_a_torn_line_is_skipped(lifecycle_store: Path, tmp_path: Path) -> None:
    copy = tmp_path / "memory.sqlite"
    copy.write_bytes(lifecycle_store.read_bytes())
    sidecar = progress_path(copy)
    torn = progress_path(lifecycle_store).read_bytes() + b'{"kind": "record", "record_id": "r-'
    sidecar.write_bytes(torn)
    page = _body(Site(copy), store_id(KEY))
    assert "2 holds, 2 retired" in page and "1 line(s) unreadable" in page
    assert sidecar.read_bytes() == torn  # not repaired: the viewer writes nothing
    sidecar.unlink()
    assert "never run (no reverify sidecar beside the store)" in _body(Site(copy), store_id(KEY))
