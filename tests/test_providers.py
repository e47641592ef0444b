"""Providers by name: model.provider and embed.provider fill URL, model and key defaults."""

from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.openai_fake import FakeOpenAIServer
from threefold import Memory, load_settings
from threefold.errors import SettingsError
from threefold.settings import PROVIDERS, EmbedSettings, ModelSettings

FACT = '{"facts": [{"text": "Raj is the Lead Architect.", "category": "role", '
FACT += '"subject": "raj", "slot": "role", "value": "lead architect", "confidence": 0.95}]}'


@pytest.fixture(autouse=True)
def _no_openai_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


def test_a_provider_alone_fills_everything_and_picks_the_kind() -> None:
    ollama = ModelSettings(provider="ollama")
    assert (ollama.kind, ollama.base_url, ollama.name, ollama.api_key_env) == (
        "llm",
        "http://127.0.0.1:11434/v1",
        "llama3.1",
        None,
    )
    openai = ModelSettings(provider="openai")
    assert (openai.base_url, openai.name, openai.api_key_env) == (
        "https://api.openai.com/v1",
        "gpt-4o-mini",
        "OPENAI_API_KEY",
    )
    embed = EmbedSettings(provider="openai")
    assert (embed.kind, embed.model, embed.base_url) == (
        "openai",
        "text-embedding-3-small",
        "https://api.openai.com/v1",
    )
    assert EmbedSettings(provider="ollama").model == "nomic-embed-text"


def test_an_explicit_value_wins_over_the_preset() -> None:
    model = ModelSettings(provider="ollama", name="qwen2.5:7b", kind="heuristic")
    assert (model.kind, model.name, model.base_url) == (
        "heuristic",
        "qwen2.5:7b",
        PROVIDERS["ollama"].base_url,
    )
    embed = EmbedSettings(provider="openai", model="text-embedding-3-large", api_key_env="K")
    assert (embed.model, embed.api_key_env) == ("text-embedding-3-large", "K")


def test_providers_come_from_the_environment_and_files(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("THREEFOLD_MODEL__PROVIDER", "ollama")
    monkeypatch.setenv("THREEFOLD_MODEL__NAME", "mistral")
    settings = load_settings()
    assert (settings.model.kind, settings.model.name) == ("llm", "mistral")
    monkeypatch.delenv("THREEFOLD_EMBED__KIND")  # the suite's own explicit kind would win
    config = tmp_path / "threefold.toml"
    config.write_text('[embed]\nprovider = "ollama"\ndimensions = 256\n')
    embed = load_settings(config).embed
    assert (embed.kind, embed.model, embed.dimensions) == ("openai", "nomic-embed-text", 256)


def test_the_old_defaults_no_longer_mix_two_providers() -> None:
    # Before presets, kind=llm paired a local Ollama URL with gpt-4o-mini.
    model = ModelSettings(kind="llm")
    assert (model.base_url, model.name) == (PROVIDERS["openai"].base_url, "gpt-4o-mini")


@pytest.mark.parametrize(
    ("settings", "match"),
    [
        ({"model": {"provider": "anthropic"}}, "model.provider"),
        ({"embed": {"provider": "cohere"}}, "embed.provider"),
        ({"embed": {"kind": "openai", "dimensions": 0}}, "embed.dimensions"),
    ],
)
def test_bad_provider_settings_are_named(settings: dict, match: str) -> None:
    with pytest.raises(SettingsError, match=match):
        load_settings(**settings)


def test_openai_without_its_key_names_the_variable(tmp_path: Path) -> None:
    settings = load_settings(model={"provider": "openai"})
    with pytest.raises(SettingsError, match="OPENAI_API_KEY"):
        Memory.open(tmp_path / "m.db", settings=settings)


def test_openai_compatible_needs_a_server_and_a_model(tmp_path: Path) -> None:
    settings = load_settings(model={"provider": "openai-compatible"})
    with pytest.raises(SettingsError, match="model.base_url must be set"):
        Memory.open(tmp_path / "m.db", settings=settings)
    embed = {"kind": "openai", "provider": "openai-compatible", "base_url": "http://x/v1"}
    settings = load_settings(embed=embed)
    with pytest.raises(SettingsError, match="embedding model must be set"):
        Memory.open(tmp_path / "m.db", settings=settings)


def test_keyless_ollama_needs_no_variable_at_all(tmp_path: Path) -> None:
    """With OPENAI_API_KEY unset, not even set to "", an Ollama model and embedder work."""

    def vectors(request: dict) -> list[list[float]]:
        return [[1.0, float(len(text)), 0.5] for text in request["input"]]

    with FakeOpenAIServer(default=FACT, embeddings=vectors) as server:
        settings = load_settings(
            model={"provider": "ollama", "base_url": server.base_url},
            embed={"kind": "openai", "provider": "ollama", "base_url": server.base_url},
        )
        with Memory.open(tmp_path / "m.db", settings=settings, background_worker=False) as mem:
            mem.add_turn(
                "project:alpha",
                user="No, Raj is the Lead Architect.",
                at=datetime(2026, 10, 5, tzinfo=UTC),
            )
            mem.process_pending()
            assert [f.value for f in mem.facts("project:alpha")] == ["lead architect"]
        assert server.requests[0]["model"] == "llama3.1"
        assert server.embedding_requests[0]["model"] == "nomic-embed-text"
        assert server.headers[0]["authorization"] == "Bearer EMPTY"


def test_embed_dimensions_are_asked_for_and_kept(tmp_path: Path) -> None:
    def shortened(request: dict) -> list[list[float]]:
        size = request.get("dimensions", 1536)
        return [[1.0 + index] * size for index, _ in enumerate(request["input"])]

    with FakeOpenAIServer(embeddings=shortened) as server:
        settings = load_settings(
            embed={"kind": "openai", "base_url": server.base_url, "dimensions": 64},
        )
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("OPENAI_API_KEY", "sk-test")
            with Memory.open(tmp_path / "m.db", settings=settings) as mem:
                assert mem.recall.embedder is not None
                assert mem.recall.embedder.dim == 64
                mem.add_turn("chat:1", user="The badge vendor is Acme.")
                mem.process_pending()
        assert {r["dimensions"] for r in server.embedding_requests} == {64}
        assert server.embedding_requests[0]["model"] == "text-embedding-3-small"
        assert server.embedding_headers[0]["authorization"] == "Bearer sk-test"


@pytest.mark.parametrize("kind", ["hashing", "minilm"])
def test_dimensions_are_refused_by_embedders_of_a_fixed_size(kind: str, tmp_path: Path) -> None:
    settings = load_settings(embed={"kind": kind, "dimensions": 128})
    with pytest.raises(SettingsError, match="embed.dimensions is for the openai embedder"):
        Memory.open(tmp_path / "m.db", settings=settings)
