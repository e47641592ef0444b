"""One rule per kind of fact. Each reads a single clause and returns a Parsed or None.

Rules are anchored regexes on purpose: a clause either reads as a plain statement of the
kind or yields nothing, because a false fact gets pinned into every later prompt.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime

from threefold import dates
from threefold.domain import FactCategory
from threefold.models.heuristic.patterns import (
    ASSIGNMENT_VERBS,
    DECISION_TOPICS,
    EVENT_WORDS,
    FREQUENCY,
    NAME,
    NOT_NAMES,
    PREFERENCE_TOPICS,
    RECURRING_EVENTS,
    RESPONSIBILITY_VERBS,
    ROLE_HEADS,
    topic_of,
)
from threefold.models.heuristic.personal_words import RELATION_RE
from threefold.models.heuristic.text import (
    STOPWORDS,
    sentence_case,
    third_person,
    words,
    wordset,
)

_I = re.IGNORECASE


@dataclass(frozen=True)
class Clause:
    """A clause to read, with what the rules need to know about its turn."""

    text: str
    at: datetime
    subject: str
    """The stream's subject ('alpha'), used when a deadline or decision names no thing."""
    subject_display: str
    speaker: str
    """'user' for a person's words, 'assistant' for the assistant's; see first_person."""
    me: str | None = None
    """Who 'I' is, when the speaker has a name ("Caroline"); else 'I' is the user."""
    you: str | None = None
    """Who 'you' is, when the other side of a chat between two people has a name
    ("Gina"); else 'you' is the assistant."""


def first_person(clause: Clause) -> tuple[str, str] | None:
    """(key, shown) of who 'I' means in `clause`; None for an unnamed assistant."""
    if clause.me:
        return clause.me.lower(), clause.me
    return ("user", "The user") if clause.speaker == "user" else None


@dataclass(frozen=True)
class Parsed:
    category: FactCategory
    subject: str
    slot: str
    value: str
    text: str
    person: str | None = None
    """Display name of the person the clause is about, for resolving a later 'he'."""
    rebuild: Callable[[str], "Parsed | None"] | None = field(default=None, compare=False)
    """The same statement with another value: turns "not frontend" into a SlotRef."""
    denied_text: str | None = None
    """How to say the statement stopped being true, for facts a change retracts in their
    own slot ("The user is no longer vegetarian"); None where a denial needs its own slot."""
    also: tuple["Parsed", ...] = ()
    """More facts the same clause states ("my wife Sara is a nurse": wife, and job)."""


Rule = Callable[[Clause], Parsed | None]

_FILLER_TAIL = re.compile(
    r"(?:\s+(?:now|too|as\s+well|anymore|any\s+more|instead|for\s+now|these\s+days"
    r"|going\s+forward|from\s+now\s+on|again|then))+$",
    _I,
)
_LEADING_DET = re.compile(r"^(?:the|a|an|our|my|their|your|his|her|its|this|that)\s+", _I)


def strip_det(text: str) -> str:
    return _LEADING_DET.sub("", text.strip())


def norm(text: str) -> str:
    """A value's comparison form: lowercase, no determiner, filler or end punctuation."""
    text = _FILLER_TAIL.sub("", text.strip().strip(" .,!;:\"'"))
    return re.sub(r"\s+", " ", strip_det(text)).lower().strip(" .,!;:\"'")


def display(text: str) -> str:
    """A noun phrase for rendering: determiner and filler dropped, case kept."""
    return _FILLER_TAIL.sub("", strip_det(text.strip(" .,!;:\"'"))).strip()


def is_name(text: str) -> bool:
    """Whether `text` can name a person: capitalised words, or one non-function word."""
    parts = text.split()
    if not parts or len(parts) > 3 or any(p.lower() in NOT_NAMES for p in parts):
        return False
    if not all(re.fullmatch(r"[A-Za-z][\w'-]*", p) for p in parts):
        return False
    return len(parts) == 1 or all(p[0].isupper() for p in parts)


def person(name: str) -> str:
    """A name as written, or capitalised when it was typed all lowercase."""
    name = re.sub(r"\s+", " ", name.strip())
    return name if any(c.isupper() for c in name) else name.title()


def is_title(text: str) -> bool:
    """Whether `text` reads as a role title: its head noun is a role word."""
    lowered = [w.strip(".,") for w in text.lower().split()]
    if not lowered or len(lowered) > 6:
        return False
    if any(w in STOPWORDS and w not in ("of", "and") for w in lowered):
        return False
    head = lowered[: lowered.index("of")] if "of" in lowered else lowered
    return bool(head) and (head[-1] in ROLE_HEADS or lowered[-1] in ROLE_HEADS)


def short_np(text: str, max_words: int = 8) -> bool:
    """A plausible noun phrase: a few words, not a pronoun, not a whole new clause."""
    ws = words(text)
    if not ws or len(ws) > max_words or ws[0] in NOT_NAMES - {"the", "our", "my", "a", "an"}:
        return False
    return not any(w in ("is", "are", "was", "were", "if", "because") for w in ws)


def keywords(text: str, limit: int = 3) -> str:
    """The first few content words of `text`, as a stable slot suffix."""
    seen: list[str] = []
    for word in words(text):
        if word not in STOPWORDS and word not in seen and not word.isdigit():
            seen.append(word)
    return " ".join(seen[:limit])


# --- roles -----------------------------------------------------------------------------

_ROLE_RE = re.compile(
    rf"^(?P<person>{NAME})(?:'s|\s+(?:is|was|will\s+be|is\s+now|has\s+become|became|remains"
    r"|is\s+still|serves\s+as|acts\s+as))\s+(?P<det>(?:the|our|their|my|your|a|an)\s+)?"
    r"(?:new\s+|current\s+|acting\s+|interim\s+|official\s+)?(?P<rest>.+)$"
)
_ROLE_INVERSE_RE = re.compile(
    r"^(?i:the|our|my|their|your)\s+(?i:new\s+|current\s+)?(?P<rest>.+?)(?:'s|\s+(?i:is|will\s+be"
    r"|is\s+now))\s+(?P<person>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})$"
)
_SCOPE_RE = re.compile(r"^(?P<title>.+?)\s+(?:on|for|at|in|with)\s+(?P<scope>.+)$", _I)
# When a seat changed hands says nothing about the seat: "Ana is the QA lead now".
_SINCE_WHEN_RE = re.compile(
    r"\s+(?:now|these\s+days|again|from\s+now\s+on|going\s+forward|as\s+of\s+(?:today|now"
    r"|this\s+week|monday)|effective\s+(?:today|immediately))$",
    _I,
)


def _title_and_scope(rest: str, clause: Clause) -> tuple[str, str | None] | None:
    """'Lead Architect on Alpha' -> ('Lead Architect', None when Alpha is the stream)."""
    match = _SCOPE_RE.match(rest)
    title, scope = (match["title"], display(match["scope"])) if match else (rest, None)
    title = title.strip()
    if not is_title(title):
        return None
    if scope and not short_np(scope, 4):
        scope = None
    return title, scope


