"""What the assistant guessed about the user, said as the user would say it.

"So you're allergic to peanuts?", "Are you out near Mt Albert?", "Noted, you work at
Tesco." each propose a fact. The user who replies "nope, shellfish" or "Asda not Tesco"
corrects that proposal: the reply's repair needs the proposal as the claim it edits, and
the proposal belongs in the history as what the correction retracted. A question is no
fact on its own, so a proposal is read only when a reply denies or repairs it, never
stored for the question alone.

The sentences come back in the user's words ("I'm allergic to peanuts", "I am out near Mt
Albert", "I work at Tesco"), for the model to read as any user sentence.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import cache
from importlib import resources

from threefold.domain import Fact, Turn
from threefold.models.base import ExtractedFact
from threefold.models.heuristic.text import sentences

_I = re.IGNORECASE


@cache
def _words() -> dict[str, object]:
    data = resources.files("threefold.layers").joinpath("data", "proposals.json")
    loaded: dict[str, object] = json.loads(data.read_text("utf-8"))
    return loaded


def _alternatives(key: str) -> str:
    words = _words()[key]
    assert isinstance(words, list | dict)
    return "|".join(re.escape(str(w)).replace(r"\ ", r"\s+") for w in sorted(words, key=len)[::-1])


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    opener = re.compile(rf"^(?:(?:{_alternatives('openers')})\b[\s,!.:;-]*)+", _I)
    tag = re.compile(rf"[\s,]+(?:{_alternatives('tags')})\s*\?+$", _I)
    possessed = rf"your(?:\s+(?:{_alternatives('possessed_modifiers')}))?\s+[\w'-]+"
    inverted = re.compile(
        rf"^(?P<be>{_alternatives('be_verbs')})\s+you\b(?P<rest_be>.*)$"
        rf"|^(?P<their>{_alternatives('their_verbs')})\s+(?P<owner>{possessed})(?P<rest_their>.*)$"
        rf"|^(?:{_alternatives('do_verbs')})\s+you\b(?P<rest_do>.*)$"
        rf"|^(?P<have>{_alternatives('have_verbs')})\s+you\b(?P<rest_have>.*)$",
        _I,
    )
    second_person = re.compile(r"^(?:you|you're|you've|your)\b", _I)
    return opener, tag, inverted, second_person


def proposed(assistant_text: str) -> list[str]:
    """The assistant's sentences that state or guess a fact about the user, each in the
    user's words; empty when it guessed nothing."""
    found = []
    for sentence in sentences(assistant_text):
        said = _as_statement(sentence.strip())
        if said is not None:
            found.append(_in_users_words(said))
    return found


def _as_statement(sentence: str) -> str | None:
    """`sentence` as a statement to the user ("you live in Leeds"), or None when it says
    nothing of the user: a question turned round, a tag or an opener left off."""
    opener, tag, inverted, second_person = _patterns()
    text = tag.sub("", opener.sub("", sentence)).rstrip(" ?.!")
    # "Are you near Leeds?" asks about a statement; "So you're in Leeds?" says it.
    turned = inverted.match(text) if sentence.endswith("?") else None
    text = _turned(turned) if turned else text
    return text if second_person.match(text) else None


def _turned(question: re.Match[str]) -> str:
    """A yes-or-no question as the statement it asks about."""
    if question["be"]:
        return f"you {question['be'].lower()}{question['rest_be']}"
    if question["their"]:
        return f"{question['owner']} {question['their'].lower()}{question['rest_their']}"
    if question["have"]:
        return f"you {question['have'].lower()}{question['rest_have']}"
    return f"you{question['rest_do']}"


PROPOSED = 0.5
"""What a guess the user answered is worth while it stands: below the assistant's own
claims (at most 0.55), so anything the user says of the same slot displaces it."""


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


_SECOND_PERSON = (
    (re.compile(r"\byou're\b", _I), "I'm"),
    (re.compile(r"\byou\s+are\b", _I), "I am"),
    (re.compile(r"\byou've\b", _I), "I've"),
    (re.compile(r"\byou\s+were\b", _I), "I was"),
    (re.compile(r"\byourself\b", _I), "myself"),
    (re.compile(r"\byours\b", _I), "mine"),
    (re.compile(r"\byour\b", _I), "my"),
    # "you" opening a clause is who does something; elsewhere, whom it is done to
    (re.compile(r"(^|\b(?:and|but|so|that|because)\s+)you\b", _I), r"\1I"),
    (re.compile(r"\byou\b", _I), "me"),
)


def _in_users_words(statement: str) -> str:
    for pattern, mine in _SECOND_PERSON:
        statement = pattern.sub(mine, statement)
    return statement[:1].upper() + statement[1:] + "."


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
