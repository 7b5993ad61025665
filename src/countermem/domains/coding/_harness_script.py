"""The judge: runs a task's tests in this process and the solution in another; its source is sent
into the sandbox as the program.

The trust boundary is the process boundary. The solution runs only in a child interpreter
(`_solution_script.py`, started fresh, so its memory never held the tests), and everything that
decides the verdict stays here: the test code, its expected values, the assert recorder, the
report channel and its nonce. The child is reached only through two pipes; each call the tests
make on the solution's function crosses as plain data (`_wire.py`), and what comes back is
rebuilt here as builtin values, so an object that claims to equal anything never meets a
comparison. Before the child starts, this process makes itself non-dumpable (the child, same
user, then cannot ptrace it, read its memory or open its file descriptors through /proc), drops
the working directory from its import path (the child can write there), and ignores SIGINT. If
the child exits or breaks the protocol, the tests still waiting on it fail: only this process
can say that the tests finished, and it says so only when they did. The child can still kill
or stop this process; that ends the check without a "done", which scores as an error.

It is a plain script (stdlib and the copied `cm_wire` only) because the sandbox's interpreter
cannot see this project.
"""

from __future__ import annotations

import builtins
import contextlib
import importlib
import json
import os
import reprlib
import select
import signal
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs milliseconds to import, paid on every check
    from collections.abc import Callable, Iterator
    from typing import Any, NoReturn

    from countermem.domains.coding import _wire as cm_wire

    Emit = Callable[..., None]
else:
    import cm_wire

SOLUTION_SCRIPT = "cm_solution.py"
PR_GET_DUMPABLE = 3
PR_SET_DUMPABLE = 4
_POLL_S = 0.2
_REPR = reprlib.Repr()
_REPR.maxstring = 120
_REPR.maxother = 120
_MISSING = object()
_EXIT_WAIT_S = 0.5


class SolutionGone(BaseException):
    """The solution's process ended or broke the protocol while the tests still needed it.

    A BaseException, so that test code catching Exception cannot swallow it.
    """


class SolutionError(Exception):
    """An exception the solution raised that has no builtin counterpart here, or one that would
    steer the judge's control flow."""


def _plain(kind: type[BaseException]) -> bool:
    """An exception the tests may see as itself: not one that ends an iteration, a generator or the process."""
    return issubclass(kind, Exception) and not issubclass(kind, (StopIteration, StopAsyncIteration))


