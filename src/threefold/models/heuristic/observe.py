"""observe: offline observation rules for team chat messages (Slack).

A message may yield commitments, blockers, handoffs, deadline mentions, risk and mood
signals, status updates and shared links. The caller drops anything below a per-category
threshold (commitment 0.85, blocker 0.7, handoff 0.75, deadline_mention 0.8, risk 0.7,
mood 0.7, status 0.5, reference 0.7), so confidence is the whole calibration: explicit
statements score above their threshold, and hedges, questions and conditionals below it.

Importers run this on every message of a workspace and most messages carry nothing, so a
single lowercase trigger regex rejects them before any other work, and dates are only
parsed in sentences that contain a date-like token.
"""

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from functools import cached_property, lru_cache
from urllib.parse import urlsplit

from threefold import dates
from threefold.domain import FactCategory
from threefold.models.base import ExtractedFact
from threefold.models.heuristic.patterns import NOT_NAMES
from threefold.models.heuristic.text import (
    STOPWORDS,
    clean,
    sentence_case,
    third_person,
    words,
    wordset,
)
from threefold.models.heuristic.word_lists import word_lists

_I = re.IGNORECASE
MAX_CHARS = 20_000
_MAX_SENTENCE_CHARS = 500  # longer "sentences" are pastes (logs, code), not statements
_MAX_REFS = 20
_MAX_URL_CHARS = 2_000


def _trie(phrases: Iterable[str]) -> re.Pattern[str]:
    """A regex for any of the lowercase `phrases` (matched anywhere, even inside a word, the
    longest one first), in the shape of a trie: each text position then costs one branch on
    its first character instead of one attempt per phrase. A space matches any whitespace,
    "'" either apostrophe."""
    root: dict[str, dict] = {}
    for phrase in phrases:
        node = root
        for char in phrase:
            node = node.setdefault(char, {})
        node[""] = {}
    return re.compile(_trie_node(root))


def _trie_node(node: dict[str, dict]) -> str:
    atoms = {" ": r"\s+", "'": "['\u2019]"}
    parts = [
        atoms.get(c, re.escape(c)) + _trie_node(child) for c, child in sorted(node.items()) if c
    ]
    if "" in node:
        parts.append("")  # a phrase ends here; longer ones are tried first
    return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"


# A rule runs only on sentences holding one of its cue words. One trie-shaped scan finds the
# cues of every rule at once, and a message without any is rejected before any other work.
_WEEKDAY_STARTS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_MONTH_STARTS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_BUILT_CUES = {
    FactCategory.DEADLINE_MENTION: tuple(
        f"by {start}" for start in (*_WEEKDAY_STARTS, *_MONTH_STARTS, *"0123456789")
    ),
    FactCategory.RISK_SIGNAL: tuple(
        f"{modal} {harm}"
        for modal in ("could", "might", "may", "would", "will", "well", "easily", "up")
        for harm in ("sink", "derail", "jeopardi", "threaten", "wreck", "ruin", "kill")
        + ("torpedo", "scupper", "delay", "stall", "lose", "miss", "push back", "knock out")
        + ("blow up", "hold up", "cost", "really")
    ),
}
"""Cues made of parts: a deadline's "by" and a day, a risk's modal and harm."""


def _gate_words() -> dict[FactCategory, tuple[str, ...]]:
    """Each category's cues: its words in data/gate_words.json, then those built above."""
    out = {}
    for name, listed in word_lists("gate_words.json").items():
        if not name.endswith("_doc"):
            category = FactCategory(name)
            out[category] = (*listed, *_BUILT_CUES.get(category, ()))
    return out


_GATE_WORDS = _gate_words()
_TRIGGER_RE = _trie(("http", *(cue for cues in _GATE_WORDS.values() for cue in cues)))


def _cue_categories() -> dict[str, frozenset[FactCategory]]:
    """The categories each cue wakes; several categories may share a cue."""
    out: dict[str, set[FactCategory]] = {}
    for category, cues in _GATE_WORDS.items():
        for cue in cues:
            out.setdefault(cue, set()).add(category)
    return {cue: frozenset(categories) for cue, categories in out.items()}


_CUES = _cue_categories()
_CUE_SPACE_RE = re.compile(r"\s+")
_DATE_GATE = _trie(
    (
        *_WEEKDAY_STARTS,
        *_MONTH_STARTS,
        "today",
        "tonight",
        "tomorrow",
        "yesterday",
        "last night",
        "eod",
        "eow",
        "eom",
        "end of",
        "day",
        "week",
        "month",
        "-0",
        "-1",
    )
)
_HEDGE_GATE = _trie(
    (
        "maybe",
        "perhaps",
        "probably",
        "possibly",
        "hopefully",
        "i think",
        "i guess",
        "i believe",
        "i hope",
        "hoping",
        "might",
        "may",
        "could",
        "not sure",
        "try",
        "attempt",
        "if ",
        "should be able",
        "ideally",
        "tentative",
        "at some point",
        "sometime",
        "eventually",
        "when i can",
        "when i get",
        "kinda",
        "sort of",
        "i suppose",
        "likely",
    )
)

# --- shared pieces ---------------------------------------------------------------------

_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+|\n+")
_URL_RE = re.compile(r"https?://[^\s<>()\[\]{}\"'|`]+", _I)
_URL_TAIL = ".,;:!?*_~'\""
# An issue key such as ALPHA-142, but not the standards and hashes written the same way.
_ISSUE_RE = re.compile(
    r"\b(?!(?:UTF|ISO|SHA|MD|COVID|RFC|CVE|PEP|AES|RSA|GPT|TLS|SSL|HTTP|IPV|MP|H|X)-)"
    r"[A-Z][A-Z0-9]{1,9}-\d{1,6}\b"
)
# A person in a chat message: an @mention or one or two capitalised words.
_NAME = r"(?:@[\w.'-]+|(?-i:[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?))"

_QUESTION_RE = re.compile(
    r"^(?:(?:hey|hi|so|ok|okay|quick\s+q(?:uestion)?)[,:!\s]+)?(?:"
    r"(?:who|what|where|why|how|which)\b"
    r"|(?:are|is|am|was|were|will|would|can|could|should|do|does|did|have|has|shall)\s+"
    r"(?:we|you|i|they|he|she|it|this|that|there|the|our|your|my|his|her|their|any\w*"
    r"|some\w*|every\w*|all|(?-i:[A-Z])))",
    _I,
)
_HEDGE_RE = re.compile(
    r"\b(?:maybe|perhaps|probably|possibly|hopefully|i\s+think|i\s+guess|i\s+believe"
    r"|i\s+hope|hoping|might|may(?=\s+(?-i:[a-z]))|could|not\s+sure|try\s+to|trying\s+to"
    r"|attempt\s+to"
    r"|if\s+i\s+(?:can|get|have)|if\s+possible|if\s+time|should\s+be\s+able|ideally"
    r"|tentatively|at\s+some\s+point|sometime|eventually|when\s+i\s+(?:can|get)|kinda"
    r"|sort\s+of|i\s+suppose|likely)\b",
    _I,
)
_CONDITIONAL_RE = re.compile(r"^(?:if|unless|in\s+case|assuming)\b|\b(?:if|unless)\s+\w")
_PRONOUN_ONLY = frozenset(
    {
        "it",
        "this",
        "that",
        "these",
        "those",
        "them",
        "everything",
        "something",
        "stuff",
        "things",
        "thing",
        "one",
        "which",
        "what",
        "we",
        "i",
        "you",
        "they",
        "us",
        "me",
    }
)


@lru_cache(maxsize=8192)
def _resolve(phrase: str, day: date) -> tuple[date, bool] | None:
    """The day a date phrase names, said on `day`, and whether it depended on `day`."""
    # A workspace repeats the same few phrases on the same days, so each (phrase, day) is
    # resolved once.
    hits = dates.find_dates(phrase, datetime(day.year, day.month, day.day, tzinfo=UTC))
    return (hits[0].day, hits[0].relative) if hits and hits[0].start == 0 else None


