"""extract_from_messages: facts and observations in team messages, by their authors."""

import re
from collections.abc import Sequence

from threefold.models.base import ExtractedFact, MessageInput, TurnInput
from threefold.models.heuristic import extract
from threefold.models.heuristic.observe import observe

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
    return stated + noticed


GLOBAL_SUBJECT = "global"


def _by_author(fact: ExtractedFact, author: str) -> ExtractedFact:
    """In a team message, "I" is its author, not the memory's user."""
    if fact.subject != "user":
        return fact
    return fact.model_copy(
        update={"subject": author.lower(), "text": _THE_USER.sub(author, fact.text)}
    )
