"""Swaps: "X, not Y" said anywhere in a message, where Y is a value the memory holds.

"ha it's a Superb not an Octavia, the company swapped it", "my GP checked and it's
amoxicillin not penicillin, is that a big difference?", "callum teaches geography not PE,
he'd kill me": a correction people make in passing, beside chatter or a question. The
repairs of `layers/repairs.py` read a sentence that is nothing but a repair; a swap is
found inside any clause, and is anchored on what is held rather than on the sentence's
shape: the words after "not" must be the value of an active fact of the stream, so "not
bad thanks" or "it's not Bristol's fault" swap nothing. The word before "not" must carry
meaning: "Ollie is not keen" denies, it does not replace.

The new value is read from the same clause: before "not" ("Wickes not Dunelm"), after the
frame that introduces it ("it's", "a", "from"), without the words the held fact already
says ("the Chester marathon, not York" for "the York marathon" is "Chester"); or after it
("not Didsbury, Chorlton"). A number replaces a number ("31 btw not 30"), a day a day.
Asking whether one said the held value and then saying another ("wait i said surly? it's a
kona") swaps it too. One event read by both readers is corrected in both facts.
"""

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from threefold import dates
from threefold.domain import Fact
from threefold.entities import could_be_person
from threefold.layers.repairs import MONTH_DAY_RE, Repair, day_of_month_moved, replace_in, word_re
from threefold.models.base import ExtractedFact
from threefold.models.heuristic.text import STOPWORDS

_I = re.IGNORECASE
_MAX_SENTENCE = 600
"""Longer is pasted text, not a message's own correction."""
_MAX_WORDS = 4
"""What replaces and what is replaced are a few words each."""
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+|\n+")
_CLAUSE_END_RE = re.compile(r"[,;:()!?.]|\s[—–-]+\s|\s*[—–]\s*|\bbut\b", _I)
_NOT_RE = re.compile(r"\bnot\b", _I)
_WORD_RE = re.compile(r"\d+(?:[.,]\d+)*(?:st|nd|rd|th)?|[\w'’]+(?:-[\w'’]+)*")
_NUMBER_RE = re.compile(r"\d+(?:[.,]\d+)*(?:st|nd|rd|th)?", _I)
_I_SAID_RE = re.compile(
    r"\b(?:did\s+)?i\s+(?:say|said|write|wrote|type|typed|put|tell\s+you)\s+(?P<old>[^?,.;]{1,40})\?+$",
    _I,
)
"""The speaker asking whether they said a value: "Did I say the 21st?"."""
_DIGIT_RE = re.compile(r"\d")
_ORDINAL_RE = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)\b", _I)
_JOINED_RE = re.compile(r"[\s,]+(?:and|but)$", _I)
"""What joins "X and not Y" is no part of X."""
_COPULAS = [["it's"], ["its"], ["it", "is"], ["it", "was"], ["that's"], ["thats"], ["that", "is"]]
"""A clause before "not" that is only these says the value after: "it's not Tuam, it's
Athenry"."""
_OTHERS = frozenset({"he", "she", "they", "him", "her", "hes", "shes", "he's", "she's"})
"""Words that put a clause about someone other than the speaker."""


@dataclass(frozen=True)
class Swap:
    """A value said in place of another in one clause: `new` is every candidate word
    (trimmed to fit the held value when applied), `old` the words after "not"."""

    new: tuple[str, ...]
    old: tuple[str, ...]
    said: str
    """Where the new value was said: "framed", after a frame before "not" ("it's the
    Chester marathon not York"); "before", before "not" with no frame ("callum teaches
    geography not PE": its last words); "after", after "not Y," (all of it)."""
    clause: tuple[str, ...] = ()
    """The words of the clause before "not": whom it speaks of."""


@cache
def _words() -> dict[str, frozenset[str]]:
    """layers/data/swaps.json: the frames that introduce a value, the fillers said beside
    one, the words after "not" that deny, and those that open the clause after "not Y"."""
    raw = json.loads(files("threefold.layers.data").joinpath("swaps.json").read_text())
    return {key: frozenset(value) for key, value in raw.items() if not key.startswith("_")}


def read_swaps(text: str) -> list[Swap]:
    """Every "X not Y" and "not Y, X" of `text`, unanchored: `swapped` keeps only those
    whose Y is held."""
    found = []
    sentences = _SENTENCE_END_RE.split(text)
    for n, sentence in enumerate(sentences):
        if len(sentence) > _MAX_SENTENCE:
            continue
        for match in _NOT_RE.finditer(sentence):
            swap = _read(sentence[: match.start()], sentence[match.end() :])
            if swap is None and not sentence[: match.start()].strip():
                swap = _beside(sentence[match.end() :], sentences[max(n - 1, 0) : n + 2])
            if swap is not None:
                found.append(swap)
        if n + 1 < len(sentences) and (asked := _I_SAID_RE.search(sentence)):
            found += _said_wrong(asked["old"], sentences[n + 1])
    return found


