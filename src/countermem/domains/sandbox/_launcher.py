"""The few lines that run first inside the sandbox, before the untrusted code.

They set the rlimits from inside so that RLIMIT_NPROC counts only the sandbox's own user
namespace (set from outside, it would count every process of the host user), write the input
files into the private working directory, and take the code from stdin rather than argv so
that neither its size nor its text shows up in `ps`.
"""

from __future__ import annotations

LAUNCHER = r"""
import json, os, resource, sys


def _launch():
    payload = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    for name, text in payload["files"].items():
        path = os.path.join(os.getcwd(), name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    main = os.path.join(os.getcwd(), "main.py")
    with open(main, "w", encoding="utf-8") as handle:
        handle.write(payload["code"])
    for name, (soft, hard) in payload["limits"].items():
        resource.setrlimit(getattr(resource, name), (soft, hard))
    code = compile(payload["code"], main, "exec")
    sys.argv = [main]
    return code, {"__name__": "__main__", "__file__": main, "__builtins__": __builtins__}


_code, _globals = _launch()
del _launch
exec(_code, _globals)
"""
