"""extract_from_messages: facts and observations in team messages, by their authors."""

import re
from collections.abc import Sequence

from threefold.domain import FactCategory
from threefold.models.base import ExtractedFact, MessageInput, TurnInput
from threefold.models.heuristic import extract
from threefold.models.heuristic.observe import observe
from threefold.models.heuristic.text import content_words

_THE_USER = re.compile(r"\b[Tt]he user\b")


def extract_from_messages(messages: Sequence[MessageInput]) -> list[list[ExtractedFact]]:
    return [_message_facts(m) for m in messages]


def _message_facts(message: MessageInput) -> list[ExtractedFact]:
    turn = TurnInput(stream="", user=message.text, at=message.at, speaker=message.author or None)
    stated = [_by_author(f, message.author) for f in extract.extract_facts(turn)]
    observed = observe(message.text, message.author, message.at)
    # One thing said is one fact. An observation that names who ("U1 is blocked on X")
    # stands for a statement of the same kind and slot that names no one ("I'm blocked on
    # X", filed under "global"); otherwise the fact rules read statements more closely,
    # and an observation of the same kind and subject or slot only repeats them.
    named = {(o.category, o.slot) for o in observed if o.subject != GLOBAL_SUBJECT}
    stated = [f for f in stated if f.subject != GLOBAL_SUBJECT or (f.category, f.slot) not in named]
    said = {(f.category, f.subject) for f in stated} | {(f.category, f.slot) for f in stated}
    noticed = [o for o in observed if not {(o.category, o.subject), (o.category, o.slot)} & said]
    found = stated + noticed
    if message.replying_to and (claim := _claim(message, found)) is not None:
        found = [f for f in found if not _promises_it(f)] + [claim]
    return found


# A reply that takes work without naming it ("I can take it", "on it", "mine"): what it
# takes is what the message it answers asks for.
_CLAIM = re.compile(
    r"(?:^|[.!,;]\s*)(?:(?:ok(?:ay)?|sure|yes|yep|yeah)[\s,!]+)?(?:"
    r"i(?:'ll|\s+will|\s+can|\s+could|'m\s+happy\s+to|\s+am\s+happy\s+to)?\s+"
    r"(?:take|grab|pick\s+up|own|handle|cover|do|run\s+with)\s+(?:it|that|this)(?:\s+one)?\b"
    r"|happy\s+to\s+(?:take|do|own|cover)\s+(?:it|that|this)\b"
    r"|(?:i'm\s+)?on\s+it\b|mine\b|dibs\b|i(?:'ve|\s+have)?\s+got\s+(?:it|this)\b)",
    re.IGNORECASE,
)
# What the first message asks an owner for: the work after a verb of taking or doing.
_ASKED_WORK = re.compile(
    r"\b(?:take\s+over|taking\s+over|take\s+on|taking\s+on|take|taking|cover|covering|own|owning|handle|handling|pick\s+up|picking\s+up|do"
    r"|doing|run|running|lead|leading|grab|write|writing|review|reviewing|look\s+(?:at|into)"
    r"|sort(?:\s+out)?|fix|fixing|help\s+(?:with|on))\s+(?P<what>[^?.!;]+)",
    re.IGNORECASE,
)
_PRONOUN_WORK = re.compile(r"^(?:\w+\s+){0,2}(?:it|that|this)(?:\s+one)?$", re.IGNORECASE)


def _claim(message: MessageInput, found: list[ExtractedFact]) -> ExtractedFact | None:
    """The work a claiming reply takes, named from the message it answers."""
    if not _CLAIM.search(message.text):
        return None
    asked = _ASKED_WORK.search(message.replying_to)
    what = " ".join((asked["what"] if asked else "").split()[:12]).strip(" ,:-")
    if not content_words(what):
        return None
    key = " ".join(sorted(content_words(what))[:3])
    return ExtractedFact(
        text=f"{message.author} will take {what} (asked: {message.replying_to.strip()[:120]}).",
        category=FactCategory.COMMITMENT,
        subject=message.author.lower(),
        slot=f"commitment:{key}",
        value=f"take {what}",
        confidence=0.88,
    )


def _promises_it(fact: ExtractedFact) -> bool:
    """A commitment to work named only by a pronoun ("will take it")."""
    return fact.category is FactCategory.COMMITMENT and bool(_PRONOUN_WORK.match(fact.value))


GLOBAL_SUBJECT = "global"


def _by_author(fact: ExtractedFact, author: str) -> ExtractedFact:
    """In a team message, "I" is its author, not the memory's user."""
    if fact.subject != "user":
        return fact
    return fact.model_copy(
        update={"subject": author.lower(), "text": _THE_USER.sub(author, fact.text)}
    )