def role_fact(who: str, title: str, scope: str | None, clause: Clause) -> Parsed:
    """A role held by one person, keyed by the title so a new holder supersedes the old."""
    who = person(who)
    title_key = norm(title)
    # The stream's own subject adds nothing to the key: on project:alpha, "lead architect
    # on Alpha" and "lead architect" are the same seat.
    scoped = scope and norm(scope) not in (clause.subject, "team", "project")
    subject = f"{norm(scope or '')} {title_key}" if scoped else title_key
    where = f" on {scope}" if scope else ""

    def rebuild(value: str) -> Parsed | None:
        value = display(value)
        if is_title(value):
            return role_fact(who, value, scope, clause)
        return role_fact(value, title, scope, clause) if is_name(value) else None

    return Parsed(
        FactCategory.ROLE,
        subject,
        "holder",
        norm(who),
        f"{who} is the {title}{where}.",
        person=who,
        rebuild=rebuild,
    )


def role(clause: Clause) -> Parsed | None:
    match = _ROLE_RE.match(clause.text)
    if match and not is_name(match["person"]):
        match = None  # "Our PM is Priya" also fits the forward pattern, with "Our PM"
    found = match or _ROLE_INVERSE_RE.match(clause.text)
    if not found or not is_name(found["person"]):
        return None
    parts = _title_and_scope(_SINCE_WHEN_RE.sub("", found["rest"]), clause)
    if parts is None:
        return None
    who, (title, scope) = person(found["person"]), parts
    if match and (match["det"] or "").strip().lower() in ("a", "an"):
        # "Raj is an engineer": many people hold that, so it is a fact about Raj.
        return Parsed(
            FactCategory.ROLE,
            norm(who),
            "role",
            norm(title),
            f"{who} is {match['det'].strip()} {title}.",
            person=who,
        )
    return role_fact(who, title, scope, clause)


# --- tenure ----------------------------------------------------------------------------

_DURATION = (
    r"(?:over\s+|almost\s+|nearly\s+|about\s+|around\s+|more\s+than\s+)?"
    r"(?:\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|several)"
    r"(?:\s+and\s+a\s+half)?\s+(?:years?|months?|weeks?)"
)
_WHERE = (
    r"with\s+(?:us|the\s+(?:company|team|firm|org|organi[sz]ation|project))|here"
    r"|on\s+the\s+team|at\s+[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)?|working\s+here"
)
_TENURE_RE = re.compile(
    rf"^(?P<person>{NAME})\s*(?:has|'s|have)\s+been\s+(?:(?P<where>{_WHERE})\s+)?"
    rf"(?:for\s+)?(?P<dur>{_DURATION})(?:\s+(?P<where2>{_WHERE}))?(?:\s+now)?$"
)


def tenure(clause: Clause) -> Parsed | None:
    match = _TENURE_RE.match(clause.text)
    if not match or not is_name(match["person"]):
        return None
    where = match["where"] or match["where2"]
    if not where:
        return None
    who, duration = person(match["person"]), match["dur"]
    text = f"{who} has been {where} for {duration}."
    return Parsed(FactCategory.NOTE, norm(who), "tenure", duration.lower(), text, who)


# --- responsibilities ------------------------------------------------------------------

_RESP_RE = re.compile(
    rf"^(?P<person>{NAME})\s+(?:now\s+|also\s+|currently\s+|still\s+|mainly\s+|mostly\s+)?"
    rf"(?P<verb>{RESPONSIBILITY_VERBS})\s+(?P<area>.+)$"
)
_VAGUE_AREAS = wordset("it that this them everything nothing stuff things well")
# "Noah is picking up lunch" runs an errand; nobody is assigned work.
_ERRANDS = wordset(
    """lunch dinner breakfast brunch coffee coffees drinks snacks food pizza groceries kids
    children dog laundry mail package parcel tab bill check cheque cake flowers"""
)
# "Decision is pending" and "The decision is final" name no choice.
_NO_CHOICE_RE = re.compile(
    r"^(?:still\s+|currently\s+|now\s+)?(?:pending|open|undecided|tbd|tbc|on\s+hold|unclear"
    r"|in\s+progress|up\s+in\s+the\s+air|under\s+(?:discussion|review)|being\s+discussed"
    r"|(?:not\s+)?(?:made|final|decided|settled|done)(?:\s+yet)?)$",
    _I,
)


def responsibility_fact(who: str, verb: str, area: str) -> Parsed | None:
    who = person(who)
    area = _FILLER_TAIL.sub("", area.strip(" .,!;:\"'"))
    if not area or not short_np(area) or norm(area) in _VAGUE_AREAS:
        return None
    if re.search(FREQUENCY, area, _I) or dates.find_date(area, _EPOCH):
        return None  # "Raj runs every morning" is not a responsibility

    def rebuild(value: str) -> Parsed | None:
        return responsibility_fact(who, verb, value)

    return Parsed(
        FactCategory.RESPONSIBILITY,
        norm(who),
        "handles",
        norm(area),
        f"{who} {verb} {area}.",
        person=who,
        rebuild=rebuild,
    )


_EPOCH = datetime(2000, 1, 1)


def responsibility(clause: Clause) -> Parsed | None:
    match = _RESP_RE.match(clause.text)
    if not match or not is_name(match["person"]):
        return None
    verb = re.sub(r"\s+", " ", match["verb"])
    return responsibility_fact(match["person"], verb, match["area"])


# --- deadlines and dated events --------------------------------------------------------

