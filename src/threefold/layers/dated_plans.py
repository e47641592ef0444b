"""A plan keeps its date, and a moved date updates the plan it speaks of.

A plan or an appointment read from a sentence that also names a day, a month or a week of
a month ahead of the turn keeps it: "running the Berlin marathon on 27 September" is
stored as "The user is running the Berlin marathon on 27 September 2026." The date is part
of the value, not of the slot, so the plan said again with another date supersedes it;
said again with no date, it keeps the date it holds.

A later message that says a date changed ("they moved the marathon to 4 October", "Knee
news: they've put it back to February", "NZ trip's off till January") with a new date
ahead speaks of a plan the stream holds: the one it shares a word with, else, naming
nothing ("they've moved it to Friday"), the dated one of the turn it answers or the most
recent dated one. That plan is written again with the new date (one held with no date
takes it), and supersedes the old in its slot, which keeps it in its history.
Which facts are plans, and the words that say a date moved: data/dated_plans.json.
"""

import calendar
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import cache
from importlib import resources

from threefold import dates
from threefold.domain import Fact, FactCategory
from threefold.models.base import ExtractedFact
from threefold.models.heuristic.text import STOPWORDS, sentences, words

_WORD_RE = re.compile(r"[^\W_][\w'-]*")
_MONTHS = [name.lower() for name in calendar.month_name[1:]]
_ISO_NOTE = r"(?:\s*\(\d{4}-\d{2}-\d{2}(?:\s*[-–]\s*\d{4}-\d{2}-\d{2})?\))?"
_LEAD = r"(?:(?:on|in|for|till|until|to|by|at)\s+)?(?:the\s+)?"
_WRITTEN_RE = re.compile(
    r"\s+(?:on\s+\d{1,2}\s+[A-Z][a-z]+\s+\d{4}|in\s+(?:the\s+\w+\s+week\s+of\s+)?"
    r"[A-Z][a-z]+\s+\d{4})$"
)
"""A date as :func:`with_dates` writes it at a value's end."""


@cache
def _data() -> dict[str, list[str]]:
    raw = resources.files(__package__).joinpath("data/dated_plans.json").read_text()
    return {k: v for k, v in json.loads(raw).items() if isinstance(v, list)}


@cache
def _moves() -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{said})" for said in _data()["moves"]))


@cache
def _month_re() -> re.Pattern[str]:
    """A month said alone, or a week of it ("first week of July"); "may" and "march" only
    capitalised or after a word that leads to a date ("till march")."""
    weeks = "|".join(_data()["weeks"])
    plain = "|".join(m for m in _MONTHS if m not in ("may", "march"))
    after = "|".join(
        f"(?<=\\b{lead} )" for lead in ("in", "to", "of", "for", "till", "until", "from")
    )
    return re.compile(
        rf"(?:\b(?i:(?P<week>{weeks}))\s+(?i:week)\s+(?i:of|in)\s+)?"
        rf"(?P<month>\b(?i:{plain})\b|\b(?:May|March|MAY|MARCH)\b|(?:{after})(?i:may|march)\b)"
    )


def _months(text: str) -> list[tuple[int, int, re.Match[str]]]:
    """Each month `text` names (_month_re), from its week's first word or the month."""
    out = []
    for found in _month_re().finditer(text):
        if found["month"] is None:
            continue
        start = found.start("week") if found["week"] else found.start("month")
        out.append((start, found.end("month"), found))
    return out


@dataclass(frozen=True)
class When:
    """A date ahead named at text[start:end], as a fact writes it: "on 27 September 2026",
    "in February 2027", "in the last week of August 2026"."""

    start: int
    end: int
    said: str
    first: date


def whens(text: str, at: datetime) -> list[When]:
    """The days, months and weeks of a month `text` names ahead of `at`, in order; a day
    or month its clause tells of as past is left out."""
    today = dates.base_day(at)
    out = [
        When(h.start, h.end, f"on {dates.spoken(h.day)}", h.day)
        for h in dates.find_dates(text, at)
        if h.day >= today
    ]
    for start, end, found in _months(text):
        if any(w.start <= start < w.end or start <= w.start < end for w in out):
            continue
        if dates.tells_of_the_past(text, start, end):
            continue
        month = _MONTHS.index(found["month"].lower()) + 1
        year = today.year if month >= today.month else today.year + 1
        week = f"the {found['week'].lower()} week of " if found["week"] else ""
        said = f"in {week}{calendar.month_name[month]} {year}"
        out.append(When(start, end, said, date(year, month, 1)))
    out += [w for w in _periods(text, at) if not any(o.start <= w.start < o.end for o in out)]
    return sorted(out, key=lambda w: w.start)


