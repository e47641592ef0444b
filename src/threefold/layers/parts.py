"""Whether a fact's parts have the shape of their kind: a value, and whom it is about.

Many false facts are not misread but malformed: a reader (the rules, the trained reader,
a chat model) takes a span one word too far or too short, or names as the subject what is
no one person. Pinned into every prompt, such a fact misleads. The checks are on word
classes (data/fact_parts.json), so they hold for any reader and any wording:

- a chat word or a subject pronoun at a value's end belongs to the next clause ("wallows
  fr", "gary he drives a bus"), and a request inside a value ends it ("something nice for
  her any ideas ..."): the value is cut there;
- "own" left at a value's start once its possessive is gone ("his own iPad") is dropped;
- a value that names a thing, a place or a condition never holds a verb of saying or
  knowing ("allergic to tell Dev", "allergic to pediatrician confirmed"): that is the next
  clause, and nothing is stored;
- a value that is only a noun needing a complement ("type", from "type 2") says nothing;
- a word for several people ("twins"), a language or a nationality ("Italian") is no
  subject of a personal fact.

A value is cut only where the fact's sentence holds it as read, so that the sentence can be
cut with it; otherwise the fact is not stored.
"""

import json
import re
from functools import cache
from importlib import resources
from typing import Any

from threefold.models.base import ExtractedFact
from threefold.models.heuristic.text import indefinite_article

_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")


@cache
def _classes() -> dict[str, Any]:
    raw = json.loads(resources.files(__package__).joinpath("data/fact_parts.json").read_text())
    return {
        name: frozenset(values) if name != "question_openers" else tuple(values)
        for name, values in raw.items()
        if not name.startswith("_")
    }


def reshaped(item: ExtractedFact) -> ExtractedFact | None:
    """`item` with its value's edges cut where they belong to another clause, or None when
    its value or its subject has no shape of its kind."""
    if _no_one(item):
        return None
    value = _trimmed(item.value)
    if not value:
        return None
    if value != item.value:
        cut = _cut(item, value)
        if cut is None:
            return None
        item = cut
    return None if _clause_in_value(item) or _empty(item.value) else item


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def _trimmed(value: str) -> str:
    """`value` without what another clause left at its edges."""
    classes = _classes()
    value = _before_request(value, classes["question_openers"])
    while True:
        found = list(_WORD.finditer(value))
        if not found:
            return ""
        last = found[-1].group().lower()
        if last in classes["trailing_fillers"] or last in classes["trailing_pronouns"]:
            value = value[: found[-1].start()].rstrip(" ,;:-")
            continue
        lead = re.match(r"(?:very\s+)?own\s+", value, re.I)
        if lead and lead.group().strip().lower() in classes["leading_words"]:
            value = value[lead.end() :]
            continue
        return value.strip()


def _before_request(value: str, openers: tuple[str, ...]) -> str:
    """`value` up to a request that starts after its first word."""
    lowered = value.lower()
    cuts = [
        m.start()
        for opener in openers
        for m in re.finditer(rf"(?<=\s){re.escape(opener)}\b", lowered)
    ]
    return value[: min(cuts)].rstrip(" ,;:-") if cuts else value


def _cut(item: ExtractedFact, value: str) -> ExtractedFact | None:
    """`item` with `value`, its sentence and its slot key cut the same way; None when its
    sentence does not hold the value as read."""
    at = item.text.lower().find(item.value.lower())
    start = item.value.lower().find(value.lower())
    if at < 0 or start < 0:
        return None
    kept = item.text[at + start : at + start + len(value)]
    before = _article_for(item.text[:at], kept) if start else item.text[:at]
    text = before + kept + item.text[at + len(item.value) :]
    slot = item.slot
    if slot.endswith(":" + item.value.lower()):
        slot = slot[: -len(item.value)] + value.lower()
    return item.model_copy(update={"value": value, "text": text, "slot": slot})


def _article_for(before: str, value: str) -> str:
    """`before` with its closing "a" or "an" as `value`'s first letter needs ("an own
    iPad" cut to "an iPad", "an own car" to "a car")."""
    article = re.search(r"\b(an?) $", before, re.I)
    if article is None or not value:
        return before
    wanted = indefinite_article(value)
    if article.group(1)[0].isupper():
        wanted = wanted.capitalize()
    return before[: article.start(1)] + wanted + " "


def _clause_in_value(item: ExtractedFact) -> bool:
    classes = _classes()
    if item.category.value not in classes["thing_categories"]:
        return False
    return any(w in classes["clause_verbs"] for w in _words(item.value))


def _empty(value: str) -> bool:
    words = _words(value)
    return bool(words) and all(w in _classes()["empty_nouns"] for w in words)


def _named(subject: str) -> bool:
    """A subject that is a person's name: not the user, and not someone's relation."""
    return subject != "user" and "'s" not in subject and subject != "assistant"


def _no_one(item: ExtractedFact) -> bool:
    """A personal fact whose subject is a word for several people, or a language or a
    nationality ("Italian", named in the turn before, taken for whom "he" means)."""
    classes = _classes()
    if item.category.value not in classes["personal_categories"] or not _named(item.subject):
        return False
    said = _words(item.subject)
    return any(w in classes["groups"] for w in said) or _peoples_word(item.subject)


def _peoples_word(subject: str) -> bool:
    from threefold.models.heuristic.personal_words import LANGUAGES, NATIONALITIES

    return subject in LANGUAGES or subject in NATIONALITIES
