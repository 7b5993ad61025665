"""A simulated backbone: a controlled test bed for the memory machinery, never a result about LLMs.

Why it exists: whether memory helps depends on a model's mistakes. A real model's mistakes are
unknown and noisy; here they are chosen. The benchmark supplies a *naive action* per task, a
recurring, feature-dependent mistake (sql-shop: the query written for the common retail schema,
right on retail, wrong on the other variants in a consistent way), and this model never fixes it
on its own. Any gain or harm in a run with it therefore comes from the memory machinery alone.
Everything produced with it must be labelled simulated.

Agent role (deterministic, a pure function of the conversation):

1. The task is identified from the first user message by the injected `naive_action(text)`,
   which returns the naive action's text, or None when it does not know the task (LLMError).
2. The current action is the naive action with every advice record found so far in the user
   messages applied, each distinct record once, in the order they arrived (`apply_record`). It
   follows a record EVEN WHEN THE RECORD DOES NOT FIT the task: a mismatched record does harm,
   which is what the test bed must be able to show.
3. First turn: `Action: check` the current action. After `Observation: check PASSED`: a bare
   `Action: submit`. After `Observation: check FAILED`: if that observation brought a record not
   seen before and applying it changes the action, `Action: check` the new action; otherwise
   `Action: submit` the current action (checking an unchanged action again would give the same
   verdict, since a world model's check is reproducible). Any other user message (a re-prompt
   after a malformed answer, which this model does not write) gets `Action: check` again.

Applying a record (`record_edits`, `apply_edits`): both actions of the record are split into
tokens (a quoted string, a word, or one other non-space character); `difflib.SequenceMatcher`
over the two token lists gives replace/delete/insert opcodes; each becomes a (from, to) pair of
substrings, cut from the original and improved texts at the tokens' character offsets (so the
whitespace between tokens is kept as written). A delete or insert is anchored on the neighbouring
equal token (the one before, else the one after), so that `from` is never empty. The pairs are
applied in order to the current action, each as a case-sensitive replacement of the first
occurrence of `from` that does not split a word (a `from` that begins or ends with a word
character must not touch another word character there, so `name -> full_name` leaves `last_name`
alone), and skipped when there is none. Edits that do not transfer are simply skipped; edits that
transfer where they should not are the harm.

Generator role: when `is_generator_prompt(messages)` says the prompt is the memory generator's,
the reply comes from the injected `generator_policy(messages)`. The llm layer cannot import the
memory layer that owns that prompt, so the detection is injected by the caller
(`countermem.experiment.simulated_llm_for` wires both to the real generator).

Usage is counted with the scripted word rule (`scripted_usage`): every whitespace-separated word
is one token, so token figures of simulated runs are exact and reproducible, and not those of
any tokenizer.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass

from countermem.core import ConfigError, LLMError, RenderedRecord, parse_record_texts
from countermem.llm._protocol import Completion, GenerationParams, Message
from countermem.llm._scripted import ScriptedReply, scripted_usage

NaiveActionFunction = Callable[[str], str | None]
"""First user message -> the naive action's text, or None for a task it does not know."""
GeneratorPolicy = Callable[[list[Message]], str]
GeneratorDetector = Callable[[list[Message]], bool]

PASSED_PREFIX = "Observation: check PASSED"
FAILED_PREFIX = "Observation: check FAILED"

_TOKEN = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\w+|[^\w\s]")


@dataclass(frozen=True)
class RecordEdit:
    """Replace the first occurrence of `old` that does not split a word with `new`."""

    old: str
    new: str


def _tokens(text: str) -> list[re.Match[str]]:
    return list(_TOKEN.finditer(text))


def record_edits(original: str, improved: str) -> list[RecordEdit]:
    """The token-level edits that turn `original` into `improved`, as substring pairs (module docstring)."""
    old_tokens, new_tokens = _tokens(original), _tokens(improved)
    matcher = difflib.SequenceMatcher(
        None, [t.group() for t in old_tokens], [t.group() for t in new_tokens], autojunk=False
    )
    edits: list[RecordEdit] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if tag == "delete" or tag == "insert":
            if i1 > 0 and j1 > 0:
                i1, j1 = i1 - 1, j1 - 1
            elif i2 < len(old_tokens) and j2 < len(new_tokens):
                i2, j2 = i2 + 1, j2 + 1
        old = _span(original, old_tokens, i1, i2)
        new = _span(improved, new_tokens, j1, j2)
        if old and old != new:
            edits.append(RecordEdit(old=old, new=new))
    return edits


