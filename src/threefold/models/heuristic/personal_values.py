"""How a personal fact's value reads: each reader takes the raw words a pattern caught and
returns the value as shown and as keyed, or None when the words are no such value ("I
have a meeting" names no condition)."""

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from threefold import dates
from threefold.models.heuristic.patterns import DECISION_TOPICS, NOT_NAMES
from threefold.models.heuristic.personal_words import (
    CAREER_FIELDS,
    COMPOUND_JOB_RE,
    DIETS,
    DOSE,
    INSTRUMENTS_AND_SPORTS,
    JOB_HEADS,
    LANGUAGES,
    MARITAL_STATUSES,
    NAMED_INSTRUMENTS_AND_SPORTS,
    NATIONALITIES,
    RELIGIONS,
    SKILLS,
    THING_KINDS,
)
from threefold.models.heuristic.rules import (
    Clause,
    display,
    is_name,
    keywords,
    person,
)
from threefold.models.heuristic.text import (
    STOPWORDS,
    indefinite_article,
    third_person,
    titles,
    words,
    wordset,
)

_I = re.IGNORECASE


@dataclass(frozen=True)
class Value:
    shown: str
    key: str
    kind: str = ""
    """What the slot needs beyond the subject: a thing's kind, an event's name."""


Reader = Callable[[str, Clause], Value | None]


_TAIL_RE = re.compile(
    r"(?:\s*[;(–—]|\s+-\s|\s+(?:since|for|with|because|as\s+of|last|this|next|ago|when"
    r"|where|after|before|until|but|so|which|who|though|although|while|right\s+now|now"
    r"|btw|fyi|lol|haha|tbh|honestly|by\s+the\s+way"
    r"|anymore|any\s+more|these\s+days|recently|back\s+in|in|a\s+(?:few|couple)|about"
    r"|around|together|full[-\s]time|part[-\s]time|remotely|again|already|too|as\s+well"
    r"|\d+\s+(?:years?|months?|weeks?|days?)|and\s+(?:i|we|my|it|he|she|they)|or\s+so"
    r"|(?:ages|years|months|weeks|a\s+while|(?:a\s+)?long\s+time)\s+ago"
    r"|(?:once|twice|three\s+times|\d+\s+times)\s+a\s+(?:day|week|month|year)"
    r"|downtown|nearby|locally|near\s+(?:us|me|them|him|her|(?:my|our)\s+[\w-]+)"
    r"|at\s+the\s+moment|from|instead|there|here|to|a\s+lot|often|sometimes"
    r"|occasionally|all\s+the\s+time|every\s+\w+|(?:really\s+|pretty\s+|very\s+)?well"
    r"|a\s+(?:bit|little)|badly|after\s+all|most\s+\w+|on|originally|over\s+the|during"
    r"|at\s+(?:home|work|school)|today|tonight|yesterday|tomorrow)\b|,\s*\w+ly\b"
    r"|,\s+(?:he|she|they|it|i|we|which|and|but|so|because)\b|\s+(?:either|neither)\b).*$",
    _I,
)
_ONE_NATIONALITY = "|".join(sorted(NATIONALITIES))
NATIONALITY_RE = rf"(?:{_ONE_NATIONALITY})(?:-(?:{_ONE_NATIONALITY}))?"
_CONNECTORS = wordset("of de la le del am upon on the and & da von van")


def _cut(raw: str) -> str:
    return _TAIL_RE.sub("", raw.strip()).strip(" .,!;:\"'")


def _proper(text: str, max_words: int, clause: Clause) -> bool:
    """Capitalised words (with 'of', 'am'...), or all lowercase from someone who types
    everything in lowercase: "We live in interesting times" names no place."""
    parts = text.replace(",", " ").split()
    if not parts or len(parts) > max_words or parts[0].lower() in NOT_NAMES | STOPWORDS:
        return False
    if text.islower():
        return clause.text.islower() and not any(p in STOPWORDS for p in parts)
    return all(p[0].isupper() or p[0].isdigit() or p.lower() in _CONNECTORS for p in parts)


# What comes before a place's name: "the city of Porto", "rural Vermont".
_PLACE_LEAD_RE = re.compile(
    r"^(?:the\s+)?(?:city\s+of\s+)?(?:(?:rural|suburban|downtown|central|coastal|upstate"
    r"|northern|southern|eastern|western|north|south|east|west)\s+)*(?=[A-Z])"
)


def place(raw: str, clause: Clause) -> Value | None:
    """A place with a name; "moved to Kubernetes" is a migration, not a move, and "moved to
    Fridays" a new day."""
    shown = _cut(_PLACE_LEAD_RE.sub("", raw.strip()))
    if not _proper(shown, 4, clause) or shown.lower() in _known_things():
        return None
    if dates.is_calendar_word(shown):
        return None  # "Triage moved to Wednesdays": a day, not a home
    if re.fullmatch(r"[A-Z]{3,6}", shown) and shown not in _PLACE_ACRONYMS:
        return None  # "HSBC", "IBM": an organisation
    return Value(_title(shown), shown.lower())


def near_place(raw: str, clause: Clause) -> Value | None:
    """A home said by what it is near: "near Bath", "just outside Leeds"."""
    said = _NEAR_RE.match(raw.strip())
    found = place(said["place"], clause) if said else None
    if said is None or found is None:
        return None
    near = " ".join(said["near"].lower().split())
    return Value(f"{near} {found.shown}", f"{near} {found.key}")


_NEAR_RE = re.compile(r"^(?P<near>near|outside|just\s+outside)\s+(?P<place>.+)$", _I)


_PLACE_ACRONYMS = frozenset(["NYC", "USA", "UAE", "NOLA", "NSW", "QLD", "PNW", "DFW", "ACT"])


_DEPARTMENTS = wordset(
    """sales marketing engineering finance legal support operations ops design product research
    accounting procurement hr it qa security compliance management admin it's"""
)


