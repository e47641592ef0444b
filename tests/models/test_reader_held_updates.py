"""Updates the trained reader reads less surely than its label needs, through the public API.

A reading below its label's bar (the manifest's ``label_min_confidence``) is stored where
the stream holds its subject's slot with another value, if it reaches the manifest's
``held_min_confidence``: an update of an established slot. Below that, down to
``hint_min_confidence``, it stores nothing but marks the held fact possibly outdated,
naming its turn. Elsewhere it stores nothing.

The spans and their confidences are given here (``[[home~0.8|Manchester]]``), so these
tests hold the way from a reading to what is stored and shown, whatever graph ships;
benchmarks/updates_dev.py measures the real reader on development text.
"""

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from tests.models.marks import by_sentence, unmarked
from threefold import Memory
from threefold.domain import Fact, FactStatus
from threefold.models.base import Standing, TurnInput
from threefold.models.heuristic import HeuristicModel
from threefold.models.reader import TrainedReader
from threefold.models.reader.checks import BELOW, standing
from threefold.models.reader.heads import Span
from threefold.tokens import count_tokens

MemoryFactory = Callable[..., Memory]
START = datetime(2026, 4, 6, 9, tzinfo=UTC)
MANIFEST = {
    "min_confidence": 0.5,
    "label_min_confidence": {"home": 0.95, "employer": 0.95, "diet": 0.95, "owns": 0.95},
    "held_min_confidence": 0.7,
    "hint_min_confidence": 0.55,
}


class MarkedReader(TrainedReader):
    """The trained reader with its heads replaced by the marks its test gave: everything
    after the tagger (facts, checks, bars) is the shipped code."""

    def __init__(self, marked: list[str], on_read: Callable[[str], None] | None = None) -> None:
        super().__init__()
        self.manifest = dict(MANIFEST)
        self.spans = dict(unmarked(m) for m in marked)
        self.on_read = on_read

    def sentence_spans(self, turn: TurnInput) -> list[tuple[str, list[Span]]]:
        if self.on_read is not None:
            self.on_read(turn.user)
        return by_sentence(turn.user, self.spans.get(turn.user, []))


def said(
    mem: Memory, turns: list[tuple[str, str] | tuple[str, str, str]], stream: str = "chat:c"
) -> None:
    """Each (marked user text, assistant reply[, speaker]) as a turn, an hour apart."""
    for n, (user, assistant, *speaker) in enumerate(turns):
        mem.add_turn(
            stream,
            user=unmarked(user)[0],
            assistant=assistant,
            at=START + timedelta(hours=n),
            speaker=speaker[0] if speaker else None,
        )
    mem.process_pending()


def opened(open_memory: MemoryFactory, turns: list, **reader: object) -> Memory:
    marked = [t[0] for t in turns]
    return open_memory(HeuristicModel(MarkedReader(marked, **reader)))  # type: ignore[arg-type]


def holding(mem: Memory, value: str, stream: str = "chat:c") -> list[Fact]:
    return [
        f
        for f in mem.facts(stream, include_inactive=True)
        if f.value.lower() == value.lower() or f.value.lower() == f"not {value.lower()}"
    ]


def statuses(mem: Memory, value: str) -> list[FactStatus]:
    return [f.status for f in holding(mem, value)]


LEEDS = ("I live in [[home~0.99|Leeds]] and work at Sage", "Nice, noted.")


def test_the_tiers_follow_the_bars() -> None:
    span = Span(0, 4, "home", "cur", "self", 0.8)
    bars = {"*": 0.7}
    assert standing("", span, bars, 0.5) is Standing.FACT
    assert standing(BELOW, span, bars, 0.5) is Standing.UPDATE
    assert standing(BELOW, span, {"home": 0.9}, 0.5) is Standing.HINT
    assert standing(BELOW, span, {}, 0.9) is None  # no tier for it, and below the hints
    assert standing("in quotation marks", span, bars, 0.5) is None


def test_a_weak_new_value_updates_the_held_slot_and_keeps_the_chain(
    open_memory: MemoryFactory,
) -> None:
    turns = [LEEDS, ("we ended up relocating, [[home~0.8|Manchester]] now", "Oh nice.")]
    mem = opened(open_memory, turns)
    said(mem, turns)
    (new,) = [f for f in holding(mem, "Manchester") if f.active]
    assert statuses(mem, "Leeds") == [FactStatus.SUPERSEDED]
    chain = [f.value.lower() for f in mem.fact_history(new.id).chain]
    assert "leeds" in chain and "manchester" in chain


