"""Precision checks on what the trained reader reads: a false fact is pinned into every
prompt, a missed one only leaves a gap, so a reading that fails any check is dropped.

The checks are about types, not phrases (their tables are in ``data/values.json``):

- a value holds a content word: not only determiners, pronouns or words like "unit";
- a value is not its own subject ("Gus lives in Gus"), nor only the name of its kind
  ("managed with diet" read as a diet);
- a number-typed value is a plausible number (an age between 1 and 110), and an age is
  not one said of the past ("since I was 17");
- a date-typed value names a month or a day, and a medication is more than a dose;
- a verb-phrase value (a plan) starts with a verb's base form; its -ing form is what one
  does now ("taking a pottery class"), unless the sentence sets it at a time ahead
  ("moving to Leeds in June", "flying out next Friday");
- a value inside quotation marks is someone else's words, not the writer's;
- a clause whose subject is the one addressed says nothing of the writer ("You're gonna
  do great with your new job" is no plan of theirs);
- a name is more than a title ("Smt", "Dr");
- a name said to someone is the person addressed, no fact of theirs: right after a
  greeting or thanks that opens its sentence ("Hey Caroline, hope all's good!"), or after
  a comma at the end of an exclamation or a question ("The kids look so cute, Mel!");
- a value is read at least as surely as its label needs: the manifest's
  ``label_min_confidence``, chosen on development text by training/calibrate.py. A
  reading below that bar is not dropped outright: it may still update a slot the stream
  holds (see :func:`standing`).
"""

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from threefold.models.base import ExtractedFact, Standing
from threefold.models.heuristic.text import titles
from threefold.models.reader.heads import Span
from threefold.models.reader.labels import ENDED, slot_table

_WORD = re.compile(r"[^\W_]+(?:['-][^\W_]+)*")
# An opening quote follows the start or a space/bracket; its closing one ends a word.
_QUOTED = re.compile(r"(?:^|(?<=[\s(\[:]))([\"“'‘])(.+?)([\"”'’])(?=$|[\s.,;:!?)\]])")


BELOW = "below its label's confidence"
"""The refusal of a reading that passes every check but its label's confidence bar."""


@dataclass(frozen=True)
class Reading:
    """One fact the heads read, the span and sentence it came from, and why the checks
    drop it ("" if they keep it)."""

    fact: ExtractedFact
    span: Span
    sentence: str
    refused: str
    standing: Standing | None = None
    """Where the fact may be stored (models.base.Standing): FACT when kept; UPDATE or
    HINT when it falls below its label's bar but reaches the bar of a held slot or of a
    hint (a hint that replaces a value surely said to be over is an UPDATE: facts.settled);
    None when dropped."""

    @property
    def kept(self) -> bool:
        return not self.refused


@cache
def value_types() -> dict[str, Any]:
    data = json.loads(
        (resources.files("threefold.models.reader") / "data" / "values.json").read_text("utf-8")
    )
    data.pop("_doc", None)
    data["function_words"] = frozenset(data["function_words"])
    data["months"] = frozenset(data["months"])
    data["verb_phrases"] = frozenset(data["verb_phrases"])
    data["base_forms_in_ing"] = frozenset(data["base_forms_in_ing"])
    data["trip_openers"] = frozenset(data["trip_openers"])
    data["plan_leads"] = tuple(data["plan_leads"])
    data["dangling_words"] = frozenset(data["dangling_words"])
    data["place_leads"] = frozenset(data["place_leads"])
    data["ahead"] = _ahead_pattern(data)
    for words in (
        "greetings",
        "interjections",
        "addressee_words",
        "writer_words",
        "clause_breaks",
        "school_years",
        "seasons",
        "things",
    ):
        data[words] = frozenset(data[words])
    data["dose_units"] = frozenset(data["dose_units"])
    leads = "|".join(re.escape(lead) for lead in data["past_age_leads"])
    data["past_age"] = re.compile(
        rf"\b(?:{leads})\s+(?:i|he|she|we|they|you)\s+(?:was|were)\s+(?:\w+\s+)?$",
        re.IGNORECASE,
    )
    return data


