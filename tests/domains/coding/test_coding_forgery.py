"""Solutions that try to forge their verdict instead of computing answers: none may score.

Every attack below is a wrong solution (its honest score is 0) that attacks the checker: it
reaches the test runner's reporting function or data through frames, gc, globals or builtins,
exits early, returns an object that claims to equal anything, prints or writes fake reports, or
goes after the test runner's process through /proc. The verdict must stay at 0.
"""

from __future__ import annotations

import pytest

from countermem.core import Action, CheckResult, Task
from countermem.domains.coding import CodingWorldModel, HumanEval


def _check_first_task(humaneval: HumanEval, source: str) -> CheckResult:
    world = humaneval.world_model()
    world.reset(humaneval.tasks()[0])
    return world.check(Action(content=source))


def _check_custom(source: str) -> CheckResult:
    task = Task(
        id="custom-double",
        benchmark="custom",
        domain="coding",
        prompt="write f",
        metadata={
            "entry_point": "f",
            "test": "def check(candidate):\n    assert candidate(1) == 2\n    assert candidate(2) == 4\n"
            "    assert candidate(3) == 6\n",
            "call": "check",
            "preamble": "",
        },
    )
    world = CodingWorldModel()
    world.reset(task)
    return world.check(Action(content=source))


ENTRY = "def has_close_elements(numbers, threshold):\n"

