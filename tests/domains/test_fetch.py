"""The fetcher against a local HTTP server (never the internet), and the sources table against SOURCE.md."""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import http.server
import io
import json
import random
import re
import shutil
import tarfile
import threading
import urllib.request
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from countermem.core import CheckerUnavailableError, DataUnavailableError
from countermem.domains import BenchmarkOptions
from countermem.domains._data import dataset_dir, find_data_root, recorded_checksums, verified_file
from countermem.domains._fetch import REGENERATORS, FetchProgress, fetch_dataset, render_source_md
from countermem.domains._sources import (
    GITHUB_RAW,
    SOURCES,
    DatasetSource,
    Origin,
    Regenerate,
    SourceFile,
    Transform,
)

ORIGIN = Origin("someone/bench", "0123456789abcdef0123456789abcdef01234567")


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class _Server:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.requests: list[str] = []
        handler = partial(_Handler, self, directory=str(root))
        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()

    def serve(self, origin: Origin, path: str, data: bytes) -> None:
        target = self.root / origin.repository / origin.commit / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)

    def close(self) -> None:
        self._httpd.shutdown()
        self._thread.join(timeout=5)
        self._httpd.server_close()


class _Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, server_state: _Server, *args: Any, **kwargs: Any) -> None:
        self._state = server_state
        super().__init__(*args, **kwargs)

    def do_GET(self) -> None:
        self._state.requests.append(self.path)
        super().do_GET()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def server(tmp_path: Path) -> Iterator[_Server]:
    root = tmp_path / "origin"
    root.mkdir()
    running = _Server(root)
    yield running
    running.close()


def _toy(server: _Server) -> DatasetSource:
    """Three fetchable files (one stored as Python gzip of its source) and one that cannot be fetched."""
    plain = b'{"question": "1+1?", "answer": "#### 2"}\n'
    nested = bytes(range(256)) * 8
    database = b"SQLite format 3\x00" + b"\x01" * 5000
    packed = _python_gzip(database)
    server.serve(ORIGIN, "data/test.jsonl", plain)
    server.serve(ORIGIN, "data/deep/blob.bin", nested)
    server.serve(ORIGIN, "db/x/x.sqlite", database)
    return DatasetSource(
        "toy",
        "a toy benchmark",
        (ORIGIN,),
        (
            SourceFile("test.jsonl", len(plain), _sha(plain), ORIGIN, "data/test.jsonl"),
            SourceFile("deep/blob.bin", len(nested), _sha(nested), ORIGIN, "data/deep/blob.bin"),
            SourceFile(
                "database/x/x.sqlite.gz",
                len(packed),
                _sha(packed),
                ORIGIN,
                "db/x/x.sqlite",
                Transform.GZIP_PYTHON,
                len(database),
                _sha(database),
            ),
            SourceFile("selected.json", 10, "0" * 64, unavailable="a selection of the source items"),
        ),
    )


def _python_gzip(data: bytes) -> bytes:
    import io

    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=buffer, mtime=0) as packed:
        packed.write(data)
    return buffer.getvalue()


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def test_verified_download_lands_in_cache_with_source_md(server: _Server, tmp_path: Path) -> None:
    source = _toy(server)
    events: list[FetchProgress] = []
    folder = tmp_path / "cache" / "toy"

    report = fetch_dataset(
        "toy",
        destination=folder,
        base_url=server.url,
        sources={"toy": source},
        progress=events.append,
        timeout=5,
    )

    assert report.folder == folder.resolve()
    assert set(report.downloaded) == {"test.jsonl", "deep/blob.bin", "database/x/x.sqlite.gz"}
    assert report.unavailable == (("selected.json", "a selection of the source items"),)
    assert recorded_checksums(folder) == source.checksums()
    for relative in report.downloaded:
        assert verified_file(folder, relative).is_file()
    database = gzip.decompress(verified_file(folder, "database/x/x.sqlite.gz").read_bytes())
    assert database.startswith(b"SQLite format 3")
    with pytest.raises(DataUnavailableError, match="missing"):
        verified_file(folder, "selected.json")
    assert "a selection of the source items" in (folder / "SOURCE.md").read_text(encoding="utf-8")
    assert [p.name for p in _files(folder) if p.name.endswith(".part")] == []
    kinds = {event.event for event in events}
    assert {"start", "progress", "done", "unavailable"} <= kinds
    last_blob = [e for e in events if e.relative == "deep/blob.bin" and e.event == "progress"][-1]
    assert last_blob.received == last_blob.expected == 2048


