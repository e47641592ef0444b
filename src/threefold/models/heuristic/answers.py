"""A terse reply read with the question it answers: "42" after "How old are you?" is "I am
42 years old."; "yes" after "Do you have a dog?" is "I have a dog."; "6" after "How old is
Lukas now?" is "Lukas is 6 years old."

This is grammar, not phrasing: a question put to "you", or about someone it names, is
turned back into the statement its answer completes, by undoing the question's inversion
and swapping the person. Whom "he" means is not this module's to guess. Only replies too
short to say anything by themselves are read, or a reply's first clause when that alone
is so short ("36. feel about 60 during calving"): the rest of the reply follows the
statement.
"""

import re

from threefold.models.heuristic.text import sentences

_MAX_REPLY_WORDS = 5
_MAX_CLAUSE_WORDS = 3
"""A longer reply answers with its first clause only when that clause is this short."""
# "Thanks, Mell! I'm still looking...", "Yeah, me too!": a clause that opens a reply
# without answering anything
_OPENER_RE = re.compile(
    r"^(?:(?:thanks|thank\s+you|yes|yeah|yep|yup|no|nope|nah|ok|okay|sure|well|oh|ah|aw+|wow"
    r"|omg|lol|(?:ha)+|hmm+|cool|great|nice|awesome|hey|hi|hello|sorry|right|true|exactly)\b"
    r"[\s,!.]*)+(?:\w+)?$",
    re.IGNORECASE,
)
_FIRST_CLAUSE_RE = re.compile(r"^(?P<head>[^.,!?;:]+)[.,!?;:]+\s+(?P<rest>\S.*)$", re.DOTALL)
_YES = frozenset({"yes", "yeah", "yep", "yup", "correct", "right", "exactly", "indeed", "sure"})
# "I'm 42", "he is 41": a reply with a subject of its own says it without the question
_SAYS_ITSELF_RE = re.compile(
    r"\b(?:i|i'm|im|me|my|mine|we|our|he|he's|she|she's|they|they're|it's)\b", re.IGNORECASE
)
_CONTRACTIONS = {"what's": "what is", "where's": "where is", "when's": "when is",
                 "who's": "who is", "you're": "you are", "how's": "how is"}  # fmt: skip
_PERSON = {"you": "I", "your": "my", "yours": "mine", "yourself": "myself"}
_AUXES = {"are": "am", "were": "was", "do": "", "did": "", "have": "have", "can": "can",
          "will": "will", "would": "would"}  # fmt: skip
# "How old are you?": the wh-part, the verb it inverted, and the rest of the question
_WH_RE = re.compile(
    r"^(?P<wh>what|which|where|when|who|how old|how many \w+)\s+"
    r"(?P<aux>is|are|was|were|do|did|does)\s+(?P<rest>.+)$",
    re.IGNORECASE,
)
# "Lukas", "Renee's birthday": someone the question names, written with a capital
_NAMED_RE = re.compile(r"^(?P<name>(?-i:[A-Z])[\w-]+)(?P<owned>'s\s+\w+(?:\s+\w+)?)?$")
# "How old is Lukas now": words that only say when
_WHEN_WORDS_RE = re.compile(r"\s+(?:now|these\s+days|again|exactly|then)$", re.IGNORECASE)
_YES_NO_RE = re.compile(
    r"^(?:so\s+)?(?P<aux>are|do|did|have|can|will|would|is)\s+(?P<rest>.+)$", re.IGNORECASE
)
_STATED_RE = re.compile(r"^(?:so\s+)?(?P<rest>you are\s+.+)$", re.IGNORECASE)  # "So you're 45?"
_PREPOSITION_RE = re.compile(r"\b(?:from|in|at|to|on|with|for)$", re.IGNORECASE)


def read_reply(reply: str, asked: str) -> str | None:
    """The statement `reply` makes as an answer to the last question in `asked`, with what
    follows its answering clause; None when the reply says enough by itself, or the
    question is neither put to "you" nor about someone it names."""
    reply = reply.strip()
    head, rest = _first_clause(reply)
    words = head.rstrip(".!").split()
    if not words or reply.endswith("?"):
        return None
    if _SAYS_ITSELF_RE.search(head):
        return None
    question = _last_question(asked)
    if question is None or not _asks_of_someone(question):
        return None
    answer = " ".join(words).strip(" ,;")
    said = _confirmed(question) if words[0].lower().strip(",") in _YES else None
    said = said or _completed(question, answer)
    return f"{said} {rest}" if said and rest else said