def _protect_self() -> None:
    """Close every way in that the child would otherwise have (see the module docstring)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0 or libc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE, 0) failed")
    here = os.getcwd()
    sys.path[:] = [p for p in sys.path if p and os.path.abspath(p) != here]
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _describe(error: BaseException) -> str:
    detail = getattr(error, "cm_detail", None)
    return detail if isinstance(detail, str) else cm_wire.describe(error)


def _show(value: object) -> str:
    try:
        return _REPR.repr(value)[: cm_wire.DETAIL_CHARS]
    except Exception as error:
        return f"<unprintable {type(value).__name__}: {type(error).__name__}>"


def _raised(name: object, detail: object) -> Exception:
    """The solution's exception rebuilt here: a builtin class when its name is one (so tests that
    expect, say, a ValueError still see one), else SolutionError; its detail is the child's text.

    Never as an exception that steers control flow here: a StopIteration raised inside
    `all(map(f, xs))` would end the iteration and pass the assert, so the iteration-ending
    exceptions (and every BaseException that is not an Exception) come back as SolutionError.
    """
    text = str(detail)[: cm_wire.DETAIL_CHARS]
    kind = getattr(builtins, name, None) if isinstance(name, str) else None
    if isinstance(kind, type) and issubclass(kind, BaseException) and not _plain(kind):
        text = f"{text} (raised by the solution; an error here, not the tests' control flow)"
        kind = None
    error: Exception = SolutionError(text)
    if isinstance(kind, type) and issubclass(kind, Exception):
        try:
            error = kind(text)
        except Exception:
            error = SolutionError(text)
    vars(error)["cm_detail"] = text
    return error


class Remote:
    """An object that lives in the solution's process (its function, a `Node` it made).

    Forwarded are only the operations whose answer the solution could as well have returned as a
    plain value and that show it nothing of what the tests expect: calls, attribute access,
    iteration (items come back as data), length and truth. Everything that meets an expected
    value is decided here: it equals only itself, hashes by identity, has no order or arithmetic,
    `in` walks its items and compares them here, and it prints as what it is.
    """

    __slots__ = ("_callable", "_link", "_ref", "_type")
    _callable: bool
    _link: Link
    _ref: int
    _type: str

    def __init__(self, link: Link, ref: int, type_name: str, is_callable: bool) -> None:
        object.__setattr__(self, "_link", link)
        object.__setattr__(self, "_ref", ref)
        object.__setattr__(self, "_type", type_name)
        object.__setattr__(self, "_callable", is_callable)

    def __call__(self, *args: object, **kwargs: object) -> object:
        return self._link.ask(
            {
                "op": "call",
                "ref": self._ref,
                "args": self._link.send(list(args)),
                "kwargs": self._link.send(kwargs),
            }
        )

    def __getattr__(self, name: str) -> object:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return self._link.ask({"op": "getattr", "ref": self._ref, "name": name})

    def __setattr__(self, name: str, value: object) -> None:
        self._link.ask({"op": "setattr", "ref": self._ref, "name": name, "value": self._link.send(value)})

    def __iter__(self) -> Iterator[object]:
        iterator = self._link.ask({"op": "iter", "ref": self._ref})
        if not isinstance(iterator, Remote):
            raise TypeError("the solution's iterator came back as a value")
        while batch := self._link.ask({"op": "next", "ref": iterator._ref}):
            if not isinstance(batch, list):
                raise TypeError("the solution's iterator sent something other than a batch of items")
            yield from batch

    def __len__(self) -> int:
        size = self._link.ask({"op": "len", "ref": self._ref})
        if type(size) is not int:
            raise TypeError("the solution's object gave a length that is not an int")
        return size

    def __bool__(self) -> bool:
        return self._link.ask({"op": "bool", "ref": self._ref}) is True

    def __copy__(self) -> Remote:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Remote:
        return self

    def __repr__(self) -> str:
        return f"<{self._type} object of the solution>"


class Link:
    """The judge's end of the two pipes to the solution's process.

    The process is started with posix_spawn (subprocess would cost an import on every check);
    every descriptor of ours but stdio is made non-inheritable first, so the child gets only
    stdio (stdin is /dev/null) and its two pipe ends.
    """

    def __init__(self) -> None:
        requests_r, self._requests = os.pipe()
        self._replies, replies_w = os.pipe()
        for fd in _open_fds():
            if fd > 2:
                with contextlib.suppress(OSError):  # the descriptor listdir used, closed by now
                    os.set_inheritable(fd, fd in (requests_r, replies_w))
        argv = [sys.executable, "-s", "-u", os.path.abspath(SOLUTION_SCRIPT), str(requests_r), str(replies_w)]
        try:
            self._pid = os.posix_spawn(sys.executable, argv, dict(os.environ), setsigdef=(signal.SIGINT,))
        finally:
            os.close(requests_r)
            os.close(replies_w)
        self._status: int | None = None
        self._buffer = bytearray()
        self._handles: dict[int, Remote] = {}
        self.gone: str | None = None
        self.gone_signal: int | None = None

    def ask(self, request: dict[str, Any]) -> object:
        """Send one request and return the decoded answer, or raise what the solution raised."""
        return self._answer(self.exchange(request))

    def get_global(self, name: str) -> object:
        """The solution's global `name`, or _MISSING when it has none."""
        reply = self.exchange({"op": "global", "name": name})
        return _MISSING if reply.get("missing") is True else self._answer(reply)

    def _answer(self, reply: dict[str, Any]) -> object:
        if "raised" in reply and isinstance(reply["raised"], list) and len(reply["raised"]) == 2:
            raise _raised(*reply["raised"])
        if "value" not in reply:
            raise cm_wire.WireError("the solution's process sent a reply without a value")
        return cm_wire.decode(reply["value"], self._handle)

    def exchange(self, request: dict[str, Any]) -> dict[str, Any]:
        if self.gone is not None:
            raise SolutionGone(self.gone)
        data = (json.dumps(request) + "\n").encode("utf-8")
        try:
            while data:
                data = data[os.write(self._requests, data) :]
        except BrokenPipeError:
            self._lose("stopped reading the tests' calls")
        line = self._read_line()
        try:
            reply = json.loads(line)
        except (ValueError, RecursionError):
            self._lose("sent a reply that is not JSON")
        if not isinstance(reply, dict):
            self._lose("sent a reply that is not a JSON object")
        return reply

    def send(self, value: object) -> Any:
        """Test values as data; only the solution's own objects may cross as references."""
        return cm_wire.encode(value, self._reference)

    def close(self) -> None:
        for fd in (self._requests, self._replies):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._kill()

    def _kill(self) -> None:
        if self._exited() is None:
            os.kill(self._pid, signal.SIGKILL)
            self._status = os.waitpid(self._pid, 0)[1]

    def _reference(self, value: object) -> list[Any]:
        if isinstance(value, Remote) and value._link is self:
            return ["r", value._ref]
        raise cm_wire.WireError(f"a {type(value).__name__} cannot be passed to the solution's process")

    def _handle(self, data: list[Any]) -> Remote:
        if len(data) != 4 or type(data[1]) is not int or not isinstance(data[2], str):
            raise cm_wire.WireError("a malformed reference")
        ref = data[1]
        if ref not in self._handles:
            self._handles[ref] = Remote(self, ref, data[2][:80], data[3] is True)
        return self._handles[ref]

    def _read_line(self) -> bytes:
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                return line
            if len(self._buffer) > cm_wire.MAX_LINE_BYTES:
                self._lose(f"sent a reply longer than {cm_wire.MAX_LINE_BYTES} bytes")
            ready, _, _ = select.select([self._replies], [], [], _POLL_S)
            if not ready:
                if self._exited() is not None:
                    self._lose("ended")
                continue
            chunk = os.read(self._replies, 1 << 16)
            if not chunk:
                self._lose("ended")
            self._buffer += chunk

    def _exited(self) -> int | None:
        """The child's wait status once it has ended, else None (never blocks)."""
        if self._status is None:
            pid, status = os.waitpid(self._pid, os.WNOHANG)
            if pid == self._pid:
                self._status = status
        return self._status

    def _wait(self, timeout_s: float) -> int | None:
        deadline = time.monotonic() + timeout_s
        while self._exited() is None:
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.005)
        return self._status

    def _lose(self, what: str) -> NoReturn:
        """Record how the solution's process ended (killing it if it had not) and stop the tests."""
        status = self._wait(_EXIT_WAIT_S)
        if status is None:
            self._kill()
            self.gone = f"the solution's process {what}"
            raise SolutionGone(self.gone)
        code = os.waitstatus_to_exitcode(status)
        if code < 0:
            self.gone_signal = -code
            self.gone = f"the solution's process was killed by signal {-code} ({signal.Signals(-code).name})"
        else:
            self.gone = f"the solution's process exited with code {code}"
        raise SolutionGone(self.gone)


