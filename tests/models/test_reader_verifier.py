"""The reading verifier (models/reader/verify.py): a second opinion on each reading that,
where a manifest names it, decides in place of the per-label bars. Its clues, its use by
the tuned reader, and its bad input: a missing file, a file that is not JSON, weights that
do not fit its clues, a key left out; the graph's own signals it reads."""

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from threefold.embed.minilm import MiniLMEmbedder
from threefold.extras import has_extra
from threefold.models.base import PreviousTurn, TurnInput
from threefold.models.reader import DATA, TUNED, ReaderModelError, TrainedReader
from threefold.models.reader.heads import Span, spans
from threefold.models.reader.labels import MODALITIES, SUBJECTS, slot_table, tags
from threefold.models.reader.verify import Clues, Verifier

AT = datetime(2026, 11, 2, 9, tzinfo=UTC)
SHAPE = {
    "labels": sorted(slot_table()),
    "modalities": ["cur", "former", "neg", "hypo", "ask"],
    "subjects": ["self", "rel", "per"],
    "self_words": ["i", "my"],
    "other_words": ["he", "she"],
}


def verifier(bias: float, **weight: float) -> dict:
    """A verifier's data with every weight 0 but those named (by their clue's place)."""
    blank = Verifier.of({**SHAPE, "weights": [], "bias": 0.0, "least": 0.5})
    weights = [0.0] * blank.clue_count
    for place, value in weight.items():
        weights[int(place.removeprefix("w"))] = value
    return {**SHAPE, "weights": weights, "bias": bias, "least": 0.5}


def clue(sentence: str, value: str, previous: str = "") -> Clues:
    start = sentence.index(value)
    span = Span(start, start + len(value), "home", "cur", "self", 0.8)
    return Clues(span, sentence, previous, 1)


def test_a_clue_moves_the_chance_of_a_reading():
    # clue 10 (after 2 + labels + modalities + subjects + 4): the value was in the message
    # the sentence answers
    place = 2 + len(SHAPE["labels"]) + 5 + 3 + 4
    data = Verifier.of(verifier(-2.0, **{f"w{place}": 4.0}))
    answered = clue("Leeds, yes", "Leeds", previous="Do you still live in Leeds?")
    unasked = clue("Leeds, yes", "Leeds", previous="How was the match?")
    assert data.features(answered)[place] == 1.0 and data.features(unasked)[place] == 0.0
    assert data.keeps(answered) and not data.keeps(unasked)
    assert 0.0 < data.chance(unasked) < 0.5 < data.chance(answered) < 1.0


def test_features_match_the_clue_count():
    data = Verifier.of(verifier(0.0))
    assert data.features(clue("I live in Leeds.", "Leeds")).shape == (data.clue_count,)


def write(folder: Path, content: str) -> Path:
    path = folder / "verifier.json"
    path.write_text(content, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (None, "is missing"),
        ("{not json", "cannot read"),
        (json.dumps({**verifier(0.0), "weights": [1.0, 2.0]}), "2 weights for"),
        (json.dumps({k: v for k, v in verifier(0.0).items() if k != "least"}), "least"),
    ],
)
def test_a_bad_verifier_file_is_named(tmp_path, content, says):
    path = tmp_path / "verifier.json" if content is None else write(tmp_path, content)
    with pytest.raises(ReaderModelError, match=says) as raised:
        Verifier.load(path)
    assert str(path) in str(raised.value)


def folder_with(tmp_path: Path, data: dict | None) -> Path:
    """The shipped tuned reader's files, its manifest naming a verifier of `data` (none:
    naming no verifier, so the per-label bars decide)."""
    tmp_path.mkdir()
    for name in os.listdir(DATA):
        if name != TUNED:
            (tmp_path / name).symlink_to(DATA / name)
    manifest = json.loads((DATA / TUNED).read_text(encoding="utf-8"))
    manifest.pop("verifier", None)
    if data is not None:
        manifest["verifier"] = "v.json"
        (tmp_path / "v.json").write_text(json.dumps(data), encoding="utf-8")
    (tmp_path / TUNED).write_text(json.dumps(manifest), "utf-8")
    return tmp_path


def test_the_shipped_verifier_was_fitted_or_judged_for_the_shipped_graph():
    """Its clues are the graph's own chances: a verifier ships with the graph it was fitted
    on, or with one it was judged with and kept for (named, with why, in ``kept_for``)."""
    manifest = json.loads((DATA / TUNED).read_text(encoding="utf-8"))
    shipped = Verifier.load(DATA / manifest["verifier"])
    fitted = json.loads((DATA / manifest["verifier"]).read_text(encoding="utf-8"))["fitted"]
    assert manifest["graph_sha256"] in {fitted["graph_sha256"], *fitted.get("kept_for", {})}
    assert 0.5 < shipped.least < 1.0


@pytest.mark.skipif(not has_extra("local"), reason="needs the local extra")
def test_the_verifier_decides_in_place_of_the_label_bars(tmp_path):
    """`home` is off by the per-label bars (1.01); a verifier that keeps every reading
    keeps it, one that keeps none keeps nothing, and the type checks still apply to both."""
    turn = TurnInput(
        stream="chat:v",
        user="I live in Bergen now.",
        at=AT,
        previous=PreviousTurn(text="Where do you live?", speaker="assistant"),
    )
    encoder = MiniLMEmbedder()
    bars = TrainedReader(encoder, folder=folder_with(tmp_path / "bars", None), manifest=TUNED)
    assert "home" not in [r.fact.slot for r in bars.load().readings(turn) if r.kept]
    keeps_all = folder_with(tmp_path / "all", verifier(30.0))
    kept = TrainedReader(encoder, folder=keeps_all, manifest=TUNED).load()
    read = [(r.fact.slot, r.fact.value) for r in kept.readings(turn) if r.kept]
    assert ("home", "Bergen") in read
    keeps_none = folder_with(tmp_path / "none", verifier(-30.0))
    none = TrainedReader(encoder, folder=keeps_none, manifest=TUNED).load()
    assert all(r.refused for r in none.readings(turn))
    assert np.isclose(Verifier.load(keeps_none / "v.json").chance(clue("x y", "x")), 0.0)


def tag_chances(rows: list[dict[str, float]]) -> np.ndarray:
    """Per token, the graph's chance of each tag (the rest of a row's mass on "O")."""
    names = tags()
    out = np.zeros((len(rows), len(names)))
    for i, row in enumerate(rows):
        for name, chance in row.items():
            out[i, names.index(name)] = chance
        out[i, 0] = 1.0 - sum(row.values())
    return out


def test_a_span_carries_how_unsure_the_graph_was():
    """The graph tags "Bergen" a home at 0.45 beside 0.35 of "no value" and 0.20 of hometown:
    the span carries each, for the verifier to weigh."""
    text = "moved to Bergen"
    offsets = [(0, 5), (6, 8), (9, 15)]
    chances = tag_chances([{}, {}, {"B-home": 0.45, "B-hometown": 0.20}])
    mood = np.tile(np.eye(len(MODALITIES))[0], (3, 1))
    whose = np.tile(np.eye(len(SUBJECTS))[1], (3, 1))
    (read,) = spans(text, offsets, chances, mood, whose)
    assert (text[read.start : read.end], read.label) == ("Bergen", "home")
    assert np.isclose(read.confidence, 0.45) and np.isclose(read.outside, 0.35)
    assert np.isclose(read.rival, 0.20)
    assert read.sure_of_mood == 1.0 and read.sure_of_whose == 1.0
    assert (read.modality, read.subject) == (MODALITIES[0], SUBJECTS[1])