def _beside(after: str, around: list[str]) -> Swap | None:
    """ "30 May. Not April.", "not peanuts. tree nuts. cashews mainly": a sentence that
    is only "not Y" takes its value from the sentence before it, else the one after."""
    old = _head(after)
    if not old or _CLAUSE_END_RE.split(after.strip(" .!"), maxsplit=1)[1:] or _ends(after):
        return None
    for other in (around[0], around[-1]):
        new = _said_after(f", {other}")
        if new and other.strip() and not _NOT_RE.search(other):
            return Swap(tuple(new), tuple(old), "after")
    return None


def _said_wrong(old: str, answer: str) -> list[Swap]:
    """ "wait i said surly? it's a kona": the speaker asks whether they said the held
    value, and the next sentence says the right one."""
    words = _strip_opening(_WORD_RE.findall(old), _words()["frames"])
    new = _said_after(f", {answer}")
    return [Swap(tuple(new), tuple(words), "after")] if words and new else []


def _read(before: str, after: str) -> Swap | None:
    if _denies(before, after):
        return None  # "decided not to open the studio", "not sure", "not even close"
    old = _head(after)
    if not old or _ends(after):
        return None
    clause = _tail(_JOINED_RE.sub("", before.rstrip(" ,")))
    if [w.lower() for w in clause] in _COPULAS:
        clause = []  # "it's not Tuam at all, it's Athenry": the value comes after
    if clause and clause[-1].lower() in STOPWORDS:
        return None  # "Ollie is not keen", "I'm not at work": a denial
    framed, new = _after_frame(clause)
    # "Wait, not peanut!! Is sesame", "omg not Akbank, Yapi Kredi": a word that opens the
    # message is no value when one follows
    opening = len(new) <= 1 and not framed and len(clause) <= 2 and before.strip() != ""
    opening = opening and _first_word(before) in {w.lower() for w in clause}
    if new and not (opening and _said_after(after)) and _may_be_value(new, framed, clause, before):
        return Swap(tuple(new), tuple(old), "framed" if framed else "before", tuple(clause))
    if new and not opening:
        return None
    new = _said_after(after)
    return Swap(tuple(new), tuple(old), "after", tuple(clause)) if new else None


def _denies(before: str, after: str) -> bool:
    """Whether "not" denies rather than names a value: "not sure", "decided not to open";
    "is to sulfonamides, not to penicillin" says "to" twice, so names one."""
    first = _first_word(after)
    if first == "to" and re.search(r"\bto\b", _CLAUSE_END_RE.split(before.rstrip(" ,"))[-1], _I):
        return False
    return first in _words()["denials"]


def _ends(after: str) -> bool:
    """ "not vegan anymore, long story": a value over, which the readers read as such;
    nothing said beside it replaces it."""
    clause = _CLAUSE_END_RE.split(after, maxsplit=1)[0].lower()
    return any(re.search(rf"\b{re.escape(phrase)}\b", clause) for phrase in _words()["endings"])


def _may_be_value(new: list[str], framed: bool, clause: list[str], before: str) -> bool:
    """Whether words said before "not" with no frame may be a value: right before it
    ("callum teaches geography not PE"), or a name of a word or two before its comma
    ("Young Brothers, not Matson"), never a clause ("we changed our minds, not Leela")."""
    if framed or not before.rstrip().endswith(","):
        return True
    return len(clause) <= 2 and (before.islower() or new[-1][:1].isupper())


def _said_after(after: str) -> list[str]:
    """The value said in the clause after "not Y": a few words, none of them small."""
    rest = _CLAUSE_END_RE.split(after, maxsplit=1)
    if len(rest) < 2:
        return []
    new = _strip_opening(_head(rest[1]), _words()["openers"])
    new = [word for word in new if word.lower() not in _words()["fillers"]]
    small = any(word.lower() in STOPWORDS for word in new)
    small = small and not dates.DATE_RE.fullmatch(" ".join(new))  # "12th of August"
    return new if 0 < len(new) <= _MAX_WORDS and not small else []


def _first_word(text: str) -> str:
    found = _WORD_RE.search(text)
    return found[0].lower() if found else ""