def _periods(text: str, at: datetime) -> list[When]:
    """ "next month", "this year" (dates.find_periods), said as the month or year they are;
    one behind ("last month", "two years ago") is no plan's date."""
    out = []
    for start, end, label in dates.find_periods(text, at):
        if text[start:end].lower().split()[0] not in ("next", "this"):
            continue
        month, _, year = label.rpartition(" ")
        number = _MONTHS.index(month.lower()) + 1 if month else 1
        out.append(When(start, end, f"in {label}", date(int(year), number, 1)))
    return out


def is_plan(fact: ExtractedFact | Fact) -> bool:
    """Whether `fact` is a plan or an appointment (data/dated_plans.json), and not one said
    to be over."""
    if fact.value.lower().startswith("not ") or "no longer" in fact.text.lower():
        return False
    kind = fact.slot.split(":", 1)[0]
    return fact.category.value in _data()["categories"] or kind in _data()["slot_kinds"]


def is_dated(text: str) -> bool:
    """Whether `text` names a day or a month."""
    return bool(dates.DATE_RE.search(text) or _months(text))


def with_dates(facts: Sequence[ExtractedFact], text: str, at: datetime) -> list[ExtractedFact]:
    """`facts` read from `text`, each plan with no date given the first date ahead its own
    sentence names that no other plan of the sentence stands nearer to, unless another
    fact of the turn holds that date as its value."""
    taken = [f.value.lower() for f in facts if not is_plan(f) and is_dated(f.value)]
    plans = [f for f in facts if is_plan(f)]
    return [_dated(f, text, at, taken, plans) if is_plan(f) else f for f in facts]


def _dated(
    fact: ExtractedFact,
    text: str,
    at: datetime,
    taken: list[str],
    plans: list[ExtractedFact],
) -> ExtractedFact:
    if is_dated(fact.text) or is_dated(fact.value):
        return fact
    sentence = _sentence_of(fact, text)
    named = whens(sentence, at)
    mine = _places(fact, sentence, named)
    if not mine:
        return fact
    # a plan known by other words ("the dentist" beside "the marathon") is another plan
    rivals = [
        place
        for p in plans
        if not _keys(p.value) & _keys(fact.value)
        for place in _places(p, sentence, named)
    ]
    free = [
        w
        for w in named
        if not _taken(sentence[w.start : w.end], taken)
        and _distance(rivals, w) >= _distance(mine, w)
    ]
    if not free:
        return fact
    value = _cut_date(fact.value, sentence, free[0])
    said = free[0].said
    text = fact.text.rstrip(" .")
    if value != fact.value and text.endswith(fact.value[len(value) :]):
        text = text[: len(text) - len(fact.value) + len(value)].rstrip()
    update = {"value": f"{value} {said}", "text": f"{text} {said}.", "slot": fact.slot}
    kind, _, key = fact.slot.rpartition(":")
    if kind and key in words(fact.value[len(value) :]) and key not in words(value):
        # keyed by a word of the date cut off ("plan:on" of "...marathon on 4"): the
        # value's last word that is no number keys it, as the reader keys a value
        kept = [w for w in words(value) if not any(c.isdigit() for c in w)]
        update["slot"] = f"{kind}:{kept[-1]}" if kept else fact.slot
    return fact.model_copy(update=update)


def _taken(phrase: str, taken: list[str]) -> bool:
    said = phrase.lower()
    return any(said in value or value in said for value in taken)


def _places(fact: ExtractedFact, sentence: str, named: list[When]) -> list[int]:
    """Where in `sentence` the words of the fact's value are said, outside its dates (a
    reading of a date itself as a plan, "plans to 14th", is said nowhere)."""
    own = _keys(fact.value)
    return [
        w.start()
        for w in _WORD_RE.finditer(sentence)
        if _stem(w.group().lower()) in own and not any(d.start <= w.start() < d.end for d in named)
    ]