def test_a_weak_value_with_nothing_before_it_stores_nothing(open_memory: MemoryFactory) -> None:
    # a correction with nothing before it: no slot is held, so nothing is stored
    turns = [("not at [[employer.neg~0.8|Sage]] anymore, started at [[employer~0.8|Monzo]]", "ok")]
    mem = opened(open_memory, turns)
    said(mem, turns)
    assert holding(mem, "Monzo") == [] and holding(mem, "Sage") == []


def test_a_weak_ending_of_the_held_value_ends_it(open_memory: MemoryFactory) -> None:
    turns = [
        ("I'm [[diet~0.99|vegan]] btw", "noted"),
        ("gave up [[diet.former~0.8|veganism]], now [[diet~0.8|pescatarian]]", "noted"),
    ]
    mem = opened(open_memory, turns)
    said(mem, turns)
    assert [f.value for f in mem.facts("chat:c") if f.slot == "diet"] == ["pescatarian"]
    assert statuses(mem, "vegan") == [FactStatus.SUPERSEDED]


def test_a_weak_replacement_finds_the_value_under_another_key(
    open_memory: MemoryFactory,
) -> None:
    # the rules key a car as owns:car, the reader by the value it replaces (owns:fiesta)
    turns = [
        ("I have a [[owns~0.6|Fiesta]].", "Nice."),
        ("traded in the [[owns.former~0.8|Fiesta]] for an electric [[owns~0.8|Corsa]]", "Ooh."),
    ]
    mem = opened(open_memory, turns)
    said(mem, turns)
    # the Fiesta held before is history; what stays current of it says it is over
    fiesta = holding(mem, "Fiesta")
    assert [f.status for f in fiesta if f.value.lower() == "fiesta"] == [FactStatus.SUPERSEDED]
    assert all(f.value.lower() == "not fiesta" for f in fiesta if f.active)
    assert [f.active for f in holding(mem, "Corsa")] == [True]


def test_a_value_read_as_another_kind_too_changes_nothing(open_memory: MemoryFactory) -> None:
    turns = [LEEDS, ("I drive a [[owns~0.99|Camry]], the [[home~0.8|Camry]] is my happy place", "")]
    mem = opened(open_memory, turns)
    said(mem, turns)
    assert statuses(mem, "Leeds") == [FactStatus.ACTIVE]
    assert {f.slot.partition(":")[0] for f in holding(mem, "Camry")} == {"owns"}


def test_an_unsure_reading_marks_the_held_fact_naming_its_turn(
    open_memory: MemoryFactory,
) -> None:
    moving = "we ended up relocating, [[home~0.6|Manchester]] now"
    turns = [LEEDS, ("pls help", "Sure."), (moving, "")]
    mem = opened(open_memory, turns)
    said(mem, turns)
    assert holding(mem, "Manchester") == []
    (leeds,) = holding(mem, "Leeds")
    assert leeds.active and leeds.doubted_by is not None
    moved = mem.turns("chat:c")[-1]
    assert leeds.doubted_by.label() == f"turn:{moved.id}"
    text = mem.context("chat:c", "where does the user live?", budget=2000).text
    assert f"The user lives in Leeds. [turn:{leeds.source.id}" in text
    assert f"(possibly outdated: see turn:{moved.id})" in text
    notes = [c.note for c in mem.fact_history(leeds.id).changes]
    assert any(n.startswith("possibly outdated: ") for n in notes)
    # stated again later, the fact stands unmarked
    again = ("I live in [[home~0.99|Leeds]] still, the move fell through", "Ah.")
    mem.model.reader.spans.update(dict([unmarked(again[0])]))  # type: ignore[attr-defined]
    mem.add_turn("chat:c", user=unmarked(again[0])[0], at=START + timedelta(hours=5))
    mem.process_pending()
    text = mem.context("chat:c", "where does the user live?", budget=2000).text
    facts = text.split("## Facts")[1].split("## ")[0]
    assert "The user lives in Leeds." in facts and "(possibly outdated" not in facts


def test_a_repeat_of_the_held_value_ends_and_doubts_nothing(open_memory: MemoryFactory) -> None:
    turns = [
        LEEDS,
        ("still in [[home~0.6|Leeds]], love it", "Good."),
        ("[[home~0.8|Leeds]]", ""),
        ("still [[home~0.6|Leeds]], [[home~0.8|Headingley]] bit", "Nice."),  # said again
    ]
    mem = opened(open_memory, turns)
    said(mem, turns)
    (leeds,) = holding(mem, "Leeds")
    assert leeds.active and leeds.doubted_by is None
    assert holding(mem, "Headingley bit") == []


