"""An old value the user says is over must not stay current, whether or not the reading of
its replacement is sure enough to keep (models/reader/facts.py, :func:`settled`).

The tagger's spans are given by marks (``[[medication.former~0.99|metformin]]``, see
tests/models/marks.py) through a TrainedReader whose tagging step is the marks: everything
after the tagger is the shipped code, with the label bars given here as a manifest
would (medication 0.98, updates of held slots at 0.9), run through the public Memory API.
"""

from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.models.marks import by_sentence, unmarked
from threefold import Memory
from threefold.domain import Fact, FactStatus
from threefold.models.base import ExtractedFact, Standing, TurnInput
from threefold.models.heuristic import HeuristicModel
from threefold.models.reader import TrainedReader
from threefold.models.reader.heads import Span

START = datetime(2026, 3, 2, 9, tzinfo=UTC)
BARS = {"medication": 0.98, "diet": 0.97, "birthday": 0.9, "owns": 0.9}


class MarkedTagger(TrainedReader):
    """The trained reader with its tagger replaced by the marks of each turn."""

    def __init__(self, marked: list[str]) -> None:
        super().__init__(label_least=BARS, held_least=0.9)
        self.spans = dict(unmarked(m) for m in marked)

    def sentence_spans(self, turn: TurnInput) -> list[tuple[str, list[Span]]]:
        return by_sentence(turn.user, self.spans.get(turn.user, []))


class ReaderAlone(HeuristicModel):
    """The reader's facts as the engine gets them, without the rules beside them."""

    def extract_facts(self, turn: TurnInput) -> list[ExtractedFact]:
        assert self.reader is not None
        return self.reader.extract_facts(turn)


def chat(tmp_path: Path, turns: list[str], erase_first: str = "") -> list[Fact]:
    """Every fact stored from the marked user texts `turns`, any status. `erase_first`:
    a value whose fact is erased before the last turn."""
    model = ReaderAlone(MarkedTagger(turns))
    with Memory.open(tmp_path / "m.db", model=model, embedder=None, background_worker=False) as mem:
        for n, user in enumerate(turns):
            if erase_first and n == len(turns) - 1:
                mem.process_pending()
                for fact in mem.facts("chat:c"):
                    if fact.value.lower() == erase_first:
                        mem.erase(fact_id=fact.id)
            mem.add_turn(
                "chat:c", user=unmarked(user)[0], assistant="OK.", at=START + timedelta(hours=n)
            )
        mem.process_pending()
        return mem.facts("chat:c", include_inactive=True)


def active(facts: list[Fact]) -> set[tuple[str, str]]:
    return {(f.slot, f.value.lower()) for f in facts if f.active}


def status(facts: list[Fact], value: str) -> list[FactStatus]:
    return [f.status for f in facts if f.value.lower() == value]


HELD = "been on [[medication|metformin]] since spring"
OFF = "took me off the [[medication.former~0.99|metformin]], [[medication~0.7|jardiance]] now"


def test_a_sure_ending_makes_an_unsure_replacement_an_update(tmp_path: Path) -> None:
    """The replacement is below its label's bar and the bar of held slots: alone it would
    only be a hint, and the old value it names stayed current."""
    facts = chat(
        tmp_path,
        [
            HELD,
            OFF,
        ],
    )
    assert status(facts, "metformin") == [FactStatus.SUPERSEDED]
    assert active(facts) == {("medication:metformin", "jardiance")}


def test_an_ending_without_a_replacement_worth_keeping_ends_the_old_value(
    tmp_path: Path,
) -> None:
    """The replacement fails a check of its own (it only names its kind): the old value
    is said to be over on its own."""
    facts = chat(
        tmp_path,
        [HELD, "off the [[medication.former~0.99|metformin]], on a new [[medication|medication]]"],
    )
    assert status(facts, "metformin") == [FactStatus.SUPERSEDED]
    assert active(facts) == {("medication:metformin", "not metformin")}


def test_a_replacement_in_another_sentence_takes_the_keyed_slot(tmp_path: Path) -> None:
    """A keyed value's new key is a slot apart: keyed by the old value it replaces, the
    new one supersedes it, as in one sentence."""
    facts = chat(
        tmp_path,
        [HELD, "Took me off the [[medication.former|metformin]]. On [[medication|Jardiance]] now."],
    )
    assert status(facts, "metformin") == [FactStatus.SUPERSEDED]
    assert active(facts) == {("medication:metformin", "jardiance")}