def whereabouts(raw: str, clause: Clause) -> Value | None:
    """Where someone is: a place, not a department ("I'm in Marketing") or a quarter ("Q3")."""
    if words(raw) and words(raw)[0] in _DEPARTMENTS or re.search(r"\d", raw):
        return None
    return place(raw, clause)


@cache
def _known_things() -> frozenset[str]:
    """Names of tools, products and technologies, which no one lives in."""
    names = {n for group in THING_KINDS.values() for n in group}
    names.update(n for group in DECISION_TOPICS.values() for n in group)
    return frozenset(names | set(SKILLS))


def org(raw: str, clause: Clause) -> Value | None:
    """An employer: a name ("Acme Corp", "St. Mary's hospital") or the kind of place ("a
    small animal clinic")."""
    if named := _NAMED_WORKPLACE_RE.match(_cut(_THE_NAME_RE.sub("", raw.strip()))):
        return Value(named["name"], named["name"].lower())
    if place := business(raw, clause):
        return Value(f"{indefinite_article(place.shown)} {place.shown}", place.key)
    shown = _cut(_CALLED_RE.sub("", raw.strip()))
    bare = _THE_NAME_RE.sub("", shown)
    if re.match(r"(?:a|an)\s+(?-i:[A-Z])", bare, _I):  # "a Chipotle": one branch of a chain
        shown = bare = bare.split(None, 1)[1]
    if re.match(r"(?:home|myself|a|an|my|our)\b", bare, _I) or not _proper(bare, 5, clause):
        return None
    return Value(shown, bare.lower())


_THE_NAME_RE = re.compile(r"^the\s+(?=[A-Z])")  # "the BBC", "the University of Tasmania"
_CALLED_RE = re.compile(r"^(?:a|an|this|the)\s+(?:[\w-]+\s+){0,3}(?:called|named)\s+", _I)


def company(raw: str, clause: Clause) -> Value | None:
    """An organisation written with capitals: after "I quit", "smoking" is none."""
    found = org(raw, clause)
    return found if found and not found.shown.islower() else None


def workplace_left(raw: str, clause: Clause) -> Value | None:
    """Where someone stopped working: a company by name, or the kind of place they had
    named ("I quit the cafe")."""
    if re.match(r"(?:the|my|our)\s", raw.strip(), _I) and (place := business(raw, clause)):
        return Value(f"the {place.shown}", place.key)
    return company(raw, clause)


def organisation(raw: str, clause: Clause) -> Value | None:
    """An organisation by its name that is no product: a club ("Cork GAA") or an employer
    moved to ("HSBC"); "Python 3.12" and "AWS" are neither."""
    found = company(raw, clause)
    known = _known_things()
    if found is None or found.key in known or any(w in known for w in words(found.key)):
        return None
    return found


def name(raw: str, clause: Clause) -> Value | None:
    shown = _HONORIFIC_RE.sub("", _cut(raw))
    if not is_name(shown) or (not shown.islower() and not shown[:1].isupper()):
        return None
    if _TITLE_ALONE_RE.fullmatch(shown):
        return None  # "I'm Dr. now!": a title earned, no name
    if _NATIONALITY_WORD_RE.fullmatch(shown) or _RELIGION_WORD_RE.fullmatch(shown):
        return None  # "My partner is Swedish" or "Hindu": what they are, not who
    shown = person(shown)
    return Value(shown, shown.lower())


# Compiled once: patterns this long, left to re's own cache, were compiled again on most
# turns (other patterns pushed them out of it).
_NATIONALITY_WORD_RE = re.compile(NATIONALITY_RE, _I)
_RELIGION_WORD_RE = re.compile(RELIGIONS, _I)
_TITLES = "|".join(sorted(titles(), key=len, reverse=True))
_HONORIFIC_RE = re.compile(rf"^(?:{_TITLES})\.?\s+(?=[A-Z])", _I)
_TITLE_ALONE_RE = re.compile(rf"(?:{_TITLES})\.?", _I)


def proper_name(raw: str, clause: Clause) -> Value | None:
    """A name as in "I'm Priya", where "I'm tired" must not read as one: capitalised, or in
    lowercase typing an introduction's first word before the age ("hi im ravi, 34")."""
    found = name(raw, clause)
    capitalised = raw.strip()[:1].isupper() and not clause.text.isupper()
    named = capitalised or _lowercase_introduction(raw.strip(), clause.text)
    return found if found and named and not _NOT_A_NAME_RE.fullmatch(found.key) else None


# How someone is, which lowercase typing puts where a name would go: "im new, 25".
_STATES_NOT_NAMES = wordset(
    "new back fine tired sick ill bored busy done free home here late ready broke sober"
    " alone lost stuck early old young"
)


def _lowercase_introduction(word: str, text: str) -> bool:
    return (
        text.islower()
        and word not in _STATES_NOT_NAMES
        and bool(
            re.search(rf"\b(?:i'?m|i\s+am)\s+{re.escape(word)}\s*,\s*\d{{1,2}}\s*(?:,|$)", text)
        )
    )


# Words that say what someone is, capitalised at the start of "Vegan now.": no names.
_NOT_A_NAME_RE = re.compile(
    rf"(?:{'|'.join(sorted(NATIONALITIES))}|{DIETS}|{MARITAL_STATUSES}|{RELIGIONS})", _I
)


_SEATS = wordset("lead head owner contact rep partner principal associate agent")


def title(raw: str, clause: Clause) -> Value | None:
    shown = display(_cut(raw))
    lowered = shown.lower().split()
    head = lowered[: lowered.index("of")] if "of" in lowered else lowered
    if not head or len(lowered) > 6 or not (_job_head(head[-1]) or _doctoral(head)):
        return None
    if len(lowered) == 1 and lowered[0] in _SEATS:
        return None  # "I'm the lead on this": a seat in something unnamed
    if any(w in STOPWORDS and w not in ("of", "and") for w in lowered):
        return None
    return Value(shown, shown.lower())


