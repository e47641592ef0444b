"""From the spans of one sentence to facts keyed for supersession.

A value's subject is the writer, the relation word it goes with ("my mum" -> "user's
mother") or the person named beside it. A former or denied value in the same sentence as a
current one of the same kind hands its slot to the current one, so the new value
supersedes the old: "sold the Ranger, got a RAV4", "in York, not Leeds". One replaced
elsewhere in the turn states nothing of its own either: the current value takes the slot.
A former or denied value that nothing in the turn replaces says the value is over ("sold
the camper", "not vegan any more", "not allergic to peanuts after all"): a fact in the
slot the value would hold, which ends it there ("The user no longer has the camper.");
where the kind keeps former values in a slot of their own ("used to work at Deloitte"),
the fact goes there and ends the same value in the current slot. Hypothetical and asked
values state nothing.
"""

import re
from functools import cache

from threefold.domain import FactCategory
from threefold.models.base import ExtractedFact, SlotRef
from threefold.models.reader.checks import value_types
from threefold.models.reader.heads import Span
from threefold.models.reader.labels import ENDED, relation_words, slot_table

USER_WORD = 0.95
CORRECTION = 1.0
MIN_CONFIDENCE = 0.5
"""Spans the tagger is less sure of than this are left out: precision before capture."""
_RELATION_LABELS = ("relation", "pet")
_DETERMINER = re.compile(r"^(?:a|an|the|my|our|his|her|their|your)\s+", re.I)
_EDGE = " \t,.;:!?\"'()"
_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
)
_NUMBER_WORDS = {word: n for n, word in enumerate(_UNITS.split(" "))}
_TENS = {
    word: 10 * (n + 2)
    for n, word in enumerate(
        ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
    )
}
_KEY_WORD = re.compile(r"[\w'-]+")
_POSSESSIVE = re.compile(r"['’]s$")


def sentence_facts(
    text: str, found: list[Span], me: str, *, least: float = MIN_CONFIDENCE
) -> list[ExtractedFact]:
    """The facts one sentence's spans state, for the writer `me` ("user" or a name), from
    the spans the tagger is at least `least` sure of."""
    return [fact for fact, _ in sentence_readings(text, found, me, least=least)]


def sentence_readings(
    text: str,
    found: list[Span],
    me: str,
    *,
    least: float = MIN_CONFIDENCE,
    replaced: frozenset[tuple[str, str]] = frozenset(),
) -> list[tuple[ExtractedFact, Span]]:
    """:func:`sentence_facts`, each fact with the value span it was read from.
    `replaced`: the (subject, label) pairs the turn states a current value of
    (:func:`current_values`), whose former or denied values state nothing of their own."""
    spans = [s for s in found if s.confidence >= least]
    values = [s for s in spans if s.label in slot_table() and s.modality not in ("hypo", "ask")]
    here = current_values(text, spans, me)
    out: list[tuple[ExtractedFact, Span]] = []
    for span in values:
        if span.modality == "cur":
            replaces = _replaced(span, values)
            fact = _fact(text, span, spans, me, replaces=replaces)
            if fact is not None and replaces is not None and replaces.modality == "neg":
                # "York, not Leeds": a correction, as firm as the user's word gets
                fact = fact.model_copy(update={"confidence": CORRECTION, "is_correction": True})
        elif span.label in _RELATION_LABELS:
            continue  # a person's or pet's ending is the layers' to draw (layers/facts.py)
        elif (_subject(text, span, spans, me), span.label) in here | replaced:
            continue  # the current value takes its slot
        else:
            fact = _ended(text, span, spans, me)
        if fact is not None:
            out.append((fact, span))
    return out


def turn_readings(
    sentences: list[tuple[str, list[Span]]], me: str, least: float = MIN_CONFIDENCE
) -> list[tuple[str, ExtractedFact, Span]]:
    """The facts of a whole turn, given each sentence with its spans: (sentence, fact, span).
    A value said to be over in one sentence and replaced in another ("Left Leeds in May.
    We're in Manchester now.") is replaced, not only over."""
    replaced = frozenset(
        pair for text, found in sentences for pair in current_values(text, found, me, least=least)
    )
    return [
        (text, fact, span)
        for text, found in sentences
        for fact, span in sentence_readings(text, found, me, least=least, replaced=replaced)
    ]