def _head(text: str) -> list[str]:
    """The words of `text`'s first clause, without a leading article or preposition."""
    clause = _CLAUSE_END_RE.split(text, maxsplit=1)[0]
    return _strip_opening(_WORD_RE.findall(clause), _words()["frames"])[: _MAX_WORDS + 1]


def _tail(text: str) -> list[str]:
    """The words of `text`'s last clause."""
    return _WORD_RE.findall(_CLAUSE_END_RE.split(text)[-1])


def _after_frame(clause: list[str]) -> tuple[bool, list[str]]:
    """Whether the clause has a frame ("it's", "a", "from"), and the words after its last
    one, or the whole clause when it has none; possessives, small words, fillers ("now",
    "btw") and a time said with "this" or "next" ("this winter") are no value."""
    words = _words()
    last = max((i for i, word in enumerate(clause) if word.lower() in words["frames"]), default=-1)
    kept = []
    for i in range(last + 1, len(clause)):
        word = clause[i].lower()
        timed = i > 0 and clause[i - 1].lower() in words["time_openers"]
        small = word in STOPWORDS and not dates.is_calendar_word(word)  # "May" is a month
        if not (_possessive(word) or small or word in words["fillers"] or timed):
            kept.append(clause[i])
    return last >= 0, kept


def _strip_opening(words: list[str], opening: frozenset[str]) -> list[str]:
    while words and words[0].lower() in opening:
        words = words[1:]
    return words


def _possessive(word: str) -> bool:
    return word.lower().endswith(("'s", "’s"))


def swapped(swaps: Sequence[Swap], active: Iterable[Fact], speaker: str) -> list[ExtractedFact]:
    """The corrections the swaps make: each edits the newest active fact (the speaker's
    own first) that holds its old words, longest first, and that its clause may speak
    of."""
    held = sorted(active, key=lambda f: f.subject != speaker)
    out = []
    for swap in swaps:
        about = [f for f in held if _may_speak_of(swap, f, speaker)]
        edit = _edit(swap, about)
        if edit is not None:
            out.append(edit)
            out += _twins_edited(swap, edit, about)
    return out


def _twins_edited(swap: Swap, edit: ExtractedFact, held: Sequence[Fact]) -> list[ExtractedFact]:
    """The same correction of the other facts that say the same thing of the same person
    ("is having a cataract operation on 11 February" and "cataract operation is on
    February 11", read by the two readers): each holds the old value and shares a word
    of meaning with the fact edited."""
    done = {(ref.subject, ref.slot) for ref in edit.retracts}
    topic = {w for w in _content(edit.text) if not _DIGIT_RE.search(w)}
    topic = {w for w in topic if not dates.is_calendar_word(w)}
    out = []
    for fact in held:
        if fact.subject != edit.subject or (fact.subject, fact.slot) in done:
            continue
        if topic & _content(fact.text) and (twin := _edit(swap, [fact])) is not None:
            out.append(twin)
            done.add((fact.subject, fact.slot))
    return out


def _content(text: str) -> set[str]:
    return {w.lower() for w in _WORD_RE.findall(text) if w.lower() not in STOPWORDS} - {"user"}


def _may_speak_of(swap: Swap, fact: Fact, speaker: str) -> bool:
    """ "She wants to be a doctor, not a tailor" edits no fact of the speaker's own, nor
    does "Michalis is 15, not 14", which opens with someone the fact does not name."""
    others = [w for w in swap.clause[:1] if w not in swap.new and _named(w)]
    if any(w.lower() not in fact.text.lower() for w in others):
        return False
    return fact.subject != speaker or not {word.lower() for word in swap.clause} & _OTHERS


def _named(word: str) -> bool:
    small = word.lower() in STOPWORDS or word.lower() in _words()["frames"]
    return (
        word[:1].isupper()
        and not small
        and word.lower() not in _words()["fillers"]
        and could_be_person(word)
    )


def _edit(swap: Swap, held: Sequence[Fact]) -> ExtractedFact | None:
    for size in range(min(len(swap.old), _MAX_WORDS), 0, -1):
        old = " ".join(swap.old[:size])
        if _NUMBER_RE.fullmatch(swap.old[size] if size < len(swap.old) else ""):
            continue  # "May 9" is one date, never "May"
        # "the 18th of February and not the 11th": a day held as "february 11"
        old = _ORDINAL_RE.sub(r"\1", old) if _held_as_day(old, held) else old
        for fact in held:
            if not (_holds(fact.value, old) and _said_whole(swap.old[size:], fact)):
                continue
            if _common_word_there(old, fact.value):
                continue
            if MONTH_DAY_RE.match(fact.value) and (day := _new_date(swap)):
                return replace_in(fact, fact.value, _as_held(day))  # "18 April, not the 14th"
            if new := _new_value(swap, old, fact):
                return replace_in(fact, old, _ORDINAL_RE.sub(r"\1", new) if old.isdigit() else new)
        new = " ".join(swap.new[-1:] if swap.said == "before" else swap.new)
        if size == 1 and (moved := day_of_month_moved(Repair(new, old), held)):
            return moved
    return None


