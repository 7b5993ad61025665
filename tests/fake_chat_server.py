"""A fake OpenAI-compatible chat server on 127.0.0.1 for fault tests, one class for every test.

`respond(body)` gets the parsed request body and returns `(status, content type, payload)`;
`completion(text)` builds a well-formed chat completion. The server counts requests, binds an
ephemeral loopback port and stops with the `serving` context. Importable from every test module
(pytest puts this folder on sys.path, as for `required_tools`).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = tuple[int, str, bytes]
USAGE = {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7}


def completion(text: str, *, model: str = "m", usage: bool = True) -> Reply:
    reply: dict[str, Any] = {
        "id": "c", "object": "chat.completion", "created": 0, "model": model,
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
    }
    if usage:
        reply["usage"] = USAGE
    return 200, "application/json", json.dumps(reply).encode()


class FakeChatServer:
    def __init__(self, respond: Callable[[dict[str, Any]], Reply]) -> None:
        self.requests = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
                server.requests += 1
                status, kind, payload = respond(body)
                self.send_response(status)
                self.send_header("content-type", kind)
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: object) -> None:
                return None

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True)


class Responder:
    """A `respond` callable with the server it answers for (set by `serving`): url, request count."""

    served: FakeChatServer | None = None

    def __call__(self, body: dict[str, Any]) -> Reply:
        raise NotImplementedError

    @property
    def url(self) -> str:
        assert self.served is not None, "use it inside serving(...)"
        return self.served.url

    @property
    def requests(self) -> int:
        assert self.served is not None, "use it inside serving(...)"
        return self.served.requests

    @requests.setter
    def requests(self, value: int) -> None:
        assert self.served is not None, "use it inside serving(...)"
        self.served.requests = value


@contextmanager
def serving(respond: Callable[[dict[str, Any]], Reply]) -> Iterator[FakeChatServer]:
    served = FakeChatServer(respond)
    if isinstance(respond, Responder):
        respond.served = served
    served.thread.start()
    try:
        yield served
    finally:
        served.httpd.shutdown()
        served.httpd.server_close()