def current_values(
    text: str, found: list[Span], me: str, *, least: float = MIN_CONFIDENCE
) -> set[tuple[str, str]]:
    """The (subject, label) pairs of the current values one sentence states."""
    return {
        (subject, s.label)
        for s in found
        if s.confidence >= least
        and s.modality == "cur"
        and s.label in slot_table()
        and (subject := _subject(text, s, found, me)) is not None
    }


def _ended(text: str, span: Span, spans: list[Span], me: str) -> ExtractedFact | None:
    """The fact that a value nothing replaces is over: in the kind's own slot for former
    values where it has one (which ends the current value there), else in the slot the
    value would hold, said as over."""
    entry = slot_table()[span.label]
    if span.modality == "former" and "former" in entry:
        fact = _fact(text, span, spans, me, former=True)
        if fact is None:
            return None
        now = SlotRef(subject=fact.subject, slot=entry["slot"], value=fact.value)
        return fact.model_copy(update={"ends": (now,)})
    fact = _fact(text, span, spans, me)
    if fact is None or "ended" not in entry:
        return None
    bare = fact.value.removeprefix(entry.get("value_prefix", ""))
    said = _say(entry["ended"], fact.subject, bare, "", former=False)
    return fact.model_copy(update={"value": ENDED + fact.value, "text": said})


def _replaced(span: Span, values: list[Span]) -> Span | None:
    """The former or denied value of the same kind the current `span` replaces."""
    return next(
        (v for v in values if v.label == span.label and v.modality in ("former", "neg")), None
    )


def _fact(
    text: str,
    span: Span,
    spans: list[Span],
    me: str,
    *,
    former: bool = False,
    replaces: Span | None = None,
) -> ExtractedFact | None:
    entry = slot_table()[span.label]
    value = _value(text, span)
    if not value:
        return None
    subject = _subject(text, span, spans, me)
    if subject is None:
        return None
    relation = ""
    if span.label in _RELATION_LABELS:
        word = _nearest(span, [s for s in spans if s.label == "REL"])
        if word is None:
            return None
        relation = _relation(text, word)
        kinds, single = relation_words()
        slot = relation if relation in single else f"{relation}:{value.lower()}"
    elif former:
        slot = entry["former"]
    elif "keyed" in entry:
        old = _key(_value(text, replaces)) if replaces is not None else None
        slot = f"{entry['keyed']}:{old or _key(value) or value.lower()}"
    else:
        slot = entry["slot"]
    value = entry.get("value_prefix", "") + value
    return ExtractedFact(
        text=_say(entry["say"], subject, value, relation, former),
        category=FactCategory(entry["category"]),
        subject=subject,
        slot=slot,
        value=value,
        confidence=USER_WORD,
    )


def _value(text: str, span: Span) -> str:
    value = _DETERMINER.sub("", text[span.start : span.end].strip(_EDGE)).strip(_EDGE)
    if span.label == "age":
        value = _as_number(value + _units_after(text, span, value))
    elif span.label in value_types()["dates"]:
        value = _with_day(text, span, value)
    elif span.label not in ("PER", "REL", *_RELATION_LABELS):
        value += _rest_of_name(text, span, value)
    return value


# A word of a name: capitalised ("Science"), or a model's letters and digits ("M2").
_NAME_WORDS_AFTER = re.compile(r"(?:[ \t]+(?:[A-Z][\w'’-]*|[A-Za-z]+\d[\w-]*))+")


@cache
def _not_name_words() -> frozenset[str]:
    types = value_types()
    return frozenset(types["months"]) | frozenset(types["weekdays"])


def _rest_of_name(text: str, span: Span, value: str) -> str:
    """The words of a name the span cut off after its value ("Science" of "Computer
    Science", "Air M2" of "MacBook Air M2"): only where the value ends in a word of the
    name itself, never a month, a weekday or "I" ("at Google Monday", "Leeds I think")."""
    words = value.split()
    if not any(c.islower() for c in text):
        return ""  # in capitals, every word looks like a name's
    if not words or not (words[-1][:1].isupper() or _NAME_WORDS_AFTER.fullmatch(" " + words[-1])):
        return ""
    found = _NAME_WORDS_AFTER.match(text, span.end)
    if found is None:
        return ""
    kept = ""
    for word in found.group().split():
        if word == "I" or word.lower() in _not_name_words():
            break
        kept += " " + word
    return kept


