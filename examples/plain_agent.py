"""countermem in a plain Python agent loop (no countermem agent, no benchmark registry).

Run: python examples/plain_agent.py
The README's first quick start is this file after this docstring, word for word (a test checks).
The 'agent' has a recurring bug (it forgets the 20% tax). When its answer fails, memory asks an
LLM for local edits, verifies each against the world model from the state the failed action was
taken in, and stores the best. On the next, similar task, memory offers the record and the agent
follows it. Swap the scripted LLM for `make_llm("openai", ...)` or `make_llm("local")` in real use.
"""

import re
import tempfile
from pathlib import Path

from countermem import Action, CheckResult, Decision, Facts, State, Task, learn, open_memory
from countermem.llm import Message, ScriptedLLM


class PriceWorld:
    """The world model: an answer passes when it is the price with 20% tax."""

    def reset(self, task: Task) -> State:
        self.task = task
        return self.snapshot()

    def snapshot(self) -> State:
        return State(task_id=self.task.id, payload=self.task, fingerprint=self.task.id)

    def restore(self, state: State) -> None:
        self.task = state.payload

    def check(self, action: Action) -> CheckResult:
        ok = abs(float(action.content) - float(self.task.gold or 0)) < 1e-6
        return CheckResult(utility=float(ok), passed=ok, completed=True, status="passed" if ok else "wrong")


def my_agent(price: float, advice: str) -> str:
    """Your agent. This one forgets the tax unless the advice in its prompt shows it."""
    return f"{price * 1.2:.2f}" if "* 1.2" in advice else f"{price:.2f}"


def propose_fix(messages: list[Message]) -> str:
    """Stands in for an LLM asked for local edits of the failed action."""
    failed = float(re.findall(r"```text\n([\d.]+)\n```", messages[-1].content)[0])
    fixed = f"{failed * 1.2:.2f}"
    return f"### Alternative 1\nRationale: add 20% tax (price * 1.2)\nCondition: taxed\n```text\n{fixed}\n```"


def main() -> None:
    store = Path(tempfile.mkdtemp()) / "memory.sqlite"
    memory = open_memory(store, action_language="text", embedder="lexical")
    world = PriceWorld()
    for index, price in enumerate([10.0, 25.0]):
        task = Task(id=f"price-{index}", benchmark="prices", domain="shop",
                    prompt=f"Gross price of an item costing {price}?", gold=f"{price * 1.2:.2f}")
        facts = Facts(values={"taxed": True})
        state = world.reset(task)
        advice = memory.advise(Decision(task=task, situation=task.prompt, facts=facts))
        action = Action(content=my_agent(price, advice.text if advice else ""))
        result = world.check(action)
        print(f"{task.id}: answer {action.content}, passed={result.passed}, advice={bool(advice and advice.text)}")
        if not result.passed:
            report = learn(memory, ScriptedLLM(propose_fix), task=task, world_model=world, state=state,
                           failed_action=action, failed_result=result, facts=facts, situation=task.prompt)
            print(f"  learned: admitted record {report.admitted_record_id}")


if __name__ == "__main__":
    main()
