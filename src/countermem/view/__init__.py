"""`countermem view`: a local web viewer for a memory store, a run folder or a study folder.

Served on 127.0.0.1, or written into one self-contained HTML file; the pages carry their own CSS
and JS and fetch nothing. Loading (`_load`), drawing (`_store_pages`, `_run_pages`,
`_study_page`, `_html`), routing (`_site`, `_ids`) and serving (`_serve`) are apart.
"""

from countermem.core import UnviewablePathError
from countermem.view._detect import ViewKind, detect
from countermem.view._html import LIST_CAP
from countermem.view._ids import Links
from countermem.view._serve import HOST, make_server, url_of
from countermem.view._site import Site
from countermem.view._write import write_html

__all__ = [
    "HOST",
    "LIST_CAP",
    "Links",
    "Site",
    "UnviewablePathError",
    "ViewKind",
    "detect",
    "make_server",
    "url_of",
    "write_html",
]
