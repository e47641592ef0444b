"""Which items of a context a newer message may have made outdated.

The reader files most updates as facts, and supersession then retires the old value. When
it cannot parse an update ("we ended up relocating, Manchester now"), the old fact stays
active, and so do the summary lines and older turns that state it. A context must not
present those as current: an older item is shown as possibly outdated when a newer
message in view (one of the turns in view; retrieved turns do not speak for a change, since
in a long chat nearly every one has a newer turn on its topic that says "now") says that
something changed and touches the item's topic.

- A message says something changed when it holds a change word ("now", "anymore",
  "switched", ...) or an ending word ("died", "lost", ...); the lists are data
  (context/data/topics.json).
- It touches a fact's topic when it shares a word with the fact's own words, less its
  subject, or with the words its slot is talked about in ("home": live, moved, relocate,
  city, ...); a fact about someone else also needs its subject named. A fact about a
  thing (domain.ABOUT_THINGS: a standup, a launch, a decision) counts its subject among
  its own words: "the retro is Fridays from now on" touches "The retro is every other
  Thursday". An ending word with the subject or value named touches every fact about them.
- It touches a summary line or an older turn when they share two content words (words
  with a digit compared whole: "SEC-202" is not "SEC-201"); three when a named person
  wrote the line and someone else the message, without naming them: in a team channel
  people mostly update what they said themselves. A clause that says something stays
  ("observation window unchanged", "we're keeping the Foundry") names no topic, and a
  summary line that tells a turn in view said after the message is as new as that turn.
- A named person's message with no change word still touches a line of their own that it
  restates with another name or number ("Flowers sorted: Wildroot are doing the arch"
  after "Flowers are with Bloomhouse, they're doing the arch"): in a team channel most
  updates carry no change word, and most change words are about something else.
- Only the user side of a turn speaks: the assistant repeats, it does not update. A fact
  about "the user" is touched only by turns without another speaker named.

Words match on their first five letters, so "relocating" meets "relocate". This is a
warning, not a verdict: the item stays in the context, marked, and the newer message is
named so the model can read it.
"""

import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import cache, lru_cache
from importlib.resources import files
from typing import Any

from threefold.domain import ABOUT_THINGS, Fact, FactCategory, SourceRef, Turn, stream_subject
from threefold.models.heuristic.text import STOPWORDS, sentences

STEM = 5
"""Letters compared of a longer word: 'relocating' and 'relocated' meet at 'reloc'."""
SHARED_WITH_TEXT = 2
"""Topic words a message must share with a summary line or an older turn to touch it:
one common word ("work", "dog") touches half a chat's lines (measured on LoCoMo)."""
SHARED_BY_OTHERS = 3
"""...three when another person wrote it and the message does not name them..."""
SHARED_BY_SELF = 3
"""...and three when its own author restates it with another value and no change word."""
RETELLS = 0.5
"""A text that holds this share of a message's words retells it (a summary of it)..."""
PART = 0.6
"""...and so does one this share of whose words are the message's (a sentence of it)."""
_WORD = re.compile(r"[^\W_][\w'-]*")
_ASSISTANT = " Assistant: "
"""How a retrieved turn joins its user side to its assistant side (context.material)."""
_LABEL = re.compile(r"(?:^|(?<=\s))(?:\[[^\]]*\]\s*)?[A-Z][\w.'-]*(?: [A-Z][\w.'-]*)?: ")
"""A speaker's label ("Caroline: ", "[turn:4] User: "): in every line of a chat, it says
nothing of the topic."""
_SPEAKER = re.compile(r"^(?P<speaker>[^:\n]{1,60}): ")


@dataclass(frozen=True)
class Topics:
    change: frozenset[str]
    change_phrases: tuple[str, ...]
    ending: frozenset[str]
    ending_phrases: tuple[str, ...]
    keep: frozenset[str]
    keep_phrases: tuple[str, ...]
    generic: frozenset[str]
    slots: dict[str, frozenset[str]]


