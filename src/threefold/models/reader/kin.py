"""Relatives and pets said without a name: "my husband and kids", "our son got into an
accident", "here's our cat".

A relative said with their name is a relation fact ("Ines is the user's wife": facts.py).
Said without one, nothing was read: the graph learned relation words beside names, and
tags few alone. Yet a memory is asked "Does Melanie have kids?". A relation word the writer
owns ("my", "our", up to two words before it) with no name after it is the fact that they
have one: "The user has kids", in a slot of its own (``has:<relation>``), so that it and a
named relation never replace each other. The relation words are the reader's own
(data/relations.json ``words``); which relations count, and which words before one say it
is not had now ("my late husband"), or that a partner is no couple's ("my lab partner"),
are there too (``kin``, ``not_had``, ``not_partners``). A relation word inside quotation
marks is someone else's.
"""

import re
from collections.abc import Iterator
from functools import cache

from threefold.domain import FactCategory
from threefold.models.base import KIN_SLOT, ExtractedFact
from threefold.models.heuristic.text import indefinite_article
from threefold.models.reader.checks import inside_quotes
from threefold.models.reader.heads import Span
from threefold.models.reader.labels import relation_words, relations

# A name said beside the relation word ("my wife Ines", "my dog is called biscuit",
# "Martine, my wife"): the relation fact of that name says it (facts.py).
_NAME_AFTER = re.compile(
    r"[ \t]*,?[ \t]*(?:(?-i:[A-Z][a-z])|(?:[\w'’]+\s+){0,2}(?:called|named)\b)", re.IGNORECASE
)
_NAME_BEFORE = re.compile(r"\b[A-Z][a-z][\w'’-]*[ \t]*,?[ \t]*$")


def kin_facts(
    text: str, names: list[Span], who: str, confidence: float
) -> list[tuple[ExtractedFact, Span]]:
    """The partners, children and pets `who` says they have in `text` without naming them,
    once each, with the span of the relation word; `names`: the person spans the graph
    tagged, a name beside a relation word."""
    out: dict[str, tuple[ExtractedFact, Span]] = {}
    for found in _owned_unnamed(text, names):
        said = found["word"].lower()
        kind, many = _kind(said)
        had = said if many else f"{indefinite_article(said)} {said}"
        fact = ExtractedFact(
            text=f"{'The user' if who == 'user' else who.title()} has {had}.",
            category=FactCategory.RELATIONSHIP,
            subject=who,
            slot=f"{KIN_SLOT}:{kind}",
            value=said,
            confidence=confidence,
        )
        span = Span(found.start("word"), found.end("word"), "REL", "cur", "self", 1.0)
        out.setdefault(kind, (fact, span))
    return list(out.values())


def _owned_unnamed(text: str, names: list[Span]) -> Iterator[re.Match[str]]:
    """The relation words of `text` that the writer owns and names no one by."""
    owned_to = -1  # where the last owned relation word ended
    for found in _owned().finditer(text):
        joined = not found[0].lstrip(" \t,&").lower().startswith(("my", "our"))
        if joined and found.start() != owned_to:
            continue  # "Sam and kids": joined to no owned word
        owned_to = found.end()
        between = found["between"].lower().split()
        if set(between) & _not_had() or any(w.endswith(("'s", "’s", "s'")) for w in between):
            continue  # "my late husband"; "my friend's son" is the friend's
        if set(between) & _not_partners() and _kind(found["word"].lower())[0] == "partner":
            continue  # "my lab partner", "my business partner": no couple
        if inside_quotes(text, found.start("word"), found.end("word")):
            continue  # "'you look like my daughter', the patient said": someone else's words
        if not _named(text, found, names):
            yield found


_ALIKE = ({"son", "daughter", "child"}, {"spouse", "partner"})
"""Relations one of which says the other is had: a son is a child; a wife, a partner."""


def said_otherwise(fact: ExtractedFact, others: list[ExtractedFact]) -> bool:
    """Whether `fact`, an unnamed relative had, is said by another fact of the turn: a
    relative of that kind named ("Kojo is the user's son"), or said of ("The user's son is
    9 years old")."""
    kind = fact.slot.removeprefix(f"{KIN_SLOT}:")
    if kind == fact.slot:
        return False
    kinds = next((group for group in _ALIKE if kind in group), {kind})
    for other in others:
        if (
            other is fact
            or other.subject != fact.subject
            and not other.subject.startswith(f"{fact.subject}'s ")
        ):
            continue
        of = other.subject.removeprefix(f"{fact.subject}'s ")
        if of in kinds or other.slot.split(":", 1)[0] in kinds:
            return True
    return False


def _named(text: str, found: re.Match[str], names: list[Span]) -> bool:
    """Whether a name is said beside the relation word `found` (_NAME_AFTER)."""
    after = len(text) - len(text[found.end() :].lstrip(" \t,"))
    if any(s.start == after for s in names) or _NAME_BEFORE.search(text, 0, found.start()):
        return True
    return _NAME_AFTER.match(text, found.end()) is not None


def _kind(said: str) -> tuple[str, bool]:
    """The relation `said` names and whether it names more than one ("kids": child, many)."""
    words, _ = relation_words()
    if said in words:
        return words[said], False
    return words[_singular(said)], True


def _singular(said: str) -> str:
    if said.endswith("children"):
        return said.removesuffix("ren")
    return said[:-3] + "y" if said.endswith("ies") else said.removesuffix("s")


@cache
def _owned() -> re.Pattern[str]:
    """ "my" or "our" (or "and" after an owned one), up to two words, then a relation word
    of `kin`, one or more."""
    words, _ = relation_words()
    kin = sorted((w for w, kind in words.items() if kind in relations()["kin"]), key=len)
    forms = "|".join(re.escape(w) + r"(?:s|ren)?" for w in reversed(kin))
    # "my husband and kids": a word joined to an owned one is owned too
    return re.compile(
        rf"(?:\b(?:my|our)\s+|(?<=\w)\s*(?:,|&|\band\b)\s*)"
        rf"(?P<between>(?:(?!(?:my|our)\b)[\w'’-]+\s+){{0,2}}?)(?P<word>{forms})(?![\w'’-])",
        re.IGNORECASE,
    )


@cache
def _not_had() -> frozenset[str]:
    return frozenset(relations()["not_had"])


@cache
def _not_partners() -> frozenset[str]:
    return frozenset(relations()["not_partners"])
