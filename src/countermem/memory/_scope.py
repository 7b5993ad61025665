"""Scopes: which team, project or tenant a record belongs to, and who may read it.

A record carries one scope (`Record.scope`, `default` for every record stored before scopes
existed, so old stores open unchanged). A reader holds a `ScopeAccess`: its own scope, where
everything it learns is written, plus the scopes explicitly shared with it. A store opened with
an access shows that reader nothing else: every read (`all`, `search`, `get`, `stats`, exports,
eviction logs) is filtered in the store object itself, so retrieval, the advice text, the
selector's observation, run reports and the `memory` commands built on it cannot see another
scope's records. A store opened without one is the owner's view of every scope.

Scope names are short, lower-case and printable (`[a-z0-9][a-z0-9._-]*`, at most 64 characters),
so that two spellings of one tenant cannot become two scopes, and a name is safe in a file name,
a log line and a terminal.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from countermem.core import ConfigError

DEFAULT_SCOPE = "default"
"""The scope of a record stored without one (and of every record stored before scopes existed)."""

SCOPE_PATTERN = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")


def validate_scope(name: object, what: str = "scope") -> str:
    """`name` if it is a valid scope name; otherwise a `ConfigError` that says what a name may hold."""
    if not isinstance(name, str) or not SCOPE_PATTERN.fullmatch(name):
        raise ConfigError(
            f"{what} {name!r} is not a valid scope name; use 1 to 64 characters of lower-case letters, "
            "digits, '.', '_' or '-', starting with a letter or digit (e.g. team-a, project.x)"
        )
    return name


class _Scoped(Protocol):
    @property
    def scope(self) -> str: ...


_T = TypeVar("_T", bound=_Scoped)


@dataclass(frozen=True)
class ScopeAccess:
    """What one reader may read (`own` plus `shared`) and where it writes (`own`)."""

    own: str = DEFAULT_SCOPE
    shared: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        validate_scope(self.own, "own scope")
        if isinstance(self.shared, str):
            raise ConfigError(f"shared scopes must be a collection of names, got the string {self.shared!r}")
        names = frozenset(validate_scope(name, "readable scope") for name in self.shared)
        object.__setattr__(self, "shared", names - {self.own})

    @classmethod
    def of(cls, scope: str = DEFAULT_SCOPE, read_scopes: Iterable[str] = ()) -> ScopeAccess:
        return cls(own=scope, shared=frozenset(read_scopes))

    @property
    def readable(self) -> frozenset[str]:
        return self.shared | {self.own}

    def can_read(self, record: _Scoped) -> bool:
        return record.scope in self.readable

    def visible(self, records: Iterable[_T]) -> list[_T]:
        return [r for r in records if r.scope in self.readable]

    def describe(self) -> str:
        shared = ", ".join(sorted(self.shared))
        return f"scope {self.own}" + (f" (also reads {shared})" if shared else "")


def access_of(scope: str | None, read_scopes: Sequence[str] = ()) -> ScopeAccess | None:
    """The access for a command line or config: None (every scope) when neither was given."""
    if scope is None and not read_scopes:
        return None
    return ScopeAccess.of(scope or DEFAULT_SCOPE, read_scopes)


def scope_of(store: object) -> str:
    """The scope records written through `store` get: its reader's own scope, else `default`."""
    access = getattr(store, "access", None)
    return access.own if isinstance(access, ScopeAccess) else DEFAULT_SCOPE
