"""What kind of thing a possession is, whichever reader keyed it.

The readers key a possession by its kind where they know it ("a macbook air": "owns:laptop",
from the rules' list of makes and models) and by its own name where they do not ("Caloi
Elite": "owns:elite"). Supersession meets values in one slot, so a new bike never replaced
a bike held under its name. Two remedies, each general: a thing named in answer to a
question that names its kind takes that kind ("Which bike do you ride?" / "Caloi Elite");
and a new thing of a kind held one at a time replaces one of that kind held under another
key, unless the turn says it joins them. And where a reader keyed the new thing by the
old one ("owns:fiesta"), the old one ends wherever it is held.
"""

import re
from functools import cache

from threefold.domain import Fact
from threefold.models.base import ExtractedFact, SlotRef

OWNS = "owns:"
ONE_AT_A_TIME = frozenset(
    {"owns:car", "owns:phone", "owns:laptop", "owns:bike", "owns:motorbike", "owns:home"}
)
"""Kinds of thing a new one replaces, as one slot holds them: a new phone is the phone now.
Instruments, cameras or watches are collected, and a new one joins the others."""


ADDING = frozenset(
    {"also", "too", "another", "second", "both", "extra", "plus", "addition", "added", "alongside"}
)
"""Words by which a turn says a value joins those held rather than replacing one."""


def replaced_of_its_kind(item: ExtractedFact, held: list[Fact], text: str) -> tuple[SlotRef, ...]:
    """The things of `item`'s kind its subject holds under another key, which a new thing
    of a kind held one at a time replaces: one reader keys "ThinkPad T480" as
    "owns:thinkpad", the other "a macbook air" as "owns:laptop", and the new laptop is the
    laptop now. Not where `text`, the turn, says it joins them ("we now also have a Honda
    Jazz"). `held`: the stream's facts before the turn."""
    if not item.slot.startswith(OWNS) or item.value.lower().startswith(_OVER):
        return ()
    kind = thing_kind(item)
    if kind not in ONE_AT_A_TIME or set(_WORD.findall(text.lower())) & ADDING:
        return ()
    return tuple(
        SlotRef(subject=f.subject, slot=f.slot, value=f.value)
        for f in held
        if f.subject == item.subject
        and f.slot.startswith(OWNS)
        and f.slot != item.slot
        and not f.value.lower().startswith(_OVER)
        and thing_kind(f) == kind
    )


_WORD = re.compile(r"[a-z]+")
_OVER = "not "
"""How a fact says its value is over or was wrong ("not vegan"), as both readers write it."""


def keyed_by_a_name(item: ExtractedFact) -> bool:
    """Whether `item` is a possession keyed by a name rather than by its kind ("owns:fiesta",
    not "owns:car"): only such a key may name the old thing it replaces."""
    return item.slot.startswith(OWNS) and item.slot not in _kinds()


def keyed_by_the_old(item: ExtractedFact, held: list[Fact]) -> list[Fact]:
    """The thing a new one replaces where the reader keyed the new one by the old ("the
    fiesta finally died so I got a yaris": the yaris under "owns:fiesta") and the old one
    is held under another key ("owns:car", "Ford Fiesta"): the key names the held value.
    `held`: the stream's facts."""
    if not keyed_by_a_name(item):
        return []
    key = item.slot.removeprefix(OWNS)
    named = re.compile(rf"(?<!\w){re.escape(key)}(?!\w)", re.IGNORECASE)
    return [
        f
        for f in held
        if f.subject == item.subject
        and f.slot.startswith(OWNS)
        and f.slot != item.slot
        and named.search(f.value)
        and not named.search(item.value)
        and not f.value.lower().startswith(_OVER)
    ]


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
