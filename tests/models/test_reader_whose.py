"""Whose a value is when a sentence opens with someone the memory knows, through Memory.

The tagger's spans are given (marked as in training/written), so these tests hold the way
from the spans to the stored facts (models/reader/whose.py, the handler's TurnInput.people)
whatever graph ships; benchmarks/frozen_sets.py measures the real graph.
"""

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from tests.models.marks import by_sentence, unmarked
from threefold import Memory
from threefold.domain import Fact
from threefold.entities import lowercase_names
from threefold.models.base import TurnInput
from threefold.models.heuristic import HeuristicModel
from threefold.models.reader import TrainedReader
from threefold.models.reader.facts import referent_subject
from threefold.models.reader.heads import Span
from threefold.models.reader.whose import whose

MemoryFactory = Callable[..., Memory]
START = datetime(2026, 5, 4, 18, tzinfo=UTC)


class MarkedReader(TrainedReader):
    """The trained reader with its tagger replaced by the marks of the test's turns."""

    def __init__(self, marked: list[str]) -> None:
        super().__init__()
        self.manifest = {"min_confidence": 0.5}
        self.spans = dict(unmarked(m) for m in marked)

    def sentence_spans(self, turn: TurnInput) -> list[tuple[str, list[Span]]]:
        return by_sentence(turn.user, self.spans.get(turn.user, []))


def facts_of(open_memory: MemoryFactory, turns: list[tuple[str, str | None]]) -> list[Fact]:
    """The active facts after each (marked text, speaker) is said in one chat, in order."""
    mem = open_memory(HeuristicModel(MarkedReader([text for text, _ in turns])))
    for n, (text, speaker) in enumerate(turns):
        mem.add_turn(
            "chat:g", user=unmarked(text)[0], at=START + timedelta(minutes=n), speaker=speaker
        )
        mem.process_pending()
    return mem.facts("chat:g")


def owners(facts: list[Fact], value: str) -> set[str]:
    return {f.subject for f in facts if value.lower() in f.value.lower()}


@pytest.mark.parametrize(
    ("greeter", "said", "value", "owner"),
    [
        # news of a member of the chat the memory knows is theirs
        ("Marco", "Marco bought a [[owns|second-hand Fenlin hatchback]].", "Fenlin", "marco"),
        # a sentence in the first person stays the writer's
        ("Marco", "Marco and I bought a [[owns|camper van]] together.", "camper van", "rafael"),
        # the writer's own name changes nothing
        ("Rafael", "Rafael bought a [[owns|Vespa]], as promised.", "Vespa", "rafael"),
        # a name said to its bearer leaves the news the writer's
        ("Marco", "Marco, got the job at [[employer|Aldi]]!!", "Aldi", "rafael"),
        # nobody called Ottilie spoke or was spoken of: no one to hand the value to
        ("Marco", "Ottilie bought a [[owns|Vespa]].", "Vespa", "rafael"),
    ],
)
def test_whose_a_sentence_opening_with_a_name_is(
    open_memory: MemoryFactory, greeter: str, said: str, value: str, owner: str
) -> None:
    facts = facts_of(open_memory, [("Morning all.", greeter), (said, "Rafael")])
    assert owners(facts, value) == {owner}


@pytest.mark.parametrize(
    ("turns", "value", "owner"),
    [
        (
            [
                "My [[REL|brother]] [[relation|Harjit]] is visiting next week.",
                "Harjit's new place is in [[home@per|Leith]], ten minutes from us.",
            ],
            "Leith",
            "harjit",
        ),
        # in text all in lowercase, a known person is found by any word
        (
            [
                "My [[REL|wife]] [[relation|Shona]] is a dental nurse.",
                "shona's the [[job@per|practice manager]] noo, got the promotion friday",
            ],
            "practice manager",
            "shona",
        ),
    ],
)
def test_a_named_persons_value_finds_its_name(
    open_memory: MemoryFactory, turns: list[str], value: str, owner: str
) -> None:
    facts = facts_of(open_memory, [(said, None) for said in turns])
    assert owners(facts, value) == {owner}


def test_a_full_name_is_read_as_written_however_spaced() -> None:
    spans, writer = whose("Lena  Ortiz bought a Vespa.", [], "rafael", {"lena ortiz"})
    assert writer == "lena ortiz" and [(s.start, s.end, s.label) for s in spans] == [(0, 11, "PER")]


def test_a_relative_of_the_named_person_keeps_the_value_from_them(
    open_memory: MemoryFactory,
) -> None:
    said = "Marco's sister lives in [[home@per|Leeds]] now."
    facts = facts_of(open_memory, [("Evening!", "Marco"), (said, "Rafael")])
    assert "marco" not in owners(facts, "Leeds")


@pytest.mark.parametrize(
    ("said", "value", "owner"),
    [
        # "she" in a sentence that names nobody is the person named before it in the turn
        (
            "Any ideas for my [[REL|mum]] [[relation|Mere]]? She turns [[age@per|65]] in March.",
            "65",
            "mere",
        ),
        ("My [[REL|son]] works nights. He is [[age@rel|17]] now.", "17", "user's son"),
        # a sentence that names someone itself keeps them
        (
            "My [[REL|son]] [[relation|Gary]] is in. [[PER|Kayla]] is [[age@per|9]], he loves her.",
            "9",
            "kayla",
        ),
    ],
)
def test_he_or_she_is_whom_the_turn_named_last(
    open_memory: MemoryFactory, said: str, value: str, owner: str
) -> None:
    assert owners(facts_of(open_memory, [(said, None)]), value) == {owner}


