"""What `countermem view` shows for one path: its pages, drawn on request or all into one file.

The site knows the stores and runs it may show by key (a path relative to the viewed folder, or
the absolute path of a store outside it), and a page id names one of them; nothing else on the
disk can be reached through a page id. Stores and runs are read again when their files change,
so a page served during a run shows the run as it is.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar, cast

from countermem.core import UnviewablePathError
from countermem.memory import ScopeAccess, progress_path
from countermem.view._detect import ViewKind, detect
from countermem.view._html import LIST_CAP, attr, shell
from countermem.view._ids import STUDY_ID, Links, record_id, run_id, split, store_id, task_id
from countermem.view._load import (
    RunData,
    StoreData,
    StudyData,
    evicted_record,
    load_run,
    load_store,
    load_study,
    modified,
    record_history,
)
from countermem.view._run_pages import run_page, task_page
from countermem.view._store_pages import record_page, store_page
from countermem.view._study_page import study_page

RUN_KEY = "run"
"""The key of the run when a run folder is viewed (not `.`: a browser drops `/./` from an address)."""
Page = tuple[str, str]
"""A page's title and body HTML."""


T = TypeVar("T")


class Site:
    """The pages of one store, run folder or study folder (see the module docstring)."""

    def __init__(self, path: Path, *, store: Path | None = None, access: ScopeAccess | None = None) -> None:
        self.path = path.absolute()
        self.kind: ViewKind = detect(self.path)
        if access is not None and self.kind != "store":
            raise UnviewablePathError(
                f"--scope shows one reader's records of a memory store, and {path} is a {self.kind} folder, whose "
                "transcripts hold the advice of every scope its runs read; give the store file with --scope"
            )
        self.access = access
        self.given_store = store.absolute() if store is not None else None
        self.stores: dict[str, Path] = {}
        self.runs: dict[str, Path] = {}
        self.run_stores: dict[str, str | None] = {}
        self._cache: dict[tuple[str, str], tuple[float, object]] = {}
        self.root = self.path.parent if self.kind == "store" else self.path
        if self.kind == "store":
            self.home = store_id(self._add_store(self.path))
        elif self.kind == "run":
            self.runs[RUN_KEY] = self.path
            self.home = run_id(RUN_KEY)
            self._run(RUN_KEY)  # finds and registers its store
        else:
            self.home = STUDY_ID
            self._study()  # finds and registers its runs and stores
        if self.given_store is not None:
            if detect(self.given_store) != "store":
                raise UnviewablePathError(f"--store {store} is a folder, not a memory store; give a store file")
            self._add_store(self.given_store)

    @property
    def label(self) -> str:
        return f"{self.kind} {self.path}" + (f" as a reader of {self.access.describe()}" if self.access else "")

    # --- data, read again when its files change --------------------------------------------

    def _add_store(self, path: Path) -> str:
        resolved = path.resolve()
        for key, known in self.stores.items():
            if known.resolve() == resolved:
                return key
        key = path.relative_to(self.root).as_posix() if path.is_relative_to(self.root) else str(path)
        key = key if key.strip(".") else str(path)
        self.stores[key] = path
        return key

    def _cached(self, kind: str, key: str, stamp: float, load: Callable[[], T]) -> T:
        hit = self._cache.get((kind, key))
        if hit is None or hit[0] != stamp:
            hit = (stamp, load())
            self._cache[(kind, key)] = hit
        return cast(T, hit[1])

    def _store(self, key: str) -> StoreData | None:
        path = self.stores.get(key)
        if path is None:
            return None
        stamp = max(modified(path), modified(progress_path(path)))
        return self._cached("store", key, stamp, lambda: load_store(path, self.access))

    def _run(self, key: str) -> RunData | None:
        path = self.runs.get(key)
        if path is None:
            return None
        study_root = self.path if self.kind == "study" else None
        store = self.given_store if self.kind == "run" else None
        stamp = max(modified(path / "results.jsonl"), modified(path / "transcripts"))
        data = self._cached("run", key, stamp, lambda: load_run(path, store=store, study_root=study_root))
        self.run_stores[key] = self._add_store(data.store) if data.store is not None else None
        return data

    def _study(self) -> StudyData:
        stamp = max(modified(self.path / p) for p in ("manifest.json", "jobs", "report/report.md"))
        study = self._cached("study", ".", stamp, lambda: load_study(self.path))
        for ref in study.runs:
            self.runs.setdefault(ref.rel, ref.path)
        for rel in study.stores:
            self._add_store(self.path / rel)
        return study

    # --- pages -------------------------------------------------------------------------------

    def render(self, page: str, links: Links) -> Page | None:
        """The page with this id, or None when the site has no such page."""
        parts = split(page) if page.strip("/") else split(self.home)
        kind, rest = parts[0], parts[1:]
        if kind == STUDY_ID and self.kind == "study" and not rest:
            return study_page(self._study(), links)
        if kind == "store" and 1 <= len(rest) <= 2:
            data = self._store(rest[0])
            number = _page_number(rest)
            return None if data is None or number is None else store_page(data, rest[0], links, number)
        if kind == "record" and len(rest) == 2:
            return self._record(rest[0], rest[1], links)
        if kind == "run" and 1 <= len(rest) <= 2:
            run = self._run(rest[0])
            number = _page_number(rest)
            if run is None or number is None:
                return None
            up = (links.href(STUDY_ID), f"← study {self.path}") if self.kind == "study" else None
            return run_page(run, rest[0], links, store_key=self.run_stores.get(rest[0]), up=up, page=number)
        if kind == "task" and len(rest) == 2:
            run = self._run(rest[0])
            if run is None:
                return None
            return task_page(run, rest[0], rest[1], links, store_key=self.run_stores.get(rest[0]))
        return None

    def _record(self, key: str, rid: str, links: Links) -> Page | None:
        data = self._store(key)
        if data is None:
            return None
        record = data.find(rid)
        evicted = record is None
        if record is None:
            record = evicted_record(data.path, rid, self.access)
        history = record_history(data.path, rid, self.access) if record is not None else []
        return record_page(record, rid, data, key, links, history, evicted=evicted)

    def document(self, page: str, links: Links) -> str | None:
        """A whole HTML document for one page (what the server sends)."""
        found = self.render(page, links)
        if found is None:
            return None
        title, body = found
        return shell(title, body, home=self.label, home_href=links.href(self.home))

    # --- everything into one file ---------------------------------------------------------------

    def page_ids(self) -> Iterator[str]:
        """Every page, home first: runs and their tasks, then stores, their pages and records."""
        yield self.home
        for key in list(self.runs):
            run = self._run(key)
            if run is None:
                continue
            pages = max(1, -(-len(run.outcomes) // LIST_CAP))
            yield from (run_id(key, n) for n in range(1, pages + 1))
            tasks = [o.task_id for o in run.outcomes] + run.unfinished
            yield from (task_id(key, t) for t in tasks)
        for key in list(self.stores):
            data = self._store(key)
            if data is None:
                continue
            pages = max(1, -(-len(data.listed) // LIST_CAP))
            yield from (store_id(key, n) for n in range(1, pages + 1))
            ids = [r.id for r in data.listed] + [e.record_id for e in data.evictions]
            yield from (record_id(key, r) for r in dict.fromkeys(ids))

    def single_file(self) -> str:
        """Every page in one HTML document; the address's `#<page id>` picks the page shown."""
        links = Links("file")
        sections: list[str] = []
        seen: set[str] = set()
        for page in self.page_ids():
            if page in seen:
                continue
            seen.add(page)
            found = self.render(page, links)
            if found is not None:
                sections.append(f"<section data-page={attr(page)} data-title={attr(found[0])} hidden>{found[1]}</section>")
        missing = '<section data-page="" data-missing hidden><p class="note">this page is not in this file</p></section>'
        script = SHOW_JS.replace("'__HOME__'", json.dumps(self.home))
        return shell(self.label, "".join(sections) + missing, home=self.label, home_href="#" + self.home, script=script)


def _page_number(rest: list[str]) -> int | None:
    if len(rest) == 1:
        return 1
    return int(rest[1]) if rest[1].isdigit() and int(rest[1]) >= 1 else None


SHOW_JS = """
function cmShow(){
  var id=location.hash.slice(1)||'__HOME__',found=null;
  document.querySelectorAll('section[data-page]').forEach(function(s){
    var on=s.dataset.page===id&&!found;if(on)found=s;s.hidden=!on;});
  if(!found){var m=document.querySelector('section[data-missing]');m.hidden=false;}
  else{document.title=found.dataset.title;}
  window.scrollTo(0,0);cmFilter();
}
window.addEventListener('hashchange',cmShow);cmShow();
"""
