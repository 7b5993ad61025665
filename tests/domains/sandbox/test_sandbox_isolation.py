"""The sandbox's promises, each proven by trying to break it."""

from __future__ import annotations

import json
import socket
import time
import uuid
from pathlib import Path

import pytest

from countermem.core import SandboxError
from countermem.domains.sandbox import (
    BWRAP_ENV,
    SandboxPolicy,
    find_bwrap,
    run_python,
    sandbox_availability,
)

REPO = Path(__file__).resolve().parents[3]
MARGIN_S = 4.0


pytestmark = pytest.mark.usefixtures("sandbox")


def _processes_with(token: str) -> list[int]:
    """PIDs whose environment holds `token` (how we find a run's leftovers on the host)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if token.encode() in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def test_code_cannot_write_outside_its_private_directory() -> None:
    name = f"countermem-escape-{uuid.uuid4().hex}"
    targets = [f"/tmp/{name}", str(REPO / name), f"/{name}", f"/usr/{name}", f"/dev/shm/{name}"]
    code = f"""
import json
outcome = {{}}
for path in {targets!r}:
    try:
        with open(path, "w") as handle:
            handle.write("escaped")
        outcome[path] = "written"
    except OSError as error:
        outcome[path] = type(error).__name__
with open("inside.txt", "w") as handle:
    handle.write("fine")
outcome["inside"] = open("inside.txt").read()
print(json.dumps(outcome))
"""
    result = run_python(code)
    assert result.ok, result.stderr
    outcome = json.loads(result.stdout)
    assert outcome["inside"] == "fine"
    for target in targets:
        assert not Path(target).exists(), f"{target} appeared on the host"
    for target in targets[1:]:
        assert outcome[target] != "written", f"{target} was writable inside the sandbox"
    # /tmp inside the sandbox is the private tmpfs: writable there, invisible here
    assert outcome[targets[0]] == "written"


def test_code_cannot_see_the_project_or_the_host_temp_dir() -> None:
    code = f"import os; print(os.path.exists({str(REPO)!r}), os.path.exists('/root'), sorted(os.listdir('/tmp')))"
    result = run_python(code)
    assert result.ok, result.stderr
    assert result.stdout.split()[:2] == ["False", "False"]
    assert "main.py" in result.stdout


@pytest.mark.parametrize("unsafe", [False, True])
def test_code_cannot_reach_a_listener_on_the_host_loopback(unsafe: bool) -> None:
    """The unsafe run is the control: the same code does connect when nothing isolates it."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        listener.settimeout(0.5)
        port = listener.getsockname()[1]
        code = f"""
import socket
try:
    socket.create_connection(("127.0.0.1", {port}), timeout=2).close()
    print("CONNECTED")
except OSError as error:
    print("BLOCKED", type(error).__name__)
"""
        result = run_python(code, SandboxPolicy(unsafe_no_sandbox=unsafe))
        if unsafe:
            listener.accept()[0].close()
        else:
            with pytest.raises(TimeoutError):
                listener.accept()
    assert result.ok, result.stderr
    assert result.stdout.startswith("CONNECTED" if unsafe else "BLOCKED"), result.stdout


def test_fork_bomb_is_contained_and_the_run_ends() -> None:
    token = f"CM_TOKEN_{uuid.uuid4().hex}"
    policy = SandboxPolicy(timeout_s=3.0, max_processes=16, env={"CM_TOKEN": token})
    code = """
import os, time
if os.fork() == 0:
    while True:
        try:
            os.fork()
        except OSError:
            time.sleep(0.01)
time.sleep(1.0)
print("PROCS", len([p for p in os.listdir("/proc") if p.isdigit()]), flush=True)
while True:
    time.sleep(1)
"""
    started = time.monotonic()
    result = run_python(code, policy)
    elapsed = time.monotonic() - started
    assert result.timed_out and result.killed
    assert elapsed < policy.timeout_s + MARGIN_S
    count = int(result.stdout.split()[1])
    assert count <= policy.max_processes + 1, f"{count} processes in a sandbox limited to 16"
    time.sleep(0.2)
    assert _processes_with(token) == [], "processes of the fork bomb outlived the run"


