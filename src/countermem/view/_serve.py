"""Serving the pages on 127.0.0.1 with the standard library's HTTP server.

Bound to the loopback address only: the pages show model output, prompts and paths, which are
not meant for the network. Each request draws its page afresh from the files (cached until they
change), so the viewer can stay open while a run goes on.
"""

from __future__ import annotations

import logging
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from countermem.core import CountermemError
from countermem.view._html import esc, shell
from countermem.view._ids import Links
from countermem.view._site import Site

HOST = "127.0.0.1"
logger = logging.getLogger(__name__)


def make_server(site: Site, port: int = 0) -> ThreadingHTTPServer:
    """A server for `site` on 127.0.0.1:`port` (0: a free port the system picks); call
    `serve_forever` on it, and `shutdown` from another thread to stop it."""
    lock = threading.Lock()  # the site's caches are plain dicts; one page is drawn at a time
    links = Links("server")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if not _loopback_host(self.headers.get("Host", "")):
                # another site's page, pointed at this port by DNS rebinding, cannot read these pages
                self._send(HTTPStatus.MISDIRECTED_REQUEST, _error_page(site, "only http://127.0.0.1 is served"))
                return
            page = urlsplit(self.path).path
            try:
                with lock:
                    document = site.document(page, links)
            except CountermemError as error:
                self._send(HTTPStatus.INTERNAL_SERVER_ERROR, _error_page(site, str(error)))
                return
            except Exception as error:  # a bug drawing one page must not take the viewer down
                logger.exception("view: drawing %s failed", page)
                self._send(HTTPStatus.INTERNAL_SERVER_ERROR, _error_page(site, f"{type(error).__name__}: {error}"))
                return
            if document is None:
                self._send(HTTPStatus.NOT_FOUND, _error_page(site, f"no page {page} here"))
                return
            self._send(HTTPStatus.OK, document)

        def _send(self, status: HTTPStatus, document: str) -> None:
            data = document.encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: object) -> None:
            logger.debug("view: " + format, *args)

    return ThreadingHTTPServer((HOST, port), Handler)


def _loopback_host(host: str) -> bool:
    name = host.rsplit(":", 1)[0] if host.count(":") == 1 or host.startswith("[") else host
    return name.strip("[]") in ("127.0.0.1", "localhost", "::1")


def url_of(server: ThreadingHTTPServer) -> str:
    return f"http://{HOST}:{server.server_address[1]}/"


def _error_page(site: Site, message: str) -> str:
    return shell("countermem view", f'<h1>Not shown</h1><p class="note">{esc(message)}</p>', home=site.label, home_href="/")
