"""Derive the int8-compute MiniLM file from the pinned ONNX file, once, next to it.

Why. The pinned `model.onnx` stores its weights as int8 but multiplies in float: every MatMul
reads a weight that a Cast and a Mul turn back into float32, so onnxruntime folds them into float
constants and runs a float network (about as slow as torch, and as exact: cosine 0.999 with it).
onnxruntime's dynamic quantization turns the 36 weight MatMuls into MatMulInteger, which quantizes
the activations per run and multiplies in int8 with the CPU's integer dot-product instructions:
about twice as fast here, at a cosine of about 0.99 with torch MiniLM (per-channel weight scales;
per-tensor scales fell to 0.94, so they are not used).

How. (1) onnxruntime with basic graph optimisation writes the constant-folded float graph;
(2) `quantize_dynamic(per_channel=True, weight_type=QInt8)` writes the int8 one. Both steps are
deterministic for fixed onnxruntime and onnx versions (the `onnx` extra pins them). The input is
only ever the pinned, verified file; the output sits in the models directory with a stamp naming
the source sha256, both versions, and the output's size, mtime and sha256, and is re-derived
(about 3 s) whenever any of them differs.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import logging
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from countermem.core import sha256_file
from countermem.memory._embedding import EmbedderUnavailableError

DERIVED_NAME = "all-MiniLM-L6-v2-dynamic-int8.onnx"
_STAMP_SUFFIX = ".derived.json"


def _module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise EmbedderUnavailableError(
            f"deriving the int8-compute ONNX model needs onnxruntime and onnx ({error}); install the "
            "`onnx` extra (pip install 'countermem[onnx]')"
        ) from error


def _versions() -> dict[str, str]:
    return {
        "onnxruntime": str(_module("onnxruntime").__version__),
        "onnx": str(_module("onnx").__version__),
    }


def derived_path(source: Path) -> Path:
    return source.with_name(DERIVED_NAME)


@contextlib.contextmanager
def _quiet_root_logger() -> Iterator[None]:
    """quantize_dynamic warns through the root logger; a NullHandler keeps it from configuring logging."""
    root = logging.getLogger()
    handler, level = logging.NullHandler(), root.level
    root.addHandler(handler)
    root.setLevel(logging.ERROR)
    try:
        yield
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def _stamp(source_sha256: str, target: Path) -> dict[str, object]:
    stat = target.stat()
    return {
        "source_sha256": source_sha256,
        **_versions(),
        "size": stat.st_size,
        "mtime_ns": stat.st_mtime_ns,
        "sha256": sha256_file(target),
    }


def _current(source_sha256: str, target: Path) -> dict[str, object] | None:
    stamp_file = target.with_name(target.name + _STAMP_SUFFIX)
    try:
        stamp = json.loads(stamp_file.read_text())
        stat = target.stat()
    except (OSError, ValueError):
        return None
    expected = {
        "source_sha256": source_sha256,
        **_versions(),
        "size": stat.st_size,
        "mtime_ns": stat.st_mtime_ns,
    }
    if any(stamp.get(key) != value for key, value in expected.items()):
        return None
    return dict(stamp)


def dynamic_int8_model(source: Path, source_sha256: str) -> tuple[Path, str]:
    """The int8-compute file derived from the verified `source` and its sha256 (derived if stale)."""
    target = derived_path(source)
    stamp = _current(source_sha256, target)
    if stamp is not None:
        return target, str(stamp["sha256"])
    try:
        return _derive(source, source_sha256, target)
    except OSError as error:
        raise EmbedderUnavailableError(
            f"could not write the int8-compute model next to {source} ({error}); make that folder "
            "writable ($COUNTERMEM_HOME/models), or use --embedder onnx"
        ) from error


def _derive(source: Path, source_sha256: str, target: Path) -> tuple[Path, str]:
    ort = _module("onnxruntime")
    quantization = _module("onnxruntime.quantization")
    with tempfile.TemporaryDirectory(prefix=".derive-onnx-", dir=source.parent) as scratch:
        folded = Path(scratch) / "folded.onnx"
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.optimized_model_filepath = str(folded)
        options.log_severity_level = 3
        ort.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])
        quantized = Path(scratch) / target.name
        with _quiet_root_logger():
            quantization.quantize_dynamic(
                str(folded), str(quantized), per_channel=True, weight_type=quantization.QuantType.QInt8
            )
        os.replace(quantized, target)
    stamp = _stamp(source_sha256, target)
    target.with_name(target.name + _STAMP_SUFFIX).write_text(json.dumps(stamp))
    return target, str(stamp["sha256"])
