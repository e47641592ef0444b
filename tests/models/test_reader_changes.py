"""Updates and corrections as the trained reader states them, through the public Memory API.

The tagger's spans are given here (marked inline as in training/written: ``[[home.former|
Leeds]]``), so these tests hold the rest of the way to what is stored: how former, denied
and replaced values become facts (models/reader/facts.py), and how the engine ends, retracts
or supersedes the older fact (layers/facts.py). What the tagger reads is measured by
benchmarks/frozen_sets.py and the written dev split, not asserted here.
"""

from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.models.marks import by_sentence, unmarked
from threefold import Memory
from threefold.domain import Fact, FactStatus
from threefold.models.base import ExtractedFact, TurnInput
from threefold.models.heuristic import HeuristicModel
from threefold.models.reader.facts import turn_readings

START = datetime(2026, 3, 2, 9, tzinfo=UTC)


class MarkedReader(HeuristicModel):
    """Reads each turn by the marks its test gave it, sentence by sentence as the trained
    reader does, and nothing else (no rules beside it)."""

    def __init__(self, marked: list[str]) -> None:
        super().__init__()
        self.spans = dict(unmarked(m) for m in marked)

    def extract_facts(self, turn: TurnInput) -> list[ExtractedFact]:
        sentences = by_sentence(turn.user, self.spans.get(turn.user, []))
        return [fact for _, fact, _ in turn_readings(sentences, "user")]


def chat(tmp_path: Path, turns: list[tuple[str, str]]) -> list[Fact]:
    """Every fact stored from `turns` (marked user text, assistant reply), any status."""
    model = MarkedReader([user for user, _ in turns])
    with Memory.open(tmp_path / "m.db", model=model, embedder=None, background_worker=False) as mem:
        for n, (user, assistant) in enumerate(turns):
            mem.add_turn(
                "chat:c", user=unmarked(user)[0], assistant=assistant, at=START + timedelta(hours=n)
            )
        mem.process_pending()
        return mem.facts("chat:c", include_inactive=True)


def state(facts: list[Fact], value: str) -> list[FactStatus]:
    return [f.status for f in facts if f.value.lower() == value.lower()]


def active(facts: list[Fact]) -> set[tuple[str, str]]:
    return {(f.slot, f.value.lower()) for f in facts if f.active}


def test_a_former_value_with_its_replacement_ends_the_old_home(tmp_path: Path) -> None:
    facts = chat(
        tmp_path,
        [
            ("I live in [[home|Leeds]] with my partner.", "Leeds is lovely."),
            ("we left [[home.former|Leeds]], [[home|Manchester]] now", "How is it?"),
        ],
    )
    assert state(facts, "Leeds") == [FactStatus.SUPERSEDED]
    assert active(facts) == {("home", "manchester")}  # no "previous home" left current


def test_a_replacement_in_the_next_sentence_replaces(tmp_path: Path) -> None:
    facts = chat(
        tmp_path,
        [
            ("I'm a dev at [[employer|Monzo]].", "Nice."),
            ("Left [[employer.former|Monzo]] in May. I'm at [[employer|Wise]] now.", "Congrats."),
        ],
    )
    assert state(facts, "Monzo") == [FactStatus.SUPERSEDED]
    assert active(facts) == {("employer", "wise")}


def test_a_correction_in_one_sentence_supersedes_and_is_marked(tmp_path: Path) -> None:
    facts = chat(
        tmp_path,
        [
            ("my birthday's the [[birthday|3rd of May]]", "Noted."),
            ("no wait, [[birthday|13th]] not [[birthday.neg|3rd]]", "Got it."),
        ],
    )
    assert state(facts, "3rd of May") == [FactStatus.SUPERSEDED]
    # the day named after "not" is replaced in the value that holds it (layers/swaps.py)
    assert [(f.value, f.confidence) for f in facts if f.active] == [("13th of may", 1.0)]


def test_a_denial_answering_a_question_retracts_the_value_it_names(tmp_path: Path) -> None:
    """ "nope, shellfish" corrects the allergy the answered question names, though the
    reply names only the new one, and the old was said turns before."""
    facts = chat(
        tmp_path,
        [
            ("I'm allergic to [[allergy|peanuts]].", "Noted."),
            ("I'm also allergic to [[allergy|cats]].", "So you're allergic to peanuts?"),
            ("nope, [[allergy|shellfish]]", "Sorry, shellfish it is."),
        ],
    )
    assert state(facts, "peanuts") == [FactStatus.RETRACTED]
    assert active(facts) == {("allergy:cats", "cats"), ("allergy:shellfish", "shellfish")}


