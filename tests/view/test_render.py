"""Loading and drawing the pages of a store, a run and a study, without a browser."""

from __future__ import annotations

import html
import re
import shutil
import sqlite3
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner
from view_fixtures import RECORDS, make_record

from countermem.cli import app
from countermem.core import CountermemError, UnviewablePathError
from countermem.memory import SQLiteStore
from countermem.view import LIST_CAP, Links, Site, make_server, url_of, write_html
from countermem.view._ids import STUDY_ID, record_id, run_id, store_id, task_id
from countermem.view._site import RUN_KEY

SERVER = Links("server")
runner = CliRunner()


def _body(site: Site, page: str) -> str:
    found = site.render(page, SERVER)
    assert found is not None, page
    return found[1]


def test_a_script_in_an_action_is_escaped(store_path: Path) -> None:
    site = Site(store_path)
    page = _body(site, record_id("memory.sqlite", RECORDS[2].id))
    assert "<script>window.cmPwned" not in page
    assert "&lt;script&gt;window.cmPwned=1&lt;/script&gt;" in page
    assert "&lt;/pre&gt;" in page  # the text cannot close the block it is shown in
    document = site.single_file()
    assert "<script>window.cmPwned" not in document and "cmPwned" in document


def test_the_store_page_lists_records_evictions_and_filters(store_path: Path) -> None:
    site = Site(store_path)
    assert site.kind == "store"
    page = _body(site, site.home)
    for record in RECORDS[:3]:
        assert f'data-record="{record.id}"' in page
    assert f'data-record="{RECORDS[3].id}"' not in page  # evicted: in the eviction log, not the list
    assert "wrong for this schema" in page and RECORDS[3].id in page
    assert re.search(r'data-benchmark="bird" data-stage="train"', page)
    assert '<select data-key="benchmark"' in page and "<option value=\"bird\">" in page
    assert '<select data-key="stage"' in page and '<option value="train">' in page
    assert 'data-key="condition"' in page


def test_a_record_page_shows_diff_checks_counters_history_and_provenance(store_path: Path) -> None:
    page = _body(Site(store_path), record_id("memory.sqlite", RECORDS[0].id))
    assert '<span class="del">-FROM user1</span>' in page and '<span class="add">+FROM users1</span>' in page
    assert "no such table: user" in page and 'class="badge passed"' in page and 'class="badge error"' in page
    assert "<tr><th>retrieved</th><td>3</td></tr>" in page and "<tr><th>harmed</th><td>1</td></tr>" in page
    assert "Version history (3 versions)" in page
    assert "counters (retrieved: 0 → 2" in html.unescape(page)
    assert "proposing_model" in page and "unknown" in page


def test_an_evicted_record_page_shows_the_evicted_copy(store_path: Path) -> None:
    page = _body(Site(store_path), record_id("memory.sqlite", RECORDS[3].id))
    assert 'class="badge no">evicted' in page and "FROM users4" in page
    unknown = _body(Site(store_path), record_id("memory.sqlite", "r-0000000000000000"))
    assert "neither live nor evicted" in unknown


def test_long_lists_are_paged(tmp_path: Path) -> None:
    path = tmp_path / "big.sqlite"
    with SQLiteStore(path, capacity=LIST_CAP + 20) as store:
        for i in range(LIST_CAP + 7):
            store.add(make_record(100 + i))
    site = Site(path)
    first, second = _body(site, site.home), _body(site, store_id("big.sqlite", 2))
    assert first.count("data-record=") == LIST_CAP and second.count("data-record=") == 7
    assert f"records 1-{LIST_CAP} of {LIST_CAP + 7}" in first and 'href="/store/big.sqlite/2"' in first
    assert site.render("store/big.sqlite/x", SERVER) is None and site.render("store/other.sqlite", SERVER) is None


