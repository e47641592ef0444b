"""summarize_session: an extractive, salience-ranked digest of some turns.

Decisions, blockers, concerns, deadlines and pending actions rank first; questions (with
or without their mark, requests to the assistant among them) and small talk last.
Sentences that are plain facts rank low, since the engine pins facts on their own. The
chosen sentences come out as bullet lines in the order they were said.

Text that opens with a speaker's label ("hamza: …", as Slack messages and transcripts
arrive) keeps that label on every sentence taken from it, and small talk is recognised
behind it: "Caroline: Hey Mel!" is a greeting, not news.
"""

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from threefold import dates
from threefold.models.base import SessionDigest, TurnInput
from threefold.models.heuristic.blocks import OPEN_PREFIX
from threefold.models.heuristic.extract import states_fact
from threefold.models.heuristic.text import (
    MAX_SIDE_CHARS,
    content_words,
    coverage,
    jaccard,
    sentences,
    wordset,
)
from threefold.tokens import count_tokens, truncate_to_tokens

_I = re.IGNORECASE
_DECISION_RE = re.compile(
    r"\b(?:decided|decision|agreed|agree\s+on|chose|going\s+with|go\s+with|settled\s+on|opted"
    r"|approved|signed\s+off|we'll\s+use|will\s+use|switch(?:ing|ed)?\s+to)\b",
    _I,
)
_CONCERN_RE = re.compile(
    r"\b(?:block(?:ed|er|ers|ing)?|stuck|waiting\s+(?:on|for)|risks?|risky|concern(?:s|ed)?"
    r"|worr(?:y|ied|ies)|issues?|problems?|fail(?:s|ed|ing|ure)?|broken|bugs?|outage|incident"
    r"|delay(?:s|ed)?|slipp(?:ing|ed)|behind\s+schedule|urgent|critical"
    r"|escalat\w*|crash\w*|regression)\b",
    _I,
)
_OPEN_CONCERN_RE = re.compile(
    r"\b(?:block(?:ed|er|ers|ing)?|stuck|waiting\s+(?:on|for)|risks?|risky|concern(?:s|ed)?"
    r"|worr(?:y|ied|ies)|fail(?:s|ed|ing|ure)?|broken|bugs?|outage|incident|delay(?:s|ed)?"
    r"|slipp(?:ing|ed)|behind\s+schedule|regression|crash\w*|unsigned|missing|overdue)\b",
    _I,
)
_ACTION_RE = re.compile(
    r"\b(?:todo|to-do|action\s+items?|follow[- ]up|next\s+steps?|needs?\s+to|have\s+to|has\s+to"
    r"|must|pending|still\s+need|don't\s+forget|make\s+sure|remind\s+me|i'll|we'll|i\s+will"
    r"|we\s+will|going\s+to|assign(?:ed)?\s+to)\b",
    _I,
)
_TIMING_RE = re.compile(
    r"\b(?:deadline|due|launch\w*|releas\w*|ship\w*|milestone|go-live|cutoff)\b", _I
)
_RESOLVED_RE = re.compile(
    r"\b(?:resolved|fixed|unblocked|closed|no\s+longer|not\s+blocked|sorted\s+out|works\s+now"
    r"|is\s+done|are\s+done)\b",
    _I,
)
_CHITCHAT_RE = re.compile(
    r"^(?:thanks|thank\s+you|thx|hi|hello|hey|ok|okay|sure|great|cool|lol|haha|sounds\s+good"
    r"|got\s+it|nice|awesome|perfect|bye|good\s+(?:morning|night|evening|afternoon)"
    r"|you're\s+welcome|no\s+problem|np|yes|yeah|yep|no|nope|alright|understood|noted"
    r"|of\s+course|happy\s+to\s+help|glad\s+(?:to|i)|let\s+me\s+know)\b",
    _I,
)
_SPEAKER_LABEL_RE = re.compile(
    r"^([^\W\d][\w.'’-]*(?: [^\W\d][\w.'’-]*){0,2}(?: \(in thread\))?):[ \t]+(?=\S)"
)
"""One to three words and a colon: "Caroline: ", "Jane Doe: ", "hamza (in thread): "."""
_NOT_SPEAKERS = wordset(
    """note notes nb ps fyi re fwd edit update todo done next tldr q a question answer
    summary agenda status result results reason example step goal subject context info tip
    warning error caution important reminder decision action problem issue bug fix risk
    blocker deadline"""
)
"""Labels that head a statement, not a speaker: "Error: the build failed. Retrying." must
not put "Error:" before "Retrying."."""
_ROLE_LABELS = wordset("assistant user system ai bot human")
"""Transcript labels that name a role, not a person: boilerplate, never content."""
_MIN_CONTENT_WORDS = 2
"""Fewer content words than this is a fragment ("(take 2)", "ok then"), never a line."""
_RECORD_ITEMS = 5
"""Key facts, decisions and open questions kept in a session's record."""
_MIN_SCORE = -2
_ANSWER_WINDOW = 30
"""Sentences after a question that may answer it: answers come soon, and a long batch
must not compare every question with everything after it."""
_ASKS_FOR_HELP_RE = re.compile(r"(?:can|could|would|will)\s+you\b", _I)
_ASKS_RE = re.compile(
    r"(?:how|what(?!\s+an?\b)|what's|whats|why|which|is|are|does|do|did|should|shall"
    rf"|{_ASKS_FOR_HELP_RE.pattern}|recommend|suggest|explain|write|draft|translate"
    r"|summari[sz]e|give\s+me|tell\s+me|show\s+me|help\s+me)\b",
    _I,
)
"""How a question or a request opens, with or without its question mark ("what a day" is
neither)."""
_REQUEST_RE = re.compile(
    r"\b(?:need|want|help|please|let's|can\s+you|could\s+you|how|what|why|plan|should)\b", _I
)
_DETAIL_RE = re.compile(r"\d|\b[A-Z][a-z]+\b")
_MAX_LINE_TOKENS = 60
_TOTAL_CHARS = 100_000  # what one summary reads across all its turns, to bound its time
_TYPICAL_LINE_TOKENS = 15
_SHORTLIST_FACTOR = 4