def test_two_endings_and_one_new_key_end_both_and_key_neither(tmp_path: Path) -> None:
    """Which of two old values a new one replaces is unclear: each old one is said to be
    over, and the new one keeps its own key."""
    facts = chat(
        tmp_path,
        [
            "I have a [[owns|Corsa]] and a [[owns|Vespa]].",
            "Sold the [[owns.former|Corsa]]. Sold the [[owns.former|Vespa]] too."
            " Got a [[owns|Tesla]].",
        ],
    )
    assert status(facts, "corsa") == [FactStatus.SUPERSEDED]
    assert status(facts, "vespa") == [FactStatus.SUPERSEDED]
    assert ("owns:tesla", "tesla") in active(facts)
    assert not {v for _, v in active(facts)} & {"corsa", "vespa"}


def test_a_kept_replacement_ends_the_old_value_once(tmp_path: Path) -> None:
    """Both read surely, in either order: the new value supersedes the old through its
    slot, and no "not vegetarian" is stored after it to end the new one instead."""
    for n, said in enumerate(
        [
            "[[diet|pescatarian]] now, not [[diet.neg|vegetarian]]",
            "not [[diet.neg|vegetarian]] any more, [[diet|pescatarian]] now",
        ]
    ):
        folder = tmp_path / str(n)
        folder.mkdir()
        facts = chat(folder, ["I'm [[diet|vegetarian]].", said])
        assert active(facts) == {("diet", "pescatarian")}
        assert not [f for f in facts if f.value.lower().startswith("not ")]


def test_an_update_replacement_ends_the_old_value_once(tmp_path: Path) -> None:
    """A replacement stored as an update of the held slot takes it: the ending is not
    stored beside it."""
    facts = chat(
        tmp_path,
        [
            "I'm [[diet|vegetarian]].",
            "not [[diet.neg|vegetarian]] any more, [[diet~0.95|pescatarian]]",
        ],
    )
    assert active(facts) == {("diet", "pescatarian")}
    assert not [f for f in facts if f.value.lower().startswith("not ")]


def test_a_former_value_with_nothing_held_stores_nothing_unsure(tmp_path: Path) -> None:
    """Nothing held: the unsure replacement, an update, changes nothing and is not stored,
    and the ending it takes the place of is not stored either."""
    facts = chat(
        tmp_path,
        ["took me off the [[medication.former~0.99|metformin]], [[medication~0.7|jardiance]] now"],
    )
    assert facts == []


def test_a_correction_with_nothing_before_it_is_only_the_new_value(tmp_path: Path) -> None:
    facts = chat(tmp_path, ["no wait, [[birthday|13th]] not [[birthday.neg|3rd]]"])
    assert active(facts) == {("birthday", "13th")}
    assert [f.status for f in facts] == [FactStatus.ACTIVE]


def test_an_erased_value_said_over_stays_erased(tmp_path: Path) -> None:
    facts = chat(
        tmp_path,
        [
            HELD,
            OFF,
        ],
        erase_first="metformin",
    )
    assert not [f for f in facts if "metformin" in f.value.lower() and f.active]
    assert not [f for f in facts if f.value.lower() == "jardiance"]


def test_readings_give_the_unsure_replacement_as_an_update() -> None:
    reader = MarkedTagger(
        ["off the [[medication.former~0.99|metformin]], [[medication~0.7|jardiance]]"]
    )
    turn = TurnInput(stream="s", user="off the metformin, jardiance", at=START)
    assert [(r.fact.value, r.standing) for r in reader.readings(turn)] == [
        ("jardiance", Standing.UPDATE)
    ]


def rules_chat(tmp_path: Path, user: str) -> list[Fact]:
    with Memory.open(
        tmp_path / "r.db", model=HeuristicModel(), embedder=None, background_worker=False
    ) as mem:
        mem.add_turn("chat:r", user=user, assistant="Nice to meet you.", at=START)
        mem.process_pending()
        return mem.facts("chat:r", include_inactive=True)


def test_a_turn_that_says_no_change_does_not_supersede_its_own_fact(tmp_path: Path) -> None:
    """A second value read into one slot without a change word is no update of the first."""
    facts = rules_chat(tmp_path, "g'day. Shane, 41, electrician, Ipswich")
    names = [(f.value.lower(), f.status) for f in facts if f.slot == "name"]
    assert names == [("shane", FactStatus.ACTIVE)]


def test_a_turn_that_says_a_change_keeps_its_later_value(tmp_path: Path) -> None:
    facts = rules_chat(tmp_path, "I'm 34, no wait, 35.")
    assert [f.value for f in facts if f.slot == "age" and f.active] == ["35"]