@cache
def _data() -> dict[str, Any]:
    return json.loads(files("threefold.context").joinpath("data/topics.json").read_text())


@cache
def topics() -> Topics:
    data = _data()

    def split(words: list[str]) -> tuple[frozenset[str], tuple[str, ...]]:
        single = frozenset(_stem(w) for w in words if " " not in w)
        return single, tuple(w for w in words if " " in w)

    change, change_phrases = split(data["change"])
    ending, ending_phrases = split(data["ending"])
    keep = frozenset(w for w in data["keep"] if " " not in w)  # whole: "stands", not "standup"
    keep_phrases = tuple(w for w in data["keep"] if " " in w)
    return Topics(
        change=change,
        change_phrases=change_phrases,
        ending=ending,
        ending_phrases=ending_phrases,
        keep=keep,
        keep_phrases=keep_phrases,
        generic=frozenset(_stem(w) for w in data["generic"]),
        slots={k: frozenset(_stem(w) for w in v) for k, v in data["slots"].items()},
    )


@cache
def _singular() -> frozenset[str]:
    return frozenset(_data()["singular"])


@lru_cache(maxsize=65_536)
def _stem(word: str) -> str:
    # Kept: a context stems the words of every item in view, some 700 of them, and chat
    # says the same words again and again (at 100,000 items a twentieth of a context).
    word = word.lower().strip("'-").removesuffix("'s")
    if any(c.isdigit() for c in word):
        return word  # "SEC-201" is not "SEC-202", nor build 0.9.41 build 0.9.42
    if word in _singular():
        return word  # "good news" says nothing is new
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]  # "lives" meets "live"
    return word[:STEM] if len(word) > STEM else word


@lru_cache(maxsize=4_096)
def stems(text: str) -> frozenset[str]:
    """The stems of `text`'s content words, less stop words and words too common. Kept
    for a few thousand texts (see recall.rerank._roots_of)."""
    words = (w for w in _WORD.findall(text.lower()) if w not in STOPWORDS and len(w) > 1)
    return frozenset(_stem(w) for w in words) - topics().generic


@dataclass(frozen=True)
class Newer:
    """A message that may update what came before it: the user side of a turn."""

    text: str
    at: datetime
    source: SourceRef
    speaker: str | None
    words: frozenset[str]
    ends: bool
    """It says someone or something is gone ("died", "lost")."""
    changes: bool = True
    """It says something changed; one that does not may still restate what its own speaker
    said before with another value ("Flowers sorted: Wildroot are doing the arch")."""


def _says_change(text: str, words: frozenset[str]) -> tuple[bool, bool]:
    """(says something changed, says something ended)."""
    t = topics()
    lowered = text.lower()
    ends = bool(words & t.ending) or any(p in lowered for p in t.ending_phrases)
    changes = bool(words & t.change) or any(p in lowered for p in t.change_phrases)
    return changes or ends, ends


def says_change(text: str) -> bool:
    """Whether `text` holds a change or ending word ("now", "wait", "moved", "died")."""
    return _says_change(text, frozenset(_stem(w) for w in _WORD.findall(text.lower())))[0]


@lru_cache(maxsize=4_096)
def _newer(text: str, at: datetime | None, source: SourceRef, speaker: str | None) -> Newer | None:
    """Kept: every context reads the last K turns again, all but the newest as before (a
    sentence split each, at 100,000 items a twentieth of a context)."""
    if at is None or not text.strip():
        return None
    stated = _statements(text)
    raw = frozenset(_stem(w) for w in _WORD.findall(stated.lower()))
    changed, ends = _says_change(stated, raw)
    if not changed and speaker is None:
        return None
    return Newer(text, at, source, speaker, stems(_less_kept(stated)), ends, changed)


_CLAUSE = re.compile(r"[;,]\s+|\s+[-–—]+\s+")


