"""The fetcher against a local HTTP server (never the internet), and the sources table against SOURCE.md."""

from __future__ import annotations

import gzip
import hashlib
import http.server
import shutil
import threading
import urllib.request
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from countermem.core import DataUnavailableError
from countermem.domains._data import dataset_dir, find_data_root, recorded_checksums, verified_file
from countermem.domains._fetch import FetchProgress, fetch_dataset, render_source_md
from countermem.domains._sources import GITHUB_RAW, SOURCES, DatasetSource, Origin, SourceFile, Transform

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
    with pytest.raises(DataUnavailableError, match=r"gsm8k.*cannot be fetched.*selection"):
        dataset_dir("gsm8k", fetch=True)
    with pytest.raises(DataUnavailableError, match="no known original source"):
        dataset_dir("no_such_benchmark", fetch=True)


def _shared(name: str) -> Path:
    root = find_data_root()
    if root is None or not (root / name / "SOURCE.md").is_file():
        pytest.skip(f"shared benchmark data folder {name!r} is not on this machine")
    return root / name


@pytest.mark.parametrize("name", ["spider", "spider_en"])
def test_dataset_dir_fetches_real_files_from_a_mirror(
    name: str, server: _Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Serve the source files the shared copy was made from; the fetch must rebuild the shared bytes."""
    shared = _shared(name)
    source = SOURCES[name]
    if any(f.transform is Transform.GZIP_GNU for f in source.fetchable) and shutil.which("gzip") is None:
        pytest.skip("GNU gzip is not installed; spider_en's .gz files were made with it")
    for entry in source.fetchable:
        assert entry.origin is not None and entry.source_path is not None
        stored = (shared / entry.relative).read_bytes()
        served = stored if entry.transform is Transform.NONE else gzip.decompress(stored)
        server.serve(entry.origin, entry.source_path, served)
    empty = tmp_path / "data"
    empty.mkdir()
    monkeypatch.setenv("COUNTERMEM_DATA_DIR", str(empty))
    monkeypatch.setenv("COUNTERMEM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COUNTERMEM_FETCH", "1")
    monkeypatch.setenv("COUNTERMEM_FETCH_BASE_URL", server.url)

    folder = dataset_dir(name)

    assert folder == (tmp_path / "home" / "data" / name).resolve()
    assert len(server.requests) == len(source.fetchable)
    assert recorded_checksums(folder) == recorded_checksums(shared)
    for entry in source.fetchable:
        assert verified_file(folder, entry.relative).read_bytes() == (shared / entry.relative).read_bytes()
    monkeypatch.delenv("COUNTERMEM_FETCH")
    assert dataset_dir(name) == folder
    assert len(server.requests) == len(source.fetchable)


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
            assert entry.origin in source.origins
            assert entry.url().startswith(f"{GITHUB_RAW}/{entry.origin.repository}/{entry.origin.commit}/")
            if entry.transform is not Transform.NONE:
                assert entry.relative.endswith(".gz")
    fetchable = {name: len(source.fetchable) for name, source in SOURCES.items()}
    assert fetchable == {
        "gsm8k": 0,
        "math500": 0,
        "mbpp": 0,
        "satlib": 0,
        "minif2f_coq": 489,
        "smtlib": 408,
        "spider_en": 20,
        "spider": 21,
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
    with pytest.raises(DataUnavailableError, match=r"source bytes matched.*gzip-python compressor"):
        fetch_dataset("toy", destination=folder, base_url=server.url, sources=_one(entry), timeout=5)
    assert _files(folder) == []
