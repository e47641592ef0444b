"""Whose a sentence is, when it opens with or names a person the memory knows.

The graph was trained mostly on lines written in the first person, and tags a name it has
not seen only now and then: Rafael's "Marco bought a second-hand hatchback" reads as
Rafael's car. The engine knows the chat's people (``TurnInput.people``), so a sentence
that opens with one of them and says nothing in the first person is theirs: its values,
its relations ("Marco's wife is a nurse") and its pets. The opening name is also tagged
where the graph tagged none, so that a value the graph calls a named person's finds whose
it is ("Harjit's birthday is 19 January", Harjit known), and so is a known person named
anywhere in a sentence where the graph tagged no one ("The birthday of Camille it is the
23 April"). In a group chat, what a sentence says of "you" to a member it calls by name is
that member's ("dani you're 32 not 31").
"""

import re
from collections.abc import Collection
from dataclasses import replace

from threefold.models.reader.checks import said_of_addressee
from threefold.models.reader.heads import Span
from threefold.models.reader.labels import relation_words

_FIRST_PERSON = re.compile(
    r"(?<![\w'’])(?:i|me|my|mine|myself|we|us|our|ours|ourselves)(?![\w])", re.I
)
_OPENING = re.compile(r"^[\W_]*?(?P<name>[A-Z][\w’'-]*(?:[ \t]+[A-Z][\w’'-]*)?)")
_NAME_WORD = re.compile(r"[A-Z][\w’'-]*")
_POSSESSIVE = re.compile(r"['’]s$")
_ADDRESSED = re.compile(r"\s*(?:[,!?:;]|[-–—]\s)")
_SINGULAR_FIRST_PERSON = re.compile(
    r"(?<![\w'’])(?:i|i'm|im|i've|ive|i'll|i'd|me|my|mine|myself)(?![\w'’])", re.I
)
_YOU = r"(?:you|you're|youre|your|yours|u|ur|y'all|yall)(?![\w'’])"
"""A word that speaks to someone."""
_NEXT_WORD = re.compile(r"\s+(?:new\s+|old\s+|little\s+|big\s+)?([\w'’-]+)")


def whose(text: str, spans: list[Span], me: str, people: Collection[str]) -> tuple[list[Span], str]:
    """`text`'s spans, with the known person's name that opens it tagged as a person where
    the graph tagged nothing over it, and whose its unnamed values are: that person's,
    where it says nothing in the first person; else the writer `me`'s. Where the graph
    tagged no person or relation word at all, the one known person the sentence names
    (:func:`known_names`) is tagged too, so that a value it reads as someone else's has
    someone to be."""
    if me != "user":
        spans = said_to_a_member(text, spans, me, people)
    if not any(s.label in ("PER", "REL") for s in spans):
        # a name after every value is seldom their subject: "she's 28 pete" says it to Pete
        last = max((s.start for s in spans if s.subject == "per"), default=len(text))
        spans = spans + [
            s for s in known_names(text, people) if s.end <= last and not _overlaps(s, spans)
        ]
    name = opening_name(text, people)
    if name is None:
        return spans, me
    if not _overlaps(name, spans):
        spans = [name, *spans]
    said = _key(text[name.start : name.end])
    return spans, me if _FIRST_PERSON.search(text) else said


def known_names(text: str, people: Collection[str]) -> list[Span]:
    """Where `text` names the one of `people` (lowercase keys) it names, as a person span:
    the graph seldom tags a name it has not seen ("Jasleen is getting married"); none
    where it names several, or one who owns the relation word after the name, or is
    addressed."""
    found = [
        at
        for key in people
        if (at := re.search(rf"(?<![\w'’-]){re.escape(key)}(?:['’]s)?(?![\w-])", text, re.I))
    ]
    if len(found) != 1 or _owns_relation(text, found[0].end()):
        return []
    if not text[: found[0].start()].strip(" \t\"'([") and _ADDRESSED.match(text, found[0].end()):
        return []  # said to its bearer: "Marco, got the job!"
    return [Span(found[0].start(), found[0].end(), "PER", "cur", "per", 1.0)]


def said_to_a_member(text: str, spans: list[Span], me: str, people: Collection[str]) -> list[Span]:
    """`spans` with the values said of "you" given to the chat member the sentence says
    "you" to by name ("dani you're 32 not 31", "you're 29 now ruth!"): the checks refuse
    them as the writer's, yet in a group chat they are that member's. Only
    where the sentence addresses one member, names nobody else, says nothing of its
    writer alone (I, me, my) and asks nothing."""
    if any(s.label in ("PER", "REL") for s in spans) or _SINGULAR_FIRST_PERSON.search(text):
        return spans
    if "?" in text:
        return spans  # asked, not told: "Dilys you're 72?? no way"
    found = [at for key in people if key != me and (at := _vocative(text, key)) is not None]
    if len(found) != 1:
        return spans
    said = [_as_addressees(text, s) for s in spans]
    if said == spans:
        return spans
    return [Span(*found[0], "PER", "cur", "per", 1.0), *said]


def _as_addressees(text: str, span: Span) -> Span:
    if span.subject == "self" and said_of_addressee(text[: span.start]):
        return replace(span, subject="per")
    return span


def _vocative(text: str, key: str) -> tuple[int, int] | None:
    """Where `key` is said as the name of the one spoken to: opening the sentence before a
    "you" ("dani you're", "Ruth, your"), or closing a clause before one or at the end
    ("... ruth 😂 you told us", "... ruth!")."""
    name = rf"(?<![\w'’-])({re.escape(key)})(?![\w'’-])"
    found = re.match(rf"[\W_]*{name}[\s,:;!-]*(?={_YOU})", text, re.I) or re.search(
        rf"(?<=\S)\s+{name}[^\w]*(?:$|(?={_YOU}))", text, re.I
    )
    return found.span(1) if found else None


def _overlaps(span: Span, spans: list[Span]) -> bool:
    return any(s.start < span.end and span.start < s.end for s in spans)


def opening_name(text: str, people: Collection[str]) -> Span | None:
    """The name of one of `people` (lowercase keys) that opens `text`, as a person span:
    one or two capitalised words, an 's after them left out. None where the name owns
    the relation word after it ("Marco's sister lives in Leeds": the sister's home), or
    is said to its bearer ("Marco, got the job!": the writer's news, told to Marco)."""
    found = _OPENING.match(text)
    if found is None:
        return None
    start = found.start("name")
    for word in reversed(list(_NAME_WORD.finditer(text, start, found.end("name")))):
        said = _POSSESSIVE.sub("", text[start : word.end()])
        if _key(said) not in people:
            continue
        if _ADDRESSED.match(text, word.end()) or _owns_relation(text, word.end()):
            return None
        return Span(start, start + len(said), "PER", "cur", "per", 1.0)
    return None


def _owns_relation(text: str, end: int) -> bool:
    """Whether the name ending at `end` owns the relation word after it ("Marco's
    sister"): the sentence's values are then the relative's."""
    after = _NEXT_WORD.match(text, end)
    return bool(after and after[1].lower() in relation_words()[0])


def _key(said: str) -> str:
    return _POSSESSIVE.sub("", " ".join(said.lower().split()))