def _doctoral(head: list[str]) -> bool:
    """ "PhD candidate": a candidate for a degree, not for an election."""
    return len(head) > 1 and head[-1] == "candidate" and head[-2] in ("phd", "doctoral", "dphil")


def _job_head(word: str) -> bool:
    return word in JOB_HEADS or bool(_COMPOUND_JOB_WORD_RE.fullmatch(word))


_COMPOUND_JOB_WORD_RE = re.compile(COMPOUND_JOB_RE)


_NOT_TAUGHT = wordset(
    """kids children students people adults them classes class online remotely sometimes
    part-time full-time abroad privately there here at for in on how what"""
)


def taught(raw: str, clause: Clause) -> Value | None:
    """What a teacher teaches, as their title: "chemistry" -> "chemistry teacher"."""
    ws = words(_cut(raw))
    if not 1 <= len(ws) <= 2 or any(w in _NOT_TAUGHT or w in STOPWORDS for w in ws):
        return None
    shown = f"{' '.join(ws)} teacher"
    return Value(shown, shown)


def phrase(raw: str, clause: Clause) -> Value | None:
    """A short noun phrase: 'peanuts', 'the platform team', 'a bad back'."""
    shown = display(_cut(raw))
    ws = words(shown)
    if not ws or len(ws) > 5 or not keywords(shown) or ws[0] in NOT_NAMES:
        return None
    if len(ws) == 1 and ws[0].endswith("ly"):
        return None  # "weirdly", "honestly": how it was said, not what
    return Value(shown, shown.lower())


_DOSE_RE = re.compile(rf"{DOSE}(?:\s+of)?", _I)


def medication(raw: str, clause: Clause) -> Value | None:
    """A drug taken, with its dose if said ("20mg of citalopram"), keyed by the drug, so a
    new dose replaces the old one."""
    shown = display(_cut(raw))
    drug = _DOSE_RE.sub(" ", shown).strip()
    if not drug or len(words(drug)) > 3 or drug.lower() in NOT_NAMES:
        return None
    return Value(shown, shown.lower(), kind=drug.lower())


_NAMED_PLACE_RE = re.compile(r"(?:[A-Z][\w'&.-]*)(?:\s+(?:for|of|the|and|&|[A-Z][\w'&.-]*)){0,5}")


def venue(raw: str, clause: Clause) -> Value | None:
    """Where someone gives their time: "Habitat for Humanity", "the food bank"."""
    named = raw.strip(" .,!;:")
    if _NAMED_PLACE_RE.fullmatch(named):
        return Value(named, named.lower())
    found = phrase(raw, clause)
    if found is None:
        return None
    shown = _cut(raw)
    return Value(shown if shown.lower().endswith(found.key) else found.shown, found.key)


def product(raw: str, clause: Clause) -> Value | None:
    """A named tool or service someone uses ("Procreate", "Google Sheets"), written with
    capitals; a language or a nationality is none."""
    shown = _cut(raw)
    parts = shown.split()
    if not 0 < len(parts) <= 3 or clause.text.isupper() or parts[0].lower() in NOT_NAMES:
        return None
    if not all(p[:1].isupper() or p[:1].isdigit() for p in parts):
        return None
    if shown.lower() in LANGUAGES or shown.lower() in NATIONALITIES:
        return None
    return Value(shown, shown.lower())


def taste(raw: str, clause: Clause) -> Value | None:
    """Something liked, named: "a fan of this genre" names nothing without its sentence."""
    if re.match(r"(?:this|that|these|those|it|them|him|her)\b", raw.strip(), _I):
        return None
    return phrase(raw, clause)


_BUSINESSES = (
    r"bakery|cafe|café|coffee\s+shop|restaurant|shop|store|boutique|business|company|startup"
    r"|studio|salon|clinic|practice|agency|firm|bar|pub|farm|consultancy|food\s+truck"
    r"|bookshop|bookstore|florist|nursery|daycare|hotel|b&b|guesthouse|brewery|winery"
    r"|school|university|college|hospital|library|museum|charity|non-?profit|bank|lab"
    r"|pharmacy|drugstore|factory|hostel|kindergarten|preschool|vineyard|ranch|dealership"
    r"|supermarket|theat(?:er|re)|cinema|foundation|roastery|distillery|bistro|diner|deli"
    r"|pizzeria|barbershop|laundromat|kennel|parlou?r|taproom|inn|motel|warehouse"
    r"|hairdresser'?s|butcher'?s|bakehouse|chippy|takeaway|market\s+stall|franchise"
    r"|(?:city|county|borough|district|town|parish|local)?\s*council|local\s+authority"
    r"|(?:fire|police|sheriff's)\s+department|fire\s+service|police\s+force|army|navy"
    r"|air\s+force|military|post\s+office|sorting\s+office|depot|distribution\s+cent(?:er|re)"
    r"|garden\s+cent(?:er|re)|airport|stadium|prison"
    r"|call\s+cent(?:er|re)|care\s+home|nursing\s+home|(?:pizza|burger|taco|tapas|burrito|curry"
    r"|dim\s+sum|pho|falafel|bagel|donut|doughnut|brunch|cocktail|wine|sushi|coffee|noodle"
    r"|thai|chinese|indian|italian|mexican|kebab|chicken|sandwich|ramen|bbq|steak|fish\s+and\s+chip)"
    r"\s+(?:place|joint|shop|takeaway|bar)"
)
# A named place of work whose kind is written in lowercase: "St. Mary's hospital".
_NAMED_WORKPLACE_RE = re.compile(
    rf"(?P<name>(?:(?-i:[A-Z])[\w'.&-]*\s+){{1,4}}(?:{_BUSINESSES}))(?:\s+(?:in|on)\s+.+)?$", _I
)


def business(raw: str, clause: Clause) -> Value | None:
    """A business someone runs: "a small bakery"; "a meeting" or "a dog" is none."""
    shown = display(_cut(raw))
    if not _BUSINESS_RE.fullmatch(shown):
        return None
    return Value(shown, shown.lower())