def _less_kept(text: str) -> str:
    """`text` less its clauses that say something stays as it was: "pushed us two weeks;
    observation window unchanged" speaks of a change to the dates, not to the window. A
    clause that says so as a change ("actually we're keeping the CSV export") reverses
    what was said before, and stays."""
    t = topics()

    def keeps(clause: str) -> bool:
        lowered = clause.lower()
        kept = bool(set(_WORD.findall(lowered)) & t.keep) or any(
            p in lowered for p in t.keep_phrases
        )
        return kept and not says_change(clause)

    return " ".join(c for c in _CLAUSE.split(text) if not keeps(c))


def _statements(text: str) -> str:
    """`text` less its questions: "Where do I live now?" asks, it says nothing changed;
    "we moved! any tips?" says so in its first sentence."""
    return " ".join(s for s in sentences(text) if not s.rstrip().endswith("?"))


def from_turn(turn: Turn) -> Newer | None:
    """The turn as a message that may update what came before it; None for a bot's or an
    integration's post ("2 new commits pushed"), which says no one changed their mind."""
    if not turn.by_person:
        return None
    return _newer(turn.user, turn.at, turn.ref(), turn.speaker)


@dataclass(frozen=True)
class _Held:
    """A current fact, as what an older line on its topic may contradict."""

    source: SourceRef
    at: datetime
    words: "_FactWords"
    value: frozenset[str]
    about_user: bool
    item: frozenset[str] = frozenset()
    """What a keyed slot is about ("owns:car": car): a line must name it to contradict."""