def _common_word_there(old: str, value: str) -> bool:
    """Whether a name said after "not" ("not Go", capitalised) is only a common word in
    the held value, which writes it in lowercase though it keeps its names' capitals ("go
    to Floripa"): Go the language is not the trip's verb. A value typed all in lowercase
    ("tesco") may still hold the name."""
    if not any(word[:1].isupper() for word in old.split()):
        return False
    there = word_re(old).search(value)
    return there is not None and there[0].islower() and not value.islower()


def _said_whole(rest: Sequence[str], fact: Fact) -> bool:
    """Whether the words after the old value in its clause say nothing more of it: "not
    the IV like Tyler" compares, "not Dunelm now" or "not the York marathon in October"
    does not."""
    beside = {w.lower() for w in _WORD_RE.findall(fact.text)} | _words()["fillers"]
    return all(word.lower() in STOPWORDS or word.lower() in beside for word in rest)


def _held_as_day(old: str, held: Sequence[Fact]) -> bool:
    """Whether `old` is a day of the month ("11th") that a held fact writes bare."""
    day = _ORDINAL_RE.fullmatch(old)
    if day is None:
        return False
    return any(_holds(f.value, day[1]) and not _holds(f.value, old) for f in held)


def _new_value(swap: Swap, old: str, fact: Fact) -> str | None:
    """The words of the swap that replace `old` in `fact`: what the fact says beside the
    old value is context, and a number replaces only a number."""
    if dates.DATE_RE.fullmatch(old):
        return _new_date(swap)
    old_words = {w.lower() for w in old.split()}
    beside = {w.lower() for w in _WORD_RE.findall(fact.text)} - old_words
    words = [w for w in swap.new if w.lower() not in beside]
    if _NUMBER_RE.fullmatch(old):
        words = [w for w in words if _NUMBER_RE.fullmatch(w)]
    size = len(old_words)
    if swap.said == "before" or (swap.said == "framed" and len(words) > size + 1):
        words = _last(words, size)
    if not words or len(words) > _MAX_WORDS or " ".join(words).lower() == old.lower():
        return None
    return " ".join(words)


def _last(words: list[str], size: int) -> list[str]:
    """The last `size` words, and the capitalised words just before them: "Young
    Brothers", not "Brothers"."""
    start = max(len(words) - size, 0)
    while start > 0 and words[start - 1][:1].isupper() and words[start][:1].isupper():
        start -= 1
    return words[start:]


def _as_held(day: str) -> str:
    """ "18th of February" as the facts hold a day: "February 18"."""
    month = re.search(dates.MONTH_PATTERN, day, _I)
    number = re.search(r"\d{1,2}", day)
    return f"{month[0].title()} {number[0]}" if month and number else day


def _new_date(swap: Swap) -> str | None:
    """A date replaces only a date: "May 16, not May 9"."""
    for start in range(len(swap.new)):
        said = " ".join(swap.new[start:])
        if dates.DATE_RE.fullmatch(said):
            return said
    return None


def _holds(value: str, words: str) -> bool:
    return bool(word_re(words).search(value))


def beside_swaps(
    read: Sequence[ExtractedFact], swaps: Sequence[ExtractedFact]
) -> list[ExtractedFact]:
    """What the reader or the repairs read in the turn, without their readings of a
    swap's words or of what it corrects: "it's citalopram not sertraline" read as "takes
    citalopram" would stand beside the swap's own, which carries what it corrects; "works
    at Wickes not Dunelm" would keep the old name in the new value; "mia's 5 not 4" read
    as the user's age is no age of the user's."""
    values = [(s.category, s.value) for s in swaps]
    values += [(s.category, ref.value) for s in swaps for ref in s.retracts]  # "not peanuts"
    said = {(kind, word) for kind, value in values for word in _content(value)}
    corrected = {(ref.subject, ref.slot) for s in swaps for ref in s.retracts}
    return [
        item
        for item in read
        if not any((item.category, word) in said for word in _content(item.value))
        and not any((ref.subject, ref.slot) in corrected for ref in item.retracts)
    ]
