"""A plan or appointment keeps the date its sentence gives it ("running the Berlin marathon
on 27 September"), and a later message that moves the date ("they moved the marathon to 4
October", "Knee news: they've put it back to February") updates that fact, the old date
kept in its history. tests/data/dated_plans.json (its header records its first runs).
Through the public API, offline, on real SQLite, with the default reader."""

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from threefold.dates import find_dates

DATA = json.loads((Path(__file__).parent / "data" / "dated_plans.json").read_text())
ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
SAID = datetime.fromisoformat(DATA["said"]).replace(hour=9, tzinfo=UTC)


def _cases() -> list:
    out = []
    for case in DATA["cases"]:
        miss = case.get("known_miss")
        marks = [pytest.mark.xfail(reason=miss, strict=True)] if miss else []
        out.append(pytest.param(case, id=" / ".join(case["turns"])[:60], marks=marks))
    return out


def _told(mem, stream: str, *turns: str) -> list[str]:
    """The active facts' texts once each turn of `turns` is said and read, in order."""
    for text in turns:
        mem.add_turn(stream, user=text, at=SAID)
        mem.process_pending()
    return [f.text for f in mem.facts(stream)]


def _says(texts: list[str], *words: str) -> bool:
    """Whether one of `texts` says every one of `words`; a day in ISO form is said in any
    form that names it ("2026-10-04", "4 October 2026", "October 4")."""
    return any(all(_names(t, w) for w in words) for t in texts)


def _names(text: str, word: str) -> bool:
    if not ISO_DAY.fullmatch(word):
        return word.lower() in text.lower()
    return word in text or any(h.day.isoformat() == word for h in find_dates(text, SAID))


@pytest.mark.parametrize("case", _cases())
def test_a_dated_plan_and_its_move(open_memory, case):
    held = _told(open_memory(), "chat:me", *case["turns"])
    for word, day in case["current"]:
        assert _says(held, word, day), (word, day, held)
    for day in case["gone"]:
        assert not _says(held, day), (day, held)


def test_the_old_date_stays_in_the_plans_history(open_memory):
    mem = open_memory()
    _told(
        mem,
        "chat:me",
        "I'm running the Berlin marathon on 27 September",
        "they moved the Berlin marathon to 4 October",
    )
    every = mem.facts("chat:me", include_inactive=True)
    old = [f for f in every if "27 September 2026" in f.text]
    new = [f for f in every if "4 October 2026" in f.text and f.active]
    assert old and not old[0].active and new, [(f.status, f.text) for f in every]
    assert old[0].slot == new[0].slot and old[0].superseded_by == new[0].id


def test_a_move_with_nothing_dated_before_stores_nothing_and_loses_nothing(open_memory):
    mem = open_memory()
    held = _told(mem, "chat:me", "I live in Leeds.", "they've moved it to next Tuesday")
    assert _says(held, "Leeds") and not _says(held, "2026-06-09"), held


def test_a_date_in_the_past_moves_nothing(open_memory):
    held = _told(
        open_memory(),
        "chat:me",
        "I'm running the Berlin marathon on 27 September",
        "the marathon was moved last Friday, no idea to when",
    )
    assert _says(held, "marathon", "2026-09-27"), held


def test_of_two_dated_plans_only_the_one_named_moves(open_memory):
    held = _told(
        open_memory(),
        "chat:me",
        "I'm running the Berlin marathon on 27 September",
        "We're going to Japan on the 10th of October.",
        "they moved the marathon to 4 October",
    )
    assert _says(held, "marathon", "2026-10-04"), held
    assert _says(held, "Japan", "2026-10-10"), held


def test_another_users_move_never_touches_my_plan(open_memory):
    mem = open_memory()
    mine = _told(mem, "chat:me", "I'm running the Berlin marathon on 27 September")
    _told(
        mem,
        "chat:other",
        "I'm running the Berlin marathon on 27 September",
        "they moved the Berlin marathon to 4 October",
    )
    assert [f.text for f in mem.facts("chat:me")] == mine
    assert _says(mine, "marathon", "2026-09-27"), mine


@pytest.mark.parametrize(
    "moved",
    [
        "I'm running the Berlin marathon on 4 October now",  # said again with another date
        "They moved the marathon from 27 September to 4 October",  # "from" names the old one
    ],
)
def test_a_plan_said_with_another_date_supersedes_it(open_memory, moved):
    held = _told(open_memory(), "chat:me", "I'm running the Berlin marathon on 27 September", moved)
    assert _says(held, "marathon", "2026-10-04") and not _says(held, "2026-09-27"), held


def test_a_date_goes_to_the_plan_it_is_said_beside(open_memory):
    held = _told(
        open_memory(),
        "chat:me",
        "I'm running the Berlin marathon in September and I'm having my knee op on Friday.",
    )
    assert _says(held, "knee", "2026-06-05") and not _says(held, "marathon", "2026-06-05"), held


def test_a_plan_held_with_no_date_takes_the_date_it_is_moved_to(open_memory):
    held = _told(
        open_memory(),
        "chat:me",
        "I'm running the Berlin marathon this autumn",
        "they moved the Berlin marathon to 4 October",
    )
    assert _says(held, "marathon", "2026-10-04"), held
