"""The fine-tuned reader (MiniLM's upper layers with the heads, reader_top.onnx over the
shared int8 MiniLM's lower states): that it reads, and its bad input: a missing, corrupt
or mislabelled graph, a manifest without its lower layers, a bad layer count, a
20,000-character message, only emoji, a stack trace, another language, and a turn whose
answered message was erased."""

import hashlib
import json
import logging
import shutil
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from threefold import Memory
from threefold.embed.minilm import MiniLMEmbedder
from threefold.extras import has_extra
from threefold.models.base import TurnInput
from threefold.models.heuristic import HeuristicModel, build
from threefold.models.reader import DATA, TUNED, ReaderModelError, TrainedReader
from threefold.settings import ModelSettings

pytestmark = pytest.mark.skipif(not has_extra("local"), reason="needs the local extra")
AT = datetime(2026, 11, 2, 9, tzinfo=UTC)
TRAINING = Path(__file__).parents[2] / "training"


def said(text: str) -> TurnInput:
    return TurnInput(stream="chat:t", user=text, at=AT)


@pytest.fixture(scope="module")
def encoder() -> MiniLMEmbedder:
    return MiniLMEmbedder()


def test_the_tuned_reader_reads_a_plain_statement(encoder: MiniLMEmbedder) -> None:
    reader = TrainedReader(encoder, manifest=TUNED, label_least={}).load()
    facts = reader.extract_facts(said("I live in Bergen."))
    assert ("user", "home", "Bergen") in [(f.subject, f.slot, f.value) for f in facts]


def test_lower_states_come_from_the_same_int8_model(encoder: MiniLMEmbedder) -> None:
    ids = encoder.tokenizer.encode("I live in Bergen.").ids
    lower = encoder.token_states([ids], layers=4)[0]
    last = encoder.token_states([ids])[0]
    assert lower.shape == last.shape == (len(ids), 384)
    assert not np.allclose(lower, last)
    again = encoder.token_states(
        [ids, encoder.tokenizer.encode("a longer line of text").ids], layers=4
    )
    assert np.allclose(again[0], lower, atol=1e-4)  # a row's states do not depend on its batch


def test_layer_zero_is_each_token_before_any_attention(encoder: MiniLMEmbedder) -> None:
    """A reader that tunes all six layers starts from the embeddings' states: a token's
    state there depends on the token and its place, not on its neighbours."""
    rows = [encoder.tokenizer.encode(t).ids for t in ("I live in Bergen.", "I work in Bergen.")]
    embedded = encoder.token_states(rows, layers=0)
    first = encoder.token_states(rows, layers=1)
    assert embedded[0].shape == first[0].shape == (len(rows[0]), 384)
    assert np.allclose(embedded[0][3:], embedded[1][3:], atol=1e-4)  # "in Bergen." alike
    assert not np.allclose(first[0][3:], first[1][3:], atol=1e-2)


@pytest.mark.parametrize("layers", [-1, 7, 2.5, "4"])
def test_a_bad_layer_count_is_a_clear_error(encoder: MiniLMEmbedder, layers: object) -> None:
    with pytest.raises(ValueError, match="layers must be an int from 0 to 6"):
        encoder.token_states([[101, 102]], layers=layers)  # type: ignore[arg-type]


def test_a_missing_graph_is_named(tmp_path: Path) -> None:
    shutil.copy(DATA / TUNED, tmp_path)
    with pytest.raises(ReaderModelError, match="reader_top.onnx is missing"):
        TrainedReader(folder=tmp_path, manifest=TUNED).load()


