"""The viewer in a real browser (headless Chromium through Selenium): pages load, a filter hides
the records that do not match, a record offered in a transcript opens that record's page, and a
`<script>` in an action never runs. A screenshot of each kind of page is saved to
$COUNTERMEM_ARTIFACTS (else a temporary folder): view-store.png (a store with retired records),
view-record.png, view-retired.png, view-run.png, view-task.png and view-study.png."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from view_fixtures import RECORDS

from countermem.memory import SQLiteStore
from countermem.view import Site, make_server, url_of, write_html
from required_tools import missing_tool, require_chromium

ARTIFACTS_ENV = "COUNTERMEM_ARTIFACTS"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    binary, driver_path = require_chromium()
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=1280,900", "--disable-extensions", "--no-first-run"):
        options.add_argument(flag)
    try:
        driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    except WebDriverException as error:
        missing_tool(f"headless chromium does not start here: {str(error).splitlines()[0]}")
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ[ARTIFACTS_ENV]) if os.environ.get(ARTIFACTS_ENV) else tmp_path_factory.mktemp("artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class _Served:
    def __init__(self, site: Site) -> None:
        self.server = make_server(site)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.url = url_of(self.server)

    def __enter__(self) -> str:
        self.thread.start()
        return self.url

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def _visible_records(browser: Any) -> list[str]:
    from selenium.webdriver.common.by import By

    rows = browser.find_elements(By.CSS_SELECTOR, "#records tbody tr")
    return [r.find_element(By.CSS_SELECTOR, "a[data-record]").text for r in rows if r.is_displayed()]


def test_the_store_page_loads_and_a_filter_hides_other_records(browser, store_path: Path, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    with _Served(Site(store_path)) as url:
        browser.get(url)
        assert browser.find_element(By.TAG_NAME, "h1").text == "Memory store memory.sqlite"
        assert sorted(_visible_records(browser)) == sorted(r.id for r in RECORDS[:3])
        Select(browser.find_element(By.CSS_SELECTOR, 'select[data-key="benchmark"]')).select_by_value("bird")
        assert _visible_records(browser) == [RECORDS[1].id]
        assert browser.find_element(By.CSS_SELECTOR, ".filters .count").text == "1 of 3 shown"
        Select(browser.find_element(By.CSS_SELECTOR, 'select[data-key="benchmark"]')).select_by_value("")
        browser.find_element(By.CSS_SELECTOR, 'input[data-key="condition"]').send_keys("users")
        assert sorted(_visible_records(browser)) == sorted([RECORDS[0].id, RECORDS[2].id])  # odd i: conditioned
        browser.find_element(By.LINK_TEXT, RECORDS[2].id).click()
        assert browser.find_element(By.TAG_NAME, "h1").text == f"Record {RECORDS[2].id}"
        browser.execute_script("document.querySelector('pre.diff').scrollIntoView()")
        browser.save_screenshot(str(artifacts / "view-record.png"))
        lines = browser.find_element(By.CSS_SELECTOR, "pre.diff").text.splitlines()
        assert "-FROM user3" in lines and "+SELECT \"</pre><script>window.cmPwned=1</script>\" FROM users" in lines
        assert "<script>window.cmPwned=1</script>" in browser.find_element(By.CSS_SELECTOR, "pre.improved").text
        assert browser.execute_script("return window.cmPwned === undefined")


def test_the_status_filter_shows_live_or_retired_records(browser, lifecycle_store: Path, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    with SQLiteStore(lifecycle_store, read_only=True) as store:
        live, retired = [r.id for r in store.all()], [r.id for r in store.retired()]
        retired_b = next(r.id for r in store.retired() if r.scope == "team-b")
    assert len(live) == 4 and len(retired) == 2
    with _Served(Site(lifecycle_store)) as url:
        browser.get(url)
        assert sorted(_visible_records(browser)) == sorted(live + retired)
        browser.execute_script("window.scrollTo(0, document.querySelector('h2').offsetTop - 140)")
        browser.save_screenshot(str(artifacts / "view-store.png"))
        status = Select(browser.find_element(By.CSS_SELECTOR, 'select[data-key="status"]'))
        status.select_by_value("retired")
        assert sorted(_visible_records(browser)) == sorted(retired)
        assert browser.find_element(By.CSS_SELECTOR, ".filters .count").text == "2 of 6 shown"
        status.select_by_value("live")
        assert sorted(_visible_records(browser)) == sorted(live)
        status.select_by_value("retired")
        Select(browser.find_element(By.CSS_SELECTOR, 'select[data-key="scope"]')).select_by_value("team-b")
        assert _visible_records(browser) == [retired_b]
        status.select_by_value("")
        Select(browser.find_element(By.CSS_SELECTOR, 'select[data-key="scope"]')).select_by_value("")
        assert len(_visible_records(browser)) == 6
        browser.find_element(By.LINK_TEXT, retired_b).click()
        assert browser.find_element(By.TAG_NAME, "h1").text == f"Record {retired_b}"
        assert browser.find_element(By.CSS_SELECTOR, ".retired-box b").text == "retired — never offered"
        browser.save_screenshot(str(artifacts / "view-retired.png"))


def test_a_record_offered_in_a_transcript_opens_that_record(  # type: ignore[no-untyped-def]
    browser, run_path: Path, store_path: Path, artifacts: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    with _Served(Site(run_path, store=store_path)) as url:
        browser.get(url)
        assert browser.find_element(By.TAG_NAME, "h1").text == "Run run"
        browser.save_screenshot(str(artifacts / "view-run.png"))
        solved = Select(browser.find_element(By.CSS_SELECTOR, 'select[data-key="solved"]'))
        solved.select_by_value("no")
        assert not any(r.is_displayed() for r in browser.find_elements(By.CSS_SELECTOR, "#tasks tbody tr"))
        solved.select_by_value("yes")
        assert len([r for r in browser.find_elements(By.CSS_SELECTOR, "#tasks tbody tr") if r.is_displayed()]) == 2
        browser.find_element(By.CSS_SELECTOR, "a[data-task]").click()
        assert browser.find_element(By.TAG_NAME, "h1").text.startswith("Task toy-")
        assert browser.find_element(By.XPATH, "//summary[starts-with(., 'prompt: 2 new')]").is_displayed()
        browser.save_screenshot(str(artifacts / "view-task.png"))
        browser.find_element(By.CSS_SELECTOR, "p.offered a[data-record]").click()
        assert browser.find_element(By.TAG_NAME, "h1").text == f"Record {RECORDS[0].id}"
        assert "FROM users1" in browser.find_element(By.CSS_SELECTOR, "pre.improved").text


def test_the_study_page_loads_and_links_down_to_a_run(browser, study_path: Path, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    with _Served(Site(study_path)) as url:
        browser.get(url)
        assert browser.find_element(By.TAG_NAME, "h1").text == "Study view-study"
        assert browser.find_elements(By.CSS_SELECTOR, ".report table")
        browser.save_screenshot(str(artifacts / "view-study.png"))
        run = browser.find_element(By.CSS_SELECTOR, "a[data-run*='countermem']")
        name = run.text
        run.click()
        assert browser.find_element(By.TAG_NAME, "h1").text == f"Run {Path(name).name}"
        assert browser.find_elements(By.CSS_SELECTOR, "a[data-task]")


def test_the_single_file_navigates_by_address_and_runs_no_record_script(  # type: ignore[no-untyped-def]
    browser, run_path: Path, store_path: Path, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    out = write_html(Site(run_path, store=store_path), tmp_path / "view.html")
    browser.get(out.as_uri())
    assert _heading(browser) == "Run run"
    browser.find_element(By.CSS_SELECTOR, "section:not([hidden]) a[data-task]").click()
    _wait_for(browser, "section:not([hidden]) p.offered a[data-record]").click()
    assert _heading(browser, f"Record {RECORDS[0].id}") == f"Record {RECORDS[0].id}"
    browser.back()
    assert _heading(browser, "Task toy-").startswith("Task toy-")
    browser.get(out.as_uri() + f"#record/{store_key(out)}/{RECORDS[2].id}")
    assert _heading(browser, f"Record {RECORDS[2].id}") == f"Record {RECORDS[2].id}"
    assert browser.execute_script("return window.cmPwned === undefined")


def _wait_for(browser: Any, css: str) -> Any:
    """Navigation in the single file runs on `hashchange`, a task queued after the click returns."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, 10).until(lambda b: b.find_element(By.CSS_SELECTOR, css))


def _heading(browser: Any, starts: str = "") -> str:
    """The visible page's heading once it starts with `starts` (or the heading after 10 s, for the assert)."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    def text() -> str:
        return str(browser.find_element(By.CSS_SELECTOR, "section:not([hidden]) h1").text)

    with contextlib.suppress(TimeoutException):
        WebDriverWait(browser, 10).until(lambda b: text().startswith(starts))
    return text()


def store_key(out: Path) -> str:
    """The quoted store key the single file uses for the run's store (read from its first record link)."""
    import re

    found = re.search(r'href="#record/([^/"]+)/', out.read_text())
    assert found is not None
    return found.group(1)