@dataclass(frozen=True)
class Signals:
    decision: bool
    concern: bool
    action: bool
    timing: bool
    resolved: bool
    question: bool
    chitchat: bool


# Salience and the open-item test both read a sentence's signals.
@lru_cache(maxsize=8192)
def signals(text: str) -> Signals:
    return Signals(
        decision=bool(_DECISION_RE.search(text)),
        concern=bool(_CONCERN_RE.search(text)),
        action=bool(_ACTION_RE.search(text)),
        timing=bool(_TIMING_RE.search(text) or dates.names_a_day_ahead(text)),
        resolved=bool(_RESOLVED_RE.search(text)),
        question=text.rstrip().endswith("?"),
        chitchat=_is_chitchat(_speaker_label(text)[1]),
    )


def _is_chitchat(text: str) -> bool:
    return bool(_CHITCHAT_RE.match(text)) and len(content_words(text)) < 5


def _speaker_label(text: str) -> tuple[str, str]:
    """The label `text` opens with ("" if none) and the text after it."""
    found = _SPEAKER_LABEL_RE.match(text)
    if found is None or found.group(1).lower() in _NOT_SPEAKERS:
        return "", text
    if found.group(1).lower() in _ROLE_LABELS:
        return "", text[found.end() :]
    return found.group(1), text[found.end() :]