def refusal(
    sentence: str, span: Span, fact: ExtractedFact, least: dict[str, float] | None = None
) -> str:
    """Why the reading `fact` of `span` in `sentence` is not kept; "" if it is."""
    types = value_types()
    value = fact.value.removeprefix(ENDED) if span.modality != "cur" else fact.value
    words = [w.lower() for w in _WORD.findall(value)]
    if not words or all(w in types["function_words"] for w in words):
        return "no content word"
    if value.lower() == fact.subject:
        return "its own subject"
    if set(words) <= _kind_words(span.label):
        return "only names its kind"
    number = types["numbers"].get(span.label)
    if number is not None and not _plausible(value, number):
        return "not a plausible number"
    if number is not None and _measured(sentence, span, types["not_years"]):
        return "a measure, not an age"  # "5 months pregnant", "6 weeks"
    if span.label == "age" and types["past_age"].search(sentence[: span.start]):
        return "an age in the past"  # "since I was 17", "when she was about 6"
    if span.label == "age" and _word_before(sentence, span.start) in types["school_years"]:
        return "a school year, not an age"  # "im yr 11 at mt roskill grammar"
    if span.label == "medication" and all(_dose_word(w, types["dose_units"]) for w in words):
        return "only a dose"  # "upped my sertraline to 100mg": 100mg is no medicine
    if span.label in types["things"] and all(of_a_time(w, types) for w in words):
        return "names no thing"  # "a 2011" (the car's year), "summer" of "summer cottage"
    if span.label in types["dates"] and not _dated(words, types["months"]):
        return "no month or day"
    if span.label in types["verb_phrases"] and not _base_or_ahead(sentence, span, value):
        return "no verb's base form"
    if inside_quotes(sentence, span.start, span.end):
        return "in quotation marks"
    if span.label in ("name", "relation") and addressed(sentence, span):
        return "the person addressed"
    if span.label in ("name", "relation") and set(words) <= titles():
        return "only a title"  # "Smt." read as the name it comes before
    if span.subject == "self" and said_of_addressee(sentence[: span.start]):
        return "said of the one addressed"
    if span.subject == "self" and asked_of_another(sentence, span.start, span.end):
        return "asked, of no one it names"
    if span.confidence < (least or {}).get(span.label, 0.0):
        return BELOW
    return ""


def standing(
    refused: str, span: Span, held_least: dict[str, float], hint_least: float
) -> Standing | None:
    """Where a reading refused as `refused` may still be stored: a reading short only of
    its label's bar is an UPDATE where it reaches `held_least` (per label, "*" for any
    label not named; a label with neither has no such tier), else a HINT where it
    reaches `hint_least`."""
    if not refused:
        return Standing.FACT
    if refused != BELOW:
        return None
    if span.confidence >= held_least.get(span.label, held_least.get("*", 2.0)):
        return Standing.UPDATE
    return Standing.HINT if span.confidence >= hint_least else None


@cache
def _kind_words(label: str) -> frozenset[str]:
    """The words that name a label's kind ("diet", "job title", "health"), not a value."""
    entry = slot_table().get(label, {})
    names = [label, entry.get("category", ""), entry.get("slot", ""), entry.get("keyed", "")]
    return frozenset(w for name in names for w in _WORD.findall(str(name).lower()))


def _dose_word(word: str, units: frozenset[str]) -> bool:
    """A number, a unit of a dose, or both in one ("100mg", "2", "tablets")."""
    number = _DOSE.fullmatch(word)
    return word in units or (number is not None and number["unit"] in units | {""})


_DOSE = re.compile(r"\d+(?:\.\d+)?(?P<unit>[a-zµ]*)")


def _plausible(value: str, bounds: dict[str, int]) -> bool:
    return value.isdigit() and bounds["least"] <= int(value) <= bounds["most"]


def _measured(sentence: str, span: Span, units: list[str]) -> bool:
    """Whether the span's number is followed by a unit that is no year ("5 months")."""
    after = re.match(r"\s*([a-z]+)", sentence[span.end :], re.IGNORECASE)
    return after is not None and after.group(1).lower() in units


def _dated(words: list[str], months: frozenset[str]) -> bool:
    return any(w in months or re.fullmatch(r"\d{1,2}(?:st|nd|rd|th)?", w) for w in words)


def opens_with_gerund(value: str) -> bool:
    """Whether a verb-phrase value opens with a verb's -ing form ("moving to Leeds"), not a
    base form that ends in -ing ("bring the kids")."""
    first = next(iter(_WORD.findall(value.lower())), "")
    return (
        len(first) > 4 and first.endswith("ing") and first not in value_types()["base_forms_in_ing"]
    )


def _base_or_ahead(sentence: str, span: Span, value: str) -> bool:
    """Whether a plan opens with a verb's base form, or with its -ing form in a sentence
    that sets it at a time ahead and does not say it goes on already ("been running")."""
    if not opens_with_gerund(value):
        return True
    if len(value.split()) < 2:
        return False  # "getting" alone says nothing of what
    return bool(value_types()["ahead"].search(sentence)) and not _ongoing(sentence[: span.start])


def _ahead_pattern(types: dict[str, Any]) -> re.Pattern[str]:
    """A time ahead in a sentence: "next week", "tomorrow", or a month, a weekday or a
    day of the month after a word that sets a date ("in March", "on the 23rd", "this
    Friday", "the first week of June"), a month also beside a day's number ("jan 4-11");
    "since March" and "last May" are behind."""
    said = "|".join(re.escape(t) for t in types["times_ahead"])
    leads = "|".join(re.escape(w) for w in types["date_leads"])
    months = "|".join(re.escape(m) for m in types["months"])
    days = "|".join(types["weekdays"])
    dated = rf"(?:{months}|{days}|\d{{1,2}}(?:st|nd|rd|th))"
    return re.compile(
        rf"\b(?:{said})\b|\b(?:{leads})\s+(?:(?:the|first|last|second|third|week|weekend|"
        rf"of)\s+)*{dated}\b|\b(?:{months})\.?\s+\d{{1,2}}\b|\b\d{{1,2}}(?:st|nd|rd|th)?\s+"
        rf"(?:of\s+)?(?:{months})\b",
        re.IGNORECASE,
    )


