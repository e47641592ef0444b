"""The embedding protocol and the helpers every provider shares.

An :class:`Embedder` turns texts into float32 vectors with L2-normalized rows, so a dot
product is a cosine similarity. It declares the model ``name`` and the dimension ``dim``;
stores keep both beside each vector, so vectors of another model are never mixed in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from threefold.errors import InvalidInput, SettingsError, ThreefoldError

__all__ = [
    "Embedder",
    "EmbeddingError",
    "check_model_name",
    "check_texts",
    "normalize_rows",
    "valid_utf8",
    "worth_a_thread",
]


class EmbeddingError(ThreefoldError):
    """An embedding provider failed or answered something unusable."""


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into vectors. Implementations are thread-safe.

    `name` and `dim` are read-only: a plain attribute or a property satisfies them."""

    @property
    def name(self) -> str:
        """The model name, stored beside each vector."""
        ...

    @property
    def dim(self) -> int:
        """The vector dimension."""
        ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """A float32 array of shape ``(len(texts), dim)`` whose rows have L2 norm 1.

        An empty sequence gives shape ``(0, dim)``. A text with no content may give a
        zero row, the only row that is not of norm 1.
        """
        ...


def worth_a_thread(embedder: Embedder | None) -> bool:
    """Whether a query's embedding is slow enough to run on a thread of its own.

    An embedder that says ``fast = True`` (hashing, static: well under a millisecond a
    query) costs less than the hop to another thread, so a server embeds on the way."""
    return embedder is not None and not getattr(embedder, "fast", False)


def check_texts(texts: Sequence[str]) -> list[str]:
    """`texts` as a list, or :class:`InvalidInput` if it is a bare string or holds a non-str."""
    if isinstance(texts, str | bytes):
        raise InvalidInput("embed() takes a sequence of texts, not a single string")
    items = list(texts)
    for index, text in enumerate(items):
        if not isinstance(text, str):
            raise InvalidInput(f"text {index} is a {type(text).__name__}, not a str")
    return items


def valid_utf8(text: str) -> str:
    """`text` with lone surrogates (which UTF-8 cannot carry) replaced by ``?``."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text


def normalize_rows(vectors: np.ndarray) -> np.ndarray:
    """`vectors` as float32 with each row scaled to norm 1; all-zero rows stay zero."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    np.maximum(norms, np.float32(1e-12), out=norms)
    return np.ascontiguousarray(vectors / norms, dtype=np.float32)


def check_model_name(kind: str, asked: str | None, own: str, dimensions: int | None = None) -> None:
    """A :class:`SettingsError` if settings name a model or ask for a dimension other than
    a local embedder's own."""
    if asked and asked != own:
        raise SettingsError(
            f"embedding model {asked!r} does not fit the {kind} embedder, whose model is {own!r}"
        )
    if dimensions is not None:
        raise SettingsError(
            f"embed.dimensions is for the openai embedder; the {kind} embedder's is fixed"
        )