@dataclass
class _Msg:
    """One message being read: who wrote it, when, and the dates found so far."""

    author: str
    """Display form of the author ("Priya")."""
    subject: str
    """Lowercase author, the fallback subject."""
    at: datetime
    day: date
    _dates: dict[str, list[dates.DateHit]] = field(default_factory=dict)

    def dates_in(self, text: str) -> list[dates.DateHit]:
        if text not in self._dates:
            self._dates[text] = _date_hits(text, self.day)
        return self._dates[text]


# The most characters a date phrase may have before its first cue: "this coming fri(day)",
# and the words it may open with there.
_DATE_LEAD_CHARS = 16
_DATE_LEADS = (
    "the ",
    "next ",
    "last ",
    "past ",
    "this ",
    "coming ",
    "in ",
    "end ",
    "a ",
    "an ",
    "one ",
    "two ",
    "three ",
    "four ",
    "five ",
    "six ",
    "seven ",
    "eight ",
    "nine ",
    "ten ",
    "eleven ",
    "twelve ",
)


def _date_hits(text: str, day: date) -> list[dates.DateHit]:
    """What dates.find_dates finds, trying DATE_RE only at the word starts just before a
    date-like cue instead of at every position of the text."""
    lower, hits, pos = text.lower(), [], 0
    while cue := _DATE_GATE.search(lower, pos):
        match = None
        for start in range(max(pos, cue.start() - _DATE_LEAD_CHARS), cue.start() + 1):
            if start and text[start - 1].isalnum():
                continue  # not a word start
            if start < cue.start() and not (
                text[start].isdigit() or lower[start:].startswith(_DATE_LEADS)
            ):
                continue  # only "next", "the", "in 3" and the like open a phrase before its cue
            if match := dates.DATE_RE.match(text, start):
                break
        if match is None:
            pos = cue.end()
            continue
        found = _resolve(match.group(0).lower(), day)
        if found:
            hits.append(dates.DateHit(match.start(), match.end(), match.group(0), *found))
        pos = match.end()
    return hits


def _annotate(text: str, hits: list[dates.DateHit]) -> str:
    """`text` with each relative date followed by its ISO day, as dates.annotate does."""
    out, last = [], 0
    for hit in hits:
        if not hit.relative or text[hit.end : hit.end + 2] == " (":
            continue
        out.append(text[last : hit.end] + f" ({hit.day.isoformat()})")
        last = hit.end
    return "".join(out) + text[last:]


@dataclass
class _Sentence:
    text: str
    lower: str
    question: bool

    @cached_property
    def hedged(self) -> bool:
        # Only asked once a rule has found something, which few sentences reach.
        return bool(_HEDGE_GATE.search(self.lower) and _HEDGE_RE.search(self.text))


_PUNCT = " .,;:!?\"'()[]{}<>*_~`-\u2013\u2014"
_EDGE = " .,;:!?\"'{}<>*_~`-\u2013\u2014"
_DATE_WORDS = wordset(
    """monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs
    fri sat sun january february march april may june july august september october november
    december jan feb mar apr jun jul aug sep sept oct nov dec today tonight tomorrow eod eow
    eom day days week weeks month months end next yesterday once after before until till
    since while asap please"""
)
_DETERMINERS = wordset(
    """the a an our my your his her their its this that these those some all any also just
    still now so and but then ok okay fyi btw update re"""
)
_FILLER_WORDS = wordset("now too instead again then anymore already yet asap")
_AUX_WORDS = wordset(
    """is are am was were be been has have had still currently totally completely now kinda
    really just being getting got get all both looks seems feels definitely probably might
    may could will would gonna also again already"""
)
_CLAUSE_RE = re.compile(r"[,:;]")
_AUX_PAIRS = {("going", "to"), ("likely", "to"), ("about", "to"), ("a", "bit")}
_CONTRACTIONS = ("'s", "'re", "'m")
_NP_END_WORDS = wordset(
    """to in on for at by and but with from since after before until till because so if when
    once while as into onto via per next this tomorrow today tonight asap up out done ready
    live finished merged shipped is are was were will should must has won't can't would could
    might may can"""
)


def _trim(text: str) -> str:
    """`text` without edge punctuation, keeping a bracket that closes or opens inside it."""
    text = text.strip(_EDGE)
    if text.endswith((")", "]")) and not ("(" in text or "[" in text):
        text = text.rstrip(")]").strip(_EDGE)
    if text.startswith(("(", "[")) and not (")" in text or "]" in text):
        text = text.lstrip("([").strip(_EDGE)
    return text


def _norm(text: str) -> str:
    """A value's comparison form, as rules.norm makes it, without its regex passes."""
    parts = text.split()
    while parts and parts[0].strip(_PUNCT).lower() in _DETERMINERS:
        parts.pop(0)
    while parts and parts[-1].strip(_PUNCT).lower() in _FILLER_WORDS:
        parts.pop()
    return _trim(" ".join(parts).lower())


def _key(text: str, limit: int = 3) -> str:
    """A short stable slot suffix: the first content words, plurals folded, no dates."""
    seen: list[str] = []
    for word in words(text):
        if word in STOPWORDS or word in _DATE_WORDS or len(word) < 2 or word[0].isdigit():
            continue
        word = word[:-1] if len(word) > 3 and word.endswith("s") and word[-2] != "s" else word
        if word not in seen:
            seen.append(word)
        if len(seen) == limit:
            break
    return " ".join(seen)


def _phrase(text: str, max_words: int = 6) -> str:
    """A noun phrase cut down for a subject or value: no determiners, a few words, case kept;
    '' when nothing but pronouns or function words is left."""
    parts = text.split()
    while parts and parts[0].strip(_PUNCT).lower() in _DETERMINERS:
        parts.pop(0)
    parts = parts[:max_words]
    while parts and parts[-1].strip(_PUNCT).lower() in _FILLER_WORDS:
        parts.pop()
    phrase = _trim(" ".join(parts))
    if not phrase or phrase.lower() in _PRONOUN_ONLY or not _key(phrase):
        return ""
    return phrase


def _np_before(text: str, max_words: int = 4) -> str:
    """The noun phrase `text` ends with: "We need to hit the Q2 report" -> "Q2 report"."""
    taken: list[str] = []
    for word in reversed(_strip_aux(text).split()[-max_words * 2 :]):
        bare = word.strip(_PUNCT).lower()
        if not bare or bare in STOPWORDS or bare in _PRONOUN_ONLY or len(taken) == max_words:
            break
        if word[-1] in ",;:(":
            break
        taken.append(word)
    return _phrase(" ".join(reversed(taken)), max_words)


def _np_after(text: str, max_words: int = 6) -> str:
    """The noun phrase `text` starts with: "the search page to staging" -> "search page"."""
    parts = text.split()
    if parts and parts[0].lower() in ("for", "on", "of", "to", "about"):
        parts.pop(0)
    while parts and parts[0].strip(_PUNCT).lower() in _DETERMINERS:
        parts.pop(0)
    taken: list[str] = []
    for word in parts:
        if word.lower() in _NP_END_WORDS or word[0] in "([":
            break
        taken.append(word)
        if word[-1] in ",;:":
            break
    return _phrase(" ".join(taken), max_words)


def _last_clause(text: str) -> str:
    """The part of `text` after its last comma, colon or semicolon: "Yesterday: fixed"."""
    return _CLAUSE_RE.split(text)[-1]


