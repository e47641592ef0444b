"""route and reconcile: picking a stream for a message, and fitting a new fact in."""

import re
from collections.abc import Sequence
from functools import lru_cache

from threefold.domain import GLOBAL_STREAM
from threefold.models.base import (
    ExtractedFact,
    KnownFact,
    ReconcileAction,
    ReconcileDecision,
    RouteDecision,
)
from threefold.models.heuristic.text import NEGATION_RE, content_words, coverage, jaccard

# Words too generic to tie a message to a stream named e.g. 'project:the-app'.
_GENERIC = frozenset({"the", "app", "project", "team", "and", "for", "new", "main", "web"})
_SHORTEST_NAME = 3
"""An id shorter than this ('el', 'qa') is a common word or a tracker key, not a name
someone writes when they mean the project; keys route as KEY-123 before the model."""


def _mentions(text: str, phrase: str) -> int:
    if not phrase:
        return 0
    pattern = r"(?<![\w])" + r"[\s_./-]?".join(map(re.escape, phrase.split())) + r"(?![\w])"
    return len(re.findall(pattern, text, re.IGNORECASE))


def _score(text: str, stream: str) -> tuple[int, int]:
    """(mentions of the whole id, mentions of its distinctive words)."""
    ident = stream.split(":", 1)[-1].lower()
    parts = [p for p in re.split(r"[-_./@+\s]+", ident) if len(p) >= 3 and not p.isdigit()]
    spelled = " ".join(re.split(r"[-_./@+\s]+", ident))
    whole = _mentions(text, spelled) if len(spelled) >= _SHORTEST_NAME else 0
    words = sum(_mentions(text, p) for p in parts if p not in _GENERIC) if len(parts) > 1 else 0
    return whole, words


@lru_cache(maxsize=64)
def _any_word(streams: tuple[str, ...]) -> re.Pattern[str]:
    """Every word of every stream id in one pattern: most messages name none of them, and
    one search says so."""
    words: set[str] = set()
    for stream in streams:
        if stream != GLOBAL_STREAM:
            parts = [w for w in re.split(r"[-_./@+\s]+", stream.split(":", 1)[-1].lower()) if w]
            # "the-app" may be written "theapp"
            words.update(w for w in (*parts, "".join(parts)) if len(w) >= _SHORTEST_NAME)
    choices = "|".join(map(re.escape, sorted(words, key=len, reverse=True))) or "(?!)"
    return re.compile(rf"(?<![\w])(?:{choices})(?![\w])", re.IGNORECASE)


def route(text: str, streams: Sequence[str]) -> RouteDecision:
    text = text[:20_000]
    if not _any_word(tuple(streams)).search(text):
        return RouteDecision(stream=GLOBAL_STREAM, confidence=0.2, reason="no stream named")
    counts = [(_score(text, s), s) for s in streams if s != GLOBAL_STREAM]
    scored = [(whole * 2 + words, whole, s) for (whole, words), s in counts if whole or words]
    if not scored:
        return RouteDecision(stream=GLOBAL_STREAM, confidence=0.2, reason="no stream named")
    scored.sort(key=lambda item: -item[0])  # stable: equal scores keep the caller's order
    best, whole, stream = scored[0]
    tied = len(scored) > 1 and scored[1][0] == best
    confidence = round((0.9 if whole else 0.6) - (0.3 if tied else 0.0), 2)
    how = "its id" if whole else "words of its id"
    return RouteDecision(stream=stream, confidence=confidence, reason=f"the text names {how}")


# --- reconcile -------------------------------------------------------------------------


def _norm(value: str) -> str:
    value = re.sub(r"^(?:the|a|an)\s+", "", value.strip().lower())
    return re.sub(r"[^\w@.+-]+", " ", value).strip()


def reconcile(new: ExtractedFact, similar: Sequence[KnownFact]) -> ReconcileDecision:
    key = (new.subject.lower(), new.slot.lower())
    same_slot = [f for f in similar if (f.subject.lower(), f.slot.lower()) == key]
    for fact in same_slot:
        if _norm(fact.value) == _norm(new.value):
            return ReconcileDecision(
                action=ReconcileAction.NONE, target_id=fact.id, reason="already known"
            )
    if same_slot:
        holder = max(same_slot, key=lambda f: (f.confidence, f.id))
        if new.confidence >= holder.confidence:
            return ReconcileDecision(
                action=ReconcileAction.SUPERSEDE, target_id=holder.id, reason="new value"
            )
        return ReconcileDecision(
            action=ReconcileAction.NONE, target_id=holder.id, reason="outranked by holder"
        )
    return _by_text(new, similar)


def _by_text(new: ExtractedFact, similar: Sequence[KnownFact]) -> ReconcileDecision:
    """Different slots but nearly the same words: keep the more specific statement."""
    words = content_words(new.text)
    best = max(similar, key=lambda f: (jaccard(words, content_words(f.text)), f.id), default=None)
    if best is not None:
        old = content_words(best.text)
        overlap = jaccard(words, old)
        # The new text says all the old one did and more: it is the better version, unless
        # the more is a denial ("It is not true that the user is allergic to nuts").
        denies = NEGATION_RE.search(new.text) is not None
        if denies != (NEGATION_RE.search(best.text) is not None):
            return ReconcileDecision(action=ReconcileAction.ADD, reason="says the opposite")
        if overlap >= 0.5 and coverage(old, words) >= 0.9 and len(words) > len(old):
            return ReconcileDecision(
                action=ReconcileAction.UPDATE, target_id=best.id, reason="more specific"
            )
        if overlap >= 0.95:
            return ReconcileDecision(
                action=ReconcileAction.NONE, target_id=best.id, reason="same statement"
            )
    return ReconcileDecision(action=ReconcileAction.ADD, reason="new fact")
