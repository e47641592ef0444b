"""A static encoder distilled from the shipped all-MiniLM-L6-v2: one table lookup per token.

On first use every WordPiece token of the model's vocabulary is run through the model
alone (``[CLS] token [SEP]``, mean-pooled, as MiniLM pools a sentence) and kept as a row
of a table in the user cache folder, like MiniLM's quantized model. A text's vector is
then the weighted sum of its tokens' rows, L2-normalized: no network runs per text, so it
costs microseconds where MiniLM costs milliseconds, and a text's vector never depends on
the texts embedded with it.

The weights make frequent tokens ("the", "is", ".") count for little: smooth inverse
frequency, ``a / (a + p)``, with ``p`` the token's Zipf probability by its rank in the
vocabulary, whose whole words are listed from the most frequent. Word order and context
are lost, so it finds paraphrases less well than MiniLM (see
``benchmarks/paraphrase_recall.py``); it is an option for imports too large to embed with
the model, never the default.
"""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from threefold.embed.base import EmbeddingError, check_model_name, check_texts, valid_utf8
from threefold.embed.minilm import (
    DIM,
    load_tokenizer,
    source_model,
    user_cache,
    writable_cache,
)
from threefold.extras import require_extra
from threefold.onnx_session import open_session

TYPE_CHECKING = False
if TYPE_CHECKING:
    from threefold.settings import EmbedSettings

__all__ = ["StaticEmbedder", "MODEL_NAME", "MAX_TOKENS", "TABLE_FILE"]

MODEL_NAME = "all-MiniLM-L6-v2-static-sif"
MAX_TOKENS = 512
"""Tokens read per text; a lookup is cheap, so it reads four times MiniLM's 128."""
_MAX_CHARS = MAX_TOKENS * 16
"""Text past this is not tokenized: 512 tokens never span it but in a run of words longer
than 16 letters, and a 10 MB text otherwise costs seconds of tokenizing to be cut."""

SIF_WEIGHT = 1e-3
"""`a` of the smooth inverse frequency weight: measured best of 1e-2 to 1e-5 on
benchmarks/paraphrase_recall.py (MRR 0.49; 0.37 with no weights)."""

FIRST_WORD_ID = 1996
"""The vocabulary's first whole word ("the"): the ids before it are padding, unused slots
and single characters, which all get the weight of the most frequent word."""

TABLE_FILE = f"{MODEL_NAME}.npy"
_DISTILL_BATCH = 1024  # tokens run through the model at once while distilling


class StaticEmbedder:
    """Token vectors distilled from MiniLM, summed with frequency weights. Thread-safe.

    The table (30,522 x 384, float16, 23 MB) is made on the first :meth:`embed` (or
    :meth:`load`), about 40 s of CPU once, then read from `cache_dir` (the user cache
    folder if None).
    """

    fast = True
    """Embeds a query in microseconds: a server need not give it a thread."""

    name = MODEL_NAME
    dim = DIM

    def __init__(self, *, cache_dir: Path | None = None) -> None:
        self.cache_dir = cache_dir
        self._lock = threading.Lock()
        self._table: np.ndarray | None = None
        self._tokenizer: Any = None

    def __repr__(self) -> str:
        return "StaticEmbedder()"

    def load(self) -> None:
        """Read (or first make) the token table; :class:`EmbeddingError` if it cannot."""
        with self._lock:
            if self._table is None:
                tokenizer = load_tokenizer(MAX_TOKENS + 2, "static")
                tokenizer.no_padding()
                self._tokenizer = tokenizer
                self._table = self._kept_table(tokenizer)  # last: tested without the lock

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        items = check_texts(texts)
        if self._table is None:
            self.load()
        table = self._table
        assert table is not None
        out = np.zeros((len(items), DIM), dtype=np.float32)
        if not items:
            return out
        encodings = self._tokenizer.encode_batch([valid_utf8(t[:_MAX_CHARS]) for t in items])
        for row, encoding in enumerate(encodings):
            ids = encoding.ids[1:-1]  # without [CLS] and [SEP]
            if ids:
                out[row] = table[ids].sum(axis=0, dtype=np.float32)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.maximum(norms, np.float32(1e-12), out=norms)
        return out / norms

    def _kept_table(self, tokenizer: Any) -> np.ndarray:
        target = (self.cache_dir or user_cache()) / TABLE_FILE
        if not target.is_file():
            # In a folder of this process's own where the cache cannot be made (a
            # read-only home): distilled for this process only.
            target = writable_cache(target.parent) / TABLE_FILE
            _write_atomically(target, distill(tokenizer))
        try:
            table = np.load(target, allow_pickle=False)
        except (OSError, ValueError, EOFError) as exc:
            raise EmbeddingError(
                f"cannot read the static token table {target} ({exc}): delete it and it is "
                "made again"
            ) from exc
        if table.shape != (tokenizer.get_vocab_size(), DIM):
            raise EmbeddingError(
                f"{target} holds a table of shape {table.shape}, not "
                f"({tokenizer.get_vocab_size()}, {DIM}): delete it and it is made again"
            )
        return table


