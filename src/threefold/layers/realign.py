"""Corrections by shape: a value said again just after, spelled, numbered or dated otherwise.

"*Boateng" after "Adjoa Boatemg", "24 abeg" after "Ada is 23", "wait no 14 march 💀" after
a birthday on the 13th: the turn names no slot and often no word the readers know, yet it
plainly edits a value just stated. The words do not say which fact; the shape of the value
does. A turn realigns a held value when

- a capitalised or starred word of it is a held name misspelt (most letters in order
  shared, same first letter: "Pkia" for "Pika", "KAYLEIGH" for "kaylee"), and the turn
  is starred or speaks of spelling ("autocorrect", "typo"), or, for a name of the last
  turns, is short; or
- it gives a date where a fact of the last turns holds one (the day, the month or both
  moved), or a number of the same size where one holds a number ("she is 11" for 9),
  and the turn says it corrects, or is the value alone and answers no question; or it
  denies the held number ("a 2014 not 2016").

A realignment is one edit per turn, of the newest fact that fits, made as a correction
(repairs.replace_in), so the old value is retracted and kept in the chain. The words that
mark a correction are data (layers/data/corrections.json).

The same words decide which claims a repair that names no old value may edit
(claims_open_to_repair): after an assistant's question of its own ("Are you in the London
office?"), a bare "No, Dublin" is its answer, not a fix of what the user said before.
"""

import json
import re
from collections.abc import Sequence
from difflib import SequenceMatcher
from functools import cache
from importlib.resources import files

from threefold import dates
from threefold.domain import Fact, FactCategory
from threefold.layers.repairs import replace_in
from threefold.models.base import ExtractedFact
from threefold.models.heuristic.text import STOPWORDS, sentences

SPELLING = 0.66
"""How alike a word and a held name must be (difflib's ratio) to be that name misspelt:
"jarden" and "jordan" 0.67, "Boatemg" and "Boateng" 0.86. Under five letters a ratio says
little ("Mark" and "Mary" 0.75), so there one letter at most may differ."""
SHORT = 8
"""Words of a turn that is short enough to be a correction on its own ("JORDAN omg
autocorrect hates him")."""
RECENT_TURNS = 4
"""A number or a date, or a name respelt by a turn that is merely short, corrects a fact
stated this many turns back at most: further back, "33" is more likely a new number than
a fix, and a short line naming something like a held name a new statement."""
_WORD = re.compile(r"[^\W\d_][\w'-]*\*?|\*[^\W\d_][\w'-]*")
_NUMBER = re.compile(r"(?<![\w.,:/£$€-])\d{1,4}(?![\w.,:/%])")


@cache
def _marks() -> dict[str, frozenset[str]]:
    raw = json.loads(files("threefold.layers.data").joinpath("corrections.json").read_text())
    return {key: frozenset(words) for key, words in raw.items() if not key.startswith("_")}


def _words_of(text: str) -> list[str]:
    return re.findall(r"[a-z']+", text.lower())


def marks_correction(text: str) -> bool:
    """Whether `text` says it corrects something: a word like "typo", "sorry", "actually"
    anywhere, a denial as its first word ("wait no 14 march"), or a word starred."""
    words = _words_of(text)
    opens = bool(words) and words[0] in _marks()["openers"]
    return opens or says_correction(text) or "*" in text


def says_correction(text: str) -> bool:
    """Whether `text` holds a word that says it corrects ("sorry", "actually", "typo")."""
    return bool(set(_words_of(text)) & _marks()["words"])


def claims_open_to_repair(claims: Sequence[Fact], asked: str, text: str) -> list[Fact]:
    """Those of `claims` (what the answered turn stated) that a repair naming no old value
    may edit. When the assistant's message `asked` puts a question of its own, one naming
    something no claim says ("Are you in the London office?" after "I work at Google"), a
    bare "No, Dublin" answers that question and is no fix of the employer: only a claim
    the message names again ("Got it, 34! Anything else?") stays open, unless the turn
    (`text`) says it corrects ("sorry, Dublin", "Microsoft actually")."""
    if not claims or says_correction(text):
        return list(claims)
    said = set(_TOKEN.findall(asked.lower()))
    named = [c for c in claims if _content(c.value) & said]
    claimed = {w for c in claims for w in _TOKEN.findall(c.text.lower())}
    questions = [s for s in sentences(asked) if s.rstrip().endswith("?")]
    own = any(_content(q) - claimed - _marks()["asks_nothing"] for q in questions)
    return named if own else list(claims)