_MOVE_VERB = (
    r"(?:mov(?:e|es|ed|ing)|push(?:es|ed|ing)?|shift(?:s|ed|ing)?|slip(?:s|ped|ping)?"
    r"|delay(?:s|ed|ing)?|reschedul(?:e|es|ed|ing)|bump(?:s|ed)?|brought\s+forward)"
)
"""A date moved, in any tense: "slipped", "moves", "is moving", "gets pushed"."""
_MOVED_AUX = r"(?:was|has\s+been|have\s+been|got|gets|is|are|'s|has|have|will\s+be)"
_MOVED = (
    r"(?::|\b(?:is\s+now|is|are|was|will\s+be|remains|stays|is\s+set\s+for|is\s+set\s+to"
    rf"|(?:{_MOVED_AUX}\s+)?(?:{_MOVE_VERB}|changed|set)(?:\s+(?:back|up|out))?"
    r"\s+(?:to|for|until|till)))"
)
"""How a deadline is given: from a whole word on ("Deadline for submissions is..." once
read "is" inside "submissions")."""
_DEADLINE_RE = re.compile(
    r"^(?P<pre>.*?)\b(?:deadline|due\s+date|cutoff|cut-off)(?:\s+for\s+(?P<thing>.+?))?"
    rf"\s*{_MOVED}\s*(?P<rest>.+)$",
    _I,
)
_DUE_RE = re.compile(
    r"^(?:(?P<thing>.+?)(?:'s|\s+(?:is|are|will\s+be|was))\s+(?:now\s+|still\s+)?)?due\s+(?P<rest>.+)$"
    r"|^(?P<thing2>.+?)\s+(?:needs|has|have|need)\s+to\s+be\s+(?:done|finished|shipped"
    r"|delivered|submitted|ready|completed?|live|out|merged|approved)\s+(?P<rest2>(?:by|before)\s+.+)$",
    _I,
)
_EVENT_RE = re.compile(
    rf"^(?P<pre>.*?)\b(?P<event>{EVENT_WORDS})(?:\s+date)?"
    r"(?:\s+with\s+(?:the\s+)?(?P<with>(?:[\w'-]+\s+){0,2}?[\w'-]+))?\s+"
    # A moved date first: a bare "is" would read "is delayed to 2 December" as no date.
    rf"(?:(?:{_MOVED_AUX}\s+)?{_MOVE_VERB}(?:\s+(?:back|up|out))?\s+(?:to|until)"
    r"|is\s+(?:now\s+)?(?:scheduled\s+|planned\s+|set\s+|booked\s+)?(?:for|on)?"
    r"|will\s+be(?:\s+on)?|happens(?:\s+on)?|takes\s+place(?:\s+on)?|:)\s*(?P<rest>.+)$",
    _I,
)
_WE_SHIP_RE = re.compile(
    r"^(?:we|we'll|we\s+will|we're|we\s+are|the\s+team)\s+(?:going\s+to\s+|planning\s+to\s+"
    r"|plan\s+to\s+|will\s+|should\s+)?(?P<verb>launch|ship|release|go\s+live|deploy|demo)"
    r"\s+(?P<rest>(?:on|by)\s+.+)$",
    _I,
)
_THING_FILLER = re.compile(
    r"\b(?:final|new|hard|soft|current|original|overall|official|project|projects|whole|the"
    r"|our|my|their|this|that|its|it|of)\b|'s\b",
    _I,
)
_DATE_TAIL_RE = re.compile(
    r"^(?:,?\s*(?:at\s+\S+(?:\s*[ap]\.?m\.?)?|eod|end\s+of\s+day|this\s+year|next\s+year"
    r"|\w+\s+time|noon|midnight|morning|evening|afternoon|sharp|latest|at\s+the\s+latest))*"
    r"(?:\s*\b(?:because|due\s+to|as|since)\b.*|,\s*(?!(?:or|maybe|probably|unless|if|but)\b).+)?$",
    _I,
)
"""What may follow a date it is the value of: a time, and a reason or a clause of its own
("slips to 9 October, legal review needs another week"); not a hedge ("..., or later")."""


_ENDS_IN_PREPOSITION = re.compile(r"\b(?:for|to|on|at|in|by|from|with|about)$", _I)


def _thing(raw: str | None, clause: Clause) -> tuple[str, str]:
    """The (key, display) of what a deadline belongs to, or the stream's subject."""
    cleaned = re.sub(r"\s+", " ", _THING_FILLER.sub(" ", raw or "")).strip(" ,")
    # "Target for beta", "Date for the offsite": what precedes a preposition owns nothing.
    if not cleaned or not short_np(cleaned, 5) or _ENDS_IN_PREPOSITION.search(cleaned):
        return clause.subject, clause.subject_display
    return cleaned.lower(), cleaned


def _date_value(rest: str, clause: Clause) -> dates.DateHit | None:
    """The date `rest` consists of, allowing a short tail like 'at 5pm'; else None."""
    hit = dates.leading_date(rest, clause.at)
    if hit is None:
        return None
    stripped = dates.LEAD_RE.sub("", rest.strip())
    return hit if _DATE_TAIL_RE.match(stripped[hit.end :].strip()) else None


def dated_fact(
    category: FactCategory,
    key: tuple[str, str],
    slot: str,
    label: str,
    hit: dates.DateHit,
    clause: Clause,
) -> Parsed:
    iso = hit.day.isoformat()
    text = f"The {label} is {dates.human(hit.day)} ({iso})."
    text = text[0].upper() + text[1:]

    def rebuild(value: str) -> Parsed | None:
        other = _date_value(value, clause)
        return dated_fact(category, key, slot, label, other, clause) if other else None

    return Parsed(category, key[0], slot, iso, text, rebuild=rebuild)


def deadline(clause: Clause) -> Parsed | None:
    match = _DEADLINE_RE.match(clause.text)
    if match:
        raw = match["thing"] or match["pre"]
        rest = match["rest"]
    elif due := _DUE_RE.match(clause.text):
        raw = due["thing"] or due["thing2"]
        rest = due["rest"] or due["rest2"]
    else:
        return None
    hit = _date_value(rest, clause)
    if hit is None:
        return None
    key, shown = _thing(raw, clause)
    label = f"{shown} deadline" if shown else "deadline"
    return dated_fact(FactCategory.DEADLINE, (key, shown), "deadline", label, hit, clause)


def event_date(clause: Clause) -> Parsed | None:
    match = _EVENT_RE.match(clause.text)
    if match:
        # "The meeting with the bank is on Tuesday" is the bank's meeting
        event, raw, rest = match["event"], match["with"] or match["pre"], match["rest"]
    elif ship := _WE_SHIP_RE.match(clause.text):
        event, raw, rest = ship["verb"], None, ship["rest"]
    else:
        return None
    hit = _date_value(rest, clause)
    if hit is None:
        return None
    event = re.sub(r"\s+", " ", event.lower())
    key, shown = _thing(raw, clause)
    label = f"{shown} {event} date" if shown else f"{event} date"
    return dated_fact(FactCategory.DATE, (key, shown), f"{event} date", label, hit, clause)


# --- recurring events ------------------------------------------------------------------

_CLOCK = r"(?:\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2}:\d{2}|noon)"
_OWNER = r"(?:the|our|my|your|their|a|an)\s+"
_RECURRING_RE = re.compile(
    r"^(?:we\s+have\s+|there's\s+|there\s+is\s+|we\s+do\s+|we\s+hold\s+|we\s+run\s+)?"
    rf"(?:{_OWNER})?(?P<event>[\w:/&' -]{{2,60}}?)\s+(?:is\s+|are\s+|happens\s+"
    r"|happen\s+|takes\s+place\s+|will\s+be\s+|runs\s+|is\s+held\s+|is\s+scheduled\s+)?"
    rf"(?P<sched>(?:(?:at\s+)?{_CLOCK}\s+)?(?:{FREQUENCY})\b.*)$",
    _I,
)
_WEEKDAYS = r"(?:mondays|tuesdays|wednesdays|thursdays|fridays)"
# A recurring event that moves: "Standup moved to 10am", "The retro is now on Fridays",
# "Standup moves to 10:00 from next week", "The 1:1s are moving to 11:30".
_RESCHEDULED_RE = re.compile(
    rf"^(?:{_OWNER})?(?P<event>[\w:/&' -]{{2,40}}?)\s+(?:{_MOVED_AUX}\s+)?"
    rf"(?:{_MOVE_VERB}|been\s+moved|is\s+now|now\s+starts|starts)\s+(?:to\s+)?"
    rf"(?P<sched>(?:at\s+)?{_CLOCK}|(?:on\s+)?{_WEEKDAYS})"
    r"(?:\s+(?:from|starting|as\s+of)\b.*)?$",
    _I,
)
# Said of who moved it: "They moved standup to 10:15", "We pushed the retro to Fridays".
_MOVED_BY_RE = re.compile(
    r"^(?:they|we|i|someone|\w+)(?:'ve|\s+have)?\s+(?:just\s+)?(?:moved|pushed|shifted"
    rf"|rescheduled|changed|bumped)\s+(?:{_OWNER})?(?P<event>[\w:/&' -]{{2,40}}?)"
    r"\s+(?:back\s+|up\s+)?to\s+"
    rf"(?P<sched>(?:at\s+)?{_CLOCK}|(?:on\s+)?{_WEEKDAYS})$",
    _I,
)
_WE_MEET_RE = re.compile(
    r"^(?:we|the\s+team)\s+(?:meet|sync|catch\s+up|have\s+a\s+call|have\s+a\s+meeting)s?\s+"
    rf"(?P<sched>(?:{FREQUENCY})\b.*)$",
    _I,
)
_EVENT_HEAD_RE = re.compile(rf"(?:^|\s)(?:{RECURRING_EVENTS})$", _I)
_NOTICE_LABEL_RE = re.compile(r"^[a-z][a-z ]{0,15}:\s+", _I)
"""What a notice opens with ("Reminder: standup is..."): no part of the event's name. A
label starts with a letter, so "1:1s" keeps its name."""


