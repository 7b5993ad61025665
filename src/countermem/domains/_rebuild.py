"""Pure functions from a source file's bytes to the bytes we store: the fetcher's transformations.

Each one repeats, step for step, how the shared data folder was made from the original file, as that
folder's SOURCE.md describes it, so the result can pass the same sha256 check as the shared copy. They
are pure (bytes in, bytes out) so the tests can run each one offline: re-insert stand-in items at the
held-out positions of our file, run the transformation, and get our bytes back.

The held-out part is never stored here. `HeldOut` recomputes its positions from the documented draw
(`random.Random(seed).sample(range(N), round(fraction * N))`), and a test checks them against the
lists written in each SOURCE.md.
"""

from __future__ import annotations

import gzip
import io
import json
import random
import shutil
import subprocess
import tarfile
import zlib
from collections.abc import Sized
from dataclasses import dataclass

from countermem.core import DataUnavailableError


@dataclass(frozen=True)
class HeldOut:
    """The held-out draw over a source of `count` items (numbered in source order, or tar members in
    name order)."""

    count: int
    seed: int = 7
    fraction: float = 0.2

    def indices(self) -> frozenset[int]:
        return frozenset(
            random.Random(self.seed).sample(range(self.count), round(self.fraction * self.count))
        )

    def kept(self, items: Sized, what: str) -> list[int]:
        """Positions of the items we keep; refuses a source whose item count is not the documented one."""
        if len(items) != self.count:
            raise DataUnavailableError(
                f"the source has {len(items)} {what}, the data folder was made from {self.count}; "
                "it is not the source SOURCE.md names"
            )
        dropped = self.indices()
        return [index for index in range(self.count) if index not in dropped]


def select_lines(source: bytes, held_out: HeldOut) -> bytes:
    """JSON Lines: keep the lines that were not held out, each unchanged and ending in a newline.

    The source's last line may lack its newline (MBPP's does); ours always has one, as SOURCE.md says.
    """
    lines = source.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return b"".join(lines[index] + b"\n" for index in held_out.kept(lines, "lines"))


def select_json_array(source: bytes, held_out: HeldOut, *, ensure_ascii: bool) -> bytes:
    """A JSON array (Spider's dev.json): keep the items that were not held out and write them the way the
    source is written, `json.dumps(items, indent=4)`, ASCII-escaped or not, with no final newline."""
    try:
        items = json.loads(source.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DataUnavailableError(f"the source is not a JSON document: {error}") from error
    if not isinstance(items, list):
        raise DataUnavailableError("the source is not a JSON array")
    kept = [items[index] for index in held_out.kept(items, "items")]
    return json.dumps(kept, indent=4, ensure_ascii=ensure_ascii).encode("utf-8")


def repack_tar(source: bytes, held_out: HeldOut) -> bytes:
    """A SATLIB tarball: its regular members in name order, minus the held-out ones, written as ustar
    (names, bytes, modes, owners and times kept) and gzipped like `gzip_python`."""
    packed = io.BytesIO()
    try:
        if source[:2] == b"\x1f\x8b":
            source = gzip.decompress(
                source
            )  # members are read out of name order: seek in memory, not in gzip
        with (
            tarfile.open(fileobj=io.BytesIO(source), mode="r:*") as archive,
            tarfile.open(fileobj=packed, mode="w", format=tarfile.USTAR_FORMAT) as out,
        ):
            members = sorted((m for m in archive.getmembers() if m.isreg()), key=lambda m: m.name)
            for index in held_out.kept(members, "regular tar members"):
                out.addfile(members[index], archive.extractfile(members[index]))
    except (tarfile.TarError, EOFError, OSError, zlib.error) as error:
        raise DataUnavailableError(f"the source is not a readable tar archive: {error}") from error
    return gzip_python(packed.getvalue())


def gzip_python(data: bytes) -> bytes:
    """Python's gzip at level 9 with no name and mtime 0 (header OS byte 255)."""
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=buffer, mtime=0) as packed:
        packed.write(data)
    return buffer.getvalue()


def gzip_gnu(data: bytes, relative: str) -> bytes:
    """GNU `gzip -9 -n`; zlib at level 9 writes different bytes for some inputs, so nothing replaces it."""
    program = shutil.which("gzip")
    if program is None:
        raise DataUnavailableError(
            f"{relative} was compressed with GNU gzip (-9 -n) and Python's zlib does not reproduce it "
            "byte for byte; install gzip and fetch again"
        )
    done = subprocess.run([program, "-9", "-n", "-c"], input=data, capture_output=True, check=False)
    if done.returncode != 0:
        raise DataUnavailableError(f"gzip failed on {relative}: {done.stderr.decode(errors='replace')}")
    return done.stdout
