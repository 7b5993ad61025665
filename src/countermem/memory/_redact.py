"""Secret redaction before a record is stored: trajectories carry whatever the agent saw.

A situation is the agent's trajectory, and an action or a check's details may quote a
connection string, a key from an environment or a user's e-mail. Everything a record keeps as
free text (situation, both actions, rationale, task brief, check details, lesson) is scanned
before the record is built, and each hit is replaced by a typed placeholder such as
`<SECRET:AWS Access Key>` or `<SECRET:e-mail>`; `Record.redactions` counts them by kind.

What is detected: the line-based plugins of Yelp's `detect-secrets` (AWS, GitHub, GitLab, Slack,
Stripe, OpenAI, JWT, private keys, `password = "..."` keywords and the rest of its registry,
with its default filters), except the two high-entropy-string plugins and the public-IP one:
on free text they flag ordinary words (`assert`, `cnf`) and an address is no credential. To
those we add patterns for e-mail addresses, bearer tokens, `sk-...` API keys, PEM private-key blocks and
unquoted `password: value` assignments. A plugin that reports only part of a token (GitHub's
reports the `ghp` prefix) has its hit widened to the whole token, so no tail survives. A
secret found in one field of a record is replaced wherever it recurs in the record's other
fields (a password echoed in an error message carries no keyword of its own).

Redaction never changes what is checked: admission checks the real actions first and redacts
only the copy it stores. A redacted action may therefore no longer reproduce its stored check
result (the placeholder is not the secret), which is the price of not storing the secret.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from countermem.core import ConfigError, clip_middle
from countermem.memory._record import SITUATION_LIMIT, Lesson

PLACEHOLDER = "<SECRET:{kind}>"
_PLACEHOLDER = re.compile(r"<SECRET:[^<>\n]{1,40}>")

_EXCLUDED_PLUGINS = frozenset({"Base64HighEntropyString", "HexHighEntropyString", "IPPublicDetector"})

_PRIVATE_KEY = re.compile(
    r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----.*?(-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|\Z)",
    re.DOTALL,
)
_EMAIL = re.compile(
    r"(?<![\w.+-])[A-Za-z0-9][A-Za-z0-9._+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![\w(]|\.\w)"
)
_API_KEY = re.compile(r"\b(?:sk|rk)-(?:proj-|live-|test-)?[A-Za-z0-9_-]{20,}")
_BEARER = re.compile(r"(?i)\bbearer\s+([A-Za-z0-9\-._~+/]{8,}=*)")
_ASSIGNMENT = re.compile(
    r"(?i)\b[\w-]*(?:password|passwd|pwd|passphrase|secret|api[_-]?key|access[_-]?token|auth[_-]?token)"
    r"[\w-]*[\"']?[ \t]*[:=][ \t]*"
    r"(?:\"([^\"\s]+)\"|'([^'\s]+)'|([^\s\"'()\[\],;]{4,})(?=[\s,;)]|$))"
)
_TOKEN_CHAR = re.compile(r"[A-Za-z0-9_\-./+~!$%*]")

_PRECLIP = 3
"""A situation is cut to this many times `SITUATION_LIMIT` before it is scanned, and to the limit
after: scanning a whole long trajectory would cost a second or more, and a secret cut at the
first, wider cut lies far outside the head and tail the record finally keeps."""

_MIN_ECHO = 6
"""A secret found in one text of a batch (one record) is also replaced wherever it recurs verbatim
in the others, when at least this long: a bare password in a checker's error message has no
keyword to give it away, but it is the same string the assignment gave away."""

_RANK = {"private key": 0, "Private Key": 0, "bearer token": 2, "password": 3, "Secret Keyword": 4, "e-mail": 5}
"""Which kind names a span that several detectors hit (lower wins); detect-secrets' own
specific kinds (AWS, GitHub...) rank 1."""


@dataclass
class Redacted:
    text: str
    counts: Counter[str] = field(default_factory=Counter)


@dataclass(frozen=True)
class _Hit:
    start: int
    end: int
    kind: str


class SecretRedactor:
    """Finds secrets in text and replaces them with typed placeholders (see the module docstring).

    Needs `detect-secrets` (`pip install 'countermem[memory]'`); without it construction fails
    with a ConfigError rather than storing unscanned text, unless redaction is switched off.
    """

    _lock = threading.Lock()
    """detect-secrets keeps its plugin settings in process-global state; one scan at a time."""

    def __init__(self) -> None:
        try:
            from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
        except ImportError as error:
            raise ConfigError(
                f"secret redaction needs the detect-secrets package ({error}): "
                "pip install 'countermem[memory]', or set `[memory] redact = false` to store text unscanned"
            ) from error
        plugins: list[type] = list(get_mapping_from_secret_type_to_class().values())
        names = [plugin.__name__ for plugin in plugins]
        self._plugins = [{"name": name} for name in names if name not in _EXCLUDED_PLUGINS]

    def redact(self, text: str) -> Redacted:
        return self.redact_all([text])[0]

    def redact_all(self, texts: list[str]) -> list[Redacted]:
        from detect_secrets.core.scan import scan_line
        from detect_secrets.settings import transient_settings

        found: list[list[_Hit]] = []
        with self._lock, transient_settings({"plugins_used": self._plugins}):
            for text in texts:
                hits = _pattern_hits(text)
                offset = 0
                for line in text.splitlines(keepends=True):
                    for secret in scan_line(line.rstrip("\r\n")):
                        hits.extend(_located(line, offset, str(secret.secret_value or ""), str(secret.type)))
                    offset += len(line)
                found.append(hits)
        known = {
            text[h.start : h.end]: h.kind
            for text, hits in zip(texts, found, strict=True)
            for h in hits
            if h.end - h.start >= _MIN_ECHO
        }
        for text, hits in zip(texts, found, strict=True):
            hits.extend(_echoes(text, known))
        return [_apply(text, hits) for text, hits in zip(texts, found, strict=True)]


def _pattern_hits(text: str) -> list[_Hit]:
    hits = [_Hit(m.start(), m.end(), "private key") for m in _PRIVATE_KEY.finditer(text)]
    hits += [_Hit(m.start(), m.end(), "e-mail") for m in _EMAIL.finditer(text)]
    hits += [_Hit(m.start(), m.end(), "API key") for m in _API_KEY.finditer(text)]
    for match in _BEARER.finditer(text):
        if any(ch.isdigit() for ch in match.group(1)):
            hits.append(_Hit(match.start(1), match.end(1), "bearer token"))
    for match in _ASSIGNMENT.finditer(text):
        group = next(g for g in (1, 2, 3) if match.group(g) is not None)
        hits.append(_Hit(match.start(group), match.end(group), "password"))
    return hits


def _echoes(text: str, known: dict[str, str]) -> list[_Hit]:
    """Where a secret found anywhere in the batch recurs verbatim, e.g. a password echoed in an error."""
    hits = []
    for value, kind in known.items():
        start = text.find(value)
        while start >= 0:
            hits.append(_Hit(start, start + len(value), kind))
            start = text.find(value, start + len(value))
    return hits


def _located(line: str, offset: int, value: str, kind: str) -> list[_Hit]:
    """Every place `value` occurs in `line`, widened to the whole token around it."""
    if not value.strip():
        return []
    hits = []
    start = line.find(value)
    while start >= 0:
        begin, end = start, start + len(value)
        while begin > 0 and _TOKEN_CHAR.match(line[begin - 1]):
            begin -= 1
        while end < len(line) and _TOKEN_CHAR.match(line[end]):
            end += 1
        while end < len(line) and line[end] == "=":
            end += 1
        hits.append(_Hit(offset + begin, offset + end, kind))
        start = line.find(value, start + len(value))
    return hits


def _apply(text: str, hits: list[_Hit]) -> Redacted:
    kept = [placeholder.span() for placeholder in _PLACEHOLDER.finditer(text)]
    hits = [h for h in hits if h.end > h.start and not any(h.start < e and s < h.end for s, e in kept)]
    merged: list[_Hit] = []
    for hit in sorted(hits, key=lambda h: (h.start, -h.end)):
        if merged and hit.start < merged[-1].end:
            last = merged[-1]
            kind = min((last.kind, hit.kind), key=lambda k: _RANK.get(k, 1))
            merged[-1] = _Hit(last.start, max(last.end, hit.end), kind)
        else:
            merged.append(hit)
    counts: Counter[str] = Counter()
    out = text
    for hit in reversed(merged):
        out = out[: hit.start] + PLACEHOLDER.format(kind=hit.kind) + out[hit.end :]
        counts[hit.kind] += 1
    return Redacted(out, counts)


def redact_record_data(data: dict[str, Any], redactor: SecretRedactor) -> dict[str, Any]:
    """`data` (the fields a `Record` is built from) with every free-text field redacted.

    Call it before `Record(**data)`, so that the content id, truncation and everything stored
    see only redacted text; `redactions` gets the counts added to any it already had.
    """
    data = dict(data)
    slots: list[tuple[str, str | None]] = []
    texts: list[str] = []

    def take(key: str, sub: str | None, value: Any) -> None:
        if isinstance(value, str) and value:
            slots.append((key, sub))
            texts.append(value)

    situation = data.get("situation")
    if isinstance(situation, str) and len(situation) > _PRECLIP * SITUATION_LIMIT:
        data["situation"], _ = clip_middle(situation, _PRECLIP * SITUATION_LIMIT)
        data["situation_truncated"] = True
    for key in ("situation", "rationale", "task_brief"):
        take(key, None, data.get(key))
    for key, sub in (
        ("original_action", "content"), ("improved_action", "content"),
        ("original_check", "details"), ("improved_check", "details"),
    ):
        value = data.get(key)
        take(key, sub, getattr(value, sub, None) if not isinstance(value, dict) else value.get(sub))
    counts: Counter[str] = Counter(data.get("redactions") or {})
    if data.get("lesson") is not None:
        data["lesson"], lesson_counts = redact_lesson(Lesson.model_validate(data["lesson"]), redactor)
        counts.update(lesson_counts)
    results = redactor.redact_all(texts)
    for (key, part), result in zip(slots, results, strict=True):
        counts.update(result.counts)
        if part is None:
            data[key] = result.text
        else:
            value = data[key]
            data[key] = (
                {**value, part: result.text} if isinstance(value, dict)
                else value.model_copy(update={part: result.text})
            )
    data["redactions"] = dict(sorted(counts.items()))
    return data


def redact_lesson(lesson: Lesson, redactor: SecretRedactor) -> tuple[Lesson, Counter[str]]:
    """A lesson with its text, reason, leaked names and check details redacted, and the counts."""
    texts = [lesson.text, lesson.reason, *lesson.leaked]
    details = lesson.check.details if lesson.check is not None else ""
    results = redactor.redact_all([*texts, details])
    counts: Counter[str] = sum((r.counts for r in results), Counter[str]())
    text, reason, *rest = [r.text for r in results]
    leaked, redacted_details = rest[:-1], rest[-1]
    check = lesson.check.model_copy(update={"details": redacted_details}) if lesson.check is not None else None
    return lesson.model_copy(update={"text": text, "reason": reason, "leaked": leaked, "check": check}), counts
