"""Whose a sentence is, when it opens with or names a person the memory knows.

The graph was trained mostly on lines written in the first person, and tags a name it has
not seen only now and then: Rafael's "Marco bought a second-hand hatchback" reads as
Rafael's car. The engine knows the chat's people (``TurnInput.people``), so a sentence
that opens with one of them and says nothing in the first person is theirs: its values,
its relations ("Marco's wife is a nurse") and its pets. The opening name is also tagged
where the graph tagged none, so that a value the graph calls a named person's finds whose
it is ("Harjit's birthday is 19 January", Harjit known), and so is a known person named
anywhere in a sentence where the graph tagged no one ("The birthday of Camille it is the
23 April").
"""

import re
from collections.abc import Collection

from threefold.models.reader.heads import Span
from threefold.models.reader.labels import relation_words

_FIRST_PERSON = re.compile(
    r"(?<![\w'’])(?:i|me|my|mine|myself|we|us|our|ours|ourselves)(?![\w])", re.I
)
_OPENING = re.compile(r"^[\W_]*?(?P<name>[A-Z][\w’'-]*(?:[ \t]+[A-Z][\w’'-]*)?)")
_NAME_WORD = re.compile(r"[A-Z][\w’'-]*")
_POSSESSIVE = re.compile(r"['’]s$")
_ADDRESSED = re.compile(r"\s*(?:[,!?:;]|[-–—]\s)")
_NEXT_WORD = re.compile(r"\s+(?:new\s+|old\s+|little\s+|big\s+)?([\w'’-]+)")


def whose(text: str, spans: list[Span], me: str, people: Collection[str]) -> tuple[list[Span], str]:
    """`text`'s spans, with the known person's name that opens it tagged as a person where
    the graph tagged nothing over it, and whose its unnamed values are: that person's,
    where it says nothing in the first person; else the writer `me`'s. Where the graph
    tagged no person or relation word at all, the one known person the sentence names
    (:func:`known_names`) is tagged too, so that a value it reads as someone else's has
    someone to be."""
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
