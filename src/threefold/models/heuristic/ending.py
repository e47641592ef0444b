"""A value never carries a verb of ending: it is the value said as over, or nothing.

"I sold the Fiesta" holds the car slot with the car gone. Stored as "sold fiesta", the
value reads as a car the user has to anything that compares values (supersession, recall,
an evaluation's "is Fiesta current?"). Both readers and the engine's layers say a value is
over one way, "not fiesta" (models.reader.labels.ENDED, layers.facts), so a fact whose
value opens with a verb of ending (data/ending_verbs.txt) becomes that, when its sentence
says the value is over; a value that only drags the verb along ("The user works at left
Lisbon") is a misreading, and nothing is stored.

Only the kinds of fact that hold a thing or a place: a plan ("quit smoking") or a health
fact ("left knee") may open with such a word, and team facts ("cancelled the offsite" as a
decision) say what happened.
"""

import re
from functools import cache
from importlib import resources

from threefold.domain import FactCategory
from threefold.models.base import ExtractedFact
from threefold.models.reader.labels import ENDED

HOLDS_A_THING = frozenset(
    {
        FactCategory.WORK,
        FactCategory.POSSESSION,
        FactCategory.LOCATION,
        FactCategory.SKILL,
        FactCategory.PREFERENCE,
        FactCategory.DIET,
        FactCategory.RELATIONSHIP,
        FactCategory.IDENTITY,
    }
)

# The fact's own sentence says the value is over: "no longer works at", "sold", "quit".
_SAYS_OVER_RE = re.compile(r"\b(?:no\s+longer|not|never|formerly|used\s+to|any\s*more)\b", re.I)


@cache
def _phrases() -> str:
    text = resources.files(__package__).joinpath("data/ending_verbs.txt").read_text("utf-8")
    phrases = [line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"]
    return "|".join(
        re.escape(p).replace(r"\ ", r"\s+") for p in sorted(phrases, key=len, reverse=True)
    )


@cache
def _opening_re() -> re.Pattern[str]:
    """A verb of ending at a value's start, with the determiner after it."""
    return re.compile(rf"^(?:{_phrases()})\s+(?:(?:the|my|our|a|an|his|her|their)\s+)?", re.I)


@cache
def _said_re() -> re.Pattern[str]:
    """A verb of ending in a fact's sentence ("The user sold the Fiesta."), not where a
    value stands ("works at left Lisbon")."""
    return re.compile(rf"(?<!\bat\s)(?<!\bas\s)(?<!\bin\s)\b(?:{_phrases()})\s", re.I)


def settled(fact: ExtractedFact) -> ExtractedFact | None:
    """`fact` with a value that opens with a verb of ending said as over ("sold fiesta" ->
    "not fiesta"), or None where its sentence does not say the value is over; any other
    fact as it is."""
    if fact.category not in HOLDS_A_THING:
        return fact
    opening = _opening_re().match(fact.value)
    if opening is None:
        return fact
    rest = fact.value[opening.end() :].strip()
    if not rest or not (_SAYS_OVER_RE.search(fact.text) or _said_re().search(fact.text)):
        return None
    return fact.model_copy(update={"value": ENDED + rest})


def all_settled(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """`facts`, each :func:`settled`, the misreadings left out."""
    return [s for f in facts if (s := settled(f)) is not None]
