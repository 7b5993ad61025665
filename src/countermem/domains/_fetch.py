"""Fetch a benchmark's data from its original source into a local cache, verifying every byte.

Only for people who are online and have no copy of the data: nothing here runs unless asked
(`$COUNTERMEM_FETCH=1`, `dataset_dir(name, fetch=True)` or `fetch_dataset`). Each file is streamed to a
temporary file beside its destination. Its size and sha256 are checked, and only then is it moved into
place with an atomic rename, so a folder never holds a half-written or unverified file. A file that
already passes its check is not downloaded again, so an interrupted fetch resumes where it stopped. The
folder's SOURCE.md (the checksum table `verified_file` reads) is written last, so a folder with a
SOURCE.md holds every file that can be fetched.

A stored file is rebuilt from its source as `_sources` says (a copy, a gzip, or a selection that drops the
held-out items; the pure functions are in `_rebuild`), and the tables made while preparing a folder are
made again from the fetched files (`REGENERATORS`) once every download is in place. Both kinds pass the
same size and sha256 check as a downloaded copy; a regenerated table that does not match (another SQLite
or Coq version) is left out and its reason written to SOURCE.md, where `verified_file` reports it.

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
import tempfile
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Literal

from countermem.core import CheckerUnavailableError, DataUnavailableError
from countermem.domains import _rebuild
from countermem.domains._data import DATA_ENV, NOT_FETCHED_HEADING
from countermem.domains._sources import GITHUB_RAW, SOURCES, DatasetSource, Regenerate, SourceFile, Transform

FETCH_ENV = "COUNTERMEM_FETCH"
HOME_ENV = "COUNTERMEM_HOME"
BASE_URL_ENV = "COUNTERMEM_FETCH_BASE_URL"
DEFAULT_TIMEOUT_S = 60.0
_CHUNK = 1 << 16
_UNKNOWN_SIZE_LIMIT = 1 << 30

Event = Literal["skip", "start", "progress", "done", "unavailable"]
Regenerator = Callable[[Path, DatasetSource], bytes]
"""Makes a made-here table from the folder's fetched files (already verified), as bytes to be checked."""


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
    """`(file, reason)` for every file the folder lacks: never fetchable, or its regeneration failed."""
    regenerated: tuple[str, ...] = field(default=())


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
    regenerators: Mapping[Regenerate, Regenerator] | None = None,
) -> FetchReport:
    """Fill `destination` (default `cache_root()/name`) with the dataset's files, then SOURCE.md.

    Downloads come first, then the made-here tables are regenerated from them. Raises
    DataUnavailableError when the dataset is unknown, when none of its files can be fetched faithfully
    (with each reason), or when any download fails or does not match its checksum. A table whose
    regeneration fails or does not match is reported in `FetchReport.unavailable` and in SOURCE.md.
    """
    table = SOURCES if sources is None else sources
    makers = REGENERATORS if regenerators is None else regenerators
    source = table.get(name)
    if source is None:
        raise DataUnavailableError(
            f"no known original source for benchmark data {name!r} (known: {', '.join(sorted(table))})"
        )
    if not source.downloads:
        reasons = "; ".join(f"{f.relative}: {f.unavailable}" for f in source.files)
        raise DataUnavailableError(
            f"{name!r} cannot be fetched from its original source, because no stored file can be rebuilt "
            f"from it byte for byte ({reasons}). Get the prepared folder and point ${DATA_ENV} at its parent"
        )
    folder = (destination or cache_root() / name).resolve()
    base = base_url or os.environ.get(BASE_URL_ENV) or GITHUB_RAW
    downloaded: list[str] = []
    verified: list[str] = []
    regenerated: list[str] = []
    failed: dict[str, str] = {}
    count = len(source.files)
    order = [*source.downloads, *source.regenerated, *source.unfetchable]
    for entry in order:
        emit = partial(_emit, progress, name, entry.relative, source.files.index(entry), count)
        if not entry.fetchable:
            emit("unavailable")
            continue
        target = folder / entry.relative
        if _matches(target, entry.size, entry.sha256):
            verified.append(entry.relative)
            emit("skip", entry.size, entry.size)
            continue
        if entry.regenerate is not None:
            emit("start", 0, entry.size)
            reason = _regenerate_verified(entry, folder, source, makers)
            if reason is None:
                regenerated.append(entry.relative)
                emit("done", entry.size, entry.size)
            else:
                failed[entry.relative] = reason
                emit("unavailable")
            continue
        emit("start", 0, entry.source_size if entry.transform is not Transform.NONE else entry.size)
        download_verified(entry.url(base), target, entry, timeout=timeout, on_bytes=partial(emit, "progress"))
        downloaded.append(entry.relative)
        emit("done", entry.size, entry.size)
    _write_atomic(folder / "SOURCE.md", render_source_md(source, failed).encode("utf-8"))
    return FetchReport(
        name,
        folder,
        tuple(downloaded),
        tuple(verified),
        tuple((f.relative, f.unavailable or "") for f in source.unfetchable) + tuple(failed.items()),
        tuple(regenerated),
    )