def test_corrupted_download_is_refused_and_nothing_is_left(server: _Server, tmp_path: Path) -> None:
    good, evil = b"good data\n", b"evil data\n"
    server.serve(ORIGIN, "a.txt", evil)
    source = DatasetSource(
        "toy", "toy", (ORIGIN,), (SourceFile("nested/dir/a.txt", len(good), _sha(good), ORIGIN, "a.txt"),)
    )
    folder = tmp_path / "cache" / "toy"

    with pytest.raises(DataUnavailableError) as caught:
        fetch_dataset("toy", destination=folder, base_url=server.url, sources={"toy": source}, timeout=5)

    message = str(caught.value)
    assert "nested/dir/a.txt" in message
    assert _sha(good) in message and _sha(evil) in message
    assert _files(folder) == []
    assert not (folder / "nested").exists()


def test_corrupted_source_of_a_gzip_file_is_refused_before_compression(
    server: _Server, tmp_path: Path
) -> None:
    database, tampered = b"x" * 300, b"y" * 300
    server.serve(ORIGIN, "db.sqlite", tampered)
    packed = _python_gzip(database)
    entry = SourceFile(
        "db.sqlite.gz",
        len(packed),
        _sha(packed),
        ORIGIN,
        "db.sqlite",
        Transform.GZIP_PYTHON,
        300,
        _sha(database),
    )
    folder = tmp_path / "cache" / "toy"
    with pytest.raises(DataUnavailableError, match=_sha(tampered)):
        fetch_dataset("toy", destination=folder, base_url=server.url, sources=_one(entry), timeout=5)
    assert _files(folder) == []


def test_missing_file_gives_a_clear_error(server: _Server, tmp_path: Path) -> None:
    entry = SourceFile("gone.txt", 3, _sha(b"abc"), ORIGIN, "not/there.txt")
    folder = tmp_path / "cache" / "toy"
    with pytest.raises(DataUnavailableError, match=r"HTTP 404.*") as caught:
        fetch_dataset("toy", destination=folder, base_url=server.url, sources=_one(entry), timeout=5)
    assert f"{server.url}/{ORIGIN.repository}/{ORIGIN.commit}/not/there.txt" in str(caught.value)
    assert _files(folder) == []


def test_unreachable_server_gives_a_clear_error(tmp_path: Path) -> None:
    entry = SourceFile("a.txt", 3, _sha(b"abc"), ORIGIN, "a.txt")
    with pytest.raises(DataUnavailableError, match="could not fetch"):
        fetch_dataset(
            "toy", destination=tmp_path / "t", base_url="http://127.0.0.1:9", sources=_one(entry), timeout=2
        )


def test_verified_files_are_not_downloaded_again(server: _Server, tmp_path: Path) -> None:
    source = _toy(server)
    folder = tmp_path / "cache" / "toy"
    fetch = partial(
        fetch_dataset, "toy", destination=folder, base_url=server.url, sources={"toy": source}, timeout=5
    )

    fetch()
    assert len(server.requests) == 3

    again = fetch()
    assert len(server.requests) == 3
    assert again.downloaded == ()
    assert set(again.already_verified) == {"test.jsonl", "deep/blob.bin", "database/x/x.sqlite.gz"}

    (folder / "deep" / "blob.bin").unlink()
    (folder / "test.jsonl").write_bytes(b"tampered\n")
    resumed = fetch()
    assert set(resumed.downloaded) == {"deep/blob.bin", "test.jsonl"}
    assert len(server.requests) == 5
    verified_file(folder, "test.jsonl")