@pytest.mark.parametrize("unsafe", [False, True])
def test_memory_hog_is_stopped(unsafe: bool) -> None:
    policy = SandboxPolicy(memory_mb=256, timeout_s=10, unsafe_no_sandbox=unsafe)
    code = "hog = []\nwhile True:\n    hog.append(bytearray(16 * 1024 * 1024))\n"
    started = time.monotonic()
    result = run_python(code, policy)
    assert time.monotonic() - started < 8
    assert not result.ok
    assert not result.timed_out
    assert "MemoryError" in result.stderr
    assert result.sandboxed is not unsafe


def test_infinite_loop_is_killed_on_time() -> None:
    policy = SandboxPolicy(timeout_s=2.0, cpu_s=60)
    started = time.monotonic()
    result = run_python("while True:\n    pass\n", policy)
    elapsed = time.monotonic() - started
    assert result.timed_out and result.killed
    assert policy.timeout_s <= elapsed < policy.timeout_s + MARGIN_S
    assert "wall-clock" in result.describe()


def test_cpu_limit_kills_before_the_wall_clock() -> None:
    result = run_python("while True:\n    pass\n", SandboxPolicy(timeout_s=20.0, cpu_s=1))
    assert not result.timed_out and result.killed
    assert result.signal == 24
    assert "CPU" in result.describe()
    assert result.seconds < 15


def test_output_is_capped_and_reported() -> None:
    policy = SandboxPolicy(max_output_bytes=1000)
    result = run_python("import sys\nprint('x' * 5_000_000)\nsys.stderr.write('e' * 3000)\n", policy)
    assert result.returncode == 0
    assert result.truncated
    assert len(result.stdout) == 1000 and len(result.stderr) == 1000
    assert result.stdout_bytes == 5_000_001 and result.stderr_bytes == 3000


def test_small_output_is_not_marked_truncated() -> None:
    result = run_python("print('hello')")
    assert (result.stdout, result.truncated, result.sandboxed) == ("hello\n", False, True)


def test_input_files_and_side_channel() -> None:
    code = (
        "import os\n"
        "print(open('data/in.txt').read())\n"
        "os.write(int(os.environ['COUNTERMEM_CHANNEL_FD']), b'report')\n"
    )
    result = run_python(code, files={"data/in.txt": "payload"})
    assert result.ok, result.stderr
    assert result.stdout == "payload\n"
    assert result.channel == "report"


def test_input_file_names_must_stay_inside() -> None:
    for bad in ("../x", "/etc/x", "main.py"):
        with pytest.raises(SandboxError):
            run_python("pass", files={bad: ""})


def test_hash_seed_is_fixed_so_checks_repeat() -> None:
    first = run_python("print(hash('countermem'), list({'a', 'b', 'c', 'd'}))")
    second = run_python("print(hash('countermem'), list({'a', 'b', 'c', 'd'}))")
    assert first.ok and first.stdout == second.stdout


def test_refuses_when_bwrap_is_missing() -> None:
    policy = SandboxPolicy(bwrap_path="/nonexistent/bwrap")
    availability = sandbox_availability(policy)
    assert not availability.available
    assert "/nonexistent/bwrap" in availability.reason
    with pytest.raises(SandboxError, match="unsafe_no_sandbox"):
        run_python("print('should not run')", policy)


def test_environment_variable_points_the_probe(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(BWRAP_ENV, "/nonexistent/bwrap-from-env")
    assert find_bwrap(SandboxPolicy()) == "/nonexistent/bwrap-from-env"
    assert not sandbox_availability().available
    with pytest.raises(SandboxError):
        run_python("print(1)")


def test_unsafe_mode_runs_unsandboxed_and_says_so() -> None:
    policy = SandboxPolicy(bwrap_path="/nonexistent/bwrap", unsafe_no_sandbox=True)
    result = run_python("print(6 * 7)", policy)
    assert result.ok and result.stdout == "42\n"
    assert result.sandboxed is False


def test_unsafe_mode_time_out_kills_the_whole_process_group() -> None:
    token = f"CM_TOKEN_{uuid.uuid4().hex}"
    policy = SandboxPolicy(timeout_s=1.5, unsafe_no_sandbox=True, env={"CM_TOKEN": token})
    code = "import subprocess, sys, time\nsubprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\ntime.sleep(60)\n"
    result = run_python(code, policy)
    assert result.timed_out
    time.sleep(0.2)
    assert _processes_with(token) == []