def recurring(clause: Clause) -> Parsed | None:
    found = _scheduled(clause.text)
    if found is None:
        return None
    event, sched = found
    sched = sched.strip(" .")
    if len(sched.split()) > 12:
        return None
    shown = event if event[:2].isupper() else event[:1].lower() + event[1:]
    return Parsed(
        FactCategory.RECURRING, norm(event), "schedule", norm(sched), f"The {shown} is {sched}."
    )


def _scheduled(text: str) -> tuple[str, str] | None:
    """(event, schedule) of a recurring event's sentence."""
    for regex in (_RECURRING_RE, _RESCHEDULED_RE, _MOVED_BY_RE):
        match = regex.match(text)
        event = _NOTICE_LABEL_RE.sub("", match["event"].strip()) if match else ""
        if match and _EVENT_HEAD_RE.search(event) and short_np(event, 5):
            sched = match["sched"]
            return event, f"at {sched}" if re.match(r"\d|noon", sched) else sched
    meet = _WE_MEET_RE.match(text)
    return ("team meeting", meet["sched"]) if meet else None


# --- assignments -----------------------------------------------------------------------

_ASSIGN_RE = re.compile(
    rf"^(?:assign(?:ing|ed)?|hand(?:ing|ed)?(?:\s+off)?|giv(?:e|ing)|gave)\s+(?P<task>.+?)"
    rf"\s+(?:over\s+|off\s+)?to\s+(?P<person>{NAME})$",
    _I,
)
_HOLDS_KEY_RE = re.compile(
    rf"^(?P<person>{NAME})(?:'s\s+got|\s+has\s+got|\s+has|\s+owns|\s+is\s+on\s+point\s+for"
    r"|\s+is\s+driving|\s+is\s+on)\s+(?P<task>[A-Z][A-Z0-9_]*-\d+)(?:\s+now)?$"
)
""""Mei's got ALPHA-12", "Tom has ALPHA-3 now": holding an issue is being assigned it; "Tom
has a cold" names no issue, so it is not."""
_ASSIGNED_RE = re.compile(
    r"^(?P<task>.+?)\s+(?:(?:is|has\s+been|was|got|is\s+now|will\s+be)\s+)?(?:re)?assigned\s+to\s+"
    rf"(?P<person>{NAME})$"
)
_WILL_TAKE_RE = re.compile(
    rf"^(?P<person>{NAME})\s+(?:will|'ll|is\s+going\s+to|is\s+gonna)\s+"
    rf"(?P<verb>{ASSIGNMENT_VERBS})\s+(?P<task>.+)$"
    rf"|^(?P<person2>{NAME})\s+(?:is\s+taking|is\s+picking\s+up|took|picked\s+up|took\s+over"
    r"|is\s+taking\s+over|volunteered\s+for|is\s+on\s+point\s+for|is\s+driving)\s+"
    r"(?P<task2>.+)$"
)
_CARRIED_RE = re.compile(
    r"\s(?:back\s+)?(?:to|into|onto|from)\s+(?:the|a|an|my|his|her|their|our|your|\w+['’]s)\s",
    _I,
)
""""Oskar took the cat to the vet", "Ana will pick up the cake from the bakery": a thing
taken somewhere is carried, not taken on as work."""
_JOB_TAKEN_RE = re.compile(r"^(?:a|an)\s+(?:new\s+)?(?:job|position|post)\b", _I)
""""Anna took a job in Denver": a job taken is an employer (the personal rules' reading),
not a task."""
_PERSON_ASSIGNED_RE = re.compile(
    rf"^(?P<person>{NAME})\s+(?:(?:is|was|has\s+been|got|is\s+now)\s+)?(?:re)?assigned\s+"
    r"(?:to|on)\s+(?P<task>(?:the|a|an|our|this|that)\s.+|[a-z].*|[A-Z][A-Z0-9_]*-\d+\b.*)$"
)
""""Anil assigned to ALPHA-142", "Priya is assigned to the billing migration": the person
first, then something that is plainly not a name (an issue key, a lowercase phrase)."""
_TASK_DATE_RE = re.compile(r"\s+(?:by|on|before|until)\s+(?P<date>.+)$", _I)


def assignment_fact(task: str, who: str, clause: Clause) -> Parsed | None:
    due = ""
    tail = _TASK_DATE_RE.search(task)
    if tail and (hit := _date_value(tail["date"], clause)):
        due = f" Due {dates.human(hit.day)} ({hit.day.isoformat()})."
        task = task[: tail.start()]
    shown = display(task)
    if not is_name(who) or not short_np(shown) or norm(shown) in _VAGUE_AREAS:
        return None
    if words(shown)[-1] in _ERRANDS:
        return None
    who = person(who)

    def rebuild(value: str) -> Parsed | None:
        return assignment_fact(task, display(value), clause)

    text = f"{who} is assigned {task.strip()}." + due
    return Parsed(
        FactCategory.ASSIGNMENT,
        norm(shown),
        "assignee",
        norm(who),
        text,
        person=who,
        rebuild=rebuild,
    )


def assignment(clause: Clause) -> Parsed | None:
    match = (
        _ASSIGN_RE.match(clause.text)
        or _PERSON_ASSIGNED_RE.match(clause.text)
        or _ASSIGNED_RE.match(clause.text)
        or _HOLDS_KEY_RE.match(clause.text)
    )
    if match:
        return assignment_fact(match["task"], match["person"], clause)
    match = _WILL_TAKE_RE.match(clause.text)
    if match is None:
        return None
    task = match["task"] or match["task2"]
    if _CARRIED_RE.search(f"{task} ") or _JOB_TAKEN_RE.match(task):
        return None
    return assignment_fact(task, match["person"] or match["person2"], clause)


# --- decisions -------------------------------------------------------------------------