def test_a_corrupt_graph_is_named_and_the_rules_take_over(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    shutil.copy(DATA / TUNED, tmp_path)
    (tmp_path / "reader_top.onnx").write_bytes(b"not a graph")
    with pytest.raises(ReaderModelError, match=str(tmp_path / "reader_top.onnx")):
        TrainedReader(folder=tmp_path, manifest=TUNED).load()
    model = HeuristicModel(TrainedReader(folder=tmp_path, manifest=TUNED))
    with caplog.at_level(logging.WARNING):
        facts = model.extract_facts(said("I live in Bergen."))
    assert facts == HeuristicModel().extract_facts(said("I live in Bergen."))
    assert model.reader is None


def test_a_graph_of_another_label_scheme_is_refused(tmp_path: Path) -> None:
    from onnx import TensorProto, helper

    nodes = [helper.make_node("Identity", ["states"], [name]) for name in ("tag", "mod", "subj")]
    graph = helper.make_graph(
        nodes,
        "other",
        [
            helper.make_tensor_value_info("states", TensorProto.FLOAT, [1, "n", 384]),
            helper.make_tensor_value_info("mask", TensorProto.INT64, [1, "n"]),
        ],
        [
            helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, "n", 384])
            for n in ("tag", "mod", "subj")
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    shutil.copy(DATA / TUNED, tmp_path)
    (tmp_path / "reader_top.onnx").write_bytes(model.SerializeToString())
    with pytest.raises(ReaderModelError, match="another label scheme"):
        TrainedReader(folder=tmp_path, manifest=TUNED).load()


def test_a_manifest_without_its_lower_layers_is_refused(tmp_path: Path) -> None:
    manifest = json.loads((DATA / TUNED).read_text())
    del manifest["lower_layers"]
    (tmp_path / TUNED).write_text(json.dumps(manifest))
    shutil.copy(DATA / "reader_top.onnx", tmp_path)
    with pytest.raises(ReaderModelError, match="lower_layers"):
        TrainedReader(folder=tmp_path, manifest=TUNED).load()


def test_the_tuned_option_builds_a_required_reader() -> None:
    model = build(ModelSettings(options={"reader": "tuned"}))
    assert model.required
    facts = model.extract_facts(said("I live in Bergen."))
    assert "bergen" in [f.value.lower() for f in facts]
    assert isinstance(model.reader, TrainedReader) and model.reader.manifest_name == TUNED


def test_the_manifest_records_the_data_and_the_graph() -> None:
    """The graph's size and hash, and every data file it was trained on with its hash: the
    generated utterances (those the frozen heads learnt) and each hand-written file."""
    manifest = json.loads((DATA / TUNED).read_text())
    shipped = (DATA / manifest["graph"]).read_bytes()
    assert manifest["graph_bytes"] == len(shipped)
    assert manifest["graph_sha256"] == hashlib.sha256(shipped).hexdigest()
    files = manifest["data_files"]
    frozen = json.loads((DATA / "reader_manifest.json").read_text())
    assert files.pop("data/utterances.jsonl") == frozen["data_sha256"]
    assert files and all(name.startswith("written/") for name in files)
    for name, digest in files.items():
        assert hashlib.sha256((TRAINING / name).read_bytes()).hexdigest() == digest
    assert manifest["written_dev_metrics"]["span_precision"] > 0


@pytest.fixture(scope="module")
def tuned() -> HeuristicModel:
    return build(ModelSettings(options={"reader": "tuned"}))


def test_a_20000_character_message_is_read_to_its_end(tuned: HeuristicModel) -> None:
    filler = "The weather was grey and the train was late again this morning. "
    text = f"{filler * 250}I live in Bergen. {filler * 100}"[:20_000]
    assert len(text) == 20_000 and text.index("Bergen") > 15_000
    assert tuned.reader is not None  # the reader itself, not the rules beside it
    read = [(r.span.label, r.fact.value) for r in tuned.reader.readings(said(text))]
    assert ("home", "Bergen") in read  # read, whether or not its label's calibration keeps it


@pytest.mark.parametrize(
    "text",
    [
        "😂😂😂 🙄",
        'Traceback (most recent call last):\n  File "app.py", line 12, in <module>\n'
        "    user = load_user('I am 30 and live in Paris')\nKeyError: 'age'",
    ],
    ids=["only emoji", "a stack trace"],
)
def test_emoji_and_code_give_the_tuned_reader_nothing_to_read(
    tuned: HeuristicModel, text: str
) -> None:
    assert tuned.reader is not None and tuned.reader.readings(said(text)) == []


def test_another_language_and_an_erased_answer_lose_nothing(
    tuned: HeuristicModel, tmp_path: Path
) -> None:
    with Memory.open(tmp_path / "m.db", model=tuned, embedder=None, background_worker=False) as mem:
        french = mem.add_turn("chat:e", user="Je m'appelle Louis et j'habite à Marseille.")
        mem.add_turn("chat:e", user="Hi.", assistant="Did Oriel tell you how old you are?")
        kept = mem.add_turn("chat:e", user="31, and I live in Bergen.")
        mem.erase(entity="Oriel")
        mem.process_pending()
        assert {french.id, kept.id} <= {t.id for t in mem.turns("chat:e")}
        assert "bergen" in [f.value.lower() for f in mem.facts("chat:e")]


def test_a_move_said_in_passing_updates_the_home(tmp_path) -> None:
    """Issue 36's first case, which the graph before session 25 missed: the newer home is
    current and the older one kept as superseded."""
    model = build(ModelSettings(options={"reader": "tuned"}))
    with Memory.open(tmp_path / "m.db", model=model, background_worker=False) as mem:
        mem.add_turn("chat:me", "I live in Leeds and I'm allergic to peanuts.", "Noted.")
        mem.add_turn("chat:me", "so we ended up relocating, Manchester now", "Big change!")
        mem.process_pending()
        stored = mem.facts("chat:me", include_inactive=True)
    homes = [(f.value.lower(), f.status.value) for f in stored if f.slot == "home"]
    assert sorted(homes) == [("leeds", "superseded"), ("manchester", "active")]


def test_a_move_the_graph_half_believes_marks_the_old_home(tmp_path) -> None:
    """The graph reads "Perth" as a home too unsurely to store, sure enough that the home
    held may be outdated (a hint). The wording is test_search_doubted's: int8 kernels
    differ between processors, and "ended up somewhere near Perth, sort of", a home hint
    where this test was written, reads as a former home on a processor with AVX2 alone."""
    model = build(ModelSettings(options={"reader": "tuned"}))
    with Memory.open(tmp_path / "m.db", model=model, background_worker=False) as mem:
        mem.add_turn("chat:me", "I live in Adelaide.", "Noted.")
        moved = mem.add_turn("chat:me", "so we're kinda in Perth now I guess", "Big move!")
        mem.process_pending()
        stored = mem.facts("chat:me", include_inactive=True)
    homes = [f for f in stored if f.slot == "home"]
    assert [(f.value.lower(), f.status.value) for f in homes] == [("adelaide", "active")]
    assert homes[0].doubted_by is not None and homes[0].doubted_by.id == str(moved.id)


def test_a_correction_said_beside_news_still_corrects(tmp_path) -> None:
    """A repair turn that also states something: the reader reads the whole turn, and the
    employer it names replaces the one corrected (the rules alone read only the news, and
    the repair gave way to it, leaving Tesco current)."""
    model = build(ModelSettings(options={"reader": "tuned"}))
    with Memory.open(tmp_path / "m.db", model=model, background_worker=False) as mem:
        mem.add_turn("chat:me", "I work at Tesco in Leeds.", "Noted.")
        mem.add_turn(
            "chat:me",
            "wait no, Asda not Tesco. been there since march, my manager is called Dev",
            "Got it.",
        )
        mem.process_pending()
        stored = mem.facts("chat:me", include_inactive=True)
    employers = {f.value.lower(): f.status.value for f in stored if f.slot == "employer"}
    assert employers.get("asda") == "active"
    assert employers.get("tesco") != "active"


def test_a_plan_read_after_its_verb_is_worded_as_a_thing_to_come(tuned: HeuristicModel) -> None:
    """The graph reads "in for a knee op on the 9th" after "booked": the fact says what is
    to come ("has a knee op ... planned"), not "plans to in for a knee op"."""
    turn = TurnInput(stream="chat:p", user="booked in for a knee op on the 9th of June", at=AT)
    plans = [f.text for f in tuned.extract_facts(turn) if f.category.value == "plan"]
    assert plans and all("knee op" in text and text.endswith(" planned.") for text in plans)
    assert not any("plans to in" in text or "plans to for" in text for text in plans)


def test_a_place_read_with_the_word_before_it_is_the_place(tmp_path: Path) -> None:
    """The graph tags "in Loveland" in a long chatty message: the home is Loveland (the
    fact "lives in in Loveland" was dropped whole, so nothing was stored). The home held
    before makes the unsure reading an update (S54 reads the place at 0.77)."""
    model = build(ModelSettings(options={"reader": "tuned"}))
    with Memory.open(tmp_path / "m.db", model=model, background_worker=False) as mem:
        mem.add_turn("chat:pals", "I live in Fort Collins.", speaker="Lacey")
        mem.add_turn(
            "chat:pals",
            "FINALLY 🎉 RIP the Ford, may its door rest in peace. Big news on my end too: "
            "Jess and I moved out of Fort Collins to a little place in Loveland, rent is "
            "$400 less and there's a yard for Pickles.",
            speaker="Lacey",
        )
        mem.process_pending()
        homes = [f.value for f in mem.facts("chat:pals") if f.slot == "home"]
    assert homes == ["Loveland"]