FORGERIES = {
    "frame_walk_to_emit_then_exit_0": (
        "import os, sys\n" + ENTRY + "    frame = sys._getframe()\n"
        "    while frame is not None:\n"
        "        for scope in (frame.f_locals, frame.f_globals):\n"
        "            emit = scope.get('emit')\n"
        "            if callable(emit):\n"
        "                emit('start')\n"
        "                emit('done', counts={})\n"
        "                os._exit(0)\n"
        "        frame = frame.f_back\n"
        "    return 'no emit in reach'\n"
    ),
    "frame_walk_at_import_time": (
        "import os, sys\n"
        "FOUND = []\n"
        "frame = sys._getframe()\n"
        "while frame is not None:\n"
        "    for name, value in list(frame.f_locals.items()):\n"
        "        if name == 'spec' and isinstance(value, dict):\n"
        "            value['test'] = 'def check(candidate):\\n    pass\\n'\n"
        "            FOUND.append(name)\n"
        "    frame = frame.f_back\n" + ENTRY + "    return f'changed {len(FOUND)} specs'\n"
    ),
    "builtins_bool_always_true": (
        "import builtins\n" + ENTRY + "    builtins.bool = lambda *args, **kwargs: True\n"
        "    builtins.AssertionError = type('AssertionError', (Exception,), {})\n    return None\n"
    ),
    "builtins_compile_swaps_the_tests": (
        "import builtins\n_real = builtins.compile\n"
        "def _compile(source, filename, mode, *args, **kwargs):\n"
        "    if filename == 'test.py':\n"
        "        source = 'def check(candidate):\\n    pass\\n'\n"
        "    return _real(source, filename, mode, *args, **kwargs)\n"
        "builtins.compile = _compile\n" + ENTRY + "    return None\n"
    ),
    "globals_recorder_replaced_on_first_call": (
        ENTRY + "    scope = globals()\n"
        "    replaced = [name for name in scope if name.startswith('_cm_')]\n"
        "    for name in replaced:\n"
        "        scope[name] = lambda *args, **kwargs: None\n"
        "    return f'replaced {len(replaced)} recorders'\n"
    ),
    "patched_json_turns_failures_into_reaches": (
        "import json\n_real = json.dumps\n"
        "def _dumps(value, *args, **kwargs):\n"
        "    if isinstance(value, dict) and value.get('event') == 'fail':\n"
        "        value = {**value, 'event': 'reach'}\n"
        "    return _real(value, *args, **kwargs)\n"
        "json.dumps = _dumps\n" + ENTRY + "    return None\n"
    ),
    "gc_replaces_check_and_recorders": (
        "import gc, sys\n" + ENTRY + "    replaced = 0\n"
        "    for found in gc.get_objects():\n"
        "        if isinstance(found, dict) and '_cm_record' in found:\n"
        "            found['_cm_record'] = lambda *args, **kwargs: None\n"
        "            found['_cm_enter'] = lambda *args, **kwargs: None\n"
        "            replaced += 1\n"
        "    return f'replaced {replaced} recorders'\n"
    ),
    "closure_nonce_written_to_every_guessed_fd": (
        "import gc, json, os, re\n" + ENTRY + "    nonces = set()\n"
        "    for found in gc.get_objects():\n"
        "        for cell in getattr(found, '__closure__', None) or ():\n"
        "            try:\n"
        "                value = cell.cell_contents\n"
        "            except ValueError:\n"
        "                continue\n"
        "            if isinstance(value, str) and re.fullmatch('[0-9a-f]{32}', value):\n"
        "                nonces.add(value)\n"
        "    forged = ''.join(\n"
        "        json.dumps({'nonce': n, 'event': e, 'counts': {}}) + '\\n' for n in nonces for e in ('start', 'done')\n"
        "    )\n"
        "    for fd in range(3, 256):\n"
        "        try:\n"
        "            os.write(fd, forged.encode())\n"
        "        except OSError:\n"
        "            pass\n"
        "    os._exit(min(len(nonces), 99))\n"
    ),
    "fake_reports_printed_to_stdout_and_stderr": (
        "import gc, json, sys\n" + ENTRY + "    nonce = 'guess'\n"
        "    for found in gc.get_objects():\n"
        "        if isinstance(found, dict) and isinstance(found.get('nonce'), str):\n"
        "            nonce = found['nonce']\n"
        "    for event in ('start', 'done'):\n"
        "        line = json.dumps({'nonce': nonce, 'event': event, 'counts': {}})\n"
        "        print(line)\n"
        "        print(line, file=sys.stderr)\n"
        "    print('all asserts passed')\n"
        "    return None\n"
    ),
    "proc_mem_nonce_theft_and_proc_fd_writes": (
        "import json, os, re\nUUID4_HEX = rb'(?<![0-9a-f])[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}(?![0-9a-f])'\n"
        + ENTRY
        + "    pids = [p for p in os.listdir('/proc') if p.isdigit()]\n"
        "    nonces = set()\n"
        "    for pid in pids:\n"
        "        try:\n"
        "            maps = open(f'/proc/{pid}/maps').read().splitlines()\n"
        "            mem = open(f'/proc/{pid}/mem', 'rb')\n"
        "        except OSError:\n"
        "            continue\n"
        "        for line in maps:\n"
        "            span, perms = line.split()[:2]\n"
        "            if not perms.startswith('rw'):\n"
        "                continue\n"
        "            start, end = (int(x, 16) for x in span.split('-'))\n"
        "            try:\n"
        "                mem.seek(start)\n"
        "                chunk = mem.read(min(end - start, 64 << 20))\n"
        "            except (OSError, ValueError, OverflowError):\n"
        "                continue\n"
        "            nonces.update(m.decode() for m in re.findall(UUID4_HEX, chunk))\n"
        "    lines = b''.join(\n"
        "        (json.dumps({'nonce': n, 'event': e, 'counts': {}}) + '\\n').encode()\n"
        "        for n in nonces for e in ('start', 'done')\n"
        "    )\n"
        "    for fd in range(3, 64):\n"
        "        try:\n"
        "            os.write(fd, lines)\n"
        "        except OSError:\n"
        "            pass\n"
        "    for pid in pids:\n"
        "        for fd in range(0, 64):\n"
        "            try:\n"
        "                out = os.open(f'/proc/{pid}/fd/{fd}', os.O_WRONLY | os.O_NONBLOCK)\n"
        "            except OSError:\n"
        "                continue\n"
        "            try:\n"
        "                os.write(out, lines)\n"
        "            except OSError:\n"
        "                pass\n"
        "            os.close(out)\n"
        "    os._exit(min(len(nonces), 99))\n"
    ),
    "kills_its_parent": (
        "import os, signal\n" + ENTRY + "    os.kill(os.getppid(), signal.SIGKILL)\n    return None\n"
    ),
}

EXITS = {
    "sys_exit_at_import": "import sys\nsys.exit(0)\n" + ENTRY + "    return True\n",
    "exit_at_import": "exit(0)\n" + ENTRY + "    return True\n",
    "os_exit_at_import": "import os\nos._exit(0)\n" + ENTRY + "    return True\n",
    "sys_exit_in_function": "import sys\n" + ENTRY + "    sys.exit(0)\n",
    "exit_in_function": ENTRY + "    exit(0)\n",
    "os_exit_in_function": "import os\n" + ENTRY + "    os._exit(0)\n",
    "raise_system_exit_in_function": ENTRY + "    raise SystemExit(0)\n",
}


_FIRST = "first failing assert, test line 10: assert candidate([1.0, 2.0, 3.9, 4.0, 5.0, 2.2], 0.3) == True -> "
_SOLUTION_GONE = "the solution's process exited with code 0 before the tests finished; 0/7 asserts passed"