_ONGOING = re.compile(r"\b(?:been|was|were|keep|kept|still)\s+\S*\s*$", re.IGNORECASE)


def _ongoing(before: str) -> bool:
    """Whether the words before a value say it goes on or went on ("been running", "was
    moving"), not that it lies ahead."""
    return bool(_ONGOING.search(before))


_CLAUSE_OPENING = re.compile(
    r"\s*(?:i|i'm|im|i've|i'd|i'll|me|my|we|we're|our|you|you're|your|u|ur|it|it's|its|this"
    r"|that|the|so|and|but|just)\b",
    re.I,
)
"""Words a clause opens with: after a name set off by commas, they show the name was said
to someone ("Yeah, Caroline, my family ..."), where a participle or a noun tells more of
the one named ("Yes, Laila, born on the 9th")."""


def addressed(sentence: str, span: Span) -> bool:
    """Whether the span is the name of the person a sentence is said to: after a greeting
    or thanks that opens it ("Hey Caroline, ...", "Thanks, Mel!", "Morning Sam"; not "Hi,
    I'm Sam"), set off by commas after interjections before a clause ("Yeah, Caroline, my
    family's been great"; not "Yes, Lila." nor "Yes, Laila, born on the 9th", which may
    answer a question), or after a comma at the end of an exclamation or a question ("So
    cute, Mel!"), unless what comes before denies something ("not Lily, Lila!" corrects)."""
    before = sentence[: span.start]
    after = sentence[span.end :].lstrip()
    said = _WORD.findall(before.lower())
    types = value_types()
    if " ".join(said) in types["greetings"]:
        return not after or after[0] in ",.!?;:)"
    if said and all(w in types["interjections"] or w in types["greetings"] for w in said):
        # "Yeah, Caroline, my family ...", not "Yes, Laila, born on the 9th" (her name)
        return after[:1] == "," and _CLAUSE_OPENING.match(after[1:]) is not None
    return (
        before.rstrip().endswith(",") and after[:1] in ("!", "?") and not _NEGATION.search(before)
    )


def said_of_addressee(before: str) -> bool:
    """Whether the clause that ends in `before` is said of the one addressed: its last
    person word is "you" ("You're gonna do great with your new job", "u should move to
    Leeds"), not the writer ("you can call me Sam", "did you know I'm vegan"). A clause
    ends at punctuation or a joining word ("love you, moving to Leeds in June")."""
    types = value_types()
    said = _words_of(_CLAUSE_END.split(before)[-1])
    cut = max((i + 1 for i, w in enumerate(said) if w in types["clause_breaks"]), default=0)
    you, me = types["addressee_words"], types["writer_words"]
    persons = [w for w in said[cut:] if w in you or w in me]
    return bool(persons) and persons[-1] in you


def of_a_time(word: str, types: dict[str, Any]) -> bool:
    """A year, a month, a weekday or a season: words that date a thing, never name it ("a
    4060" may be a model's number; "a 2011" is the year of one)."""
    return (
        bool(_YEAR.fullmatch(word))
        or word in types["months"]
        or word in types["weekdays"]
        or word in types["seasons"]
    )


_YEAR = re.compile(r"(?:19|20)\d\d")


def _word_before(sentence: str, start: int) -> str:
    """The word right before `start`, lowercase; "" if none."""
    found = _WORD.findall(sentence[:start].lower())
    return found[-1] if found else ""


def asked_of_another(sentence: str, start: int, end: int) -> bool:
    """Whether the value at `start`:`end` lies in a question that names no writer: "how's
    sam? still at the bbc?" asks after someone else, where "am I still on the list?" or
    "my mum turns 60 in May, gift ideas?" (its own clause) keeps the writer's words."""
    after = _CLAUSE_END.search(sentence, end)
    if after is None or after.group() != "?":
        return False
    clause = _CLAUSE_END.split(sentence[:start])[-1] + sentence[start : after.start()]
    return not any(word in value_types()["writer_words"] for word in _words_of(clause))


def _words_of(clause: str) -> list[str]:
    """A clause's words, lowercase, with a typographic apostrophe as a plain one ("I’m"
    is "i'm"), as the person word classes write them."""
    return _WORD.findall(clause.lower().replace("\u2019", "'"))


_CLAUSE_END = re.compile(r"[,;:.!?()\[\]\u2013\u2014]|\s-\s")


_NEGATION = re.compile(r"\b(?:not|no|nope|nah|never)\b|n't\b", re.IGNORECASE)


def inside_quotes(text: str, start: int, end: int) -> bool:
    """Whether `text[start:end]` lies inside quotation marks: someone else's words."""
    return any(m.start(2) <= start and end <= m.end(2) for m in _QUOTED.finditer(text))
