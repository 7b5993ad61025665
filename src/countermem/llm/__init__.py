"""Language-model backends behind one protocol."""

from countermem.llm._protocol import LLM, Completion, GenerationParams, Message, Role

__all__ = ["LLM", "Completion", "GenerationParams", "Message", "Role"]