def test_a_run_page_links_each_offered_record_to_its_page(run_path: Path, store_path: Path) -> None:
    site = Site(run_path, store=store_path)
    assert site.kind == "run" and site.run_stores[RUN_KEY] is not None
    page = _body(site, site.home)
    assert page.count('class="badge yes">yes') == 2
    key = site.run_stores[RUN_KEY]
    assert key is not None
    assert f'href="/{record_id(key, RECORDS[0].id)}"' in page
    task = re.search(r'data-task="([^"]+)"', page)
    assert task is not None
    steps = _body(site, task_id(RUN_KEY, task.group(1)))
    assert "prompt: 2 new message(s)" in steps and "<b>system</b>" in steps and "Give the integer sum." in steps
    assert "whole prompt (4 messages)" in steps  # the second call: system, task, reply, observation
    assert '<p class="offered">record offered: <a href="/record/' in steps
    assert "wrong sum" in steps and 'class="badge passed"' in steps


def test_a_run_finds_the_store_its_stage_report_names(run_path: Path, store_path: Path) -> None:
    (run_path / "stage.json").write_text(f'{{"stage": "evaluate", "store": "{store_path}"}}')
    site = Site(run_path)
    assert site.run_stores[RUN_KEY] == str(store_path)


def test_a_run_without_a_store_shows_bare_record_ids(run_path: Path) -> None:
    page = _body(Site(run_path), run_id(RUN_KEY))
    assert "no store known for this run" in page and f"<code>{RECORDS[0].id}</code>" in page


def test_an_old_transcript_says_it_has_no_prompts(run_path: Path) -> None:
    for path in (run_path / "transcripts").glob("*.jsonl"):
        lines = [re.sub(r',"messages":(\[.*?\]|null)(?=,|\})', "", line) for line in path.read_text().splitlines()]
        path.write_text("\n".join(lines) + "\n")
    site = Site(run_path)
    task = next((run_path / "transcripts").glob("*.jsonl")).stem
    page = _body(site, task_id(RUN_KEY, task))
    assert "did not record prompts" in page and "<b>reply</b>" in page


def test_the_study_page_shows_the_report_and_links_every_run(study_path: Path) -> None:
    site = Site(study_path)
    assert site.kind == "study"
    page = _body(site, site.home)
    assert "Study view-study" in page and "<table>" in page  # the report's tables, drawn
    runs = re.findall(r'data-run="([^"]+)"', page)
    assert len(runs) >= 2 and any("countermem" in r for r in runs) and any("/none/" in r for r in runs)
    run = _body(site, run_id(runs[0]))
    assert 'href="/study"' in run and "Tasks (" in run
    assert site.stores and all(_body(site, store_id(key)) for key in site.stores)


def test_a_study_run_links_records_of_the_store_it_used(study_path: Path) -> None:
    site = Site(study_path)
    linked = 0
    for key in site.runs:
        site.render(run_id(key), SERVER)
        if site.run_stores.get(key) is not None:
            linked += 1
    assert linked > 0


