"""The drop-in API (`open_memory`, `advise`, `learn`) under threads, hostile world models and bad input."""

import math
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from counter_world import CounterWorld
from countermem.core import (
    Action,
    CheckResult,
    ConfigError,
    Cost,
    CountermemError,
    Decision,
    Facts,
    StoreError,
    Task,
    WorldModelError,
)
from countermem.domains import State
from countermem.llm import ScriptedLLM
from countermem.llm._protocol import Message
from countermem.memory import (
    CounterfactualMemory,
    GeneratorSettings,
    SQLiteStore,
    learn,
    open_memory,
    open_store,
)

FACTS = Facts(values={"n_vars": 20})
GUARD_S = 120.0
"""Hang guard only: a thread that has not ended by then is a hang, whatever the machine's speed."""


class ConstructedWorld(CounterWorld):
    """Returns a check result built without validation, as a careless world model might."""

    def __init__(self, utility: float) -> None:
        super().__init__()
        self.utility = utility

    def check(self, action: Action) -> CheckResult:
        return CheckResult.model_construct(
            utility=self.utility, passed=True, completed=True, status="passed", details="", cost=Cost()
        )


class HangingWorld(CounterWorld):
    def __init__(self, release: threading.Event) -> None:
        super().__init__()
        self.release = release
        self.entered = threading.Event()

    def check(self, action: Action) -> CheckResult:
        self.entered.set()
        self.release.wait(GUARD_S)
        return super().check(action)


def task(i: int) -> Task:
    return Task(id=f"t-{i}", benchmark="toy", domain="toy", prompt=f"reach 3 (task {i})", gold="3")


def answer(messages: list[Message]) -> str:
    return "### Alternative 1\nRationale: the counter starts at zero\nCondition: none\n```text\nadd 3\n```\n"


def learn_once(memory: CounterfactualMemory, i: int, world: CounterWorld | None = None, **options: object):  # type: ignore[no-untyped-def]
    world = world or CounterWorld()
    state = world.reset(task(i))
    failed_action = Action(content=f"add 2 # attempt {i}")
    failed = CounterWorld()
    failed.reset(task(i))
    return learn(
        memory,
        ScriptedLLM(answer),
        task=task(i),
        world_model=world,
        state=state,
        failed_action=failed_action,
        failed_result=failed.check(failed_action),
        facts=FACTS,
        situation=f"situation of task {i}",
        generator=GeneratorSettings.batch(),
        **options,  # type: ignore[arg-type]
    )


def decision(i: int) -> Decision:
    return Decision(task=task(i), situation=f"situation of task {i}", facts=FACTS)


def open_lexical(path: Path | str, **options: object) -> CounterfactualMemory:
    return open_memory(path, action_language="text", embedder="lexical", **options)  # type: ignore[arg-type]


def test_one_memory_serves_eight_threads_advising_and_learning(store_at: Callable[[], str]) -> None:
    location = store_at()
    memory = open_lexical(location)
    assert learn_once(memory, 0).admitted
    advices_per_thread = 6
    errors: list[BaseException] = []
    offered: list[tuple[int, str | None]] = []
    offered_lock = threading.Lock()

    def work(n: int) -> None:
        try:
            for step in range(advices_per_thread):
                advice = memory.advise(decision(100 + n))
                if step == 2:
                    assert learn_once(memory, 1 + n).admitted
                with offered_lock:
                    offered.append((advice.candidates, advice.record_id) if advice else (0, None))
        except BaseException as error:  # collected for the assertion below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(GUARD_S)
    assert not any(thread.is_alive() for thread in threads)
    assert errors == []
    assert memory.store is not None and len(memory.store) == 9
    assert memory.stats.attempts == 8 * advices_per_thread
    records = memory.store.all()
    assert sum(r.counters.retrieved for r in records) == sum(candidates for candidates, _ in offered)
    assert sum(r.counters.selected for r in records) == sum(1 for _, rid in offered if rid is not None)
    assert memory.stats.selected == sum(1 for _, rid in offered if rid is not None) > 0
    with open_store(location, read_only=True) as reopened:
        assert len(reopened) == 9
        assert sum(r.counters.retrieved for r in reopened.all()) == sum(c for c, _ in offered)


