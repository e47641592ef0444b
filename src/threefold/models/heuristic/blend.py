"""The rules' facts and the trained reader's, as one list.

The rules stay the precision layer: where they read a slot (or the same value, of any
kind), their fact stands, with its corrections, dates and denials. The trained reader adds
what they missed: wordings no rule knows, answers that need the question before them,
facts inside long messages and questions. How much it adds is a policy, chosen by
measurement on development text (training/choose_threshold.py prints each):

- ``union``: every fact of a slot and value the rules did not read;
- ``new kinds``: only facts of categories the rules read nothing of in the turn;
- ``silent``: only in turns where the rules read nothing at all.

Whatever the policy, a reader's plan that says only a day ("has plans for 15 July") gives
way where the rules read a dated fact of the same person in the turn.
"""

import re
from functools import cache

from threefold.domain import FactCategory
from threefold.models.base import ExtractedFact
from threefold.models.heuristic.text import words
from threefold.models.reader.checks import of_a_time, value_types
from threefold.models.reader.kin import said_otherwise
from threefold.models.reader.labels import ENDED

POLICIES = ("union", "new kinds", "silent")


def blend(
    rules: list[ExtractedFact], read: list[ExtractedFact], policy: str = "union"
) -> list[ExtractedFact]:
    if policy == "silent" and rules:
        return rules
    read = [f for f in read if not said_otherwise(f, [*rules, *read])]
    read = [f for f in read if not _day_said_by_rules(f, rules)]
    kinds = {f.category for f in rules}
    # A slot the rules read without saying what it ends ("used to be a firefighter" as a
    # former job) still takes the reader's fact that says it, which ends the current one.
    taken = {
        (f.subject, f.slot)
        for f in rules
        if (f.ends or not _ends_there(f, read)) and not _replaced_there(f, read)
    }
    said = [(f.subject, f.category, f.value.lower()) for f in rules if (f.subject, f.slot) in taken]
    # The same words read by the rules as one kind of fact and by the reader as another
    # ("I'm with Stripe now": the rules' employer, the reader's "uses") are a second
    # reading of them: the rules' stands.
    values = {(f.subject, f.value.lower()) for f in rules}
    teams = [f.text.lower() for f in rules if f.category in TEAM_CATEGORIES]
    added = [
        f
        for f in read
        if (f.subject, f.slot) not in taken
        and not any(_same(f, s) for s in said)
        and (f.subject, f.value.lower()) not in values
        and not any(_within(f.value, team) for team in teams)
        and (policy != "new kinds" or f.category not in kinds)
    ]
    return [*rules, *added]


TEAM_CATEGORIES = frozenset(
    {
        FactCategory.ROLE,
        FactCategory.DECISION,
        FactCategory.COMMITMENT,
        FactCategory.ASSIGNMENT,
        FactCategory.BLOCKER,
        FactCategory.DEADLINE,
        FactCategory.RESPONSIBILITY,
        FactCategory.RECURRING,
    }
)
"""What the rules read as a team's or a project's ("we decided to use Postgres", "Raj is
the Lead Architect"): the reader's reading of the same words as a person's own ("The user
uses Postgres", "Raj works as a Lead Architect") is a second reading of them, which would
outlive a change the rules track, and the rules' stands."""


def _within(value: str, team_text: str) -> bool:
    """Whether `value`'s words are said inside a team fact's words."""
    said = " ".join(words(value.lower().removeprefix(ENDED)))
    return bool(said) and f" {said} " in f" {' '.join(words(team_text))} "


def _same(fact: ExtractedFact, said: tuple[str, object, str]) -> bool:
    subject, category, value = said
    mine = fact.value.lower()
    return (
        subject == fact.subject and category == fact.category and (mine in value or value in mine)
    )


def _ends_there(rule: ExtractedFact, read: list[ExtractedFact]) -> bool:
    """Whether the reader read the rules' fact's slot with the same value, and what it
    says is over."""
    return any(
        (f.subject, f.slot) == (rule.subject, rule.slot)
        and f.ends
        and f.value.lower() == rule.value.lower()
        for f in read
    )


def _replaced_there(rule: ExtractedFact, read: list[ExtractedFact]) -> bool:
    """Whether the rules' fact says a value is over ("not bike") where the reader read what
    replaces it in the same slot ("my bike got stolen, bought a used e-bike"): both
    stand, the ending first, so the new value is the current one."""
    if not rule.value.lower().startswith(ENDED):
        return False
    gone = (rule.subject, rule.category, rule.value.lower())
    return any(
        (f.subject, f.slot) == (rule.subject, rule.slot)
        and not f.value.lower().startswith(ENDED)
        and not _same(f, gone)
        for f in read
    )


def _day_said_by_rules(fact: ExtractedFact, rules: list[ExtractedFact]) -> bool:
    """Whether `fact` is a plan that says only when ("The user has plans for 15 July."),
    where the rules read a dated fact of the same person in the turn ("My surgery is on 15
    July.": "The user's surgery is on July 15."), which says the same day and what it is
    for."""
    if fact.category != FactCategory.PLAN or not _only_a_time(fact.value):
        return False
    days = _day_words()
    return any(
        r.subject == fact.subject and not days.isdisjoint(words(r.text.lower())) for r in rules
    )


def _only_a_time(value: str) -> bool:
    said = words(value.lower().removeprefix(ENDED))
    types = value_types()
    return bool(said) and all(
        w in _TIME_JOINERS or _ORDINAL.fullmatch(w) or of_a_time(w, types) for w in said
    )


@cache
def _day_words() -> frozenset[str]:
    types = value_types()
    return frozenset(types["months"]) | frozenset(types["weekdays"])


_TIME_JOINERS = frozenset({"the", "of", "on", "this", "next"})
_ORDINAL = re.compile(r"\d{1,4}(?:st|nd|rd|th)?")
