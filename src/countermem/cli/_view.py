"""`countermem view PATH`: look at a memory store, a run folder or a study folder in a browser.

Served on 127.0.0.1 until Ctrl-C (the address is printed; `--open` opens it), or written into one
self-contained HTML file with `--out`. Nothing viewed is written to. `--scope` (with
`--read-scope`) shows a store as a reader of that scope sees it, as `countermem memory` does.
"""

from __future__ import annotations

import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from countermem.cli._common import console, friendly_errors, print_warning
from countermem.cli._memory import ReadScopeOpt, ScopeOpt, _access
from countermem.view import Site, make_server, url_of, write_html

PathArg = Annotated[Path, typer.Argument(help="a memory store file, a run folder or a study folder")]
PortOpt = Annotated[
    int, typer.Option("--port", min=0, max=65535, help="port on 127.0.0.1 to serve on (0: a free one)")
]
OpenOpt = Annotated[bool, typer.Option("--open", help="open the address in a browser, if one is available")]
OutOpt = Annotated[
    Path | None, typer.Option("--out", help="write every page into this one HTML file instead of serving")
]
ForceOpt = Annotated[bool, typer.Option("--force", help="replace the --out file if it exists")]
StoreOpt = Annotated[
    Path | None,
    typer.Option("--store", help="the memory store of a run, so records it offered link to their pages"),
]


@friendly_errors
def view(
    path: PathArg,
    port: PortOpt = 0,
    open_browser: OpenOpt = False,
    out: OutOpt = None,
    force: ForceOpt = False,
    store: StoreOpt = None,
    scope: ScopeOpt = None,
    read_scope: ReadScopeOpt = None,
) -> None:
    """Show a memory store, a run folder or a study folder as web pages (local only)."""
    site = Site(path, store=store, access=_access(scope, read_scope))
    if out is not None:
        written = write_html(site, out, overwrite=force)
        console.print(f"{site.kind} view written to {written} ({written.stat().st_size // 1024} KiB)")
        return
    server = make_server(site, port)
    url = url_of(server)
    console.print(f"viewing {site.kind} {site.path} at {url} (Ctrl-C stops)", highlight=False, soft_wrap=True)
    if open_browser and not _open(url):
        print_warning(f"no browser could be opened here; open {url} yourself")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def _open(url: str) -> bool:
    try:
        return webbrowser.open(url)
    except webbrowser.Error:
        return False
