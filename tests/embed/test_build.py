"""build_embedder: settings to an embedder."""

import pytest

from tests.openai_fake import FakeOpenAIServer
from threefold.embed import (
    EMBEDDER_KINDS,
    HashingEmbedder,
    MiniLMEmbedder,
    OpenAIEmbedder,
    build_embedder,
)
from threefold.errors import SettingsError


def test_default_is_minilm_when_local_is_installed_and_not_loaded() -> None:
    embedder = build_embedder()
    assert isinstance(embedder, MiniLMEmbedder)
    assert embedder._session is None


def test_kinds() -> None:
    assert EMBEDDER_KINDS == ("auto", "minilm", "static", "openai", "hashing", "none")
    assert isinstance(build_embedder("hashing"), HashingEmbedder)
    assert isinstance(build_embedder(" MiniLM "), MiniLMEmbedder)
    assert build_embedder("none") is None


def test_openai(vector_server: FakeOpenAIServer) -> None:
    embedder = build_embedder("openai", model="nomic-embed-text", base_url=vector_server.base_url)
    assert isinstance(embedder, OpenAIEmbedder)
    try:
        assert embedder.embed(["x"]).shape == (1, 8)
        assert embedder.name == "nomic-embed-text"
    finally:
        embedder.close()


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"base_url": "http://127.0.0.1:9/v1"}, "model"),
        ({"model": "m"}, "base_url"),
        ({"model": "m", "base_url": "http://127.0.0.1:9/v1", "api_key_env": "NOPE_KEY"}, "NOPE"),
    ],
)
def test_openai_needs_settings(options: dict, match: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOPE_KEY", raising=False)
    with pytest.raises(SettingsError, match=match):
        build_embedder("openai", **options)


def test_unknown_kind_is_named() -> None:
    with pytest.raises(SettingsError, match="'sentence-bert'.*minilm, static, openai, hashing"):
        build_embedder("sentence-bert")


def test_model_must_fit_local_kinds() -> None:
    assert build_embedder("hashing", model="hashing-256") is not None
    with pytest.raises(SettingsError, match="text-embedding-3-small"):
        build_embedder("minilm", model="text-embedding-3-small")