_DAY_AFTER = re.compile(r"\s+(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\b", re.I)
_DAY_BEFORE = re.compile(r"\b(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?$", re.I)


def _with_day(text: str, span: Span, value: str) -> str:
    """A date's value that is only its month, with the day the span cut off beside it
    ("JUNE" of "JUNE 18", "May" of "the 3rd of May"); anything else as it was."""
    if value.lower().rstrip(".") not in value_types()["months"]:
        return value
    if after := _DAY_AFTER.match(text, span.end):
        return value + after.group()
    if before := _DAY_BEFORE.search(text[: span.start]):
        return before.group() + value
    return value


def _units_after(text: str, span: Span, value: str) -> str:
    """The unit word a span cut off after its tens ("seventy" of "seventy three"), with
    the space or hyphen before it; "" if there is none."""
    if value.lower() not in _TENS:
        return ""
    after = re.match(r"[\s-]+([a-z]+)\b", text[span.end :], re.I)
    if after is None or not 0 < _NUMBER_WORDS.get(after.group(1).lower(), 0) < 10:
        return ""
    return after.group()


def _as_number(words: str) -> str:
    """'seventy-three' -> '73'; anything else as it was."""
    parts = re.split(r"[\s-]+", words.lower())
    if parts and all(p in _TENS or p in _NUMBER_WORDS for p in parts):
        return str(sum(_TENS.get(p, _NUMBER_WORDS.get(p, 0)) for p in parts))
    return words


def _key(value: str) -> str | None:
    """A keyed slot's key: the value's last word that is no dose or number
    ("25mg metoprolol" -> "metoprolol"); None if it has none ("50mg")."""
    found = [w for w in _KEY_WORD.findall(value.lower()) if not any(c.isdigit() for c in w)]
    return found[-1] if found else None


def _subject(text: str, span: Span, spans: list[Span], me: str) -> str | None:
    if span.label in _RELATION_LABELS or span.subject == "self":
        return me
    names = [s for s in spans if s.label == "PER" or s.label in _RELATION_LABELS]
    if span.subject == "per" and (named := _nearest(span, names)) is not None:
        return _whose(_value(text, named))
    word = _nearest(span, [s for s in spans if s.label == "REL"])
    if word is None:
        return None
    named = _named(text, word, [s for s in spans if s.label in _RELATION_LABELS])
    if named is not None:  # "my wife Ines is a doctor": the fact is Ines's, by her name
        return _whose(_value(text, named))
    return f"{me}'s {_relation(text, word)}"


def _whose(said: str) -> str:
    """A person said as a subject, lowercase and without an 's: "Dawn's a nurse" and "Dad's
    allergic" (the 's is "is") or "Dawn's new job" (a possessive) are about Dawn and Dad."""
    return _POSSESSIVE.sub("", said.lower())


def _named(text: str, word: Span, names: list[Span]) -> Span | None:
    """The name said right beside a relation word ("my wife Ines", "Ines, my wife")."""
    for name in names:
        between = (
            text[word.end : name.start] if name.start >= word.end else text[name.end : word.start]
        )
        if not between.strip(" ,") and between.count(",") <= 1:
            return name
    return None


def _relation(text: str, word: Span) -> str:
    said = _whose(text[word.start : word.end].strip(_EDGE))
    kinds, _ = relation_words()
    return kinds.get(said, said)


def _nearest(span: Span, candidates: list[Span]) -> Span | None:
    """The candidate closest to `span`, one before it winning a tie."""
    if not candidates:
        return None
    return min(candidates, key=lambda c: (abs(c.start - span.start), c.start > span.start))


def _say(template: str, subject: str, value: str, relation: str, former: bool) -> str:
    who = "the user" if subject == "user" else _title(subject)
    who_s = f"{who}'s"
    a_value = value if re.match(r"(?:a|an|the)\s", value, re.I) else f"{_article(value)} {value}"
    said = template.format(who=who, who_s=who_s, value=value, a_value=a_value, relation=relation)
    said = said[0].upper() + said[1:]  # "the user" opens most sentences, not all of them
    return f"{said[:-1]} (formerly)." if former else said


def _title(subject: str) -> str:
    return "the " + subject if subject.startswith("user's") else subject[:1].upper() + subject[1:]


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"
