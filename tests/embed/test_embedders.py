"""The Embedder contract, checked on every provider."""

from collections.abc import Callable

import numpy as np
import pytest

from tests.openai_fake import FakeOpenAIServer
from threefold.embed import (
    Embedder,
    HashingEmbedder,
    MiniLMEmbedder,
    OpenAIEmbedder,
)
from threefold.embed.static import StaticEmbedder
from threefold.errors import InvalidInput

TEXTS = [
    "The deadline moved to March 27",
    "Raj is the new tech lead",
    "naïve café — 日本語のテキスト 🎉🚀",
    "line one\nline two\ttabbed",
    "NUL\x00inside",
    "lone \ud800 surrogate",
    "x",
]


@pytest.fixture(params=["hashing", "minilm", "static", "openai"])
def embedder(request: pytest.FixtureRequest, vector_server: FakeOpenAIServer) -> Embedder:
    if request.param == "hashing":
        return HashingEmbedder()
    if request.param in ("minilm", "static"):
        return request.getfixturevalue(request.param)
    return OpenAIEmbedder(vector_server.client(), "fake-embed", dim=8)


def test_is_an_embedder(embedder: Embedder) -> None:
    assert isinstance(embedder, Embedder)
    assert isinstance(embedder.name, str) and embedder.name
    assert isinstance(embedder.dim, int) and embedder.dim > 0


def test_shape_dtype_and_unit_rows(embedder: Embedder) -> None:
    vectors = embedder.embed(TEXTS)
    assert vectors.shape == (len(TEXTS), embedder.dim)
    assert vectors.dtype == np.float32
    assert np.isfinite(vectors).all()
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_empty_input(embedder: Embedder) -> None:
    for empty in ([], ()):
        vectors = embedder.embed(empty)
        assert vectors.shape == (0, embedder.dim)
        assert vectors.dtype == np.float32


def test_deterministic_and_order_independent(embedder: Embedder) -> None:
    first = embedder.embed(TEXTS)
    again = embedder.embed(list(reversed(TEXTS)))[::-1]
    one_by_one = np.vstack([embedder.embed([text]) for text in TEXTS])
    np.testing.assert_allclose(first, again, atol=1e-5)
    np.testing.assert_allclose(first, one_by_one, atol=1e-4)


def test_accepts_any_sequence(embedder: Embedder) -> None:
    vectors = embedder.embed(tuple(TEXTS[:2]))
    assert vectors.shape == (2, embedder.dim)


@pytest.mark.parametrize("bad", ["a bare string", ["ok", None], [b"bytes"]])
def test_rejects_non_texts(embedder: Embedder, bad: object) -> None:
    with pytest.raises(InvalidInput):
        embedder.embed(bad)  # type: ignore[arg-type]


def test_very_long_text(embedder: Embedder) -> None:
    long_text = "memory compaction keeps the hard facts. " * 2600  # ~100 KB
    assert len(long_text) > 100_000
    vectors = embedder.embed([long_text, "short"])
    assert vectors.shape == (2, embedder.dim)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_constructors_are_cheap() -> None:
    makers: list[Callable[[], object]] = [MiniLMEmbedder, StaticEmbedder, HashingEmbedder]
    for make in makers:
        instance = make()
        assert getattr(instance, "_session", None) is None
        assert getattr(instance, "_table", None) is None