def _open_fds() -> list[int]:
    return [int(name) for name in os.listdir("/proc/self/fd") if name.isdigit()]


def _bind_solution_names(namespace: dict[str, Any], link: Link, names: list[str]) -> None:
    """Give the tests the solution's globals they read and that the task's own code did not define.

    A standard module's name always gets the real module, never whatever the solution bound to it.
    """
    for name in names:
        if name in namespace:
            continue
        value = link.get_global(name)
        if value is _MISSING:
            continue
        namespace[name] = importlib.import_module(name) if name in sys.stdlib_module_names else value


def main() -> None:
    with open("spec.json", encoding="utf-8") as handle:
        spec = json.load(handle)
    os.remove("spec.json")
    channel = os.fdopen(int(os.environ.pop("COUNTERMEM_CHANNEL_FD")), "w", buffering=1, encoding="utf-8")
    nonce = spec["nonce"]

    def emit(event: str, **data: Any) -> None:
        channel.write(json.dumps({"nonce": nonce, "event": event, **data}) + "\n")
        channel.flush()

    try:
        _protect_self()
        link = Link()
    except (OSError, AttributeError, ImportError) as error:
        emit("broken", message=f"the judge could not isolate the solution: {type(error).__name__}: {error}")
        return
    try:
        _judge(spec, link, emit)
    finally:
        link.close()


