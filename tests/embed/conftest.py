from collections.abc import Iterator

import pytest

from tests import openai_fake
from tests.openai_fake import FakeOpenAIServer
from threefold.embed import MiniLMEmbedder
from threefold.embed.static import StaticEmbedder

openai_server = openai_fake.openai_server  # the fixture


@pytest.fixture(scope="session")
def minilm() -> MiniLMEmbedder:
    """One loaded MiniLM for the whole run: loading takes a fraction of a second each time."""
    embedder = MiniLMEmbedder()
    embedder.load()
    return embedder


@pytest.fixture(scope="session")
def static() -> StaticEmbedder:
    """One static embedder for the run, its table in the run's cache folder: distilling it
    takes about 40 s of CPU, once, and every Memory of the run then reads it."""
    embedder = StaticEmbedder()
    embedder.load()
    return embedder


@pytest.fixture
def vector_server() -> Iterator[FakeOpenAIServer]:
    """A fake server answering every embeddings request with 8-dimensional vectors."""
    with FakeOpenAIServer(embeddings=openai_fake.text_vectors(8)) as server:
        yield server