def test_a_second_open_in_the_same_process_shares_the_store(tmp_path: Path) -> None:
    first = open_lexical(tmp_path / "m.db")
    second = open_lexical(tmp_path / "m.db")
    assert first.store is second.store
    assert learn_once(first, 0).admitted
    advice = second.advise(decision(5))
    assert advice is not None and advice.record_id is not None
    with pytest.raises(StoreError, match="capacity"):
        open_lexical(tmp_path / "m.db", capacity=5)
    reader = open_lexical(tmp_path / "m.db", read_only=True)
    assert reader.store is not first.store and reader.store is not None and len(reader.store) == 1


@pytest.mark.parametrize("utility", [math.inf, math.nan, -0.5, 1.5])
def test_a_utility_outside_the_unit_interval_is_refused_at_the_world_model_boundary(
    tmp_path: Path, utility: float
) -> None:
    memory = open_lexical(tmp_path / "m.db")
    with pytest.raises(WorldModelError, match="ConstructedWorld"):
        learn_once(memory, 0, ConstructedWorld(utility))
    assert memory.store is not None and len(memory.store) == 0
    with SQLiteStore(memory.store.path, read_only=True) as reopened:
        assert len(reopened) == 0 and reopened.quarantined == {}


def test_a_hanging_world_model_times_out_instead_of_blocking_learn(tmp_path: Path) -> None:
    memory = open_lexical(tmp_path / "m.db")
    release = threading.Event()
    world = HangingWorld(release)
    raised: list[BaseException] = []

    def run() -> None:
        try:
            learn_once(memory, 0, world, check_timeout=0.5)
        except BaseException as error:  # collected for the assertion below
            raised.append(error)

    runner = threading.Thread(target=run, daemon=True)
    runner.start()
    runner.join(GUARD_S)
    hung = runner.is_alive()
    release.set()
    assert not hung, "learn did not return: the check time limit did not apply"
    assert world.entered.is_set()
    assert len(raised) == 1 and isinstance(raised[0], WorldModelError)
    assert "HangingWorld" in str(raised[0]) and "0.5 s" in str(raised[0])
    assert memory.store is not None and len(memory.store) == 0
    with pytest.raises(WorldModelError, match="positive"):
        learn_once(memory, 1, check_timeout=0)


def test_bad_arguments_are_one_clear_countermem_error_each(tmp_path: Path) -> None:
    memory = open_lexical(tmp_path / "m.db")
    with pytest.raises(ConfigError, match="Decision"):
        memory.advise(None)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="path of a store"):
        open_memory(None, action_language="text")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="lone surrogate"):
        memory.advise(Decision(task=task(1), situation="look: \ud800", facts=FACTS))
    with pytest.raises(ConfigError, match="lone surrogate"):
        open_lexical(tmp_path / "bad\udc00name.db")
    with pytest.raises(ConfigError, match="Decision"):
        memory.advise({"situation": "x"})  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="memory"):
        learn(None, ScriptedLLM(answer), task=task(0), world_model=CounterWorld(), state=State("t-0", 0),  # type: ignore[arg-type]
              failed_action=Action(content="add 2"), failed_result=CheckResult(utility=0.0, passed=False,
              completed=True, status="wrong"), facts=FACTS, situation="s")
    assert memory.stats.attempts == 0
    assert issubclass(ConfigError, CountermemError)


def test_a_refused_open_memory_leaves_no_file_behind(tmp_path: Path) -> None:
    other = tmp_path / "app.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE users (id INTEGER PRIMARY KEY)")
    conn.commit()
    conn.close()
    before = other.read_bytes()
    folder = tmp_path / "a-folder"
    folder.mkdir()
    listing = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(StoreError, match="not a memory store"):
        open_lexical(other)
    with pytest.raises(StoreError, match="folder"):
        open_lexical(folder)
    with pytest.raises(StoreError, match="at least 1"):
        open_lexical(tmp_path / "new" / "deeper" / "m.db", capacity=0)
    assert sorted(p.name for p in tmp_path.iterdir()) == listing
    assert other.read_bytes() == before and not any(folder.iterdir())