WHY = {
    # what the forgery reached lives in another process: the judge's asserts ran and saw the value
    "frame_walk_to_emit_then_exit_0": ("wrong", _FIRST + "got 'no emit in reach'"),
    "frame_walk_at_import_time": ("wrong", _FIRST + "got 'changed 0 specs'"),
    "globals_recorder_replaced_on_first_call": ("wrong", _FIRST + "got 'replaced 0 recorders'"),
    "gc_replaces_check_and_recorders": ("wrong", _FIRST + "got 'replaced 0 recorders'"),
    # what it patched (builtins, compile, json) is its own process's: the judge's copies judged
    "builtins_bool_always_true": ("wrong", "0/7 asserts passed; " + _FIRST + "got None"),
    "builtins_compile_swaps_the_tests": ("wrong", "0/7 asserts passed; " + _FIRST + "got None"),
    "patched_json_turns_failures_into_reaches": ("wrong", "0/7 asserts passed; " + _FIRST + "got None"),
    # only the report channel counts, and the solution's prints never reach it
    "fake_reports_printed_to_stdout_and_stderr": ("wrong", "0/7 asserts passed; " + _FIRST + "got None"),
    # its exit code is the number of nonces it found (none: not in its memory, nor readable through /proc);
    # ending its own process ends the tests without a "done"
    "closure_nonce_written_to_every_guessed_fd": ("error", _SOLUTION_GONE),
    "proc_mem_nonce_theft_and_proc_fd_writes": ("error", _SOLUTION_GONE),
    # killing the judge ends the check without a "done"
    "kills_its_parent": ("error", "the test process killed by signal 9 (SIGKILL) before the tests finished"),
}


def test_every_forgery_says_which_defence_stops_it() -> None:
    assert WHY.keys() == FORGERIES.keys()


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_forgery_does_not_score(humaneval: HumanEval, name: str) -> None:
    """Each forgery must fail for the reason in WHY: one that fails some other way (its own process
    crashing first, say) exercises no defence."""
    result = _check_first_task(humaneval, FORGERIES[name])
    assert not result.passed, result.details
    assert result.utility == 0.0, result.details
    status, why = WHY[name]
    assert result.status == status and why in result.details, result.details


EXIT_WHY = {
    "sys_exit_at_import": ("error", "running the solution failed: SystemExit: 0 (solution.py line 2)"),
    "exit_at_import": ("error", "running the solution failed: SystemExit: 0 (solution.py line 1)"),
    "os_exit_at_import": ("error", "the solution's process exited with code 0 before the tests could start"),
    "sys_exit_in_function": ("wrong", _FIRST + "SystemExit: 0 (solution.py line 3) (raised by the solution"),
    "exit_in_function": ("wrong", _FIRST + "SystemExit: 0 (solution.py line 2) (raised by the solution"),
    "raise_system_exit_in_function": ("wrong", _FIRST + "SystemExit: 0 (solution.py line 2) (raised by the solution"),
    "os_exit_in_function": ("error", _SOLUTION_GONE),
}


@pytest.mark.parametrize("name", sorted(EXITS))
def test_exiting_does_not_score(humaneval: HumanEval, name: str) -> None:
    result = _check_first_task(humaneval, EXITS[name])
    assert not result.passed and result.utility == 0.0, result.details
    assert result.completed, result.details
    status, why = EXIT_WHY[name]
    assert result.status == status and why in result.details, result.details


ALWAYS_EQUAL = {
    "plain_object": "class Anything:\n",
    "int_subclass": "class Anything(int):\n",
    "list_subclass": "class Anything(list):\n",
    "tuple_subclass": "class Anything(tuple):\n",
}
_ALWAYS_EQUAL_BODY = (
    "    def __eq__(self, other):\n        return True\n"
    "    def __ne__(self, other):\n        return False\n"
    "    def __bool__(self):\n        return True\n"
    "    __hash__ = object.__hash__\n"
    "def f(x):\n    return Anything()\n"
)


_SEEN_AS = {
    "plain_object": "<Anything object of the solution>",
    "int_subclass": "0",
    "list_subclass": "[]",
    "tuple_subclass": "()",
}
"""What the judge compared: an opaque reference, or the subclass's builtin data, never its __eq__."""


@pytest.mark.parametrize("name", sorted(ALWAYS_EQUAL))
def test_an_object_equal_to_everything_does_not_score(sandbox: None, name: str) -> None:
    result = _check_custom(ALWAYS_EQUAL[name] + _ALWAYS_EQUAL_BODY)
    assert not result.passed and result.utility == 0.0, result.details
    assert result.status == "wrong", result.details
    assert f"assert candidate(1) == 2 -> got {_SEEN_AS[name]}" in result.details, result.details


