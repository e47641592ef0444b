"""The trained reader (threefold.models.reader): what it reads, and the bad input the issue
lists: a 20,000-character message, another language, only emoji, pasted code, a missing or
corrupt model file, and a turn whose answered message was erased."""

import logging
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from threefold import Memory
from threefold.domain import Turn
from threefold.errors import SettingsError
from threefold.extras import has_extra
from threefold.layers.summaries import turn_input
from threefold.models.base import PreviousTurn, Standing, TurnInput
from threefold.models.heuristic import HeuristicModel, build
from threefold.models.reader import DATA, ReaderModelError, TrainedReader
from threefold.models.reader.units import looks_like_code, units
from threefold.settings import ModelSettings

pytestmark = pytest.mark.skipif(not has_extra("local"), reason="needs the local extra")
AT = datetime(2026, 11, 2, 9, tzinfo=UTC)


@pytest.fixture(scope="module")
def reader() -> TrainedReader:
    """The heads with every label readable: these tests are of what the heads read; which
    labels the default keeps is calibrated (test_the_default_keeps_only_calibrated_labels)."""
    return TrainedReader(label_least={}).load()


def said(text: str, asked: str | None = None, speaker: str | None = None) -> TurnInput:
    previous = PreviousTurn(speaker="assistant", text=asked) if asked else None
    return TurnInput(stream="chat:t", user=text, at=AT, previous=previous, speaker=speaker)


def test_a_terse_answer_reads_as_what_it_answers(reader: TrainedReader) -> None:
    facts = reader.extract_facts(said("31", asked="How old are you?"))
    assert [(f.subject, f.slot, f.value) for f in facts] == [("user", "age", "31")]


def test_the_same_word_without_its_question_states_nothing(reader: TrainedReader) -> None:
    assert reader.extract_facts(said("31")) == []


def test_a_fact_inside_a_question_counts(reader: TrainedReader) -> None:
    facts = reader.extract_facts(said("I just moved to Bergen, where should I go for brunch?"))
    assert ("location", "home", "Bergen") in [(f.category.value, f.slot, f.value) for f in facts]


def test_a_group_chat_fact_is_the_speakers(reader: TrainedReader) -> None:
    facts = reader.extract_facts(said("I live in Galway now.", speaker="Maren"))
    assert [(f.subject, f.slot) for f in facts] == [("maren", "home")]


def test_a_20000_character_message_is_read_to_its_end(reader: TrainedReader) -> None:
    filler = "The weather was grey and the train was late again this morning. "
    text = f"{filler * 250}I live in Bergen. {filler * 100}"[:20_000]
    assert len(text) == 20_000 and text.index("Bergen") > 15_000
    assert len(units(text, None)) == text.count(". ") + 1  # every sentence, none dropped
    facts = reader.extract_facts(said(text))
    assert ("home", "Bergen") in [(f.slot, f.value) for f in facts]


def test_a_long_run_on_sentence_is_cut_and_every_piece_read() -> None:
    sentence = " ".join(["and then we walked a bit further along the river"] * 40)
    pieces = units(sentence, "What did you do?")
    assert len(pieces) > 1
    assert sum(len(p.text.split()) for p in pieces) == len(sentence.split())
    assert pieces[0].previous == "What did you do?" and all(p.previous == "" for p in pieces[1:])


@pytest.mark.parametrize(
    ("previous", "given"),
    [
        ("How old are you?", "How old are you?"),
        ("Noted. Where do you live now? 🙂", "Noted. Where do you live now? 🙂"),
        ("Lovely part of the world.", ""),
        ("Got it — you're 29 and a ski instructor.", ""),
        ("", ""),
        ("   ", ""),
        (None, ""),
        ("?", "?"),
        ("Where do you live? " + "That is a long story about the weather. " * 10, ""),
    ],
)
def test_the_answered_message_goes_with_a_reply_only_where_it_asks(
    previous: str | None, given: str
) -> None:
    """The graph learned replies to questions; an acknowledgement read before a statement
    lowers what it reads there. Only the end it reads counts: a question 400 characters
    back is not what the reply answers."""
    pieces = units("We upped sticks to Cardiff in the end. Cheaper, too.", previous)
    assert [p.previous for p in pieces] == [given, ""]


