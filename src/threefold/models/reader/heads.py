"""The trained heads over MiniLM's token states, and the spans they read.

A token's features are its own last hidden state and its two neighbours' (what a span's
edge looks like); one hidden layer feeds three heads: the BIO tag, the modality and the
subject. Only numpy runs here; the weights are a small ``.npz`` made by training/train.py.
"""

import json
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import numpy as np

from threefold.errors import ThreefoldError
from threefold.models.reader.labels import MODALITIES, SUBJECTS, tags
from threefold.onnx_session import open_session

WEIGHTS = ("w1", "b1", "w_tag", "b_tag", "w_mod", "b_mod", "w_subj", "b_subj")


class ReaderModelError(ThreefoldError):
    """The trained reader's weights are missing, unreadable or not the expected shape."""


@dataclass(frozen=True)
class Encoded:
    """A unit as token ids; its own text's tokens run from `first`, with their offsets."""

    ids: list[int]
    first: int
    offsets: list[tuple[int, int]]


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    label: str
    modality: str
    subject: str
    confidence: float
    outside: float = 0.0
    """The graph's mean chance that the span's tokens are no value at all."""
    rival: float = 0.0
    """Its mean chance that they are a value of another label."""
    sure_of_mood: float = 1.0
    """Its mean chance of the modality it chose; `sure_of_whose` the same of the subject."""
    sure_of_whose: float = 1.0


def encode(tokenizer: object, text: str, previous: str) -> Encoded:
    """The unit's token ids, the answered message first when there is one."""
    encoding = tokenizer.encode(previous, text) if previous else tokenizer.encode(text)  # type: ignore[attr-defined]
    wanted = 1 if previous else 0
    positions = [i for i, s in enumerate(encoding.sequence_ids) if s == wanted]
    if not positions:
        return Encoded(list(encoding.ids), len(encoding.ids), [])
    offsets = encoding.offsets  # each access builds the whole list anew
    return Encoded(list(encoding.ids), positions[0], [tuple(offsets[i]) for i in positions])


def features(states: np.ndarray, first: int, count: int) -> np.ndarray:
    """Each text token's state beside its neighbours' (the [SEP] and [CLS] at the edges)."""
    own = states[first : first + count]
    before = states[first - 1 : first + count - 1]
    after = states[first + 1 : first + count + 1]
    return np.concatenate([own, before, after], axis=1).astype(np.float32)