@pytest.mark.parametrize(
    ("said", "value"),
    [
        # the one greeted is "you" to the writer, never whom a later "she" means
        ("Welcome [[PER|Joss]]! Ines, I saved beans for your Malu, she's [[age@per|4]] now.", "4"),
        ("Morning [[PER|Ravi]]! She turned [[age@per|9]] on Sunday, had a lovely party.", "9"),
        ("Thanks so much, [[PER|Odile]]! He is [[age@per|12]] next week.", "12"),
    ],
)
def test_he_or_she_is_never_the_one_greeted(
    open_memory: MemoryFactory, said: str, value: str
) -> None:
    assert owners(facts_of(open_memory, [(said, "Dora")]), value) == set()


def test_he_or_she_alone_is_nobody_the_turn_named(open_memory: MemoryFactory) -> None:
    # no one named before it, and no turn before to say whom: the value has no owner
    assert owners(facts_of(open_memory, [("She is [[age@per|65]] now.", None)]), "65") == set()


@pytest.mark.parametrize(
    ("referent", "me", "subject"),
    [("my mum", "user", "user's mother"), ("Raj", "user", "raj"), ("my son", "dana", "dana's son")],
)
def test_whom_the_turn_before_named_is_a_subject(referent: str, me: str, subject: str) -> None:
    assert referent_subject(referent, me) == subject


def said_in_turns(open_memory: MemoryFactory, turns: list[tuple[str, str, str | None]]) -> Memory:
    """A memory after each (marked user side, assistant side, speaker) is said in one chat."""
    mem = open_memory(HeuristicModel(MarkedReader([user for user, _, _ in turns])))
    for n, (user, assistant, speaker) in enumerate(turns):
        mem.add_turn(
            "chat:g",
            user=unmarked(user)[0],
            assistant=assistant,
            at=START + timedelta(minutes=n),
            speaker=speaker,
        )
        mem.process_pending()
    return mem


@pytest.mark.parametrize(
    ("turns", "value", "owner"),
    [
        # the graph tags no name: the one person the memory knows that the sentence names
        (
            [
                ("My [[REL|daughter]] [[relation|Camille]] lives in Lyon.", ""),
                ("The birthday of Camille it is the [[birthday@per|23 April]].", ""),
            ],
            "23 April",
            {"camille"},
        ),
        # two known people named: no one to hand it to
        (
            [
                ("[[REL|Son]] [[relation|Julien]], [[REL|daughter]] [[relation|Camille]].", ""),
                ("One of them, Julien or Camille, is [[age@per|12]], I forget.", ""),
            ],
            "12",
            set(),
        ),
        # "she" past a sentence's start means whom the turn before named
        (
            [
                ("My [[REL|niece]] is [[relation|Lucía]].", "How old is Lucía now?"),
                ("I must correct myself: she is [[age@per|11]].", ""),
            ],
            "11",
            {"lucía"},
        ),
    ],
)
def test_whose_a_value_said_of_someone_else_is(
    open_memory: MemoryFactory, turns: list[tuple[str, str]], value: str, owner: set[str]
) -> None:
    mem = said_in_turns(open_memory, [(user, assistant, None) for user, assistant in turns])
    assert owners(mem.facts("chat:g"), value) == owner


def test_she_in_a_reply_is_the_known_person_the_question_opened_with(
    open_memory: MemoryFactory,
) -> None:
    mem = said_in_turns(
        open_memory,
        [
            ("Wife is Liisa. [[REL|Daughter]] is [[relation|Aino]].", "Noted.", None),
            ("She is [[age@per|7]].", "Aino is 7, so she starts school next autumn?", None),
            ("No. She is [[age@per|8]]. I typed it wrong.", "", None),
        ],
    )
    ages = {f.value for f in mem.facts("chat:g") if f.subject == "aino" and f.slot == "age"}
    assert ages == {"8"}


def test_a_name_after_the_value_is_whom_it_is_said_to(open_memory: MemoryFactory) -> None:
    facts = facts_of(
        open_memory,
        [
            (
                "[[REL|Flatmate]] [[relation|Pete]] and [[REL|sister]] [[relation|Kim]] came by.",
                None,
            ),
            ("she's [[age@per|28]] pete, we did her birthday drinks", None),
        ],
    )
    assert "pete" not in owners(facts, "28")


def test_only_text_written_all_in_lowercase_is_read_word_by_word() -> None:
    assert lowercase_names("Shona's the practice manager now") == []
    assert lowercase_names("shona's the practice manager noo") == [
        "shona",
        "practice",
        "manager",
        "noo",
    ]


@pytest.mark.parametrize(
    ("said", "owner"),
    [
        # a member spoken to by name: what is said of "you" is theirs
        ("dani you're [[age|32]] now, we did the party in march", {"dani"}),
        ("Dani, you're [[age|32]] not 31 😂", {"dani"}),
        ("you're [[age|32]] dani", {"dani"}),
        # the writer speaking of themselves keeps it
        ("dani I'm [[age|32]] you know", {"rosa"}),
        # someone the chat does not know is no one to give it to: refused as the writer's
        ("sam you're [[age|32]] now", set()),
        # asked, not told
        ("dani you're [[age|32]]?? no way", set()),
    ],
)
def test_what_is_said_of_a_member_addressed_by_name_is_theirs(
    open_memory: MemoryFactory, said: str, owner: set[str]
) -> None:
    facts = facts_of(open_memory, [("hi all", "Dani"), (said, "Rosa")])
    assert owners(facts, "32") == owner


def test_a_one_person_chat_gives_nothing_to_the_one_addressed(open_memory: MemoryFactory) -> None:
    facts = facts_of(
        open_memory, [("Dani is my flatmate.", None), ("dani you're [[age|32]]", None)]
    )
    assert owners(facts, "32") == set()