def _first_clause(reply: str) -> tuple[str, str]:
    """(what answers, what follows it): the whole of a short reply, or the first clause of
    a longer one, or of one that goes on with a subject of its own ("6, he's the youngest"),
    when that clause is short; ("", reply) when neither is."""
    if len(reply.rstrip(".!").split()) <= _MAX_REPLY_WORDS and not _SAYS_ITSELF_RE.search(reply):
        return reply, ""
    split = _FIRST_CLAUSE_RE.match(reply)
    if (
        split
        and len(split["head"].split()) <= _MAX_CLAUSE_WORDS
        and not _OPENER_RE.match(split["head"])
    ):
        return split["head"], split["rest"]
    return "", reply


def _asks_of_someone(question: str) -> bool:
    """Whether `question` is put to "you" or asks about someone it names."""
    if re.search(r"\byou(?:r|rs)?\b", question, re.IGNORECASE):
        return True
    asked = _WH_RE.match(question)
    return asked is not None and asked["rest"][:1].isupper()


def _when_left_off(rest: str) -> str:
    return _WHEN_WORDS_RE.sub("", rest.strip())


def _last_question(text: str) -> str | None:
    asked = [s.strip() for s in sentences(text) if s.strip().endswith("?")]
    if not asked:
        return None
    question = asked[-1].rstrip("?").strip()
    # "Sure, and how old are you": the part that asks "you" ("..., by the way" does not)
    # "How old are you, if you don't mind me asking": the part that asks comes first
    parts = question.split(", ")
    asking = [p for p in parts if _WH_RE.match(p) or _YES_NO_RE.match(p) or _STATED_RE.match(p)]
    asks_you = (p for p in reversed(asking or parts) if re.search(r"\byour?\b", p, re.I))
    question = next(asks_you, (asking or parts)[-1])
    question = re.sub(
        r"^(?:and|so|ok|okay|oh|also|roughly)\s+", "", _expanded(question), flags=re.I
    )
    return question[:1].lower() + question[1:]


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
    wh, aux, rest = asked["wh"].lower(), asked["aux"].lower(), _swapped_object(asked["rest"])
    if wh.startswith("how many "):  # "how many kids do you have": "two" is two kids
        answer, wh = f"{answer} {wh.removeprefix('how many ')}", "how many"
    unit = " years old" if answer.isdigit() else ""
    if wh == "how old" and rest.lower() == "you":
        return _sentence(f"I am {answer}{unit}")
    if aux in ("do", "did", "does"):
        said = _declarative(aux, rest) or _of_named(aux, asked["rest"])
    else:
        said = _declarative(aux, rest) if rest.lower().startswith("you") else None
        if said is None and rest.lower().startswith("your "):
            said = f"{_swapped(rest)} {aux}"
        if said is None and (named := _NAMED_RE.match(_when_left_off(asked["rest"]))):
            if wh == "how old" and not named["owned"]:
                return _sentence(f"{named['name']} {aux} {answer}{unit}")
            said = f"{named[0]} {aux}" if named["owned"] else None
    if said is None:
        return None
    joint = " in" if wh == "where" and not _PREPOSITION_RE.search(said) else ""
    return _sentence(f"{said}{joint} {answer}")


_DOES_NAMED_RE = re.compile(r"^(?P<name>(?-i:[A-Z])[\w-]+)\s+(?P<verb>[a-z]+)(?P<tail>.*)$")


def _of_named(aux: str, rest: str) -> str | None:
    """ "does Lukas live" -> "Lukas lives"; None unless a name asks the verb."""
    asked = _DOES_NAMED_RE.match(rest.strip())
    if asked is None or aux != "does":
        return None
    return f"{asked['name']} {_third_person(asked['verb'])}{_WHEN_WORDS_RE.sub('', asked['tail'])}"


def _third_person(verb: str) -> str:
    """The verb said of he or she: "lives", "goes", "studies", "has"."""
    if verb == "have":
        return "has"
    if re.search(r"(?:s|sh|ch|x|z|o)$", verb):
        return f"{verb}es"
    if re.search(r"[^aeiou]y$", verb):
        return f"{verb[:-1]}ies"
    return f"{verb}s"


def _sentence(text: str | None) -> str | None:
    if not text:
        return None
    return text[:1].upper() + text[1:] + "."