def _strip_aux(text: str) -> str:
    """`text` without trailing auxiliaries: "The release is still" -> "The release"."""
    parts = text.split()
    while parts:
        last = parts[-1].strip(" ,:-").lower()
        if not last or last in _AUX_WORDS:
            parts.pop()
        elif len(parts) > 1 and (parts[-2].lower(), last) in _AUX_PAIRS:
            del parts[-2:]
        elif last.endswith(_CONTRACTIONS) and len(last) > 3:
            parts[-1] = parts[-1].strip(" ,:-").rsplit("'", 1)[0]
        else:
            break
    return " ".join(parts).strip(" ,:-")


def _display(name: str) -> str:
    name = " ".join(name.lstrip("@").split())
    return name if any(c.isupper() for c in name) else name.title()


def _is_person(name: str) -> bool:
    parts = name.lstrip("@").split()
    return bool(parts) and len(parts) <= 2 and not any(p.lower() in NOT_NAMES for p in parts)


def _fact(
    category: FactCategory, subject: str, slot: str, value: str, text: str, confidence: float
) -> ExtractedFact:
    return ExtractedFact(
        text=text[:500],
        category=category,
        subject=subject.lower()[:200],
        slot=slot.lower()[:300],
        value=value[:500],
        confidence=round(confidence, 2),
    )


def _cap(confidence: float, sentence: _Sentence, hedge: float = 0.6) -> float:
    """Questions say nothing for sure; hedged statements say it weakly."""
    if sentence.question:
        return min(confidence, 0.4)
    return min(confidence, hedge) if sentence.hedged else confidence


Rule = Callable[[_Sentence, _Msg], ExtractedFact | None]

# --- commitments -----------------------------------------------------------------------

_COMMIT_RE = re.compile(
    r"\bi(?:'ll|\s+will|\s+shall|'m\s+going\s+to|\s+am\s+going\s+to|'m\s+gonna|\s+am\s+gonna"
    r"|\s+promise\s+to|\s+commit\s+to)\s+(?:(?:also|definitely|first|then|still|now|just"
    r"|probably|maybe|likely|hopefully|possibly|quickly|go\s+ahead\s+and)\s+)*"
    r"(?P<action>[^.;!?]+)",
    _I,
)
# Chat drops the subject: "Will have the script ready by tomorrow" is the author's promise.
_BARE_WILL_RE = re.compile(
    r"^(?:(?:ok(?:ay)?|sure|yep|yes|yeah|np|cool)[\s,!.:-]+)*(?:will|gonna|going\s+to)\s+"
    r"(?!(?:be|do|you|we|they|he|she|it|this|that|the|there|i|anyone|someone)\b)"
    r"(?P<action>[^.;!?]+)",
    _I,
)
_VOLUNTEER_RE = re.compile(
    r"\bi\s+(?P<modal>can|could)\s+(?P<action>(?:take|pick\s+up|handle|own|grab|cover|do"
    r"|tackle|fix|review|write|run|look\s+into|take\s+care\s+of)\s+[^.;!?]+)",
    _I,
)
# "I can get the docs written up by Friday": an offer of any work that names its day is a
# promise; without a day, "I can <verb>" promises only the volunteering verbs above.
_DATED_OFFER_RE = re.compile(
    r"\bi\s+can\s+(?!(?:confirm|say|tell|see|hear|report|verify|vouch|attest|guarantee)\b)"
    r"(?P<action>[^.;!?]+)",
    _I,
)
"""(A verb of knowing reports what is so: "I can confirm it went out on Monday".)"""
_ACK_RE = re.compile(
    r"^(?:(?:ok(?:ay)?|sure|yep|yup|yes|yeah|sounds\s+good|got\s+it|np|no\s+problem"
    r"|absolutely|roger|ack)[\s,!.:-]*)*"
    r"(?:will\s+do|(?:i'm\s+|i\s+am\s+)?on\s+it|leave\s+it\s+with\s+me|consider\s+it\s+done"
    r"|i(?:'ve|\s+have)?\s+got\s+(?:it|this))\b[\s,!.:\u2013\u2014-]*(?:i'll\s+|i\s+will\s+"
    r"|will\s+)?"
    r"(?P<rest>.*)$",
    _I,
)
# Run on the lowercased sentence: without IGNORECASE, literals take the regex fast path.
_CUT_RE = re.compile(r"\s*(?:,\s*(?:but|so|though)\b|\s+but\s+|\s+so\s+that\s+|\s+because\s+)")
_FIRST_PERSON = wordset("i me my mine myself we us our ours ourselves i'm i've i'd i'll")
_NEGATED_ACTION_RE = re.compile(r"^(?:not|never|no\s+longer)\b", _I)
_TRY_RE = re.compile(r"^(?:try|attempt|aim|hope|see\s+if|see\s+whether|probably)\b", _I)
_IDLE_RE = re.compile(
    r"^(?:be|see|think|keep|wait|go|head|grab|eat|sleep|rest|need|want|hope|talk|chat|catch"
    r"|miss|love|like|leave|come|stay|remember|forget|get\s+back|let\s+(?:you|them|him|her|us)"
    r"\s+know|take\s+(?:a\s+(?:break|nap|walk|day|rest)|off|it\s+easy)|lunch|dinner|breakfast"
    r"|bed|home|the\s+(?:gym|office|doctor|dentist|airport))\b",
    _I,
)
_LOOK_RE = re.compile(
    r"^(?:look\s+(?:at|into|over)|check|take\s+a\s+look|have\s+a\s+look|dig\s+into|poke\s+at"
    r"|ping|reach\s+out|follow\s+up)\b",
    _I,
)
_WORK_RE = re.compile(
    r"^(?:send|finish|ship|deliver|review|write|draft|prepare|fix|update|deploy|submit|book"
    r"|schedule|email|share|complete|file|merge|release|test|call|contact|pay|order|set\s+up"
    r"|hand\s+over|sign|approve|migrate|publish|present|document|investigate|upload|install"
    r"|configure|renew|cancel|confirm|organi[sz]e|plan|run|build|implement|refactor|add"
    r"|remove|clean\s+up|wrap\s+up|write\s+up|rebase|patch|upgrade|bump|rerun|re-run|open"
    r"|create|push|cut|tag|triage|debug|profile|benchmark|handle|take|own|pick\s+up|cover"
    r"|tackle|do|get|have|finali[sz]e|rewrite|port|rollback|roll\s+back|revert|backport"
    r"|estimate|spec|design|prototype|demo|record|post|announce|coordinate|sync|loop\s+in"
    r"|raise|escalate|draft|polish|resolve|close|land|unblock|provision|rotate|audit)\b",
    _I,
)


def _promise(sentence: _Sentence, msg: _Msg, start: int, base: float) -> ExtractedFact | None:
    """A commitment to the work named from `start` to the end of the clause."""
    if cut := _CUT_RE.search(sentence.lower, start):
        action = sentence.text[start : cut.start()]
    else:
        action = sentence.text[start:]
    start += len(action) - len(action.lstrip(" ,:-\u2013\u2014"))
    action = " ".join(action.strip(" ,:-\u2013\u2014").split()[:20])
    if not action or _NEGATED_ACTION_RE.match(action) or len(words(action)) < 2:
        return None
    end = start + len(action)
    hits = [
        dates.DateHit(h.start - start, h.end - start, h.phrase, h.day, h.relative)
        for h in msg.dates_in(sentence.text)
        if h.start >= start and h.end <= end
    ]
    if _IDLE_RE.match(action):
        confidence = 0.5
    elif _TRY_RE.match(action):
        confidence = 0.6
    elif _LOOK_RE.match(action):
        confidence = 0.86 if hits else 0.7  # "I'll take a look" promises little without a date
    elif _WORK_RE.match(action) or hits:
        confidence = base
    else:
        confidence = 0.8  # an unknown verb may be a plan or a joke ("I'll rock the demo")
    confidence = min(confidence, base)  # "I could look at it tomorrow" stays an offer
    if _CONDITIONAL_RE.search(sentence.lower):
        confidence = min(confidence, 0.7)
    key = _key(action)
    if not key:
        # "I'll do it" promises work named elsewhere; only a date makes it worth keeping.
        key, confidence = words(action)[0], min(confidence, 0.86 if hits else 0.75)
    confidence = _cap(confidence, sentence)
    shown = _annotate(action, hits)
    if _FIRST_PERSON & set(words(shown)):
        shown = third_person(shown)
    return _fact(
        FactCategory.COMMITMENT,
        msg.subject,
        f"commitment:{key}",
        _norm(shown),
        f"{msg.author} will {shown}.",
        confidence,
    )