def _judge(spec: dict[str, Any], link: Link, emit: Emit) -> None:
    namespace: dict[str, Any] = {"__name__": "solution", "__builtins__": builtins}
    if spec["preamble"]:
        try:
            exec(compile(spec["preamble"], "prompt.py", "exec"), namespace)
        except BaseException as error:
            emit("error", phase="preamble", message=_describe(error))
            return
    entry = spec["entry_point"]
    try:
        loaded = link.exchange({"op": "load", "preamble": spec["preamble"], "solution": spec["solution"]})
        if isinstance(loaded.get("error"), list) and len(loaded["error"]) == 2:
            phase, message = loaded["error"]
            emit("error", phase="preamble" if phase == "preamble" else "solution", message=str(message))
            return
        candidate = link.get_global(entry)
        _bind_solution_names(namespace, link, [n for n in spec["free_names"] if n != entry])
    except SolutionGone as gone:
        emit("error", phase="solution", message=f"{gone} before the tests could start")
        return
    except Exception as error:
        emit("error", phase="solution", message=_describe(error))
        return
    if not isinstance(candidate, Remote) or not candidate._callable:
        emit("error", phase="solution", message=f"{entry} is not a function after running the solution")
        return
    namespace[entry] = candidate
    _run_tests(spec, namespace, candidate, link, emit)


def _run_tests(
    spec: dict[str, Any], namespace: dict[str, Any], candidate: Remote, link: Link, emit: Emit
) -> None:
    reached: set[int] = set()
    failed: set[int] = set()
    counts: dict[int, int] = {}
    last = [-1]

    def enter(site: int) -> None:
        last[0] = site
        if site not in reached:
            reached.add(site)
            emit("reach", site=site)

    def record(site: int, ok: bool, error: BaseException | None, got: object) -> None:
        counts[site] = counts.get(site, 0) + 1
        if isinstance(error, SolutionGone):
            emit("fail", site=site, detail=str(error))
            raise error
        if not ok and site not in failed:
            failed.add(site)
            detail = _describe(error) if error is not None else f"got {_show(got)}"
            emit("fail", site=site, detail=detail)

    namespace["_cm_enter"] = enter
    namespace["_cm_record"] = record
    emit("start")
    try:
        exec(compile(spec["test"], "test.py", "exec"), namespace)
        if spec["call"]:
            namespace[spec["call"]](candidate)
    except SolutionGone as gone:
        emit("exited", message=str(gone), signal=link.gone_signal, last_site=last[0])
        return
    except BaseException as error:
        emit("abort", message=_describe(error), last_site=last[0])
        return
    if link.gone is not None:
        emit("exited", message=link.gone, signal=link.gone_signal, last_site=last[0])
        return
    emit("done", counts={str(k): v for k, v in counts.items()})


if __name__ == "__main__":
    main()
