"""A feature-hashing embedder: for tests, and a fallback that needs nothing installed.

Each lowercase word unigram and bigram is hashed with BLAKE2b (not Python's salted
``hash()``), so a text gets the same vector in every process and on every machine. The
hash picks a coordinate and a sign; counts are summed, then the row is L2-normalized.
It matches shared words, not meanings: "car" and "automobile" are unrelated to it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from threefold.embed.base import check_model_name, check_texts, normalize_rows

TYPE_CHECKING = False
if TYPE_CHECKING:
    from threefold.settings import EmbedSettings

__all__ = ["HashingEmbedder"]

_WORD = re.compile(r"\w+", re.UNICODE)


class HashingEmbedder:
    """Deterministic bag of hashed unigrams and bigrams; ``name`` is ``hashing-<dim>``.

    A text with no word characters gets a zero row. Thread-safe (no state).
    """

    fast = True
    """Embeds a query in microseconds: a server need not give it a thread."""

    def __init__(self, dim: int = 256) -> None:
        if not isinstance(dim, int) or isinstance(dim, bool) or not 2 <= dim <= 2**20:
            raise ValueError(f"dim must be an int from 2 to {2**20}, got {dim!r}")
        self.dim = dim
        self.name = f"hashing-{dim}"

    def __repr__(self) -> str:
        return f"HashingEmbedder(dim={self.dim})"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        items = check_texts(texts)
        out = np.zeros((len(items), self.dim), dtype=np.float32)
        for row, text in enumerate(items):
            for feature in _features(text):
                index, sign = self._slot(feature)
                out[row, index] += sign
        return normalize_rows(out)

    def _slot(self, feature: str) -> tuple[int, float]:
        digest = hashlib.blake2b(feature.encode("utf-8", "surrogatepass"), digest_size=8)
        value = int.from_bytes(digest.digest(), "little")
        return (value >> 1) % self.dim, 1.0 if value & 1 else -1.0


def _features(text: str) -> list[str]:
    words = _WORD.findall(text.lower())
    bigrams = [f"{first} {second}" for first, second in zip(words, words[1:], strict=False)]
    return words + bigrams


def build(settings: EmbedSettings) -> HashingEmbedder:
    """The ``hashing`` entry point."""
    embedder = HashingEmbedder()
    check_model_name("hashing", settings.model, embedder.name, settings.dimensions)
    return embedder