def test_only_emoji_is_not_read_and_takes_no_facts(reader: TrainedReader) -> None:
    assert units("😂😂😂 🙄", None) == []
    assert reader.extract_facts(said("🙄", asked="Are you vegetarian?")) == []


def test_pasted_code_and_stack_traces_are_not_read(reader: TrainedReader) -> None:
    trace = (
        "Traceback (most recent call last):\n"
        '  File "app.py", line 12, in <module>\n'
        "    user = load_user('I am 30 and live in Paris')\n"
        "KeyError: 'age'"
    )
    assert looks_like_code("    user = load_user('I am 30 and live in Paris')")
    assert not looks_like_code("My girlfriend (she's a vet) lives in Paris.")
    facts = reader.extract_facts(said(trace))
    assert all(f.value.lower() not in ("paris", "30") for f in facts)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("[voice note] we moved to Leeds last month", False),
        ("[photo] my new car, a red Fiat 500!", False),
        ("started at Monzo on Monday [link]", False),
        ("x = foo[3]; print(x)", True),
        ("arr[i] = arr[j]", True),
        ("[1, 2, 3]", True),
    ],
)
def test_a_tag_in_brackets_is_prose_but_an_index_is_code(text: str, code: bool) -> None:
    """A chat app's tag ("[voice note]") once made a short sentence look like code, and
    it was never read; brackets after a name or around numbers still mark code."""
    assert looks_like_code(text) is code
    assert bool(units(text, None)) is not code


def test_another_language_is_read_without_error_and_the_turn_is_kept(tmp_path: Path) -> None:
    model = build(ModelSettings(options={"reader": "auto"}))
    with Memory.open(tmp_path / "m.db", model=model, embedder=None, background_worker=False) as mem:
        turn = mem.add_turn("chat:fr", user="Je m'appelle Louis et j'habite à Marseille.")
        mem.process_pending()
        assert [t.id for t in mem.turns("chat:fr")] == [turn.id]


def test_a_missing_model_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ReaderModelError, match=str(tmp_path / "reader_manifest.json")):
        TrainedReader(folder=tmp_path).load()
    shutil.copy(DATA / "reader_manifest.json", tmp_path)
    with pytest.raises(ReaderModelError, match="reader_heads.npz are missing"):
        TrainedReader(folder=tmp_path).load()