_WE_CHOOSE = (
    r"(?:(?:we(?:'ll|\s+will)?|let's)\s+(?=(?:use|go\s+with|adopt|switch|move|stick|migrate"
    r"|standardi[sz]e)\b))?"
)
"""'we' before a verb of choosing, left out of the choice: "Decision: we go with X"."""
_LEAD_IN = (
    r"(?:(?:so|ok(?:ay)?|alright|going\s+forward|from\s+now\s+on|in\s+the\s+end"
    r"|(?:after|following)\s+(?:the\s+|a\s+|our\s+)?\w+(?:\s+\w+)?),?\s+"
    r"|(?:[\w'-]+\s+){0,2}(?:notes|update|recap|summary|minutes)\s*:\s+)*"
)
"""(A label before a colon, "standup notes: we agreed ...", is no part of the decision.)"""
"""What may open a decision before its subject: "ok so", "going forward", "after the review"."""
_CHOICE_VERBS = (
    r"go(?:ing)?\s+with|use|adopt|switch(?:ing)?\s+to|mov(?:e|ing)\s+to|stick(?:ing)?\s+with"
    r"|migrat(?:e|ing)\s+to|standardi[sz]e\s+on|settl(?:e|ing)\s+on|pick(?:ing)?"
    r"|choos(?:e|ing)|opt(?:ing)?\s+for"
)
_DECISION_RES = (
    re.compile(
        rf"^{_LEAD_IN}(?:we|i|the\s+team|they|everyone|management|leadership)(?:\s+|(?=['\u2019]))"
        r"(?:have\s+|has\s+|['\u2019]ve\s+|finally\s+|all\s+|just\s+)*(?:decided|agreed|chose"
        r"|settled|opted"
        r"|picked|voted|committed)\s+(?:to\s+|on\s+|that\s+|for\s+|upon\s+)?(?P<what>.+)$",
        _I,
    ),
    re.compile(
        rf"^{_LEAD_IN}(?:we|i)(?:'ll|\s+will|'re\s+going\s+to|\s+are\s+going\s+to"
        r"|'m\s+going\s+to|\s+am\s+going\s+to|'re|\s+are)\s+"
        rf"(?P<what>(?:{_CHOICE_VERBS})\s+.+)$",
        _I,
    ),
    re.compile(
        rf"^{_LEAD_IN}let's\s+(?P<what>(?:go\s+with|use|stick\s+with|switch\s+to|adopt"
        r"|move\s+to|migrate\s+to|settle\s+on|pick|choose)\s+.+)$",
        _I,
    ),
    re.compile(
        r"^(?:the\s+)?(?:final\s+)?decision(?:\s+(?:from|after|at|in|of)\s+[^:]{1,40}?)?"
        r"(?:\s+is|\s+was)?\s*(?::|is|was)\s*(?:to\s+|that\s+)?"
        rf"{_WE_CHOOSE}(?P<what>.+)$",
        _I,
    ),
    re.compile(
        rf"^(?:the\s+)?(?:final\s+call|verdict|decided|agreed|approved)\s*:\s*{_WE_CHOOSE}"
        r"(?P<what>.+)$",
        _I,
    ),
    re.compile(
        rf"^{_LEAD_IN}(?:the\s+)?(?:consensus|plan|agreement)\s+(?:is|was)\s+to\s+"
        rf"(?P<what>(?:{_CHOICE_VERBS})\s+.+)$",
        _I,
    ),
)
_DECISION_VERB = re.compile(
    rf"^(?:to\s+)?(?:{_CHOICE_VERBS}|with)\s+",
    _I,
)
_FOR_TOPIC = re.compile(r"^(?P<choice>.+?)\s+(?:for|as)\s+(?:the\s+|our\s+)?(?P<topic>.+)$", _I)


def decision_fact(what: str, text: str, clause: Clause) -> Parsed | None:
    what = what.strip(" .")
    choice = _DECISION_VERB.sub("", what)
    topic = None
    if split := _FOR_TOPIC.match(choice):
        choice, topic = split["choice"], norm(split["topic"])
    choice = display(choice)
    if not choice or len(words(choice)) > 12 or norm(choice) in _VAGUE_AREAS | NOT_NAMES:
        return None
    if _NO_CHOICE_RE.match(norm(choice)):
        return None
    topic = topic_of(choice, DECISION_TOPICS) or topic or keywords(what)
    if not topic:
        return None

    def rebuild(value: str) -> Parsed | None:
        other = decision_fact(value, text, clause)
        return replace(other, slot=f"decision:{topic}") if other else None

    return Parsed(
        FactCategory.DECISION,
        clause.subject,
        f"decision:{topic}",
        norm(choice),
        _named_chooser(sentence_case(text), clause),
        rebuild=rebuild,
    )


_CHOOSER_I = re.compile(r"\bI(?P<verb>'ve|\s+have|'m|\s+am|'ll|\s+will)?\b")
_THIRD_PERSON_VERB = {"'ve": " has", " have": " has", "'m": " is", " am": " is"}


def _named_chooser(text: str, clause: Clause) -> str:
    """A decision said as "I decided ...", with who decided named: the fact is read in
    other prompts, where "I" is no one ("Jon chose the blue sofa.")."""
    who = first_person(clause)
    if who is None:
        return text

    def named(found: re.Match[str]) -> str:
        verb = found["verb"] or ""
        return who[1] + _THIRD_PERSON_VERB.get(verb, verb.replace("'ll", " will"))

    return _CHOOSER_I.sub(named, text, count=1)


def decision(clause: Clause) -> Parsed | None:
    for regex in _DECISION_RES:
        if match := regex.match(clause.text):
            return _decisions(clause, match)
    return None


# "drop the follow-up and put the shift on floods": each side of "and" holds a verb or a
# subject of its own, and is a decision of its own when both are three words or more.
_AND_CLAUSE = re.compile(r"\s*,?\s+and\s+(?:then\s+|also\s+)?", _I)


def _decisions(clause: Clause, match: re.Match[str]) -> Parsed | None:
    """The decision `match` states, with each further coordinated one as `also`: "we agreed
    DOCK-5 goes into sprint 7 and DOCK-7 gets parked" is two decisions."""
    what = match["what"]
    parts = _AND_CLAUSE.split(what)
    if len(parts) < 2 or any(len(words(part)) < 3 for part in parts) or _goes_on(parts):
        return decision_fact(what, clause.text, clause)
    lead = clause.text[: match.start("what")]
    if verb := _DECISION_VERB.match(parts[0]):  # "go with X for A and Y for B": both go with
        parts[1:] = [p if _DECISION_VERB.match(p) else verb[0] + p for p in parts[1:]]
    found = [decision_fact(part, f"{lead}{part.strip(' .')}", clause) for part in parts]
    kept = [parsed for parsed in found if parsed is not None]
    if len(kept) < 2:
        return decision_fact(what, clause.text, clause)
    return replace(kept[0], also=(*kept[0].also, *kept[1:]))


_GOES_ON = re.compile(r"^(?:is|are|was|were|has|have|had|looks?|feels?)\b", _I)


