"""The values one turn reads into one person's single slot.

A turn does not supersede its own facts unless it says a change. Readers (the rules, the
trained reader, a chat model) sometimes read two values into one slot in one breath: the
same name whole and in part, or a town read as a name beside the name. Stored in order, the
later would supersede the earlier at once. These checks run on every reader's facts.
"""

from threefold.domain import FactCategory
from threefold.layers.parts import reshaped
from threefold.models.base import ExtractedFact, Standing
from threefold.models.reader.labels import ENDED


def as_read(read: list[ExtractedFact], *, every_value: bool) -> list[ExtractedFact]:
    """What one turn's facts come to before they are recorded, whichever reader read them
    and whether read first or again on a refresh: one value per name read whole and in
    part, each value and subject cut to its shape or left out (layers/parts.py), and the
    first of unrelated values in a single slot, unless the turn says a change or is a
    repair (`every_value`: then the later value supersedes, or the repair layer edits
    what the repair names)."""
    read = [shaped for item in fullest_values(read) if (shaped := reshaped(item)) is not None]
    return first_said(read, says_change=every_value)


SINGLE_SLOT_CATEGORIES = frozenset(
    {
        FactCategory.IDENTITY,
        FactCategory.LOCATION,
        FactCategory.WORK,
        FactCategory.RELATIONSHIP,
        FactCategory.IMPORTANT_DATE,
    }
)
"""Categories of what people say of themselves whose unkeyed slots hold one value."""


def fullest_values(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """Of values one turn reads into one person's single slot where one holds the others
    ("my father Seu Valdir" read as "Seu Valdir" and as "Seu"), the fullest alone: else the
    shorter, stored after it, would supersede it in the same breath. Unrelated values stay
    as read: which is meant depends on the wording ("Shane, 41, electrician, Ipswich": the
    first; "I left Shopify and now work at Wealthsimple": the last), measured on
    development text."""
    groups: dict[tuple[str, str], list[ExtractedFact]] = {}
    for fact in facts:
        if _plain(fact):
            groups.setdefault((fact.subject, fact.slot), []).append(fact)
    dropped: set[int] = set()
    for group in groups.values():
        values = [f.value.lower() for f in group]
        fullest = max(values, key=len)
        if len(set(values)) > 1 and all(value in fullest for value in values):
            dropped.update(id(f) for f in group if f.value.lower() != fullest)
    return [f for f in facts if id(f) not in dropped]


def first_said(facts: list[ExtractedFact], says_change: bool) -> list[ExtractedFact]:
    """Of unrelated values one turn reads into one person's single slot, the first alone
    where the turn says no change (`says_change`: it holds no change word; the engine
    tells, context/staleness.py): a turn does not supersede its own fact unless it says
    so, and a second value said without a change ("g'day. Shane, 41, electrician,
    Ipswich": a town read as a name) is a misreading of some other kind. A turn that says
    a change ("34, no wait, 35") keeps them all: the later one supersedes."""
    if says_change:
        return facts
    seen: set[tuple[str, str]] = set()
    out = []
    for fact in facts:
        if _plain(fact):
            if (fact.subject, fact.slot) in seen:
                continue
            seen.add((fact.subject, fact.slot))
        out.append(fact)
    return out


def _plain(fact: ExtractedFact) -> bool:
    """A current value said as such: not a correction, an ending or a hint."""
    return (
        fact.category in SINGLE_SLOT_CATEGORIES
        and ":" not in fact.slot
        and fact.standing is Standing.FACT
        and not (fact.is_correction or fact.retracts or fact.ends)
        and not fact.value.lower().startswith(ENDED)
    )
