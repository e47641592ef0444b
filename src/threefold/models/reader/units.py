"""What the trained reader reads: a turn cut into sentences, each with the message it answers.

No sentence is thrown away for its length: long sentences are cut into pieces of at most
:data:`PIECE_WORDS` words at clause marks, and every piece is read. Pasted code and stack
traces are told apart by their characters, not by any phrase, and are not read. Questions
are read whole: people say what they are inside what they ask ("what can I cook for my
husband Dave, he's coeliac?", "is ibuprofen ok with my sertraline?"), and the graph marks
what a question asks about as asked ("should I move to Utrecht?"), which states nothing.
"""

import re
from dataclasses import dataclass

from threefold.models.heuristic.text import sentences

PIECE_WORDS = 60
"""About 90 tokens: a piece and the question before it fit in the model's 128."""
PREVIOUS_CHARS = 200
"""The end of the answered message is what a terse reply answers."""
_ASKS = "?"
"""What makes the answered message worth reading with a reply: a question in its end."""
# Brackets, operators and calls ("load_user(", "print(\""); a parenthesis in prose is none.
_CODE_CHARS = re.compile(r"[{}\[\];=<>_\\|`$#]|\w\(|\([\"']")
# A tag in brackets after a space ("[voice note]", "[photo]", "[link]") is prose's, not code's.
_TAG = re.compile(r"(?<![\w\])])\[[^\W\d_]+(?: [^\W\d_]+){0,3}\]")
_CODE_SHARE = 0.04
_CODE_LEAST = 2
_CLAUSE_MARK = re.compile(r"(?<=[,;:])\s+|\s+(?=[-–—]\s)")
_LETTER = re.compile(r"[^\W_]")  # a letter or digit: "31" answers, "🙄" does not
_QUESTION = re.compile(
    r"^(?:what|who|whom|whose|when|where|why|how|which|do|does|did|is|are|am|was|were|can"
    r"|could|would|should|will|shall|may|might|have|has)\b[^,;:]*\?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Unit:
    text: str
    previous: str


def units(user: str, previous: str | None) -> list[Unit]:
    """The pieces of `user` to read, in order; only the first carries the message it
    answers, since later sentences answer nothing new."""
    before = answered(previous)
    found: list[Unit] = []
    for sentence in sentences(user):
        if looks_like_code(sentence) or not _LETTER.search(sentence):
            continue
        for piece in _pieces(sentence):
            found.append(Unit(piece, before if not found else ""))
    return found


def answered(previous: str | None) -> str:
    """The end of the message a turn answers, where it asks something; else nothing.
    The graph learned from replies to questions ("42" after "How old are you?"), and an
    acknowledgement read before a statement ("Lovely part of the world." before "We upped
    sticks to Cardiff") lowers what it reads there: on the 33 development sets, reading
    every reply with the message before gave 566 facts, without it 598, and with it only
    where it asks 605, at higher precision (session 29)."""
    before = (previous or "").strip()[-PREVIOUS_CHARS:]
    return before if _ASKS in before else ""


def looks_like_code(text: str) -> bool:
    """Source code, a stack trace or a log line: dense with the characters code is made of."""
    marks = len(_CODE_CHARS.findall(_TAG.sub(" ", text)))
    return marks >= _CODE_LEAST and marks > _CODE_SHARE * len(text)


def asks(sentence: str) -> bool:
    """Whether the whole sentence is a question, from its first word to its question mark:
    what it says for sure stands ("is ibuprofen ok with my sertraline?"), but an unsure
    reading of it is no hint that a held value changed ("are you vegan?")."""
    return _QUESTION.match(sentence.strip()) is not None


def _pieces(sentence: str) -> list[str]:
    if len(sentence.split()) <= PIECE_WORDS:
        return [sentence]
    pieces: list[str] = []
    current: list[str] = []
    for clause in _CLAUSE_MARK.split(sentence):
        words = clause.split()
        while len(words) > PIECE_WORDS:  # a run-on clause: cut by words
            pieces.append(" ".join(words[:PIECE_WORDS]))
            words = words[PIECE_WORDS:]
        if current and len(current) + len(words) > PIECE_WORDS:
            pieces.append(" ".join(current))
            current = []
        current += words
    if current:
        pieces.append(" ".join(current))
    return pieces