def _commitment(sentence: _Sentence, msg: _Msg) -> ExtractedFact | None:
    if match := _COMMIT_RE.search(sentence.text):
        return _promise(sentence, msg, match.start("action"), 0.9)
    if match := _BARE_WILL_RE.match(sentence.text):
        return _promise(sentence, msg, match.start("action"), 0.88)
    if match := _VOLUNTEER_RE.search(sentence.text):
        return _promise(
            sentence, msg, match.start("action"), 0.88 if match["modal"] == "can" else 0.65
        )
    if (match := _DATED_OFFER_RE.search(sentence.text)) and _dated(sentence, msg, match):
        return _promise(sentence, msg, match.start("action"), 0.88)
    if match := _ACK_RE.match(sentence.text):
        rest = match["rest"].strip(" .!")
        found = _promise(sentence, msg, match.start("rest"), 0.86) if len(words(rest)) > 1 else None
        if found is not None:
            return found
        # "On it" promises the work asked for elsewhere, which this message does not name.
        return _fact(
            FactCategory.COMMITMENT,
            msg.subject,
            "commitment:ack",
            "will do it",
            f"{msg.author} will do it.",
            _cap(0.75, sentence),
        )
    return None


def _dated(sentence: _Sentence, msg: _Msg, match: re.Match[str]) -> bool:
    """Whether the words after `match`'s start, in its clause, name a day still to come
    ("I can confirm it went out on Monday" reports; it promises nothing)."""
    end = cut.start() if (cut := _CUT_RE.search(sentence.lower, match.start("action"))) else None
    return any(
        h.start >= match.start("action") and h.day >= msg.day
        for h in msg.dates_in(sentence.text[:end])
    )


# --- blockers --------------------------------------------------------------------------

_BLOCKER_RE = re.compile(
    r"\b(?P<kind>blocked\s+(?:on|by)|stuck\s+(?:on|with)|held\s+up\s+(?:on|by)"
    r"|waiting\s+(?:on|for)|blockers?\s*(?::|-|is|are)|(?:can't|cannot|can\s+not|unable\s+to"
    r"|won't\s+be\s+able\s+to)\s+(?:do\s+much|[\w-]+)(?:\s+[\w'-]+){0,6}?\s+(?:until|till"
    r"|without)"
    r"|(?:is|are|'s|'re)\s+(?:still\s+)?stuck\s*[,;:\u2013\u2014-]?\s+(?:(?:i|we)\s+)?"
    r"(?:need|needs|waiting\s+(?:on|for)|until|till)"
    r"|is\s+blocking|are\s+blocking)\s+(?P<by>[^.;!?]+)",
    _I,
)
_BLOCKER_NEG_RE = re.compile(
    r"\b(?:not|no\s+longer|isn't|aren't|wasn't|weren't|never|unblocked|nothing|no"
    r"|anymore|any\s+more|finally|resolved)\b|n't\s+(?:be\s+)?(?:blocked|stuck|waiting)",
    _I,
)
_BY_LEAD_RE = re.compile(r"^(?:waiting\s+(?:on|for)|blocked\s+(?:on|by)|stuck\s+on)\s+", _I)
_NO_BLOCKER_RE = re.compile(
    r"^(?:none|nothing|n/?a|nope|nil|zero)\b|^(?:no(?:\s+blockers?)?|-*)\s*$", _I
)
_ANYMORE_RE = re.compile(r"\b(?:anymore|any\s+more)\b", _I)
_BLOCKER_PAST_RE = re.compile(r"\b(?:was|were|had\s+been)\b", _I)
_SELF_RE = re.compile(r"^(?:i|i'm|i've|we|we're|we've|me|us|team|the\s+team|everyone)$", _I)
_TRANSIENT_RE = re.compile(
    r"^(?:the\s+)?(?:build|ci|tests?|pipeline|job|run|coffee|lunch|food|it|this|that|page)\b"
    r"|\bto\s+(?:finish|complete|run|pass|load|start|end|come\s+back|reply|respond)\b",
    _I,
)


def _blocked_thing(before: str, msg: _Msg) -> str:
    """Who or what the clause before "blocked on" names: "The release is" -> "release"."""
    head = _strip_aux(_last_clause(before))
    if not head or _SELF_RE.match(head):
        return msg.subject
    if issue := _ISSUE_RE.search(head):
        return issue.group(0).lower()
    return _np_before(head).lower() or msg.subject


def _blocker(sentence: _Sentence, msg: _Msg) -> ExtractedFact | None:
    match = _BLOCKER_RE.search(sentence.text)
    if not match:
        return None
    before, kind = sentence.text[: match.start()], " ".join(match["kind"].lower().split())
    if _BLOCKER_NEG_RE.search(before) or _ANYMORE_RE.search(match["by"]):
        return None  # "not blocked anymore" is progress, not a blocker
    by = match["by"]
    if cut := _CUT_RE.search(by.lower()):
        by = by[: cut.start()]
    by = _BY_LEAD_RE.sub("", " ".join(by.split()[:15]).strip(" ,:-"))
    if _NO_BLOCKER_RE.match(by):
        return None  # "Blockers: none"
    if kind.startswith(("can", "unable", "won't")) and msg.dates_in(by[:_DATE_LEAD_CHARS]):
        return None  # "can't come in until Monday" is a schedule, not a blocker
    if kind.endswith("blocking"):
        who, by, kind = _np_after(by).lower() or msg.subject, _np_before(before, 6), "blocked by"
    else:
        who = _blocked_thing(before, msg)
    value = _phrase(by, 15).lower()
    if not value:
        return None
    confidence = 0.85
    if kind.startswith("waiting"):
        confidence = 0.6 if _TRANSIENT_RE.search(by) else 0.78 if kind.endswith("on") else 0.72
    if _BLOCKER_PAST_RE.search(before):
        confidence = min(confidence, 0.5)  # "was blocked on X": probably over by now
    confidence = _cap(confidence, sentence, 0.55)
    shown = msg.author if who == msg.subject else who[:1].upper() + who[1:]
    if kind.startswith("blocker"):
        text = f"Blocker for {shown}: {by}."
    elif kind.startswith(("can", "unable", "won't")):
        text = f"{shown} {kind} {by}."
    elif "stuck" in kind:
        text = f"{shown} is stuck, waiting for {by}."
    else:
        text = f"{shown} is {kind} {by}."
    return _fact(FactCategory.BLOCKER, who, f"blocker:{_key(value)}", value, text, confidence)


# --- handoffs --------------------------------------------------------------------------

