"""Agents (ReAct, Reflexion) that talk to an LLM and a world model, with one memory hook."""

from countermem.agents._parser import ParsedStep, parse_step
from countermem.agents._react import AgentLimits, ReActAgent, TrialResult
from countermem.agents._reflexion import ReflexionAgent
from countermem.agents._trajectory import TRAJECTORY_VERSION, Event, TaskOutcome
from countermem.core import Advice, Decision, MemoryHook, Outcome

__all__ = [
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
]
