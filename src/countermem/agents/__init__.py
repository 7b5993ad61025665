"""Agents (ReAct, Reflexion) that talk to an LLM and a world model, with one memory hook."""

from countermem.agents._parser import ParsedStep, parse_step
from countermem.agents._react import AgentLimits, ReActAgent, TrialResult
from countermem.agents._reflexion import ReflexionAgent
from countermem.agents._trajectory import MODEL_CALLS, TRAJECTORY_VERSION, Event, TaskOutcome, prompt_of
from countermem.core import Advice, Decision, MemoryHook, Outcome

__all__ = [
    "MODEL_CALLS",
    "TRAJECTORY_VERSION",
    "Advice",
    "AgentLimits",
    "Decision",
    "Event",
    "MemoryHook",
    "Outcome",
    "ParsedStep",
    "ReActAgent",
    "ReflexionAgent",
    "TaskOutcome",
    "TrialResult",
    "parse_step",
    "prompt_of",
]
