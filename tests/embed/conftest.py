from collections.abc import Iterator

import pytest

from memstrata.embed import MiniLMEmbedder
from tests import openai_fake
from tests.openai_fake import FakeOpenAIServer

openai_server = openai_fake.openai_server  # the fixture


@pytest.fixture(scope="session")
def minilm() -> MiniLMEmbedder:
    """One loaded MiniLM for the whole run: loading takes a fraction of a second each time."""
    embedder = MiniLMEmbedder()
    embedder.load()
    return embedder


@pytest.fixture
def vector_server() -> Iterator[FakeOpenAIServer]:
    """A fake server answering every embeddings request with 8-dimensional vectors."""
    with FakeOpenAIServer(embeddings=openai_fake.text_vectors(8)) as server:
        yield server