def test_a_reply_without_a_denial_adds_and_retracts_nothing(tmp_path: Path) -> None:
    facts = chat(
        tmp_path,
        [
            ("I'm allergic to [[allergy|peanuts]].", "So you're allergic to peanuts?"),
            ("yes, and [[allergy|shellfish]]", "Noted both."),
        ],
    )
    assert active(facts) == {("allergy:peanuts", "peanuts"), ("allergy:shellfish", "shellfish")}


def test_a_value_said_to_be_over_ends_the_one_held(tmp_path: Path) -> None:
    facts = chat(
        tmp_path,
        [
            ("we've got a [[owns|camper]] and two kids", "Lovely."),
            ("sold [[owns.former|the camper]] :( downsizing", "Sorry to hear."),
        ],
    )
    assert state(facts, "camper") == [FactStatus.SUPERSEDED]
    ended = [f for f in facts if f.active]
    assert [(f.slot, f.value, f.text) for f in ended] == [
        ("owns:camper", "not camper", "The user no longer has a camper.")
    ]


def test_a_denied_value_nothing_replaces_ends_it(tmp_path: Path) -> None:
    facts = chat(
        tmp_path,
        [
            ("i'm [[diet|vegan]] btw", "Noted."),
            ("not [[diet.neg|vegan]] anymore, long story", "Fair enough."),
        ],
    )
    assert state(facts, "vegan") == [FactStatus.SUPERSEDED]
    assert active(facts) == {("diet", "not vegan")}


def test_a_denial_without_a_change_says_the_value_never_held(tmp_path: Path) -> None:
    """'we don't have a car' is no news that a car was sold: not 'no longer has a car'."""
    facts = chat(tmp_path, [("we don't have a [[owns.neg|car]], I cycle everywhere", "Nice.")])
    assert [(f.slot, f.value, f.text) for f in facts] == [
        ("owns:car", "not car", "The user does not have a car.")
    ]


def test_a_denial_with_a_change_says_the_value_is_over(tmp_path: Path) -> None:
    facts = chat(tmp_path, [("don't have a [[owns.neg|car]] any more", "Oh?")])
    assert [f.text for f in facts] == ["The user no longer has a car."]


def test_an_age_to_come_is_said_as_one(tmp_path: Path) -> None:
    """'I turn 40 next month' is no age held today: the fact says what was said."""
    facts = chat(tmp_path, [("I turn [[age|40]] next month, help me plan a party", "Sure!")])
    assert [(f.slot, f.value, f.text) for f in facts] == [("age", "40", "The user turns 40.")]


def test_an_age_reached_is_held(tmp_path: Path) -> None:
    facts = chat(tmp_path, [("I turned [[age|40]] last week", "Happy birthday!")])
    assert [f.text for f in facts] == ["The user is 40 years old."]


def test_a_past_job_said_in_passing_leaves_the_current_one(tmp_path: Path) -> None:
    facts = chat(
        tmp_path,
        [
            ("I work at [[employer|EY]].", "Nice."),
            ("I used to work at [[employer.former|Deloitte]], years ago.", "Interesting."),
        ],
    )
    assert ("employer", "ey") in active(facts)
    assert ("former employer", "deloitte") in active(facts)


def test_a_former_value_ends_the_same_value_and_is_not_merged_into_it(tmp_path: Path) -> None:
    """ "Left Deloitte" said alone: the employer fact gives way to the former one, which is
    not taken as a better wording of it."""
    facts = chat(
        tmp_path,
        [
            ("I work at [[employer|Deloitte]].", "Nice."),
            ("handed my notice in at [[employer.former|Deloitte]] on friday", "Big step."),
        ],
    )
    held = {(f.slot, f.status) for f in facts if f.value == "Deloitte"}
    assert held == {("employer", FactStatus.SUPERSEDED), ("former employer", FactStatus.ACTIVE)}


def test_hypothetical_and_asked_values_store_nothing(tmp_path: Path) -> None:
    facts = chat(
        tmp_path,
        [
            ("thinking about moving to [[home.hypo|Cork]] but who knows", "Sounds nice."),
            ("should I go [[diet.ask|vegan]]?", "Up to you."),
        ],
    )
    assert facts == []


def test_a_value_said_with_a_consonant_gets_a_not_an(tmp_path: Path) -> None:
    facts = chat(
        tmp_path,
        [
            ("we got a [[owns|used Ford Transit]] last week", "Congrats on the van."),
            ("and I bought an [[owns|MG]] for myself", "Nice."),
        ],
    )
    assert {f.text for f in facts} == {"The user has a used Ford Transit.", "The user has an MG."}
