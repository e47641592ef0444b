"""A busy stream searches as a fresh process would (issue 41's speed on busy streams).

A turn's row never changes, so what a search read of the turns (their rows, whether they
pass a filter, a person's items in the full-text index, which words are common) is kept
while only turns are added, and forgotten when an erasure deletes some. Each test asks a
memory that has searched all along and one opened afresh on the same file, after every
change, and wants the same answer. Through Memory, on real SQLite files (and PostgreSQL,
which keeps no such reads, under THREEFOLD_TEST_BACKEND=postgres).
"""

from datetime import UTC, datetime, timedelta

from tests.scripted_model import ScriptedModel

T0 = datetime(2025, 3, 3, 9, tzinfo=UTC)
STREAM = "team:depot"
PEOPLE = ["Ines", "Bruno", "Wanjiru", "Pavel"]
CHORES = [
    "{p} moved the pallets of tiles to bay four",
    "{p} says the forklift battery is low again",
    "{p} signed for the delivery of grout",
    "{p} wants the loading door fixed before winter",
]
QUESTIONS = [
    "What did Ines say about the forklift?",
    "Who signed for the grout?",
    "What does Bruno drive?",
    "Anything about the Zarvek van?",
]


def answers(mem) -> list[list[tuple[str, int, float]]]:
    """Each question's top five, by kind, id and score."""
    return [
        [(h.kind, h.id, round(h.score, 9)) for h in mem.search(q, STREAM, limit=5)]
        for q in QUESTIONS
    ]


def fresh_answers(open_memory) -> list[list[tuple[str, int, float]]]:
    return answers(open_memory(ScriptedModel(), name="depot.db"))


def depot(open_memory, chores: int, *news: tuple[str, str]):
    """A memory of the depot's chat: `chores` everyday lines, then `news` (speaker, text),
    each read; it has searched once, so it holds what it read."""
    busy = open_memory(ScriptedModel(), name="depot.db")
    for n in range(chores):
        person = PEOPLE[n % 4]
        line = CHORES[n % 4].format(p=person) + f" ({n})."
        busy.add_turn(STREAM, line, speaker=person, at=T0 + timedelta(hours=n))
    for n, (person, text) in enumerate(news, start=1):
        busy.add_turn(STREAM, text, speaker=person, at=T0 + timedelta(days=1, hours=n))
    busy.process_pending()
    answers(busy)
    return busy


def said(busy, person: str, text: str, hours: int) -> None:
    """`person` says `text` a day after the chores, and the memory reads it."""
    busy.add_turn(STREAM, text, speaker=person, at=T0 + timedelta(days=2, hours=hours))
    busy.process_pending()


BRUNOS_VAN = ("Bruno", "Bruno drives the Zarvek van now.")


def test_new_turns_are_found_by_a_memory_that_searched_before(open_memory) -> None:
    busy = depot(open_memory, 24)
    news = [
        BRUNOS_VAN,
        ("Ines", "Ines fixed the forklift battery herself."),
        ("Pavel", "The Zarvek van is Bruno's, Pavel says."),
    ]
    for n, (person, text) in enumerate(news, start=1):
        said(busy, person, text, n)
        now = answers(busy)
        assert now == fresh_answers(open_memory)
    found = {i for hits in now for _, i, _ in hits}
    newest = max(t.id for t in busy.turns(STREAM))
    assert newest in found  # the last news is among the answers, not only equal to them


def test_an_erased_turn_is_not_found_by_a_memory_that_searched_before(open_memory) -> None:
    busy = depot(open_memory, 12, BRUNOS_VAN)
    busy.erase(entity="Bruno")
    assert answers(busy) == fresh_answers(open_memory)
    assert not [t for t in busy.turns(STREAM) if t.speaker == "Bruno"]
    assert all("Zarvek" not in h.text for q in QUESTIONS for h in busy.search(q, STREAM, limit=5))


def test_a_word_made_common_by_new_turns_is_no_longer_rare(open_memory) -> None:
    """Rare words weigh in ranking (rerank.specific): a memory that counted "zarvek" rare
    before five turns said it counts it as a fresh memory does after them."""
    busy = depot(open_memory, 12, BRUNOS_VAN)
    for n in range(5):
        said(busy, "Pavel", f"The Zarvek van needs a wash, round {n}.", n)
        assert answers(busy) == fresh_answers(open_memory)


def test_a_word_made_rare_by_an_erasure_is_rare_again(open_memory) -> None:
    """...and one that counted "zarvek" common counts it as a fresh memory does once the
    turns that said it are erased."""
    washes = [("Pavel", f"The Zarvek van needs a wash, round {n}.") for n in range(5)]
    busy = depot(open_memory, 12, BRUNOS_VAN, *washes)
    busy.erase(entity="Pavel")
    assert answers(busy) == fresh_answers(open_memory)
