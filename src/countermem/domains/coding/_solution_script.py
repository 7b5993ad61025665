"""The solution's process: runs the model's code and answers the judge's calls on it.

The judge (`_harness_script.py`) starts this script as a fresh interpreter, so its memory never
held the tests, their expected values or the report channel; it learns only the calls the tests
make. Everything here is in the solution's reach and may be rewritten by it: that is fine, since
all this process can do is choose the answers it sends, which is what a solution does anyway.
It is copied into the sandbox as `cm_solution.py` next to `cm_wire.py`.
"""

from __future__ import annotations

import itertools
import json
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs milliseconds to import, paid on every check
    from typing import Any

    from countermem.domains.coding import _wire as cm_wire
else:
    import cm_wire

_TYPE_NAME_CHARS = 80
_BATCH = 1024
"""Items of an iterator sent per request: one round trip per item would make long ones slow."""


class _Server:
    def __init__(self) -> None:
        self.namespace: dict[str, Any] = {"__name__": "solution", "__builtins__": __builtins__}
        self.objects: list[object] = []
        self.refs: dict[int, int] = {}

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("op") == "load":
            return self._load(str(request.get("preamble") or ""), str(request.get("solution") or ""))
        try:
            value = self._perform(request)
        except _Missing:
            return {"missing": True}
        except BaseException as error:
            return {"raised": [type(error).__name__, cm_wire.describe(error)]}
        try:
            return {"value": cm_wire.encode(value, self._remember)}
        except (cm_wire.WireError, RecursionError, MemoryError) as error:
            return {
                "raised": ["ValueError", f"the solution's result cannot be sent to the tests: {error}"[:400]]
            }

    def _load(self, preamble: str, solution: str) -> dict[str, Any]:
        for phase, source, filename in (
            ("preamble", preamble, "prompt.py"),
            ("solution", solution, "solution.py"),
        ):
            if not source:
                continue
            try:
                exec(compile(source, filename, "exec"), self.namespace)
            except BaseException as error:
                return {"error": [phase, cm_wire.describe(error)]}
        return {"loaded": True}

    def _perform(self, request: dict[str, Any]) -> object:
        op = request.get("op")
        if op == "global":
            name = str(request.get("name"))
            if name not in self.namespace:
                raise _Missing
            return self.namespace[name]
        target = self.objects[int(request["ref"])]
        if op == "call":
            args = cm_wire.decode(request["args"], self._resolve)
            kwargs = cm_wire.decode(request["kwargs"], self._resolve)
            assert isinstance(args, list) and isinstance(kwargs, dict)
            return target(*args, **kwargs)  # type: ignore[operator]
        if op == "getattr":
            return getattr(target, str(request["name"]))
        if op == "setattr":
            setattr(target, str(request["name"]), cm_wire.decode(request["value"], self._resolve))
            return None
        if op == "iter":
            return iter(target)  # type: ignore[call-overload]
        if op == "next":
            return list(itertools.islice(target, _BATCH))  # type: ignore[call-overload]
        if op == "len":
            return len(target)  # type: ignore[arg-type]
        if op == "bool":
            return bool(target)
        raise ValueError(f"unknown request {op!r}")

    def _remember(self, value: object) -> list[Any]:
        ref = self.refs.get(id(value))
        if ref is None:
            ref = len(self.objects)
            self.objects.append(value)
            self.refs[id(value)] = ref
        return ["r", ref, type(value).__name__[:_TYPE_NAME_CHARS], callable(value)]

    def _resolve(self, data: list[Any]) -> object:
        return self.objects[int(data[1])]


class _Missing(Exception):
    """The solution defines no global by the name asked for."""


def main() -> None:
    requests = os.fdopen(int(sys.argv[1]), "rb")
    replies = os.fdopen(int(sys.argv[2]), "wb")
    server = _Server()
    for line in requests:
        reply = server.answer(json.loads(line))
        replies.write(json.dumps(reply).encode("utf-8") + b"\n")
        replies.flush()


if __name__ == "__main__":
    main()