class Heads:
    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        self.w = weights
        self._session: object | None = None

    @classmethod
    def load(cls, path: Path) -> "Heads":
        """The heads in `path`; :class:`ReaderModelError` naming the file if it is missing,
        unreadable or of another label scheme."""
        try:
            with np.load(path, allow_pickle=False) as data:
                weights = {name: np.asarray(data[name], dtype=np.float32) for name in WEIGHTS}
        except FileNotFoundError:
            raise ReaderModelError(f"the trained reader's weights {path} are missing") from None
        except Exception as exc:
            raise ReaderModelError(
                f"cannot read the trained reader's weights {path}: {exc}"
            ) from exc
        expected = {"b_tag": len(tags()), "b_mod": len(MODALITIES), "b_subj": len(SUBJECTS)}
        for name, size in expected.items():
            if weights[name].shape != (size,):
                raise ReaderModelError(
                    f"{path} was trained for another label scheme ({name} {weights[name].shape})"
                )
        return cls(weights)

    def predict(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Probabilities of the tags, modalities and subjects of each row of `x`."""
        if self._session is None:
            self._session = _one_thread_session(self.w)
        if self._session is not False:
            try:
                tag, mod, subj = self._session.run(None, {"x": x})  # type: ignore[attr-defined]
            except Exception as exc:  # onnxruntime raises its own kinds, for shapes too
                raise ReaderModelError(f"the trained reader's heads cannot run: {exc}") from exc
            return tag, mod, subj
        return self.predict_numpy(x)

    def read(self, states: np.ndarray, first: int, count: int) -> tuple[np.ndarray, ...]:
        """The probabilities of the `count` text tokens from `first` of a unit's `states`."""
        return self.predict(features(states, first, count))

    def predict_numpy(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`predict` in numpy (training evaluates with it)."""
        w = self.w
        hidden = np.maximum(x @ w["w1"] + w["b1"], 0.0)
        return (
            softmax(hidden @ w["w_tag"] + w["b_tag"]),
            softmax(hidden @ w["w_mod"] + w["b_mod"]),
            softmax(hidden @ w["w_subj"] + w["b_subj"]),
        )


class TopHeads:
    """MiniLM's upper layers, fine-tuned with the heads (training/finetune.py), as an
    int8 onnxruntime graph on one thread: the shared int8 MiniLM's lower states of a unit
    in, each token's tag, modality and subject probabilities out."""

    def __init__(self, session: object, path: Path) -> None:
        self._session = session
        self.path = path

    @classmethod
    def load(cls, path: Path) -> "TopHeads":
        """The graph in `path`; :class:`ReaderModelError` naming the file if it is missing,
        unreadable or of another label scheme."""
        if not path.is_file():
            raise ReaderModelError(f"the fine-tuned reader's graph {path} is missing")
        try:
            import onnxruntime

            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = 1
            options.inter_op_num_threads = 1
            options.log_severity_level = 3
            session = open_session(str(path), options)
        except Exception as exc:  # onnxruntime raises its own kinds for a bad file
            raise ReaderModelError(
                f"cannot load the fine-tuned reader's graph {path}: {exc}"
            ) from exc
        sizes = {o.name: o.shape[-1] for o in session.get_outputs()}
        expected = {"tag": len(tags()), "mod": len(MODALITIES), "subj": len(SUBJECTS)}
        if sizes != expected:
            raise ReaderModelError(f"{path} was trained for another label scheme ({sizes})")
        return cls(session, path)

    def read(self, states: np.ndarray, first: int, count: int) -> tuple[np.ndarray, ...]:
        """The probabilities of the `count` text tokens from `first` of a unit's `states`
        (the whole unit's: the top layers attend to the answered message too)."""
        feeds = {
            "states": np.ascontiguousarray(states[None], dtype=np.float32),
            "mask": np.ones((1, len(states)), dtype=np.int64),
        }
        try:
            tag, mod, subj = self._session.run(["tag", "mod", "subj"], feeds)  # type: ignore[attr-defined]
        except Exception as exc:
            raise ReaderModelError(f"the fine-tuned reader cannot run: {exc}") from exc
        cut = slice(first, first + count)
        return tag[0, cut], mod[0, cut], subj[0, cut]


def _one_thread_session(w: dict[str, np.ndarray]) -> object:
    """The heads as an onnxruntime graph on one thread; False without onnx.

    Why not numpy: its BLAS starts a thread per core for every small product, and on a
    busy machine waiting for them cost ~50 ms a sentence against ~1 ms on one thread."""
    try:
        import onnxruntime
        from onnx import TensorProto, helper, numpy_helper
    except ImportError:
        return False
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["xw"]),
        helper.make_node("Add", ["xw", "b1"], ["pre"]),
        helper.make_node("Relu", ["pre"], ["hidden"]),
    ]
    outputs = []
    for head in ("tag", "mod", "subj"):
        nodes += [
            helper.make_node("MatMul", ["hidden", f"w_{head}"], [f"{head}_w"]),
            helper.make_node("Add", [f"{head}_w", f"b_{head}"], [f"{head}_logits"]),
            helper.make_node("Softmax", [f"{head}_logits"], [head], axis=-1),
        ]
        size = w[f"b_{head}"].shape[0]
        outputs.append(helper.make_tensor_value_info(head, TensorProto.FLOAT, ["n", size]))
    graph = helper.make_graph(
        nodes,
        "reader_heads",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", w["w1"].shape[0]])],
        outputs,
        [numpy_helper.from_array(np.ascontiguousarray(v), name=k) for k, v in w.items()],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return open_session(model.SerializeToString(), options)


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)


def spans(
    text: str,
    offsets: list[tuple[int, int]],
    tag_p: np.ndarray,
    mod_p: np.ndarray,
    subj_p: np.ndarray,
    floor: float | None = None,
) -> list[Span]:
    """The labelled spans the tags mark, widened to whole words.

    With no `floor`, each token takes its likeliest tag, B- opening a span and I- of the
    same label going on with it. With a `floor`, a token's label is the one with the most
    B- and I- chance together, and it is in a span when that chance beats "no value" or
    reaches `floor`: a value whose chance the graph splits between B- and I-, or holds
    just under "no value" ("upped sticks to Cardiff", 0.49 home), is still read, and the
    verifier (or a held slot's bar) judges it. Its confidence is then its label's chance.
    """
    labels, opens, chance = _token_labels(tag_p, floor)
    found: list[Span] = []
    start = None
    label = ""
    for index in range(len(offsets) + 1):
        within = index < len(offsets)
        own = labels[index] if within else ""
        goes_on = within and (own == label and not opens[index] or _continues(text, offsets, index))
        if start is not None and not goes_on:
            found.append(_span(text, offsets, start, index, label, tag_p, mod_p, subj_p, chance))
            start = None
        if own and start is None:
            start, label = index, own
    return _joined(text, [s for s in found if s.end > s.start])


