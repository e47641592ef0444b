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
    # The fact rules read statements more closely; an observation of the same kind and
    # subject only repeats them.
    said = {(f.category, f.subject) for f in stated}
    noticed = [
        o
        for o in observe(message.text, message.author, message.at)
        if (o.category, o.subject) not in said
    ]
    return stated + noticed


def _by_author(fact: ExtractedFact, author: str) -> ExtractedFact:
    """In a team message, "I" is its author, not the memory's user."""
    if fact.subject != "user":
        return fact
    return fact.model_copy(
        update={"subject": author.lower(), "text": _THE_USER.sub(author, fact.text)}
    )