def test_a_corrupt_model_file_is_named_and_the_rules_take_over(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    shutil.copy(DATA / "reader_manifest.json", tmp_path)
    (tmp_path / "reader_heads.npz").write_bytes(b"not a zip file at all")
    with pytest.raises(ReaderModelError, match=str(tmp_path / "reader_heads.npz")):
        TrainedReader(folder=tmp_path).load()
    model = HeuristicModel(TrainedReader(folder=tmp_path))
    with caplog.at_level(logging.WARNING):
        facts = model.extract_facts(said("I live in Bergen."))
    assert facts == HeuristicModel().extract_facts(said("I live in Bergen."))
    assert "reader_heads.npz" in caplog.text and "rules read alone" in caplog.text
    assert model.reader is None
    required = HeuristicModel(TrainedReader(folder=tmp_path), required=True)
    with pytest.raises(ReaderModelError):
        required.extract_facts(said("I live in Bergen."))


def test_an_unknown_reader_option_is_a_settings_error() -> None:
    with pytest.raises(SettingsError, match="reader must be one of"):
        build(ModelSettings(options={"reader": "neural"}))


def test_the_rules_option_reads_with_rules_alone() -> None:
    assert build(ModelSettings(options={"reader": "rules"})).reader is None


def test_a_turn_whose_answered_message_was_erased_loses_nothing(tmp_path: Path) -> None:
    with Memory.open(tmp_path / "m.db", embedder=None, background_worker=False) as mem:
        mem.add_turn("chat:e", user="Hi.", assistant="Did Oriel tell you how old you are?")
        kept = mem.add_turn("chat:e", user="31, and I live in Bergen.")
        mem.erase(entity="Oriel")
        mem.process_pending()
        assert kept.id in [t.id for t in mem.turns("chat:e")]
        values = [f.value.lower() for f in mem.facts("chat:e")]
        assert "bergen" in values


def test_a_question_is_read_whole_and_states_only_what_it_says_on_the_way() -> None:
    """People say what they are inside what they ask (issue 35: "statements inside
    questions count"); what a question asks about states nothing."""
    assert [p.text for p in units("What is 34 times 34?", "It is 1089.")] == [
        "What is 34 times 34?"
    ]
    default = build(ModelSettings())  # the default reader: the tuned graph beside the rules

    def stored(text: str) -> list[str]:
        return [f.text for f in default.extract_facts(said(text)) if f.standing is Standing.FACT]

    assert "The user takes sertraline." in stored(
        "Is it safe to take ibuprofen with my sertraline?"
    )
    assert "Dave is the user's spouse." in stored(
        "What can I cook for my husband Dave who is allergic to nuts?"
    )
    for asked in ("Are you vegan?", "should I move to Utrecht?", "What is 34 times 34?"):
        assert stored(asked) == [], asked


def test_a_repair_turns_readings_wait_for_the_repair_layer(reader: TrainedReader) -> None:
    """On a repair turn the rules' facts stand as facts; what the reader adds is stored
    only where the repair layer edits nothing of its kind (Standing.BESIDE_REPAIR)."""
    model = HeuristicModel(reader)
    turn = said("Wait, it's amoxicillin, not penicillin.").model_copy(update={"repair": True})
    rules = HeuristicModel().extract_facts(turn)
    read = model.extract_facts(turn)
    assert [f for f in read if f.standing is Standing.FACT] == rules
    added = [f for f in read if f not in rules]
    assert added and all(f.standing is Standing.BESIDE_REPAIR for f in added)


def test_the_pipeline_marks_a_repair_for_the_readers() -> None:
    stored = Turn(
        id=1,
        tenant="default",
        stream="chat:t",
        seq=1,
        at=AT,
        recorded_at=AT,
        tokens=9,
        user="Wait, it's amoxicillin, not penicillin.",
        assistant="",
    )
    assert turn_input(stored).repair
    assert not turn_input(stored.model_copy(update={"user": "I take amoxicillin."})).repair


def test_the_default_keeps_only_calibrated_labels() -> None:
    """A label its development readings never made precise enough is off by default: the
    reading is made, and refused as a fact of its own (it may still change a held slot:
    tests/models/test_reader_held_updates.py)."""
    default = TrainedReader().load()
    off = [k for k, v in default.manifest["label_min_confidence"].items() if v > 1]
    assert "age" in off
    readings = default.readings(said("31", asked="How old are you?"))
    assert [(r.fact.slot, r.refused) for r in readings] == [("age", "below its label's confidence")]
    read = default.extract_facts(said("31", asked="How old are you?"))
    assert [f for f in read if f.standing is Standing.FACT] == []


def test_a_question_about_a_held_value_does_not_doubt_it(tmp_path: Path) -> None:
    """An unsure reading of what a question asks about is no hint that a held value
    changed: "are you vegan?" leaves "pescatarian" current, unmarked."""
    with Memory.open(tmp_path / "m.db", background_worker=False) as mem:
        mem.add_turn("chat:q", "I'm pescatarian and I live in Leeds.", "Noted.")
        for asked in ("Are you vegan?", "should I move to Utrecht?"):
            mem.add_turn("chat:q", asked, "That depends.")
        mem.process_pending()
        ctx = mem.context("chat:q", "What do I eat and where do I live?", budget=2000)
        facts = [i.text for i in ctx.section("stream_facts").items]
        assert any("pescatarian" in f for f in facts) and any("Leeds" in f for f in facts)
        assert not [f for f in facts if "outdated" in f], facts
