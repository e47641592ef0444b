"""Who a fact names: a heuristic, not an entity index.

A person is the subject of a fact that is not about a date, a status, a decision or a
link; the role holder, assignee or handoff receiver a fact names; whomever the entity
registry reads a fact as naming (a relative: "Omar is the user's manager"; whose home,
job or diet it is); and the user's own name. Each is spelled in the fact's text as one to
three capitalised words that are not a role title, a common word or a date word. It misses
names written in lowercase.

A relative's facts are filed under the name the stream knows them by
(:func:`under_known_names`), so that "my mum" and "Ngozi" meet.
"""

import json
import re
from collections.abc import Iterable
from functools import cache
from importlib import resources

from threefold import entities
from threefold.domain import ABOUT_THINGS, Fact, FactCategory, stream_subject
from threefold.models.base import ExtractedFact
from threefold.models.heuristic.patterns import NOT_NAMES, ROLE_HEADS
from threefold.models.heuristic.text import wordset

_NAME_WORD = re.compile(r"[A-Z][^\W\d_]*(?:['’-][^\W\d_]+)*")
_CALENDAR = wordset(
    """monday tuesday wednesday thursday friday saturday sunday january february march
    september october november december week month year eod eow"""
)  # not may, june, april or august: those are people's names too
_NAMES_SOMEONE = frozenset({FactCategory.ASSIGNMENT, FactCategory.HANDOFF})
HOLDER_SLOT = "holder"
"""Besides its subject, a fact names a person as a role's holder, an assignee or a
handoff's receiver; other values are things ("Done", "GraphQL")."""


def people_in(fact: Fact, stream: str) -> Iterable[str]:
    """The subject and value of `fact` that name a person and that its text spells so."""
    candidates = [] if fact.category in ABOUT_THINGS else [fact.subject]
    if fact.category in _NAMES_SOMEONE or fact.slot == HOLDER_SLOT or _names_the_user(fact):
        candidates.append(fact.value)
    candidates += entities.people_in(fact)  # the registry's reading: keys, spelled below
    own = _thing_named_by(stream)
    found: list[str] = []
    for candidate in candidates:
        candidate = candidate.strip()
        if not candidate or candidate.lower() == own:
            continue
        match = re.search(rf"(?<!\w){re.escape(candidate)}(?!\w)", fact.text, re.IGNORECASE)
        if match and looks_like_name(match.group(0)) and match.group(0) not in found:
            found.append(match.group(0))
    return found


def _thing_named_by(stream: str) -> str | None:
    """The stream's own id when it names a thing, not a person: 'Alpha' in project:alpha is
    the project, while 'Lea' in user:lea is the person whose memory it is."""
    return None if stream.split(":", 1)[0] in PERSON_KINDS else stream_subject(stream)


PERSON_KINDS = frozenset({"user"})
"""Stream kinds whose id is a person's: a fact about them names them."""


def _names_the_user(fact: Fact) -> bool:
    """ "The user's name is Dana": the value is a person's name."""
    return fact.category is FactCategory.IDENTITY and fact.slot == NAME_SLOT


NAME_SLOT = "name"


def looks_like_name(span: str) -> bool:
    words = span.split()
    if not 1 <= len(words) <= 3 or not all(_NAME_WORD.fullmatch(w) for w in words):
        return False
    lowered = [w.lower() for w in words]
    return not any(w in NOT_NAMES or w in ROLE_HEADS or w in _CALENDAR for w in lowered)


def under_known_names(
    items: list[ExtractedFact], held: Iterable[Fact | ExtractedFact]
) -> list[ExtractedFact]:
    """`items` with a relative's facts filed under the relative's name where the stream
    knows it: "mum is allergic to penicillin" after "my mum is called Ngozi" is Ngozi's
    allergy, as "Ngozi is allergic to penicillin" would be, so the two meet and one
    supersedes the other. A relative is named by a held or new relation fact of its kind
    ("mother": Ngozi; "sister:ana"; "dog:max"), and only where exactly one such fact
    names one of that kind: "my sister" with two sisters known is either."""
    names: dict[tuple[str, str], set[str]] = {}
    for fact in [*held, *items]:
        if _names_relative(fact):
            kind = fact.slot.split(":", 1)[0]
            names.setdefault((fact.subject, kind), set()).add(entities.key_of(fact.value))
    return [_under_name(item, names) for item in items]


_NOT_KINDS = frozenset({"has", "count"})
"""Relation facts keyed by a kind that name nobody: "has:child" (kids said without names),
"count:daughter"."""


def _names_relative(fact: Fact | ExtractedFact) -> bool:
    active = not isinstance(fact, Fact) or fact.active
    return (
        active
        and fact.category is FactCategory.RELATIONSHIP
        and fact.slot.split(":", 1)[0] not in _NOT_KINDS
        and entities.could_be_person(fact.value)
    )


def _under_name(item: ExtractedFact, names: dict[tuple[str, str], set[str]]) -> ExtractedFact:
    owner, _, relation = item.subject.partition("'s ")
    named = names.get((owner, relation), set()) if relation else set()
    own_kind = item.category is FactCategory.RELATIONSHIP and (
        item.slot.split(":", 1)[0] == relation
    )
    if len(named) != 1 or relation in _collective():
        return item
    if own_kind or item.slot == NAME_SLOT:
        return item  # who they are is the relation fact's: "The user's wife's name is Justina"
    return item.model_copy(update={"subject": named.pop()})


@cache
def _collective() -> frozenset[str]:
    """Relation words that name a group, never one person: "my family is Buddhist" is no
    fact of the one relative the memory knows as family (data/collective_relations.json)."""
    raw = resources.files(__package__).joinpath("data/collective_relations.json").read_text()
    return frozenset(json.loads(raw)["words"])