_HANDOFF_RES = (
    re.compile(
        rf"(?P<new>\bI\b|{_NAME})(?:'ll|'s|'m|\s+(?:will|is|am|has|have|might|may|can|could"
        r"|should|would|is\s+going\s+to|am\s+going\s+to|wants\s+to|is\s+about\s+to|now))*"
        r"\s+(?:take|taking|takes|took|taken)\s+over\b\s*(?P<rest>[^.;!?]*)",
        _I,
    ),
    re.compile(
        r"\b(?P<verb>hand(?:ing|s|ed)?|pass(?:ing|es|ed)?|reassign(?:ing|s|ed)?)\s+"
        rf"(?:over\s+|off\s+)?(?P<item>[^.;!?]+?)\s+(?:over\s+|off\s+|on\s+)?to\s+"
        rf"(?P<new>\bme\b|{_NAME})(?P<rest>[^.;!?]*)",
        _I,
    ),
    re.compile(
        rf"(?P<new>\bI\b|{_NAME})\s+(?:now\s+owns|owns\s+(?P<item2>[^.;!?]+?)\s+now\b"
        r"|is\s+(?:now\s+)?the\s+(?:new\s+)?owner\s+of|is\s+now\s+responsible\s+for"
        r"|(?:is|am|'s|'m)\s+picking\s+up)\s*(?P<item>[^.;!?]*)",
        _I,
    ),
)
_HANDOFF_NEG_RE = re.compile(r"\b(?:not|never|no\s+longer|isn't|won't|can't|cannot)\b", _I)
_FROM_RE = re.compile(rf"\bfrom\s+(?P<old>{_NAME})", _I)
_REST_TAIL_RE = re.compile(
    r"\s+(?:starting|effective|as\s+of|while|during|for\s+the\s+next|next|this|from\s+now"
    r"|going\s+forward|until|till|on|tomorrow|today)(?![\w-]).*$",
    _I,
)


_NOT_NAME_LEADS = NOT_NAMES | wordset(
    """can could will would should might may did does do is are has have so ok okay maybe
    yes no hey hi also then now today tomorrow ask asked tell told"""
)


def _person_name(raw: str, msg: _Msg) -> str | None:
    """The display name in a captured "new owner", or None when it is not a person."""
    parts = raw.strip().split()
    while parts and parts[0].lower() in _NOT_NAME_LEADS and parts[0].lower() not in ("i", "me"):
        parts.pop(0)  # "Can Sam take over": the question word was captured with the name
    if len(parts) == 1 and parts[0].lower() in ("i", "me"):
        return msg.author
    name = " ".join(parts)
    return _display(name) if name and _is_person(name) else None


_SELF_GIVERS = wordset("i i'll i'm i've just now ok okay so fyi")


def _giver(before: str, msg: _Msg) -> str:
    """Who hands work over in "X is handing off ...": the author when it is "I"."""
    head = _strip_aux(_last_clause(before))
    if not head or head.lower() in _SELF_GIVERS:
        return msg.author
    return _display(head) if _is_person(head) and head[0].isupper() else ""


def _handoff(sentence: _Sentence, msg: _Msg) -> ExtractedFact | None:
    found = next(
        ((i, m) for i, regex in enumerate(_HANDOFF_RES) if (m := regex.search(sentence.text))),
        None,
    )
    if found is None:
        return None
    index, match = found
    if _HANDOFF_NEG_RE.search(sentence.text[: match.end("new")]):
        return None
    new = _person_name(match["new"], msg)
    if new is None:
        return None
    groups = match.groupdict()
    rest = groups.get("rest") or ""
    old_match = _FROM_RE.search(rest)
    old = _display(old_match["old"]) if old_match and _is_person(old_match["old"]) else ""
    if index == 1 and not old and not match["verb"].lower().startswith("reassign"):
        old = _giver(sentence.text[: match.start()], msg)
    item = groups.get("item2") or groups.get("item") or ""
    if not item:
        item = rest[: old_match.start()] if old_match else rest
    item = _np_after(_REST_TAIL_RE.sub("", " " + item.strip()), 6)
    confidence = 0.85
    if not item:
        item, confidence = (f"work from {old}", 0.8) if old else ("handoff", 0.6)
    shown_from = f" from {old}" if old and old != new and not item.endswith(old) else ""
    return _fact(
        FactCategory.HANDOFF,
        item,
        "owner",
        new.lower(),
        f"{new} takes over {item}{shown_from} (per {msg.author}).",
        _cap(confidence, sentence, 0.55),
    )


# --- deadline mentions -----------------------------------------------------------------

_DUE_WORD_RE = re.compile(
    r"\b(?:due|deadline|due\s+date|cutoff|cut-off|freeze|go-live|go\s+live|goes\s+live"
    r"|submission|ship|ships|shipping|release|releases|releasing|launch|launches|launching"
    r"|demo|demos|deliver|delivery|by|until|till|eod|eow|eom)\b"
)
_STRONG_DUE = frozenset(
    {
        "due",
        "deadline",
        "due date",
        "cutoff",
        "cut-off",
        "freeze",
        "submission",
        "eod",
        "eow",
        "eom",
    }
)
_PAST_RE = re.compile(
    r"\b(?:shipped|released|launched|demoed|delivered|was\s+due|were\s+due|went\s+live"
    r"|last|ago|yesterday)\b"
)
_SOFT_DUE_RE = re.compile(r"\b(?:tentative(?:ly)?|targeting|aiming|roughly|around|ish)\b")
_DUE_FOR_RE = re.compile(r"\b(?:deadline|due\s+date|cutoff|cut-off)\s+(?:for|on)\s+(?P<t>.+)", _I)
_DUE_KEY_RE = re.compile(r"\b(?:deadline|due\s+date|cutoff|cut-off|due)\b", _I)
_DUE_VERB_RE = re.compile(
    r"\b(?:ship|release|launch|deliver|finish|complete|submit|send|publish|demo|present|deploy"
    r"|merge|land|have|get|wrap\s+up)(?:s|es|ing|ed)?\s+(?P<t>.+)",
    _I,
)
_DUE_EVENT_VERB_RE = re.compile(r"\b(ship|release|launch|demo|deliver)(?:s|es|ing|ed)?\b", _I)
_EVENT_NOUNS = {
    "ship": "ship date",
    "release": "release",
    "launch": "launch",
    "demo": "demo",
    "deliver": "delivery",
}
# An event noun that stands as the thing due: "the beta launch is Friday", "freeze starts".
_DUE_EVENT_RE = re.compile(
    r"\b(?:launch|release|demo|code\s+freeze|feature\s+freeze|freeze|go-live|cutover|rollout"
    r"|beta|ga|milestone|submission)(?=\s+(?:is|are|was|starts?|begins?|happens?|will|on|by"
    r"|at|moved|got|date|scheduled|set|for|day|next|this)\b|\s*[:=\u2013\u2014-]|\s*$)",
    _I,
)


# What must be done to something by a day: "the template has to be signed off by Monday".
_DUE_PASSIVE_RE = re.compile(
    r"\b(?:has|have|needs?|must|should|is|are)\s+(?:to\s+|got\s+to\s+)?be\s+[a-z]+(?:ed|en)\b",
    _I,
)


def _due_thing(sentence: str, date_at: int) -> str:
    """What a dated sentence says is due: "the Q2 report is due Friday" -> "Q2 report"."""
    if (match := _DUE_FOR_RE.search(sentence)) and (thing := _np_after(match["t"], 5)):
        return thing
    if (match := _DUE_KEY_RE.search(sentence)) and (thing := _np_before(sentence[: match.start()])):
        return thing
    if (match := _DUE_EVENT_RE.search(sentence)) and (thing := _np_before(sentence[: match.end()])):
        return thing
    if (match := _DUE_VERB_RE.search(sentence[:date_at])) and (thing := _np_after(match["t"], 5)):
        return thing
    if (match := _DUE_PASSIVE_RE.search(sentence[:date_at])) and (
        thing := _np_before(sentence[: match.start()])
    ):
        return thing
    if match := _DUE_EVENT_VERB_RE.search(sentence):
        return _EVENT_NOUNS[match[1].lower()]
    return "deadline"