def _token_labels(
    tag_p: np.ndarray, floor: float | None
) -> tuple[list[str], list[bool], np.ndarray | None]:
    """Each token's label ("" for no value), whether it opens a span (a B- tag), and,
    with a `floor`, each token's chance of each label (see spans)."""
    if floor is None:
        every = tags()
        best = [every[i] for i in tag_p.argmax(axis=1).tolist()]
        labels = ["" if tag == "O" else tag[2:] for tag in best]
        return labels, [tag.startswith("B-") for tag in best], None
    chance = tag_p[:, 1::2] + tag_p[:, 2::2]  # tags() orders B-, I- of each label
    top = chance.max(axis=1)
    inside = (top > tag_p[:, 0]) | (top >= floor)
    names = _labels()
    best = chance.argmax(axis=1).tolist()  # plain ints and bools: numpy's are slow one by one
    labels = [names[i] if on else "" for i, on in zip(best, inside.tolist(), strict=True)]
    return labels, [False] * len(labels), chance


@cache
def _labels() -> tuple[str, ...]:
    """The span labels in the order of tags()' B-/I- pairs."""
    return tuple(tag[2:] for tag in tags()[1::2])


def _joined(text: str, found: list[Span]) -> list[Span]:
    """Spans of one label with only spaces between them are one value the tagger split
    ("25mg" "metoprolol", "St" "Lukes")."""
    out: list[Span] = []
    for span in found:
        last = out[-1] if out else None
        if (
            last is not None
            and last.label == span.label
            and not text[last.end : span.start].strip()
        ):
            out[-1] = replace(
                last,
                end=span.end,
                confidence=min(last.confidence, span.confidence),
                outside=max(last.outside, span.outside),
                rival=max(last.rival, span.rival),
            )
        else:
            out.append(span)
    return out


def _continues(text: str, offsets: list[tuple[int, int]], index: int) -> bool:
    """A word piece that goes on the word before it (no space between)."""
    return (
        index < len(offsets)
        and index > 0
        and offsets[index][0] == offsets[index - 1][1]
        and text[offsets[index][0] : offsets[index][1]].isalnum()
    )


def _span(
    text: str,
    offsets: list[tuple[int, int]],
    first: int,
    stop: int,
    label: str,
    tag_p: np.ndarray,
    mod_p: np.ndarray,
    subj_p: np.ndarray,
    chance: np.ndarray | None = None,
) -> Span:
    """`chance`: each token's chance of each label (B- and I- together), where a span's
    confidence is its label's mean chance; None: the mean of each token's likeliest tag."""
    start, end = offsets[first][0], offsets[stop - 1][1]
    while start > 0 and _inside_word(text, start - 1):
        start -= 1
    while end < len(text) and _inside_word(text, end):
        end += 1
    others = tag_p[first:stop].copy()
    others[:, list(_outside_and_own(label))] = 0.0
    mood = mod_p[first:stop].mean(axis=0)
    whose = subj_p[first:stop].mean(axis=0)
    return Span(
        start,
        end,
        label,
        MODALITIES[int(mood.argmax())],
        SUBJECTS[int(whose.argmax())],
        float(tag_p[first:stop].max(axis=1).mean())
        if chance is None
        else float(chance[first:stop, _labels().index(label)].mean()),
        outside=float(tag_p[first:stop, 0].mean()),
        rival=float(others.max(axis=1).mean()),
        sure_of_mood=float(mood.max()),
        sure_of_whose=float(whose.max()),
    )


@cache
def _outside_and_own(label: str) -> tuple[int, ...]:
    """The columns of the O tag and of `label`'s own tags: what is no rival to a span."""
    return (0, *(i for i, name in enumerate(tags()) if name[2:] == label))


def _inside_word(text: str, at: int) -> bool:
    """A letter or digit, or a hyphen or apostrophe between two ("seventy-three")."""
    if text[at].isalnum():
        return True
    return (
        text[at] in "-'"
        and 0 < at < len(text) - 1
        and text[at - 1].isalnum()
        and text[at + 1].isalnum()
    )


def read_manifest(path: Path) -> dict[str, object]:
    try:
        return dict(json.loads(path.read_text("utf-8")))
    except FileNotFoundError:
        raise ReaderModelError(f"the trained reader's manifest {path} is missing") from None
    except (OSError, ValueError) as exc:
        raise ReaderModelError(f"cannot read the trained reader's manifest {path}: {exc}") from exc
