"""Where benchmark data lives, and checksum verification against each folder's SOURCE.md.

Data is read from a data root holding one folder per benchmark, each with a SOURCE.md that
lists `| file | bytes | sha256 |`. The root is `$COUNTERMEM_DATA_DIR`, else the first
`shared/data` found beside the working directory or one of its parents (the layout of this
project's checkouts). A folder missing there is looked up in the fetch cache, and downloaded into it
only when fetching is switched on (`_fetch`). A file that does not match its recorded checksum is
refused, so a run never scores against silently different data.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

from countermem.core import DataUnavailableError
from countermem.core import sha256_file as core_sha256_file

DATA_ENV = "COUNTERMEM_DATA_DIR"
NOT_FETCHED_HEADING = "## Not fetched (cannot be rebuilt byte for byte from the source)"
"""The SOURCE.md section where a fetched folder says which files it lacks and why (`_fetch`)."""
_NOT_FETCHED_LINE = re.compile(r"^- `(?P<file>[^`]+)`: (?P<reason>.+)$")
_ROW = re.compile(r"^\|\s*([^|\s][^|]*?)\s*\|\s*([\d,]+)\s*\|\s*([0-9a-f]{64})\s*\|\s*$")


def find_data_root() -> Path | None:
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env).expanduser().resolve()
    starts = [Path.cwd(), Path(__file__).resolve().parent]
    for start in starts:
        for folder in (start, *start.parents):
            candidate = folder / "shared" / "data"
            if candidate.is_dir():
                return candidate
            sibling = folder.parent / "shared" / "data"
            if sibling.is_dir():
                return sibling
    return None


def dataset_dir(name: str, *, fetch: bool | None = None) -> Path:
    """The benchmark's data folder: the data root's copy, else a fetched copy in the cache.

    Only with `fetch=True` or `$COUNTERMEM_FETCH=1` does a missing folder get downloaded from its original
    source (see `_fetch`); by default nothing touches the network.
    """
    root = find_data_root()
    if root is not None and (root / name / "SOURCE.md").is_file():
        return root / name
    from countermem.domains._fetch import FETCH_ENV, cache_root, fetch_dataset, fetch_enabled

    cached = cache_root() / name
    if (cached / "SOURCE.md").is_file():
        return cached
    if fetch_enabled(fetch):
        return fetch_dataset(name).folder
    hint = (
        f"; or set ${FETCH_ENV}=1 (or pass fetch=True) to download it from its original source into {cached}"
    )
    if root is None:
        raise DataUnavailableError(
            f"no data root found for {name!r}: set ${DATA_ENV} to a folder that holds "
            f"'{name}/SOURCE.md' (this project's checkouts use ../shared/data)" + hint
        )
    raise DataUnavailableError(f"{root / name} has no SOURCE.md: benchmark {name!r} data is missing" + hint)


def recorded_checksums(folder: Path) -> dict[str, tuple[int, str]]:
    """`relative path -> (bytes, sha256)` as the folder's SOURCE.md records them."""
    table: dict[str, tuple[int, str]] = {}
    for line in (folder / "SOURCE.md").read_text(encoding="utf-8").splitlines():
        match = _ROW.match(line.strip())
        if match:
            table[match.group(1).strip("` ")] = (
                int(match.group(2).replace(",", "")),
                match.group(3),
            )
    return table


def not_fetched_reasons(folder: Path) -> dict[str, str]:
    """`relative path -> why the folder lacks it`, from the section a fetched folder's SOURCE.md has."""
    source = folder / "SOURCE.md"
    if not source.is_file():
        return {}
    reasons: dict[str, str] = {}
    inside = False
    for line in source.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            inside = line == NOT_FETCHED_HEADING
        elif inside and (match := _NOT_FETCHED_LINE.match(line)):
            reasons[match.group("file")] = match.group("reason")
    return reasons


@lru_cache(maxsize=256)
def _sha256(path: Path, size: int, mtime_ns: int) -> str:
    return core_sha256_file(path)


def sha256_file(path: Path) -> str:
    stat = path.stat()
    return _sha256(path, stat.st_size, stat.st_mtime_ns)


def verified_file(folder: Path, relative: str) -> Path:
    """Return `folder/relative` after checking it against SOURCE.md; raise with the reason if not."""
    path = folder / relative
    if not path.is_file():
        reason = not_fetched_reasons(folder).get(relative)
        raise DataUnavailableError(f"{path} is missing" + (f": {reason}" if reason else ""))
    expected = recorded_checksums(folder).get(relative)
    if expected is None:
        raise DataUnavailableError(f"{folder}/SOURCE.md records no checksum for {relative}")
    size, digest = expected
    if path.stat().st_size != size or sha256_file(path) != digest:
        raise DataUnavailableError(
            f"{path} does not match its SOURCE.md checksum (expected {size} bytes, sha256 {digest})"
        )
    return path
