"""Cutting long text for prompts and stored records, shared by core's record format and memory."""

from __future__ import annotations

_HEAD_SHARE = 0.6


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
