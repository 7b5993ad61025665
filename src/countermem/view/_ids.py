"""Page ids, and how a link to one is written when served and in a single file.

A page id is a few `/`-separated parts, each percent-quoted (so a store key that is a path, or a
task id with odd characters, stays one part): `store/<key>[/<page>]`, `record/<key>/<id>`,
`run/<key>[/<page>]`, `task/<key>/<task>`, `study`. Served, a link is `/<id>`; in one HTML
file it is `#<id>` and the page's script shows that page's section.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from urllib.parse import quote, unquote

LinkMode = Literal["server", "file"]


def _q(part: str) -> str:
    return quote(part, safe="")


def store_id(key: str, page: int = 1) -> str:
    return f"store/{_q(key)}" + (f"/{page}" if page > 1 else "")


def record_id(key: str, record: str) -> str:
    return f"record/{_q(key)}/{_q(record)}"


def run_id(key: str, page: int = 1) -> str:
    return f"run/{_q(key)}" + (f"/{page}" if page > 1 else "")


def task_id(key: str, task: str) -> str:
    return f"task/{_q(key)}/{_q(task)}"


STUDY_ID = "study"


def split(page: str) -> list[str]:
    """The unquoted parts of a page id (the first is its kind)."""
    return [unquote(part) for part in page.strip("/").split("/")]


@dataclass(frozen=True)
class Links:
    mode: LinkMode

    def href(self, page: str) -> str:
        return f"/{page}" if self.mode == "server" else f"#{page}"
