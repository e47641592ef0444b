"""The static embedder: token vectors distilled from the real MiniLM weights, once."""

from pathlib import Path

import numpy as np
import pytest

from tests.sources.exports import msg, write_export
from threefold import Memory, load_settings
from threefold.embed import EmbeddingError, build_embedder
from threefold.embed.minilm import DIM, user_cache
from threefold.embed.static import MODEL_NAME, TABLE_FILE, StaticEmbedder, sif_weights


def cos(embedder: StaticEmbedder, first: str, second: str) -> float:
    a, b = embedder.embed([first, second])
    return float(a @ b)


def test_name_dim_and_kind(static: StaticEmbedder) -> None:
    assert (static.name, static.dim) == (MODEL_NAME, DIM)
    assert isinstance(build_embedder("static"), StaticEmbedder)
    assert StaticEmbedder()._table is None  # nothing is read before the first use


@pytest.mark.parametrize(
    ("anchor", "near", "far"),
    [
        ("The deadline moved to March 27", "When is the deadline?", "I like pizza"),
        ("We decided to use PostgreSQL for storage", "Which database did we pick?", "My cat"),
        (
            "The car broke down on the highway",
            "My automobile stopped working on the motorway",
            "The highway was opened in 1990",
        ),
    ],
)
def test_meaning_orders_similarity(static: StaticEmbedder, anchor: str, near: str, far: str):
    assert cos(static, anchor, near) > cos(static, anchor, far) + 0.1


def test_frequent_tokens_weigh_least() -> None:
    weights = sif_weights(30_522)
    the, rare = 1996, 29_000  # "the", and a token near the end of the vocabulary
    assert weights[the] < 0.1 < 0.9 < weights[rare] <= 1.0


def test_a_vector_depends_on_its_text_alone(static: StaticEmbedder) -> None:
    alone = static.embed(["Raj is the new tech lead"])
    with_others = static.embed(["x" * 5000, "Raj is the new tech lead", "déjà vu 🎉"])
    np.testing.assert_array_equal(alone[0], with_others[1])


def test_texts_without_tokens_get_zero_rows(static: StaticEmbedder) -> None:
    vectors = static.embed(["", "   ", "\x00", "lone \ud800 surrogate"])
    assert not vectors[:3].any()
    assert np.linalg.norm(vectors[3]) == pytest.approx(1.0, abs=1e-5)


def test_a_long_text_is_read_to_its_limit_quickly(static: StaticEmbedder) -> None:
    head = "The release moved to Friday because staging is down. "
    huge = head * 200_000  # 10 MB
    short, long = static.embed([head * 40, huge])
    assert float(short @ long) > 0.999  # only the first tokens count


def test_the_table_is_made_once_and_kept(static: StaticEmbedder) -> None:
    kept = user_cache() / TABLE_FILE
    made = kept.stat().st_mtime_ns
    again = StaticEmbedder()
    np.testing.assert_array_equal(again.embed(["hello world"]), static.embed(["hello world"]))
    assert kept.stat().st_mtime_ns == made


@pytest.mark.parametrize("content", [b"not a table", b""])
def test_a_corrupt_table_is_a_clear_error(tmp_path: Path, content: bytes) -> None:
    (tmp_path / TABLE_FILE).write_bytes(content)
    with pytest.raises(EmbeddingError, match=TABLE_FILE):
        StaticEmbedder(cache_dir=tmp_path).embed(["hello"])


def test_an_import_with_the_static_embedder(static: StaticEmbedder, tmp_path: Path) -> None:
    """A huge message, a day file that is not UTF-8, and a paraphrased question."""
    huge = "The release moved to Friday because staging is down. " * 130_000  # 7 MB
    days = {
        "general": {
            "2017-03-20": [
                msg("1490000000.000100", huge),
                msg("1490000001.000100", "We decided to use Postgres for the ledger."),
            ],
            "2017-03-21": b'[{"type": "message", "ts": "1490100000.0001", "text": "caf\xe9 \xff"}]',
        }
    }
    export = write_export(tmp_path / "export", days)
    settings = load_settings(db=tmp_path / "memory.db", embed={"kind": "static"})
    with Memory.open(settings=settings, background_worker=False) as mem:
        report = mem.import_slack(export)
        assert report.kept == 2 and report.unembedded == 0
        assert [p.path for p in report.problems] == ["general/2017-03-21.json"]
        assert "UTF-8" in report.problems[0].error
        assert mem.embedder_name == MODEL_NAME
        hits = mem.search("Which database was chosen for the accounts book?", kinds=["record"])
        assert hits and "Postgres" in hits[0].text
