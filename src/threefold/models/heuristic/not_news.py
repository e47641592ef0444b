"""What a turn holds that is no news of real people: a text handed over, a story told.

- A text the writer hands the assistant to work on. "Translate this to French: I live in
  Paris and I work as a doctor", "how do you say 'my husband is allergic to nuts' in
  Spanish?", a cover letter pasted to be proofread: the first person of such a text
  belongs to whoever will say it. A turn that asks for a translation, a proofreading or a
  rewording (data/text_work.json) is read without what it quotes, and without what follows
  the colon that introduces the text, to the end of that line.
- A sentence set in a story, a game, a dream or a pretence (data/fiction_frames.json):
  "In the novel, Anna lives in Paris", "I'm writing a story where Jake is 17 and lives in
  Ohio", "let's pretend you're my wife and we live in Paris". It is read as nothing; the
  turn's other sentences as before ("I dreamt I was in Rome. Anyway, I'm moving to Leeds").

Both readers would take these for facts of the writer or of real people; they read the
turn without them.
"""

import re
from functools import cache

from threefold.models.base import TurnInput
from threefold.models.heuristic.text import clean, sentences
from threefold.models.heuristic.word_lists import word_lists

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
    raw = word_lists("text_work.json")
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


@cache
def _frames() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(any frame phrase anywhere, a fiction frame: an opener at a sentence's start or a
    phrase said anywhere). The first spares a sentence split of most turns."""
    raw = word_lists("fiction_frames.json")

    def either(phrases: list[str]) -> str:
        return "|".join(re.escape(p).replace("'", "['’]") for p in phrases)

    openers, anywhere = either(raw["openers"]), either(raw["anywhere"])
    whole = r"(?<![\w'’])(?:{})(?![\w'’])"
    return (
        re.compile(whole.format(f"{openers}|{anywhere}"), re.IGNORECASE),
        re.compile(rf"^\W*(?:{openers})(?![\w'’])|{whole.format(anywhere)}", re.IGNORECASE),
    )


def without_fiction(text: str) -> str:
    """`text` with each sentence set in a story, a game, a dream or a pretence left out."""
    mentioned, frame = _frames()
    if not mentioned.search(text):
        return text
    text = clean(text, limit=len(text))  # as sentences() gives them: straight quotes
    for sentence in sentences(text, limit=len(text)):
        if frame.search(sentence):
            text = text.replace(sentence, _SET_ASIDE, 1)
    return text


def as_news(turn: TurnInput) -> TurnInput:
    """`turn` with its user side less what is no news of real people: a text handed over
    to be worked on (without_worked_text) and sentences told as fiction (without_fiction)."""
    user = without_fiction(without_worked_text(turn.user))
    return turn if user == turn.user else turn.model_copy(update={"user": user})
