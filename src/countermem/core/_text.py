"""Cutting long text for prompts and stored records, and making it safe to print on a terminal."""

from __future__ import annotations

import re

_HEAD_SHARE = 0.6

_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
"""C0 controls but tab and newline, DEL, C1 controls, bidirectional overrides, and lone surrogates."""


def clip_middle(text: str, limit: int) -> tuple[str, bool]:
    """Keep at most `limit` characters: head and tail joined by a marker that says how much was cut."""
    if len(text) <= limit:
        return text, False
    marker_len = len(f"\n[... {len(text)} characters cut ...]\n")
    keep = max(limit - marker_len, 0)
    head = int(keep * _HEAD_SHARE)
    tail = keep - head
    cut = len(text) - head - tail
    marker = f"\n[... {cut} characters cut ...]\n"
    out = text[:head] + marker + (text[len(text) - tail :] if tail else "")
    return out[:limit], True


def terminal_safe(text: str) -> str:
    """`text` with every character that could drive a terminal written out as an escape (`\\x1b`).

    Why: record text, model answers and server replies are untrusted. Printed raw, an ESC sequence
    can clear the screen, retitle the window or hide a line; a carriage return can overwrite what a
    person reads, and a lone surrogate cannot be encoded at all. Newlines and tabs are kept, so
    multi-line actions still read as written. Every console rendering of such text goes through
    this one function.
    """
    return _UNPRINTABLE.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"
