"""What a turn holds that is no news of real people: a text handed over to be translated
or proofread (issue 35, deliverable 4), a sentence told as fiction (issue 36)."""

from collections.abc import Callable

import pytest

from tests.conftest import MemoryFactory
from threefold.models.heuristic.not_news import without_fiction, without_worked_text

HANDED_OVER = {
    "quoted for a translation": (
        'Translate this to French for me: "I live in Paris and I work as a doctor."'
    ),
    "after a colon": "Can you translate this into German: I am a nurse and I live in Leeds.",
    "in single marks": "how do you say 'my husband is allergic to nuts' in Spanish?",
    "a letter to proofread": (
        'Can you proofread my cover letter? "I have five years of experience as a nurse at '
        "St Thomas' Hospital and I speak fluent Spanish.\""
    ),
}


def test_the_writers_own_news_beside_the_text_is_still_read(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    text = (
        "Can you translate this into Italian: I am a nurse and I live in Leeds.\n"
        "It's for my sister Ana, she lives in Milan."
    )
    mem.add_turn("chat:1", text, "Sure.")
    mem.process_pending()
    said = {(f.subject, f.value.lower()) for f in mem.facts("chat:1")}
    assert ("user", "leeds") not in said and ("user", "nurse") not in said
    assert ("ana", "milan") in said


def test_only_the_handed_text_is_set_aside() -> None:
    text = "how do you say 'I'm allergic to nuts' in Spanish? I'm off to Madrid on Friday."
    assert (
        without_worked_text(text) == "how do you say '…' in Spanish? I'm off to Madrid on Friday."
    )


TOLD_AS_FICTION = {
    "a novel": "In the novel, Anna lives in Paris and works as a spy.",
    "a show": "In the show, Walter is a chemistry teacher who has cancer.",
    "a dream": "Last night I dreamt I was married to Tom Hardy and we lived in Rome.",
    "a story being written": (
        "I'm writing a story where the main character, Jake, is 17 and lives in Ohio."
    ),
    "a pretence": "Let’s pretend you’re my wife and we live in Paris.",
}


NO_NEWS = {**HANDED_OVER, **TOLD_AS_FICTION}


@pytest.mark.parametrize("text", NO_NEWS.values(), ids=NO_NEWS.keys())
def test_a_text_handed_over_or_told_as_fiction_stores_nothing(
    open_memory: MemoryFactory, text: str
) -> None:
    mem = open_memory()
    mem.add_turn("chat:1", text, "Sure.")
    mem.process_pending()
    assert mem.facts("chat:1", include_inactive=True) == []


def test_the_news_after_a_dream_is_still_read(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    mem.add_turn("chat:1", "I dreamt I lived in Rome. Anyway, I live in Leeds now.", "Ha!")
    mem.process_pending()
    assert [f.value.lower() for f in mem.facts("chat:1") if f.slot == "home"] == ["leeds"]


LEFT_WHOLE = [
    # no text is handed over: a quotation, an apostrophe, a colon
    (without_worked_text, 'I told him "I am moving to Leeds in May" and he went quiet.'),
    (without_worked_text, "the kids' toys are everywhere, I'm a nurse so I'm never home"),
    (without_worked_text, "Note to self: dentist on Friday."),
    # a frame's words, but no story: not at the sentence's start, or not the phrase
    (without_fiction, "I work in the film industry in London."),
    (without_fiction, "I can't imagine living anywhere but Leeds."),
    (without_fiction, "My son is in the play on Friday."),
]


@pytest.mark.parametrize(("set_aside", "text"), LEFT_WHOLE)
def test_news_is_left_whole(set_aside: Callable[[str], str], text: str) -> None:
    assert set_aside(text) == text