def _distance(places: list[int], when: When) -> int:
    """How far the nearest of `places` is from the date `when`; none: endlessly far."""
    return min((min(abs(p - when.start), abs(p - when.end)) for p in places), default=1 << 30)


def _cut_date(value: str, sentence: str, when: When) -> str:
    """`value` without the words of the date it ends in part of ("running the marathon on
    4", of "on 4 October"): they are said again whole."""
    lead = re.search(rf"{_LEAD}$", sentence[: when.start], re.I)
    phrase = words(sentence[lead.start() if lead else when.start : when.end])
    said = value.split()
    for size in range(min(len(phrase), len(said)), 0, -1):
        if [w.lower() for w in said[-size:]] == phrase[:size]:
            return " ".join(said[:-size])
    return value


def _sentence_of(fact: ExtractedFact, text: str) -> str:
    """The sentence of `text` that shares the most words with the fact's value."""
    own = _keys(fact.value)
    said = sentences(text) or [text]
    best = max(said, key=lambda s: len(own & _keys(s)))
    return best if own & _keys(best) else ""


def kept_dates(facts: Sequence[ExtractedFact], held: Sequence[Fact]) -> list[ExtractedFact]:
    """`facts`, a plan said again with no date taking the date its slot holds it with:
    "I'm running the Berlin marathon" after it was given a day loses no day."""
    return [_kept(f, held) if is_plan(f) and not is_dated(f.value) else f for f in facts]


def _kept(fact: ExtractedFact, held: Sequence[Fact]) -> ExtractedFact:
    for old in held:
        same = (old.subject, old.slot) == (fact.subject, fact.slot)
        base = _WRITTEN_RE.sub("", old.value)
        if same and base != old.value and base.lower() == fact.value.lower():
            return fact.model_copy(update={"value": old.value, "text": old.text})
    return fact


def day_out_of_place(fact: ExtractedFact) -> bool:
    """Whether `fact` holds only a day in a slot no day belongs in: a moved date with no
    dated plan before it ("they've moved it to next Tuesday") read as a repair of the
    home just said ("The user lives in next Tuesday")."""
    if fact.category.value in _data()["day_categories"] or is_plan(fact):
        return False
    value = dates.LEAD_RE.sub("", fact.value.strip(" .!?"))
    return bool(dates.DATE_RE.fullmatch(value) or _month_re().fullmatch(value))


def says_moved(text: str) -> bool:
    return bool(_moves().search(text.lower()))


def moved(
    text: str,
    at: datetime,
    held: Sequence[Fact],
    answered: Sequence[Fact],
    said: Sequence[ExtractedFact],
    me: str,
) -> list[ExtractedFact]:
    """The held plans whose date `text` says moved, written again with the new date (a
    plan held with no date, named, takes it). `held`: the stream's active facts, newest
    first; `answered`: those of the turn it
    answers; `said`: what the turn states itself (a slot it states is left to it);
    `me`: the writer, whose own plan wins a tie."""
    plans = [f for f in held if is_plan(f)]
    out: list[ExtractedFact] = []
    stated = {(f.subject, f.slot) for f in said}
    for sentence in sentences(text) or [text]:
        new = _new_date(sentence, at)
        if new is None:
            continue
        for target in _spoken_of(sentence, plans, answered, me):
            if (target.subject, target.slot) in stated:
                continue
            fact = _redated(target, new)
            if fact is not None:
                stated.add((target.subject, target.slot))
                out.append(fact)
    return out


def _new_date(sentence: str, at: datetime) -> When | None:
    """The date ahead a sentence says something moved to: the first after its word of a
    move, save one said as the old ("from the 20th"); None without one."""
    move = _moves().search(sentence.lower())
    if move is None:
        return None
    old = re.compile(rf"\b(?:{'|'.join(_data()['old_leads'])})\s+(?:the\s+)?$", re.I)
    return next(
        (
            w
            for w in whens(sentence, at)
            if w.start >= move.start() and not old.search(sentence[: w.start])
        ),
        None,
    )


