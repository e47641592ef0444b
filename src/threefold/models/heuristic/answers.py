"""A terse reply read with the question it answers: "42" after "How old are you?" is "I am
42 years old."; "yes" after "Do you have a dog?" is "I have a dog."

This is grammar, not phrasing: a question put to "you" is turned back into the statement
its answer completes, by undoing the question's inversion and swapping the person. Only
questions to "you" are read (whom "he" means is not this module's to guess), and only
replies too short to say anything by themselves.
"""

import re

from threefold.models.heuristic.text import sentences

_MAX_REPLY_WORDS = 5
_YES = frozenset({"yes", "yeah", "yep", "yup", "correct", "right", "exactly", "indeed", "sure"})
_FIRST_PERSON_RE = re.compile(r"\b(?:i|i'm|im|me|my|mine|we|our)\b", re.IGNORECASE)
_CONTRACTIONS = {"what's": "what is", "where's": "where is", "when's": "when is",
                 "who's": "who is", "you're": "you are", "how's": "how is"}  # fmt: skip
_PERSON = {"you": "I", "your": "my", "yours": "mine", "yourself": "myself"}
_AUXES = {"are": "am", "were": "was", "do": "", "did": "", "have": "have", "can": "can",
          "will": "will", "would": "would"}  # fmt: skip
# "How old are you?": the wh-part, the verb it inverted, and the rest of the question
_WH_RE = re.compile(
    r"^(?P<wh>what|which|where|when|who|how old|how many \w+)\s+"
    r"(?P<aux>is|are|was|were|do|did|does)\s+(?P<rest>.+)$"
)
_YES_NO_RE = re.compile(
    r"^(?:so\s+)?(?P<aux>are|do|did|have|can|will|would|is)\s+(?P<rest>.+)$", re.IGNORECASE
)
_STATED_RE = re.compile(r"^(?:so\s+)?(?P<rest>you are\s+.+)$", re.IGNORECASE)  # "So you're 45?"
_PREPOSITION_RE = re.compile(r"\b(?:from|in|at|to|on|with|for)$")


def read_reply(reply: str, asked: str) -> str | None:
    """The statement `reply` makes as an answer to the last question in `asked`; None
    when the reply says enough by itself, or the question is not one put to "you"."""
    words = reply.strip().rstrip(".!").split()
    if not words or len(words) > _MAX_REPLY_WORDS or reply.strip().endswith("?"):
        return None
    if _FIRST_PERSON_RE.search(reply):
        return None  # "I'm 42" needs no question to mean it
    question = _last_question(asked)
    if question is None or not re.search(r"\byou(?:r|rs)?\b", question):
        return None
    answer = " ".join(words).strip(" ,;")
    if words[0].lower().strip(",") in _YES:
        return _confirmed(question)
    return _completed(question, answer)


def _last_question(text: str) -> str | None:
    asked = [s.strip() for s in sentences(text) if s.strip().endswith("?")]
    if not asked:
        return None
    question = asked[-1].rstrip("?").strip().lower()
    # "Sure, and how old are you": the part that asks "you" ("..., by the way" does not)
    parts = question.split(", ")
    question = next((p for p in reversed(parts) if re.search(r"\byour?\b", p)), parts[-1])
    return re.sub(r"^(?:and|so|ok|okay|oh|also|roughly)\s+", "", _expanded(question))


def _expanded(question: str) -> str:
    for short, long in _CONTRACTIONS.items():
        question = re.sub(rf"\b{re.escape(short)}\b", long, question, flags=re.IGNORECASE)
    return question


def proposition(question: str) -> str | None:
    """The statement a yes-or-no question to "you" asks about, in the user's words and
    case: "Are you out near Mt Albert?" is "I am out near Mt Albert."; None for any other
    question."""
    return _confirmed(_expanded(question.strip().rstrip("?").strip()))


def _swapped(words: str) -> str:
    return " ".join(_PERSON.get(w.lower(), w) for w in words.split())


def _declarative(aux: str, rest: str) -> str | None:
    """ "are you vegetarian" -> "I am vegetarian"; "is your sister older" -> "my sister is
    older"."""
    subject, _, tail = rest.partition(" ")
    aux = aux.lower()
    if subject.lower() == "you":
        verb = _AUXES.get(aux)
        return None if verb is None else " ".join(w for w in ("I", verb, tail) if w)
    if subject.lower() == "your" and aux in ("is", "was"):
        noun, _, tail = tail.partition(" ")
        return " ".join(w for w in ("my", noun, aux, tail) if w)
    return None


def _confirmed(question: str) -> str | None:
    if stated := _STATED_RE.match(question):  # "so you are 45" -> "I am 45"
        said = re.sub(r"^you are ", "", stated["rest"], flags=re.IGNORECASE)
        return _sentence(_declarative("are", f"you {said}"))
    asked = _YES_NO_RE.match(question)
    return _sentence(_declarative(asked["aux"], _swapped_object(asked["rest"]))) if asked else None


def _swapped_object(rest: str) -> str:
    """Swap the person past the subject: "do you like your job" -> "you like my job"."""
    subject, _, tail = rest.partition(" ")
    return f"{subject} {_swapped(tail)}".strip()


def _completed(question: str, answer: str) -> str | None:
    asked = _WH_RE.match(question)
    if asked is None:
        return None
    wh, aux, rest = asked["wh"], asked["aux"], _swapped_object(asked["rest"])
    if wh.startswith("how many "):  # "how many kids do you have": "two" is two kids
        answer, wh = f"{answer} {wh.removeprefix('how many ')}", "how many"
    if wh == "how old" and rest == "you":
        unit = " years old" if answer.isdigit() else ""
        return _sentence(f"I am {answer}{unit}")
    if aux in ("do", "did", "does"):
        said = _declarative(aux, rest)
    else:
        said = _declarative(aux, rest) if rest.startswith("you") else None
        if said is None and rest.startswith("your "):
            said = f"{_swapped(rest)} {aux}"
    if said is None:
        return None
    joint = " in" if wh == "where" and not _PREPOSITION_RE.search(said) else ""
    return _sentence(f"{said}{joint} {answer}")


def _sentence(text: str | None) -> str | None:
    if not text:
        return None
    return text[:1].upper() + text[1:] + "."
