"""OpenAIEmbedder against the real local fake server (tests/openai_fake.py)."""

import base64
import struct

import numpy as np
import openai
import pytest

from tests.openai_fake import Delay, FakeOpenAIServer, Status, embedding_inputs, text_vectors
from threefold.embed import EmbeddingError, OpenAIEmbedder
from threefold.errors import SettingsError


def constant(dim: int, value: float = 1.0):
    """An entry answering every text of the request with [value] * dim."""
    return lambda body: [[value] * dim for _ in embedding_inputs(body)]


def test_request_shape_and_normalized_rows(openai_server: FakeOpenAIServer) -> None:
    openai_server.add_embeddings([[3.0, 4.0], [0.0, -2.0]])
    embedder = OpenAIEmbedder(openai_server.client(), "text-embedding-3-small")
    vectors = embedder.embed(["first", "second"])
    np.testing.assert_allclose(vectors, [[0.6, 0.8], [0.0, -1.0]], atol=1e-6)
    assert vectors.dtype == np.float32
    (request,) = openai_server.embedding_requests
    assert request == {
        "model": "text-embedding-3-small",
        "input": ["first", "second"],
        "encoding_format": "float",
    }
    assert openai_server.requests == []  # no chat request
    assert embedder.name == "text-embedding-3-small"
    assert embedder.dim == 2


def test_rows_follow_index_not_position(openai_server: FakeOpenAIServer) -> None:
    def reversed_data(body: dict) -> Status:
        # A server free to list data out of order: send the raw JSON body ourselves.
        data = [
            {"object": "embedding", "index": 1, "embedding": [0.0, 1.0]},
            {"object": "embedding", "index": 0, "embedding": [1.0, 0.0]},
        ]
        return Status(200, body={"object": "list", "data": data, "model": "m", "usage": {}})

    openai_server.add_embeddings(reversed_data)
    embedder = OpenAIEmbedder(openai_server.client(), "m")
    np.testing.assert_allclose(embedder.embed(["a", "b"]), [[1.0, 0.0], [0.0, 1.0]])


def test_learns_dim_lazily(vector_server: FakeOpenAIServer) -> None:
    embedder = OpenAIEmbedder(vector_server.client(), "m")
    assert embedder.embed([]).shape == (0, 0)  # no request while unknown
    assert vector_server.embedding_requests == []
    assert embedder.dim == 8  # one probe
    assert len(vector_server.embedding_requests) == 1
    assert embedder.embed([]).shape == (0, 8)
    assert embedder.embed(["x"]).shape == (1, 8)


def test_batching_splits_requests(vector_server: FakeOpenAIServer) -> None:
    embedder = OpenAIEmbedder(vector_server.client(), "m", batch_size=4)
    texts = [f"text {i}" for i in range(10)]
    vectors = embedder.embed(texts)
    sizes = [len(request["input"]) for request in vector_server.embedding_requests]
    assert sizes == [4, 4, 2]
    sent = [text for request in vector_server.embedding_requests for text in request["input"]]
    assert sent == texts
    whole = OpenAIEmbedder(vector_server.client(), "m", batch_size=256).embed(texts)
    np.testing.assert_allclose(vectors, whole, atol=1e-6)


def test_default_batch_is_256(vector_server: FakeOpenAIServer) -> None:
    embedder = OpenAIEmbedder(vector_server.client(), "m")
    embedder.embed([f"t{i}" for i in range(300)])
    assert [len(r["input"]) for r in vector_server.embedding_requests] == [256, 44]


def test_http_500_is_embedding_error(openai_server: FakeOpenAIServer) -> None:
    openai_server.add_embeddings(Status(500, "model crashed", "server_error"))
    embedder = OpenAIEmbedder(openai_server.client(), "m", dim=8)
    with pytest.raises(EmbeddingError, match=r"HTTP 500.*model crashed"):
        embedder.embed(["x"])


def test_client_retries_before_giving_up(openai_server: FakeOpenAIServer) -> None:
    openai_server.add_embeddings(Status(503, "busy"), constant(3))
    client = openai.OpenAI(base_url=openai_server.base_url, api_key="k", max_retries=1, timeout=5.0)
    with client:
        vectors = OpenAIEmbedder(client, "m").embed(["x"])
    assert vectors.shape == (1, 3)
    assert len(openai_server.embedding_requests) == 2


def test_timeout_is_embedding_error(openai_server: FakeOpenAIServer) -> None:
    openai_server.add_embeddings(Delay(2.0, constant(3)))
    embedder = OpenAIEmbedder(openai_server.client(timeout=0.2), "m")
    with pytest.raises(EmbeddingError, match="Timeout"):
        embedder.embed(["x"])


def test_dimension_change_is_error(openai_server: FakeOpenAIServer) -> None:
    openai_server.add_embeddings(constant(8), constant(16))
    embedder = OpenAIEmbedder(openai_server.client(), "m")
    embedder.embed(["a"])
    with pytest.raises(EmbeddingError, match="16-dimensional.*expected 8"):
        embedder.embed(["b"])
    assert embedder.dim == 8


def test_declared_dimension_is_enforced(openai_server: FakeOpenAIServer) -> None:
    openai_server.add_embeddings(constant(8))
    embedder = OpenAIEmbedder(openai_server.client(), "m", dim=384)
    with pytest.raises(EmbeddingError, match="expected 384"):
        embedder.embed(["a"])