_BUSINESS_RE = re.compile(rf"(?:[\w'-]+\s+){{0,3}}(?:{_BUSINESSES})", _I)


# What one may run as a business or just have at home: "runs a garage", "has a garage".
_RUN_ONLY_RE = re.compile(r"(?:[\w'-]+\s+){0,2}(?:garage|workshop|gym|spa|stall)", _I)


def run_business(raw: str, clause: Clause) -> Value | None:
    """A business someone runs, opened or started: "a garage back in Poland"."""
    if found := own_business(raw, clause):
        return found
    shown = display(_cut(raw))
    return Value(shown, shown.lower()) if _RUN_ONLY_RE.fullmatch(shown) else None


_GOES_BY_RE = re.compile(r"^(?P<kind>.+?)\s+(?:called|named)\s+(?P<name>(?-i:[A-Z]).*)$", _I)


def own_business(raw: str, clause: Clause) -> Value | None:
    """A business someone runs, with the name it goes by if they gave one: "a design
    agency called Studio Tidal"."""
    found = _GOES_BY_RE.match(_cut(raw))
    if found is None:
        return business(raw, clause)
    kind = business(found["kind"], clause)
    if kind is None or not _proper(found["name"], 5, clause):
        return None
    shown = f"{kind.shown} called {found['name']}"
    return Value(shown, shown.lower())


_FITNESS_RE = re.compile(
    r"(?:gym|fitness|crossfit|leisure\s+cent(?:re|er)|yoga|pilates|climbing|bouldering|boxing"
    r"|dojo|health\s+club|athletic\s+club|ymca|\w+gym)(?:\s+(?:centre|center|club|studio|group"
    r"|wall|hall))?$",
    _I,
)


def gym(raw: str, clause: Clause) -> Value | None:
    """A gym by its name: "PureGym", "Anytime Fitness", "the Castle Climbing Centre"."""
    shown = _cut(re.sub(r"^the\s+(?=(?-i:[A-Z]))", "", raw.strip(), flags=_I))  # "The Gym Group"
    if not (_proper(shown, 5, clause) and _FITNESS_RE.search(shown)) or shown.islower():
        return None
    return Value(shown, shown.lower())


_SHIFTS_RE = re.compile(
    r"^(?:the\s+)?(?P<kind>nights|days|weekends|night|day|early|late|double|split|rotating|weekend"
    r"|evening|morning|graveyard|overnight|\d{1,2}-hour)(?:\s+shifts?)?$",
    _I,
)


def shifts(raw: str, clause: Clause) -> Value | None:
    """The shifts someone works: "nights" is "night shifts", "24-hour shifts" stays."""
    found = _SHIFTS_RE.match(_cut(raw).strip())
    if found is None:
        return None
    kind = found["kind"].lower()
    kind = {"nights": "night", "days": "day", "weekends": "weekend"}.get(kind, kind)
    shown = f"{kind} shifts"
    return Value(shown, shown)


_DRUNK_RE = re.compile(
    r"(?:(?:cup|glass|pint|can|bottle|mug)(?:e?s)?\s+of\s+)?"
    r"(?P<kind>coffee|tea|espresso|beer|wine|water|diet\s+coke|coke|energy\s+drink|latte|cappuccino"
    r"|cola|soda)s?\b",
    _I,
)


def drinks_daily(raw: str, clause: Clause) -> Value | None:
    """How much of a drink someone has: "about 4 coffees a day", keyed by the drink, so a
    new amount replaces the old."""
    shown = " ".join(raw.split()).strip(" .,!")
    found = _DRUNK_RE.search(shown)
    return Value(shown, shown.lower(), kind=found["kind"].lower()) if found else None


def handedness(raw: str, clause: Clause) -> Value | None:
    """Which hand someone favours: "a left-hander" is "left-handed"."""
    found = re.match(
        r"(?P<side>left|right)-hand(?:ed|er)$|(?P<lefty>lefty|leftie|southpaw)$"
        r"|ambidextrous$",
        _cut(raw),
        _I,
    )
    if found is None:
        return None
    side = "left" if found["lefty"] else found["side"]
    shown = f"{side.lower()}-handed" if side else "ambidextrous"
    return Value(shown, shown)


def membership(raw: str, clause: Clause) -> Value | None:
    """What someone belongs to, as they named it: "the Green Party", keyed without "the"."""
    shown = " ".join(raw.split()).strip(" .,!")
    key = re.sub(r"^(?:the|a|an|our|my)\s+", "", shown.lower())
    return Value(shown, key) if key else None


def still_at(raw: str, clause: Clause) -> Value | None:
    """Where someone says they still are, which for a workplace is where they work: "I'm
    still at the bank"; "I'm at the bank" may be an errand."""
    if not re.search(r"\bstill\s+(?:at|with)\b", clause.text, _I):
        return None
    return org(raw, clause)


_HOURS_RE = re.compile(r"^(?P<how>part|full)[-\s]time$", _I)


def hours(raw: str, clause: Clause) -> Value | None:
    """How much someone works: "part time" and "part-time" are one value."""
    found = _HOURS_RE.match(_cut(raw))
    return Value(f"{found['how'].lower()}-time", f"{found['how'].lower()}-time") if found else None


_DAYS_RE = re.compile(
    r"^(?P<n>one|two|three|four|five|six|[1-6])\s+days?(?:\s+(?:a|per)\s+week)?$", _I
)
_DAY_COUNTS = ("one", "two", "three", "four", "five", "six")


def days_a_week(raw: str, clause: Clause) -> Value | None:
    """How many days someone works: "4 days" and "four days a week" are one value."""
    found = _DAYS_RE.match(_cut(raw))
    if found is None:
        return None
    n = found["n"].lower()
    n = _DAY_COUNTS[int(n) - 1] if n.isdigit() else n
    return Value(f"{n} days a week", f"{n} days a week")


