"""A correction said in passing, inside a longer message ("ha it's a Superb not an Octavia,
the company swapped it"), edits the fact that holds the value after "not"
(layers/swaps.py). tests/data/swaps_in_sentences.json records its dev set's first run.
Through the public API, offline, on real SQLite."""

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from threefold import Memory
from threefold.domain import FactStatus
from threefold.layers.swaps import read_swaps

T0 = datetime(2026, 10, 5, 9, 0, tzinfo=UTC)
CASES = json.loads((Path(__file__).parent / "data" / "swaps_in_sentences.json").read_text())


def _say(mem: Memory, stream: str, *turns: str) -> None:
    for i, text in enumerate(turns):
        mem.add_turn(stream, user=text, assistant="", at=T0 + timedelta(hours=i))
    mem.process_pending()


def _current(mem: Memory, stream: str = "chat:me") -> list[str]:
    return [f.text.lower() for f in mem.facts(stream)]


def _says(texts: list[str], word: str) -> bool:
    return any(re.search(rf"\b{re.escape(word)}\b", text) for text in texts)


def _case_id(case: dict) -> str:
    return (case.get("also") or case["turns"])[-1][:40]


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(case, marks=[pytest.mark.xfail(reason=case["known_miss"], strict=True)])
        if case.get("known_miss")
        else case
        for case in CASES["sets"]["dev"]
    ],
    ids=_case_id,
)
def test_a_value_named_after_not_gives_way(open_memory, case):
    mem = open_memory()
    _say(mem, "chat:me", *case["turns"], *case.get("also", []))
    now = _current(mem)
    assert _says(now, case["now"]), now
    if case["gone"]:
        assert not _says(now, case["gone"]), now


def test_the_corrected_fact_keeps_its_chain(open_memory):
    mem = open_memory()
    _say(
        mem,
        "chat:me",
        "I take sertraline every morning.",
        "it's citalopram not sertraline, sorry, the doctor switched me ages ago and I forget",
    )
    every = mem.facts("chat:me", include_inactive=True)
    old = next(f for f in every if "sertraline" in f.text.lower())
    new = next(f for f in every if "citalopram" in f.text.lower())
    assert old.status is not FactStatus.ACTIVE and new.active
    assert [f.text for f in mem.facts("chat:me")].count(new.text) == 1  # one fact, not two


def test_nothing_held_means_nothing_swapped(open_memory):
    """A "not" whose words no fact holds edits nothing and loses nothing."""
    mem = open_memory()
    _say(mem, "chat:me", "I live in Bristol and work at Asda.")
    before = sorted(_current(mem))
    _say(mem, "chat:me", "it's a Tuesday not a Monday, thank god", "Leeds not London for the match")
    assert sorted(_current(mem)) == before


def test_another_streams_value_is_not_touched(open_memory):
    mem = open_memory()
    _say(mem, "chat:bob", "I work at Dunelm in the warehouse.")
    _say(mem, "chat:me", "it's Wickes not Dunelm, the one by the ring road")
    assert _says(_current(mem, "chat:bob"), "dunelm")
    assert not _says(_current(mem, "chat:me"), "wickes")


@pytest.mark.parametrize(
    "said",
    [
        "She wants to be a doctor, not a tailor like her mum.",  # about her, not the user
        "I decided not to open a tailor shop after all.",  # "not to" denies
        "Michalis is a tailor, not a baker.",  # about someone the fact does not name
    ],
)
def test_a_clause_about_someone_else_leaves_the_speakers_fact(open_memory, said):
    mem = open_memory()
    _say(mem, "chat:me", "I work as a baker in Leith.")
    _say(mem, "chat:me", said)
    assert _says(_current(mem), "baker"), _current(mem)


@pytest.mark.parametrize(
    ("held", "said", "kept"),
    [
        # "Go" the language names nothing in "go to Floripa", whose names are capitalised
        ("I plan to go to Floripa in January.", "the service will be in Rust, not Go", "floripa"),
        ("I plan to go to Porto in May.", "we ship it in Kotlin, not Go, this time", "porto"),
    ],
)
def test_a_name_after_not_leaves_a_value_that_says_the_word_uncapitalised(
    open_memory, held, said, kept
):
    mem = open_memory()
    _say(mem, "chat:me", held)
    before = sorted(_current(mem))
    assert _says(before, kept), before
    _say(mem, "chat:me", said)
    assert [t for t in _current(mem) if kept in t] == [t for t in before if kept in t]


def test_a_name_said_capitalised_corrects_a_value_typed_in_lowercase(open_memory):
    mem = open_memory()
    _say(mem, "chat:me", "i work at tesco on the tills")
    _say(mem, "chat:me", "sorry it's Asda, not Tesco, I always mix them up")
    assert _says(_current(mem), "asda") and not _says(_current(mem), "tesco"), _current(mem)


@pytest.mark.parametrize(
    "text",
    [
        "x " * 10_000,  # 20,000 characters, no sentence end
        "not " * 5_000,
        "🙂🙃 not 🙂",
        "Traceback (most recent call last):\n  File 'x.py', line 3\nValueError: not a number",
        "no es verdad, no es Madrid sino Sevilla",
        "",
    ],
)
def test_odd_text_reads_without_error(text):
    for swap in read_swaps(text):
        assert swap.old and swap.new


def test_a_day_said_and_not_another_moves_every_reading_of_the_event(open_memory):
    """Both readers may hold one event ("having a cataract operation on 11 February",
    "cataract operation is on February 11"); the correction moves both."""
    mem = open_memory()
    _say(
        mem,
        "chat:me",
        "My cataract operation is on 11 February.",
        "on consulting my diary I find that the operation is on the 18th of February and "
        "not the 11th, as I told you",
    )
    now = _current(mem)
    assert _says(now, "cataract") and all("11" not in text for text in now), now


@pytest.mark.parametrize(
    ("held", "said", "now", "gone"),
    [
        (  # a day replaces a day
            "My dentist appointment is on May 9.",
            "Quick one: the appointment is May 16, not May 9, they rang this morning",
            "may 16",
            "may 9",
        ),
        (  # asking whether one said the held value, then saying another
            "My bike is a Surly, I ride it to campus.",
            "wait i said surly? it's a kona. the surly was my old roommate's",
            "kona",
            "surly",
        ),
        (  # a sentence that is only "not Y" takes its value beside it
            "Jack is allergic to peanuts fyi",
            "not peanuts. tree nuts. cashews mainly",
            "tree nuts",
            "peanuts",
        ),
        ("My birthday is April 30.", "30 May. Not April.", "may 30", "april"),
        (  # the assistant addressed before "not" is no value
            "I live in Elkhart Lake.",
            "ok robot not Elkhart Lake, technically I'm in Glenbeulah, it's the next one over",
            "glenbeulah",
            "robot",
        ),
    ],
)
def test_a_correction_in_passing_replaces_the_held_value(open_memory, held, said, now, gone):
    mem = open_memory()
    _say(mem, "chat:me", held, said)
    facts = _current(mem)
    assert _says(facts, now) and not _says(facts, gone), facts