def test_a_path_that_is_none_of_them_is_refused_by_name(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    (tmp_path / "folder").mkdir()
    for path, why in [(tmp_path / "missing", "does not exist"), (text, "not a memory store"),
                      (other, "not a memory store"), (tmp_path / "folder", "holds no countermem run")]:
        with pytest.raises(UnviewablePathError, match=why) as caught:
            Site(path)
        assert isinstance(caught.value, CountermemError)
        assert "give a memory store file" in str(caught.value)


def test_the_cli_refuses_an_unviewable_path(tmp_path: Path) -> None:
    result = runner.invoke(app, ["view", str(tmp_path / "missing")])
    assert result.exit_code == 2
    assert "UnviewablePathError" in result.output and "does not exist" in result.output


def test_the_cli_writes_one_self_contained_file(run_path: Path, store_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "run.html"
    result = runner.invoke(app, ["view", str(run_path), "--store", str(store_path), "--out", str(out)])
    assert result.exit_code == 0, result.output
    document = out.read_text()
    assert document.count("<section data-page=") >= 2 + 2 + 1 + 4  # run, tasks, store, records
    assert not re.search(r"""(src|href)=["'](https?:)?//""", document)  # nothing fetched from elsewhere
    assert "<link " not in document and "<script src" not in document
    again = runner.invoke(app, ["view", str(run_path), "--out", str(out)])
    assert again.exit_code == 2 and "already exists" in again.output


def test_write_html_refuses_a_folder(store_path: Path, tmp_path: Path) -> None:
    with pytest.raises(CountermemError, match="is a folder"):
        write_html(Site(store_path), tmp_path)


def test_the_server_answers_on_loopback_and_reads_changes(tmp_path: Path, store_path: Path) -> None:
    path = tmp_path / "live.sqlite"
    shutil.copy(store_path, path)
    server = make_server(Site(path))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = url_of(server)
        assert url.startswith("http://127.0.0.1:")
        home = urllib.request.urlopen(url).read().decode()
        assert home.count("data-record=") == 3
        with SQLiteStore(path) as store:
            store.add(make_record(9))
        assert urllib.request.urlopen(url).read().decode().count("data-record=") == 4
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(url + "store/..%2F..%2Fetc%2Fpasswd")
        assert missing.value.code == 404
    finally:
        server.shutdown()
        server.server_close()


def test_the_study_lists_runs_with_their_settings_and_filters(study_path: Path) -> None:
    page = _body(Site(study_path), STUDY_ID)
    assert '<select data-key="method"' in page and '<option value="countermem">' in page
    assert re.search(r'<tr data-stage="evaluate" data-method="countermem" data-agent="react" '
                     r'data-benchmark="sql-shop" data-seed="1">', page)


def test_a_construct_run_links_the_records_admitted_from_each_task(study_path: Path) -> None:
    site = Site(study_path)
    construct = [key for key in site.runs if (site.runs[key] / "admissions.jsonl").is_file()]
    assert construct
    key = construct[0]
    page = _body(site, run_id(key))
    assert "<th>records admitted</th>" in page
    admitted = re.findall(r'<a href="/(record/[^"]+)" data-record="([^"]+)">', page)
    assert admitted, "the simulated generator's repairs are admitted"
    record_page, rid = admitted[0]
    assert f"Record {rid}" in _body(site, record_page)
    task = re.search(r'data-task="([^"]+)"', page)
    assert task is not None
    assert "records admitted from this task" in _body(site, task_id(key, task.group(1)))


def test_the_cli_serves_on_loopback_and_prints_the_address(store_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "countermem", "view", str(store_path), "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert found, line
        page = urllib.request.urlopen(found.group(0), timeout=30).read().decode()
        assert "Memory store memory.sqlite" in page
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_transcript_line_that_does_not_read_is_left_out_and_said(run_path: Path) -> None:
    path = next((run_path / "transcripts").glob("*.jsonl"))
    path.write_text(path.read_text() + '{"kind": "llm", "step": \n')
    page = _body(Site(run_path), task_id(RUN_KEY, path.stem))
    assert "1 line(s) of the transcript do not read" in page and "<b>reply</b>" in page


def test_the_server_refuses_another_host_name(store_path: Path) -> None:
    server = make_server(Site(store_path))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        request = urllib.request.Request(url_of(server), headers={"Host": "attacker.example:80"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request)
        assert refused.value.code == 421
        local = urllib.request.Request(url_of(server).replace("127.0.0.1", "localhost"))
        assert urllib.request.urlopen(local).status == 200
    finally:
        server.shutdown()
        server.server_close()


def test_a_study_in_one_file_holds_every_run_task_store_and_record(study_path: Path, tmp_path: Path) -> None:
    site = Site(study_path)
    document = write_html(site, tmp_path / "study.html").read_text()
    pages = re.findall(r'<section data-page="([^"]*)"', document)
    assert pages[0] == STUDY_ID and len(pages) == len(set(pages))
    assert {run_id(key) for key in site.runs} <= set(pages)
    assert sum(p.startswith("task/") for p in pages) == sum(
        len(list((path / "transcripts").glob("*.jsonl"))) for path in site.runs.values()
    )
    records = [p for p in pages if p.startswith("record/")]
    assert records and all(p.startswith(("study", "run/", "task/", "store/", "record/")) for p in pages if p)
    for href in set(re.findall(r'href="#([^"]+)"', document)):
        assert href in pages or href.startswith("record/"), href  # a record link may name one no store holds


def test_a_store_option_that_is_not_a_store_is_refused(run_path: Path, study_path: Path) -> None:
    with pytest.raises(UnviewablePathError, match="not a memory store"):
        Site(run_path, store=study_path)
    with pytest.raises(UnviewablePathError, match="does not exist"):
        Site(run_path, store=run_path / "missing.sqlite")