_NO_SKILLS = wordset("be get love live deal cope let say trust stop appreciate accept")


def learned(raw: str, clause: Clause) -> Value | None:
    """What someone learned to do: "surf", "drive a manual"; "be patient" is no skill."""
    shown = " ".join(raw.split()).strip(" .,!")
    ws = words(shown)
    if not ws or ws[0] in _NO_SKILLS:
        return None
    return Value(shown, shown.lower(), kind=ws[0])


def condition(raw: str, clause: Clause) -> Value | None:
    """A diagnosis worth keeping; a cold or a hangover passes before it matters."""
    found = phrase(raw, clause)
    return None if found is None or re.search(_PASSING, found.key) else found


_PASSING = r"^(?:a\s+)?(?:cold|flu|the\s+flu|hangover|cough|headache|fever|jet\s*lag|sunburn)$"


def allergen(raw: str, clause: Clause) -> Value | None:
    """A thing one can react to; "Mondays" and "work" are jokes, not allergies."""
    found = phrase(raw, clause)
    if found is None or dates.DATE_RE.search(found.key) or re.search(_NOT_ALLERGENS, found.key):
        return None
    return found


_NOT_ALLERGENS = (
    r"^(?:mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|weekends?"
    r"|mornings?|work|people|meetings?|exercise|effort|homework|chores|you|everything"
    r"|nonsense|drama|stupidity)$"
)


_LEVEL_RE = re.compile(
    r"^(?:some|a\s+(?:bit|little)\s+of|basic|fluent|native|decent|good|conversational"
    r"|broken|rusty|passable|intermediate|advanced|a\s+little)\s+",
    _I,
)


def language(raw: str, clause: Clause) -> Value | None:
    shown = _cut(_LEVEL_RE.sub("", raw.strip()))
    ok = shown and all(w in LANGUAGES for w in shown.lower().split())
    return Value(shown[:1].upper() + shown[1:], shown.lower()) if ok else None


_INSTRUMENT_RE = re.compile(rf"^(?:the\s+)?(?P<what>{NAMED_INSTRUMENTS_AND_SPORTS})$", _I)


def _instrument(raw: str, clause: Clause) -> Value | None:
    found = _INSTRUMENT_RE.match(_cut(raw))
    return Value(found["what"], found["what"].lower()) if found else None


_CAREER_RE = re.compile(rf"^(?:[\w-]+\s+){{0,2}}?(?:{CAREER_FIELDS})$", _I)


def career(raw: str, clause: Clause) -> Value | None:
    """A line of work: "data engineering", "nursing"; not a place or a tool."""
    shown = _cut(raw)
    if not _CAREER_RE.match(shown) or (shown[:1].isupper() and not shown.isupper()):
        return None
    return Value(shown.lower(), shown.lower())


def department(raw: str, clause: Clause) -> Value | None:
    """A part of a company one works in: "HR", "marketing"."""
    shown = _cut(raw)
    return Value(shown, shown.lower()) if shown.lower() in _DEPARTMENTS - {"it's"} else None


_COMMUTES = {"cycle": "bike", "bike": "bike", "walk": "foot", "drive": "car", "run": "foot"}


def commute_mode(raw: str, clause: Clause) -> Value | None:
    """How someone gets to work, from the verb: "I cycle to work" is by bike."""
    mode = _COMMUTES.get(raw.lower().rstrip("s"))
    return Value(mode, mode) if mode else None


def lesson(raw: str, clause: Clause) -> Value | None:
    """A language, a known skill or an instrument: what one stops learning ("I stopped
    French", "I switched from guitar to piano")."""
    return language(raw, clause) or skill(raw, clause) or _instrument(raw, clause)


def subject(raw: str, clause: Clause) -> Value | None:
    """What someone learns: a language, a known skill, or a capitalised name ("Blender");
    "a lot from this" is none."""
    found = language(raw, clause) or skill(raw, clause) or _instrument(raw, clause)
    if found is None and (shown := display(_cut(raw))) and _proper(shown, 3, clause):
        found = Value(shown, shown.lower())
    if found is None and (one := re.match(r"^the\s+(?P<what>[a-z]\w+)$", _cut(raw), _I)):
        found = None if one["what"].lower() in _IDIOMS else Value(one["what"], one["what"].lower())
    if found is None and (doing := re.match(r"^to\s+(?P<what>\w+(?:\s+\w+){0,3})$", _cut(raw))):
        found = (
            None
            if words(doing["what"])[0] in _VAGUE_PLANS
            else Value(doing["what"], display(doing["what"]).lower())
        )  # "to play the violin"
    return found


_IDIOMS = wordset("ropes basics hard way truth lesson news drill game hang")


def skill(raw: str, clause: Clause) -> Value | None:
    shown = _cut(raw)
    return Value(shown, shown.lower()) if shown.lower() in SKILLS else None


def thing(raw: str, clause: Clause) -> Value | None:
    """Something owned or used, with its kind from THING_KINDS ('a Honda Civic': car)."""
    shown = display(
        _cut(
            re.sub(
                r"^(?:(?:a\s+(?:bit|little)\s+of|a\s+lot\s+of|lots\s+of|a|an|the|my|our|their|some)"
                r"\s+)?(?:(?:new|used|old|second-hand|secondhand|refurbished|trusty|beloved"
                r"|brand\s+new|red|black|white|blue|silver|grey|gray|electric"
                r"|little|tiny|big|vintage|first|second|own|dream|(?:19|20)\d\d)\s+)*"
                r"|\s+that\s+.*$",
                "",
                raw,
                flags=_I,
            )
        )
    )
    kind = _kind_of(shown.lower())
    if kind is None or len(words(shown)) > 5 or _OUTING_RE.search(shown):
        return None
    return Value(shown, shown.lower(), kind)


