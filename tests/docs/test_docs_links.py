"""Links between README.md and docs/ point at files and headings that exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
WRITTEN_ELSEWHERE = {"docs/reliability-server.md", "docs/reliability-store.md", "docs/guards.md"}
"""Pages other work adds; a link to one is checked once it exists."""
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", page.read_text(), flags=re.S | re.M)
    return {slug(m) for m in re.findall(r"^#{1,6} (.+)$", text, flags=re.M)}


def links(page: Path) -> list[str]:
    text = re.sub(r"^```.*?^```", "", page.read_text(), flags=re.S | re.M)
    return [t for t in _LINK.findall(text) if not re.match(r"[a-z]+:", t)]


def test_slug_matches_github() -> None:
    assert slug("The sql study: records built by the 1.5B, used by the 0.5B") == (
        "the-sql-study-records-built-by-the-15b-used-by-the-05b"
    )
    assert slug("`[memory.generator]`") == "memorygenerator"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_relative_links_resolve(page: Path) -> None:
    for target in links(page):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        relative = file.relative_to(ROOT).as_posix() if file.is_relative_to(ROOT) else str(file)
        if relative in WRITTEN_ELSEWHERE and not file.exists():
            continue
        assert file.exists(), f"{page.name}: link to missing {target}"
        if anchor:
            assert anchor in anchors(file), f"{page.name}: no heading #{anchor} in {relative}"
