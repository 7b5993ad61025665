"""One small hierarchy of named errors.

Control flow in the agents uses a few of these on purpose (as mini-swe-agent does): a caller
can catch `CountermemError` for "something we know how to describe went wrong" and let every
other exception mean a bug.
"""

from __future__ import annotations


class CountermemError(Exception):
    """Base of every error countermem raises on purpose; the message says what to do."""


class ConfigError(CountermemError):
    """A flag, a config file or an argument is wrong."""


class LLMError(CountermemError):
    """A language-model backend failed after its retries."""


class LLMUnreachableError(LLMError):
    """The model server could not be reached at all."""


class LLMRequestRejectedError(LLMError):
    """The model server refused the request in a way that will repeat (HTTP 4xx other than 408/429).

    A wrong base URL, model name or API key fails every call alike, so a run must stop and say so
    rather than record each task as a failure that `--resume` would keep.
    """


class LLMServerFaultError(LLMError):
    """The model server failed in a way that says nothing about the task: 429/5xx/time-outs until
    the retries ran out, or a 200 reply that is not a chat completion (not JSON, an HTML page, no
    choices, no message).

    A fault of the server is not a result of the agent, so it is never recorded as a failed task:
    the run stops, the task in flight stays unfinished, and `--resume` redoes it.
    """


class ResponseCacheError(LLMError):
    """The response cache in front of the model failed (its file deleted, unwritable, locked for
    good). Measured once: a cache folder deleted during a run failed its 26 remaining tasks, each
    recorded as the agent's failure. A fault of this machine says nothing about the task."""


BACKBONE_FAULTS: tuple[type[LLMError], ...] = (
    LLMUnreachableError, LLMRequestRejectedError, LLMServerFaultError, ResponseCacheError,
)
"""The backend errors that stop a run (or a study) instead of failing one task: each says the
server or the cache in front of it, not the agent, went wrong, and leaves the task in flight for
`--resume`."""


class ModelIntegrityError(CountermemError):
    """Model bytes did not match their pinned size or sha256; they are refused."""


class ModelUnavailableError(CountermemError):
    """A model is not in the local cache (and could not be fetched)."""


class DataUnavailableError(CountermemError):
    """A benchmark's data is missing or does not match its recorded checksum."""


class CheckerUnavailableError(CountermemError):
    """A world model's executable checker (solver, proof checker, sandbox) is not installed."""


class SandboxError(CountermemError):
    """Untrusted code cannot be run safely here."""


class ParseError(CountermemError):
    """An LLM answer does not follow the documented output contract."""


class StoreError(CountermemError):
    """The memory store is missing, corrupt, frozen, or was given a bad record."""


class WorldModelError(CountermemError):
    """A world model broke its contract: a check that returned no valid `CheckResult` (a utility
    that is not a finite number in [0, 1]), or one that did not return within its time limit."""


class ArtifactMismatchError(CountermemError):
    """A stage artifact's content hash does not match its manifest."""


class ClusterUnavailableError(CountermemError):
    """The study's Ray executor cannot run: ray is not installed, the address is malformed, or no
    Ray cluster answers there."""


class BudgetExceededError(CountermemError):
    """A step, token or call budget ran out."""


class UnviewablePathError(CountermemError):
    """`countermem view` was given a path that is not a memory store, a run folder or a study folder."""