# What a thing's name may come before without being owned: "a boat trip", "a car wash".
_OUTING_RE = re.compile(
    r"\b(?:trip|ride|tour|party|race|show|wash|hire|rental|lesson|lessons|park|holiday)s?$", _I
)


def named_thing(raw: str, clause: Clause) -> Value | None:
    """What "my car is" names: a thing of a known kind, or a capitalised name that the
    noun before it gives its kind ("My car's a 2015 Polo")."""
    if found := thing(raw, clause):
        return found
    shown = display(_cut(re.sub(r"^(?:a|an)\s+", "", raw.strip(), flags=_I)))
    return Value(shown, shown.lower()) if _proper(shown, 4, clause) else None


def driven(raw: str, clause: Clause) -> Value | None:
    """What someone drives: a car of a known make, or a capitalised model ("a Polo")."""
    if found := thing(raw, clause):
        return found if found.kind == "owns:car" else None
    shown = display(_cut(re.sub(r"^(?:a|an)\s+", "", raw.strip(), flags=_I)))
    if not _proper(shown, 3, clause) or shown.lower() in _RIDE_HAILING:
        return None  # "I drive an Uber": who one drives for
    return Value(shown, shown.lower(), "owns:car")


_RIDE_HAILING = wordset("uber lyft bolt ola grab didi deliveroo")


def thing_kind(text: str) -> str | None:
    """The kind of thing (a THING_KINDS key: "owns:laptop") that `text` names, if any
    ("old thinkpad x230": owns:laptop)."""
    return _kind_of(text.lower())


def _kind_of(text: str) -> str | None:
    """The kind of the longest known thing `text` names as a word (of names as long, the
    first in THING_KINDS)."""
    return next(
        (kind for known, kind, said in _things() if known in text and said.search(text)), None
    )


@cache
def _things() -> tuple[tuple[str, str, re.Pattern[str]], ...]:
    """Each thing's name, its kind and the pattern of it as a word, the longest first
    (names as long in THING_KINDS' order), compiled once: built on every call, the 226
    patterns overran re's cache and were compiled again each time."""
    named = sorted(
        ((known, kind) for kind, names in THING_KINDS.items() for known in names),
        key=lambda pair: -len(pair[0]),
    )
    return tuple(
        (known, kind, re.compile(rf"(?<![\w.]){re.escape(known)}(?![\w+#])"))
        for known, kind in named
    )


def day(raw: str, clause: Clause) -> Value | None:
    """A day of the year, resolved against the turn: 'May 4th', 'tomorrow'."""
    hit = dates.leading_date(raw, clause.at)
    rest = dates.LEAD_RE.sub("", raw.strip())
    if hit is None or _cut(rest[hit.end :]).strip(" ,"):
        return None
    month_day = f"{hit.day:%B} {hit.day.day}"
    year = re.search(r"\b(1[89]\d\d|20\d\d)\b", hit.phrase)
    shown = f"{month_day}, {year[1]}" if year else month_day
    return Value(shown, month_day.lower())


_MONTH_ONLY_RE = re.compile(
    rf"(?:early\s+|late\s+|mid-?\s*)?(?P<month>{dates.MONTH_PATTERN})(?:\s+\d{{4}})?", _I
)


def due(raw: str, clause: Clause) -> Value | None:
    """When a baby is due: a day ("on May 3") or only its month ("in April")."""
    when = re.sub(r"^(?:in|on|around|by)\s+", "", raw.strip(" .!,"), flags=_I)
    if month := _MONTH_ONLY_RE.fullmatch(_cut(when).strip(" ,")):
        shown = month["month"].title()
        return Value(f"in {shown}", shown.lower())
    if hit := day(when, clause):
        return Value(f"on {hit.shown}", hit.key)
    return None


def field_of_study(raw: str, clause: Clause) -> Value | None:
    """What a degree or a major is in: "psychology", "mechanical engineering"."""
    shown = display(_cut(raw))
    ws = words(shown)
    if not 1 <= len(ws) <= 4 or any(w in STOPWORDS or w in NOT_NAMES for w in ws):
        return None
    return Value(shown.lower(), shown.lower())


PLACE_NAME = r"(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)?"
"""One or two capitalised words: "Vancouver", "St Ives"."""


def trip(raw: str, clause: Clause) -> Value | None:
    """A trip ahead: "Osaka on March 20 to see family", keyed by where it goes."""
    found = plan(raw, clause)
    where = re.match(PLACE_NAME, raw.strip())
    return Value(found.shown, found.key, kind=where[0].lower()) if found and where else None


def going_back(raw: str, clause: Clause) -> Value | None:
    """A return to a place, keyed by it: "Vancouver", "Leeds for Christmas"."""
    where = re.match(PLACE_NAME, raw.strip())
    if where is None:
        return None
    shown = dates.annotate(_PLAN_TAIL_RE.sub("", raw.strip()).strip(" .,!;:"), clause.at)
    return Value(shown, shown.lower(), kind=where[0].lower())


def plan(raw: str, clause: Clause) -> Value | None:
    """What someone means to do: a verb phrase of a few words, its slot keyed by its object."""
    shown = _PLAN_TAIL_RE.sub("", raw.strip()).strip(" .,!;:")
    ws = words(shown)
    if not ws or len(ws) > 14 or ws[0] in _VAGUE_PLANS or ws[0] in NOT_NAMES - _ARTICLES:
        return None
    # "pass it on": on what? But a trip's "Osaka this summer" opens with its place.
    if len(ws) > 1 and ws[1] in ("it", "that", "this", "them") and not shown[:1].isupper():
        return None
    if re.search(r"\b(?:not|never|\w+n't)\b", shown, _I) or len(ws) < 2:
        return None
    key = "time off" if _TIME_OFF_RE.match(shown) else _plan_key(shown)
    if key in _MOMENTS:
        return None  # "take the day off", "grab a coffee": today's plans, not goals
    shown = third_person(dates.annotate(shown, clause.at))
    return Value(shown, shown.lower(), key)


