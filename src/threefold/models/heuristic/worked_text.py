"""Text the writer hands the assistant to work on is not news of the writer.

"Translate this to French: I live in Paris and I work as a doctor", "how do you say 'my
husband is allergic to nuts' in Spanish?", a cover letter pasted to be proofread: the
first person of such a text belongs to whoever will say it, and its facts are material.
Both readers would take them for the writer's own. A turn that asks for a translation, a
proofreading or a rewording (data/text_work.json) is read without what it quotes, and
without what follows the colon that introduces the text, to the end of that line.
"""

import json
import re
from functools import cache
from importlib.resources import files

from threefold.models.base import TurnInput

# An opening mark after the start, a space, a bracket or a colon; its closing one ends a
# word. Single marks count only in a turn that asks for such work: elsewhere "the kids'
# toys" would close a quotation.
_QUOTED = re.compile(
    r"(?:^|(?<=[\s(\[:]))"
    r"(?:([\"“])([^\"“”\n]+?)([\"”])|(['‘])([^\n]+?)(['’]))"
    r"(?=$|[\s.,;:!?)\]])"
)
_AFTER_COLON = re.compile(r":[ \t]*[^\n]+")
_SET_ASIDE = "…"


@cache
def _cues() -> tuple[frozenset[str], tuple[str, ...]]:
    raw = json.loads(
        files("threefold.models.heuristic").joinpath("data/text_work.json").read_text()
    )
    return frozenset(raw["words"]), tuple(raw["phrases"])


def asks_for_text_work(text: str) -> bool:
    """Whether `text` asks the assistant to translate, proofread or reword something."""
    lowered = text.lower()
    words, phrases = _cues()
    return bool(words & set(re.findall(r"[a-z'-]+", lowered))) or any(p in lowered for p in phrases)


def without_worked_text(text: str) -> str:
    """`text` less the text it hands over to be worked on; unchanged when it asks for no
    such work."""
    if not asks_for_text_work(text):
        return text
    text = _QUOTED.sub(lambda m: f"{m[1] or m[4]}{_SET_ASIDE}{m[3] or m[6]}", text)
    return _AFTER_COLON.sub(f": {_SET_ASIDE}", text)


def turn_without_worked_text(turn: TurnInput) -> TurnInput:
    """`turn` with its user side read without the text it hands over (without_worked_text)."""
    user = without_worked_text(turn.user)
    return turn if user == turn.user else turn.model_copy(update={"user": user})
