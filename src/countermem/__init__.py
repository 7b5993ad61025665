"""countermem: verified counterfactual memory for LLM agents."""

from countermem.core import (
    Action,
    CheckResult,
    CountermemError,
    Facts,
    Task,
    Usage,
)
from countermem.domains import Benchmark, State, WorldModel, check_world_model, load_benchmark
from countermem.llm import LLM, Completion, GenerationParams, Message

__version__ = "0.1.0"

__all__ = [
    "LLM",
    "Action",
    "Benchmark",
    "CheckResult",
    "Completion",
    "CountermemError",
    "Facts",
    "GenerationParams",
    "Message",
    "State",
    "Task",
    "Usage",
    "WorldModel",
    "__version__",
    "check_world_model",
    "load_benchmark",
]