# "taking August off", "take the summer off": a stretch of time, unlike "the day off".
_TIME_OFF_RE = re.compile(
    rf"^tak(?:e|es|ing)\s+(?:(?:the|a|an|this|next|two|three|four|six|\d+)\s+)?(?:{dates.MONTH_PATTERN}"
    r"|summer|winter|spring|autumn|fall|months?|years?|weeks|semester|term)\s+off\b",
    _I,
)


_ARTICLES = frozenset({"a", "an", "the", "my", "our"})
_MOMENTS = wordset(
    """day off week weekend morning night evening break nap rest lunch dinner breakfast call
    look moment shower walk coffee drink bed sleep minute hour there home few couple lot bit
    something thing things stuff same likewise"""
)
_OBJECT_LEAD = _ARTICLES | wordset("to into for on at in up out some more new")
_OBJECT_END = wordset(
    """in on at by before after next this for with so because to from during when while
    someday eventually soon later and or but again"""
)
# "quit dip too, 2 weeks clean": what follows the comma, and a "too" before it, are no plan.
_PLAN_TAIL_RE = re.compile(
    r"(?:\s+(?:someday|at\s+some\s+point|eventually|one\s+day)\b|\s+(?:too|as\s+well)(?=\s*[,;]|$)"
    r"|\s*[,;]|\s[-–—]\s).*$",
    _I,
)
_VAGUE_PLANS = wordset(
    """know see say ask talk check thank be have make tell let keep try go hear find
    understand figure chat share mention remember stay feel keep hang enjoy savor relax
    chill thank help"""
)


def _plan_key(text: str) -> str:
    """The head of a plan's object, stemmed: 'run a marathon next fall' and 'running the
    marathon' meet at 'marathon'; 'open a studio in Abuja' is 'studio'."""
    ws = words(dates.DATE_RE.sub(" ", re.sub(r"\(\S+\)", " ", text)))
    start = 0 if ws and ws[0] in _ARTICLES else 1  # "a half marathon" has no verb
    while start < len(ws) and ws[start] in _OBJECT_LEAD:
        start += 1
    end = start
    while end < len(ws) and ws[end] not in _OBJECT_END:
        end += 1
    head = ws[start:end] or ws[:1]
    if not head:
        return ""
    # A plan said as a noun is keyed by the name in it: "the Japan trip", "a trip to Italy".
    named = [w for w in ws[start:] if _capitalised(w, text)] if ws[0] in _ARTICLES else []
    return _stem(named[0] if named else head[-1])


def _capitalised(word: str, text: str) -> bool:
    return bool(re.search(rf"(?<![\w'])(?-i:[A-Z]){re.escape(word[1:])}\b", text))


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]  # running -> runn -> run
    return word


def number(low: int, high: int) -> Reader:
    def read(raw: str, clause: Clause) -> Value | None:
        match = re.match(r"^(\d{1,4})\b", raw.strip())
        if match and low <= int(match[1]) <= high:
            return Value(match[1], match[1])
        return None

    return read