def _deadline(sentence: _Sentence, msg: _Msg) -> ExtractedFact | None:
    hits = msg.dates_in(sentence.text)
    if not hits:
        return None
    found = [" ".join(w.split()) for w in _DUE_WORD_RE.findall(sentence.lower)]
    if not found:
        return None
    strong = any(w in _STRONG_DUE for w in found)
    if _PAST_RE.search(sentence.lower) and not strong:
        return None  # "we shipped on Monday" is news, and the weekday resolves forward
    hit = hits[0]
    lead = " " + sentence.lower[max(0, hit.start - 8) : hit.start]
    if strong:
        confidence = 0.9
    elif any(w not in ("by", "until", "till") for w in found) or lead.endswith(" by "):
        confidence = 0.85
    else:
        confidence = 0.6  # "out until Monday" names a day, not something due
    if _SOFT_DUE_RE.search(sentence.lower):
        confidence = min(confidence, 0.7)
    confidence = _cap(confidence, sentence)
    thing = _due_thing(sentence.text, hit.start)
    iso = hit.day.isoformat()
    shown = "Deadline:" if thing == "deadline" else f"{thing[:1].upper() + thing[1:]} due"
    return _fact(
        FactCategory.DEADLINE_MENTION,
        thing,
        f"due:{_key(thing) or 'deadline'}",
        iso,
        f"{shown} {hit.phrase} ({iso}), mentioned by {msg.author}.",
        confidence,
    )


# --- risk signals ----------------------------------------------------------------------

_RISK_RE = re.compile(
    r"(?P<strong>\bat\s+risk\b|\bin\s+jeopardy\b|\b(?:will|going\s+to|gonna|about\s+to)\s+slip"
    r"|\bslipping\b|\b(?:won't|will\s+not|not\s+going\s+to)\s+make\s+(?!it\s+to\b)(?:it|the"
    r"|our)\b|\bbehind\s+schedule\b|\bred\s+flags?\b)"
    r"|(?P<mid>\b(?:might|may|could|likely\s+to)\s+slip|\b(?:may|might)\s+not\s+make\s+"
    r"(?!it\s+to\b)(?:it|the|our)\b|\bworried\b|\bconcerned\b|\brisky\b"
    r"|\b(?:big|real|serious|major|high)\s+risk\b|\brisk\s+(?:that|of|is|to|for)\b"
    r"|\b(?:we're|we\s+are|i'm|i\s+am|running|fallen|falling|is|are)\s+(?:a\s+bit\s+|way\s+"
    r"|quite\s+|slightly\s+|really\s+|seriously\s+|a\s+little\s+)?behind\b(?!\s+schedule)"
    r"|\bcutting\s+it\s+close\b"
    r"|\b(?:could|might|may|would|will)\s+(?:well\s+|easily\s+|end\s+up\s+)?(?:really\s+)?"
    r"(?P<harm>sink|derail|jeopardi[sz]e|threaten|wreck|ruin|kill|torpedo|scupper|delay|stall"
    r"|lose|miss|push\s+back|knock\s+out|blow\s+up|hold\s+up|cost)\s+(?:us\s+)?(?=\S))"
    r"|(?P<soft>\btight\s+(?P<noun>timeline|deadline|schedule|window|turnaround)\b"
    r"|\b(?P<noun2>timeline|deadline|schedule|timing|budget|runway|window)s?\s+(?:is|are"
    r"|looks?|feels?|seems?"
    r"|'s)\s+(?:\w+\s+)?tight\b|\bconcerns?\b|\bworry\b|\brisks?\b)",
    _I,
)
_RISK_NEG_RE = re.compile(
    r"\bno\s+worries\b|\bnot\s+(?:\w+\s+)?(?:worried|concerned|at\s+risk|a\s+concern|behind"
    r"|risky|a\s+risk|going\s+to\s+slip)|\bdon't\s+worry|\bno\s+(?:real\s+|major\s+|big\s+)?"
    r"(?:concerns?|risks?|red\s+flags?)\b|\blow[-\s]risk|\bnothing\s+to\s+worry"
    r"|\bnever\s+worried|\bno\s+longer\b|\brisk\s+(?:assessment|register|review|matrix)"
    r"|\bconcern(?:s|ed)?\s+(?:is|are|was|were)\s+(?:resolved|addressed|gone)",
    _I,
)
_RISK_HEDGE_RE = re.compile(r"\b(?:maybe|perhaps|i\s+guess|kinda|sort\s+of|not\s+sure)\b")
_RISK_OPEN_END_RE = re.compile(r"\b(?:that|of|to|for|about|on)$", _I)
_RISK_ABOUT_RE = re.compile(r"\b(?:about|for|to|regarding|around|on|that|of)\s+(?P<t>.+)", _I)


def _risk_thing(sentence: str, match: re.Match[str]) -> str:
    """What is at risk: "the Q3 launch is at risk", "worried about the vendor contract",
    "it could sink the pilot"."""
    if match["harm"]:
        return _np_after(sentence[match.end() :].strip(), 5)
    if match["noun2"]:  # "the Q3 budget looks tight"
        return _np_before(sentence[: match.end("noun2")])
    if match["noun"]:  # "a tight timeline"
        return match["noun"].lower()
    before = _strip_aux(_last_clause(sentence[: match.start()]))
    if before and not _SELF_RE.match(before) and (thing := _np_before(before)):
        return thing
    after = sentence[match.end() :].strip()
    if not _RISK_OPEN_END_RE.search(match.group(0)):
        found = _RISK_ABOUT_RE.match(after)
        after = found["t"] if found else ""
    parts = after.split()
    while parts and parts[0].lower() in _DETERMINERS:
        parts.pop(0)
    if len(parts) > 1 and parts[0].lower().endswith("ing"):
        parts.pop(0)  # "at risk of missing the Q2 deadline": the deadline is at risk
    return _np_after(" ".join(parts), 5)


# The modal of a harm inside the condition itself ("if we could lose the flag") asks, it
# does not warn; the harm is the consequence: "if it keeps up it could sink the pilot".
_IN_CONDITION_RE = re.compile(
    r"\b(?:if|whether|unless|wish|hope|so\s+that)\s+[\w'\u2019]+\s+$|\bhow\s+\w+\s+$", _I
)


_COMMON_HARM_RE = re.compile(r"lose|miss|cost|stall|blow\s+up|knock\s+out", _I)


def _risk(sentence: _Sentence, msg: _Msg) -> ExtractedFact | None:
    match = _RISK_RE.search(sentence.text)
    if not match or _RISK_NEG_RE.search(sentence.text):
        return None
    if match["harm"] and _IN_CONDITION_RE.search(sentence.text[: match.start()]):
        return None
    common_harm = match["harm"] and _COMMON_HARM_RE.fullmatch(match["harm"])
    confidence = 0.85 if match["strong"] else 0.75 if match["mid"] else 0.6
    if common_harm and not _CONDITIONAL_RE.search(sentence.lower):
        confidence = 0.65  # "we might miss lunch": everyday loss, unless a condition warns
    if match["soft"] and "tight" in match["soft"].lower():
        confidence = 0.72
    if _RISK_HEDGE_RE.search(sentence.lower):
        confidence -= 0.15  # risk wording is itself hedged ("might slip"), so only these count
    if sentence.question:
        confidence = min(confidence, 0.4)
    thing = _risk_thing(sentence.text, match)
    value = " ".join(sentence.text.split()[:40]).strip(" .")
    key = _key(thing) or _key(value) or "general"
    about = f" about {thing}" if thing else ""
    return _fact(
        FactCategory.RISK_SIGNAL,
        thing or msg.subject,
        f"risk:{key}",
        _norm(value) or value,
        f"Risk flagged by {msg.author}{about}: {sentence_case(value)}",
        confidence,
    )


# --- mood signals ----------------------------------------------------------------------