def _goes_on(parts: list[str]) -> bool:
    """Whether a part after "and" goes on with the one before it, having no subject of its
    own: "furniture that looks great and is comfy too" is one choice."""
    return any(_GOES_ON.match(part) for part in parts[1:])


# --- blockers --------------------------------------------------------------------------

_BLOCKER_RES = (
    re.compile(
        r"^(?P<who>.+?)\s*(?:is|are|'s|'re|am|'m|has\s+been|have\s+been|'ve\s+been|was|were)\s+"
        r"(?:still\s+|currently\s+|totally\s+|completely\s+)?(?:blocked|stuck|held\s+up)\s+"
        r"(?:on|by|waiting\s+(?:on|for))\s+(?P<by>.+)$",
        _I,
    ),
    re.compile(
        r"^(?:(?P<who>we|i)\s*(?:'re|are|'m|am)\s+)?(?:still\s+)?waiting\s+(?:on|for)\s+(?P<by>.+)$",
        _I,
    ),
    re.compile(
        r"^(?P<by>.+?),?\s+(?:that's|that\s+is|which\s+is|this\s+is|it's|it\s+is)\s+(?:a|the|our"
        r"|one)\s+(?:big\s+|major\s+|main\s+|real\s+|huge\s+|hard\s+)?blocker"
        r"(?:\s+(?:for|on)\s+(?P<who>.+))?$",
        _I,
    ),
    re.compile(
        r"^(?P<by>.+?)\s+(?:is|are)\s+(?:a|the|our)\s+(?:big\s+|major\s+|main\s+)?blocker"
        r"(?:\s+(?:for|on)\s+(?P<who>.+))?$"
        r"|^(?P<by2>.+?)\s+(?:is|are)\s+blocking\s+(?P<who2>.+)$",
        _I,
    ),
)


def blocker(clause: Clause) -> Parsed | None:
    for regex in _BLOCKER_RES:
        if match := regex.match(clause.text):
            break
    else:
        return None
    groups = match.groupdict()
    by, who = groups.get("by") or groups.get("by2"), groups.get("who") or groups.get("who2")
    if not by or len(words(by)) > 20 or not keywords(by) or re.match(r"(?:you|your)\b", by, _I):
        return None
    subject = clause.subject
    if who and norm(who) not in ("we", "i", "us", "team", "project", "") and short_np(who, 5):
        subject = norm(who)
    return Parsed(
        FactCategory.BLOCKER,
        subject,
        f"blocker:{keywords(by)}",
        norm(by),
        sentence_case(clause.text),
    )


# --- commitments (the user's own) ------------------------------------------------------

_COMMIT_RE = re.compile(
    r"^(?P<who>i|we)(?:'ll|\s+will|\s+shall|'m\s+going\s+to|\s+am\s+going\s+to|'re\s+going\s+to"
    r"|\s+are\s+going\s+to|\s+promise\s+to|\s+commit\s+to|'m\s+gonna|'re\s+gonna)\s+"
    r"(?:also\s+|definitely\s+|first\s+|then\s+|still\s+)?(?P<action>.+)$",
    _I,
)
_VAGUE_ACTIONS = wordset(
    """see think be have let keep try get talk discuss consider need want like love miss
    know wait hope ask start continue figure remember say tell go head grab eat sleep rest
    leave come stay sit relax chill do make never always forget cherish treasure enjoy
    check look"""
)
_IDLE_ACTIONS = re.compile(r"^take\s+(?:a\s+(?:break|look|nap|walk|day|rest)|off|it\s+easy)", _I)


# A commitment worth pinning names a deliverable action or a date.
_WORK_VERB_RE = re.compile(
    r"^(?:send|finish|ship|deliver|review|write|draft|prepare|fix|update|deploy|submit|book"
    r"|schedule|email|share|complete|file|merge|release|test|call|contact|pay|order|set\s+up"
    r"|follow\s+up|hand\s+over|sign|approve|migrate|publish|present|document|investigate"
    r"|upload|install|configure|renew|cancel|confirm|organi[sz]e|plan|run|build|implement)\b",
    _I,
)


_YOU_RE = re.compile(r"\b(?P<word>you|your|yours)\b", _I)


def addressed(text: str, you: str | None) -> str:
    """`text` with the person "you" means named, where the chat has one: a fact is read in
    a prompt to the assistant, where "you" is the assistant ("Jon will send you a vid" to
    Gina is "Jon will send Gina a vid")."""
    if not you:
        return text
    return _YOU_RE.sub(lambda m: you if m["word"].lower() == "you" else f"{you}'s", text)


def commitment(clause: Clause) -> Parsed | None:
    me = first_person(clause)
    if me is None:
        return None
    match = _COMMIT_RE.match(clause.text)
    if not match:
        return None
    action = match["action"].strip(" .")
    verb = words(action)[0] if words(action) else ""
    if verb in _VAGUE_ACTIONS or len(words(action)) < 2 or _IDLE_ACTIONS.match(action):
        return None
    if not (_WORK_VERB_RE.match(action) or dates.find_dates(action, clause.at)):
        return None  # "we'll rock the dance floor" is a mood, not a promise to track
    first = match["who"].lower() == "i"
    subject, who = me if first else (clause.subject, "The team")
    action = addressed(third_person(dates.annotate(action, clause.at)), clause.you)
    slot = "commitment:" + keywords(dates.DATE_RE.sub(" ", re.sub(r"\(\S+\)", " ", action)))
    return Parsed(FactCategory.COMMITMENT, subject, slot, norm(action), f"{who} will {action}.")


# --- preferences (the user's own) ------------------------------------------------------

_PREFER_RE = re.compile(
    r"^i(?:\s+|(?='))(?:really\s+|generally\s+|usually\s+|strongly\s+|much\s+|always\s+|definitely\s+)?"
    r"(?P<verb>prefer|like|love|enjoy|hate|dislike|don't\s+like|do\s+not\s+like|can't\s+stand"
    r"|would\s+prefer|'d\s+prefer|'d\s+rather|would\s+rather"
    r"|(?:would|'d)\s+(?:really\s+|much\s+)?like(?=\s+(?:you\s+to|it\s+if\s+you|.{0,40}\b(?:replies"
    r"|answers|responses|explanations|summaries)\b)))"
    r"\s+(?P<what>.+)$",
    _I,
)
# "Not a fan of spicy food", "I'm not really into jazz": a dislike said as a denial.
_NOT_A_FAN_RE = re.compile(
    r"^(?:i'm\s+|im\s+|i\s+am\s+)?not\s+(?:really\s+|much\s+of\s+|that\s+|too\s+|a\s+)?"
    r"(?:big\s+|huge\s+)?(?P<verb>fan\s+of|into|big\s+on|keen\s+on|fussed\s+on)\s+(?P<what>.+)$",
    _I,
)
_ALWAYS_RE = re.compile(
    r"^(?:please\s+)?(?P<verb>always|never|don't\s+ever|do\s+not\s+ever)\s+(?P<what>.+)$"
    r"|^(?:please\s+)?(?P<verb2>don't|do\s+not)\s+(?P<what2>.+)$"
    r"|^my\s+preference\s+is\s+(?:for\s+|to\s+)?(?P<what3>.+)$",
    _I,
)
_STANCES = {
    "hate": "dislikes",
    "dislike": "dislikes",
    "don't like": "dislikes",
    "do not like": "dislikes",
    "can't stand": "dislikes",
    "like": "likes",
    "love": "likes",
    "enjoy": "likes",
}
# "I like that idea", "I'd rather not say": reactions, not standing preferences.
_NOT_PREFERENCES = re.compile(
    r"^(?:to\s+(?:talk|know|ask|discuss|say|go|see|check|understand|learn|get|start|make|add"
    r"|thank|mention)\b|(?:that|it|this|those|these|them|your|you|mind|the\s+idea|the\s+way"
    r"|not\s+say|not|how|what|when|where|all)\b"
    rf"|my\s+(?:{RELATION_RE})\b)",  # "I love my wife" is affection, not a taste
    _I,
)
_NOT_IMPERATIVE = re.compile(
    r"^(?:the|a|an|my|your|our|this|that|it|there|mind|worry|forget|bother|hesitate|rush|feel"
    r"|stress|panic|be\s+sorry|apologi[sz]e"
    r"|been|had|seen|heard|thought|known|felt|gone|met|tried|done|got|gotten|was|were"
    r"|here|so|very|\w+ing"
    # a subject or a preposition after "always" or "never" says how things are, asks nothing:
    # "Always I mix them up", "never in my life"
    r"|i|we|he|she|they|in|on|at|for|once|again)\b",
    _I,
)