def _span(text: str, tokens: list[re.Match[str]], start: int, stop: int) -> str:
    if start >= stop:
        return ""
    return text[tokens[start].start() : tokens[stop - 1].end()]


def _boundary_pattern(old: str) -> re.Pattern[str]:
    head = r"(?<!\w)" if re.match(r"\w", old[0]) else ""
    tail = r"(?!\w)" if re.match(r"\w", old[-1]) else ""
    return re.compile(head + re.escape(old) + tail)


def apply_edits(action: str, edits: list[RecordEdit]) -> str:
    """Each edit in order replaces the first occurrence of `old` that does not split a word, if any."""
    for edit in edits:
        if not edit.old:
            continue
        match = _boundary_pattern(edit.old).search(action)
        if match is not None:
            action = action[: match.start()] + edit.new + action[match.end() :]
    return action


def apply_record(action: str, record: RenderedRecord) -> str:
    """`action` with the record's Mistake -> Correction edits applied where they occur."""
    return apply_edits(action, record_edits(record.original, record.improved))


def _record_key(record: RenderedRecord) -> tuple[str, str, str]:
    return record.record_id, record.original, record.improved


class SimulatedLLM:
    """The simulated backbone (module docstring). `seed` only names the model, so caches keep seeds apart."""

    backend = "simulated"

    def __init__(
        self,
        naive_action: NaiveActionFunction,
        *,
        generator_policy: GeneratorPolicy | None = None,
        is_generator_prompt: GeneratorDetector | None = None,
        seed: int = 0,
        model: str = "simulated",
        language: str = "",
    ) -> None:
        if (generator_policy is None) != (is_generator_prompt is None):
            raise ConfigError(
                "give generator_policy and is_generator_prompt together (or neither): "
                "one without the other cannot answer the generator"
            )
        self._naive_action = naive_action
        self._generator_policy = generator_policy
        self._is_generator_prompt = is_generator_prompt
        self.seed = seed
        self.model = f"{model}-s{seed}"
        self.language = language

    @property
    def name(self) -> str:
        return f"{self.backend}:{self.model}"

    def count_tokens(self, text: str) -> int:
        """The scripted word rule, matching this backend's usage."""
        return len(text.split())

    def complete(self, messages: list[Message], params: GenerationParams | None = None) -> Completion:
        messages = list(messages)
        policy, detector = self._generator_policy, self._is_generator_prompt
        if policy is not None and detector is not None and detector(messages):
            text = policy(messages)
        else:
            text = self.agent_reply(messages)
        reply = ScriptedReply(text=text)
        return Completion(
            text=text, usage=scripted_usage(messages, reply), model=self.model, backend=self.backend
        )

    def agent_reply(self, messages: list[Message]) -> str:
        """The ReAct answer to `messages` (turn logic in the module docstring)."""
        users = [m.content for m in messages if m.role == "user"]
        if not users:
            raise LLMError("the simulated backbone needs a user message that states the task")
        naive = self._naive_action(users[0])
        if naive is None:
            raise LLMError(
                "the simulated backbone does not know this task: its naive-action map has no entry for "
                f"the first user message (starting {users[0][:80]!r}); build it for these tasks"
            )
        seen: set[tuple[str, str, str]] = set()
        checked = naive
        for text in users[:-1]:
            checked = self._apply_new(checked, text, seen)
        last = users[-1]
        current = self._apply_new(checked, last, seen)
        if len(users) == 1:
            return self._answer("check", current, "I write the query as I usually would.")
        if last.startswith(PASSED_PREFIX):
            return "Thought: The check passed, so I submit it.\nAction: submit"
        if last.startswith(FAILED_PREFIX):
            if current != checked:
                return self._answer("check", current, "I apply the verified correction offered to me.")
            return self._answer("submit", current, "I see no other way to write it, so I submit it.")
        return self._answer("check", current, "I check my query.")

    def _apply_new(self, action: str, text: str, seen: set[tuple[str, str, str]]) -> str:
        for record in parse_record_texts(text):
            key = _record_key(record)
            if key in seen:
                continue
            seen.add(key)
            action = apply_record(action, record)
        return action

    def _answer(self, verb: str, action: str, thought: str) -> str:
        return f"Thought: {thought}\nAction: {verb}\n```{self.language}\n{action}\n```"
