"""What the assistant guessed about the user, said as the user would say it.

"So you're allergic to peanuts?", "Are you out near Mt Albert?", "Noted, you work at
Tesco." each propose a fact. The user who replies "nope, shellfish" or "Asda not Tesco"
corrects that proposal: the reply's repair needs the proposal as the claim it edits, and
the proposal belongs in the history as what the correction retracted. A question is no
fact on its own, so a proposal is read only when a reply denies or repairs it, never
stored for the question alone.

The sentences come back in the user's words ("I am allergic to peanuts", "I am out near
Mt Albert", "I work at Tesco"), for the model to read as any user sentence: a yes-or-no
question turned round as models/heuristic/answers.py turns one, a statement to "you" as
the rules read the assistant's claims.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import cache
from importlib import resources

from threefold.domain import Fact, Turn
from threefold.models.base import ExtractedFact
from threefold.models.heuristic.answers import proposition
from threefold.models.heuristic.extract import in_users_words
from threefold.models.heuristic.text import sentences

PROPOSED = 0.5
"""What a guess the user answered is worth while it stands: below the assistant's own
claims (at most 0.55), so anything the user says of the same slot displaces it."""


@cache
def _framing() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """What frames a guess without being part of it: an opener ("Noted,", "So") and a tag
    question (", right?"), from layers/data/proposals.json."""
    data = resources.files("threefold.layers").joinpath("data", "proposals.json")
    words = json.loads(data.read_text("utf-8"))

    def either(key: str) -> str:
        found = sorted(words[key], key=len, reverse=True)
        return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in found)

    opener = re.compile(rf"^(?:(?:{either('openers')})\b[\s,!.:;-]*)+", re.IGNORECASE)
    tag = re.compile(rf"[\s,]+(?:{either('tags')})\s*\?+$", re.IGNORECASE)
    return opener, tag


def proposed(assistant_text: str) -> list[str]:
    """The assistant's sentences that state or guess a fact about the user, each in the
    user's words; empty when it guessed nothing."""
    found = []
    for sentence in sentences(assistant_text):
        said = _guessed(sentence.strip())
        if said:
            found.append(said.rstrip(".") + ".")
    return found


def _guessed(sentence: str) -> str | None:
    opener, tag = _framing()
    text = tag.sub("", opener.sub("", sentence)).strip()
    # "You're vegan, right?" and "So you're in Leeds?" say it; "Are you in Leeds?" asks.
    stated = in_users_words(text.rstrip(" ?.!"))
    if stated is not None or not text.endswith("?"):
        return stated
    return proposition(text)


def answered_guesses(
    proposals: Sequence[ExtractedFact], said: Sequence[ExtractedFact]
) -> list[tuple[ExtractedFact, ExtractedFact]]:
    """(proposal, what the reply said in its place): the reply's fact of the same person
    and slot, or of the same kind of a slot keyed by value ("allergy:shellfish" for
    "allergy:peanut"), with another value; or the reply's fact that retracts it."""
    pairs = []
    for guess in proposals:
        instead = next((f for f in said if _in_place_of(f, guess)), None)
        if instead is not None:
            pairs.append((guess, instead))
    return pairs


def _in_place_of(fact: ExtractedFact, guess: ExtractedFact) -> bool:
    named = (guess.subject, guess.slot, guess.value)
    if any((r.subject, r.slot, r.value) == named for r in fact.retracts):
        return True
    return (
        fact.subject == guess.subject
        and fact.slot.split(":", 1)[0] == guess.slot.split(":", 1)[0]
        and fact.value.lower() != guess.value.lower()
    )


def as_claim(guess: ExtractedFact, turn: Turn, answered: Turn) -> Fact:
    """A guess as the claim a repair edits ("Asda not Tesco"), not yet stored: the edit
    names it in what it retracts, and the handler stores it only then."""
    return Fact(
        id=0,
        tenant=turn.tenant,
        stream=turn.stream,
        text=guess.text,
        category=guess.category,
        subject=guess.subject,
        slot=guess.slot,
        value=guess.value,
        confidence=guess.confidence,
        source=answered.ref(),
        recorded_at=turn.at,
        tokens=0,
    )