def test_hypotheticals_and_questions_touch_nothing(open_memory: MemoryFactory) -> None:
    turns = [
        LEEDS,
        ("I have a dog called [[pet~0.99|Max]]", "Cute!"),
        ("if I moved to [[home.hypo~0.9|Manchester]] would rent be cheaper?", "Maybe."),
        ("should I move to [[home.ask~0.8|York]]?", "Up to you."),
        ("if Max died I don't know what I'd do", "Let's not think about that."),
    ]
    mem = opened(open_memory, turns)
    said(mem, turns)
    (leeds,) = holding(mem, "Leeds")
    assert leeds.active and leeds.doubted_by is None
    assert holding(mem, "Manchester") == [] and holding(mem, "York") == []
    assert any(f.active and f.value.lower() == "max" for f in mem.facts("chat:c"))
    tight = mem.context("chat:c", "where does the user live?", budget=1)  # budget 1
    assert count_tokens(tight.text) <= 1


def test_two_speakers_keep_their_own_slots(open_memory: MemoryFactory) -> None:
    turns = [
        ("I live in [[home~0.99|Leeds]]", "Hi Sam!", "Sam"),
        ("been in [[home~0.8|York]] a while myself, love it", "Hi Jo!", "Jo"),
        ("haha no, [[home~0.6|Leeds]] for me still", "ok", "Sam"),
    ]
    mem = opened(open_memory, turns)
    said(mem, turns)
    (leeds,) = holding(mem, "Leeds")
    assert leeds.active and leeds.subject != "jo" and leeds.doubted_by is None
    assert holding(mem, "York") == []  # Jo held no home: a weak reading stores nothing


def test_an_erased_fact_is_held_no_more(open_memory: MemoryFactory) -> None:
    # a correction of an erased fact: nothing is held, nothing stored, nothing marked
    mem = opened(open_memory, [LEEDS, ("[[home~0.8|Manchester]] now", "ok")])
    said(mem, [LEEDS])
    (leeds,) = holding(mem, "Leeds")
    mem.erase(fact_id=leeds.id)
    said(mem, [("[[home~0.8|Manchester]] now", "ok")])
    assert holding(mem, "Manchester") == [] and holding(mem, "Leeds") == []


def test_a_forgotten_fact_is_not_updated_or_marked(open_memory: MemoryFactory) -> None:
    turns = [LEEDS, ("[[home~0.6|Manchester]] now", "ok")]
    mem = opened(open_memory, turns)
    said(mem, turns[:1])
    (leeds,) = holding(mem, "Leeds")
    mem.forget(leeds.id, reason="wrong")
    said(mem, turns[1:])
    assert mem.fact(leeds.id).status is FactStatus.RETRACTED
    assert mem.fact(leeds.id).doubted_by is None


def test_an_erase_during_the_extraction_is_not_undone(open_memory: MemoryFactory) -> None:
    moved = "we ended up relocating, [[home~0.8|Manchester]] now"
    erased: list[int] = []
    box: list[Memory] = []

    def erase_leeds(user: str) -> None:
        if user == unmarked(moved)[0] and not erased:
            (leeds,) = holding(box[0], "Leeds")
            erased.append(leeds.id)
            box[0].erase(fact_id=leeds.id)

    mem = opened(open_memory, [LEEDS, (moved, "")], on_read=erase_leeds)
    box.append(mem)
    said(mem, [LEEDS, (moved, "")])
    assert erased  # the erase ran while the turn was read; the job ran again after it
    assert holding(mem, "Leeds") == [] and holding(mem, "Manchester") == []


def test_erasing_the_doubting_turn_forgets_the_doubt(open_memory: MemoryFactory) -> None:
    turns = [
        ("I live in [[home~0.99|Leeds]]", "Hi Sam!", "Sam"),
        ("[[PER~0.9|Sam]] relocated, [[home@per~0.6|York]] these days", "Oh?", "Jo"),
    ]
    mem = opened(open_memory, turns)
    said(mem, turns)
    (leeds,) = holding(mem, "Leeds")
    assert leeds.doubted_by is not None
    mem.erase(entity="Jo")
    (leeds,) = holding(mem, "Leeds")
    assert leeds.active and leeds.doubted_by is None