def distill(tokenizer: Any) -> np.ndarray:
    """Every vocabulary token's MiniLM vector times its weight, as float16 rows."""
    size = tokenizer.get_vocab_size()
    cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    session = _float_session()
    table = np.zeros((size, DIM), dtype=np.float32)
    for start in range(0, size, _DISTILL_BATCH):
        ids = np.arange(start, min(size, start + _DISTILL_BATCH), dtype=np.int64)
        batch = np.stack([np.full_like(ids, cls), ids, np.full_like(ids, sep)], axis=1)
        feeds = {
            "input_ids": batch,
            "attention_mask": np.ones_like(batch),
            "token_type_ids": np.zeros_like(batch),
        }
        try:
            (hidden,) = session.run(["last_hidden_state"], feeds)
        except Exception as exc:
            raise EmbeddingError(f"cannot distill the static table: {exc}") from exc
        table[start : start + len(ids)] = hidden.mean(axis=1)
    return (table * sif_weights(size)[:, None]).astype(np.float16)


def sif_weights(size: int) -> np.ndarray:
    """a / (a + p) per token id, p its Zipf probability by rank among the whole words."""
    rank = np.maximum(np.arange(size, dtype=np.float64) - FIRST_WORD_ID + 1, 1.0)
    probability = 1.0 / (rank * np.log(1.78 * size))  # Zipf's law, normalized over `size`
    return (SIF_WEIGHT / (SIF_WEIGHT + probability)).astype(np.float32)


def _float_session() -> Any:
    """The shipped model as it is (float32 activations): batches of tokens give the same
    vectors as single ones, which int8 activations would not."""
    try:
        import onnxruntime
    except ImportError as exc:
        raise EmbeddingError(f"the static embedder needs onnxruntime ({exc})") from exc
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.log_severity_level = 3
    with source_model("static") as path:
        try:
            return open_session(str(path), options)
        except Exception as exc:
            raise EmbeddingError(f"cannot load the minilm model to distill: {exc}") from exc


def _write_atomically(target: Path, table: np.ndarray) -> None:
    """Processes that race both write the same bytes; none reads half a file."""
    try:
        with tempfile.NamedTemporaryFile(dir=target.parent, suffix=".npy", delete=False) as f:
            np.save(f, table, allow_pickle=False)
        os.replace(f.name, target)
    except OSError as exc:
        raise EmbeddingError(f"cannot write the static token table {target}: {exc}") from exc


def build(settings: EmbedSettings) -> StaticEmbedder:
    """The ``static`` entry point; :class:`MissingExtra` without the ``local`` extra."""
    check_model_name("static", settings.model, MODEL_NAME, settings.dimensions)
    require_extra("local", "the static embedder", load=False)
    return StaticEmbedder()
