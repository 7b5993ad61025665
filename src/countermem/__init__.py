"""countermem: verified counterfactual memory for LLM agents.

The drop-in path for your own agent: `open_memory` (a store with retrieval and a selector),
`memory.advise(Decision(...))` at a decision, and `learn(...)` with any object implementing
the `WorldModel` protocol when an action failed. See examples/plain_agent.py.
"""

from countermem.agents import AgentLimits, ReActAgent, ReflexionAgent
from countermem.core import (
    Action,
    Advice,
    CheckResult,
    CountermemError,
    Decision,
    Facts,
    MemoryHook,
    Outcome,
    Task,
    Usage,
)
from countermem.domains import (
    Benchmark,
    State,
    WorldModel,
    check_world_model,
    load_benchmark,
)
from countermem.llm import LLM, Completion, GenerationParams, Message, make_llm
from countermem.memory import (
    CounterfactualLearner,
    CounterfactualMemory,
    Record,
    Retriever,
    ScopeAccess,
    SQLiteStore,
    learn,
    open_memory,
)
from countermem.selector import SKIP, AlwaysSkip, DQNSelector, Observation, RandomChoice, TopOne

__version__ = "0.1.0"

__all__ = [
    "LLM",
    "SKIP",
    "Action",
    "Advice",
    "AgentLimits",
    "AlwaysSkip",
    "Benchmark",
    "CheckResult",
    "Completion",
    "CounterfactualLearner",
    "CounterfactualMemory",
    "CountermemError",
    "DQNSelector",
    "Decision",
    "Facts",
    "GenerationParams",
    "MemoryHook",
    "Message",
    "Observation",
    "Outcome",
    "RandomChoice",
    "ReActAgent",
    "Record",
    "ReflexionAgent",
    "Retriever",
    "SQLiteStore",
    "ScopeAccess",
    "State",
    "Task",
    "TopOne",
    "Usage",
    "WorldModel",
    "__version__",
    "check_world_model",
    "learn",
    "load_benchmark",
    "make_llm",
    "open_memory",
]