# An always/never instruction is a preference when it is about how the assistant works:
# its verb is something the assistant does. An object "me" or "my" alone is not enough:
# "don't age me", "don't tell my sister" and "don't let Tavita feed me" are said in talk.
_FOR_THE_ASSISTANT_RE = re.compile(
    r"^(?:use|write|answer|reply|respond|include|format|call|address|show|send|remind|ask"
    r"|mention|cc|keep|add|put|list|quote|cite|summari[sz]e|explain|translate|sign"
    r"|refer|spell|round|convert|start|end|copy|bcc|check\s+with|suggest|recommend|book"
    r"|schedule|buy|order|plan|let\s+me\s+(?:know|forget))\b",
    _I,
)


# What follows the liked thing says when or why, not what: "hiking on weekends", "hiking
# now, my knees can't take it" are both about hiking.
_PREFERENCE_TAIL_RE = re.compile(
    r"\s*(?:[,;(]|\s-\s|\b(?:on|at|during|every|when|whenever|with|because|since|now"
    r"|these\s+days|anymore|lately|so|but|though|in\s+the)\b).*$",
    _I,
)


def preference_slot(what: str) -> str:
    thing = _PREFERENCE_TAIL_RE.sub("", what) or what
    return topic_of(what, PREFERENCE_TOPICS) or f"preference:{keywords(thing, 2)}"


# A taste is said in its first words; what follows a comma or "so" is why, not what.
_WHY_RE = re.compile(
    r"\s*(?:[,;:(]|\s[-–—]\s|\b(?:so|because|since|which|but|tbh|btw|lol|haha|imo|tho"
    r"|though)\b).*$",
    _I,
)
# Likes whose object names nothing on its own: "I love the thought", "I love their work".
_VAGUE_TASTES = wordset(
    """thought idea genre theme way book one stuff thing things work vibe vibes look sound
    that this it more even too much lot so really also"""
)


def _stated_preference(
    match: re.Match[str], me: tuple[str, str], stance: str | None = None
) -> Parsed | None:
    verb, what = re.sub(r"\s+", " ", match["verb"].lower()), match["what"].strip(" .")
    what = _WHY_RE.sub("", what) or what
    if _NOT_PREFERENCES.match(what) or not keywords(what, 2):
        return None
    if set(keywords(what, 6).split()) <= _VAGUE_TASTES | {"their", "the", "them"}:
        return None
    stance = stance or _STANCES.get(verb, "prefers")
    return Parsed(
        FactCategory.PREFERENCE,
        me[0],
        preference_slot(what),
        f"{stance} {norm(what)}",
        f"{me[1]} {stance} {third_person(what)}.",
    )


# A request about how to answer, said once as a standing wish: "Please keep your answers
# short", "Answer me in German". Only answer style counts (see _STYLE_TOPICS): "answer the
# email" asks for a task.
_STYLE_REQUEST_RE = re.compile(
    r"^(?:please\s+)?(?P<what>(?:keep|make|put)\s+(?:your\s+|the\s+)?(?:answers|replies|responses)"
    r"\s+.+?"
    # "keep things in short bullet points": said of "things", only a length or a format
    r"|(?:keep|make|put)\s+(?:things|everything|it)\s+(?:short|brief|concise|simple|(?:in|as)\s+"
    r"(?:short\s+)?(?:bullet\s+points|bullets|a\s+list|lists|a\s+table|tables))"
    r"|(?:answer|reply|respond|write|talk)\s+(?:to\s+me\s+|me\s+)?(?:in|with|using)\s+.+?"
    r"|use\s+.+?\s+(?:in|for)\s+(?:your\s+)?(?:answers|replies|responses))"
    r"(?:,?\s*please)?[.!]*$",
    _I,
)
_STYLE_TOPICS = ("response length", "language", "format", "tone")
_STANDING = ("language", "tone")
"""Styles that an "answer in ..." request sets for good, where a format is for one answer."""


def _style_request(text: str, me: tuple[str, str]) -> Parsed | None:
    match = _STYLE_REQUEST_RE.match(text)
    what = match["what"].strip(" .!,") if match else ""
    slot = preference_slot(what) if what else ""
    if slot not in _STYLE_TOPICS:
        return None
    if re.match(r"(?:answer|reply|respond|write|talk)\b", what, _I) and slot not in _STANDING:
        return None  # "Respond with a table" asks for this answer; a language stays
    said = what[:1].lower() + what[1:]
    return Parsed(
        FactCategory.PREFERENCE,
        me[0],
        slot,
        f"asks: {norm(what)}",
        f"{me[1]} asks you to {said}.",
    )


def preference(clause: Clause) -> Parsed | None:
    me = first_person(clause)
    if me is None:
        return None
    if match := _PREFER_RE.match(clause.text):
        return _stated_preference(match, me)
    if match := _NOT_A_FAN_RE.match(clause.text):
        return _stated_preference(match, me, stance="dislikes")
    if not clause.you and (style := _style_request(clause.text, me)):
        return style
    match = _ALWAYS_RE.match(clause.text)
    if not match:
        return None
    what = (match["what"] or match["what2"] or match["what3"]).strip(" .")
    verb = (match["verb"] or match["verb2"] or "").lower()
    if verb and clause.you:
        return None  # "don't remind me", "keep it short": said to the person it answers
    if not keywords(what, 2) or (verb and _NOT_IMPERATIVE.match(what)):
        return None
    if verb and not _FOR_THE_ASSISTANT_RE.search(what):
        return None  # "never give up" is encouragement, not an instruction to the assistant
    if verb and len(what.split()) < 2:
        return None  # "Don't ask." asks for nothing to be done: a verb with no object
    stance = "always" if verb == "always" else "never" if verb else "prefers"
    said = third_person(what)
    text = f"{me[1]} asks you to {stance} {said}." if verb else f"{me[1]} prefers {said}."
    return Parsed(
        FactCategory.PREFERENCE, me[0], preference_slot(what), f"{stance} {norm(what)}", text
    )