_MOOD_NEG = {
    "frustrated": 0.8,
    "frustrating": 0.72,
    "burned out": 0.85,
    "burnt out": 0.85,
    "exhausted": 0.85,
    "annoyed": 0.78,
    "annoying": 0.72,
    "fed up": 0.85,
    "sick of": 0.8,
    "sick and tired of": 0.85,
    "tired of": 0.78,
    "stressed": 0.78,
    "stressed out": 0.8,
    "overwhelmed": 0.8,
    "demotivated": 0.8,
    "demoralized": 0.8,
    "furious": 0.85,
    "pissed off": 0.85,
    "so done with": 0.8,
    "at my wits end": 0.85,
    "swamped": 0.78,
    "snowed under": 0.78,
    "drowning": 0.78,
}
_MOOD_VALUE = {
    "frustrating": "frustrated",
    "burnt out": "burned out",
    "annoying": "annoyed",
    "sick of": "fed up",
    "sick and tired of": "fed up",
    "tired of": "fed up",
    "stressed out": "stressed",
    "so done with": "fed up",
    "pissed off": "angry",
    "furious": "angry",
    "at my wits end": "frustrated",
    "swamped": "overwhelmed",
    "snowed under": "overwhelmed",
    "drowning": "overwhelmed",
}
_MOOD_RE = re.compile(
    r"\b(?P<neg>frustrat(?:ed|ing)|burn(?:ed|t)\s+out|exhausted|annoy(?:ed|ing)|fed\s+up"
    r"|sick\s+and\s+tired\s+of|sick\s+of|tired\s+of|stressed(?:\s+out)?|overwhelmed"
    r"|demotivated|demoralized|furious|pissed\s+off|so\s+done\s+with|at\s+my\s+wits'?\s+end"
    r"|swamped|snowed\s+under|drowning)\b"
    r"|\b(?P<praise>(?:great|nice|good|awesome|amazing|excellent|fantastic|stellar)\s+"
    r"(?:job|work)|nice\s+one|well\s+done|kudos|shout-?out|nailed\s+it|congrat(?:s|ulations)"
    r"|(?:thanks|thank\s+you)\s+(?:so|very)\s+much|huge\s+thanks|many\s+thanks"
    r"|thanks\s+a\s+(?:ton|lot|million)|really\s+appreciate|much\s+appreciated|proud\s+of)\b"
    r"|\b(?P<joy>thrilled|delighted|excited|stoked)\b",
    _I,
)
_MOOD_NEGATED_RE = re.compile(
    r"\b(?:not|never|no\s+longer|don't|isn't|aren't|wasn't|nothing)\s+(?:\w+\s+){0,2}$"
    r"|n't\s+(?:\w+\s+){0,2}$",
    _I,
)
_TECHNICAL_RE = re.compile(
    r"\b(?:pool|retries|retry|quota|memory|connections?|budget|limits?|resources?|tokens?"
    r"|credits?|attempts|disk|space|capacity)\s+(?:\w+\s+){0,2}exhausted|exhausted\s+(?:the"
    r"|all|our|its|their|every)\b",
    _I,
)
_MILD_RE = re.compile(r"\b(?:a\s+bit|a\s+little|slightly|kinda|kind\s+of|somewhat|mildly)\s+$", _I)
_TEAM = frozenset({"everyone", "team", "all", "folks", "guys", "y'all", "yall", "everybody"})
_PRAISED_AFTER_RE = re.compile(
    rf"^[\s,!:-]*(?:to\s+|for\s+)?(?:the\s+)?(?P<who>{_NAME}|everyone|everybody|team|all"
    r"|folks|guys|y'?all)(?=[\s,!.:)]|$)",
    _I,
)
_PRAISED_END_RE = re.compile(rf",\s*(?P<who>{_NAME}|everyone|team|all|folks)[\s!.]*$", _I)
_PRAISED_BEFORE_RE = re.compile(
    rf"(?:^|\s)(?P<who>{_NAME})(?:\s*(?P<sep>[,:-])|\s+(?P<verb>did|does|is\s+doing|has\s+done"
    r"|'s\s+doing|'s\s+done)(?:\s+(?:a|an|such\s+a|really|absolutely|truly))*)?\s*$",
    _I,
)
_INTERJECTIONS = wordset("wow omg honestly seriously really ok okay yes yay woo hey hi so and")


def _praised(sentence: str, match: re.Match[str]) -> str | None:
    """Whom praise is for: "great job Sam", "Sam, great job", "kudos to @maria"."""
    rest = sentence[match.end() :]
    before = _PRAISED_BEFORE_RE.search(sentence[: match.start()])
    if before and not (before["sep"] or before["verb"] or match.group(0).lower() == "nailed it"):
        before = None  # "Wow great job": "Sam, great job" or "Sam did a great job" name Sam
    for found in (_PRAISED_AFTER_RE.match(rest), _PRAISED_END_RE.search(rest), before):
        if not found:
            continue
        name = found["who"].lstrip("@")
        if name.lower() in _TEAM:
            return "team"
        if _is_person(name) and name.split()[0].lower() not in _INTERJECTIONS:
            return _display(name)
    return None


def _mood_of(match: re.Match[str], sentence: _Sentence, msg: _Msg) -> ExtractedFact | None:
    lead = sentence.text[max(0, match.start() - 40) : match.start()]
    if _MOOD_NEGATED_RE.search(lead):
        return None
    word = " ".join(match.group(0).lower().replace("'", "").split())
    subject, shown = msg.subject, msg.author
    if match["neg"]:
        if word == "exhausted" and _TECHNICAL_RE.search(sentence.text):
            return None  # "the connection pool is exhausted"
        word = "burned out" if word == "burnt out" else word
        confidence, value = _MOOD_NEG.get(word, 0.75), _MOOD_VALUE.get(word, word)
    elif match["joy"]:
        confidence, value = 0.8, "positive"
    else:
        value = "positive"
        praised = _praised(sentence.text, match)
        # Praise or thanks that names nobody is about something said elsewhere.
        confidence = 0.6 if praised is None else 0.8 if word[0] in "tmhr" else 0.85
        if praised is not None:
            subject, shown = praised.lower(), praised
    if _MILD_RE.search(lead):
        confidence -= 0.1
    confidence = _cap(confidence, sentence, 0.55)
    text = (
        f"{msg.author} praised {shown}." if subject != msg.subject else f"{shown} sounds {value}."
    )
    return _fact(FactCategory.MOOD_SIGNAL, subject, "mood", value, text, confidence)


def _mood(sentence: _Sentence, msg: _Msg) -> ExtractedFact | None:
    best = None
    for match in _MOOD_RE.finditer(sentence.text):
        found = _mood_of(match, sentence, msg)
        if found is not None and (best is None or found.confidence > best.confidence):
            best = found
    return best


# --- status updates --------------------------------------------------------------------

_STATUS_RE = re.compile(
    r"\b(?P<w>done|merged|deployed|shipped|released|finished|fixed|completed|landed|resolved"
    r"|closed|rolled\s+back|reverted|in\s+progress|wip|started\s+(?:working\s+)?on"
    r"|working\s+on|pr\s+(?:is\s+)?(?:now\s+)?up|opened\s+a\s+pr|put\s+up\s+a\s+pr"
    r"|(?:is|are|now|went)\s+live|unblocked|in\s+review|up\s+for\s+review)\b",
    _I,
)
_STATUS_VALUE = {
    "done": "done",
    "finished": "done",
    "completed": "done",
    "landed": "merged",
    "reverted": "rolled back",
    "wip": "in progress",
    "working on": "in progress",
    "started on": "in progress",
    "started working on": "in progress",
    "up for review": "in review",
    "opened a pr": "in review",
    "put up a pr": "in review",
    "pr is up": "in review",
    "pr up": "in review",
    "pr is now up": "in review",
    "pr now up": "in review",
}
_STATUS_SKIP_RE = re.compile(
    r"\bwell\s+done\b|\bdone\s+(?:for\s+(?:the\s+day|today|the\s+week|now)|with\s+(?:lunch"
    r"|my\s+day))\b|\bget\s+(?:it|this|that)\s+done\b|\bso\s+done\s+with\b|\b(?:store|office"
    r"|shop)s?\s+(?:is|are)\s+closed\b",
)
_FUTURE_RE = re.compile(
    r"\b(?:will|'ll|going\s+to|gonna|should|once|when|if|until|after|before|need(?:s)?\s+to"
    r"|has\s+to|have\s+to|to\s+be|must|can|could|would|might|may|hope|hopefully|expect"
    r"|plan\s+to|want\s+to|almost|nearly|soon)\b",
    _I,
)
_STATUS_NEG_RE = re.compile(
    r"\b(?:not|never|isn't|aren't|wasn't|weren't|haven't|hasn't|didn't|no)\b(?:\s+\w+){0,3}\s*$",
    _I,
)
_STATUS_LEAD_RE = re.compile(
    r"^(?:i|we|i've|we've|i\s+have|we\s+have|just|finally|also|and|all|it|it's|that|this"
    r"|is|are|was|were|has\s+been|have\s+been|been|now|got|get|the|a|an|my|our)\b",
    _I,
)