def test_fetching_is_off_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "data"
    empty.mkdir()
    monkeypatch.setenv("COUNTERMEM_DATA_DIR", str(empty))
    monkeypatch.setenv("COUNTERMEM_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("COUNTERMEM_FETCH", raising=False)
    calls: list[object] = []

    def no_network(*args: object, **kwargs: object) -> None:
        calls.append(args)
        raise AssertionError("the network was touched")

    monkeypatch.setattr(urllib.request, "urlopen", no_network)

    for name in ("spider_en", "minif2f_coq", "gsm8k"):
        with pytest.raises(DataUnavailableError, match=r"COUNTERMEM_FETCH=1.*fetch=True") as caught:
            dataset_dir(name)
        assert str(tmp_path / "home" / "data" / name) in str(caught.value)
    monkeypatch.setenv("COUNTERMEM_FETCH", "0")
    with pytest.raises(DataUnavailableError, match="COUNTERMEM_FETCH=1"):
        dataset_dir("smtlib")
    assert calls == []
    assert not (tmp_path / "home").exists()


def test_dataset_that_cannot_be_fetched_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COUNTERMEM_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("COUNTERMEM_HOME", str(tmp_path / "home"))
    nothing = SourceFile("selected.json", 10, "0" * 64, unavailable="a table with run times in it")
    with pytest.raises(DataUnavailableError, match=r"'toy' cannot be fetched.*run times"):
        fetch_dataset("toy", destination=tmp_path / "toy", sources=_one(nothing))
    with pytest.raises(DataUnavailableError, match="no known original source"):
        dataset_dir("no_such_benchmark", fetch=True)
    assert not (tmp_path / "toy").exists()


def _shared(name: str) -> Path:
    root = find_data_root()
    if root is None or not (root / name / "SOURCE.md").is_file():
        pytest.skip(f"shared benchmark data folder {name!r} is not on this machine")
    return root / name


def _stand_in_source(entry: SourceFile, stored: bytes) -> bytes:
    """Source bytes our stored file could have been made from: stand-ins at the held-out positions.

    The real source files are not on this machine; re-inserting stand-ins and running the fetcher's
    transformation must give back exactly the stored bytes.
    """
    assert entry.held_out is not None
    held = sorted(entry.held_out.indices())
    if entry.transform is Transform.SELECT_LINES:
        kept = iter(stored.split(b"\n")[:-1])
        lines = [b'{"stand_in": %d}' % i if i in held else next(kept) for i in range(entry.held_out.count)]
        return b"\n".join(lines)
    if entry.transform in (Transform.SELECT_JSON_ASCII, Transform.SELECT_JSON_UTF8):
        items = iter(json.loads(stored))
        full = [{"stand_in": i} if i in held else next(items) for i in range(entry.held_out.count)]
        return json.dumps(
            full, indent=4, ensure_ascii=entry.transform is Transform.SELECT_JSON_ASCII
        ).encode()
    assert entry.transform is Transform.REPACK_TAR
    return _tar_with_stand_ins(entry.relative, stored)


def _tar_with_stand_ins(relative: str, stored: bytes) -> bytes:
    """The stored members plus one stand-in per held-out name that SOURCE.md lists, shuffled, as a GNU
    tar at another gzip level (so the rebuild cannot lean on the source's layout)."""
    family = relative.removesuffix(".tar.gz")
    text = (_shared("satlib") / "SOURCE.md").read_text(encoding="utf-8")
    found = re.search(r"Held-out member names per family: (\{.*\})", text)
    assert found is not None
    names = json.loads(found.group(1))[family]
    with tarfile.open(fileobj=io.BytesIO(gzip.decompress(stored))) as archive:
        members = [(m, archive.extractfile(m).read()) for m in archive.getmembers()]  # type: ignore[union-attr]
    for name in names:
        info = tarfile.TarInfo(name)
        data = f"c stand-in for {name}\n".encode()
        info.size = len(data)
        members.append((info, data))
    random.Random(3).shuffle(members)
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz", format=tarfile.GNU_FORMAT, compresslevel=5) as packed:
        for info, data in members:
            packed.addfile(info, io.BytesIO(data))
    return out.getvalue()


def _served_sources(name: str, server: _Server) -> DatasetSource:
    """Serve what the shared copy was made from, and return the sources table with each selection's
    source checksum replaced by that of its stand-in source (the only change)."""
    shared = _shared(name)
    source = SOURCES[name]
    files = []
    for entry in source.files:
        if not entry.downloaded:
            files.append(entry)
            continue
        assert entry.origin is not None and entry.source_path is not None
        stored = (shared / entry.relative).read_bytes()
        if entry.transform is Transform.NONE:
            served = stored
        elif entry.transform in (Transform.GZIP_PYTHON, Transform.GZIP_GNU):
            served = gzip.decompress(stored)
        else:
            served = _stand_in_source(entry, stored)
            entry = dataclasses.replace(entry, source_size=len(served), source_sha256=_sha(served))
        server.serve(entry.origin, entry.source_path, served)
        files.append(entry)
    return dataclasses.replace(source, files=tuple(files))


def _no_coqc(folder: Path, source: DatasetSource) -> bytes:
    raise CheckerUnavailableError("coqc is not on PATH (stand-in for a machine without Coq)")


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_every_dataset_is_rebuilt_from_its_source_through_a_mirror(
    name: str, server: _Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every file of every benchmark: downloaded and rebuilt, regenerated, or missing with its reason."""
    shared = _shared(name)
    if name == "spider_en" and shutil.which("gzip") is None:
        pytest.skip("GNU gzip is not installed; spider_en's .gz files were made with it")
    source = _served_sources(name, server)
    empty = tmp_path / "data"
    empty.mkdir()
    monkeypatch.setenv("COUNTERMEM_DATA_DIR", str(empty))
    monkeypatch.setenv("COUNTERMEM_HOME", str(tmp_path / "home"))
    regenerators = {**REGENERATORS, Regenerate.COQ_CHECK_TABLE: _no_coqc}

    report = fetch_dataset(
        name, base_url=server.url, sources={name: source}, regenerators=regenerators, timeout=10
    )

    folder = report.folder
    assert folder == (tmp_path / "home" / "data" / name).resolve()
    assert len(server.requests) == len(source.downloads) == len(report.downloaded)
    assert recorded_checksums(folder) == recorded_checksums(shared)
    missing = dict(report.unavailable)
    for entry in source.files:
        if entry.relative in missing:
            assert not (folder / entry.relative).exists()
            with pytest.raises(DataUnavailableError, match=r"is missing: .+") as caught:
                verified_file(folder, entry.relative)
            assert missing[entry.relative] in str(caught.value)
            continue
        assert verified_file(folder, entry.relative).read_bytes() == (shared / entry.relative).read_bytes()
    expected_missing = {
        "smtlib": {"index.tsv"},
        "minif2f_coq": {"coq_8.16.1_check.tsv"},
    }.get(name, set())
    assert set(missing) == expected_missing
    assert set(report.regenerated) == {f.relative for f in source.regenerated} - expected_missing
    if name == "smtlib":
        assert "z3 run times" in missing["index.tsv"]
    if name == "minif2f_coq":
        assert "coqc is not on PATH" in missing["coq_8.16.1_check.tsv"]
    monkeypatch.setenv("COUNTERMEM_FETCH", "1")
    assert dataset_dir(name) == folder
    assert len(server.requests) == len(source.downloads)


def test_a_fetched_spider_folder_loads_as_the_benchmark(
    server: _Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from countermem.domains.sql import SpiderBenchmark

    shared = _shared("spider_en")
    if shutil.which("gzip") is None:
        pytest.skip("GNU gzip is not installed; spider_en's .gz files were made with it")
    source = _served_sources("spider_en", server)
    monkeypatch.setenv("COUNTERMEM_DATA_DIR", str(tmp_path / "nowhere"))
    monkeypatch.setenv("COUNTERMEM_HOME", str(tmp_path / "home"))
    folder = fetch_dataset("spider_en", base_url=server.url, sources={"spider_en": source}, timeout=10).folder
    shared_tasks = SpiderBenchmark(BenchmarkOptions(data_dir=shared.parent)).tasks()
    fetched = SpiderBenchmark(BenchmarkOptions(data_dir=folder.parent)).tasks()
    assert [t.id for t in fetched] == [t.id for t in shared_tasks] and len(fetched) > 700
    assert fetched[0].id == "spider-0"


def test_a_regenerated_table_that_does_not_match_is_left_out_with_the_reason(
    server: _Server, tmp_path: Path
) -> None:
    source = _served_sources("spider", server)

    def other_sqlite(folder: Path, source: DatasetSource) -> bytes:
        return REGENERATORS[Regenerate.SPIDER_GOLD_CHECK_DE](folder, source).replace(
            b"syntax error", b"error"
        )

    report = fetch_dataset(
        "spider",
        destination=tmp_path / "spider",
        base_url=server.url,
        sources={"spider": source},
        regenerators={Regenerate.SPIDER_GOLD_CHECK_DE: other_sqlite},
        timeout=10,
    )
    assert report.regenerated == ()
    assert "does not match the recorded checksum" in dict(report.unavailable)["dev_gold_check.tsv"]
    with pytest.raises(DataUnavailableError, match=r"dev_gold_check.tsv is missing: .*does not match"):
        verified_file(report.folder, "dev_gold_check.tsv")
    verified_file(report.folder, "dev.json")


def test_sources_table_agrees_with_every_source_md() -> None:
    root = find_data_root()
    if root is None:
        pytest.skip(
            "no shared benchmark data folder on this machine (looked for $COUNTERMEM_DATA_DIR, shared/data)"
        )
    folders = sorted(p.parent.name for p in root.glob("*/SOURCE.md"))
    if not folders:
        pytest.skip(f"{root} holds no benchmark folders")
    assert set(folders) <= set(SOURCES), "every shared data folder needs an entry in _sources.SOURCES"
    for name in folders:
        assert SOURCES[name].checksums() == recorded_checksums(root / name), name


def test_sources_table_is_consistent() -> None:
    for name, source in SOURCES.items():
        assert source.name == name
        relatives = [f.relative for f in source.files]
        assert len(relatives) == len(set(relatives)), name
        for entry in source.files:
            assert len(entry.sha256) == 64 and entry.size > 0
            if not entry.fetchable:
                assert entry.unavailable
                continue
            if entry.regenerate is not None:
                continue
            assert entry.origin in source.origins
            assert entry.url().startswith(f"{GITHUB_RAW}/{entry.origin.repository}/{entry.origin.commit}/")
            if entry.transform in (Transform.GZIP_GNU, Transform.GZIP_PYTHON, Transform.REPACK_TAR):
                assert entry.relative.endswith(".gz")
            if entry.transform.selects:
                assert entry.held_out is not None and entry.source_size and entry.source_sha256
    made = {
        name: (len(source.downloads), len(source.regenerated), len(source.unfetchable))
        for name, source in SOURCES.items()
    }
    assert made == {
        "gsm8k": (1, 0, 0),
        "math500": (1, 0, 0),
        "mbpp": (1, 0, 0),
        "satlib": (4, 0, 0),
        "minif2f_coq": (489, 1, 0),
        "smtlib": (408, 0, 1),
        "spider_en": (21, 1, 0),
        "spider": (22, 1, 0),
    }


def test_rendered_source_md_parses_back_to_the_table(tmp_path: Path) -> None:
    for source in SOURCES.values():
        folder = tmp_path / source.name
        folder.mkdir()
        (folder / "SOURCE.md").write_text(render_source_md(source), encoding="utf-8")
        assert recorded_checksums(folder) == source.checksums()


def _one(entry: SourceFile) -> dict[str, DatasetSource]:
    return {"toy": DatasetSource("toy", "toy", (ORIGIN,), (entry,))}


def test_gzip_result_is_checked_even_when_the_source_matches(server: _Server, tmp_path: Path) -> None:
    database = b"SQLite format 3\x00" + bytes(range(200)) * 20
    server.serve(ORIGIN, "db.sqlite", database)
    other_compressor = gzip.compress(database, compresslevel=1, mtime=0)
    entry = SourceFile(
        "db.sqlite.gz",
        len(other_compressor),
        _sha(other_compressor),
        ORIGIN,
        "db.sqlite",
        Transform.GZIP_PYTHON,
        len(database),
        _sha(database),
    )
    folder = tmp_path / "cache" / "toy"
    with pytest.raises(DataUnavailableError, match=r"source bytes matched.*gzip-python rebuild"):
        fetch_dataset("toy", destination=folder, base_url=server.url, sources=_one(entry), timeout=5)
    assert _files(folder) == []