_NUMBER_WORDS = (
    *("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    *("eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen"),
    *("eighteen", "nineteen"),
)


def age_in_words(raw: str, clause: Clause) -> Value | None:
    """An age said in words, as a child's often is: "she's five now" is 5."""
    word = raw.strip().lower()
    if word not in _NUMBER_WORDS:
        return None
    years = str(_NUMBER_WORDS.index(word) + 1)
    return Value(years, years)


def eaten_again(raw: str, clause: Clause) -> Value | None:
    """A food eaten again, which ends the diet that kept it out; "I eat fish" alone may
    suit a pescatarian, so only a clause that says it changed ("again", "now") is read."""
    if not re.search(r"\b(?:again|back|now|these\s+days|nowadays|started)\b", clause.text, _I):
        return None
    return said_as_is(raw, clause)


def birth(raw: str, clause: Clause) -> Value:
    """A birth, however it is told: "the baby arrived", "gave birth"."""
    return Value("had the baby", "had the baby")


def pregnancy_over(raw: str, clause: Clause) -> Value:
    return Value("not pregnant", "not pregnant")


def said_as_is(raw: str, clause: Clause) -> Value | None:
    """A predicate the row's pattern already bounds: "passed away in 2019"."""
    shown = " ".join(raw.split())
    return Value(shown, shown.lower())


def said_dated(raw: str, clause: Clause) -> Value | None:
    """A bounded predicate that may say when, with its date resolved so that it never
    rots: "died yesterday (2026-03-04)", "passed away last month (February 2026)"."""
    shown = dates.annotate(" ".join(raw.split()), clause.at)
    return Value(shown, shown.lower())


def said_told(raw: str, clause: Clause) -> Value | None:
    """A bounded predicate told of the writer: "quit my job" is "quit their job" (and
    "Lost my job", its "I" dropped, "lost their job")."""
    return said_as_is(third_person(raw[:1].lower() + raw[1:]), clause)


def driver_of(raw: str, clause: Clause) -> Value | None:
    """A job said by what one drives: "a taxi" is a taxi driver."""
    shown = " ".join(re.sub(r"^(?:a|an|the)\s+", "", raw.strip(), flags=_I).lower().split())
    return Value(f"{shown} driver", f"{shown} driver") if shown else None


def count(raw: str, clause: Clause) -> Value | None:
    """How many of a relation someone has: "three grandkids", keyed by the number; a bare
    number counts children ("a mum of three")."""
    shown = " ".join(raw.lower().split())
    if re.fullmatch(r"\d+|one|two|three|four|five|six|seven|eight|nine|ten", shown):
        shown += " children"
    return Value(shown, shown)


def household_count(raw: str, clause: Clause) -> Value | None:
    """How many a household has, said as its kind: "a two-cat household" has two cats."""
    number, _, noun = re.sub(r"[\s-]+", " ", raw.lower()).partition(" ")
    shown = f"{number} {noun}{'' if number in ('1', 'one') else 's'}"
    return Value(shown, shown)


_COUNT_WORDS = ("one", "two", "three", "four", "five", "six")


def aged_count(raw: str, clause: Clause) -> Value | None:
    """Children counted by the ages listed: "kids are 7 and 10" is two kids."""
    noun, _, listed = raw.lower().partition(" are ")
    ages = re.findall(r"\d{1,2}", listed)
    if not 2 <= len(ages) <= len(_COUNT_WORDS):
        return None
    counted = f"{_COUNT_WORDS[len(ages) - 1]} {' '.join(noun.split())}"
    return Value(f"{counted}, aged {', '.join(ages[:-1])} and {ages[-1]}", counted)


def alcohol(raw: str, clause: Clause) -> Value | None:
    """What "I don't drink" gives up: alcohol, whatever the words."""
    return Value("alcohol", "alcohol")


def status(word: str) -> Reader:
    """A status the row's words name whatever their form: "a widower" is widowed, "we broke
    up" is single."""

    def read(raw: str, clause: Clause) -> Value | None:
        return Value(word, word)

    return read


def none_of(raw: str, clause: Clause) -> Value | None:
    """What someone says they have none of: "kids" reads as "no kids"."""
    shown = f"no {' '.join(raw.lower().split())}"
    return Value(shown, shown)


def _doing(verb: str) -> str:
    """ "paint" -> "painting", "dance" -> "dancing", "swim" -> "swimming"."""
    doubled = {"knit": "knitting", "swim": "swimming", "run": "running", "jog": "jogging"}
    return doubled.get(verb) or (verb[:-1] if verb.endswith("e") else verb) + "ing"


# Pastimes said as what one has been doing: "I've been painting again".
HOBBIES_DOING = {
    _doing(verb): verb
    for verb in wordset(
        """knit crochet sew paint draw sketch sculpt garden bake surf ski snowboard climb box
        row sail dance sing swim cycle hike fish skate kayak meditate run jog"""
    )
}


def hobby_lately(raw: str, clause: Clause) -> Value | None:
    """A pastime one has been doing, again or a lot ("painting again"); "I'm painting"
    alone may be this afternoon's."""
    if not re.search(r"\b(?:been|again|lately|a\s+lot|these\s+days|loads)\b", clause.text, _I):
        return None
    return hobby(raw, clause)


def manager_of(raw: str, clause: Clause) -> Value | None:
    """The title of who runs a place: "store" -> "store manager"."""
    shown = f"{raw.strip().lower()} manager"
    return Value(shown, shown)


def hobby(raw: str, clause: Clause) -> Value | None:
    """A pastime said as a verb: "knit" reads as "knits", keyed by the verb."""
    verb, _, rest = re.sub(r"\b(?:my|our)\b", "their", raw.lower().strip()).partition(" ")
    verb = HOBBIES_DOING.get(verb, verb)  # "running" is "run"
    base = verb[:-1] if verb.endswith("s") and not verb.endswith("ss") else verb
    third = base + ("es" if base.endswith(("sh", "ch", "x", "s", "o")) else "s")
    shown = f"{third} {rest}".strip()
    return Value(shown, shown, kind=base)


_DEGREE = r"(?:chronic|severe|mild|occasional|bad|terrible|frequent|recurring)"
# Work said as what one does: "I've stopped teaching" ends a job, "I quit smoking" none.
TRADES = (
    r"teaching|nursing|lecturing|tutoring|consulting|freelancing|contracting|coaching"
    r"|modell?ing|acting|farming|banking|accounting|practicing\s+law|law|medicine|journalism"
    r"|engineering|programming|driving|photography|waitressing|bartending"
)


def word_of(pattern: str) -> Reader:
    """A value that must be one of `pattern`'s alternatives."""
    regex = re.compile(rf"^(?:a\s+|an\s+)?(?:{_DEGREE}\s+)?(?P<w>{pattern})$", _I)

    def read(raw: str, clause: Clause) -> Value | None:
        match = regex.match(_cut(raw))
        if not match:
            return None
        shown = re.sub(r"\s+", " ", match["w"])
        return Value(shown, display(shown).lower())

    return read


_INSTRUMENT_OR_SPORT = word_of(INSTRUMENTS_AND_SPORTS)


def played(raw: str, clause: Clause) -> Value | None:
    """An instrument, a sport, or a game by its title ("Valorant", "Age of Empires")."""
    if found := _INSTRUMENT_OR_SPORT(raw, clause):
        return found
    shown = _cut(raw)
    if not _proper(shown, 4, clause) or shown.lower() in _known_things():
        return None
    return Value(shown, shown.lower())


def relation(raw: str, clause: Clause) -> Value | None:
    """A named relation: the value is the person, the kind the relation."""
    return name(raw, clause)


def _title(text: str) -> str:
    return text.title() if text.islower() else text


_WORK_STATUS = word_of(
    r"retired|unemployed|between\s+jobs|self-employed|a\s+freelancer|freelancing"
)
_STAY_AT_HOME_RE = re.compile(
    r"^(?:a\s+)?stay[-\s]at[-\s]home\s+(?P<who>mom|mum|dad|parent)(?:\s+with\b.*)?$", _I
)


def work_status(raw: str, clause: Clause) -> Value | None:
    """Being out of paid work, one way or another: "retired", "a stay-at-home dad"."""
    if home := _STAY_AT_HOME_RE.match(raw.strip()):
        shown = f"a stay-at-home {home['who'].lower()}"
        return Value(shown, shown)
    return _WORK_STATUS(raw, clause)


def practised(raw: str, clause: Clause) -> Value | None:
    """What someone has long done, keyed by the doing: "making pizza for 30 years"; "doing
    this for years" says nothing."""
    shown = " ".join(raw.split())
    doing = re.split(r"\s+for\s+", shown, maxsplit=1, flags=_I)[0]
    if any(w in STOPWORDS for w in words(doing)[1:]):
        return None
    return Value(shown, doing.lower())
