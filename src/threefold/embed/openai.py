"""Embeddings from any OpenAI-compatible server (OpenAI, OpenRouter, Ollama, vLLM, llama.cpp).

Texts go in batches through ``client.embeddings.create``. Rows are put back in input order
by their ``index`` and L2-normalized. Anything unusable in an answer (a failed request after
the client's own retries, a wrong number of vectors, a dimension other than the declared
or first one, a non-finite value) is an :class:`EmbeddingError`.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np
import openai

from threefold.embed.base import EmbeddingError, check_texts, normalize_rows, valid_utf8
from threefold.errors import SettingsError
from threefold.openai_client import KEYLESS_API_KEY, OwnsClient, client_from_settings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from threefold.settings import EmbedSettings

__all__ = ["OpenAIEmbedder", "KEYLESS_API_KEY"]

"""Sent when the key variable is set but empty: servers without auth ignore it, and the
openai client refuses an empty key."""


class OpenAIEmbedder(OwnsClient):
    """Embedder over an ``openai.OpenAI`` client. Thread-safe.

    `dim` is the expected dimension; if None it is learned from the first answer, and
    reading :attr:`dim` before that sends one probe request. Every later answer must
    keep it. `batch_size` texts go in one request. Vectors are asked for as JSON floats,
    which every compatible server speaks. While the dimension is unknown, an empty input
    gives shape ``(0, 0)`` rather than a request.

    `dimensions` asks the server for vectors of that size (OpenAI's text-embedding-3
    models shorten theirs; servers that cannot, refuse) and is then the expected `dim`.
    """

    def __init__(
        self,
        client: openai.OpenAI,
        model: str,
        dim: int | None = None,
        *,
        batch_size: int = 256,
        dimensions: int | None = None,
    ) -> None:
        if not isinstance(model, str) or not model.strip():
            raise ValueError("model must name the embedding model to use")
        if dim is not None and (not isinstance(dim, int) or dim < 1):
            raise ValueError(f"dim must be a positive int or None, got {dim!r}")
        if not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive int, got {batch_size!r}")
        if dimensions is not None:
            if not isinstance(dimensions, int) or isinstance(dimensions, bool) or dimensions < 1:
                raise ValueError(f"dimensions must be a positive int or None, got {dimensions!r}")
            if dim is not None and dim != dimensions:
                raise ValueError(f"dim {dim} and dimensions {dimensions} disagree")
            dim = dimensions
        self.dimensions = dimensions
        self.client = client
        self.model = model
        self.name = model
        self.batch_size = batch_size
        self._dim = dim
        self._lock = threading.Lock()

    @classmethod
    def from_settings(
        cls,
        base_url: str,
        model: str,
        api_key_env: str | None,
        timeout: float = 30.0,
        **options: Any,
    ) -> OpenAIEmbedder:
        """An embedder with its own client, which :meth:`close` closes.

        The API key is read from the environment variable named `api_key_env`. A variable
        that is not set is a :class:`SettingsError` naming it; one set to the empty
        string, or `api_key_env` None, means a local server that needs no key. The client
        retries twice on its own. `options` go to the constructor (dim, batch_size).
        """
        client = client_from_settings(
            base_url, model, api_key_env, timeout, max_retries=2, purpose="embedding"
        )
        return cls.adopt(client, lambda c: cls(c, model, **options))

    def __repr__(self) -> str:
        return f"OpenAIEmbedder(model={self.model!r}, dim={self._dim!r})"

    @property
    def dim(self) -> int:
        """The dimension; learned with one probe request if neither given nor seen yet."""
        if self._dim is None:
            self.embed(["dimension probe"])
        assert self._dim is not None
        return self._dim

    # -- embedding ----------------------------------------------------------------------

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        items = check_texts(texts)
        if not items:
            return np.zeros((0, self._dim or 0), dtype=np.float32)
        rows = [
            self._embed_batch(items[start : start + self.batch_size])
            for start in range(0, len(items), self.batch_size)
        ]
        return np.concatenate(rows) if len(rows) > 1 else rows[0]

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        # Servers reject empty strings (a blank text is sent as one space instead), and
        # JSON cannot carry lone surrogates.
        inputs = [valid_utf8(text) if text.strip() else " " for text in texts]
        try:
            response = self.client.embeddings.create(
                model=self.model,
                input=inputs,
                encoding_format="float",
                dimensions=openai.omit if self.dimensions is None else self.dimensions,
            )
        except openai.APIStatusError as exc:
            raise EmbeddingError(
                f"embedding model {self.model!r} failed: HTTP {exc.status_code}: "
                f"{_short(exc.message)}"
            ) from exc
        except openai.APIError as exc:
            raise EmbeddingError(
                f"embedding model {self.model!r} failed: {type(exc).__name__}: {_short(str(exc))}"
            ) from exc
        return self._rows(response, len(texts))

    def _rows(self, response: Any, count: int) -> np.ndarray:
        data = list(getattr(response, "data", None) or [])
        if len(data) != count:
            raise EmbeddingError(
                f"embedding model {self.model!r} returned {len(data)} vectors for {count} texts"
            )
        indexes = [item.index for item in data]
        if sorted(indexes) != list(range(count)):
            raise EmbeddingError(
                f"embedding model {self.model!r} returned indexes {indexes[:10]}, "
                f"not 0..{count - 1}"
            )
        try:
            vectors = [item.embedding for item in sorted(data, key=lambda item: item.index)]
            matrix = np.array(vectors, dtype=np.float32)
        except (TypeError, ValueError) as exc:
            raise EmbeddingError(
                f"embedding model {self.model!r} returned vectors of unequal length or "
                f"that are not lists of numbers ({exc})"
            ) from exc
        if matrix.ndim != 2 or matrix.shape[1] == 0:
            raise EmbeddingError(
                f"embedding model {self.model!r} returned vectors of shape {matrix.shape}"
            )
        if not np.isfinite(matrix).all():
            raise EmbeddingError(f"embedding model {self.model!r} returned non-finite values")
        self._check_dim(matrix.shape[1])
        return normalize_rows(matrix)

    def _check_dim(self, dim: int) -> None:
        with self._lock:
            if self._dim is None:
                self._dim = dim
            elif dim != self._dim:
                raise EmbeddingError(
                    f"embedding model {self.model!r} returned {dim}-dimensional vectors, "
                    f"expected {self._dim}"
                )


def build(settings: EmbedSettings) -> OpenAIEmbedder:
    """The ``openai`` entry point: base_url and model must be set (a provider fills them)."""
    if not settings.model:
        raise SettingsError("embedding model must be set for the openai embedder")
    if not settings.base_url:
        raise SettingsError("embedding base_url must be set for the openai embedder")
    return OpenAIEmbedder.from_settings(
        settings.base_url,
        settings.model,
        settings.api_key_env or None,
        settings.timeout_seconds,
        dimensions=settings.dimensions,
    )


def _short(text: str, limit: int = 200) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