# --- status ----------------------------------------------------------------------------

_STATUS_RE = re.compile(
    r"^(?P<thing>.+?)\s+(?:is|are|has\s+been|have\s+been)\s+(?:now\s+|finally\s+|officially\s+"
    r"|fully\s+)?(?P<status>done|complete|completed|finished|shipped|live|launched|released"
    r"|deployed|merged|on\s+track|behind\s+schedule|at\s+risk|delayed|on\s+hold|paused"
    r"|cancell?ed|in\s+progress|in\s+review)$",
    _I,
)


_PEOPLE_WORDS = frozenset({"i", "me", "you", "we", "us"})
"""Words that make a status's subject people rather than a piece of work."""


def status(clause: Clause) -> Parsed | None:
    match = _STATUS_RE.match(clause.text)
    if not match:
        return None
    thing = display(match["thing"])
    if (
        not thing
        or not short_np(thing, 5)
        or match["thing"].lower().split()[0] in NOT_NAMES - {"the", "our"}
        or set(match["thing"].lower().split()) & _PEOPLE_WORDS
    ):
        return None  # "Dayo and I are done" ends a couple, not a task
    return Parsed(
        FactCategory.STATUS,
        norm(thing),
        "status",
        norm(match["status"]),
        sentence_case(clause.text),
    )


# --- amounts ---------------------------------------------------------------------------

_MONEY = (
    r"(?:[$€£¥]\s?\d[\d,.]*(?:\s?(?:k|m|bn|million|billion|thousand))?"
    r"|\d[\d,.]*\s?(?:k|m|bn|million|billion|thousand)?\s?(?:dollars|euros|pounds|usd|eur|gbp"
    r"|bucks)|\d[\d,.]*\s?(?:k|m|bn|million|billion|thousand)\b)"
)
_PRICED = (
    r"budget|price|cost|rent|salary|pay|fee|rate|quote|estimate|mortgage|deposit|allowance"
    r"|spend|revenue|arr|mrr|bill|limit|offer"
)
_NAMED_SUM = (
    rf"(?P<det>the|our|my|their)\s+(?P<what>(?:[\w-]+\s+){{0,3}}?(?:{_PRICED}))"
    r"(?:\s+for\s+(?P<whose>(?:the\s+)?[\w-]+(?:\s+[\w-]+)?))?"
)
_SUM = (
    r"(?:now\s+|still\s+|only\s+|about\s+|around\s+|roughly\s+|approximately\s+)?"
    rf"(?P<amount>{_MONEY}(?:\s+(?:a|per|/)\s*(?:month|year|week|day|hour|night|head|seat))?)"
    r"(?:\s+now)?$"
)
_AMOUNT_RE = re.compile(
    rf"^{_NAMED_SUM}\s+(?:is|was|will\s+be|has\s+been|came\s+to|comes\s+to"
    r"|(?:went|goes|got|was|has\s+been)\s+(?:up|down|raised|cut|increased|reduced|lowered"
    rf"|bumped)\s+to)\s+{_SUM}",
    _I,
)
# Said of who changed it: "The landlord put the rent up to £1,250", "They cut our budget to 20k".
_AMOUNT_CHANGED_RE = re.compile(
    r"^(?:they|he|she|we|i|(?:the|my|our)\s+[\w-]+)\s+(?:just\s+)?(?:put|pushed|raised|increased"
    rf"|bumped|hiked|cut|lowered|reduced|dropped)\s+{_NAMED_SUM}\s+(?:up\s+|down\s+)?to\s+{_SUM}",
    _I,
)


_OWN_SUMS = frozenset({"rent", "salary", "pay", "mortgage", "allowance", "deposit"})


def _own_sum(det: str, what: str, clause: Clause) -> bool:
    """In a chat, "the rent" is the speaker's own, as "my rent" is; "the budget" is not."""
    chat = clause.subject == "global"
    return det.lower() == "the" and chat and what.split()[-1].lower() in _OWN_SUMS


def amount(clause: Clause) -> Parsed | None:
    """A sum with its name: "The budget for Q3 is $50k", "My rent is £1,200 a month"."""
    text = clause.text.strip()
    match = _AMOUNT_RE.match(text) or _AMOUNT_CHANGED_RE.match(text)
    if not match:
        return None
    what = match["what"]
    if match["whose"]:
        what = f"{strip_det(match['whose'])} {what}"
    who: tuple[str, str] | None = (clause.subject, clause.subject_display)
    if match["det"].lower() == "my" or _own_sum(match["det"], what, clause):
        who = first_person(clause)
    if who is None:
        return None
    owner = f"{who[1]}'s" if who[1] else "The"
    text = sentence_case(f"{owner} {what} is {match['amount']}")
    slot = f"amount:{what.lower()}"
    return Parsed(FactCategory.NOTE, who[0], slot, match["amount"].lower(), text)


# First match wins, so the narrower rules go first: "standup every Monday" is a schedule
# before it is a date, and "Raj will handle X" is an assignment before a responsibility.
RULES: tuple[Rule, ...] = (
    recurring,
    deadline,
    event_date,
    role,
    tenure,
    assignment,
    decision,
    blocker,
    responsibility,
    commitment,
    preference,
    status,
    amount,
)

# Rules that read negated clauses themselves ("I don't like...", "decided not to...").
NEGATION_AWARE: tuple[Rule, ...] = (preference, decision, blocker)

# Most clauses of team chat state nothing, and these rules, whose regexes scan a clause
# from every position, cost the most when they fail. Each needs one of its cue words in the
# clause (a word of each alternative of its regexes), so a clause without any is skipped
# with the same result. Only for ASCII text: there re.IGNORECASE means plain lowercase,
# while elsewhere it also matches 'K' (Kelvin) to 'k', 'ſ' to 's' and the like.
_CUE_WORDS: dict[Rule, tuple[str, ...]] = {
    deadline: ("deadline", "due", "cutoff", "cut-off", "need", "has", "have"),
    # EVENT_WORDS' longest word of each alternative, and _WE_SHIP_RE's one other verb.
    event_date: (*(max(re.split(r"\\s\+", e), key=len) for e in EVENT_WORDS.split("|")), "ship"),
    blocker: ("block", "stuck", "held", "waiting"),
    amount: ("$", "€", "£", "¥", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"),
}


def _cued(rule: Rule, lower: str | None) -> bool:
    cues = _CUE_WORDS.get(rule)
    return cues is None or lower is None or any(cue in lower for cue in cues)


def parse(clause: Clause, rules: tuple[Rule, ...] = RULES) -> Parsed | None:
    lower = clause.text.lower() if clause.text.isascii() else None
    for rule in rules:
        if _cued(rule, lower) and (found := rule(clause)) is not None:
            return found
    return None
