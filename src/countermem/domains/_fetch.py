"""Fetch a benchmark's data from its original source into a local cache, verifying every byte.

Only for people who are online and have no copy of the data: nothing here runs unless asked
(`$COUNTERMEM_FETCH=1`, `dataset_dir(name, fetch=True)` or `fetch_dataset`). Each file is streamed to a
temporary file beside its destination. Its size and sha256 are checked, and only then is it moved into
place with an atomic rename, so a folder never holds a half-written or unverified file. A file that
already passes its check is not downloaded again, so an interrupted fetch resumes where it stopped. The
folder's SOURCE.md (the checksum table `verified_file` reads) is written last, so a folder with a
SOURCE.md holds every file that can be fetched.

The default source is raw files on GitHub at the commits SOURCE.md names (see `_sources`). Those URLs
could not be tried from the machine this was written on (it has no internet access). The tests run the
whole path against a local HTTP server. `$COUNTERMEM_FETCH_BASE_URL`, or the `base_url` argument, points
the fetcher at any server with the same `<owner>/<repo>/<commit>/<path>` layout (a mirror).
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import os
import shutil
import subprocess
import tempfile
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Literal

from countermem.core import DataUnavailableError
from countermem.domains._data import DATA_ENV
from countermem.domains._sources import GITHUB_RAW, SOURCES, DatasetSource, SourceFile, Transform

FETCH_ENV = "COUNTERMEM_FETCH"
HOME_ENV = "COUNTERMEM_HOME"
BASE_URL_ENV = "COUNTERMEM_FETCH_BASE_URL"
DEFAULT_TIMEOUT_S = 60.0
_CHUNK = 1 << 16
_UNKNOWN_SIZE_LIMIT = 1 << 30

Event = Literal["skip", "start", "progress", "done", "unavailable"]


@dataclass(frozen=True)
class FetchProgress:
    """One step of a fetch, for a progress bar: which file, and how many bytes of it have arrived."""

    dataset: str
    relative: str
    event: Event
    file_index: int
    file_count: int
    received: int = 0
    expected: int | None = None


ProgressCallback = Callable[[FetchProgress], None]


@dataclass(frozen=True)
class FetchReport:
    name: str
    folder: Path
    downloaded: tuple[str, ...]
    already_verified: tuple[str, ...]
    unavailable: tuple[tuple[str, str], ...] = field(default=())


def fetch_enabled(fetch: bool | None = None) -> bool:
    """An explicit argument wins; otherwise `$COUNTERMEM_FETCH=1` turns fetching on."""
    if fetch is not None:
        return fetch
    return os.environ.get(FETCH_ENV, "").strip() == "1"


def cache_root() -> Path:
    """`$COUNTERMEM_HOME/data`, else `~/.cache/countermem/data`."""
    home = os.environ.get(HOME_ENV)
    base = Path(home).expanduser() if home else Path.home() / ".cache" / "countermem"
    return (base / "data").resolve()


def fetch_dataset(
    name: str,
    *,
    destination: Path | None = None,
    base_url: str | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
    progress: ProgressCallback | None = None,
    sources: dict[str, DatasetSource] | None = None,
) -> FetchReport:
    """Fill `destination` (default `cache_root()/name`) with the dataset's fetchable files, then SOURCE.md.

    Raises DataUnavailableError when the dataset is unknown, when none of its files can be fetched
    faithfully (with each reason), or when any download fails or does not match its checksum.
    """
    table = SOURCES if sources is None else sources
    source = table.get(name)
    if source is None:
        raise DataUnavailableError(
            f"no known original source for benchmark data {name!r} (known: {', '.join(sorted(table))})"
        )
    if not source.fetchable:
        reasons = "; ".join(f"{f.relative}: {f.unavailable}" for f in source.files)
        raise DataUnavailableError(
            f"{name!r} cannot be fetched from its original source, because no stored file can be rebuilt "
            f"from it byte for byte ({reasons}). Get the prepared folder and point ${DATA_ENV} at its parent"
        )
    folder = (destination or cache_root() / name).resolve()
    base = base_url or os.environ.get(BASE_URL_ENV) or GITHUB_RAW
    downloaded: list[str] = []
    verified: list[str] = []
    count = len(source.files)
    for index, entry in enumerate(source.files):
        emit = partial(_emit, progress, name, entry.relative, index, count)
        if not entry.fetchable:
            emit("unavailable")
            continue
        target = folder / entry.relative
        if _matches(target, entry.size, entry.sha256):
            verified.append(entry.relative)
            emit("skip", entry.size, entry.size)
            continue
        emit("start", 0, entry.source_size if entry.transform is not Transform.NONE else entry.size)
        download_verified(entry.url(base), target, entry, timeout=timeout, on_bytes=partial(emit, "progress"))
        downloaded.append(entry.relative)
        emit("done", entry.size, entry.size)
    _write_atomic(folder / "SOURCE.md", render_source_md(source).encode("utf-8"))
    return FetchReport(
        name,
        folder,
        tuple(downloaded),
        tuple(verified),
        tuple((f.relative, f.unavailable or "") for f in source.unfetchable),
    )


def download_verified(
    url: str,
    target: Path,
    entry: SourceFile,
    *,
    timeout: float = DEFAULT_TIMEOUT_S,
    on_bytes: Callable[[int, int | None], None] | None = None,
) -> None:
    """Download `url`, rebuild `entry` from it, check size and sha256, then rename into `target`.

    On any failure every temporary file is removed and `target` is left as it was.
    """
    created = [p for p in (target.parent, *target.parent.parents) if not p.exists()]
    target.parent.mkdir(parents=True, exist_ok=True)
    if entry.transform is Transform.NONE:
        raw_expected: tuple[int | None, str | None] = (entry.size, entry.sha256)
    else:
        raw_expected = (entry.source_size, entry.source_sha256)
    placed = False
    temps: list[Path] = []
    try:
        raw = _temp_beside(target, temps)
        size, digest = _stream(url, raw, raw_expected[0], timeout, on_bytes)
        if raw_expected[0] is not None and raw_expected[1] is not None:
            _check(entry.relative, url, "downloaded", raw_expected[0], raw_expected[1], size, digest)
        final = raw
        if entry.transform is not Transform.NONE:
            final = _temp_beside(target, temps)
            _compress(entry, raw, final)
            size, digest = final.stat().st_size, _sha256_path(final)
        hint = ""
        if entry.transform is not Transform.NONE and entry.source_sha256 is not None:
            hint = f"; the source bytes matched, so this {entry.transform.value} compressor writes different bytes"
        _check(entry.relative, url, "stored", entry.size, entry.sha256, size, digest, hint)
        os.replace(final, target)
        temps.remove(final)
        placed = True
    finally:
        for temp in temps:
            temp.unlink(missing_ok=True)
        if not placed:
            for folder in created:
                with contextlib.suppress(OSError):
                    folder.rmdir()


def render_source_md(source: DatasetSource) -> str:
    """The SOURCE.md of a fetched folder: origins, what was not fetched and why, and the checksum table.

    The table lists every file of the prepared folder, fetched or not, so a file obtained elsewhere and
    dropped in later is checked against the same sha256 as the shared copy.
    """
    lines = [
        f"# {source.name}: fetched from the original source",
        "",
        f"{source.summary}. Written by countermem.domains._fetch; every file below that is present was",
        "checked against the sha256 recorded here before it was moved into place.",
        "",
        "## Origin",
        *(f"- {o.repository}, commit {o.commit}" for o in source.origins),
    ]
    transformed = [f for f in source.fetchable if f.transform is not Transform.NONE]
    if transformed:
        kinds = sorted({f.transform.value for f in transformed})
        lines += [
            "",
            f"`.gz` files: the source file compressed here ({', '.join(kinds)}), level 9, no name/mtime.",
        ]
    if source.unfetchable:
        lines += ["", "## Not fetched (cannot be rebuilt byte for byte from the source)"]
        lines += [f"- `{f.relative}`: {f.unavailable}" for f in source.unfetchable]
    lines += ["", "## Files", "| file | bytes | sha256 |", "| --- | --- | --- |"]
    lines += [f"| {f.relative} | {f.size} | {f.sha256} |" for f in source.files]
    if source.extra_checksums:
        lines += [
            "",
            "Source files before compression:",
            "",
            "| db_id | bytes | sha256 |",
            "| --- | --- | --- |",
        ]
        lines += [f"| {key} | {size} | {digest} |" for key, size, digest in source.extra_checksums]
    return "\n".join(lines) + "\n"


def _emit(
    progress: ProgressCallback | None,
    name: str,
    relative: str,
    index: int,
    count: int,
    event: Event,
    received: int = 0,
    expected: int | None = None,
) -> None:
    if progress is not None:
        progress(FetchProgress(name, relative, event, index, count, received, expected))


def _matches(path: Path, size: int, sha256: str) -> bool:
    return path.is_file() and path.stat().st_size == size and _sha256_path(path) == sha256


def _sha256_path(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _temp_beside(target: Path, temps: list[Path]) -> Path:
    handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    os.close(handle)
    temps.append(Path(name))
    return Path(name)


def _stream(
    url: str,
    path: Path,
    expected: int | None,
    timeout: float,
    on_bytes: Callable[[int, int | None], None] | None,
) -> tuple[int, str]:
    limit = expected if expected is not None else _UNKNOWN_SIZE_LIMIT
    digest = hashlib.sha256()
    received = 0
    request = urllib.request.Request(url, headers={"User-Agent": "countermem-fetch"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response, path.open("wb") as out:
            while block := response.read(_CHUNK):
                received += len(block)
                if received > limit:
                    raise DataUnavailableError(
                        f"{url} sent more than the expected {limit} bytes; refused and deleted"
                    )
                digest.update(block)
                out.write(block)
                if on_bytes is not None:
                    on_bytes(received, expected)
    except urllib.error.HTTPError as error:
        raise DataUnavailableError(f"could not fetch {url}: HTTP {error.code} {error.reason}") from error
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise DataUnavailableError(
            f"could not fetch {url}: {reason} (offline? set ${BASE_URL_ENV} to a mirror, or use local data)"
        ) from error
    return received, digest.hexdigest()


def _check(
    relative: str, url: str, what: str, size: int, sha256: str, got_size: int, got_sha256: str, hint: str = ""
) -> None:
    if got_size == size and got_sha256 == sha256:
        return
    raise DataUnavailableError(
        f"{relative}: {what} bytes from {url} do not match the recorded checksum (expected {size} bytes, "
        f"sha256 {sha256}; got {got_size} bytes, sha256 {got_sha256}); the download was deleted{hint}"
    )


def _compress(entry: SourceFile, raw: Path, out: Path) -> None:
    if entry.transform is Transform.GZIP_PYTHON:
        with (
            raw.open("rb") as src,
            out.open("wb") as sink,
            gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=sink, mtime=0) as packed,
        ):
            shutil.copyfileobj(src, packed)
        return
    program = shutil.which("gzip")
    if program is None:
        raise DataUnavailableError(
            f"{entry.relative} was compressed with GNU gzip (-9 -n) and Python's zlib does not reproduce it "
            "byte for byte; install gzip and fetch again"
        )
    with raw.open("rb") as src, out.open("wb") as sink:
        done = subprocess.run([program, "-9", "-n", "-c"], stdin=src, stdout=sink, stderr=subprocess.PIPE)
    if done.returncode != 0:
        raise DataUnavailableError(f"gzip failed on {entry.relative}: {done.stderr.decode(errors='replace')}")


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temps: list[Path] = []
    try:
        temp = _temp_beside(path, temps)
        temp.write_bytes(data)
        os.replace(temp, path)
        temps.clear()
    finally:
        for temp in temps:
            temp.unlink(missing_ok=True)