def salience(text: str) -> float:
    """How much a sentence is worth keeping; higher is more. A question counts as one
    without its question mark, and so does a request to the assistant: "how much water
    should I drink a day", "can you give me a recipe for tonight" are no news of the
    user's, and in a chat with an assistant they would fill the summary."""
    sig = signals(text)
    size = len(content_words(text))
    score = min(size, 12) * 0.25 + (0.5 if _DETAIL_RE.search(text[1:]) else 0.0)
    score += 4 * sig.decision + 4 * (sig.concern and not sig.resolved) + 3 * sig.timing
    score += 3 * sig.action + 1 * sig.resolved
    asks = sig.question or bool(_ASKS_RE.match(_speaker_label(text)[1]))
    score -= 5 * asks + 6 * sig.chitchat + (2 if size < 3 else 0)
    return score - (2 if len(text.split()) > 60 else 0)


def is_open_item(text: str, speaker: str = "user") -> bool:
    """The user's concerns, blockers and pending actions that nothing in it resolves.

    The assistant's sentences never open items: "I'll explain" is no pending action, and
    its warnings stay in the summary as ordinary lines."""
    if speaker != "user":
        return False
    sig = signals(text)
    if sig.question or sig.chitchat or sig.resolved:
        return False
    return bool(_OPEN_CONCERN_RE.search(text)) or sig.action


@dataclass(frozen=True)
class _Candidate:
    order: tuple[int, int]
    line: str
    words: frozenset[str]
    score: float
    open: bool
    fact: bool
    """States a fact, which the engine pins on its own."""


@dataclass(frozen=True)
class _Sentence:
    order: tuple[int, int]
    text: str
    """The sentence as said, without its speaker's label."""
    line: str
    """The sentence under its speaker's label, if the text had one."""
    speaker: str
    turn: TurnInput
    score: float


def _sides(turn: TurnInput) -> Iterator[tuple[str, str, str]]:
    """Each side's role, the name it is told under and what it said. A label the text
    opens with names its writer (a Slack line); else the turn's speaker does, so that a
    summary of two people talking says who said what."""
    for role, text, name in (
        ("user", turn.user, turn.speaker),
        ("assistant", turn.assistant, turn.assistant_speaker),
    ):
        label, said = _speaker_label(text)
        yield role, label or name or "", said


def _names(turns: Sequence[TurnInput]) -> frozenset[str]:
    """The words of the speakers' names: said to someone ("Wow, Caroline!") they are an
    address, not content."""
    named = {name for turn in turns for _, name, _ in _sides(turn) if name}
    return frozenset(word for name in named for word in content_words(name))


def _sentences_of(
    turn: TurnInput, index: int, limit: int, names: frozenset[str]
) -> list[_Sentence]:
    """Every sentence worth considering, with its cheap salience score."""
    out = []
    for speaker, label, said in _sides(turn):
        for position, sentence in enumerate(sentences(said, limit)):
            # A token is at least one character, so short sentences need no counting.
            if len(sentence) > _MAX_LINE_TOKENS and count_tokens(sentence) > _MAX_LINE_TOKENS:
                sentence = truncate_to_tokens(sentence, _MAX_LINE_TOKENS)
            if len(content_words(sentence) - names) < _MIN_CONTENT_WORDS:
                continue
            line = f"{label}: {sentence}" if label else sentence
            # An assistant's words matter less than the user's: they explain, not decide.
            # A named second person (a chat between two people) counts as much as the first.
            score = salience(line) - (1.5 if speaker == "assistant" and not label else 0)
            order = (index, position + (100_000 if speaker == "assistant" else 0))
            out.append(_Sentence(order, sentence, line, speaker, turn, score))
    return out


def _candidate(sentence: _Sentence) -> _Candidate:
    score = sentence.score
    fact = states_fact(sentence.text, sentence.turn, sentence.speaker)
    if fact:
        score -= 3
    # The assistant's sentences are told like everyone's: a role label says nothing.
    line = dates.annotate(sentence.line, sentence.turn.at)
    is_open = is_open_item(sentence.line, sentence.speaker)
    return _Candidate(sentence.order, line, content_words(sentence.text), score, is_open, fact)