def _spoken_of(sentence: str, plans: list[Fact], answered: Sequence[Fact], me: str) -> list[Fact]:
    """The plans a sentence speaks of: the one sharing the most words with it, the
    writer's own and then the newest winning a tie, with any other as near that holds the
    same date (one plan read twice); naming nothing, the answered turn's dated plan, else
    the newest dated plan."""
    said = _keys(_undated(sentence)) - _filler()
    scored = [(len(said & _keys(f.text) | _initials(sentence, f.text)), f) for f in plans]
    best = max((score for score, _ in scored), default=0)
    if not best:
        if said:
            return []  # it names something, and no plan held is it
        dated = [f for f in plans if is_dated(f.text)]
        ids = {f.id for f in dated}
        chosen = next((f for f in answered if f.id in ids), dated[0] if dated else None)
        return [chosen] if chosen else []
    tied = [f for score, f in scored if score == best]
    chosen = next((f for f in tied if f.subject == me), tied[0])
    day = _held_date(chosen)
    same = [f for f in tied if f is not chosen and f.subject == chosen.subject]
    return [chosen, *(f for f in same if _held_date(f) == day)]


def _held_date(fact: Fact) -> date | None:
    """The first date a held fact's text names, as of when it was said."""
    found = whens(fact.text, fact.source.at or fact.recorded_at)
    return found[0].first if found else None


def _redated(fact: Fact, new: When) -> ExtractedFact | None:
    """`fact` with its date replaced by `new`, or given it if it had none; None if it
    holds that date already."""
    text = _replace_date(fact.text, new.said) or f"{fact.text.rstrip(' .')} {new.said}."
    if text == fact.text:
        return None
    value = _replace_date(fact.value, new.said) or f"{fact.value} {new.said}"
    return ExtractedFact(
        text=text,
        category=FactCategory(fact.category),
        subject=fact.subject,
        slot=fact.slot,
        value=value,
        confidence=fact.confidence,
    )


def _replace_date(text: str, said: str) -> str | None:
    """`text` with its first date (and the word leading to it, and its ISO note) said as
    `said`; a text that is only a date becomes the date without its leading word."""
    spans = [(m.start(), m.end()) for m in dates.DATE_RE.finditer(text)]
    spans += [(start, end) for start, end, _ in _months(text)]
    if not spans:
        return None
    start, end = min(spans, key=lambda span: (span[0], -span[1]))
    lead = re.search(rf"{_LEAD}$", text[:start], re.I)
    begin = lead.start() if lead and lead.group() else start
    annotation = re.match(rf"(?:,?\s+\d{{4}})?{_ISO_NOTE}", text[end:])
    stop = end + (annotation.end() if annotation else 0)
    if not text[:begin].strip():
        return said.split(" ", 1)[1] + text[stop:]
    return f"{text[:begin].rstrip()} {said}{text[stop:]}"


@cache
def _filler() -> frozenset[str]:
    return frozenset(_stem(w) for w in _data()["filler"])


def _undated(sentence: str) -> str:
    """`sentence` without its dates, so that a month or a weekday names no plan."""
    out = dates.DATE_RE.sub(" ", sentence)
    for start, end, _ in reversed(_months(out)):
        out = out[:start] + " " + out[end:]
    return out


def _keys(text: str) -> frozenset[str]:
    """The words of `text` a plan may be known by, crudely stemmed ("moving" ~ "move")."""
    return frozenset(_stem(w) for w in words(text) if w not in STOPWORDS and len(w) > 1)


def _stem(word: str) -> str:
    word = word.removesuffix("'s").removesuffix("’s")
    for suffix in ("ing", "ed", "es", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _initials(sentence: str, text: str) -> frozenset[str]:
    """A short name in capitals that spells a held fact's capitalised words: "NZ" of "New
    Zealand"."""
    short = {w for w in re.findall(r"\b[A-Z]{2,4}\b", sentence)}
    spelt = {"".join(w[0] for w in run.split()) for run in re.findall(r"(?:[A-Z][a-z]+\s?)+", text)}
    return frozenset(w.lower() for w in short & {s.strip() for s in spelt})