class Staleness:
    """The newer messages in view, and what each may have made outdated; and the current
    facts, by which an older summary line or retrieved item on the same topic that states
    another value is doubted too."""

    def __init__(
        self,
        messages: Iterable[Newer | None],
        window: Sequence[str] = (),
        facts: Iterable[Fact] = (),
        spoken: Iterable[tuple[str, datetime | None]] = (),
    ) -> None:
        """`window`: the texts of the turns in view, by which words that run through the
        whole chat ("family", a friend's name) are told apart from a topic. `facts`: the
        current facts of the context. `spoken`: what was said in the turns in view, and
        when, by which a summary line (dated by its period's first day) that tells one of
        them is dated by it."""
        common = _common_words(window)
        self.spoken = [(stems(text), at) for text, at in spoken if at is not None]
        newest_first = sorted((m for m in messages if m), key=lambda m: m.at, reverse=True)
        self.spoke: Sequence[Newer] = [replace(m, words=m.words - common) for m in newest_first]
        """The newer messages, with those of named speakers that say nothing changed."""
        self._spoke_with: dict[str, list[int]] = {}
        """The positions in `spoke` of the messages holding each word."""
        for position, message in enumerate(self.spoke):
            for word in message.words:
                self._spoke_with.setdefault(word, []).append(position)
        self.messages: Sequence[Newer] = [m for m in self.spoke if m.changes]
        facts = list(facts)
        self.people = frozenset(
            word for f in facts if f.subject not in ("user", "global") for word in stems(f.subject)
        )
        """Whom the stream's facts are about, besides the user."""
        pairs = [(h, f) for f in facts if (h := _held(f, common)) is not None]
        self.held = sorted((h for h, _ in pairs), key=lambda h: h.at, reverse=True)
        # The values of facts a newer message may have changed: an older line that states
        # one is as doubtful as the fact ("I'm based in Bristol" beside "lives in Bristol").
        self.doubted = [(h, m) for h, m in ((h, self._message_on(h)) for h in self.held) if m]
        # ...and so is one that states the value of a fact the reader doubted.
        self.doubted += [
            (h, Newer("", d.at, d, None, frozenset(), False))
            for h, f in pairs
            if (d := f.doubt) is not None and d.at is not None
        ]

    def __bool__(self) -> bool:
        return bool(self.spoke or self.held)

    def _message_on(self, held: _Held) -> Newer | None:
        for message in self.messages:
            if message.at <= held.at or _same(message.source, held.source):
                continue
            if held.about_user and not self._of_user(message, held.words.named):
                continue
            if _touches(message, held.words, about_user=held.about_user):
                return message
        return None

    def _of_user(self, message: Newer, named: frozenset[str]) -> bool:
        """Whether `message` may speak of a fact of the user's that names `named`: not
        when someone else in the chat wrote it (their "I" is not this user), nor, when it
        says nothing in the first person and names nothing of the fact's, when it names
        others the stream knows or speaks of a he or she ("Ana quit nursing" and "her name
        is Maya, not Mia" leave the user's job and name; "Rex passed away, he was 14" still
        touches "Rex is the user's dog")."""
        if message.speaker is not None:
            return False
        said = stems(message.text)
        if _FIRST_PERSON.search(message.text) or said & named:
            return True
        return not (self.people & said) and not _THIRD_PERSON.search(message.text)

    def _touches_text(self, text: str, words: frozenset[str], message: Newer) -> bool:
        """Whether `message` speaks of what `text` (of `words`) says, as something changed:
        a message that says so shares two of its topic words with it (three when a person
        answers what someone else said without naming them: in a team channel, a person
        mostly updates what they said themselves, and the others' messages on its subject
        go on with it); one that says nothing changed restates, in its own author's words,
        what they said before with another value ("Flowers sorted: Wildroot are doing the
        arch" after "Flowers are with Bloomhouse, they're doing the arch")."""
        shared = len(words & message.words)
        if shared < SHARED_WITH_TEXT or _retells(words, message.words):
            return False
        by = _speakers(text)
        own = message.speaker is not None and by == {message.speaker}
        if not message.changes:
            return own and shared >= SHARED_BY_SELF and _names_another(text, message.text)
        others = message.speaker is not None and len(by) == 1 and not own
        if others and not {_stem(w) for name in by for w in name.split()} & message.words:
            return shared >= SHARED_BY_OTHERS
        return True  # two shared words, checked above

    def _sharing(self, words: frozenset[str]) -> list[Newer]:
        """The messages of `spoke` that share enough of `words` to touch a text of them
        (see _touches_text), newest first: found by their words, as a context asks this
        of some 120 texts, each against every message in view."""
        shared = Counter(at for word in words for at in self._spoke_with.get(word, ()))
        return [self.spoke[at] for at in sorted(shared) if shared[at] >= SHARED_WITH_TEXT]

    def _said_after(self, words: frozenset[str], when: datetime) -> bool:
        """Whether a text of `words` tells a turn in view said after `when`: "Tamsin: Sent
        Greenfield the refund letter", a line of a day's summary, was said after that
        day's "Greenfield Dairy cancelled, we're refunding the deposit"."""
        return any(at > when and len(words & said) >= PART * len(words) for said, at in self.spoken)

    def of_fact(self, fact: Fact) -> SourceRef | None:
        """The newest message after `fact` was stated that may have changed it: the one
        the reader read in its slot, too unsurely to store (`Fact.doubted_by`), else one in
        view that speaks of a change and touches its topic."""
        stated = fact.last_stated
        if (doubted := fact.doubt) is not None:
            return doubted
        if not self.messages or stated is None:
            return None
        about_user = fact.subject == "user"
        words = _fact_words(fact.text, _subject(fact), fact.slot, fact.value, fact.category)
        for message in self.messages:  # newest first
            if message.at <= stated:
                break
            if _same(message.source, fact.source):
                continue
            if about_user and not self._of_user(message, words.named):
                continue
            if _touches(message, words, about_user=about_user):
                return message.source
        return None

    def of_text(self, text: str, at: datetime | None, source: SourceRef | None) -> SourceRef | None:
        """What may have made `text` (said at `at`) outdated: the newest message after it
        that speaks of what it says and of a change, unless `text` retells that message (a
        summary that covers it); or a newer current fact on its topic whose value it does
        not state; or the message that doubts a fact whose value it states."""
        if at is None or not self:
            return None
        words = stems(_LABEL.sub(" ", text))
        # Messages and held facts are newest first: past the first as old as `text`, none
        # is newer (a context asks this of some 120 texts, over every fact of the stream).
        for message in self._sharing(words):
            if message.at <= at:
                break
            if _same(message.source, source):
                continue
            if self._touches_text(text, words, message) and not self._said_after(words, message.at):
                return message.source
        if not (self.doubted or self.held):  # no current fact to contradict it
            return None
        said = _said_by_user(text)
        own = stems(_LABEL.sub(" ", said))
        for held, message in self.doubted:
            stated_before = message.at > at and not _same(message.source, source)
            retold = bool(message.words) and _retells(words, message.words)
            if stated_before and _states(own, said, held) and not retold:
                return message.source
        # A retrieved summary is dated by the end of its period here: only a fact stated
        # after all it retells may contradict it.
        if source is not None and source.kind.startswith("summary") and source.at:
            at = max(at, source.at)
        for held in self.held:
            if held.at <= at:
                break
            if not held.value.isdisjoint(words) or _same(held.source, source):
                continue
            if (
                held.item <= own
                and not own.isdisjoint(held.words.topic)
                and _speaks_of(own, said, held)
            ):
                return held.source
        return None