_TOKEN = re.compile(r"[a-z0-9']+")


def _content(text: str) -> set[str]:
    """The words of `text` that name something: numbers, and words of three letters or
    more that are no stop word."""
    found = _TOKEN.findall(text.lower())
    return {w for w in found if w.isdigit() or (len(w) > 2 and w not in STOPWORDS)}


def marks_spelling(text: str) -> bool:
    """Whether `text` may be about how a name just said is spelt: short, starred, or
    saying so."""
    return len(text.split()) <= SHORT or speaks_of_spelling(text)


def speaks_of_spelling(text: str) -> bool:
    """Whether `text` plainly respells a name, however long ago it was said: starred, or
    saying so ("autocorrect", "typo"). Being short is not enough there: in a group chat
    "Oskar trusts only Galdlin Cycles with her bike" is a statement, and a name like it
    held thousands of turns before ("a second-hand Galdvin hatchback") is no typo of it."""
    return "*" in text or bool(set(_words_of(text)) & _marks()["spelling"])


def realigned(
    text: str,
    recent: Sequence[Fact],
    held: Sequence[Fact],
    *,
    answering: bool = False,
    own: Sequence[Fact] | None = None,
) -> ExtractedFact | None:
    """The correction `text` makes of a value just stated (`recent`: facts of the last
    turns, newest first), or of a name held longer (`held`, newest first: respelt only
    where the turn speaks of spelling); None if it makes none. `answering`: the turn
    answers a question, so a value alone, or after a "no", is the answer ("When is your
    mum's birthday?" "17 april"), not a fix. `own`: those of `recent` its writer stated
    (None: all), the only names a turn that is merely short respells: people fix their
    own typos, and in a group chat another's short line naming a word like one just said
    ("Kwame says no novel beats The Dornov Letters" after "a Dormorv hatchback") is news."""
    words = _WORD.findall(text)
    if speaks_of_spelling(text):
        spelt = [*recent, *held]
    else:
        spelt = list(recent if own is None else own) if marks_spelling(text) else []
    for fact in spelt:
        edit = _respelt(fact, words, text)
        if edit is not None:
            return edit
    # A value that denies the held one ("a 2014 not 2016") fixes it whatever the turn's
    # tone; one said otherwise must come marked, or alone and not as an answer.
    said_as_fix = marks_correction(text) or _only_value(text)
    said_as_fix = said_as_fix and (says_correction(text) or not answering)
    for fact in recent:
        edit = (_redated(fact, text) if said_as_fix else None) or _renumbered(
            fact, text, said_as_fix
        )
        if edit is not None:
            return edit
    return None


def _only_value(text: str) -> bool:
    """A turn whose first sentence is a value and little else: "24", "June 19th!"."""
    first = re.split(r"[.!?\n]", text.strip(), maxsplit=1)[0]
    return len(first.split()) <= 3


def _respelt(fact: Fact, words: list[str], text: str) -> ExtractedFact | None:
    """A name of `fact` spelt again otherwise: the held word is written as a name in the
    fact's text, and the new one is capitalised or starred."""
    names = re.findall(r"(?<![\w'])[A-Z][^\W\d_][\w'-]*", fact.text)
    for held in (n for n in names if len(n) >= 4 and n.lower() in fact.value.lower()):
        if re.search(rf"(?<!\w){re.escape(held)}(?!\w)", text, re.IGNORECASE):
            continue  # said again as it was: no respelling of it
        for word in words:
            new = word.strip("*")
            if _misspelt(held, new) and (new[:1].isupper() or word != new):
                return replace_in(fact, held, _cased(new, held))
    return None