def _status_item(before: str, after: str, word: str) -> str:
    """The thing whose status changed: before the word ("the fix is merged") or after it."""
    head = _strip_aux(_last_clause(before))
    while (lead := _STATUS_LEAD_RE.match(head)) and lead.end():
        head = head[lead.end() :].strip()
    if thing := _np_before(head, 5):
        return thing
    return _np_after(after) if word not in ("done", "finished", "completed") else ""


def _status(sentence: _Sentence, msg: _Msg) -> ExtractedFact | None:
    if _STATUS_SKIP_RE.search(sentence.lower):
        return None
    match = _STATUS_RE.search(sentence.text)
    if not match:
        return None
    word = " ".join(match["w"].lower().split())
    value = _STATUS_VALUE.get(word, word)
    value = "live" if value.endswith(" live") else value
    before, after = sentence.text[: match.start()], sentence.text[match.end() :]
    issue = _ISSUE_RE.search(sentence.text)
    if word == "closed" and not issue:
        return None  # offices and stores close too; a closed ticket names its key
    if _STATUS_NEG_RE.search(before):
        value, confidence = f"not {value}", 0.6
    elif _FUTURE_RE.search(before):
        return None  # "will be deployed tomorrow" is a plan, not news
    else:
        confidence = 0.85
    if issue:
        subject, slot = issue.group(0).lower(), "status"
        text = f"{issue.group(0)} is {value} (per {msg.author})."
    else:
        item = _status_item(before, after, word)
        if not item:
            # "Done!" or "merged" alone refers to something said elsewhere.
            subject, slot, confidence = msg.subject, "status:update", min(confidence, 0.45)
            text = f"{msg.author}: {value}."
        else:
            subject, slot = msg.subject, f"status:{_key(item) or 'update'}"
            confidence = min(confidence, 0.75)
            text = f"{msg.author}: {item} is {value}."
    if value == "in progress":
        confidence = min(confidence, 0.7 if issue else 0.6)
    return _fact(
        FactCategory.STATUS_UPDATE, subject, slot, value, text, _cap(confidence, sentence, 0.45)
    )


# --- references ------------------------------------------------------------------------

_TITLE_LEAD_RE = re.compile(
    r"^(?:(?:here's|here\s+is|here\s+are|see|check\s+out|fyi|link\s+to|link|the|this|our|my"
    r"|a|an|new|updated|latest)\b[\s:,-]*)+",
    _I,
)


_TITLE_CUT_RE = re.compile(r"[.:!?;\n]\s")


def _link_title(text: str, start: int) -> str:
    """The words a cleaned Slack link was written as: "design doc (https://...)"."""
    if start == 0 or text[start - 1] != "(":
        return ""
    head = _TITLE_CUT_RE.split(text[max(0, start - 120) : start - 1])[-1]
    title = _TITLE_LEAD_RE.sub("", head.strip())
    return " ".join(title.split()[-8:]).strip(" ,:-")


def _references(text: str, msg: _Msg) -> list[ExtractedFact]:
    out: list[ExtractedFact] = []
    seen: set[str] = set()
    for match in _URL_RE.finditer(text):
        url = match.group(0).rstrip(_URL_TAIL)[:_MAX_URL_CHARS]
        if url in seen:
            continue
        try:
            host = (urlsplit(url).hostname or "").lower()
        except ValueError:  # a malformed port or IPv6 literal
            continue
        if not host:
            continue
        seen.add(url)
        title = _link_title(text, match.start())
        shown = f"Link shared by {msg.author}: {url}" + (f" ({title})" if title else "")
        out.append(_fact(FactCategory.REFERENCE, host, f"ref:{url}", url, shown, 0.8))
        if len(out) == _MAX_REFS:
            break
    return out


# --- the entry point -------------------------------------------------------------------

_RULES: tuple[tuple[FactCategory, Rule], ...] = (
    (FactCategory.COMMITMENT, _commitment),
    (FactCategory.BLOCKER, _blocker),
    (FactCategory.HANDOFF, _handoff),
    (FactCategory.DEADLINE_MENTION, _deadline),
    (FactCategory.RISK_SIGNAL, _risk),
    (FactCategory.MOOD_SIGNAL, _mood),
    (FactCategory.STATUS_UPDATE, _status),
)


def _woken(lower: str) -> set[FactCategory]:
    """The categories whose cue words occur in a lowercased sentence."""
    woken: set[FactCategory] = set()
    for match in _TRIGGER_RE.finditer(lower):
        cue = match.group(0)
        if cue not in _CUES:
            cue = _CUE_SPACE_RE.sub(" ", cue).replace("\u2019", "'")
        woken |= _CUES.get(cue, frozenset())
    return woken


def _sentences(text: str) -> list[tuple[_Sentence, set[FactCategory]]]:
    out = []
    for raw in _SENTENCE_RE.split(text):
        raw = raw.strip(" -*>\u2022")
        if not raw or len(raw) > _MAX_SENTENCE_CHARS:
            continue
        lower = raw.lower()
        if len(lower) != len(raw):  # "İ" lowers to two characters; keep offsets aligned
            lower = "".join(c.lower() if len(c.lower()) == 1 else c for c in raw)
        if woken := _woken(lower):
            question = "?" in raw or bool(_QUESTION_RE.match(raw))
            out.append((_Sentence(raw, lower, question), woken))
    return out


def _valid_unicode(text: str) -> str:
    """`text` with surrogate halves paired up or replaced: JSON exports can carry lone ones,
    which no stored string may hold."""
    if text.isascii():
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def observe(text: str, author: str, at: datetime) -> list[ExtractedFact]:
    """Observations in one team message by `author`, written at `at`.

    Relative dates ("Friday", "tomorrow") resolve against `at`. At most one observation per
    category, the surest, plus one reference per distinct URL; only the first MAX_CHARS
    characters are read."""
    if not text:
        return []
    text = text[:MAX_CHARS]
    if not _TRIGGER_RE.search(text.lower()):
        return []
    text = clean(_valid_unicode(text), MAX_CHARS)  # also straightens curly apostrophes
    name = _display(_valid_unicode(author)[:200]) or "Someone"
    msg = _Msg(name, name.lower(), at, dates.base_day(at))
    best: dict[FactCategory, ExtractedFact] = {}
    for sentence, woken in _sentences(text):
        for category, rule in _RULES:
            held = best.get(category)
            if category not in woken or (held is not None and held.confidence >= 0.85):
                continue  # one observation per category; a sure one is not replaced
            found = rule(sentence, msg)
            if found is not None and (held is None or found.confidence > held.confidence):
                best[category] = found
    return [*best.values(), *(_references(text, msg) if "http" in text.lower() else [])]
