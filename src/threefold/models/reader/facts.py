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

A value said to be over gives way to its replacement only where the replacement takes its
slot: kept, or an update of the held slot. A replacement read too unsure beside an ending
read surely becomes such an update; one that fails a check is no replacement, and the old
value is said to be over on its own (:func:`settled`). A keyed value's replacement said in
another sentence is keyed by it, as in one sentence, when the turn pairs them one to one.
"""

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import cache

from threefold.domain import FactCategory
from threefold.models.base import ExtractedFact, SlotRef, Standing
from threefold.models.heuristic.text import indefinite_article, third_person, titles
from threefold.models.heuristic.text import words as words_of
from threefold.models.reader.checks import addressed, opens_with_gerund, value_types
from threefold.models.reader.heads import Span
from threefold.models.reader.labels import ENDED, relation_words, slot_table

USER_WORD = 0.95
CORRECTION = 1.0
MIN_CONFIDENCE = 0.5
"""Spans the tagger is less sure of than this are left out: precision before capture."""
RELATION_LABELS = ("relation", "pet")
_RELATION_UNSAID = {"pet": "pet"}
"""The relation of a value of a label said in a sentence with no relation word, and none in
the sentence before: a pet the graph tags as one is a pet ("Ficelle sleeps by the stove all
day"); a person may be anyone's, and is read only beside a relation word. A sentence with a
relation word the graph did not tag lends no relation: the word is most often someone
else's ("Bella is my neighbour's dog")."""
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
    read = _sentence_reads(text, found, me, least, replaced)
    return [(r.fact, r.span) for r in read if r.over_for is None]


StandingOf = Callable[["TurnRead"], Standing | None]
"""Where a reading may be stored on its own (models.base.Standing), None: nowhere."""


def turn_readings(
    sentences: list[tuple[str, list[Span]]],
    me: str,
    least: float = MIN_CONFIDENCE,
    standing_of: StandingOf | None = None,
) -> list[tuple[str, ExtractedFact, Span]]:
    """The facts of a whole turn, given each sentence with its spans: (sentence, fact, span).
    A value said to be over in one sentence and replaced in another ("Left Leeds in May.
    We're in Manchester now.") is replaced, not only over. `standing_of`: where each
    reading may be stored (None: every one as a fact), which decides what ends an old
    value (:func:`settled`)."""
    reads = settled(turn_reads(sentences, me, least), standing_of or _as_fact)
    return [(r.text, r.fact, r.span) for r, _ in reads]


def turn_reads(
    sentences: list[tuple[str, list[Span]]],
    me: str,
    least: float = MIN_CONFIDENCE,
    writers: list[str] | None = None,
    referent: str | None = None,
) -> list["TurnRead"]:
    """Every fact of a turn, each value said to be over with the current values that
    would take its slot (:class:`TurnRead`). `writers`: whose each sentence's unnamed
    values are, where not all are `me`'s (:mod:`.whose`). `referent`: whom a "he" or
    "she" means before the turn names anyone (TurnInput.referent, as a subject)."""
    mine = writers or [me] * len(sentences)
    meant = _antecedents(sentences, me, least, referent)
    kin_before = _relations_before(sentences, least)
    replaced = frozenset(
        pair
        for (text, found), writer, who in zip(sentences, mine, meant, strict=True)
        for pair in current_values(text, found, writer, least=least, antecedent=who)
    )
    reads = [
        r
        for index, ((text, found), writer, who, kin) in enumerate(
            zip(sentences, mine, meant, kin_before, strict=True)
        )
        for r in _sentence_reads(text, found, writer, least, replaced, index, who, kin)
    ]
    return _keyed_across(reads)


# "he", "she" and their other forms: a sentence that says them may be about someone named
# before it ("any ideas for my mum Mere? she turns 65 in march")
_THIRD_PERSON = re.compile(r"(?<![\w'’])(?:he|she|him|her|his|hers)(?![\w’]|'(?!s\b))", re.I)


def says_third_person(text: str) -> bool:
    """Whether `text` says "he" or "she" (or their other forms)."""
    return bool(_THIRD_PERSON.search(text))


def _antecedents(
    sentences: list[tuple[str, list[Span]]], me: str, least: float, referent: str | None
) -> list[str | None]:
    """Whom each sentence's "he" or "she" may mean: the person named last in the
    sentences before it, else `referent`."""
    out, last = [], referent
    for text, found in sentences:
        out.append(last)
        last = _last_named(text, [s for s in found if s.confidence >= least], me) or last
    return out


def _relations_before(sentences: list[tuple[str, list[Span]]], least: float) -> list[str]:
    """The relation each sentence's person or pet may be named as without a relation word
    of its own: one the sentence before said without a name ("We got a puppy!! Hana named
    him Mochi", "My great grandson was born last week. His name is Wyatt"); else ""."""
    out, last = [], ""
    for text, found in sentences:
        out.append(last)
        spans = [s for s in found if s.confidence >= least]
        words = [s for s in spans if s.label == "REL"]
        named = any(s.label in RELATION_LABELS for s in spans)
        last = _relation(text, words[-1]) if words and not named else ""
    return out


def referent_subject(referent: str | None, me: str) -> str | None:
    """TurnInput.referent ("my mum", "Raj", "Lena's sister") as a subject: "user's mother",
    "raj", "lena's sister"."""
    if not referent:
        return None
    said = " ".join(referent.lower().split())
    if not said.startswith("my "):
        return said
    kinds, _ = relation_words()
    return f"{me}'s {kinds.get(said[3:], said[3:])}"


def asked_relative(question: str, me: str) -> str | None:
    """The relative of `me` that the message a turn answers asks about ("How old is your
    son?", "Does your little sister drive?"), as a subject ("user's son"): whose a terse
    answer's values are ("7 in march"). None where the message names no relative, or more
    than one ("your mum and dad"), or none as "your" one."""
    kinds, _ = relation_words()
    said = [_whose(w) for w in words_of(question)]
    named = [n for n, w in enumerate(said) if w in kinds]
    if (
        len({kinds[said[n]] for n in named}) != 1
        or "your" not in said[max(0, named[0] - 2) : named[0]]
    ):
        return None
    return f"{me}'s {kinds[said[named[0]]]}"


def _last_named(text: str, spans: list[Span], me: str) -> str | None:
    """The subject of the last person `spans` name: by name, or by relation ("my mum").
    A person the sentence is said to ("Welcome Kelsey!") is "you" to its writer, never
    whom a later "she" means."""
    people = [
        s
        for s in spans
        if s.label in ("PER", "REL", *RELATION_LABELS)
        and not (s.label == "PER" and addressed(text, s))
    ]
    if not people:
        return None
    last = max(people, key=lambda s: s.start)
    if last.label != "REL":
        return _whose(_value(text, last))
    named = _named(text, last, [s for s in spans if s.label in ("PER", *RELATION_LABELS)])
    return _whose(_value(text, named)) if named else f"{me}'s {_relation(text, last)}"


def settled(
    reads: list["TurnRead"], standing_of: StandingOf
) -> list[tuple["TurnRead", Standing | None]]:
    """The readings of a turn with where each may be stored, the values said to be over
    first. A value said to be over gives way to its replacement when that replacement
    takes the slot (stored as a fact, or an update: stored wherever the slot holds another
    value); two facts would else end it twice, and "not X" stored after the new value
    would end that instead. A replacement read too unsure beside an old value read surely
    as over ("took me off the metformin, on jardiance now") is an update: the change is
    clear, the new value likely. Else the old value is said to be over on its own, so a
    stale value never stays current for want of a sure replacement."""
    standings = {id(r): standing_of(r) for r in reads}
    taking = (Standing.FACT, Standing.UPDATE)
    for over in (r for r in reads if r.over_for is not None):
        partners = [r for r in reads if over.taken_by(r)]
        if standings[id(over)] in taking and not any(standings[id(p)] in taking for p in partners):
            for partner in partners:
                if standings[id(partner)] is Standing.HINT:
                    standings[id(partner)] = Standing.UPDATE
    out = [
        (r, standings[id(r)])
        for r in reads
        if r.over_for is not None
        and not any(standings[id(p)] in taking for p in reads if r.taken_by(p))
    ]
    return [*out, *((r, standings[id(r)]) for r in reads if r.over_for is None)]


def _as_fact(read: "TurnRead") -> Standing | None:
    return Standing.FACT


def _keyed_across(reads: list["TurnRead"]) -> list["TurnRead"]:
    """A keyed value said to be over in one sentence and one current value of its kind in
    another, neither paired in its own sentence ("Took me off the warfarin. Eliquis now."):
    the current one is keyed by the old, so it takes the old one's slot as it would in one
    sentence. Two or more of either: which replaces which is unclear, and each stays
    apart."""
    out = list(reads)
    for n, over in enumerate(reads):
        if over.over_for is not None or over.span.modality == "cur":
            continue
        entry = slot_table()[over.span.label]
        if "keyed" not in entry:
            continue
        kind = (over.fact.subject, over.span.label)
        overs = [r for r in reads if _lone_over(r) and (r.fact.subject, r.span.label) == kind]
        new = [
            r for r in reads if _lone_current(r, reads) and (r.fact.subject, r.span.label) == kind
        ]
        if len(overs) != 1 or len(new) != 1 or new[0].sentence == over.sentence:
            continue
        key = _key(_value(over.text, over.span))
        if key is None:
            continue
        at = out.index(new[0])
        slot = f"{entry['keyed']}:{key}"
        out[at] = replace(new[0], fact=new[0].fact.model_copy(update={"slot": slot}))
        out[n] = replace(over, over_for=kind, replacement=(new[0].sentence, new[0].span))
    return out


def _lone_over(read: "TurnRead") -> bool:
    return read.span.modality != "cur" and read.over_for is None


def _lone_current(read: "TurnRead", reads: list["TurnRead"]) -> bool:
    """A current value no value said to be over in its own sentence is keyed by."""
    return read.span.modality == "cur" and not any(
        r.replacement == (read.sentence, read.span) for r in reads
    )


def current_values(
    text: str,
    found: list[Span],
    me: str,
    *,
    least: float = MIN_CONFIDENCE,
    antecedent: str | None = None,
) -> set[tuple[str, str]]:
    """The (subject, label) pairs of the current values one sentence states."""
    return {
        (subject, s.label)
        for s in found
        if s.confidence >= least
        and s.modality == "cur"
        and s.label in slot_table()
        and (subject := _subject(text, s, found, me, antecedent)) is not None
    }


@dataclass(frozen=True)
class TurnRead:
    """A fact read in sentence `sentence` of a turn. A value said to be over whose slot a
    current value takes names that value: `over_for`, the (subject, label) of a single
    slot's current values; `replacement`, for a keyed slot, the current span of the same
    sentence keyed by it ("sold the Ranger, got a RAV4": the RAV4 keyed by the Ranger)."""

    text: str
    fact: ExtractedFact
    span: Span
    sentence: int
    over_for: tuple[str, str] | None = None
    replacement: tuple[int, Span] | None = None

    def taken_by(self, other: "TurnRead") -> bool:
        """Whether the current value `other` takes this over value's slot."""
        if self.over_for is None or other.span.modality != "cur":
            return False
        if self.replacement is not None:
            return (other.sentence, other.span) == self.replacement
        return (other.fact.subject, other.span.label) == self.over_for


def _sentence_reads(
    text: str,
    found: list[Span],
    me: str,
    least: float,
    replaced: frozenset[tuple[str, str]],
    sentence: int = 0,
    antecedent: str | None = None,
    kin_before: str = "",
) -> list[TurnRead]:
    """Every fact one sentence states, a value said to be over with what takes its slot;
    `antecedent`: whom its "he" or "she" means, if anyone (_antecedents); `kin_before`:
    the relation its people may be named as (_relations_before)."""
    spans = [s for s in found if s.confidence >= least]
    values = [s for s in spans if s.label in slot_table() and s.modality not in ("hypo", "ask")]
    here = current_values(text, spans, me, antecedent=antecedent)
    out: list[TurnRead] = []
    for span in values:
        over_for: tuple[str, str] | None = None
        replacement: tuple[int, Span] | None = None
        if span.modality == "cur":
            replaces = _replaced(span, values)
            fact = _fact(
                text,
                span,
                spans,
                me,
                replaces=replaces,
                antecedent=antecedent,
                kin_before=kin_before,
            )
            if fact is not None and replaces is not None and replaces.modality == "neg":
                # "York, not Leeds": a correction, as firm as the user's word gets
                fact = fact.model_copy(update={"confidence": CORRECTION, "is_correction": True})
        elif span.label in RELATION_LABELS:
            continue  # a person's or pet's ending is the layers' to draw (layers/facts.py)
        else:
            fact = _ended(text, span, spans, me, antecedent)
            pair = (_subject(text, span, spans, me, antecedent) or "", span.label)
            if "keyed" in slot_table()[span.label]:
                # only the value keyed by this one takes its slot: a new key is a slot apart
                by = next(
                    (v for v in values if v.modality == "cur" and _replaced(v, values) == span),
                    None,
                )
                replacement = (sentence, by) if by is not None else None
                over_for = pair if by is not None else None
            elif pair in here | replaced:
                over_for = pair  # the current value takes its slot
        if fact is not None:
            out.append(TurnRead(text, fact, span, sentence, over_for, replacement))
    return out


_SAYS_OVER = re.compile(r"\b(?:no\s+longer|any\s*more|any\s+longer|these\s+days|now)\b", re.I)
"""A denial that says the value held once ("not vegan any more"), not that it never did."""


def _ended(
    text: str, span: Span, spans: list[Span], me: str, antecedent: str | None = None
) -> ExtractedFact | None:
    """The fact that a value nothing replaces is over: in the kind's own slot for former
    values where it has one (which ends the current value there), else in the slot the
    value would hold, said as over; or, denied with no word of a change ("we don't have
    a car"), said as never held: "does not have a car", not "no longer has"."""
    entry = slot_table()[span.label]
    if span.modality == "former" and "former" in entry:
        fact = _fact(text, span, spans, me, former=True, antecedent=antecedent)
        if fact is None:
            return None
        now = SlotRef(subject=fact.subject, slot=entry["slot"], value=fact.value)
        return fact.model_copy(update={"ends": (now,)})
    fact = _fact(text, span, spans, me, antecedent=antecedent)
    if fact is None or "ended" not in entry:
        return None
    bare = fact.value.removeprefix(entry.get("value_prefix", ""))
    never = span.modality == "neg" and "denied" in entry and not _SAYS_OVER.search(text)
    said = _say(
        _wording(entry, "denied" if never else "ended", bare), fact.subject, bare, "", former=False
    )
    return fact.model_copy(update={"value": ENDED + fact.value, "text": said})


def _replaced(span: Span, values: list[Span]) -> Span | None:
    """The former or denied value of the same kind the current `span` replaces."""
    return next(
        (v for v in values if v.label == span.label and v.modality in ("former", "neg")), None
    )


_TURNING = re.compile(r"\b(?:turns?|turning|(?:will|'ll|gonna|going\s+to)\s+be)\s+$", re.I)
"""An age to come: "turns 70 in June" is no age held now, "turned 8" is."""


def _fact(
    text: str,
    span: Span,
    spans: list[Span],
    me: str,
    *,
    former: bool = False,
    replaces: Span | None = None,
    antecedent: str | None = None,
    kin_before: str = "",
) -> ExtractedFact | None:
    entry = slot_table()[span.label]
    value = _value(text, span)
    if not value:
        return None
    subject = _subject(text, span, spans, me, antecedent)
    if subject is None:
        return None
    if subject == me:
        value = third_person(value)  # "sell my car": Jon plans to sell their car
    relation = ""
    if span.label in RELATION_LABELS:
        word = _nearest(span, [s for s in spans if s.label == "REL"])
        if word is not None and _anothers(text, word, span, spans):
            return None
        if word is not None:
            relation = _relation(text, word)
        elif not _says_relation(text):
            relation = kin_before or _RELATION_UNSAID.get(span.label, "")
        if not relation:
            return None
        kinds, single = relation_words()
        slot = relation if relation in single else f"{relation}:{value.lower()}"
    elif former:
        slot = entry["former"]
    elif "keyed" in entry:
        old = _key(_value(text, replaces)) if replaces is not None else None
        slot = f"{entry['keyed']}:{old or _key(value) or value.lower()}"
    else:
        slot = entry["slot"]
    if span.label in value_types()["verb_phrases"]:
        value = _with_verb(value)
    says = (
        "say_turning" if "say_turning" in entry and _TURNING.search(text[: span.start]) else "say"
    )
    return ExtractedFact(
        # the wording says the prefix itself: "dislikes {value}"
        text=_say(_wording(entry, says, value), subject, value, relation, former),
        category=FactCategory(entry["category"]),
        subject=subject,
        slot=slot,
        value=entry.get("value_prefix", "") + value,
        confidence=USER_WORD,
    )


def _wording(entry: dict[str, str], key: str, value: str) -> str:
    """The label's wording `key` ("say", "ended") for `value`; a plan in its -ing form, kept
    because its sentence sets it ahead ("moving to Leeds" in June), has a wording of its
    own: "is moving to Leeds", not "plans to moving to Leeds"; so has a plan that is a
    thing to come ("a knee op on the 9th": "has a knee op on the 9th planned"), and so has
    one read from its date on ("14th January at the test centre": "has plans for ...")."""
    ahead = entry.get(f"{key}_ahead")
    if ahead and opens_with_gerund(value):
        return ahead
    dated = entry.get(f"{key}_dated")
    if dated and value[:1].isdigit():
        return dated  # "14th January at the test centre": plans for that day, no verb
    noun = entry.get(f"{key}_noun")
    return noun if noun and _DETERMINER.match(value) else entry[key]


def _with_verb(value: str) -> str:
    """A plan read as where someone goes ("to the pool", "home for the reunion", after
    "going") with its verb, "go": "plans to to the pool" said nothing. A plan read from
    the words after its verb ("booked in for a knee op": "in for a knee op") is the thing
    to come, "a knee op"."""
    first = value.split(maxsplit=1)[0].lower() if value.strip() else ""
    if first in value_types()["trip_openers"]:
        return f"go {value}"
    return _without_lead(value, value_types()["plan_leads"])


def _value(text: str, span: Span) -> str:
    value = _DETERMINER.sub("", text[span.start : span.end].strip(_EDGE)).strip(_EDGE)
    value = _undangled(value)
    if span.label in _PLACES:
        value = _unled(value)
    if span.label == "age":
        value = _as_number(value + _units_after(text, span, value))
    elif span.label in value_types()["dates"]:
        value = _with_day(text, span, value)
    elif span.label not in ("PER", "REL", *RELATION_LABELS):
        value += _rest_of_name(text, span, value)
    elif span.label != "REL":
        value = _untitled(value)
    return value


def _untitled(name: str) -> str:
    """A person's `name` without the title before it ("Mrs. Ngozi Obi": Ngozi Obi), which
    names no one: the same person said without it is the same subject."""
    first, _, rest = name.partition(" ")
    return rest.strip() if rest.strip() and first.lower().rstrip(".") in titles() else name


def _undangled(value: str) -> str:
    """`value` without the words at its end that lead on to more ("up to Toowoomba in",
    "the kids and"): the tagger stopped before what they led to."""
    words = value.split()
    while len(words) > 1 and words[-1].lower() in value_types()["dangling_words"]:
        words.pop()
    return " ".join(words).rstrip(_EDGE) if len(words) < len(value.split()) else value


_PLACES = frozenset(("home", "hometown", "employer"))
"""Labels of a place or a firm, which no preposition opens."""


def _unled(value: str) -> str:
    """`value` without a preposition before it ("in Loveland", "for Hyundai"): the tagger
    took the word that leads to the place in with it."""
    return _without_lead(value, value_types()["place_leads"])


def _without_lead(value: str, leads: Iterable[str]) -> str:
    """`value` without the first of `leads` that opens it, unless nothing would be left."""
    lead = next((w for w in leads if value.lower().startswith(w + " ")), "")
    return value[len(lead) :].strip() or value


# A word of a name: capitalised ("Science"), or a model's letters and digits ("M2").
_NAME_WORDS_AFTER = re.compile(r"(?:[ \t]+(?:[A-Z][\w'’-]*|[A-Za-z]+\d[\w-]*))+")


@cache
def _not_name_words() -> frozenset[str]:
    types = value_types()
    return frozenset(types["months"]) | frozenset(types["weekdays"])


def _rest_of_name(text: str, span: Span, value: str) -> str:
    """The words of a name the span cut off after its value ("Science" of "Computer
    Science", "Air M2" of "MacBook Air M2", "of England" of "Church of England"): only
    where the value ends in a word of the name itself, never a month, a weekday or "I"
    ("at Google Monday", "Leeds I think")."""
    words = value.split()
    if not any(c.islower() for c in text):
        return ""  # in capitals, every word looks like a name's
    if not words or not (words[-1][:1].isupper() or _NAME_WORDS_AFTER.fullmatch(" " + words[-1])):
        return ""
    joiner, start = _joiner_after(text, span, words[-1])
    found = _NAME_WORDS_AFTER.match(text, start)
    if found is None:
        return ""
    kept = ""
    for word in found.group().split():
        if word == "I" or word.lower() in _not_name_words():
            break
        kept += " " + word
    return f" {joiner}{kept}" if joiner and kept else kept


def _joiner_after(text: str, span: Span, last: str) -> tuple[str, int]:
    """A name's lowercase joining words ("of", "do") right after its word `last` in the
    span (where the span ended on them, they were dropped as leading on) or after the
    span, and where the name's next words would start; ("", span.end) if none."""
    at = text.rfind(last, span.start, span.end)
    end = at + len(last) if at >= 0 else span.end
    found = _joiners().match(text, end)
    if found is None or found.end() < span.end:
        return "", span.end
    return found.group("joiner"), found.end()


@cache
def _joiners() -> re.Pattern[str]:
    words = sorted(value_types()["name_joiners"], key=len, reverse=True)
    alternatives = "|".join(re.escape(w).replace(r"\ ", r"[ \t]+") for w in words)
    return re.compile(rf"[ \t]+(?P<joiner>{alternatives})(?=[ \t]+[A-Z])")


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


def _subject(
    text: str, span: Span, spans: list[Span], me: str, antecedent: str | None = None
) -> str | None:
    """Whose the value `span` is: the writer's, the person named nearest, the relative
    its relation word names, or, in a sentence that names nobody and says "he" or "she",
    `antecedent`."""
    if span.label in RELATION_LABELS or span.subject == "self":
        return me
    names = [s for s in spans if s.label == "PER" or s.label in RELATION_LABELS]
    if span.subject == "per" and (named := _nearest(span, names, text)) is not None:
        return _whose(_value(text, named))
    word = _nearest(span, [s for s in spans if s.label == "REL"], text)
    if word is None and not names and antecedent not in (None, me):
        # the one the heads say the value is said before: a relative ("How old is your
        # son?" "7 in march"), or a person by name ("kayla's a nurse. nights mostly")
        relative = antecedent.startswith(f"{me}'s ")
        if span.subject == ("rel" if relative else "per"):
            return antecedent
    if word is None:
        meant = not names and antecedent and _THIRD_PERSON.search(text)
        return antecedent if meant else None
    named = _named(text, word, [s for s in spans if s.label in RELATION_LABELS])
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


def _says_relation(text: str) -> bool:
    """Whether any word of `text` is a relation word ("dog", "neighbour's", "hubby")."""
    kinds, _ = relation_words()
    return any(_whose(word) in kinds for word in words_of(text))


def _anothers(text: str, word: Span, named: Span, spans: list[Span]) -> bool:
    """Whether the one `named` is another's relative or pet, not the writer's `word`: the
    relation word owns the relative named after it ("my sister's cat Tigger", "my brother's
    wife Anna"), or an owner said just before it does ("Dave's wife Linda", "my friend's
    son Leo"). An 's before no relation word is "is" ("my son's called Leo") or names the
    relative itself ("my wife's name is Ines")."""
    kinds, _ = relation_words()
    said = text[word.start : word.end].strip(_EDGE)
    if word.end <= named.start and _POSSESSIVE.search(said):
        between = words_of(text[word.end : named.start])
        if any(w.lower() in kinds for w in between):
            return True
    before = text[: word.start].split()
    if not before or not _POSSESSIVE.search(before[-1].strip(_EDGE)):
        return False
    owner = _whose(before[-1].strip(_EDGE))
    starts = len(text[: word.start].rstrip()) - len(before[-1])
    return owner in kinds or any(s.label == "PER" and s.start == starts for s in spans)


def _relation(text: str, word: Span) -> str:
    said = _whose(text[word.start : word.end].strip(_EDGE))
    kinds, _ = relation_words()
    if said not in kinds and said.endswith("s") and said[:-1] in kinds:
        said = said[:-1]  # "my dads name", "my sisters flat": the apostrophe left out
    return kinds.get(said, said)


def _nearest(span: Span, candidates: list[Span], text: str = "") -> Span | None:
    """The candidate closest to `span`, one in its own clause first ("kojo he's 9 and adjoa
    she's 6": the 9 is Kojo's, though Adjoa is nearer), one before it winning a tie."""
    if not candidates:
        return None

    def apart(c: Span) -> bool:
        between = text[c.end : span.start] if c.start < span.start else text[span.end : c.start]
        return bool(_CLAUSE_JOIN.search(between))

    return min(
        candidates, key=lambda c: (apart(c), abs(c.start - span.start), c.start > span.start)
    )


_CLAUSE_JOIN = re.compile(r"[;.!?]|\s(?:and|n|but|while|whereas|&)\s", re.IGNORECASE)
"""What joins two clauses: a value and a name with one between them speak of different
things."""


def _say(template: str, subject: str, value: str, relation: str, former: bool) -> str:
    who = "the user" if subject == "user" else _title(subject)
    who_s = f"{who}'s"
    a_value = value if _counted(value) else f"{indefinite_article(value)} {value}"
    said = template.format(who=who, who_s=who_s, value=value, a_value=a_value, relation=relation)
    said = said[0].upper() + said[1:]  # "the user" opens most sentences, not all of them
    return f"{said[:-1]} (formerly)." if former else said


def _counted(value: str) -> bool:
    """Whether `value` opens with its own article or count ("the farm", "some 12 acres",
    "two kayaks", "12 acres"), so that no "a" goes before it."""
    return bool(_counted_pattern().match(value))


@cache
def _counted_pattern() -> re.Pattern[str]:
    words = sorted(["a", "an", "the", *value_types()["quantifiers"]], key=len, reverse=True)
    alternatives = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in words)
    return re.compile(rf"(?:{alternatives}|\d{{1,3}}(?![\d:/.-]))\s", re.I)


def _title(subject: str) -> str:
    return "the " + subject if subject.startswith("user's") else subject[:1].upper() + subject[1:]