def _misspelt(held: str, new: str) -> bool:
    """Whether `new` is `held` spelt otherwise: the same first letter, near in length,
    most letters shared in order (or, in a short word, one letter off or two swapped)."""
    a, b = held.lower(), new.lower()
    if a == b or a[0] != b[0] or len(b) < 4 or abs(len(a) - len(b)) > 2:
        return False
    if min(len(a), len(b)) < 5:
        differ = sum(x != y for x, y in zip(a, b, strict=False)) + abs(len(a) - len(b))
        return differ <= 1 or sorted(a) == sorted(b)
    return SequenceMatcher(None, a, b).ratio() >= SPELLING


def _cased(new: str, held: str) -> str:
    """The new spelling in the held word's case: "KAYLEIGH" is "Kayleigh"."""
    return new.capitalize() if new.isupper() and not held.isupper() else new


def _redated(fact: Fact, text: str) -> ExtractedFact | None:
    """The day `fact` holds, moved to the one `text` gives: "wait no 14 march" for March
    13, "the 24th" in the same month, "FEBRUARY 9th" for March 9."""
    if fact.category is not FactCategory.IMPORTANT_DATE:
        return None
    held = dates.DAY_IN_TEXT_RE.search(fact.value)
    said = dates.DAY_IN_TEXT_RE.search(text)
    if held is None or said is None:
        return None
    old_day, old_month = dates.day_and_month(held)
    new_day, new_month = dates.day_and_month(said)
    day, month = new_day or old_day, new_month or old_month
    if day is None or month is None or (int(day), month) == (int(old_day or 0), old_month):
        return None
    return replace_in(fact, held[0], f"{month} {int(day)}")


def _renumbered(fact: Fact, text: str, said_as_fix: bool) -> ExtractedFact | None:
    """A number of the same size in place of the one `fact` holds: where the turn denies
    the held one ("a 2014 not 2016"), or, `said_as_fix`, where the held value is the
    number alone (an age) and the turn names whom it is of, or is the number alone."""
    if fact.category is FactCategory.IMPORTANT_DATE:
        return None  # days are _redated's
    held = _NUMBER.findall(fact.value)
    said = [n for n in _values(text) if n not in held]
    if len(held) != 1 or len(said) != 1 or len(said[0]) != len(held[0]):
        return None
    denied = re.search(rf"\b(?:not|no)\s+(?:the\s+)?{held[0]}\b", text, re.IGNORECASE)
    if re.search(rf"\b{held[0]}\b", text) and not denied:
        return None  # the held number said again: a second number, not a fix
    alone = fact.value.strip() == held[0]
    pointed = alone and (_only_value(text) or _names(text, fact.subject))
    if not (denied or (said_as_fix and pointed)):
        return None
    return replace_in(fact, held[0], said[0])


def _values(text: str) -> list[str]:
    """The numbers of `text` that are not days of a date or measures ("40 minutes")."""
    days = [m.span() for m in dates.DAY_IN_TEXT_RE.finditer(text)]
    units = _marks()["units"]
    found = []
    for number in _NUMBER.finditer(text):
        after = _words_of(text[number.end() : number.end() + 12])[:1]
        inside = any(start <= number.start() < end for start, end in days)
        if not inside and not (after and after[0] in units):
            found.append(number[0])
    return found


def _names(text: str, subject: str) -> bool:
    """Whether `text` names `subject`, or points at someone as a correction of a person
    does ("she's 28", "you're 35", "I'm 24")."""
    words = set(_words_of(text))
    owner = _OWNED_NUMBER.search(text)
    if owner and owner[1].lower() not in {subject.split()[0], *_SELF, *_POINTERS}:
        return False  # "appa's 63": the number is someone else's
    if subject == "user":
        return bool(words & _SELF)
    return subject.split()[0] in words or bool(words & _POINTERS)


_OWNED_NUMBER = re.compile(r"\b([^\W\d_]+)['’]s\s+\d")


_SELF = frozenset({"i'm", "im", "i"})
_POINTERS = frozenset({"she's", "shes", "she", "he's", "hes", "he", "you're", "youre", "ur"})