def _regenerate_verified(
    entry: SourceFile, folder: Path, source: DatasetSource, makers: Mapping[Regenerate, Regenerator]
) -> str | None:
    """Make the table and place it if it matches its checksum; otherwise return why it is missing."""
    assert entry.regenerate is not None
    maker = makers.get(entry.regenerate)
    if maker is None:
        return f"no regenerator for {entry.regenerate.value} is installed"
    try:
        data = maker(folder, source)
    except (DataUnavailableError, CheckerUnavailableError, OSError) as error:
        return f"made while preparing the shared folder; regenerating it here failed: {error}"
    digest = hashlib.sha256(data).hexdigest()
    if len(data) != entry.size or digest != entry.sha256:
        return (
            "made while preparing the shared folder; regenerated here from the fetched files "
            f"({entry.regenerate.describe()}), but the result ({len(data)} bytes, sha256 {digest}) does not "
            f"match the recorded checksum ({entry.size} bytes, sha256 {entry.sha256}), so it was not kept; "
            "a different tool version words its results differently"
        )
    _write_atomic(folder / entry.relative, data)
    return None


def _spider_gold_check(folder: Path, source: DatasetSource) -> bytes:
    from countermem.domains.sql._gold_check import gold_check_table

    dev = next((f for f in source.downloads if f.relative == "dev.json"), None)
    if dev is None or dev.held_out is None:
        raise DataUnavailableError(f"{source.name} has no selected dev.json to run the gold queries of")
    indices = dev.held_out.kept(range(dev.held_out.count), "items")

    def database(db_id: str) -> bytes | None:
        path = folder / "database" / db_id / f"{db_id}.sqlite.gz"
        return gzip.decompress(path.read_bytes()) if path.is_file() else None

    dialect: Literal["en", "de"] = "en" if source.name == "spider_en" else "de"
    return gold_check_table((folder / "dev.json").read_bytes(), indices, database, dialect=dialect)


def _coq_check_table(folder: Path, source: DatasetSource) -> bytes:
    from countermem.domains.fv._check_table import coq_check_table, require_coq_version

    require_coq_version()
    statements = {
        f.relative: (folder / f.relative).read_text(encoding="utf-8")
        for f in source.downloads
        if f.relative.endswith(".v")
    }
    return coq_check_table(statements)


REGENERATORS: Mapping[Regenerate, Regenerator] = {
    Regenerate.SPIDER_GOLD_CHECK_EN: _spider_gold_check,
    Regenerate.SPIDER_GOLD_CHECK_DE: _spider_gold_check,
    Regenerate.COQ_CHECK_TABLE: _coq_check_table,
}
"""The domain code that made each table; imported only when a fetch needs it."""


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
            final.write_bytes(rebuild(entry, raw.read_bytes()))
            size, digest = final.stat().st_size, _sha256_path(final)
        hint = ""
        if entry.transform is not Transform.NONE and entry.source_sha256 is not None:
            hint = (
                f"; the source bytes matched, so this {entry.transform.value} rebuild writes different bytes"
            )
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


def render_source_md(source: DatasetSource, missing: Mapping[str, str] | None = None) -> str:
    """The SOURCE.md of a fetched folder: origins, how each file was made, what is missing and why, and the
    checksum table.

    The table lists every file of the prepared folder, fetched or not, so a file obtained elsewhere and
    dropped in later is checked against the same sha256 as the shared copy. `missing` adds the fetchable
    files that could not be made (a regeneration that failed) to the files that never can be.
    """
    lines = [
        f"# {source.name}: fetched from the original source",
        "",
        f"{source.summary}. Written by countermem.domains._fetch; every file below that is present was",
        "checked against the sha256 recorded here before it was moved into place.",
        "",
        "## Origin",
        *(f"- {o.repository}, commit {o.commit}" for o in source.origins),
        "",
        "## How the files were made",
    ]
    for transform in Transform:
        made = [f for f in source.downloads if f.transform is transform]
        if made:
            example = f"`{made[0].relative}`" + (f" and {len(made) - 1} more" if len(made) > 1 else "")
            lines.append(f"- {example}: {transform.describe()}.")
    for entry in source.downloads:
        if entry.held_out is not None:
            held = entry.held_out
            lines.append(
                f"- `{entry.relative}` leaves out the items at `random.Random({held.seed})"
                f".sample(range({held.count}), {round(held.fraction * held.count)})` (0-based, in source "
                "order; tar members in name order)."
            )
    lines += [
        f"- `{f.relative}`: made here after the fetch: {f.regenerate.describe()}."
        for f in source.regenerated
        if f.regenerate is not None
    ]
    absent = {f.relative: f.unavailable or "" for f in source.unfetchable} | dict(missing or {})
    if absent:
        lines += ["", NOT_FETCHED_HEADING]
        lines += [f"- `{relative}`: {reason}" for relative, reason in absent.items()]
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


def rebuild(entry: SourceFile, source: bytes) -> bytes:
    """The stored file's bytes, made from its source file's bytes by the entry's transformation."""
    transform = entry.transform
    if transform is Transform.NONE:
        return source
    if transform is Transform.GZIP_PYTHON:
        return _rebuild.gzip_python(source)
    if transform is Transform.GZIP_GNU:
        return _rebuild.gzip_gnu(source, entry.relative)
    if entry.held_out is None:
        raise DataUnavailableError(f"{entry.relative}: a {transform.value} needs the held-out draw")
    try:
        if transform is Transform.SELECT_LINES:
            return _rebuild.select_lines(source, entry.held_out)
        if transform is Transform.REPACK_TAR:
            return _rebuild.repack_tar(source, entry.held_out)
        return _rebuild.select_json_array(
            source, entry.held_out, ensure_ascii=transform is Transform.SELECT_JSON_ASCII
        )
    except DataUnavailableError as error:
        raise DataUnavailableError(f"{entry.relative}: {error}") from error


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