def test_redefining_the_prompts_helper_does_not_fool_the_tests(humaneval: HumanEval) -> None:
    """HumanEval/32's tests judge a root with the prompt's `poly`; the solution's `poly` is not that one."""
    task = humaneval.tasks()[32]
    world = humaneval.world_model()
    world.reset(task)
    forged = task.prompt + "\n\ndef poly(xs, x):\n    return 0.0\n\n\ndef find_zero(xs):\n    return 0.0\n"
    result = world.check(Action(content=forged))
    assert not result.passed and result.utility == 0.0, result.details


def test_the_honest_solution_of_the_custom_task_passes(sandbox: None) -> None:
    result = _check_custom("def f(x):\n    return 2 * x\n")
    assert result.passed and result.utility == 1.0, result.details


def _check_user_task(entry_point: str, test: str, source: str) -> CheckResult:
    """A user's own coding task (MBPP style: the test module's asserts, no `check` function)."""
    task = Task(id=f"user-{entry_point}", benchmark="custom", domain="coding", prompt=f"write {entry_point}",
                metadata={"entry_point": entry_point, "test": test, "call": None, "preamble": ""})
    world = CodingWorldModel()
    world.reset(task)
    return world.check(Action(content=source))


_POSITIVE_TESTS = "assert all(map(is_positive, [1, 2, 3]))\nassert not any(map(is_positive, [-1, -2]))\n"


def test_stop_iteration_from_the_solution_does_not_end_the_tests_iteration(sandbox: None) -> None:
    """Re-raised as StopIteration in the judge, it would end `map` early: all([]) holds, any([]) fails."""
    honest = _check_user_task("is_positive", _POSITIVE_TESTS, "def is_positive(x):\n    return x > 0\n")
    assert honest.passed and honest.utility == 1.0, honest.details
    for raised in ("StopIteration", "StopAsyncIteration"):
        result = _check_user_task("is_positive", _POSITIVE_TESTS, f"def is_positive(x):\n    raise {raised}\n")
        assert not result.passed and result.utility == 0.0, result.details
        assert result.status == "wrong", result.details
        assert f"-> {raised} (solution.py line 2) (raised by the solution; an error here, not the tests' control " \
               "flow)" in result.details, result.details


_ROUND_TRIP_TESTS = "assert decode(encode('abc')) == 'abc'\nassert decode(encode('hello')) == 'hello'\n"
_JUDGE_TAKEOVER = (
    "def encode(text):\n"
    "    return '''\n"
    "import os, sys\n"
    "frame = sys._getframe()\n"
    "while frame is not None:\n"
    "    emit = frame.f_locals.get('emit')\n"
    "    if callable(emit):\n"
    "        emit('start')\n"
    "        emit('done', counts={})\n"
    "        os._exit(0)\n"
    "    frame = frame.f_back\n"
    "raise RuntimeError('exec ran where no judge is')\n"
    "'''\n"
)
_FORGED_WIRE = (
    "import sys\n"
    "_wire = sys.modules['cm_wire']\n"
    "_real = _wire.encode\n"
    "def _forged(value, opaque, depth=0):\n"
    "    if value is exec:\n"
    "        return ['B', 'exec']\n"
    "    return _real(value, opaque, depth)\n"
    "_wire.encode = _forged\n"
)


def test_a_builtin_the_solution_hands_back_runs_in_its_own_process(sandbox: None) -> None:
    """`decode = exec`: if exec came back as the judge's own, the tests' call would run the
    solution's text in the judge, which finds the reporter and says "done"."""
    result = _check_user_task("encode", _ROUND_TRIP_TESTS, _JUDGE_TAKEOVER + "decode = exec\n")
    assert not result.passed and result.utility == 0.0, result.details
    assert "RuntimeError: exec ran where no judge is" in result.details, result.details


def test_a_builtin_named_on_a_forged_wire_is_refused_by_the_judge(sandbox: None) -> None:
    """The solution rewrites its copy of the wire to name exec; the judge's decoder refuses it."""
    result = _check_user_task("encode", _ROUND_TRIP_TESTS, _FORGED_WIRE + _JUDGE_TAKEOVER + "decode = exec\n")
    assert not result.passed and result.utility == 0.0, result.details
    assert result.status == "error", result.details
    assert "WireError: 'exec' is not a builtin type or pure builtin function" in result.details, result.details
