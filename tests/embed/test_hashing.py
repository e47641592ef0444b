"""HashingEmbedder: deterministic across processes, word overlap only."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from threefold.embed import HashingEmbedder

TEXTS = ["Raj is the tech lead", "the deadline moved", "日本語 🎉", ""]


def test_name_and_dim() -> None:
    assert HashingEmbedder().name == "hashing-256"
    embedder = HashingEmbedder(dim=64)
    assert (embedder.name, embedder.dim) == ("hashing-64", 64)
    assert embedder.embed(["a b"]).shape == (1, 64)


@pytest.mark.parametrize("bad", [0, 1, -5, 2.5, True, 2**21])
def test_bad_dim(bad: object) -> None:
    with pytest.raises(ValueError, match="dim"):
        HashingEmbedder(dim=bad)  # type: ignore[arg-type]


def test_no_words_gives_zero_row() -> None:
    vectors = HashingEmbedder().embed(["", "  ?! ", "word"])
    assert not vectors[0].any() and not vectors[1].any()
    assert np.linalg.norm(vectors[2]) == pytest.approx(1.0)


def test_case_and_punctuation_insensitive() -> None:
    a, b = HashingEmbedder().embed(["The Deadline, moved!", "the deadline moved"])
    assert float(a @ b) == pytest.approx(1.0)


def test_overlap_orders_similarity() -> None:
    anchor, close, far = HashingEmbedder(dim=1024).embed(
        ["the deadline moved to march", "the deadline moved to april", "pizza with olives"]
    )
    assert float(anchor @ close) > 0.5 > float(anchor @ far)


def test_bigrams_count() -> None:
    a, b = HashingEmbedder(dim=4096).embed(["dog bites man", "man bites dog"])
    assert 0.2 < float(a @ b) < 0.99  # same words, different bigrams


def test_same_vectors_in_another_process(tmp_path: Path) -> None:
    script = (
        "import json, sys\n"
        "from threefold.embed import HashingEmbedder\n"
        "texts = json.loads(sys.stdin.read())\n"
        "print(json.dumps(HashingEmbedder(dim=128).embed(texts).tolist()))\n"
    )
    env = dict(os.environ, PYTHONHASHSEED="12345")
    result = subprocess.run(
        [sys.executable, "-c", script],
        input=json.dumps(TEXTS),
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=True,
        timeout=60,
    )
    theirs = np.array(json.loads(result.stdout), dtype=np.float32)
    ours = HashingEmbedder(dim=128).embed(TEXTS)
    np.testing.assert_array_equal(theirs, ours)


def test_known_vector() -> None:
    # Pinned: a change to the hashing silently invalidates every stored vector.
    vector = HashingEmbedder(dim=16).embed(["hello world"])[0]
    nonzero = {int(i): round(float(vector[i]), 4) for i in np.flatnonzero(vector)}
    assert nonzero == {3: 0.8944, 12: -0.4472}  # two of the three features share slot 3
