"""Word lists and regex fragments the extraction rules are built from."""

import re
from functools import cache

from threefold.models.heuristic.text import wordset
from threefold.models.heuristic.word_lists import word_lists

# Words that can start a clause but never name a person, so "It handles auth" or
# "The team owns billing" are not read as facts about someone called "It".
NOT_NAMES = wordset(
    """i me my mine we us our ours you your he him his she her they them their it its this
    that these those there here who what which when where why how the a an and or but so
    everyone everybody someone somebody nobody anyone anybody nothing something everything
    all both each either neither none one some any no yes not also just maybe perhaps
    probably actually then now today tomorrow yesterday well oh hey hi hello thanks thank
    i'm i've i'd i'll im ive
    please sorry okay ok sure great good let let's if because since while though although
    user assistant team project company client customer people guy guys folks"""
)

PRONOUNS = frozenset({"he", "she", "they"})

# A person: one to three capitalised words, or one lowercase word for people who type
# in lowercase (checked against NOT_NAMES by the caller).
NAME = r"(?:[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2}|[a-z][a-z'-]+)"

# Head words a role title must contain, so "Raj is the best" is not a role.
ROLE_HEADS = wordset(
    """architect manager pm pmo cto ceo cfo coo cio ciso cmo cpo vp svp evp director lead
    head engineer designer developer dev devops sre analyst scientist administrator admin
    owner sponsor champion chair chairman chairperson president founder cofounder
    co-founder officer coordinator specialist advisor adviser liaison representative rep
    dri maintainer reviewer approver consultant recruiter intern master strategist
    editor researcher tester qa accountant counsel lawyer partner principal supervisor
    contact poc stakeholder secretary treasurer captain"""
)

TITLE = r"[A-Za-z][\w&/.-]*(?:\s+[A-Za-z][\w&/.-]*){0,4}"

ARTICLES_RE = re.compile(r"^(?:the|a|an|our|my|their|your|his|her|its|this|that)\s+", re.I)

RESPONSIBILITY_VERBS = (
    r"handles|owns|leads|manages|runs|covers|oversees|maintains|supports"
    r"|is\s+(?:responsible\s+for|in\s+charge\s+of|handling|leading|managing|running"
    r"|working\s+on|covering|looking\s+after|taking\s+care\s+of|the\s+owner\s+of)"
    r"|works\s+on|takes\s+care\s+of|looks\s+after|deals\s+with|does"
)

ASSIGNMENT_VERBS = (
    r"take|own|handle|do|pick\s+up|tackle|drive|lead|cover|write|prepare|build|fix|run"
)

EVENT_WORDS = (
    r"launch|release|go-live|go\s+live|demo|kickoff|kick-off|presentation|offsite|off-site"
    r"|board\s+meeting|code\s+freeze|feature\s+freeze|cutover|rollout|roll-out|handoff"
    r"|hand-off|audit|beta|ga|ship\s+date|review|workshop|interview|meeting|migration"
    r"|deployment|deploy|onboarding|training|conference|trip|wedding|appointment"
)

RECURRING_EVENTS = (
    r"stand-?ups?|syncs?|meetings?|retros?|retrospectives?|1:1s?|one-on-ones?|reviews?"
    r"|planning|sprint\s+planning|demos?|check-?ins?|all-hands|calls?|office\s+hours"
    r"|backups?|reports?|newsletters?|deploys?|releases?|sprints?|catch-?ups?|huddles?"
    r"|grooming|refinement|triage|standup"
)

FREQUENCY = (
    r"every\s+(?:other\s+|second\s+|last\s+|first\s+)?(?:day|weekday|week|month|quarter|year"
    r"|morning|evening|monday|tuesday|wednesday|thursday|friday|saturday|sunday|sprint"
    r"|\d+\s+(?:days|weeks|months))"
    r"|each\s+(?:day|week|month|quarter|monday|tuesday|wednesday|thursday|friday|sprint)"
    r"|daily|weekly|biweekly|bi-weekly|fortnightly|monthly|quarterly|yearly|annually"
    r"|on\s+(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekdays)"
)

DECISION_TOPICS: dict[str, tuple[str, ...]] = {
    topic: tuple(words) for topic, words in word_lists("choice_topics.json")["decision"].items()
}
"""Decisions about well-known alternatives share a topic, so a later choice supersedes
(data/choice_topics.json)."""
PREFERENCE_TOPICS: dict[str, tuple[str, ...]] = {
    topic: tuple(words) for topic, words in word_lists("choice_topics.json")["preference"].items()
}
"""What the user asks of the assistant's answers, by topic: a later wish supersedes."""


def topic_of(text: str, topics: dict[str, tuple[str, ...]]) -> str | None:
    """The first topic whose keywords occur as whole words in `text`."""
    lower = text.lower()
    for topic, keywords in topics.items():
        for keyword in keywords:
            if keyword in lower and _as_word(keyword).search(lower):
                return topic
    return None


@cache
def _as_word(keyword: str) -> re.Pattern[str]:
    """`keyword` as a whole word, compiled once: the topics' patterns outnumber re's cache."""
    return re.compile(rf"(?<![\w.]){re.escape(keyword)}(?![\w])")