def _same(one: SourceRef | None, other: SourceRef | None) -> bool:
    """Whether two sources are one, field by field: a context compares thousands of them,
    and pydantic's comparison of models took a sixth of a context at 100,000 turns."""
    if one is None or other is None:
        return one is other
    return one.kind == other.kind and one.id == other.id and one.at == other.at


@dataclass(frozen=True)
class _FactWords:
    topic: frozenset[str]
    """The fact's own words, less whom it names, and the words its slot is talked about in."""
    subject: frozenset[str]
    """Whom or what it is about, when not the user; a message must name them."""
    named: frozenset[str]
    """Everyone it names: its subject, and a person or pet that is its value."""


COMMON_SHARE = 0.2
"""A word in more than this share of the turns in view (and in three or more) runs through
the chat and names no topic of its own."""


def _common_words(window: Sequence[str]) -> frozenset[str]:
    counts = Counter(word for text in window for word in stems(text))
    least = max(3, COMMON_SHARE * len(window))
    return frozenset(word for word, n in counts.items() if n >= least)


def _subject(fact: Fact) -> str:
    """Whom a message must name to speak of `fact`: no one when it is about what the stream
    is about. In project:atlas, "actually we're keeping the CSV export" speaks of Atlas's
    decision to drop it without naming Atlas."""
    return "global" if fact.subject.lower() == stream_subject(fact.stream) else fact.subject


@lru_cache(maxsize=16_384)
def _fact_words(
    text: str, subject: str, slot: str, value: str, category: FactCategory
) -> _FactWords:
    subject_words = stems(subject) if subject not in ("user", "global") else frozenset()
    # "Anna is the user's sister": Anna is named, and her name alone is not the topic.
    someone = category is FactCategory.RELATIONSHIP
    value_words = stems(value)
    named = subject_words | (value_words if someone else frozenset())
    slot_words: set[str] = set(stems(slot.replace(":", " ")))
    table = topics().slots
    for key in {slot, slot.split(":", 1)[0], *slot.replace(":", " ").split()}:
        slot_words |= table.get(key, frozenset())
    topic = (stems(text) | slot_words) - named
    if category in ABOUT_THINGS:
        topic |= subject_words  # "standup is at 10:30 from now on" speaks of the standup's time
    return _FactWords(topic, subject_words, named | value_words)


def _held(fact: Fact, common: frozenset[str]) -> _Held | None:
    """The fact as what an older line may contradict: a line on its slot's topic (the words
    its kind is talked about in, "home": live, moved, based...) that names the item a keyed
    slot is about ("owns:car": car) and states none of its value."""
    if fact.last_stated is None:
        return None
    words = _fact_words(fact.text, _subject(fact), fact.slot, fact.value, fact.category)
    value = stems(fact.value) - words.subject
    if not value:
        return None  # nothing an older line could state instead
    kind, _, key = fact.slot.partition(":")
    table = topics().slots
    vocabulary = set(stems(kind))
    for name in {fact.slot, kind, *kind.split()}:
        vocabulary |= table.get(name, frozenset())
    item = stems(key) - words.named
    topic = (stems(fact.text) | vocabulary) - words.named - value - item - common
    return _Held(
        fact.source,
        fact.last_stated,
        replace(words, topic=topic),
        value,
        fact.subject == "user",
        item,
    )


_FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|i've|my|me|mine|we|we're|our|us)\b", re.IGNORECASE)
_THIRD_PERSON = re.compile(r"\b(?:he|she|he's|she's|his|her|hers|him)\b", re.IGNORECASE)
"""A message in the third person alone ("her name is Maya, not Mia") speaks of someone
else, not of the user."""


def _said_by_user(text: str) -> str:
    """The words of `text` that may speak of the user: a retrieved turn's user side, and
    nothing of another speaker's ("Caroline: I ...")."""
    said = text.split(_ASSISTANT, 1)[0]
    found = _SPEAKER.match(_TURN_REF.sub("", said))
    if found and found["speaker"] != "User":
        return ""
    return said


_TURN_REF = re.compile(r"^\[[^\]]*\]\s*")


def _speaks_of(words: frozenset[str], text: str, held: _Held) -> bool:
    """Whether `text` speaks of whom the fact is about: the user in the first person, or
    someone else by name."""
    if held.about_user:
        return bool(_FIRST_PERSON.search(text))
    return bool(held.words.subject) and held.words.subject <= words


def _states(words: frozenset[str], text: str, held: _Held) -> bool:
    """Whether `text` states the fact's value of whom it is about."""
    return held.value <= words and _speaks_of(words, text, held)


def _touches(message: Newer, words: _FactWords, *, about_user: bool) -> bool:
    if message.ends and words.named & message.words:
        return True  # "we lost Biscuit": whatever was said of Biscuit
    if not about_user and words.subject and not words.subject & message.words:
        return False
    return bool(message.words & words.topic)


def _speakers(text: str) -> set[str]:
    """Who is named as saying `text` ("[turn:2] Grace: ..."; several in a summary)."""
    return {found.group(0).split("] ")[-1].rstrip(": ") for found in _LABEL.finditer(text)}


_NAMED = re.compile(r"(?<![.!?]\s)(?<!^)\b(?:[A-Z][\w'-]*|[\w'-]*\d[\w'-]*)")
"""A name or a number, not the first word of a sentence: what a value is mostly told by."""


def _values(text: str) -> frozenset[str]:
    return frozenset(_stem(w) for w in _NAMED.findall(text.strip()))


def _names_another(text: str, message: str) -> bool:
    """Whether `message` names a value `text` does not, and `text` one `message` does not:
    "Wildroot" for "Bloomhouse"; a reminder that names Bloomhouse again names none."""
    old, new = _values(_LABEL.sub("", text)), _values(message)
    return bool(old - new) and bool(new - old)


def _retells(words: frozenset[str], message: frozenset[str]) -> bool:
    shared = len(words & message)
    return shared >= RETELLS * len(message) or shared >= PART * len(words)


def marked(text: str, doubt: SourceRef | str) -> str:
    """`text` with the marker every context uses for an item a newer message may change
    (`doubt`, or its label)."""
    return f"{text} (possibly outdated: see {doubt if isinstance(doubt, str) else doubt.label()})"


REPLACED = "(outdated: "
"""How the mark of an item that states superseded facts opens (see replaced_mark)."""


def replaced_mark(pairs: Sequence[tuple[Fact, Fact]]) -> str:
    """What an item that states superseded facts (each with the fact now in force) is
    followed by: which of what it says is outdated, and what holds now. "(outdated; now:
    Zosia is 8 years old.)" after "my daughter Zosia is 7 and allergic to sesame" read as
    if the allergy were outdated too."""
    old = "; ".join(o.text.rstrip(".") for o, _ in pairs)
    now = " ".join(n.text for _, n in pairs)
    return f"{REPLACED}{old}; now: {now})"