def test_unequal_vectors_in_one_answer(openai_server: FakeOpenAIServer) -> None:
    openai_server.add_embeddings([[1.0, 0.0], [1.0, 0.0, 0.0]])
    with pytest.raises(EmbeddingError, match="unequal"):
        OpenAIEmbedder(openai_server.client(), "m").embed(["a", "b"])


@pytest.mark.parametrize("answer", [[[1.0, 0.0]], [[1.0, 0.0]] * 3, []])
def test_count_mismatch_is_error(openai_server: FakeOpenAIServer, answer: list) -> None:
    openai_server.add_embeddings(answer)
    with pytest.raises(EmbeddingError, match=f"returned {len(answer)} vectors for 2 texts"):
        OpenAIEmbedder(openai_server.client(), "m").embed(["a", "b"])


def test_duplicate_index_is_error(openai_server: FakeOpenAIServer) -> None:
    data = [{"object": "embedding", "index": 0, "embedding": [1.0]}] * 2
    openai_server.add_embeddings(
        Status(200, body={"object": "list", "data": data, "model": "m", "usage": {}})
    )
    with pytest.raises(EmbeddingError, match="indexes"):
        OpenAIEmbedder(openai_server.client(), "m").embed(["a", "b"])


def test_non_finite_is_error(openai_server: FakeOpenAIServer) -> None:
    openai_server.add_embeddings([[1.0, float("nan")]])
    with pytest.raises(EmbeddingError, match="non-finite"):
        OpenAIEmbedder(openai_server.client(), "m").embed(["a"])


def test_blank_text_is_sent_as_a_space(vector_server: FakeOpenAIServer) -> None:
    OpenAIEmbedder(vector_server.client(), "m").embed(["", "  ", "x"])
    assert vector_server.embedding_requests[0]["input"] == [" ", " ", "x"]


def test_fake_speaks_base64_too(vector_server: FakeOpenAIServer) -> None:
    # The openai client asks for base64 by default; the fake must answer it the same.
    client = vector_server.client()
    as_floats = client.embeddings.create(model="m", input=["abc"], encoding_format="float")
    as_base64 = client.embeddings.create(model="m", input=["abc"])
    assert vector_server.embedding_requests[1]["encoding_format"] == "base64"
    np.testing.assert_allclose(as_floats.data[0].embedding, as_base64.data[0].embedding)
    assert as_floats.usage.prompt_tokens == 1


def test_text_vectors_are_stable() -> None:
    answer = text_vectors(4)({"input": "one text"})
    assert answer == text_vectors(4)({"input": ["one text"]})
    packed = base64.b64encode(struct.pack("<4f", *answer[0]))
    assert len(packed) > 0


# -- from_settings ----------------------------------------------------------------------


def test_from_settings_sends_the_key(
    vector_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EMBED_TEST_KEY", "sk-embed-secret")
    with OpenAIEmbedder.from_settings(vector_server.base_url, "m", "EMBED_TEST_KEY") as embedder:
        assert embedder.embed(["x"]).shape == (1, 8)
    assert vector_server.embedding_headers[0]["authorization"] == "Bearer sk-embed-secret"


@pytest.mark.parametrize("key_env", [None, "EMBED_EMPTY_KEY"])
def test_from_settings_keyless(
    vector_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch, key_env: str | None
) -> None:
    monkeypatch.setenv("EMBED_EMPTY_KEY", "")
    with OpenAIEmbedder.from_settings(vector_server.base_url, "m", key_env, timeout=5) as e:
        e.embed(["x"])
    assert vector_server.embedding_headers[0]["authorization"] == "Bearer EMPTY"


def test_from_settings_missing_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("EMBED_MISSING_KEY", raising=False)
    with pytest.raises(SettingsError, match="EMBED_MISSING_KEY"):
        OpenAIEmbedder.from_settings("http://127.0.0.1:9/v1", "m", "EMBED_MISSING_KEY")


@pytest.mark.parametrize(
    ("base_url", "model", "timeout", "match"),
    [
        ("localhost:11434", "m", 30.0, "base_url"),
        ("http://127.0.0.1:9/v1", " ", 30.0, "model"),
        ("http://127.0.0.1:9/v1", "m", 0, "timeout"),
    ],
)
def test_from_settings_bad_values(base_url: str, model: str, timeout: float, match: str) -> None:
    with pytest.raises(SettingsError, match=match):
        OpenAIEmbedder.from_settings(base_url, model, None, timeout)


def test_connection_refused_is_embedding_error() -> None:
    with FakeOpenAIServer() as server:
        url = server.base_url
    with OpenAIEmbedder.from_settings(url, "m", None, timeout=2.0) as embedder:
        embedder.client = embedder.client.with_options(max_retries=0)
        with pytest.raises(EmbeddingError, match="APIConnectionError"):
            embedder.embed(["x"])


def test_bad_constructor_values(vector_server: FakeOpenAIServer) -> None:
    client = vector_server.client()
    with pytest.raises(ValueError, match="model"):
        OpenAIEmbedder(client, "")
    with pytest.raises(ValueError, match="dim"):
        OpenAIEmbedder(client, "m", dim=0)
    with pytest.raises(ValueError, match="batch_size"):
        OpenAIEmbedder(client, "m", batch_size=0)
