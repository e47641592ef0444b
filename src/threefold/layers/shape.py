"""Whether a fact sentence has the shape of a fact: someone, and something said of them.

A reader sometimes stores a piece of a sentence ("The user likes they said.") or a
suggestion ("Let's pick a date and go hike."): pinned, such a line costs every prompt
tokens and says nothing. The test is on the grammar of the stored sentence, with closed
word classes (pronouns, auxiliaries, clause openers; data/fact_shape.json), so it holds
for any wording and any reader:

- it opens with a subject, not with a suggestion, a request, a question, an interjection
  or the writer's own first person ("My coworker asked me ..."), and it is no question
  ("... ?");
- a verb follows its subject, not a determiner ("The user my husband.");
- it does not stop on an article or a copula ("The user's favourite is.": cut short),
  nor say a function word twice ("plans to to the pool": two pieces joined);
- a subject pronoun stands only where a clause may start ("thinks that they ...", not
  "likes they said");
- past the subject and its verb, something is said: a word that is not a pronoun, a
  function word or a placeholder ("something like this", "it").
"""

import json
import re
from functools import cache
from importlib import resources
from itertools import pairwise

from threefold.models.base import ExtractedFact
from threefold.models.heuristic.text import STOPWORDS, words


@cache
def _classes() -> dict[str, frozenset[str]]:
    raw = json.loads(resources.files(__package__).joinpath("data/fact_shape.json").read_text())
    return {name: frozenset(values) for name, values in raw.items() if not name.startswith("_")}


def is_misshapen(item: ExtractedFact) -> bool:
    """Whether a fact read from a turn is no fact: its sentence a piece of one
    (:func:`is_fragment`), or a value that names a thing made of a clause instead ("The
    user is allergic to doctor wrote it big.")."""
    return is_fragment(item.text, item.subject) or _clause_as_value(item)


def _clause_as_value(item: ExtractedFact) -> bool:
    classes = _classes()
    if item.category.value not in classes["named_value_categories"]:
        return False
    return any(word in classes["clause_pronouns"] for word in words(item.value))


def is_fragment(text: str, subject: str) -> bool:
    """Whether `text`, a fact about `subject` (lowercase), is a piece of a sentence rather
    than a statement about its subject."""
    said = words(text)
    if not said or text.rstrip().endswith("?"):  # a question states nothing
        return True
    classes = _classes()
    if said[0] in classes["no_subject_openers"] or said[-1] in classes["clipped_endings"]:
        return True
    if any(a == b and a in classes["never_doubled"] for a, b in pairwise(said)):
        return True
    if _dangling_pronoun(said, classes):
        return True
    predicate = _after_subject(said, subject)
    if predicate and predicate[0] in classes["no_verb_openers"] and ":" not in text:
        return True  # no verb after the subject: "The user my husband." ("Raj: my lead" says)
    return predicate is not None and not _says_something(predicate, classes, _names(text))


def _dangling_pronoun(said: list[str], classes: dict[str, frozenset[str]]) -> bool:
    """A subject pronoun where no clause may start, with at most one word after it: the
    leftover of a reported line ("..., they said")."""
    return any(
        said[i] in classes["nominative_pronouns"] and said[i - 1] not in classes["clause_openers"]
        for i in range(max(1, len(said) - 2), len(said))
    )


def _after_subject(said: list[str], subject: str) -> list[str] | None:
    """The words after the subject the sentence opens with; None when it does not open
    with it (an inverted sentence: its shape is not judged)."""
    start = 1 if said[0] in ("the", "a", "an", "my", "our", "their", "his", "her") else 0
    named = words(subject)
    if not named or said[start : start + len(named)] != named:
        return None
    return said[start + len(named) :]


def _names(text: str) -> frozenset[str]:
    """The words `text` capitalises past its first: names, which say something even where
    they are spelt as a function word ("in May", "with Will")."""
    return frozenset(w.lower() for w in _CAPITALISED.findall(text)[1:])


_CAPITALISED = re.compile(r"(?<![\w'’])[A-Z][\w'’-]*")


def _says_something(
    predicate: list[str], classes: dict[str, frozenset[str]], names: frozenset[str] = frozenset()
) -> bool:
    """Whether the predicate holds a word of content past its verb. After a copula ("is
    vegan") the next word is the content; otherwise the first other word is the verb, and
    a verb it leads to with more words after it ("plans to visit Rome") is one too."""
    rest = list(predicate)
    linked = main = False
    while rest and rest[0] in classes["auxiliaries"]:
        linked = linked or rest[0] in classes["copulas"]
        main = main or rest[0] in classes["main_verb_auxiliaries"]
        rest.pop(0)
    if main and len(rest) == 1:
        return rest[0] not in STOPWORDS and rest[0] not in classes["vague"]  # "does reception"
    if rest and not linked:
        rest.pop(0)  # the main verb: "likes", "plans", "signed"
        if len(rest) > 2 and rest[0] == "to" and rest[1] not in STOPWORDS:
            del rest[:2]  # and the verb it leads to: "wants to try [something]"
    return any(w in names or (w not in STOPWORDS and w not in classes["vague"]) for w in rest)
