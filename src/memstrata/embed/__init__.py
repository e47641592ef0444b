"""Embeddings: texts to float32 vectors, behind the small :class:`Embedder` protocol.

Providers:

- :class:`MiniLMEmbedder`: all-MiniLM-L6-v2 as int8 ONNX, local and offline (the default);
- :class:`OpenAIEmbedder`: any OpenAI-compatible ``/v1/embeddings`` server;
- :class:`HashingEmbedder`: feature hashing, for tests and as a no-dependency fallback.

Core classes take a ready-made embedder; :func:`build_embedder` makes one from settings.
"""

from __future__ import annotations

from memstrata.embed.base import Embedder, EmbeddingError, normalize_rows
from memstrata.embed.hashing import HashingEmbedder
from memstrata.embed.minilm import MiniLMEmbedder
from memstrata.errors import SettingsError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from memstrata.embed.openai import OpenAIEmbedder

__all__ = [
    "EMBEDDER_KINDS",
    "Embedder",
    "EmbeddingError",
    "HashingEmbedder",
    "MiniLMEmbedder",
    "OpenAIEmbedder",
    "build_embedder",
    "normalize_rows",
]

EMBEDDER_KINDS = ("minilm", "openai", "hashing", "none")


def __getattr__(name: str) -> object:
    # The openai client takes about half a second to import; offline setups never need it.
    if name == "OpenAIEmbedder":
        from memstrata.embed.openai import OpenAIEmbedder

        return OpenAIEmbedder
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def build_embedder(
    kind: str = "minilm",
    *,
    model: str | None = None,
    base_url: str | None = None,
    api_key_env: str | None = None,
    timeout: float = 30.0,
) -> Embedder | None:
    """The embedder named by `kind`, or None for ``"none"`` (no vector search).

    ``"openai"`` needs `model` and `base_url` (see :meth:`OpenAIEmbedder.from_settings`
    for `api_key_env`). ``"minilm"`` and ``"hashing"`` take no options; a `model` given
    with them must be their own name. An unknown kind is a :class:`SettingsError`.
    Nothing is loaded or contacted here: MiniLM loads on its first use.
    """
    normalized = kind.strip().lower() if isinstance(kind, str) else kind
    if normalized == "none":
        return None
    if normalized == "openai":
        if not model:
            raise SettingsError("embedding model must be set for the openai embedder")
        if not base_url:
            raise SettingsError("embedding base_url must be set for the openai embedder")
        from memstrata.embed.openai import OpenAIEmbedder

        return OpenAIEmbedder.from_settings(base_url, model, api_key_env, timeout)
    if normalized == "minilm":
        embedder: Embedder = MiniLMEmbedder()
    elif normalized == "hashing":
        embedder = HashingEmbedder()
    else:
        raise SettingsError(
            f"unknown embedder kind {kind!r}; choose one of {', '.join(EMBEDDER_KINDS)}"
        )
    if model and model != embedder.name:
        raise SettingsError(
            f"embedding model {model!r} does not fit the {normalized} embedder, "
            f"whose model is {embedder.name!r}"
        )
    return embedder
