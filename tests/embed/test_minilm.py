"""The local MiniLM embedder: real model, real tokenizer."""

import threading
from importlib import resources

import numpy as np
import pytest

from memstrata.embed import MiniLMEmbedder
from memstrata.embed.minilm import DIM, MAX_TOKENS, MODEL_NAME


def cos(embedder: MiniLMEmbedder, first: str, second: str) -> float:
    a, b = embedder.embed([first, second])
    return float(a @ b)


def test_name_and_dim() -> None:
    embedder = MiniLMEmbedder()
    assert (embedder.name, embedder.dim) == (MODEL_NAME, DIM) == ("all-MiniLM-L6-v2-int8", 384)


@pytest.mark.parametrize(
    ("anchor", "near", "far"),
    [
        ("The deadline moved to March 27", "When is the deadline?", "I like pizza"),
        ("Raj is now the tech lead of project alpha", "Who leads alpha?", "It rained all day"),
        (
            "We decided to use PostgreSQL for storage",
            "Which database did we pick?",
            "My cat sleeps",
        ),
        ("I prefer answers in French", "What language does the user want?", "The build is green"),
    ],
)
def test_semantic_ordering(minilm: MiniLMEmbedder, anchor: str, near: str, far: str) -> None:
    assert cos(minilm, anchor, near) > cos(minilm, anchor, far) + 0.2


def test_pizza_numbers(minilm: MiniLMEmbedder) -> None:
    near = cos(minilm, "The deadline moved to March 27", "When is the deadline?")
    far = cos(minilm, "The deadline moved to March 27", "I like pizza")
    assert near > 0.6
    assert far < 0.2


def test_paraphrase_beats_word_overlap(minilm: MiniLMEmbedder) -> None:
    # Meaning, not shared words: what hashing cannot do.
    anchor = "The car broke down on the highway"
    assert cos(minilm, anchor, "My automobile stopped working on the motorway") > cos(
        minilm, anchor, "The highway was opened in 1990"
    )


def test_case_insensitive(minilm: MiniLMEmbedder) -> None:
    upper, lower = minilm.embed(["HELLO WORLD", "hello world"])
    assert float(upper @ lower) > 0.999


def test_truncates_long_texts(minilm: MiniLMEmbedder) -> None:
    head = " ".join(f"word{i}" for i in range(400))
    tail_a = head + " apples and oranges" * 500
    tail_b = head + " rockets and satellites" * 500
    a, b = minilm.embed([tail_a, tail_b])
    # Both are cut long before their tails differ.
    assert float(a @ b) > 0.9999
    encoding = minilm._tokenizer.encode(tail_a)
    assert len(encoding.ids) == MAX_TOKENS


def test_odd_texts(minilm: MiniLMEmbedder) -> None:
    texts = ["", "   ", "\x00", "🎉", "\ud800 lone surrogate", "日本語", "a\x00b"]
    vectors = minilm.embed(texts)
    assert vectors.shape == (len(texts), DIM)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_batches_match_single(minilm: MiniLMEmbedder) -> None:
    texts = [f"note number {i} about {'alpha ' * (i % 7)}" for i in range(150)]
    small_batches = MiniLMEmbedder(batch_size=7)
    np.testing.assert_allclose(small_batches.embed(texts), minilm.embed(texts), atol=1e-4)


def test_one_text_at_a_time_matches_a_batch(minilm: MiniLMEmbedder) -> None:
    # A single text (a query) runs on its own one-thread session: same model, same vector.
    texts = ["Who is the lead architect?", "The badge vendor is Acme Access Ltd."]
    one_by_one = np.vstack([minilm.embed([text]) for text in texts])
    np.testing.assert_allclose(one_by_one, minilm.embed(texts), atol=1e-4)


def test_lazy_and_thread_safe_load() -> None:
    embedder = MiniLMEmbedder(threads=1)
    assert embedder._session is None
    results: dict[int, np.ndarray] = {}
    errors: list[BaseException] = []

    def work(index: int) -> None:
        try:
            results[index] = embedder.embed([f"thread {index % 2}"])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert embedder._session is not None
    np.testing.assert_allclose(results[0], results[2], atol=1e-5)
    np.testing.assert_allclose(results[1], results[3], atol=1e-5)


def test_bad_options() -> None:
    with pytest.raises(ValueError, match="threads"):
        MiniLMEmbedder(threads=0)
    with pytest.raises(ValueError, match="batch_size"):
        MiniLMEmbedder(batch_size=0)


def test_tokenizer_file_ships_with_notice() -> None:
    data = resources.files("memstrata.embed") / "data"
    assert (data / "all-MiniLM-L6-v2.tokenizer.json").is_file()
    notice = (data / "NOTICE").read_text(encoding="utf-8")
    assert "Apache License" in notice and "all-MiniLM-L6-v2" in notice


def test_model_inputs_and_output(minilm: MiniLMEmbedder) -> None:
    names = [node.name for node in minilm._session.get_inputs()]
    assert {"input_ids", "attention_mask"} <= set(names)
    assert minilm._output == "last_hidden_state"
