"""What kind of thing a possession is, whichever reader keyed it.

The readers key a possession by its kind where they know it ("a macbook air": "owns:laptop",
from the rules' list of makes and models) and by its own name where they do not ("Caloi
Elite": "owns:elite"). Supersession meets values in one slot, so a new bike never replaced
a bike held under its name. Two remedies, each general: a thing named in answer to a
question that names its kind takes that kind ("Which bike do you ride?" / "Caloi Elite");
and a new thing of a kind held one at a time replaces one of that kind held under another
key (layers/facts.py).
"""

import re
from functools import cache

from threefold.domain import Fact
from threefold.models.base import ExtractedFact

OWNS = "owns:"
ONE_AT_A_TIME = frozenset(
    {"owns:car", "owns:phone", "owns:laptop", "owns:bike", "owns:motorbike", "owns:home"}
)
"""Kinds of thing a new one replaces, as one slot holds them: a new phone is the phone now.
Instruments, cameras or watches are collected, and a new one joins the others."""


def thing_kind(fact: ExtractedFact | Fact) -> str | None:
    """A possession's kind: its slot where that names one, else what its value names."""
    from threefold.models.heuristic.personal_values import thing_kind as named_kind

    return fact.slot if fact.slot in _kinds() else named_kind(fact.value)


def keyed_by_kind_asked(read: list[ExtractedFact], answered: str) -> list[ExtractedFact]:
    """`read`, each possession keyed by its own name put under the one kind of thing the
    questions of the message it answers name: "Which bike do you ride?" / "Caloi Elite" is
    a bike. `answered` is another's message: the writer's own last words ask nothing."""
    if "?" not in answered or not any(_unkinded(f) for f in read):
        return read
    from threefold.models.heuristic.text import sentences

    asked = " ".join(s for s in sentences(answered) if s.rstrip().endswith("?"))
    named = {kind for kind in _kinds() if _kind_word(kind).search(asked)}
    if len(named) != 1:
        return read
    kind = named.pop()
    return [f.model_copy(update={"slot": kind}) if _unkinded(f) else f for f in read]


def _unkinded(fact: ExtractedFact) -> bool:
    return fact.slot.startswith(OWNS) and thing_kind(fact) is None


@cache
def _kinds() -> frozenset[str]:
    from threefold.models.heuristic.personal_words import THING_KINDS

    return frozenset(kind for kind in THING_KINDS if kind.startswith(OWNS))


@cache
def _kind_word(kind: str) -> re.Pattern[str]:
    """The kind's own noun, singular or plural ("bike", "bikes")."""
    noun = re.escape(kind.removeprefix(OWNS))
    return re.compile(rf"\b{noun}s?\b", re.IGNORECASE)
