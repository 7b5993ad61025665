"""What a path given to `countermem view` is: a memory store, a run folder or a study folder.

Decided from the files themselves (a store is an SQLite file countermem can open read-only, a
run folder has a run manifest or results.jsonl, a study folder a manifest of kind `study`), so
that the wrong kind of path is refused with a message saying what was expected, before any page
is drawn.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from countermem.core import StoreError, UnviewablePathError
from countermem.memory import SQLiteStore

ViewKind = Literal["store", "run", "study"]
EXPECTED = "give a memory store file (.sqlite), a run folder (with manifest.json or results.jsonl) or a study folder"


def detect(path: Path) -> ViewKind:
    """The kind of `path`; raises `UnviewablePathError` (saying why) when it is none of them."""
    if not path.exists():
        raise UnviewablePathError(f"{path} does not exist; {EXPECTED}")
    if path.is_file():
        try:
            SQLiteStore(path, read_only=True).close()
        except StoreError as error:
            raise UnviewablePathError(f"a file that is not a memory store: {error}; {EXPECTED}") from error
        return "store"
    if not path.is_dir():
        raise UnviewablePathError(f"{path} is neither a file nor a folder; {EXPECTED}")
    manifest = read_manifest(path)
    if manifest.get("kind") == "study":
        return "study"
    if "config_hash" in manifest or (path / "results.jsonl").is_file():
        return "run"
    raise UnviewablePathError(
        f"{path} is a folder but holds no countermem run or study (no manifest.json of one, no results.jsonl); "
        f"{EXPECTED}"
    )


def read_manifest(folder: Path) -> dict[str, object]:
    """`folder/manifest.json` as a dict; empty when there is none, refused when it is not JSON."""
    path = folder / "manifest.json"
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise UnviewablePathError(f"{path} cannot be read as JSON ({error}); {EXPECTED}") from error
    return data if isinstance(data, dict) else {}
