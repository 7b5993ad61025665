"""Check results are validated where they leave a world model (issue 19, item 5)."""

import math
import threading

import pytest

from countermem.agents import ReActAgent
from countermem.core import Action, CheckResult, Cost, WorldModelError
from countermem.domains import TimeLimitedWorldModel, check_action, validated_check
from countermem.llm import ScriptedLLM


class Returns:
    def __init__(self, result: object) -> None:
        self.result = result

    def check(self, action: Action) -> object:
        return self.result


def constructed(utility: float) -> CheckResult:
    return CheckResult.model_construct(
        utility=utility, passed=True, completed=True, status="passed", details="", cost=Cost()
    )


@pytest.mark.parametrize("utility", [math.inf, -math.inf, math.nan, 1.5, -0.1])
def test_a_utility_outside_the_unit_interval_is_a_world_model_error(utility: float) -> None:
    with pytest.raises(WorldModelError, match=r"Returns.*finite number in \[0, 1\]"):
        check_action(Returns(constructed(utility)), Action(content="x"))  # type: ignore[arg-type]


def test_a_result_of_another_type_is_a_world_model_error_and_a_valid_one_passes() -> None:
    with pytest.raises(WorldModelError, match="returned a dict"):
        validated_check({"utility": 1.0}, Returns(None))
    good = CheckResult(utility=0.5, passed=False, completed=True, status="wrong")
    assert validated_check(good, Returns(None)) == good
    assert validated_check(constructed(1.0), Returns(None)).utility == 1.0


def test_an_agent_stops_on_a_world_model_that_returns_infinity(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    class Infinite:
        def __init__(self) -> None:
            self.inner = toy_benchmark.world_model()

        def __getattr__(self, name: str) -> object:
            return getattr(self.inner, name)

        def check(self, action: Action) -> CheckResult:
            return constructed(math.inf)

    agent = ReActAgent(ScriptedLLM(["Thought: go\nAction: submit\n```text\n2\n```"]), toy_benchmark, Infinite())
    with pytest.raises(WorldModelError, match="Infinite"):
        agent.run(toy_benchmark.tasks()[0])


def test_a_time_limited_check_gives_up_and_the_world_model_is_not_used_again(toy_benchmark) -> None:  # type: ignore[no-untyped-def]
    release = threading.Event()

    class Stuck:
        def __init__(self) -> None:
            self.inner = toy_benchmark.world_model()
            self.restored = 0

        def reset(self, task):  # type: ignore[no-untyped-def]
            return self.inner.reset(task)

        def snapshot(self):  # type: ignore[no-untyped-def]
            return self.inner.snapshot()

        def restore(self, state) -> None:  # type: ignore[no-untyped-def]
            self.restored += 1

        def check(self, action: Action) -> CheckResult:
            release.wait(120)  # released below; 120 s is a hang guard only
            return self.inner.check(action)

    stuck = Stuck()
    limited = TimeLimitedWorldModel(stuck, 0.2)  # type: ignore[arg-type]
    state = limited.reset(toy_benchmark.tasks()[0])
    try:
        with pytest.raises(WorldModelError, match="Stuck did not return"):
            limited.check(Action(content="2"))
        limited.restore(state)
        assert stuck.restored == 0
        with pytest.raises(WorldModelError, match="timed out in an earlier check"):
            limited.check(Action(content="2"))
    finally:
        release.set()
