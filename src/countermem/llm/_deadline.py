"""A total deadline for one HTTP request, which httpx does not have.

httpx's time-outs are per phase and per read: a server that sends one byte every few seconds
never trips a 120 s read time-out, and a run would wait on it forever. So every socket
operation of the client's connection pool goes through `DeadlineBackend`, which shortens each
connect, read and write to the time left before the deadline of the request in flight (a
context variable the caller sets with `request_deadline`), and raises httpcore's own time-out
once it has passed. httpx and the openai SDK then report it as the time-out it is.

The backend is installed on the pool of the SDK's transport (httpx + httpcore for openai 1.x,
httpx2 + httpcore2 for later releases; the same design). httpx has no public hook for that, so
`deadline_http_client` checks that the pool has the attribute it replaces and refuses to build
otherwise rather than run without the deadline. A request sent through an HTTP proxy
named in the environment does not pass through this transport and keeps only the per-read
time-out.
"""

from __future__ import annotations

import contextvars
import importlib
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

import openai

from countermem.core import ConfigError

_DEADLINE: contextvars.ContextVar[tuple[float, float] | None] = contextvars.ContextVar(
    "countermem_request_deadline", default=None
)
"""(monotonic deadline, the seconds it was set for) of the request in flight in this context."""
_HTTP_STACKS = (("httpx2", "httpcore2"), ("httpx", "httpcore"))
"""The openai SDK sends through httpx + httpcore (1.x) or their successors httpx2 + httpcore2."""


@contextmanager
def request_deadline(seconds: float) -> Iterator[None]:
    """Every socket operation inside the block ends by `seconds` from now."""
    token = _DEADLINE.set((time.monotonic() + seconds, seconds))
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def _bounded(timeout: float | None, error: type[Exception]) -> float | None:
    current = _DEADLINE.get()
    if current is None:
        return timeout
    deadline, seconds = current
    left = deadline - time.monotonic()
    if left <= 0:
        raise error(f"no complete answer within the request deadline of {seconds:g} s")
    return left if timeout is None else min(timeout, left)


class _DeadlineStream:
    """httpcore's NetworkStream protocol, each operation cut to the time left."""

    def __init__(self, inner: Any, core: ModuleType) -> None:
        self._inner = inner
        self._core = core

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        data: bytes = self._inner.read(max_bytes, _bounded(timeout, self._core.ReadTimeout))
        return data

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _bounded(timeout, self._core.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None) -> Any:
        bounded = _bounded(timeout, self._core.ConnectTimeout)
        return _DeadlineStream(self._inner.start_tls(ssl_context, server_hostname, bounded), self._core)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class DeadlineBackend:
    """httpcore's (sync) NetworkBackend protocol with every operation held to the request deadline."""

    def __init__(self, inner: Any, core: ModuleType) -> None:
        self._inner = inner
        self._core = core

    def connect_tcp(
        self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
        socket_options: Any = None,
    ) -> _DeadlineStream:
        bounded = _bounded(timeout, self._core.ConnectTimeout)
        stream = self._inner.connect_tcp(
            host, port, bounded, local_address=local_address, socket_options=socket_options
        )
        return _DeadlineStream(stream, self._core)

    def connect_unix_socket(self, path: str, timeout: float | None = None, socket_options: Any = None) -> _DeadlineStream:
        bounded = _bounded(timeout, self._core.ConnectTimeout)
        return _DeadlineStream(self._inner.connect_unix_socket(path, bounded, socket_options=socket_options), self._core)

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


def _sdk_stack() -> tuple[ModuleType, ModuleType]:
    for client_name, core_name in _HTTP_STACKS:
        try:
            client_module = importlib.import_module(client_name)
        except ImportError:
            continue
        if issubclass(openai.DefaultHttpxClient, client_module.Client):
            return client_module, importlib.import_module(core_name)
    raise ConfigError(
        f"openai {openai.__version__} sends through an HTTP client countermem does not know, so the request "
        "deadline cannot be installed; install an openai release built on httpx or httpx2"
    )


def deadline_http_client() -> Any:
    """The openai SDK's own HTTP client (its defaults), on a transport whose connections honour
    `request_deadline`."""
    client_module, core = _sdk_stack()
    transport = client_module.HTTPTransport()
    pool = getattr(transport, "_pool", None)
    if not isinstance(pool, core.ConnectionPool) or not hasattr(pool, "_network_backend"):
        raise ConfigError(
            f"{client_module.__name__} keeps its connection pool differently than countermem expects, so the "
            "request deadline cannot be installed; install the httpx release the openai SDK was built with"
        )
    pool._network_backend = DeadlineBackend(pool._network_backend, core)
    return openai.DefaultHttpxClient(transport=transport)