def _shortlist(found: list[_Sentence], target_tokens: int) -> list[_Sentence]:
    """The sentences worth a closer look: all of a short session; of a long batch (a few
    hundred Slack messages), the most salient few times what can fit, plus every one that
    may be an open item, which a summary must not lose."""
    room = _SHORTLIST_FACTOR * max(1, target_tokens // _TYPICAL_LINE_TOKENS)
    if len(found) <= room:
        return found
    best = set(sorted(range(len(found)), key=lambda i: -found[i].score)[:room])
    return [s for i, s in enumerate(found) if i in best or is_open_item(s.line, s.speaker)]


def _render(chosen: list[_Candidate]) -> str:
    lines = sorted(chosen, key=lambda c: c.order)
    return "\n".join(f"{OPEN_PREFIX}{c.line}" if c.open else f"- {c.line}" for c in lines)


def _select(candidates: list[_Candidate], target_tokens: int) -> list[_Candidate]:
    """The best candidates that fit, open items favoured, near-duplicates skipped."""
    ranked = sorted(candidates, key=lambda c: (-(c.score + 2 * c.open), c.order))
    chosen: list[_Candidate] = []
    used = 0
    for candidate in ranked:
        if any(jaccard(candidate.words, c.words) >= 0.7 for c in chosen):
            continue
        cost = count_tokens(candidate.line) + 4  # bullet, marker and newline
        if used + cost <= target_tokens:
            chosen.append(candidate)
            used += cost
    while chosen and count_tokens(_render(chosen)) > target_tokens:
        chosen.remove(min(chosen, key=lambda c: (not c.open, c.score)))
    return chosen


def summarize_session(turns: Sequence[TurnInput], target_tokens: int) -> SessionDigest:
    if target_tokens <= 0 or not turns:
        return SessionDigest(text="")
    limit = max(300, min(MAX_SIDE_CHARS, _TOTAL_CHARS // len(turns)))
    names = _names(turns)
    found = [s for i, turn in enumerate(turns) for s in _sentences_of(turn, i, limit, names)]
    # Small talk and bare questions never make a summary line; the record reads them.
    worth = [s for s in found if s.score >= _MIN_SCORE]
    candidates = [_candidate(s) for s in _shortlist(worth, target_tokens)]
    chosen = sorted(_select(candidates, target_tokens), key=lambda c: c.order)
    return SessionDigest(
        text=_render(chosen),
        open_items=tuple(c.line for c in chosen if c.open),
        intent=_intent(found),
        key_facts=tuple(c.line for c in chosen if c.fact)[:_RECORD_ITEMS],
        decisions=tuple(c.line for c in candidates if signals(c.line).decision)[:_RECORD_ITEMS],
        open_questions=_open_questions(found),
    )


def _intent(found: list[_Sentence]) -> str:
    """The first request the user made, else their first sentence of substance."""
    said = [s for s in found if s.speaker == "user" and not signals(s.line).chitchat]
    asked = next((s for s in said if _REQUEST_RE.search(s.text)), None)
    chosen = asked or (said[0] if said else None)
    return truncate_to_tokens(chosen.line, _MAX_LINE_TOKENS // 2) if chosen else ""


def _open_questions(found: list[_Sentence]) -> tuple[str, ...]:
    """The user's questions that nothing said soon after them answers: most of a
    question's words come back in its answer."""
    ordered = sorted(found, key=lambda s: s.order)
    unanswered = []
    for i, sentence in enumerate(ordered):
        if sentence.speaker != "user" or not signals(sentence.line).question:
            continue
        if _ASKS_FOR_HELP_RE.match(sentence.text):
            continue  # "Can you help me plan X?" is the session's intent, not missing data
        asked = content_words(sentence.text)
        later = ordered[i + 1 : i + 1 + _ANSWER_WINDOW]
        if not any(coverage(asked, content_words(s.text)) >= 0.5 for s in later):
            unanswered.append(sentence.line)
    return tuple(unanswered[-_RECORD_ITEMS:])
