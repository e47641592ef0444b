"""Personal facts: what people say about themselves and about the people around them.

A clause is read in two steps. First its subject: the speaker ("I", "my"), a relation of
the speaker ("my wife Sara", "my manager"), or a named person ("Sara"). Then its predicate,
against TABLE: one row per way of saying a kind of fact, each with examples that
tests/models/test_personal_facts.py runs, so a pattern and its proof sit together.

Each fact is a slot of its subject, so a later statement in the same slot supersedes the
earlier one: "I live in Berlin", then "I moved to Munich", are both (user, home).
"""

import re
from dataclasses import dataclass, replace
from functools import cache

from threefold import dates
from threefold.domain import FactCategory as C
from threefold.models.base import EATS_AGAIN_SLOT
from threefold.models.heuristic.patterns import FREQUENCY
from threefold.models.heuristic.personal_values import (
    HOBBIES_DOING,
    NATIONALITY_RE,
    PLACE_NAME,
    TRADES,
    Reader,
    Value,
    age_in_words,
    aged_count,
    alcohol,
    allergen,
    birth,
    career,
    commute_mode,
    condition,
    count,
    day,
    days_a_week,
    department,
    drinks_daily,
    driven,
    driver_of,
    due,
    eaten_again,
    field_of_study,
    going_back,
    gym,
    handedness,
    hobby,
    hobby_lately,
    hours,
    household_count,
    language,
    learned,
    lesson,
    manager_of,
    medication,
    membership,
    name,
    named_thing,
    near_place,
    none_of,
    number,
    org,
    organisation,
    own_business,
    phrase,
    place,
    plan,
    played,
    practised,
    pregnancy_over,
    product,
    proper_name,
    relation,
    run_business,
    said_as_is,
    said_dated,
    said_told,
    shifts,
    skill,
    status,
    still_at,
    subject,
    taste,
    taught,
    thing,
    title,
    trip,
    venue,
    whereabouts,
    word_of,
    work_status,
    workplace_left,
)
from threefold.models.heuristic.personal_words import (
    AIDS,
    CAREER_FIELDS,
    CONDITIONS,
    DIETS,
    DOSED_DRUG,
    EVENTS,
    FEARS,
    FOODS_TO_AVOID,
    HEALTH_STATES,
    JOB_HEAD_RE,
    MARITAL_STATUSES,
    MEDICATIONS,
    MOURNED_RE,
    PET_RE,
    RELATION_RE,
    RELATIONS,
    RELIGIONS,
    ROUTINES,
    SCHOOL_EXAMS,
    SCHOOL_SUBJECTS,
    THING_KINDS,
    TIME_ZONES,
    UNIQUE_RELATIONS,
    UNNAMED_KEYED,
)
from threefold.models.heuristic.rules import (
    Clause,
    Parsed,
    first_person,
    is_name,
    person,
    preference_slot,
)
from threefold.models.heuristic.text import indefinite_article

_I = re.IGNORECASE


@dataclass(frozen=True)
class Who:
    """The subject of a personal fact, as keyed and as rendered."""

    key: str
    """'user', 'caroline', "user's wife", 'sara'."""
    shown: str
    """'The user', 'Caroline', "The user's wife", 'Sara'."""
    named: bool = False
    """A person named in the text, whom a later 'she' or 'he' can mean."""


@dataclass(frozen=True)
class Facet:
    """One kind of personal fact: its category, slot and sentence, and how a value reads."""

    category: C
    slot: str
    """Template: {key} is the value's key, {kind} the value's kind."""
    text: str
    """Template: {who}, {whose}, {their}, {value}, {a_value}, {noun}."""
    read: Reader


Example = tuple[str, str, str]
"""A sentence, and the (slot, value) it gives its speaker."""


@dataclass(frozen=True)
class Row:
    """One way of saying a facet: a regex over the predicate that follows the subject."""

    facet: str
    pattern: str
    """Group `value` feeds the facet; a group named after another facet adds that fact."""
    examples: tuple[Example, ...] = ()
    many: bool = False
    """The value may list several ("peanuts and shellfish"), one fact each."""
    we: bool = False
    """'we' counts as the speaker too ("we live in Denver")."""
    negated: bool = False
    """Reads a negated predicate as a positive fact ("doesn't eat pork")."""
    prefix: str = ""
    """Put before the value: "not " keeps (user, owns:car) but says the car is gone."""
    kind: str = ""
    """The slot's {kind} where the row fixes it: "married to" is a spouse."""
    others_only: bool = False
    """Said of someone else only: the speaker's own "I died" is a figure of speech."""


# --- the table -----------------------------------------------------------------------------

_ENDED_WHEN = (
    r"(?:last\s+\w+|in\s+\w+|recently|after\b|because\b|(?:a\s+few|a|an|\w+)\s+(?:years?"
    r"|months?|weeks?)\s+ago)"
)
_FASTS = r"intermittent\s+fasting|(?:16:8|5:2)\s+fasting|the\s+5:2(?:\s+diet)?|whole30|atkins"
# Work done for others that people name with "I do", beyond the trades one can stop.
_SERVICES = (
    r"videography|(?:graphic|web|interior|ux|ui|product)\s+design|bookkeeping|payroll"
    r"|marketing|sales|recruiting|recruitment|tech\s+support|translation|copywriting"
    r"|illustration|catering|landscaping|plumbing|hairdressing|admin|customer\s+service"
    r"|data\s+entry|voice\s+acting|event\s+planning|pest\s+control"
    # "I do HVAC repair", "boiler servicing": the trade named by what is mended
    r"|[\w-]+\s+(?:repairs?|servicing|installations?|maintenance)"
)
_SCHOOL_NAMES = (
    r"Primary|Elementary|Academy|School|High|College|University|Uni|Prep|Grammar|Secondary"
    r"|Comprehensive|Nursery|Kindergarten|Preschool|Montessori|Middle"
)
_DRINKS = (
    r"alcohol|coffee|caffeine|(?:cow's\s+)?milk|tea|soda|fizzy\s+drinks|energy\s+drinks|beer|wine"
    r"|spirits|booze"
)
_LIVES_WITH = (
    r"lives?\s+with|shares?\s+(?:my|our|a|the)\s+(?:flat|house|home|apartment|place|room|dorm)"
    r"\s+with"
)
_SCHOOL_YEARS = (
    r"freshman|sophomore|junior|senior|fresher|(?:first|second|third|final)-year(?:\s+student)?"
)
_SCHOOL_GRADES = r"(?:year|grade|form)\s+\d{1,2}|\d{1,2}(?:st|nd|rd|th)\s+grade"
_LIVED_ON = r"(?:narrow|house|canal|sail)?boat|barge|yacht|farm|ranch|island|commune|kibbutz"
_EMAIL = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
# What one has had rather than has, and lives with after: "Dad had a stroke last year".
_HEALTH_EVENTS = r"(?:mini-)?stroke|heart\s+attack|tia|cardiac\s+arrest|brain\s+injury|aneurysm"
# Services one is "in" rather than works at: "my brother is in the army".
_FORCES = (
    r"army|navy|royal\s+navy|air\s+force|raf|marines|royal\s+marines|military|coast\s+guard"
    r"|national\s+guard|army\s+reserves?|territorial\s+army|reserves"
)
# An operation by what it mends: "knee surgery", "a hip replacement", "a knee op" (an "op"
# only on a part of the body: "a photo op" is none).
_BODY_PARTS = (
    r"knee|hip|shoulder|back|spine|neck|eye|cataract|foot|ankle|hand|wrist|elbow|heart"
    r"|hernia|gallbladder|bowel|bladder|kidney|acl|tonsils?|sinus|nose|jaw|breast|thyroid"
    r"|prostate|bunion"
)
_OPERATION = (
    rf"(?:(?:left|right)\s+)?(?:{_BODY_PARTS})\s+(?:op|operation)"
    r"|(?:[\w-]+\s+){1,2}?(?:surgery|replacement|transplant)"
)
# Wards and departments go by initials too, but employ no one: "a nurse in the ICU".
_UNITS = r"ICU|NICU|PICU|ITU|HDU|ER|OR|ED|HR|IT|PR|QA|R&D"
FACETS: dict[str, Facet] = {
    "name": Facet(C.IDENTITY, "name", "{whose} name is {value}.", name),
    "proper name": Facet(C.IDENTITY, "name", "{whose} name is {value}.", proper_name),
    "address": Facet(C.IDENTITY, "address as", "{who} wants to be called {value}.", name),
    "email": Facet(C.IDENTITY, "email", "{whose} email address is {value}.", word_of(_EMAIL)),
    "pronouns": Facet(
        C.IDENTITY,
        "pronouns",
        "{whose} pronouns are {value}.",
        word_of(r"(?:she|he|they|ze|xe)/\w+(?:/\w+)?"),
    ),
    "age": Facet(C.IDENTITY, "age", "{who} is {value} years old.", number(1, 120)),
    "age in words": Facet(C.IDENTITY, "age", "{who} is {value} years old.", age_in_words),
    "birth year": Facet(C.IDENTITY, "birth year", "{who} was born in {value}.", number(1900, 2030)),
    "religion": Facet(C.IDENTITY, "religion", "{who} is {value}.", word_of(RELIGIONS)),
    "nationality": Facet(C.IDENTITY, "nationality", "{who} is {value}.", word_of(NATIONALITY_RE)),
    "home": Facet(C.LOCATION, "home", "{who} lives in {value}.", place),
    "near home": Facet(C.LOCATION, "home", "{who} lives {value}.", near_place),
    "aboard": Facet(C.LOCATION, "home", "{who} lives on {a_value}.", word_of(_LIVED_ON)),
    "whereabouts": Facet(C.LOCATION, "home", "{who} lives in {value}.", whereabouts),
    "hometown": Facet(C.LOCATION, "hometown", "{who} is from {value}.", place),
    "time zone": Facet(C.LOCATION, "time zone", "{who} is on {value} time.", word_of(TIME_ZONES)),
    "routine": Facet(C.RECURRING, "routine:{kind}", "{who} has {noun} {value}.", said_as_is),
    "licence": Facet(C.POSSESSION, "licence:{kind}", "{who} has {a_value}.", said_as_is),
    "weight change": Facet(C.HEALTH, "weight change", "{who} has {value}.", said_as_is),
    "work mode": Facet(C.WORK, "work mode", "{who} works {value}.", said_as_is),
    "office": Facet(C.WORK, "office", "{whose} office is in {value}.", place),
    "employer": Facet(C.WORK, "employer", "{who} works at {value}.", org),
    "moved employer": Facet(C.WORK, "employer", "{who} works at {value}.", organisation),
    "gym": Facet(C.POSSESSION, "member:gym", "{who} goes to {value}.", gym),
    "left gym": Facet(C.POSSESSION, "member:gym", "{who} no longer goes to {value}.", gym),
    "left": Facet(C.WORK, "employer", "{who} no longer works at {value}.", workplace_left),
    "left trade": Facet(C.WORK, "employer", "{who} has stopped {value}.", word_of(TRADES)),
    "retired": Facet(C.WORK, "employer", "{who} is {value}.", work_status),
    "still at": Facet(C.WORK, "employer", "{who} works at {value}.", still_at),
    "retired from": Facet(C.WORK, "employer", "{who} retired from {value}.", org),
    "serves": Facet(C.WORK, "employer", "{who} serves in the {value}.", word_of(_FORCES)),
    "job lost": Facet(C.WORK, "employer", "{who} was {value}.", said_as_is),
    "job left": Facet(C.WORK, "employer", "{who} {value}.", said_told),
    "title": Facet(C.WORK, "job title", "{who} works as {a_value}.", title),
    "job offer": Facet(C.PLAN, "plan:job offer", "{who} has been offered a job at {value}.", org),
    "driver": Facet(C.WORK, "job title", "{who} works as {a_value}.", driver_of),
    "future job": Facet(C.PLAN, "plan:job", "{who} will work as {a_value}.", title),
    "promoted": Facet(
        C.WORK,
        "job title",
        "{who} was promoted to {value}.",
        word_of(r"senior|mid-level|mid|junior|lead|principal|staff|partner|director|manager|head"),
    ),
    "former title": Facet(C.WORK, "former job", "{who} used to work as {a_value}.", title),
    "former employer": Facet(C.WORK, "former employer", "{who} used to work at {value}.", org),
    "school year": Facet(C.WORK, "job title", "{who} is {a_value}.", word_of(_SCHOOL_YEARS)),
    "school grade": Facet(C.WORK, "job title", "{who} is in {value}.", word_of(_SCHOOL_GRADES)),
    "school": Facet(C.WORK, "employer", "{who} studies at {value}.", org),
    "teaches": Facet(C.WORK, "job title", "{who} works as {a_value}.", taught),
    "team": Facet(C.WORK, "team", "{who} is on the {value} team.", phrase),
    "leads": Facet(C.WORK, "leads", "{who} leads {value}.", phrase),
    "volunteers": Facet(C.WORK, "volunteers:{key}", "{who} volunteers at {value}.", venue),
    "business": Facet(C.WORK, "employer", "{who} runs {a_value}.", own_business),
    "run business": Facet(C.WORK, "employer", "{who} runs {a_value}.", run_business),
    "manages": Facet(C.WORK, "job title", "{who} works as {a_value}.", manager_of),
    "relation": Facet(C.RELATIONSHIP, "{kind}", "{value} is {whose} {noun}.", relation),
    "condition": Facet(C.HEALTH, "condition:{key}", "{who} has {value}.", word_of(CONDITIONS)),
    "health state": Facet(C.HEALTH, "condition:{key}", "{who} is {value}.", word_of(HEALTH_STATES)),
    "diagnosis": Facet(C.HEALTH, "condition:{key}", "{who} has {value}.", condition),
    "surgery": Facet(C.HEALTH, "surgery:{key}", "{who} had {a_value}.", phrase),
    "surgery ahead": Facet(C.HEALTH, "surgery:{key}", "{who} is having {a_value}.", phrase),
    "health event": Facet(
        C.HEALTH, "condition:{key}", "{who} had {a_value}.", word_of(_HEALTH_EVENTS)
    ),
    "fear": Facet(C.HEALTH, "fear:{key}", "{who} is afraid of {value}.", word_of(FEARS)),
    "slipped disc": Facet(C.HEALTH, "injury:{key}", "{who} has {a_value} disc.", phrase),
    "supports": Facet(C.PREFERENCE, "supports:{key}", "{who} supports {value}.", organisation),
    "widowed": Facet(C.RELATIONSHIP, "marital status", "{who} is {value}.", status("widowed")),
    "broke up": Facet(C.RELATIONSHIP, "marital status", "{who} is {value}.", status("single")),
    "marital": Facet(
        C.RELATIONSHIP, "marital status", "{who} is {value}.", word_of(MARITAL_STATUSES)
    ),
    "children": Facet(C.RELATIONSHIP, "count:{kind}", "{who} has {value}.", count),
    "aged": Facet(C.RELATIONSHIP, "count:{kind}", "{who} has {value}.", aged_count),
    "household": Facet(C.RELATIONSHIP, "count:{kind}", "{who} has {value}.", household_count),
    "loss": Facet(C.RELATIONSHIP, "passed away", "{who} {value}.", said_dated),
    "hobby": Facet(C.SKILL, "skill:{kind}", "{who} {value}.", hobby),
    "hobby lately": Facet(C.SKILL, "skill:{kind}", "{who} {value}.", hobby_lately),
    "practised": Facet(C.SKILL, "skill:{key}", "{who} has been {value}.", practised),
    "living": Facet(C.WORK, "job title", "{who} {value} for a living.", hobby),
    "trade": Facet(C.WORK, "job title", "{who} does {value}.", phrase),
    "aid": Facet(C.HEALTH, "aid:{key}", "{who} uses {a_value}.", word_of(AIDS)),
    "injury": Facet(C.HEALTH, "injury:{key}", "{who} hurt {their} {value}.", phrase),
    "weight": Facet(C.HEALTH, "weight", "{who} weighs {value}.", said_as_is),
    "height": Facet(C.HEALTH, "height", "{who} is {value} tall.", said_as_is),
    "medication": Facet(C.HEALTH, "medication:{key}", "{who} takes {value}.", phrase),
    "dosed medication": Facet(C.HEALTH, "medication:{kind}", "{who} takes {value}.", medication),
    "diet": Facet(C.DIET, "diet", "{who} is {value}.", word_of(DIETS)),
    "fasting": Facet(C.DIET, "diet", "{who} is doing {value}.", word_of(_FASTS)),
    "counting": Facet(
        C.DIET, "diet", "{who} is {value}.", word_of(r"counting\s+(?:calories|macros|points)")
    ),
    "quit diet": Facet(C.DIET, "diet", "{who} is no longer {value}.", word_of(DIETS)),
    "smoker": Facet(C.HEALTH, "smoking", "{who} smokes.", status("smokes")),
    "quit smoking": Facet(C.HEALTH, "smoking", "{who} has quit smoking.", status("quit smoking")),
    "allergy": Facet(C.DIET, "allergy:{key}", "{who} is allergic to {value}.", allergen),
    "intolerance": Facet(C.DIET, "intolerance:{key}", "{who} is intolerant to {value}.", phrase),
    "teetotal": Facet(C.DIET, "avoids:alcohol", "{who} does not drink alcohol.", alcohol),
    "avoids": Facet(C.DIET, "avoids:{key}", "{who} does not eat {value}.", word_of(FOODS_TO_AVOID)),
    "drinks daily": Facet(C.DIET, "drinks:{kind}", "{who} drinks {value}.", drinks_daily),
    "drinker": Facet(C.DIET, "drinks:{kind}", "{who} is {value}.", drinks_daily),
    "family size": Facet(
        C.RELATIONSHIP,
        "family size",
        "{whose} family has {value} people.",
        word_of(r"two|three|four|five|six|seven|eight|\d"),
    ),
    "member": Facet(C.IDENTITY, "member:{key}", "{who} is a member of {value}.", membership),
    "handedness": Facet(C.IDENTITY, "handedness", "{who} is {value}.", handedness),
    "commute time": Facet(C.NOTE, "commute time", "{who} has {a_value} commute.", phrase),
    "trying for a baby": Facet(C.PLAN, "plan:baby", "{who} is {value}.", said_as_is),
    "weak at": Facet(C.SKILL, "skill:{key}", "{who} is not good with {value}.", phrase),
    "avoids drink": Facet(
        C.DIET, "avoids:{key}", "{who} does not drink {value}.", word_of(_DRINKS)
    ),
    "birthday": Facet(C.IMPORTANT_DATE, "birthday", "{whose} birthday is {value}.", day),
    "birthday month": Facet(C.IMPORTANT_DATE, "birthday", "{whose} birthday is {value}.", due),
    "event": Facet(C.IMPORTANT_DATE, "event:{kind}", "{whose} {noun} is on {value}.", day),
    "event month": Facet(C.IMPORTANT_DATE, "event:{kind}", "{whose} {noun} is {value}.", due),
    "due": Facet(C.IMPORTANT_DATE, "due date", "{whose} baby is due {value}.", due),
    "anniversary": Facet(C.IMPORTANT_DATE, "anniversary", "{whose} anniversary is {value}.", day),
    "owns": Facet(C.POSSESSION, "{kind}", "{who} has {a_value}.", thing),
    "drives": Facet(C.POSSESSION, "owns:car", "{who} drives {a_value}.", driven),
    "my thing": Facet(C.POSSESSION, "{kind}", "{who} has {a_value}.", named_thing),
    "uses": Facet(C.POSSESSION, "{kind}", "{who} uses {value} as {their} {noun}.", thing),
    "product": Facet(C.POSSESSION, "uses:{key}", "{who} uses {value}.", product),
    "sold": Facet(C.POSSESSION, "{kind}", "{who} no longer has {their} {value}.", thing),
    "speaks": Facet(C.SKILL, "language:{key}", "{who} speaks {value}.", language),
    "degree": Facet(C.SKILL, "degree:{key}", "{who} has a degree in {value}.", field_of_study),
    "studying for": Facet(C.WORK, "studies", "{who} is doing {a_value}.", said_as_is),
    "passed": Facet(C.SKILL, "passed:{key}", "{who} passed {their} {value}.", said_as_is),
    "eats again": Facet(C.DIET, EATS_AGAIN_SLOT, "{who} eats {value} again.", eaten_again),
    "signed up": Facet(C.PLAN, "plan:{kind}", "{who} signed up for {value}.", plan),
    "milk": Facet(C.DIET, "milk", "{who} drinks {value}.", said_as_is),
    "going back": Facet(C.PLAN, "plan:{kind}", "{who} is going back to {value}.", going_back),
    "chronotype": Facet(
        C.PREFERENCE,
        "chronotype",
        "{who} is {a_value}.",
        word_of(r"night\s+owl|morning\s+person|early\s+bird|night\s+person|early\s+riser"),
    ),
    "shifts": Facet(C.WORK, "shifts", "{who} works {value}.", shifts),
    "hours": Facet(C.WORK, "hours", "{who} works {value}.", hours),
    "days a week": Facet(C.WORK, "hours", "{who} works {value}.", days_a_week),
    "major": Facet(C.WORK, "major", "{who} is majoring in {value}.", field_of_study),
    "studies": Facet(C.WORK, "major", "{who} studies {value}.", field_of_study),
    "subjects": Facet(C.WORK, "major", "{who} studies {value}.", said_as_is),
    "activity": Facet(C.SKILL, "activity:{key}", "{who} goes {value}.", phrase),
    "practice": Facet(C.SKILL, "activity:{key}", "{who} does {value}.", phrase),
    "childless": Facet(C.RELATIONSHIP, "count:child", "{who} has {value}.", none_of),
    "learning": Facet(C.SKILL, "learning:{key}", "{who} is learning {value}.", subject),
    "classes": Facet(C.SKILL, "learning:{key}", "{who} is taking {value} {noun}.", phrase),
    "a class": Facet(C.SKILL, "learning:{key}", "{who} is taking {a_value} {noun}.", phrase),
    "stopped learning": Facet(
        C.SKILL, "learning:{key}", "{who} is no longer learning {value}.", lesson
    ),
    "leave": Facet(C.WORK, "leave", "{who} is {value}.", said_as_is),
    "pregnant": Facet(C.HEALTH, "pregnancy", "{who} is {value} pregnant.", said_as_is),
    "birth": Facet(C.HEALTH, "pregnancy", "{who} {value}.", birth),
    "delivered": Facet(
        C.HEALTH, "condition:pregnant", "{who} is no longer pregnant.", pregnancy_over
    ),
    "commute": Facet(C.NOTE, "commute", "{who} gets around by {value}.", said_as_is),
    "commute by": Facet(C.NOTE, "commute", "{who} gets around by {value}.", commute_mode),
    "career": Facet(C.WORK, "job title", "{who} works in {value}.", career),
    "department": Facet(C.WORK, "team", "{who} works in {value}.", department),
    "industry": Facet(C.WORK, "industry", "{who} works in {value}.", career),
    "moved from": Facet(C.LOCATION, "previous home", "{who} used to live in {value}.", place),
    "knows": Facet(C.SKILL, "skill:{key}", "{who} knows {value}.", skill),
    "learned": Facet(C.SKILL, "skill:{kind}", "{who} can {value}.", learned),
    "good at": Facet(C.SKILL, "skill:{key}", "{who} is good at {value}.", phrase),
    "plays": Facet(C.SKILL, "plays:{key}", "{who} plays {value}.", played),
    "favorite": Facet(
        C.PREFERENCE, "favorite:{kind}", "{whose} favorite {noun} is {value}.", phrase
    ),
    "favorite any": Facet(C.PREFERENCE, "favorite", "{whose} favorite is {value}.", phrase),
    "likes": Facet(C.PREFERENCE, "{kind}", "{who} likes {value}.", taste),
    "plan": Facet(C.PLAN, "plan:{kind}", "{who} plans to {value}.", plan),
    "aspiration": Facet(C.PLAN, "plan:career", "{who} wants to be {a_value}.", title),
    "preparing": Facet(C.PLAN, "plan:{kind}", "{who} is preparing for {value}.", plan),
    "saving for": Facet(C.PLAN, "plan:{kind}", "{who} is saving for {value}.", plan),
    "considering": Facet(C.PLAN, "plan:{kind}", "{who} is considering {value}.", plan),
    "planning": Facet(C.PLAN, "plan:{kind}", "{who} is planning {value}.", plan),
    "upcoming": Facet(C.PLAN, "plan:{kind}", "{who} is {value}.", plan),
    "event ahead": Facet(C.PLAN, "plan:{kind}", "{who} has {value}.", plan),
    "trip": Facet(C.PLAN, "plan:{kind}", "{who} is travelling to {value}.", trip),
    "trip back": Facet(C.NOTE, "trip:{key}", "{who} has just been to {value}.", place),
    "dropped plan": Facet(C.PLAN, "plan:{kind}", "{who} dropped the plan: {value}.", plan),
}

_A = r"(?:a|an|the|my|our|one)\s+"
_BE_NOW = r"is\s+(?:now\s+)?"
_PLACE_VERB = (
    r"(?:(?:lives?|is\s+living|has\s+been\s+living|have\s+been\s+living|has\s+lived|have\s+lived)"
    r"(?:\s+(?:out|over|up"
    r"|down|back|alone|on\s+(?:my|our)\s+own|with\s+(?:my|our)\s+[\w-]+(?:\s+[\w-]+)?"
    r"(?:\s+and\s+(?:my|our)\s+[\w-]+(?:\s+[\w-]+)?)?))?"
    r"(?:\s+in\s+(?:(?:a|an|this|my|our|the)\s+)?(?:[\w-]+\s+)?"
    r"(?:flat|house|apartment|bungalow|cottage|condo|studio|townhouse|trailer|cabin|semi|terrace"
    r"|maisonette|duplex|halls|dorm|care\s+home|nursing\s+home|retirement\s+home))?|resides?"
    r"|is\s+based"
    r"|has\s+lived|have\s+lived|is\s+located|stays?|is\s+staying|settled\s+down|settled"
    r"|is\s+in\s+(?:this|a|my|our|the)\s+(?:(?:little|small|tiny|new|rented)\s+)?(?:flat"
    r"|house|apartment|place|home|condo|studio))"
    r"\s+(?:in|at|near|outside(?:\s+of)?|just\s+outside(?:\s+of)?|close\s+to)"
)
# The dwelling comes first: "moved to a house in Walthamstow" is a move to Walthamstow.
_MOVED = (
    # "Mum's gone into a care home near us in Fareham": a home that looks after her
    r"(?:(?:signed\s+(?:a\s+lease\s+)?(?:for|on)|moved\s+(?:in)?to|just\s+moved\s+(?:in)?to"
    r"|(?:has\s+)?gone\s+into)"
    r"\s+(?:a|an|our|my|the)\s+(?:new\s+|first\s+|own\s+)?(?:place|flat|house|apartment|home"
    r"|condo|(?:care|nursing|retirement)\s+home|sheltered\s+housing)"
    r"(?:\s+(?:near|close\s+to)\s+(?:us|me|here|them|him|her))?\s+in"
    # "bought our first house in Raleigh": a home, and a house of their own
    r"|bought\s+(?:a|an|our|my|the)\s+(?:new\s+|first\s+|own\s+)?(?P<owns>place|flat|house"
    r"|apartment|home|condo)\s+in"
    r"|(?:moved|relocated|have\s+moved|has\s+moved|moved\s+back|just\s+moved)\s+"
    # "moved across the river to Jersey City", "moved out to the coast"
    r"(?:(?:across|over|out|up|down)(?:\s+the\s+(?:river|bay|border|pond|water|country|city))?\s+)?"
    r"(?:to|into"
    r"|in\s+(?:together\s+)?(?:in|to)|in\s+with\s+(?:my|our)\s+[\w-]+(?:\s+(?-i:[A-Z])[\w'-]+)?"
    r"\s+(?:in|to)))"
)
_WORK_AT = (
    r"(?:(?:works?|is\s+working|has\s+been\s+working|have\s+been\s+working|is\s+employed"
    r"|is\s+interning|interns?|do(?:es)?\s+(?:[\w-]+\s+){0,3}?work"
    r"|is\s+(?:contracting|consulting|freelancing)"
    r"|practi[cs]es?(?:\s+(?:law|medicine|dentistry))?)"
    r"(?:\s+(?:in\s+(?P<industry>[\w -]{2,30}?)|on\s+[\w -]{2,30}?))?"
    r"(?:\s+(?:(?P<hours>part[-\s]time|full[-\s]time)|remotely"
    r"|freelance"
    r"|\d{1,2}(?:am|pm)?\s*(?:to|-)\s*\d{1,2}(?:am|pm)?|(?P<shifts>nights|days|weekends)))?"
    # "works security at the airport": the job said as the work done
    r"(?:\s+(?P<trade>security|reception|maintenance|catering|admin|cleaning))?"
    r"\s+(?:at|for)"
    r"|(?:fl(?:y|ies)|is\s+flying|drives?|writes?|plays?|consults?|freelances?|contracts?)\s+for"
    r"|(?:works?|is\s+working|switched\s+to|moved\s+to|picks?\s+up)\s+(?:[\w-]+\s+){0,2}?"
    r"shifts?\s+(?:at|for))"
)
_TRAINING = r"internship|placement|co-op|apprenticeship|residency|traineeship|externship"
_JOINED = (
    r"(?:joined|started\s+(?:a\s+new\s+job\s+|working\s+)?at|got\s+(?:a\s+)?(?:new\s+)?(?:job|hired)"
    # "a job on the children's ward at Leeds General"
    r"(?:\s+(?:on|in)\s+(?:the\s+|a\s+)?[\w'-]+(?:\s+[\w'-]+){0,2}?)?\s+(?:at|by)"
    # a start ahead: "I start at St. Mary's next week"
    r"|(?:starts?|is\s+starting)\s+(?:(?:my|a)\s+(?:new\s+)?(?:job|role|position)\s+|work\s+)?at"
    r"(?=\s+(?:the\s+)?(?-i:[A-Z]))|took\s+a\s+job\s+at|accepted\s+(?:an\s+offer|a\s+job)\s+(?:at|from)"
    r"|was\s+hired\s+by|(?:got|was|has\s+been)\s+taken\s+on\s+(?:at|by)|signed\s+with"
    r"|is\s+employed\s+by|switched\s+jobs\s+to"
    r"|got\s+(?:a\s+)?new\s+job\s+(?:at|with)|(?:landed|got|was\s+offered|accepted|has"
    r"|is\s+(?:doing|starting))\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,2}?(?:job|role|position|post"
    rf"|contract|{_TRAINING})\s+(?:at|with)"
    rf"|my\s+(?:[\w-]+\s+){{0,2}}?(?:{_TRAINING}|job|role|position|postdoc)\s+is\s+(?:at|with))"
)
_TAKE = r"(?:takes?|is\s+taking|is\s+on)"
_WORKED_WHEN = (
    r"\s+(?:for\s+(?:\w+\s+)?(?:years?|months?|ages|decades)|before\s+(?:that|this|then)"
    r"|in\s+(?:the\s+)?(?:past|\d{4}s?))\b.*"
)
# How often one is somewhere, said after it: "at the food bank two days a week".
_WEEKLY = (
    r"(?:\s+(?:one|two|three|four|five|six|a\s+few|a\s+couple\s+of|\d)\s+(?:days|nights|mornings"
    r"|afternoons|evenings|shifts|times)\s+a\s+(?:week|month)|\s+(?:once|twice)\s+a\s+(?:week|month))"
)
_MILKS = (
    r"(?:oat|soy|soya|almond|rice|coconut|cashew|pea|hemp|lactose-free|goat's|goat|skimmed|skim"
    r"|semi-skimmed|whole|full-fat|2%|cow's)\s+milk"
)
_BOUND = rf"(?:\s+(?:to|from|in|at|with)\s+{PLACE_NAME}|\s+(?:home|back|out))?"
"""Where an event goes or who it is with: "my flight to Rome", "my call with Dana", "my
flight home"."""
_QUITTING = r"(?:quit|stop|lose|cut\s+(?:down|back)\s+on|give\s+up|kick)\s"
# What one tries to get over months, a plan: "trying to get a mortgage" (not "a table").
_SOUGHT = (
    r"(?:get|buy|find|land|secure|rent)\s+(?:a|an|our|my)\s+(?:first\s+|new\s+|own\s+)?"
    r"(?:mortgage|house|flat|home|apartment|place|job|visa|loan|green\s+card|work\s+permit"
    r"|promotion|apprenticeship|internship)\b"
)
_RESCHEDULED = (
    r"(?:got\s+|has\s+been\s+|was\s+|is\s+being\s+|is\s+)?(?:pushed|moved|postponed"
    r"|rescheduled|delayed|bumped|shifted|brought\s+forward)"
)

_WHEN_DIED = (
    r"in\s+\d{4}|last\s+(?:year|month|week|night|spring|summer|fall|autumn|winter)"
    r"|(?:a\s+few|\w+)\s+(?:years?|months?|weeks?|days?)\s+ago|recently|yesterday|today"
    rf"|this\s+(?:morning|week|year)|in\s+{dates.MONTH_PATTERN}|on\s+{dates.WEEKDAY_PATTERN}"
    r"|over\s+the\s+weekend"
)
"""When someone died, said after "died" or "passed away"."""
_DIED_IDIOM = (
    r"(?:down|out|off|inside|laughing|a\s+little|on\s+me"
    r"|of\s+(?:embarrassment|shame|boredom|laughter|laughing|cringe))\b"
)
"""What makes "died" no death: "the noise died down", "I died laughing"."""

# The formatter leaves this one table as written (fmt: skip at its end): each row reads as
# one line of pattern beside its examples, which one-value-per-line would scatter.
TABLE: tuple[Row, ...] = (
    # A school by its name is studied at, whoever goes there: "My daughter goes to Hillside
    # Primary", "She's at Oakwood Academy now"; before the moves ("moved up to Greenway
    # Secondary" moves no home).
    Row("school", r"(?:goes|go|is|started|starts|is\s+starting|has\s+started|moved|is\s+now)\s+"
                  r"(?:now\s+|up\s+|over\s+)?(?:to|at)\s+(?P<value>(?-i:[A-Z])[\w.'-]*"
                  rf"(?:\s+(?-i:[A-Z])[\w.'-]*){{0,3}}?\s+(?-i:{_SCHOOL_NAMES})(?:\s+School)?)"
                  r"(?:\s+(?:now|this\s+\w+|in\s+\w+|since\s+\w+)|\s*,.*)?",
        (("I go to Westfield Sixth Form College.", "employer", "westfield sixth form college"),
         ("I'm at Leeds Beckett University now.", "employer", "leeds beckett university"))),
    # identity
    Row("name", r"my\s+(?:full\s+|first\s+|real\s+)?name(?:\s+is|'s)\s+(?P<value>.+)",
        (("My name is Dana.", "name", "dana"), ("My full name is Dana Kim.", "name", "dana kim"))),
    Row("address", r"(?:go|goes|went)\s+by\s+(?P<value>.+)",
        (("I go by DJ.", "address as", "dj"),)),
    Row("email", r"my\s+(?:(?:work|personal|new)\s+)?e-?mail(?:\s+address)?(?:\s+is|'s)\s+"
                 r"(?P<value>\S+@\S+)",
        (("My email is jo.b@gmail.com.", "email", "jo.b@gmail.com"),)),
    Row("address", r"my\s+nickname\s+is\s+(?P<value>.+)",
        (("My nickname is Bear.", "address as", "bear"),)),
    Row("religion", r"is\s+(?:a\s+)?(?:practi[cs]ing\s+|devout\s+|observant\s+|lapsed\s+)?"
                    rf"(?P<value>{RELIGIONS})",
        (("I'm Muslim.", "religion", "muslim"), ("I'm a practising Catholic.", "religion",
                                                 "catholic")), we=True),
    Row("pronouns", r"(?:uses?|goes?\s+by|prefers?)\s+(?P<value>(?:she|he|they|ze|xe)/\w+(?:/\w+)?)"
                    r"(?:\s+pronouns)?",
        (("I use they/them pronouns.", "pronouns", "they/them"),)),
    Row("time zone", r"is\s+(?:on|in)\s+(?:the\s+)?(?P<value>[a-z]+)\s+"
                     r"(?:time(?:\s+zone)?|timezone)"
                     r"(?:\s+(?:now|too|btw))?",
        (("I'm on Pacific time.", "time zone", "pacific"),), we=True),
    Row("pronouns", r"my\s+pronouns\s+are\s+(?P<value>.+)",
        (("My pronouns are they/them.", "pronouns", "they/them"),)),
    Row("age", r"(?:is|just\s+turned|turned|is\s+aged|aged)\s+(?P<value>\d{1,3})"
               r"(?:\s+years?\s+old|\s+now)?"
               r"(?:\s+(?:today|yesterday|recently|(?:last|this)\s+\w+|on\s+(?:the\s+)?\w+"
               rf"|in\s+{dates.MONTH_PATTERN}|(?:a|an|\w+)\s+(?:days?|weeks?|months?)\s+ago))?"
               r"(?:\s*,\s*(?:actually|btw|now))?",
        (("I'm 34 years old.", "age", "34"), ("I just turned 40.", "age", "40"),
         ("Turned 40 last week.", "age", "40"), ("I turned 30 in March.", "age", "30"))),
    # "Bella is a 3 year old lab": an age said before what someone is.
    Row("age", r"is\s+(?:a|an)\s+(?P<value>\d{1,3})[\s-]*(?:years?|yrs?)[\s-]*old\s+"
               rf"(?!(?:[\w-]+\s+)?(?:{JOB_HEAD_RE})\b)[\w-]+(?:\s+[\w-]+)?",
        (("I'm a 40 year old dad.", "age", "40"),)),
    Row("age in words", r"(?:is|just\s+turned|turned)\s+(?P<value>[a-z]+)"
                        r"(?:\s+years?\s+old|\s+now)?(?:\s+(?:now|today|last\s+\w+))?",
        (("My son is five now.", "age", "5"),), others_only=True),
    Row("birth year", r"was\s+born\s+in\s+(?P<value>\d{4})",
        (("I was born in 1988.", "birth year", "1988"),)),
    Row("nationality", r"is\s+(?P<value>[\w-]+)",
        (("I'm Canadian.", "nationality", "canadian"),)),
    # A citizenship gained is a nationality: "I got my Irish citizenship last week!"
    Row("nationality", r"(?:got|received|was\s+granted|has\s+been\s+granted|finally\s+got)\s+"
                       r"(?:my|his|her|their)\s+(?P<value>[\w-]+)\s+(?:citizenship|passport)\b.*",
        (("I got my Irish citizenship last week!", "nationality", "irish"),)),
    Row("nationality", r"(?:became|is\s+now|is)\s+(?:a|an)\s+(?P<value>[\w-]+)\s+"
                       r"(?:citizen|national)\b.*",
        (("I became a British citizen in May.", "nationality", "british"),)),
    Row("proper name", r"is\s+(?P<value>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)",
        (("Hi, I'm Priya.", "name", "priya"),)),
    # where they live
    Row("home", rf"{_PLACE_VERB}\s+(?P<value>.+)",
        (("I live in Berlin.", "home", "berlin"), ("I'm based in Austin, Texas.", "home",
         "austin, texas"), ("We live in Denver.", "home", "denver")), we=True),
    # "We live in a village near Bath": the place it is near, said with "near".
    Row("near home", r"lives?\s+in\s+(?:a|an|the)\s+(?:[\w-]+\s+)?(?:village|town|suburb|hamlet)\s+"
                     r"(?P<value>(?:near|outside|just\s+outside)\s+(?-i:[A-Z]).+?)(?:\s+now)?",
        (("We live in a village near Bath now.", "home", "near bath"),), we=True),
    Row("home", r"lives?\s+in\s+(?:a|an|the|my|our)\s+(?:[\w-]+\s+){0,3}?(?:apartment|flat|house"
                r"|studio|condo|bungalow|cottage|loft|townhouse|dorm|room|basement|place)\s+in\s+"
                r"(?P<value>.+)",
        (("I live in a tiny studio apartment in Queens.", "home", "queens"),), we=True),
    Row("home", rf"{_MOVED}\s+(?P<value>.+)",
        (("I moved to Munich last month.", "home", "munich"),
         ("I've gone into a care home near us in Fareham.", "home", "fareham"),
         ("We just relocated to Porto.", "home", "porto"),
         ("We signed for a place in Walthamstow.", "home", "walthamstow")), we=True),
    # A place held for a while is a stay, not a home: "renting a house in Tuscany for July".
    Row("home", r"(?:rents?|is\s+renting|owns?|shares?|is\s+sharing|has|got|found)"
                r"\s+(?:a|an|this)\s+(?:(?:little|small|tiny|new)\s+)?(?:(?:one|two|three|\d)-bed(?:room)?"
                r"(?:\s+(?:flat|house|apartment|place))?|flat|house|apartment|place|studio|condo|room)"
                r"(?:\s+together)?\s+in\s+(?P<value>(?:(?!\s+for\s).)+)",
        (("I'm renting a studio in Brooklyn.", "home", "brooklyn"),
         ("We own a house in Leeds.", "home", "leeds"),
         ("I finally moved out, got a flat in Leith.", "home", "leith")), we=True),
    # Only capitalised words may follow: "I'm in Paris for a conference" is a trip.
    # "I've been in Vienna for two years now" reads as "is in Vienna for two years now".
    # "Our son is out in Calgary with his family": far off, and living there.
    # "He's been up in Aberdeen since he started on the rigs": since a change in their life
    # or a year, not "since Monday", which a trip may be
    Row("whereabouts", r"is\s+(?:back\s+|out\s+|over\s+|up\s+|down\s+|still\s+)?in\s+"
                       r"(?P<value>(?-i:[A-Z])[\w'.-]*(?:,?\s+(?-i:[A-Z])[\w'.-]*){0,2})"
                       rf"(?:\s+since\s+(?:(?:he|she|they|i|we)\s+\w+|(?:19|20)\d\d|last\s+year"
                       rf"|(?:{dates.MONTH_PATTERN}))\b.*)?"
                       # "been in Winnipeg three years now" drops the "for"
                       r"(?:\s+(?:for\s+)?(?:\w+\s+)?(?:years?|months?)(?:\s+now)?"
                       r"|\s+for\s+(?:ages|a\s+while)(?:\s+now)?"
                       r"|\s+with\s+(?:his|her|their|my|our)\s+(?:family|wife|husband|partner|kids))?",
        (("I'm in Kyoto now.", "home", "kyoto"), ("We're in Jersey City now.", "home",
         "jersey city"), ("Back in Vancouver now!", "home", "vancouver"),
         ("I'm out in Calgary with my family.", "home", "calgary"),
         ("I've been in Winnipeg three years now.", "home", "winnipeg"),
         ("I've been down in Exeter since I retired.", "home", "exeter")), we=True),
    Row("whereabouts", r"is\s+spending\s+(?:this|the|a|my)\s+(?:year|semester|summer|term|winter"
                       r"|spring|autumn|fall|month|few\s+months|gap\s+year)\s+(?:abroad\s+)?in\s+"
                       r"(?P<value>.+)",
        (("I'm spending this year in Madrid.", "home", "madrid"),), we=True),
    Row("home", r"my\s+(?:home|city|hometown\s+now)\s+is\s+(?P<value>.+)",
        (("My home is Lisbon.", "home", "lisbon"),)),
    Row("hometown", r"(?:is\s+(?:originally\s+)?from|grew\s+up\s+in|was\s+born\s+in"
                    r"|was\s+raised\s+in)\s+(?P<value>.+)",
        (("I'm originally from Lyon.", "hometown", "lyon"),
         ("I grew up in Ohio.", "hometown", "ohio"))),
    Row("home", r"is\s+(?:a|an)\s+(?:[\w-]+\s+){0,2}?(?:family|couple|household)(?:\s+of\s+\w+)?"
                r"\s+(?:living|based)\s+(?:in|near|outside)\s+"
                r"(?P<value>(?-i:[A-Z]).+)",
        (("We're a family of four living in Auckland.", "home", "auckland"),), we=True),
    Row("home", r"lives?\s+on\s+(?:a|an)\s+[\w -]+?\s+(?:outside|near|in|just\s+outside)\s+"
                r"(?P<value>(?-i:[A-Z]).+)",
        (("We live on a farm outside Boise.", "home", "boise"),), we=True),
    # "moved up from Manchester": the way the move went still says where from
    Row("moved from", r"moved\s+(?:here\s+|over\s+|up\s+|down\s+|across\s+|back\s+)?from\s+"
                      r"(?P<value>.+?)"
                      r"(?:\s+to\s+(?P<home>(?-i:[A-Z]).+?))?(?:\s+(?:\w+|a)\s+(?:years?|months?)\s+ago)?",
        (("I moved from Osaka six years ago.", "previous home", "osaka"),
         ("We moved down from Glasgow in 2020.", "previous home", "glasgow")), we=True),
    Row("moved from", r"(?:used\s+to\s+live|lived)\s+in\s+(?P<value>(?-i:[A-Z]).+?)"
                      r"(?:\s+(?:for|until|till|before|when|as|with|but)\b.*)?",
        (("I used to live in Melbourne.", "previous home", "melbourne"),
         # plain past, where "have lived" lives there still
         ("We lived in Swindon for thirty years.", "previous home", "swindon")), we=True),
    Row("work mode", r"(?:works?|is\s+working|started\s+working|went)\s+"
                     r"(?P<value>from\s+home|remotely|remote|hybrid)"
                     r"(?:\s+(?:now|these\s+days|full[-\s]time|most\s+days|(?:\d|one|two|three|four)"
                     r"\s+days\s+a\s+week))?",
        (("I'm working from home now.", "work mode", "from home"),
         ("I work from home three days a week.", "work mode", "from home"))),
    Row("work mode", r"(?:do(?:es)?|works?)\s+(?:\d|one|two|three|four)\s+days\s+(?:a\s+week\s+)?"
                     r"(?P<value>from\s+home|remotely)(?:\s+and\s+.+)?",
        (("I do three days from home.", "work mode", "from home"),)),
    Row("home", r"is\s+(?:working\s+)?remote(?:ly)?\s+from\s+(?P<value>.+)",
        (("I'm remote from Denver.", "home", "denver"),)),
    Row("aboard", r"lives?\s+on\s+(?P<value>(?:a|an)\s+[\w -]+?)(?:,.*)?",
        (("I live on a narrowboat, which is a whole thing.", "home", "narrowboat"),), we=True),
    Row("hometown", r"my\s+hometown\s+is\s+(?P<value>.+)",
        (("My hometown is Cork.", "hometown", "cork"),)),
    # work
    Row("office", r"my\s+(?:office|workplace)(?:\s+is|'s)\s+(?:now\s+)?(?:in|at|near)\s+"
                  r"(?P<value>.+)",
        (("My office is in Canary Wharf.", "office", "canary wharf"),), we=True),
    Row("team", r"(?:is|works?|is\s+working)\s+(?:on|in|with)\s+the\s+(?P<value>.+?)\s+team",
        (("I'm on the platform team.", "team", "platform"),)),
    # A move into a line of work is a new job: "I moved into data engineering last year".
    Row("career", r"(?:moved|went|switched|transitioned|pivoted|changed\s+careers?)\s+(?:over\s+)?"
                  r"(?:into|to)\s+(?P<value>.+?)(?:\s+(?:last|this|in|a|two|three|since|after)\b.*)?",
        (("I moved into data engineering last year.", "job title", "data engineering"),
         ("I went into nursing after the army.", "job title", "nursing"))),
    Row("department", r"works?\s+in\s+(?P<value>[\w']+)",
        (("I work in HR.", "team", "hr"),)),
    # An industry is not a job: "I work in logistics" survives "I'm a driver now".
    Row("industry", r"(?:works?|is\s+working)\s+in\s+(?:the\s+)?(?P<value>[\w-]+(?:\s+[\w-]+)??)"
                    r"(?:\s+(?:industry|sector|space|business|field|world))?(?:\s+(?:now|these\s+days"
                    r"|at\s+the\s+moment))?",
        (("I work in logistics.", "industry", "logistics"), ("I work in tech.", "industry", "tech"),
         ("I work in the tech industry.", "industry", "tech"),
         ("I'm working in real estate now.", "industry", "real estate"))),
    Row("employer", r"(?:works?|is\s+working)\s+in\s+(?P<value>(?:a|an)\s+[\w'-]+(?:\s+[\w'-]+)??)"
                    rf"(?:\s+in\s+(?P<office>{PLACE_NAME}))?",
        (("I work in a bakery.", "employer", "bakery"),)),
    Row("office", rf"(?:works?|is\s+working)\s+in\s+(?!(?:{CAREER_FIELDS})\b)"
                  r"(?P<value>(?-i:[A-Z]).+?)"
                  r"(?:\s+(?:now|these\s+days|at\s+the\s+moment))?",
        (("I work in Paris.", "office", "paris"),), we=True),
    Row("team", r"is\s+(?:the\s+)?(?:captain|co-captain|vice-captain|president|leader)\s+of\s+the"
                r"\s+(?P<value>.+?)\s+(?:team|club|society|squad)",
        (("I'm captain of the robotics team.", "team", "robotics"),)),
    Row("team", r"(?:joined|moved\s+to|switched\s+to|transferred\s+to)\s+the\s+(?P<value>.+?)"
                r"\s+team",
        (("I moved to the data team.", "team", "data"),)),
    # Before the employer: "I'm at Anytime Fitness now" is a gym, "I'm at Figma" a job.
    Row("gym", r"(?:goes|go|is|trains|works\s+out|lifts|climbs|boulders|is\s+a\s+member)"
               r"\s+(?:at|to|of)\s+(?P<value>.+?)(?:\s+(?:now|these\s+days|instead|most\s+days|every\s+\w+|on\s+\w+"
               r"|twice\s+a\s+week|three\s+times\s+a\s+week)\b.*)?",
        (("I go to PureGym.", "member:gym", "puregym"),
         ("I'm at Anytime Fitness now.", "member:gym", "anytime fitness"))),
    Row("gym", r"(?:joined|signed\s+up\s+(?:at|for|with)|switched\s+to|moved\s+to)\s+(?P<value>.+?)"
               r"(?:\s+(?:last|this|in|on)\b.*)?",
        (("I joined the Castle Climbing Centre.", "member:gym", "castle climbing centre"),)),
    Row("left gym", r"(?:cancell?ed|quit|left|stopped\s+going\s+to)\s+(?:my\s+)?(?P<value>.+?)"
                    r"(?:\s+(?:membership|last|this|in|on)\b.*)?",
        (("I cancelled PureGym.", "member:gym", "not puregym"),), prefix="not "),
    Row("employer", rf"{_WORK_AT}\s+(?P<value>.+?)"
                    r"(?:\s+as\s+(?P<title>.+))?(?:\s+out\s+of\s+(?P<home>(?-i:[A-Z]).+)"
                    rf"|\s+in\s+(?P<office>{PLACE_NAME})"
                    # "the Amazon warehouse outside Derby": where the workplace is, not the office
                    r"|\s+(?:near|outside(?:\s+of)?|just\s+outside)\s+[\w'-]+(?:\s+[\w'-]+)?)?"
                    r"(?:\s+(?:at\s+night|at\s+weekends|on\s+weekends|in\s+the\s+evenings))?"
                    rf"{_WEEKLY}?",
        (("I work at Acme Corp.", "employer", "acme corp"),
         ("I work nights at the Amazon warehouse outside Derby.", "employer", "amazon warehouse"),
         ("I work at Tesco three days a week.", "employer", "tesco"),
         ("I work security at the stadium.", "job title", "security"),
         ("I work night shifts at the children's hospital.", "employer", "children's hospital"),
         ("I work at Acme Corp as a data engineer.", "job title", "data engineer"),
         ("I now work for Globex.", "employer", "globex"),
         ("I work at Shopify out of Ottawa.", "home", "ottawa"),
         ("I work in cybersecurity for a bank in Leeds.", "industry", "cybersecurity"),
         ("I work in cybersecurity for a bank in Leeds.", "office", "leeds"))),
    # "I'm in the navy": serving now ("I was in the army" is the past, read elsewhere)
    Row("serves", rf"is\s+(?:still\s+)?in\s+the\s+(?P<value>{_FORCES})(?:\s+(?:now|these\s+days"
                  r"|(?:as|for)\s+.+))?",
        (("I'm in the navy now.", "employer", "navy"),
         ("I'm in the RAF as an engineer.", "employer", "raf"))),
    Row("school", r"(?:studies|is\s+studying|majors?\s+in|is\s+majoring\s+in"
                  r"|is\s+doing\s+(?:a|an|my)\s+[\w']+(?:\s+degree)?\s+in)\s+"
                  r"(?!(?:for|to|in|with|at|hard|late|all)\b)"
                  r"(?P<studies>[\w -]+?)\s+at\s+(?P<value>.+)",
        (("I'm studying comp sci at Georgia Tech.", "employer", "georgia tech"),
         ("I'm studying comp sci at Georgia Tech.", "major", "comp sci"))),
    # An acronym is an organisation, not a place: "I've moved to HSBC", "switched to IBM".
    Row("moved employer", r"(?:moved|switched|went)\s+(?:over\s+)?to\s+"
                          r"(?P<value>(?-i:[A-Z]{3,6})\b.*)",
        (("I've moved to HSBC since we last talked.", "employer", "hsbc"),)),
    Row("employer", rf"{_JOINED}\s+(?P<value>.+?)(?:\s+as\s+(?P<title>.+))?",
        (("I joined Initech as a product manager.", "employer", "initech"),
         ("Got taken on at Lidl in the spring.", "employer", "lidl"),
         ("My co-op placement is at Shopify this winter.", "employer", "shopify"),
         ("I have an internship at Stripe.", "employer", "stripe"))),
    Row("leave", r"is\s+(?P<value>(?:going\s+on|on|starting|taking|off\s+on)\s+(?:[\w-]+\s+){0,2}?"
                 r"(?:maternity|paternity|parental|sick|medical|study|compassionate|sabbatical)"
                 r"(?:\s+leave)?(?:\s+(?:from|until|till|in|on|for|next|this)\b.*)?)",
        (("I'm going on maternity leave from December 1.", "leave",
          "going on maternity leave from december 1"),
         ("I'm on sick leave until March.", "leave", "on sick leave until march"))),
    # "A retired civil engineer" works no more: retired, and what they were.
    Row("former title", rf"is\s+(?:a|an)\s+(?P<retired>retired)\s+(?P<value>(?:[\w-]+\s+){{0,2}}?"
                        rf"(?:{JOB_HEAD_RE}))(?:\s+(?:based\s+|living\s+)?in\s+(?P<home>[^,]+))?"
                        r"(?:\s+from\s+(?P<hometown>[\w'.-]+(?:\s+[\w'.-]+){0,2}))?",
        (("I'm a retired civil engineer.", "former job", "civil engineer"),
         ("I'm a retired civil engineer.", "employer", "retired"),
         ("I'm a retired nurse from Accra.", "hometown", "accra"))),
    Row("title", r"(?:is\s+(?:a|an|the)(?:\s+(?:only|sole))?|works?\s+(?:from\s+home\s+|remotely\s+"
                 r"|part[-\s]time\s+"
                 r"|full[-\s]time\s+|nights\s+|days\s+|evenings\s+|weekends\s+|shifts\s+)?as"
                 # "I work like a dental nurse": "as" in other languages' words, for a job
                 # only ("I work like a dog" is how hard)
                 rf"(?:\s+(?:a|an|the))?|works?\s+like\s+(?:a|an)(?=\s+(?:[\w-]+\s+){{0,2}}?"
                 rf"(?:{JOB_HEAD_RE})\b)|has\s+worked\s+as(?:\s+(?:a|an|the))?|is\s+working\s+as"
                 r"(?:\s+(?:a|an))?|(?:is\s+freelancing|freelances?|is\s+contracting|retrained"
                 r"|qualified|has\s+qualified|has\s+retrained)\s+as"
                 r"(?:\s+(?:a|an))?|(?:got|was|has\s+been|have\s+been)\s+promoted\s+to"
                 r"|is\s+now\s+(?:a|an|the)"
                 # "I'm head chef at a steakhouse": a rank may go without its article
                 r"|is(?:\s+now)?(?=\s+(?:head|lead|chief|senior|principal|staff|deputy|executive"
                 r"|sous)\s)"
                 r"|(?:got|started|landed)\s+(?:a\s+)?(?:new\s+)?job\s+as\s+(?:a|an|the))"
                 r"\s+(?:(?P<age>\d{1,2})[\s-]*(?:yo|y/o|years?[\s-]old|yr[\s-]old)\s+)?"
                 # "a night nurse": the nights are the shifts, the job is a nurse's
                 rf"(?:(?P<shifts>night)(?:-shift)?\s+(?=(?:[\w-]+\s+)?(?:{JOB_HEAD_RE})\b))?"
                 r"(?P<value>[^,]+?)"
                 r"(?:\s+(?:doing|finishing|starting|completing)\s+(?:my|their|a|an|the)"
                 r"\s+[\w -]+?)?"
                 # "a PhD student in chemistry at Leeds": a student's field is what they study
                 r"(?:(?:(?<=student)|(?<=candidate))\s+in\s+(?P<major>(?-i:[a-z])[\w -]{1,30}?)"
                 r"(?=\s+(?:at|for|with)\s)"
                 r"|\s+in\s+(?-i:[a-z])[\w -]{1,30}?(?=\s+(?:at|for|with)\s))?"
                 # "a nurse in the NHS": a service known by its initials employs one
                 r"(?:\s+(?:at|for|with|(?:in|of)(?=\s+an?\s)"
                 rf"|in(?=\s+the\s+(?!(?-i:{_UNITS})\b)(?-i:[A-Z]{{2,5}})\b))"
                 r"\s+(?P<employer>(?:(?P<definite>the)\s+)?[^,]+?)"
                 # "a porter at the hospital in Shrewsbury": the one hospital there, where the
                 # work is and not, as "a nurse at a hospital in Leeds" says, where one lives
                 r"(?(definite)(?:\s+in\s+(?P<office>(?-i:[A-Z])[^,]*))?))?"
                 # "a bookkeeper working from home in Ludlow": home is where the work is
                 r"(?:\s+(?:based\s+|living\s+|working\s+(?:from\s+home|remotely)\s+)?in"
                 r"\s+(?P<home>[^,]+))?"
                 r"(?:\s+from\s+(?P<hometown>[\w'.-]+(?:\s+[\w'.-]+){0,2}))?",
        (("I'm a data engineer.", "job title", "data engineer"),
         ("I'm a software developer from Pune.", "hometown", "pune"),
         ("I'm a junior doctor doing my foundation years in Cardiff.", "home", "cardiff"),
         ("I've worked as a civil engineer for 25 years.", "job title", "civil engineer"),
         ("Im a 23 yo marketing intern at a fintech startup.", "age", "23"),
         ("I work from home as a UX writer for Atlassian.", "employer", "atlassian"),
         ("I am working as a cook in a hotel in Dubai since 3 years.", "home", "dubai"),
         ("I'm a freelance illustrator based in Lisbon.", "home", "lisbon"),
         ("I'm a PhD student in marine biology at the University of Tasmania.", "employer",
          "university of tasmania"),
         ("I'm a nurse in Boston.", "home", "boston"),
         ("I'm a night nurse on the cardiac ward.", "job title", "nurse"),
         ("I'm a night nurse on the cardiac ward.", "shifts", "night shifts"),
         ("I'm a bookkeeper working from home in Ludlow.", "home", "ludlow"),
         ("I work shifts as a porter at the hospital in Shrewsbury.", "job title", "porter"),
         ("I work shifts as a porter at the hospital in Shrewsbury.", "office", "shrewsbury"),
         ("i'm a nurse in the NHS, 12 hour shifts", "employer", "nhs"),
         ("I got promoted to senior engineer.", "job title", "senior engineer"),
         ("I've just been promoted to ward manager.", "job title", "ward manager"),
         ("I'm a nurse at St. Mary's.", "employer", "st. mary's"),
         ("I work like a physiotherapist in a hospital.", "job title", "physiotherapist"))),
    Row("school year", rf"is\s+(?:a|an)\s+(?P<value>{_SCHOOL_YEARS})\s+(?:in|at)\s+"
                       r"(?P<school>(?:high|middle|grad)\s+school|college|uni(?:versity)?"
                       r"|(?-i:[A-Z])[^,]*)",
        (("I'm a junior in high school.", "job title", "junior"),
         ("I'm a sophomore at Ohio State.", "employer", "ohio state"))),
    # "moved up to year 5" may be a teacher's class as well as a pupil's year: left unread
    Row("school grade", rf"(?:is\s+in|is\s+going\s+into|started)\s+(?P<value>{_SCHOOL_GRADES})"
                        r"(?:\s+(?:at|in|now|this)\b.*)?",
        (("I'm in year 11.", "job title", "year 11"), ("I'm in 10th grade.", "job title",
                                                        "10th grade"))),
    Row("former title", r"used\s+to\s+(?:be|work\s+as)\s+(?:a|an)\s+(?P<value>.+)",
        (("I used to be a piano teacher.", "former job", "piano teacher"),)),
    # A workplace one used to be at is history, apart from the current employer: "I used to
    # work at Deloitte", "before that I worked in a call centre".
    Row("former employer", r"(?:used\s+to\s+work|previously\s+worked)\s+(?:at|for|in)\s+"
                           rf"(?P<value>.+?)(?:{_WORKED_WHEN})?",
        (("I used to work at Deloitte.", "former employer", "deloitte"),
         ("Before that I was in a call centre.", "former employer", "call centre"))),
    # Plain "worked at" may be today's shift, unless it says how long or before what.
    Row("former employer", rf"worked\s+(?:at|for|in)\s+(?P<value>.+?){_WORKED_WHEN}",
        (("I worked at Google for ten years.", "former employer", "google"),)),
    Row("former title", r"was\s+(?:a|an)\s+(?P<value>.+?)\s+(?:all\s+(?:my|her|his|their)\s+(?:life"
                        r"|working\s+life|career)|for\s+(?:\d+|two|three|four|five|six|seven|eight"
                        r"|nine|ten|twenty|thirty)\s+years\b.*|for\s+(?:many|years|decades|most\s+of)"
                        r"\b.*|until\s+.+|before\s+.+)",
        (("I was a seamstress all my life.", "former job", "seamstress"),)),
    Row("promoted", r"(?:got|was|has\s+been|have\s+been)\s+promoted\s+to\s+(?P<value>[\w-]+)",
        (("Just got promoted to mid-level!", "job title", "mid-level"),)),
    # "Before the kids I was a lawyer in London": a job word after "was" is a former job.
    Row("former title", rf"was\s+(?:a|an)\s+(?P<value>(?:[\w-]+\s+){{0,2}}?(?:{JOB_HEAD_RE}))"
                        r"(?:\s+(?:in|at|for|with)\s+.+)?",
        (("Before the kids I was a lawyer in London.", "former job", "lawyer"),)),
    Row("title", r"(?:works?|is\s+working)\s+in\s+"
                 r"(?P<home>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)"
                 r"\s+as(?:\s+(?:a|an))?\s+(?P<value>[^,]+?)",
        (("I am working in Osaka as a pharmacist.", "home", "osaka"),)),
    Row("title", r"(?:got|landed|was\s+offered|accepted|took)\s+(?:the|a|an)\s+(?P<value>.+?)"
                 r"\s+(?:job|position|role)",
        (("I got the athletic director job.", "job title", "athletic director"),)),
    Row("title", r"my\s+(?:job\s+title|title|job|role|position)\s+is\s+(?:a\s+|an\s+)?"
                 r"(?P<value>.+)",
        (("My job title is Staff Engineer.", "job title", "staff engineer"),)),
    # "I quit my job last week", "I lost my job": left, whichever job it was ("not job", as
    # ending.py words it); a plan to ("want to quit my job") or a question is no leaving,
    # and "quit my job at Arup" names the job (the next row).
    Row("job left", r"(?P<value>(?:quit|left|lost|resigned\s+from|walked\s+out\s+of)\s+"
                    r"(?:my|his|her|their|the)\s+(?:job|position|role))"
                    r"(?:\s+(?!to\b|from\b|at\b|with\b)\S.*|\s*,.*)?",
        (("I quit my job last week, taking some time off.", "employer", "not job"),
         ("I resigned from my job on Friday.", "employer", "not job"),
         ("I lost my job as a banker yesterday.", "employer", "lost their job"))),
    Row("left", r"(?:quit|left|resigned\s+from|was\s+laid\s+off\s+from|got\s+laid\s+off\s+from"
                r"|got\s+fired\s+from|was\s+let\s+go\s+from|handed\s+in\s+(?:my|their)\s+notice\s+at"
                r"|gave\s+(?:my|their)\s+notice\s+at)\s+(?:my\s+job\s+at\s+)?(?P<value>.+)",
        (("I quit Globex.", "employer", "not globex"),
         ("I handed in my notice at Deloitte.", "employer", "not deloitte")), prefix="not "),
    Row("left trade", r"(?:quit|left|stopped|gave\s+up)\s+(?P<value>.+)",
        (("I've stopped teaching.", "employer", "not teaching"),), prefix="not "),
    # "I was made redundant in March": the job is gone, whichever it was.
    Row("job lost", r"(?:got|was|has\s+been|is|been|just\s+got)\s+(?P<value>laid\s+off"
                    r"|made\s+redundant|let\s+go|fired|sacked)\b.*",
        (("I was made redundant in March.", "employer", "made redundant"),)),
    # "I'm self-employed as a photographer": the job, and how it is held.
    Row("title", r"is\s+(?P<retired>self-employed|freelance|freelancing)\s+as\s+(?:a|an)\s+"
                 r"(?P<value>[\w -]+?)(?:\s*,.*|\s+(?:for|in|since)\b.*)?",
        (("I'm self-employed as a photographer, mostly weddings.", "job title", "photographer"),
         ("I'm self-employed as a photographer, mostly weddings.", "employer", "self-employed"))),
    # "I've been offered a job at Arup": a job ahead, until it is taken.
    Row("job offer", r"(?:has\s+been|is|was|got|been|just\s+got)\s+offered\s+(?:a\s+)?(?:new\s+)?"
                     r"(?:job|role|position|place)\s+(?:at|with|by)\s+(?P<value>.+?)"
                     r"(?:\s+as\s+.+|\s*,.*|\s+(?:starting|from|in|next)\b.*)?",
        (("I've been offered a job at Arup as a structural engineer.", "plan:job offer", "arup"),)),
    # "Right now I'm at a small firm in Bath": a firm one is at employs one.
    Row("employer", r"is\s+at\s+(?P<value>(?:a|an)\s+(?:[\w-]+\s+){0,2}?(?:firm|company|startup"
                    rf"|agency|consultancy|practice))(?:\s+in\s+(?P<office>{PLACE_NAME}))?",
        (("Right now I'm at a small firm in Bath.", "employer", "small firm"),)),
    # A job ahead is a plan until it starts: "I'll be working as a marine biologist".
    Row("future job", r"(?:'ll|will|is\s+going\s+to)\s+be\s+(?:working|starting|employed)\s+as\s+"
                      r"(?P<value>.+?)(?:\s+(?:at|for|in|from|starting|next|this)\b.*)?",
        (("I'll be working as a marine biologist at the university.", "plan:job",
          "marine biologist"),)),
    Row("retired", r"is\s+(?P<value>.+)", (("I'm retired.", "employer", "retired"),)),
    # "I'm still at the bank": a place one is still at is where one works.
    Row("still at", r"is\s+(?:at|with)\s+(?P<value>.+?)(?:\s*,.*|\s+(?:but|and|for)\b.*)?",
        (("I'm still at the bank, but I'm thinking of switching.", "employer", "bank"),)),
    Row("retired from", r"(?:is\s+)?(?:just\s+|finally\s+|now\s+)?retired\s+from\s+(?P<value>.+?)"
                        r"(?:\s+(?:after|in|last|this|at|when|a|two|three|five|ten)\b.*)?",
        (("I'm 71 and retired from the Royal Mail after 35 years.", "employer",
          "retired from royal mail"),), prefix="retired from "),
    Row("retired", r"(?:just\s+|finally\s+)?(?P<value>retired)"
                   r"(?:\s+(?:in|last|this|at|from|after)\s+.+)?",
        (("I retired in June.", "employer", "retired"),)),
    Row("teaches", r"(?:teach(?:es)?|is\s+teaching|lectures?\s+in|tutors?)\s+"
                   r"(?:(?:high|middle|secondary|primary|elementary|grade|sixth[\s-]form)"
                   r"(?:\s+school)?\s+|(?:year|grade)\s+\d{1,2}\s+|\d{1,2}(?:st|nd|rd|th)\s+grade\s+)?"
                   r"(?P<value>[\w-]+(?:\s+[\w-]+)?)(?:\s+at\s+(?P<employer>.+?))?(?:\s+in\s+(?P<home>.+))?",
        (("I teach chemistry.", "job title", "chemistry teacher"),
         ("I teach physics at a high school in Denver.", "home", "denver"))),
    # "teaches 3rd grade": the class is the title when no subject follows
    Row("teaches", r"(?:teach(?:es)?|is\s+teaching)\s+(?P<value>(?:year|grade)\s+\d{1,2}"
                   r"|\d{1,2}(?:st|nd|rd|th)\s+grade|kindergarten|reception)"
                   r"(?:\s+at\s+(?P<employer>.+?))?(?:\s+in\s+(?P<home>.+))?",
        (("I teach 3rd grade.", "job title", "3rd grade teacher"),
         ("I teach year 4 at a school in Hull.", "home", "hull"))),
    Row("employer", r"(?:teach(?:es)?|lectures?|tutors?|coach(?:es)?)(?:\s+[\w ]+?)?\s+at\s+"
                    r"(?P<value>.+?)(?:\s+in\s+(?P<home>.+))?",
        (("I teach chemistry at a secondary school in Leicester.", "employer",
          "secondary school"),)),
    Row("volunteers", r"(?:volunteers?|is\s+volunteering|does\s+volunteer\s+work"
                      r"|started\s+volunteering|has\s+been\s+volunteering)\s+(?:at|with|for)"
                      rf"\s+(?P<value>.+?)(?:\s+(?:on|every|once|twice)\s+.+|{_WEEKLY})?",
        (("I volunteer at the food bank on Wednesdays.", "volunteers:food bank", "food bank"),
         ("I volunteer at a food bank two days a week.", "volunteers:food bank", "food bank"),
         ("I'm volunteering with Habitat for Humanity.", "volunteers:habitat for humanity",
          "habitat for humanity"))),
    Row("leads", r"(?:leads?|is\s+leading|manages?|is\s+managing|runs?|is\s+running|heads?"
                 r"|owns?)\s+(?P<value>(?:the\s+)?[\w .&-]+?\s+(?:project|team|group|program"
                 r"|initiative|department|squad|effort|launch|migration))"
                 r"(?:\s+(?:at|for|in|on)\s+.+)?",
        (("I lead the Atlas project.", "leads", "atlas project"),)),
    # "I'm managing the store now!": the place they work, now in their charge.
    Row("manages", r"(?:is\s+(?:now\s+)?managing|manages?|is\s+running|runs?|took\s+over)\s+the\s+"
                   r"(?P<value>store|shop|branch|restaurant|cafe|café|bar|kitchen|office|warehouse"
                   r"|salon|clinic|hotel|site|bakery|pub|gym|team|department|ward)\b.*",
        (("I'm managing the store now!", "job title", "store manager"),
         ("Not for a while now, I manage the store.", "job title", "store manager"))),
    Row("run business", r"(?:runs?|owns?|started|opened|manages?)\s+(?:a|an|(?:my|our|his|her"
                        r"|their)\s+own)\s+(?P<value>.+?)(?:\s+(?:back\s+)?(?:in|on)\s+(?P<home>.+?))?"
                        r"(?:\s+with\s+.+)?",
        (("I run a garage back in Poland.", "employer", "garage"),)),
    Row("business", r"(?:runs?|owns?|has|started|opened|manages?)\s+(?:a|an|(?:my|our|his|her"
                    r"|their)\s+own)\s+(?P<value>.+?)(?:\s+(?:back\s+)?(?:in|on)\s+(?P<home>.+?))?"
                    r"(?:\s+with\s+.+)?",
        (("I run a small bakery in Leeds.", "employer", "small bakery"),
         ("I run a coffee roastery in Portland with 6 employees.", "home", "portland"),
         ("I own a hair salon in Leeds.", "home", "leeds"))),
    # people around them
    # Before the counts alone (below): "twin girls, Ada and Ella" names them too.
    Row("relation", rf"(?:has|have|got|has\s+got|have\s+got|{_LIVES_WITH})\s+(?P<children>(?:(?:two"
                    r"|three|four"
                    rf"|five|\d)\s+|twin\s+|triplet\s+)(?:[\w-]+\s+){{0,2}}?(?P<kind>{RELATION_RE})s),?\s+"
                    r"(?:named\s+|called\s+)?(?P<value>.+)",
        (("I've got two dogs, Kira and Bruno.", "dog:bruno", "bruno"),
         ("We have twin girls, Ada and Ella.", "daughter:ada", "ada"),
         ("We have twin girls, Ada and Ella.", "count:daughter", "twin girls"),
         ("I have two rescue greyhounds, Pixel and Boo.", "dog:boo", "boo"),
         ("We have two cats, Mochi and Tofu.", "cat:mochi", "mochi"),
         ("We have two cats named Mochi and Tofu.", "cat:tofu", "tofu"),
         ("I live with two flatmates, Mo and Jess.", "roommate:mo", "mo"),
         ("I share my flat with two cats, Miso and Tofu.", "cat:tofu", "tofu")),
        many=True, we=True),
    Row("relation", r"(?:has|have|got)\s+(?:a|an)\s+(?:\d{1,2}|one|two|three|four|five|six)[\s-]"
                    r"(?:year|month|week)[\s-]old(?:\s+(?P<kind>son|daughter|boy|girl|kid|baby))?"
                    r"(?:\s+(?:named|called)\s+|,\s+(?=(?-i:[A-Z])))(?P<value>.+)",
        (("We have a 2-year-old named Ava.", "child:ava", "ava"),
         ("We've got a three-year-old, Ivy.", "child:ivy", "ivy")), we=True),
    Row("children", r"(?:has|got)\s+(?P<value>(?:twin|triplet)\s+(?P<kind>boy|girl|son|daughter)s)"
                    r"\b.*",
        (("We have twin boys who are 6.", "count:son", "twin boys"),), we=True),
    Row("household", r"is\s+(?:now\s+)?a\s+(?P<value>(?:one|two|three|four|five|\d)[\s-]"
                     r"(?P<kind>cat|dog|kid|child))[\s-](?:household|family|home)\b.*",
        (("We're a two-cat household now.", "count:cat", "two cats"),
         ("We're a three-kid family.", "count:child", "three kids")), we=True),
    # Twins are children, whose kind goes unsaid: the empty group keys them as such.
    Row("children", r"(?:has|got)\s+(?P<value>twins|triplets)(?P<kind>)"
                    r"(?=\s*$|\s+(?:who|aged|and)\b).*",
        (("I have twins.", "count:child", "twins"),), we=True),
    Row("children", rf"(?:has|got|is\s+down\s+to|is\s+up\s+to|{_LIVES_WITH})\s+(?P<value>(?:one"
                    r"|two|three|four"
                    r"|five|six|seven|eight|nine|\d)\s+"
                    r"(?:(?:little|young|grown|grown-up|adult|lovely)\s+)?"
                    rf"(?P<kind>{RELATION_RE})(?:s|ren)?)"
                    r"(?:\s+(?:under|aged|ages|over)\s+[\w -]+|\s+of\s+(?:my|our|their)\s+own)?"
                    r"(?:\s*,\s*all\s+[\w -]+)?",
        (("I've got three grandkids.", "count:grandchild", "three grandkids"),
         ("I have three grandchildren.", "count:grandchild", "three grandchildren"),
         ("I've got three dogs of my own, all poodles.", "count:dog", "three dogs"),
         ("We have two kids.", "count:child", "two kids"),
         ("We have three boys under ten.", "count:son", "three boys"),
         ("We're down to one dog now.", "count:dog", "one dog"),
         ("I live with two flatmates.", "count:roommate", "two flatmates")), we=True),
    Row("aged", rf"my\s+(?P<value>(?P<kind>{RELATION_RE})s?\s+are\s+(?:aged\s+|ages\s+)?\d{{1,2}}"
                r"(?:\s*,\s*\d{1,2})*,?\s+and\s+\d{1,2})(?:\s+years\s+old|\s+now)?(?:,.*)?",
        (("My kids are 7 and 10.", "count:child", "two kids"),), we=True),
    Row("childless", r"(?:doesn't|does\s+not)\s+have\s+(?:any\s+)?(?P<value>kids|children)",
        (("I don't have kids.", "count:child", "no kids"),), negated=True),
    Row("children", r"is\s+(?:a\s+)?(?:single\s+|proud\s+|busy\s+|new\s+)?"
                    r"(?:(?P<retired>stay[-\s]at[-\s]home\s+(?:mom|mum|dad|parent))|mom|mum|mother|dad"
                    r"|father|parent)\s+(?:of|to)\s+(?P<value>twins|triplets|(?:\d+|two|three|four|five"
                    r"|six)(?:\s+"
                    rf"(?P<kind>{RELATION_RE})s?)?)(?=\s*$|\s+(?:and|kids|children|under|aged|over)\b)"
                    r"(?:\s+.*)?",
        (("I'm a single dad of two girls.", "count:daughter", "two girls"),
         ("I'm a single mum of three.", "count:child", "three children"),
         ("I'm a stay at home dad to three kids under 8.", "employer", "a stay-at-home dad"))),
    Row("marital", r"is\s+(?:a\s+)?(?P<value>single)\s+(?:mom|mum|mother|dad|father|parent)",
        (("I'm a single mum, 38, living in Brisbane.", "marital status", "single"),)),
    Row("widowed", r"is\s+(?:a\s+)?(?P<value>widow|widower)",
        (("I'm a widower.", "marital status", "widowed"),)),
    # Getting married changes the status too; being married to someone says only who.
    Row("relation", r"(?:is\s+(?:happily\s+)?married|got\s+(?P<marital>married))\s+to\s+"
                    r"(?P<value>[^,]+)(?:,.*)?",
        (("I'm married to Tom.", "spouse", "tom"),), kind="spouse"),
    Row("relation", r"(?:is|got)\s+(?P<marital>engaged)\s+to\s+(?P<value>.+?)"
                    r"(?:\s+(?:last|this|in|on)\b.*)?",
        (("I'm engaged to Chris.", "partner", "chris"),
         ("Priya and I got engaged last weekend!!", "partner", "priya")), kind="partner"),
    Row("relation", r"(?:is\s+)?(?:dating|seeing(?=\s+(?-i:[A-Z]))|in\s+a\s+relationship\s+with)"
                    r"\s+(?P<value>.+)",
        (("I'm dating Alex.", "partner", "alex"),), kind="partner"),
    Row("marital", r"is\s+(?:(?:recently|newly|happily|currently|legally)\s+)?(?P<value>.+)",
        (("I'm divorced.", "marital status", "divorced"),
         ("I've been divorced for two years.", "marital status", "divorced"),
         ("I'm happily married.", "marital status", "married"),
         ("We're divorced now.", "marital status", "divorced")), we=True),
    Row("marital", r"(?:just\s+)?got\s+(?P<value>married|divorced|engaged|separated)\b"
                   r"(?!\s+on\s).*",
        (("We got engaged last week.", "marital status", "engaged"),), we=True),
    # Only a break-up with nothing broken after it: "we split the bill" is none.
    Row("marital", rf"(?P<value>separated|divorced)(?=\s*$|\s+{_ENDED_WHEN}).*",
        (("We separated last year.", "marital status", "separated"),), we=True),
    Row("broke up", rf"(?P<value>broke\s+up|split(?:\s+up)?)(?=\s*$|\s+{_ENDED_WHEN}"
                    r"|\s+with\s+(?:(?:my\s+)?(?:boyfriend|girlfriend|partner|husband|wife|fianc\w*)"
                    r"|him|her|them|(?-i:[A-Z])\w+)|\s+for\s+good\b).*",
        (("We broke up last month.", "marital status", "single"),
         ("I split up with my boyfriend.", "marital status", "single")), we=True),
    Row("relation", r"reports?\s+(?:directly\s+)?to\s+(?P<value>.+)",
        (("I report to Maria Lopez.", "manager", "maria lopez"),), kind="manager"),
    Row("relation", rf"(?:has|have|has\s+got|have\s+got|got|adopted"
                    # a birth: "had a baby girl, Hana"; "had a dog called Rex" was long ago
                    r"|had(?=\s+(?:a|an)\s+(?:baby|little|son|daughter|boy|girl)\b))"
                    r"\s+(?:a|an|one)\s+(?:(?:older"
                    r"|younger|little|big|baby|twin|new|lovely|sweet|\d+-year-old|adopted|rescue|rescued"
                    r"|old|senior|black|white|grey|gray|ginger|tabby)\s+)*(?:(?-i:[a-z])[\w-]*\s+){0,2}?"
                    rf"(?P<kind>{RELATION_RE})(?:\s+now)?(?:\s+(?:named|called)\s+|,\s+(?:(?:a|an)\s+"
                    r"(?:[\w-]+\s+){0,2}?(?:named|called)\s+)?)(?P<value>.+?)"
                    r"(?:,\s+(?-i:[a-z]).*)?",  # "..., much more relaxed" is what they're like
        (("I have a daughter named Lily.", "daughter:lily", "lily"),
         ("We got a puppy, a corgi named Waffles.", "dog:waffles", "waffles"),
         ("We have a dog called Biscuit.", "dog:biscuit", "biscuit"),
         ("We have a cat, Pickle.", "cat:pickle", "pickle"),
         ("I've got a new teacher now, Daniel.", "teacher", "daniel"),
         ("We had a baby girl, Hana.", "daughter:hana", "hana")), we=True),
    # A bare "passed" needs its time: "my son passed!" is an exam. After "died" or "passed
    # away" the rest says how or where ("in his sleep", "on Sunday :("), unless it makes an
    # idiom of it ("the noise died down", "I died laughing").
    Row("loss", rf"(?P<value>(?:passed\s+away|died)(?:\s+(?:{_WHEN_DIED}))?"
                rf"|passed\s+(?:{_WHEN_DIED}))(?:\s+(?!{_DIED_IDIOM})\S.*|\s*[^\w\s].*)?",
        (("My husband passed away in 2019.", "passed away", "passed away in 2019"),
         ("My husband Frank passed in March.", "passed away", "passed in march"),
         ("My grandad passed away peacefully in his sleep.", "passed away", "passed away"),
         ("My dad died yesterday morning.", "passed away", "died yesterday (2026-11-04)")),
        others_only=True),
    # health
    Row("smoker", r"(?P<value>is\s+a\s+(?:heavy\s+|light\s+|social\s+|chain\s+|pack-a-day\s+)?"
                  r"smoker|smokes?(?:\s+(?:about\s+)?(?:\d+|a|half\s+a)(?:\s+[\w-]+)?\s+a\s+day)?)"
                  r"(?=\s*$|\s+(?:since|but|and)\b).*",
        (("I'm a smoker.", "smoking", "smokes"), ("I smoke 10 a day.", "smoking", "smokes"))),
    Row("quit smoking", r"(?P<value>(?:quit|stopped|gave\s+up|has\s+quit|has\s+stopped)\s+smoking"
                        r"|is\s+(?:now\s+)?(?:(?:\d+|a|an|one|two|three|four|five|six|seven|eight"
                        r"|nine|ten|eleven|twelve)\s+(?:days?|weeks?|months?|years?)\s+)?"
                        r"(?:smoke[-\s]free|a\s+non[-\s]?smoker|an\s+ex[-\s]smoker))\b.*",
        (("I quit smoking six months ago.", "smoking", "quit smoking"),
         ("I'm six months smoke-free.", "smoking", "quit smoking"))),
    Row("condition", r"(?:has|have|has\s+had|have\s+had|lives?\s+with|suffers?\s+from"
                     r"|struggles?\s+with|deals?\s+with|gets?)\s+(?P<value>.+)",
        (("I have asthma.", "condition:asthma", "asthma"),
         ("I suffer from migraines.", "condition:migraines", "migraines")), many=True),
    Row("diagnosis", r"(?:(?:was|got|has\s+been|have\s+been)\s+diagnosed\s+with|is\s+recovering"
                     r"\s+from|is\s+being\s+treated\s+for)\s+(?P<value>.+)",
        (("I was diagnosed with sleep apnea.", "condition:sleep apnea", "sleep apnea"),)),
    Row("health state", r"is\s+(?P<value>.+)",
        (("I'm diabetic.", "condition:diabetic", "diabetic"),)),
    Row("aid", r"(?:uses?|is\s+using|relies\s+on|wears?|has|have|needs?|is\s+in)\s+(?P<value>.+)",
        (("I use a wheelchair.", "aid:wheelchair", "wheelchair"),
         ("I wear hearing aids.", "aid:hearing aid", "hearing aids"))),
    Row("injury", r"(?:hurt|injured|broke|sprained|twisted|pulled|tore|dislocated|fractured)\s+"
                  r"(?:my|his|her|their)\s+(?P<value>(?:lower\s+|left\s+|right\s+)?(?:back|knee|ankle"
                  r"|wrist|arm|leg|shoulder|hip|neck|hamstring|acl|foot|hand|elbow|finger|toe|rib|calf))"
                  r"\b.*",
        (("I hurt my back lifting flour sacks.", "injury:back", "back"),)),
    Row("fear", r"(?:is\s+(?:(?:really|so|very|deathly|absolutely|super|quite|a\s+bit|a\s+little"
                r"|kind\s+of|kinda)\s+)?(?:afraid|scared|terrified|frightened)\s+of|has\s+(?:a|an)"
                r"\s+(?:\w+\s+)?(?:fear|phobia)\s+of|fears?)\s+(?P<value>.+)",
        (("I'm terrified of heights, ironically.", "fear:height", "heights"),
         ("I have a real fear of flying.", "fear:flying", "flying")), many=True),
    Row("slipped disc", r"(?P<value>slipped|herniated|ruptured|prolapsed)\s+(?:a|my)\s+disc\b.*",
        (("My back's been bad since I slipped a disc last year.", "injury:slipped", "slipped"),)),
    Row("slipped disc", r"has\s+(?:a|an)\s+(?P<value>slipped|herniated|ruptured|prolapsed|bulging)"
                        r"\s+disc\b.*",
        (("I have a herniated disc.", "injury:herniated", "herniated"),)),
    Row("surgery", r"(?:had|has\s+had|got|underwent)\s+(?:(?:a|an|my)\s+)?"
                   r"(?P<value>(?:[\w-]+\s+){0,2}?(?:replacement|surgery|operation|transplant"
                   r"|bypass|reconstruction))"
                   r"(?:\s+(?:in|on|at|last|this|a|two|three|\d)\b.*)?",
        (("I had a hip replacement in the spring.", "surgery:hip replacement", "hip replacement"),
         ("I had knee surgery last year.", "surgery:knee surgery", "knee surgery"))),
    # "I'm having a knee op on Monday": an operation ahead is health too, beside its day
    Row("surgery ahead", r"is\s+(?:having|getting|booked\s+in\s+for|due\s+for|waiting\s+for)\s+"
                         rf"(?:(?:a|an|my)\s+)?(?P<value>{_OPERATION})"
                         r"(?:\s+(?:in|on|at|next|this|soon|tomorrow)\b.*)?",
        (("I'm having knee surgery on Monday.", "surgery:knee surgery", "knee surgery"),
         ("I'm waiting for a hip replacement.", "surgery:hip replacement", "hip replacement"))),
    Row("health event", r"(?:had|has\s+had|suffered)\s+(?:a|an)\s+(?:(?:minor|major|mild|small"
                        rf"|massive|big|bad|second)\s+)?(?P<value>{_HEALTH_EVENTS})"
                        r"(?:\s+(?:in|on|at|last|this|a|two|three|\d|back\s+in)\b.*)?",
        (("I had a stroke last year.", "condition:stroke", "stroke"),
         ("I had a mild heart attack in 2019.", "condition:heart attack", "heart attack"))),
    Row("health state", r"is\s+(?P<value>pregnant)"
                        r"(?:\s+(?:again|with\s+(?:our|my|their|a|her)\s+.+))?",
        (("I'm pregnant with our second!", "condition:pregnant", "pregnant"),)),
    # A birth ends the pregnancy: "The baby arrived early!", "We had the baby".
    Row("birth", r"(?P<value>(?P<delivered>my\s+baby\s+(?:arrived|was\s+born|is\s+here|came)"
                 r"|had\s+(?:the|my|our)\s+baby|gave\s+birth))\b.*",
        (("The baby arrived early!", "pregnancy", "had the baby"),
         ("We had the baby.", "condition:pregnant", "not pregnant")), we=True),
    Row("pregnant", r"is\s+(?:about\s+)?(?P<value>\d{1,2}\s+(?:months?|weeks?))\s+pregnant"
                    r"(?:\s+(?:with|now|already)\b.*)?",
        (("I'm 5 months pregnant.", "pregnancy", "5 months"),
         ("I'm 8 months pregnant with our first.", "pregnancy", "8 months"))),
    Row("commute by", r"(?P<value>cycles?|bikes?|walks?|drives?)\s+(?:to\s+work|everywhere)\b.*",
        (("I cycle to work most days.", "commute", "bike"),)),
    Row("commute", r"(?:commutes?|gets?\s+to\s+work|goes\s+to\s+work|rides?\s+to\s+work)\s+by"
                   r"\s+(?P<value>bike|bicycle|car|train|bus|tube|subway|metro|tram|ferry|scooter"
                   r"|motorbike|motorcycle)",
        (("I commute by bike.", "commute", "bike"),)),
    Row("commute", r"(?:has\s+started\s+|started\s+|is\s+)?(?:taking|takes?)\s+the\s+"
                   r"(?P<value>train|bus|tube|subway|metro|tram|ferry)(?:\s+(?:to\s+work|everywhere"
                   r"|instead|now|these\s+days|since\s+.+))*",
        (("I've started taking the train instead since the weather turned.", "commute",
          "train"),)),
    Row("weight", r"(?:weighs?|is|(?:is|got|went)\s+(?:down|up)\s+to)\s+(?:about\s+|around\s+)?"
                  r"(?P<value>\d{2,3}(?:\.\d)?\s?(?:kg|kgs"
                  r"|kilos|lbs?|pounds))(?:\s+(?:now|these\s+days|after|since|thanks\s+to)\b.*)?",
        (("I weigh 80kg.", "weight", "80kg"), ("I'm 74kg now.", "weight", "74kg"),
         ("Down to 74kg now after the diet!", "weight", "74kg"),
         ("Down to 84kg now!", "weight", "84kg"))),
    Row("weight change", r"(?:has\s+|have\s+)?(?:just\s+)?(?P<value>(?:lost|gained|put\s+on)\s+"
                         r"\d+(?:\.\d)?\s?(?:kg|kilos|lbs?|pounds|stone))"
                         r"(?:\s+(?:since|in|over|this|last)\b.*)?",
        (("I've lost 20 pounds since the summer.", "weight change", "lost 20 pounds"),)),
    Row("height", r"is\s+(?P<value>[4-7]'\s?\d{1,2}\"?|[12]\.\d{1,2}\s?m|1\d{2}\s?cm)(?:\s+tall)?",
        (("I'm 5'10.", "height", "5'10"), ("I'm 178 cm tall.", "height", "178 cm"))),
    Row("dosed medication", rf"{_TAKE}\s+(?P<value>{DOSED_DRUG})(?:\s+(?:now|daily|again"
                            r"|(?:once|twice)\s+a\s+day|a\s+day|every\s+\w+|at\s+night"
                            r"|for\s+.+|so\s+.+)|\s*,.*)?",
        (("I'm on 20mg of citalopram.", "medication:citalopram", "20mg of citalopram"),
         ("I take ramipril for my blood pressure.", "medication:ramipril", "ramipril"),
         ("I take Keppra 500mg twice a day.", "medication:keppra", "keppra 500mg"))),
    Row("medication", rf"(?:is\s+on|is\s+taking|takes?)\s+(?P<value>{MEDICATIONS})"
                      r"(?:\s+(?:now|daily|again|for\s+.+|so\s+.+))?",
        (("I'm on blood thinners.", "medication:blood thinner", "blood thinners"),)),
    # "Therapy's on Thursdays now", said after the day it was: the routine's new day.
    Row("routine", rf"my\s+(?P<noun>(?:[\w-]+\s+)?(?:{ROUTINES}))(?:'s|\s+is)\s+(?:now\s+)?"
                   rf"(?P<value>(?:{FREQUENCY}))",
        (("My therapy is on Thursdays now.", "routine:therapy", "on thursdays"),)),
    Row("routine", rf"(?:has|have|goes\s+to|go\s+to|does|do|attends?)\s+(?P<noun>(?:[\w-]+\s+)?"
                   rf"(?:{ROUTINES}))\s+(?P<value>(?:{FREQUENCY})\b.*)",
        (("I have therapy every Tuesday at 4.", "routine:therapy", "every tuesday at 4"),)),
    Row("licence", r"(?:got|has|have|passed|earned)\s+(?:my|a|their)\s+(?P<value>(?P<noun>driver'?s"
                   r"|driving|pilot'?s|motorcycle|boating|real\s+estate|teaching|nursing)\s+"
                   r"(?:licen[cs]e|permit))\b.*",
        (("I got my driver's license last month.", "licence:driver's", "driver's license"),)),
    Row("medication", rf"{_TAKE}\s+(?P<value>[\w-]+(?:\s+[\w-]+){{0,2}})\s+(?:daily|every\s+day"
                      r"|every\s+morning|every\s+night|twice\s+a\s+day|for\s+(?:my\s+)?\w+)",
        (("I take metformin daily.", "medication:metformin", "metformin"),)),
    # diet and allergies
    Row("diet", rf"is\s+(?P<value>{DIETS})\s+(?:because\s+of|due\s+to)\s+(?:my\s+|having\s+)?"
                r"(?P<condition>.+)",
        (("I'm gluten-free because of coeliac disease.", "condition:coeliac disease",
          "coeliac disease"),), we=True),
    Row("diet", rf"is\s+a\s+(?P<value>{DIETS})\s+(?:household|family|home)\b.*",
        (("We're a gluten-free household.", "diet", "gluten-free"),), we=True),
    Row("diet", r"is\s+(?:a\s+)?(?:strict\s+|full\s+|mostly\s+|largely\s+)?(?P<value>.+)",
        (("I'm vegetarian.", "diet", "vegetarian"), ("I'm vegan now.", "diet", "vegan"),
         ("We're vegetarian, both of us.", "diet", "vegetarian")), we=True),
    Row("diet", r"(?:eats?|follows?|is\s+on|keeps?|went|gone|has\s+gone|have\s+gone|switched\s+to"
                r"|is\s+doing|does|is\s+eating)"
                r"\s+(?:a\s+)?(?:strict\s+|mostly\s+|largely\s+|mainly\s+|fully\s+|completely\s+"
                r"|full\s+)?(?P<value>.+?)"
                r"(?:\s+diet)?",
        (("I follow a keto diet.", "diet", "keto"), ("I went vegan.", "diet", "vegan"),
         ("I've gone fully vegan now.", "diet", "vegan"))),
    Row("quit diet", r"(?:gave\s+up|quit|stopped|dropped|came\s+off|is\s+off|fell\s+off)\s+"
                     rf"(?:(?:the|my|being)\s+)?(?P<value>{DIETS})(?:\s+diet|\s+wagon)?"
                     r"(?=\s*$|\s+(?:last|this|a|in|after|because)\b).*",
        (("I gave up keto.", "diet", "not keto"),
         ("Gave up being vegan after a year.", "diet", "not vegan"),
         ("Fell off the vegan wagon.", "diet", "not vegan")), prefix="not "),
    # "I eat fish again": whatever diet kept it out is over.
    Row("eats again", r"(?:eats?|is\s+eating|started\s+eating|is\s+back\s+(?:on|to\s+eating))\s+"
                      r"(?P<value>(?:meat|fish|seafood|dairy|eggs|chicken|pork|beef|red\s+meat"
                      r"|animal\s+products|cheese)(?:\s+and\s+\w+)?)(?:\s+again)?"
                      r"(?:\s+(?:last|this)\s+\w+|\s+since\s+.+|\s+(?:a\s+few|\w+)\s+\w+\s+ago)?",
        (("I eat fish again.", "eats again", "fish"),
         ("I'm eating red meat again since my iron dropped.", "eats again", "red meat"),
         ("I started eating meat last year.", "eats again", "meat"))),
    Row("fasting", rf"is\s+(?:just\s+|now\s+)?doing\s+(?P<value>{_FASTS})(?=\s*$|\s+(?:now|these"
                   r"|instead|since|for)\b).*",
        (("I'm just doing intermittent fasting now.", "diet", "intermittent fasting"),)),
    # "I'm just counting calories now": a way of eating, in the slot of the diet it follows
    Row("counting", r"is\s+(?:just\s+|now\s+|mostly\s+)?(?P<value>counting\s+(?:calories|macros"
                    r"|points))(?=\s*$|\s+(?:now|these|instead|since|for)\b).*",
        (("Keto didn't last, I'm just counting calories now.", "diet", "counting calories"),)),
    # "allergic for kiwi", "allergic with nuts": the preposition other languages use
    Row("allergy", r"is\s+(?:very\s+|severely\s+|deathly\s+|mildly\s+|a\s+bit\s+)?allergic"
                   r"\s+(?:to|for|with|on)\s+(?P<value>.+)",
        (("I am allergic to peanuts.", "allergy:peanut", "peanuts"),
         ("I am allergic for strawberries.", "allergy:strawberries", "strawberries"),
         ("I'm allergic to cats and shellfish.", "allergy:shellfish", "shellfish")),
        many=True),
    Row("allergy", r"(?:has|have)\s+(?:a|an)\s+(?:severe\s+|mild\s+|bad\s+|slight\s+)?"
                   r"allergy\s+to\s+(?P<value>.+)",
        (("I have a mild allergy to pollen.", "allergy:pollen", "pollen"),), many=True),
    Row("allergy", r"(?:has|have)\s+(?:a|an)\s+(?:severe\s+|mild\s+|bad\s+)?(?P<value>[\w-]+"
                   r"(?:\s+[\w-]+)?)\s+allergy",
        (("I have a penicillin allergy.", "allergy:penicillin", "penicillin"),)),
    Row("intolerance", r"is\s+(?P<value>lactose|gluten|fructose|histamine)[\s-]intolerant",
        (("I'm lactose intolerant.", "intolerance:lactose", "lactose"),)),
    Row("intolerance", r"is\s+intolerant\s+(?:to|of)\s+(?P<value>.+)",
        (("I'm intolerant to gluten.", "intolerance:gluten", "gluten"),)),
    Row("drinker", r"is\s+(?P<value>(?:a|an)\s+(?:(?:big|heavy|huge|massive|light|social|serious"
                   r"|daily|keen)\s+)?[\w-]+\s+drinker)\b.*",
        (("I'm a big coffee drinker.", "drinks:coffee", "a big coffee drinker"),)),
    Row("family size", r"is\s+a\s+family\s+of\s+(?P<value>\w+)\b.*",
        (("We're a family of four.", "family size", "four"),), we=True),
    Row("member", r"is\s+(?:a|an)\s+(?:(?:proud|paid-up|lifelong|card-carrying|long-time|new)\s+)?"
                  r"member\s+of\s+(?P<value>(?:the\s+)?(?-i:[A-Z])[\w'&.-]*(?:\s+(?-i:[A-Z])[\w'&.-]*)*)"
                  r"(?:\s+(?:now|since|for)\b.*)?",
        (("I'm a member of the Green Party now.", "member:green party", "green party"),)),
    # "I'm now part of the fire-fighting brigade": a group one belongs to, by its kind.
    Row("member", r"is\s+(?:now\s+)?(?:a\s+)?part\s+of\s+(?P<value>(?:the|a|an|our|my)\s+"
                  r"(?:[\w-]+\s+){0,3}?(?:brigade|team|club|band|choir|crew|squad|group|committee"
                  r"|board|union|society|orchestra|league|council|organi[sz]ation|charity))\b.*",
        (("I'm now part of the fire-fighting brigade.", "member:fire-fighting brigade",
          "fire-fighting brigade"),)),
    Row("handedness", r"is\s+(?:a\s+)?(?P<value>left-hand(?:ed|er)|right-hand(?:ed|er)"
                      r"|ambidextrous|lefty|leftie|southpaw)\b.*",
        (("I'm left-handed.", "handedness", "left-handed"),
         ("I'm a left-hander, so most scissors are useless.", "handedness", "left-handed"))),
    Row("commute time", r"(?:has|have)\s+(?:a|an)\s+(?P<value>(?:[\w-]+\s+){0,2}?[\w-]+)\s+commute"
                        r"(?:\s+.*)?",
        (("I've got a two-hour commute each way.", "commute time", "two-hour"),), we=True),
    Row("trying for a baby", r"is\s+(?P<value>trying\s+(?:for\s+(?:a\s+|another\s+)?(?:baby|kids?"
                             r"|second)|to\s+(?:get\s+pregnant|conceive|have\s+a\s+baby)))\b.*",
        (("We're trying for a baby.", "plan:baby", "trying for a baby"),), we=True),
    Row("weak at", r"is\s+(?:really\s+|just\s+)?not\s+(?:great|good|very\s+good|the\s+best"
                   r"|brilliant)\s+(?:with|at)\s+(?P<value>[\w -]+?)(?:\s*,.*|\s+(?:so|but)\b.*)?",
        (("I'm not great with numbers, so keep the maths simple.", "skill:number", "numbers"),),
        negated=True),
    # "about 4 coffees a day", then "cut down to one coffee a day": one slot per drink.
    Row("drinks daily", r"(?:drinks?|has|have|gets?\s+through|is\s+down\s+to"
                        r"|(?:ha(?:s|ve)\s+)?cut\s+(?:down|back)\s+to)\s+"
                        r"(?P<value>(?:about|around|maybe|like|up\s+to|only|just)?\s*"
                        r"(?:\d+|one|two|three|four|five|six|seven|eight|a\s+couple\s+of|a\s+few)\s+"
                        r"(?:[\w-]+\s+){0,3}?(?:a|per|each)\s+(?:day|week|night|morning))",
        (("I drink about 4 coffees a day.", "drinks:coffee", "about 4 coffees a day"),
         ("I've cut down to one coffee a day.", "drinks:coffee", "one coffee a day")), we=True),
    Row("avoids drink", r"(?:doesn't|can't|won't|never)\s+(?:drink|drinks|have|touch)"
                        r"\s+(?:any\s+)?(?P<value>.+)",
        (("I don't drink coffee, only tea.", "avoids:coffee", "coffee"),), many=True, negated=True,
        we=True),
    Row("avoids", r"(?:doesn't|can't|won't|never)\s+(?:eat|eats|drink|drinks|have|touch)"
                  r"\s+(?:any\s+)?(?P<value>.+)",
        (("I don't eat pork.", "avoids:pork", "pork"),
         ("I can't eat gluten or dairy.", "avoids:dairy", "dairy"),
         ("We don't eat pork.", "avoids:pork", "pork")), many=True, negated=True, we=True),
    Row("teetotal", r"(?:doesn't|does\s+not|never)\s+(?P<value>drinks?)(?:\s+(?:alcohol|at\s+all"
                    r"|anymore|any\s+more|much))?",
        (("I don't drink.", "avoids:alcohol", "alcohol"),), negated=True),
    Row("avoids", r"(?:avoids?|stays?\s+away\s+from|gave\s+up|cut\s+out|quit|stopped\s+eating"
                  r"|stopped\s+drinking|quit\s+eating|quit\s+drinking)\s+(?P<value>.+)",
        (("I gave up meat.", "avoids:meat", "meat"),), many=True),
    # "I'm off dairy now", "off sugar for Lent": a food or drink given up, where "I'm off
    # work" or "off to Rome" name none
    Row("avoids", rf"is\s+(?:completely\s+|totally\s+)?off\s+(?:the\s+)?"
                  rf"(?P<value>(?:{FOODS_TO_AVOID})(?:\s+(?:and|or)\s+(?:[\w-]+))?)"
                  r"(?=\s*$|\s*,|\s+(?:now|again|these\s+days|since|for|btw"
                  r"|at\s+the\s+moment)\b).*",
        (("I'm off dairy now.", "avoids:dairy", "dairy"),
         ("I'm off sugar for Lent.", "avoids:sugar", "sugar")), many=True),
    # important dates
    Row("birthday", r"my\s+(?:birthday|bday|b-day|birth\s+date|date\s+of\s+birth)(?:\s+is|'s)"
                    r"\s+(?P<value>.+)",
        (("My birthday is on May 4.", "birthday", "may 4"),)),
    Row("birthday", r"(?:turns?|will\s+turn|is\s+turning)\s+\d{1,3}\s+(?:on\s+)?(?P<value>.+)",
        (("I turn 40 on June 3rd.", "birthday", "june 3"),)),
    # "My dad turns 70 in March": only the month is said, and it is the birthday's
    Row("birthday month", r"(?:turns?|will\s+turn|is\s+turning)\s+\d{1,3}\s+"
                          rf"(?P<value>in\s+(?:early\s+|late\s+|mid-?\s*)?{dates.MONTH_PATTERN})"
                          r"(?:\s*,.*)?",
        (("I turn 40 in June.", "birthday", "june"),)),
    Row("birthday", r"was\s+born\s+on\s+(?P<value>.+)",
        (("I was born on March 3, 1990.", "birthday", "march 3"),)),
    Row("event", rf"my\s+(?P<noun>(?:[\w-]+\s+){{0,2}}?(?P<head>{EVENTS}){_BOUND})(?:\s+is|'s"
                 r"|\s+will\s+be|\s+(?:starts?|begins?|are))\s+(?:on\s+|scheduled\s+for\s+|set\s+for\s+|planned\s+for\s+)?(?P<value>.+)",
        (("My thesis defence is on March 14.", "event:defence", "march 14"),
         ("My flight to Rome is on the 12th.", "event:flight", "november 12")), we=True),
    Row("event month", rf"my\s+(?P<noun>(?:[\w-]+\s+){{0,2}}?(?P<head>{EVENTS}){_BOUND})(?:\s+is|'s"
                       r"|\s+will\s+be)\s+(?P<value>in\s+.+)",
        (("My defense is in May.", "event:defence", "may"),), we=True),
    Row("event", rf"my\s+(?P<noun>(?:[\w-]+\s+){{0,2}}?(?P<head>{EVENTS}){_BOUND})\s+{_RESCHEDULED}"
                 r"(?:\s+(?:back|up))?(?:\s+(?:to|until)|\s*,\s*(?:it's|it\s+is)(?:\s+now)?)"
                 r"\s+(?P<value>.+)",
        (("My interview got moved to June 3.", "event:interview", "june 3"),
         ("Flight got moved, it's June 14 now.", "event:flight", "june 14")), we=True),
    Row("event", rf"(?:(?:had|has|have)\s+to\s+|decided\s+to\s+)?(?:move|push|postpone|reschedule"
                 r"|delay|bump|shift)(?:e?d)?\s+(?:the|my|our)"
                 rf"\s+(?P<noun>(?:[\w-]+\s+){{0,2}}?(?P<head>{EVENTS}))\s+(?:back\s+|up\s+)?"
                 r"(?:to|until)\s+(?P<value>.+)",
        (("We moved the wedding to July 4.", "event:wedding", "july 4"),), we=True),
    Row("due", r"is\s+(?:expecting|having)\s+(?:a\s+(?:baby\s+)?(?:boy|girl)|a\s+baby|twins"
               r"|triplets|(?:our|my)\s+(?:first|second|third|fourth)(?:\s+(?:baby|child|kid))?)(?:,?\s+due)?"
               r"\s+(?P<value>(?:in|on|around)\s+.+)",
        (("We're expecting twins in April!", "due date", "april"),
         ("We're expecting a baby girl in March.", "due date", "march"),
         ("I'm having a baby on June 2.", "due date", "june 2")), we=True),
    Row("due", r"(?:is\s+due|my\s+due\s+date\s+is)\s+(?P<value>.+)",
        (("I'm due in May.", "due date", "may"),)),
    Row("due", r"my\s+(?:baby|little\s+one|first|second|third)(?:\s+is|'s)\s+due\s+(?P<value>.+)",
        (("Our baby is due in February.", "due date", "february"),), we=True),
    Row("anniversary", r"my\s+(?:wedding\s+)?anniversary(?:\s+is|'s)\s+(?P<value>.+)",
        (("Our wedding anniversary is June 12.", "anniversary", "june 12"),), we=True),
    Row("anniversary", r"got\s+married\s+on\s+(?P<value>.+)",
        (("We got married on September 9, 2017.", "anniversary", "september 9"),), we=True),
    # things they own or use
    Row("uses", r"(?:uses?|is\s+using|prefers?|likes?|loves?|swears\s+by|relies\s+on)"
                r"\s+(?P<value>.+?)\s+(?:as|for)\s+(?:my|our|a|an|the)\s+(?P<noun>[\w ]+)",
        (("I prefer vim as my editor.", "tool:editor", "vim"),
         ("I use Firefox as my browser.", "tool:browser", "firefox"))),
    Row("uses", r"(?:switched|moved|changed|migrated|went\s+back)\s+(?:over\s+)?"
                r"(?:from\s+.+?\s+)?to\s+(?P<value>.+)",
        (("I switched to VS Code.", "tool:editor", "vs code"),
         ("I switched from Android to an iPhone.", "owns:phone", "iphone"))),
    Row("uses", r"(?:uses?|is\s+using|is\s+on|(?:codes?|programs?|writes?(?:\s+code)?|edits?|draws?"
                r"|designs?|games?)(?:\s+(?:on|with))?|shoots?\s+(?:on|with)|works?\s+(?:on|with)"
                r"|works?(?=\s+(?:mostly\s+|mainly\s+|primarily\s+)?in\s)"
                r"|runs?)(?:\s+(?:mostly|mainly|primarily|only|exclusively))?"
                r"\s+(?:in\s+)?(?P<value>.+)",
        (("I use Emacs.", "tool:editor", "emacs"),
         ("I edit on a MacBook Pro M3.", "owns:laptop", "macbook pro m3"),
         ("I write mostly TypeScript and some Go.", "tool:programming language",
          "typescript and go"),
         ("I mostly code in Go.", "tool:programming language", "go"),
         ("I use Neovim and zsh.", "tool:shell", "zsh")), many=True),
    Row("product", r"(?:uses?|is\s+using|relies\s+on|swears\s+by)\s+(?P<value>.+?)"
                   r"(?:\s+(?:for|on|to|at|as|in|with|every|daily)\b.*)?",
        (("I mostly use Procreate on an iPad Pro.", "uses:procreate", "procreate"),
         ("We use Shopify for the online store.", "uses:shopify", "shopify")), we=True),
    Row("owns", r"(?:drives?|owns?|has|have|has\s+got|have\s+got|bought|purchased"
                r"|got(?!\s+(?:into|in\s+to|up|over|back|out|through|on|off|around|away)\b)"
                r"|leased?|rides?|just\s+bought|picked\s+up|is\s+driving|upgraded\s+to)\s+"
                r"(?P<value>.+)",
        (("I drive a Honda Civic.", "owns:car", "honda civic"),
         ("I bought a MacBook Air.", "owns:laptop", "macbook air"))),
    # What no one drives but for work: "he drives a taxi now" is a taxi driver.
    Row("driver", r"(?:drives?|is\s+driving)\s+(?P<value>(?:a|an|the)\s+(?:taxi|cab|minicab|bus"
                  r"|school\s+bus|lorry|forklift|tram|train|ambulance|tow\s+truck|bin\s+lorry))"
                  r"(?:\s+(?:now|these\s+days|for\s+a\s+living|full[-\s]time|part[-\s]time"
                  r"|for\s+(?:a|the)\s+[\w -]+))?",
        (("I drive a taxi now.", "job title", "taxi driver"),
         ("I drive a bus for a living.", "job title", "bus driver"))),
    # "I drive a Polo": what one drives is a car, though its model is unknown here.
    Row("drives", r"(?:drives?|is\s+driving)\s+(?P<value>(?:a|an)\s+(?-i:[A-Z]).+?)"
                  r"(?:\s+(?:now|these\s+days|at\s+the\s+moment))?",
        (("I drive a Polo.", "owns:car", "polo"),)),
    # A household's car; what "we bought" is read by the rows of moving house.
    Row("owns", r"(?:drives?|is\s+driving|upgraded\s+to|traded\s+up\s+to)\s+(?P<value>.+)",
        (("We drive an old Volvo estate.", "owns:car", "volvo estate"),), we=True),
    Row("my thing", r"my\s+(?:new\s+|current\s+|family\s+)?(?P<noun>car|phone|laptop|bike|ride"
                    r"|computer|watch)"
                    r"(?:\s+is|'s)\s+(?:a|an)\s+(?P<value>.+)",
        (("My car is a Tesla Model 3.", "owns:car", "tesla model 3"),
         ("My car's a 2015 Polo.", "owns:car", "2015 polo")), we=True),
    Row("uses", r"my\s+(?:editor|ide|browser|shell|os|terminal|notes\s+app|go-to\s+editor)"
                r"(?:\s+(?:of\s+choice|is)|'s)\s+(?:still\s+)?(?P<value>.+)",
        (("My editor is Neovim.", "tool:editor", "neovim"),)),
    Row("owns", r"(?:traded(?:\s+in)?|swapped|exchanged|replaced)\s+(?:my|the|our)\s+.+?"
                r"\s+(?:for|with)\s+(?P<value>.+)",
        (("I traded in my Honda for a Toyota Prius.", "owns:car", "toyota prius"),)),
    Row("owns", r"(?:traded|swapped|exchanged)\s+(?:it|that|her|him|(?:my|the|our)\s+[\w -]+?)"
                r"(?:\s+in)?\s+for\s+(?P<value>.+)",
        (("I traded it in for a Subaru Outback.", "owns:car", "subaru outback"),)),
    Row("sold", r"(?:sold|gave\s+away|got\s+rid\s+of|totaled|crashed|returned|traded\s+in)"
                r"\s+(?P<value>[^,;]+)(?:\s*[,;].*)?",
        (("I sold my Honda.", "owns:car", "not honda"),), prefix="not "),
    # A thing lost to a crash or a theft is gone as a sold one is.
    Row("sold", r"(?P<value>my\s+[\w -]+?)\s+(?:was|got|has\s+been)\s+(?:written\s+off"
                r"|stolen|nicked|totall?ed|scrapped)\b.*",
        (("My car was written off in a crash on Monday.", "owns:car", "not car"),
         ("my van got nicked last night", "owns:car", "not van")), prefix="not "),
    # skills and languages
    Row("speaks", r"(?:speaks?|is\s+fluent\s+in|is\s+a\s+native\s+(?:\w+\s+)?speaker\s+of"
                  r"|can\s+speak|speak\s+some)\s+(?:a\s+mix\s+of\s+|both\s+)?(?P<value>.+?)"
                  r"(?:\s+(?:fluently|natively|well"
                  r"|very\s+well|fairly\s+well|a\s+little|a\s+bit|conversationally|decently))?",
        (("I speak Spanish and Portuguese.", "language:portuguese", "portuguese"),
         ("I speak Spanish and Portuguese fluently.", "language:portuguese", "portuguese")),
        many=True, we=True),
    Row("speaks", r"my\s+(?P<value>[\w-]+)\s+is\s+(?:still\s+|pretty\s+|quite\s+|very\s+|really\s+"
                  r"|fairly\s+|a\s+bit\s+|kind\s+of\s+|kinda\s+)*(?:basic|rusty|fluent|decent|good"
                  r"|ok|okay|bad|terrible|poor|limited|conversational|solid|improving|shaky|weak"
                  r"|strong|not\s+great|getting\s+better)",
        (("My German is still pretty basic.", "language:german", "german"),)),
    Row("speaks", r"is\s+a\s+native\s+(?P<value>\w+)\s+speaker",
        (("I'm a native Spanish speaker.", "language:spanish", "spanish"),)),
    Row("speaks", r"my\s+(?:native|first|mother)\s+(?:language|tongue)\s+is\s+(?P<value>.+)",
        (("My native language is Polish.", "language:polish", "polish"),)),
    Row("degree", r"(?:has|holds|got|earned|finished|did|is\s+doing|is\s+studying\s+for)\s+"
                  r"(?:a|an|my)\s+(?:(?-i:[A-Z])[\w-]+\s+){0,2}(?:(?:bachelor'?s"
                  r"|master'?s|ba|bsc|ma|msc|mba|phd|doctorate|undergrad(?:uate)?|graduate)\s+)?"
                  r"(?:degree\s+)?in\s+"
                  r"(?P<value>[\w -]+?)(?:\s+(?:from|at|in\s+the)\s+.+)?",
        (("I have a degree in psychology from Trinity.", "degree:psychology", "psychology"),
         ("I'm doing an Open University degree in psychology in the evenings.",
          "degree:psychology", "psychology"),
         ("I have a master's in statistics.", "degree:statistic", "statistics"))),
    Row("degree", r"(?:has|holds|got|earned|finished|completed|did)\s+(?:a|an|my)\s+"
                  r"(?P<value>[\w -]{3,30}?)\s+degree(?:\s+(?:last|this)\s+(?:week|month|year)"
                  r"|\s+in\s+\d{4})?",
        (("I finally finished my nursing degree last month.", "degree:nursing", "nursing"),)),
    # "I went back to college to study graphic design": study taken up again.
    Row("studies", r"(?:went|is\s+going|has\s+gone)\s+back\s+to\s+(?:college|uni|university|school)"
                   r"\s+to\s+(?:study|do|read)\s+(?P<value>[\w -]+?)(?:\s+(?:at|in)\s+.+)?",
        (("I went back to college to study graphic design.", "major", "graphic design"),)),
    # "Fern has just gone off to Aberystwyth to study marine biology": where, and what
    Row("studies", r"(?:went|gone|is\s+going|is\s+off|moved)\s+(?:off\s+|away\s+)?to\s+"
                   rf"(?P<home>{PLACE_NAME})\s+to\s+(?:study|read|do)\s+(?P<value>[\w -]+?)"
                   r"(?:\s+(?:at|in)\s+.+)?",
        (("I went off to Aberystwyth to study marine biology.", "major", "marine biology"),
         ("I went off to Aberystwyth to study marine biology.", "home", "aberystwyth"))),
    Row("studies", r"(?:studies|study)\s+(?!(?:at|for|to|in|with|hard|late|all|a\s+lot|abroad"
                   r"|online|part)\b)(?P<value>[\w -]+?)(?:\s+(?:at|in)\s+.+)?",
        (("I study neuroscience.", "major", "neuroscience"),)),
    Row("major", r"(?:is\s+majoring\s+in|majors?\s+in|my\s+major\s+is|switched\s+(?:my\s+)?majors?"
                 r"(?:\s+from\s+[\w -]+?)?\s+to|changed\s+(?:my\s+)?majors?(?:\s+from\s+[\w -]+?)?"
                 r"\s+to)\s+(?P<value>[\w -]+?)(?:\s+at\s+(?P<employer>.+))?",
        (("I'm majoring in mechanical engineering.", "major", "mechanical engineering"),
         ("I switched my major to aerospace.", "major", "aerospace"))),
    Row("studying for", r"is\s+(?:doing|studying\s+for|taking|working\s+on|sitting)\s+"
                        r"(?:(?:a|an|my|her|his|their)\s+(?!levels?\b))?(?P<value>(?:(?:part-time|full-time"
                        r"|online|evening|distance)\s+)?(?:mba|phd|masters?|master's|ma|msc|bsc|ba"
                        rf"|llm|pgce|diploma|doctorate)|{SCHOOL_EXAMS})"
                        r"(?:\s+(?:at|with|from|in|on|this|next)\b.*)?",
        (("I'm also doing a part-time MBA.", "studies", "part-time mba"),
         ("im doing my a levels rn", "studies", "a levels"))),
    # "I'm taking maths, physics and computer science": what a student studies.
    Row("subjects", rf"is\s+(?:taking|doing)\s+(?P<value>(?:{SCHOOL_SUBJECTS})(?:\s*,\s*(?:and\s+)?"
                   rf"(?:{SCHOOL_SUBJECTS})|\s+and\s+(?:{SCHOOL_SUBJECTS}))*)"
                   r"(?:\s+(?:at|for|this|next|in)\b.*)?",
        (("I'm taking maths, physics and computer science.", "major",
          "maths, physics and computer science"),)),
    # "Passed my final ACCA exam": a qualification; "passed the test" alone names none.
    Row("passed", r"passed\s+(?:my|the|all\s+(?:my|the|of\s+my))\s+(?:final\s+|last\s+)?"
                  r"(?P<value>(?:[\w-]+\s+){1,3}?(?:exams?|tests?|boards|certification))\b.*",
        (("Passed my final ACCA exam, so I'm fully qualified now!", "passed:acca exam",
          "acca exam"),)),
    Row("milk", rf"(?:drinks?|(?:has|have)\s+switched|switched|changed|moved)\s+(?:only\s+)?"
                rf"(?:from\s+(?:[\w-]+\s+){{1,2}}?)?(?:to\s+)?(?P<value>{_MILKS})\b.*",
        (("I drink oat milk.", "milk", "oat milk"),
         ("Switched from oat to soy milk, oat upset my stomach.", "milk", "soy milk"))),
    Row("chronotype", r"is\s+(?:a|an)\s+(?:(?:total|real|natural|big)\s+)?(?P<value>night\s+owl"
                      r"|morning\s+person|early\s+bird|night\s+person|early\s+riser)\b.*",
        (("I'm a night owl, I work best after 10pm.", "chronotype", "night owl"),)),
    # "I've gone part-time, four days a week": how much someone works, apart from where.
    Row("hours", r"(?:works?|is\s+working|(?:ha(?:s|ve)\s+)?gone|went|is|is\s+going|switched\s+to"
                 r"|moved\s+to|is\s+back\s+to|went\s+back\s+to)\s+(?P<value>(?:part|full)[-\s]time)"
                 r"(?:\s+there)?"
                 r"(?:\s*,.*|\s+(?:now|again|these\s+days|at\s+(?P<employer>.+)|as\s+(?P<title>.+)"
                 r"|(?:from|since|in|this|next)\s+.+))?",
        (("I've gone part-time, four days a week.", "hours", "part-time"),
         ("I'm full-time there now.", "hours", "full-time"),
         ("I work part-time at a bakery.", "employer", "bakery"))),
    # "I've dropped to four days a week", "back to five days since the restructure": how many
    # days, in the slot of part- or full-time; but "three days from home" is where.
    Row("days a week", r"(?:works?|is\s+working|is\s+on|(?:has\s+)?(?:dropped|gone|went|cut|come"
                       r"|moved|switched)\s+(?:down\s+|back\s+|up\s+)?to"
                       r"|is\s+(?:down|back|up)\s+to)"
                       r"\s+(?P<value>(?:one|two|three|four|five|six|[1-6])\s+days?(?:\s+(?:a|per)\s+week)?)"
                       r"(?:\s*,.*|\s+(?:now|again|at\s+(?P<employer>[^,]+?)|since\s+.+))*",
        (("I've dropped to four days a week, Fridays are mine now.", "hours", "four days a week"),
         ("I work 4 days a week at Tesco.", "employer", "tesco"),
         ("Back to five days since the restructure, sadly.", "hours", "five days a week"))),
    Row("shifts", r"(?:works?|is\s+working|is\s+on|does|do|has\s+switched\s+to|switched\s+to"
                  r"|(?:has\s+)?gone\s+(?:back\s+)?(?:onto|on\s+to)|moved\s+onto"
                  r"|moved\s+to|is\s+back\s+on|went\s+back\s+to|(?:has\s+)?started(?:\s+on)?)"
                  r"\s+(?P<value>(?:the\s+)?(?:nights|days|weekends"
                  r"|(?:[\w-]+\s+)?shifts?))(?:\s*,.*|\s+(?:now|again|these\s+days|for\s+.+"
                  r"|at\s+(?P<employer>.+?)(?:\s+(?:so|because|and|but)\s+.*)?))?",
        (("I work nights.", "shifts", "night shifts"),
         ("I work nights at a warehouse.", "employer", "warehouse"),
         ("I've switched to day shifts.", "shifts", "day shifts"),
         ("I do 24-hour shifts.", "shifts", "24-hour shifts"),
         ("I work 24-hour shifts, three days a week.", "shifts", "24-hour shifts"),
         ("I've started night shifts at the bus depot.", "shifts", "night shifts"),
         ("I've started night shifts at the bus depot.", "employer", "bus depot"))),
    Row("home", r"is\s+(?:at|in)\s+(?:uni|university|college)\s+in\s+(?P<value>(?-i:[A-Z]).+)",
        (("I'm at uni in Leeds.", "home", "leeds"),)),
    # "Got into" a school by its kind ("I got into Minecraft" is a hobby); accepted anywhere.
    Row("school", r"(?:got\s+(?:into|in\s+to|accepted\s+(?:into|onto|to))\s+(?:(?:a|an|the)\s+)?"
                  r"(?:[\w-]+\s+){0,3}?(?:program|programme|course)\s+(?:at|with)\s+)"
                  r"(?P<value>.+?)(?:\s+(?:for|this|next|in|starting)\b.*)?",
        (("I got into the MA program at Goldsmiths!", "employer", "goldsmiths"),)),
    Row("school", r"(?:got\s+(?:into|in\s+to)\s+(?=[^,]*\b(?:school|university|uni|college|academy"
                  r"|conservatory|programme|program)\b)|got\s+accepted\s+(?:to|into|at|by)\s+)"
                  r"(?P<value>.+?)(?:\s+(?:for|to|this|next|in|starting)\b.*)?",
        (("I got into nursing school!", "employer", "nursing school"),
         ("I got accepted to McGill for the fall.", "employer", "mcgill"))),
    # "in second year nursing at Red River College": the "my" and the "of" may go unsaid
    Row("school", r"is\s+in\s+(?:(?:my|her|his|their|the)\s+(?:[\w-]+\s+)?|(?:first|second|third"
                  r"|fourth|final|last)\s+)year\s+(?:(?:of\s+(?:(?:a|an|my|the)\s+)?)?"
                  r"(?P<studies>[\w -]+?)(?:\s+(?:degree|course|programme"
                  r"|program|phd|ba|bsc|ma|msc))?\s+)?at\s+(?P<value>.+)",
        (("I'm in my second year of a history degree at Durham.", "employer", "durham"),
         ("I'm in second year nursing at Red River College.", "major", "nursing"),
         ("I'm in my second year of a history degree at Durham.", "major", "history"),
         ("I'm in my final year at Leeds.", "employer", "leeds"))),
    Row("school", r"(?:stud(?:y|ies)|is\s+studying|is\s+a\s+student)\s+at\s+(?P<value>.+)",
        (("I study at Leeds.", "employer", "leeds"),)),
    Row("stopped learning", r"switched\s+from\s+(?P<value>[\w -]+?)\s+to\s+(?P<learning>.+)",
        (("I switched from guitar to piano.", "learning:piano", "piano"),), prefix="not "),
    Row("stopped learning", r"(?:dropped|gave\s+up|swapped|ditched|traded)\s+"
                            r"(?P<value>[\w -]+?)\s+for\s+(?:(?:a|an|the)\s+)?"
                            r"(?P<learning>[\w -]+?)(?:\s*,.*)?",
        (("I dropped French for Italian.", "learning:italian", "italian"),
         ("I swapped the violin for a cello.", "learning:cello", "cello")), prefix="not "),
    # "I gave up on learning Italian" drops a plan (below); "I gave up on Spanish" a subject.
    Row("stopped learning", r"(?:stopped(?:\s+learning|\s+studying)?|quit|dropped"
                            r"|gave\s+up(?:\s+on)?(?!\s+learning))\s+(?P<value>.+?)"
                            r"(?:(?:,?\s+and\s+(?:switched|moved)\s+to|,\s+it's|,\s+(?:doing|learning)"
                            r")\s+(?P<learning>.+?)(?:\s+now|\s+instead)?)?",
        (("I stopped French.", "learning:french", "not french"),
         ("I gave up on Spanish and switched to Italian.", "learning:italian", "italian")),
        prefix="not "),
    Row("learning", r"(?:is\s+(?:learning|studying|doing|picking\s+up"
                    r"|taking\s+(?:lessons|classes)\s+in)"
                    r"|started\s+learning|am\s+learning|takes?\s+lessons\s+in)\s+(?P<value>.+)",
        (("I'm learning Japanese.", "learning:japanese", "japanese"),)),
    # "learned to surf": a skill someone has now.
    Row("learned", r"(?:learned|learnt|has\s+learned|has\s+learnt|finally\s+learned)\s+(?:how\s+)?"
                   r"to\s+(?P<value>[\w-]+(?:\s+(?!(?:and|but|so|because|last|this|at|in|on)\b)[\w-]+){0,2})"
                   r"(?:\s*,.*|\s+(?:last|this|at|in|on|over|during)\b.*)?",
        (("I learned to surf last summer.", "skill:surf", "surf"),
         ("I finally learned to drive a manual.", "skill:drive", "drive a manual"))),
    Row("a class", r"(?:is|has\s+been|started|began|takes?)\s+(?:taking\s+)?(?:a|an)\s+"
                   r"(?!(?:night|evening|online|extra|new|free)\b)(?P<value>[\w-]+(?:\s+[\w-]+)?)"
                   r"\s+(?P<noun>class|course|workshop)(?=\s*$|\s+(?:on|at|in|every|since|twice|once"
                   r"|with|online|after|this|last)\b).*",
        (("I'm taking a pottery class on Wednesdays.", "learning:pottery", "pottery"),)),
    Row("classes", r"(?:is|has\s+been|started|began)\s+(?:taking|doing)\s+"
                   r"(?!(?:the|my|our|his|her|their|some|a|an|night|evening|online|extra)\b)"
                   r"(?P<value>[\w-]+(?:\s+[\w-]+)?)"
                   r"\s+(?P<noun>lessons|classes|courses?)(?=\s*$|\s+(?:on|at|in|every|since|twice"
                   r"|once|with|online|after|this|last)\b).*",
        (("I've been taking Spanish classes on Tuesdays since January.", "learning:spanish",
          "spanish"),
         ("I started taking pottery classes.", "learning:pottery", "pottery"))),
    # After "learning": "I'm studying Japanese" learns a language; "studying law" is a field.
    Row("studies", r"is\s+studying\s+(?!(?:for|to|in|with|at|hard|late|all|a\s+lot|abroad"
                   r"|online|part)\b)(?P<value>[\w -]+?)(?:\s+at\s+[^,]+?)?"
                   rf"(?:\s+in\s+(?P<home>{PLACE_NAME}))?",
        (("I'm studying law in Paris.", "major", "law"),)),
    Row("knows", r"(?:knows?|is\s+(?:(?:really|very|pretty|quite)\s+)?(?:good|great|decent"
                 r"|experienced|proficient|skilled|solid|comfortable|an\s+expert)\s+(?:at|in"
                 r"|with)|has\s+experience\s+(?:with|in)|is\s+certified\s+in)\s+(?P<value>.+)",
        (("I know Python and SQL.", "skill:sql", "sql"),), many=True),
    # A trade done, said the way people say their work: "I do wedding photography".
    Row("trade", rf"do(?:es)?\s+(?!(?:the|our|my|some|a)\s)(?P<value>(?:[\w-]+\s+){{0,2}}?"
                 rf"(?:{TRADES}|{_SERVICES}))"
                 r"(?=\s*$|\s+(?:for|at|in|on|full|part|professionally|freelance|out\s+of)\b)"
                 r"(?!\s+for\s+(?:fun|a\s+hobby)\b)"
                 # "out of Tempe": where the work is run from, the home; "out of town" is no place
                 r"(?:\s+out\s+of\s+(?!(?:town|state|hours|season|my|our|the|a|an|his|her|their)\b)"
                 r"(?P<home>[\w'.-]+(?:\s+[\w'.-]+)?)$)?.*",
        (("I do wedding photography.", "job title", "wedding photography"),
         ("I do tech support for a school.", "job title", "tech support"),
         ("I do HVAC repair out of Tempe.", "job title", "hvac repair"),
         ("I do HVAC repair out of Tempe.", "home", "tempe"))),
    Row("living", r"(?P<value>(?!(?:is|has|works?|lives?|does|do)\b)[a-z]+\s+[\w -]{1,30}?)"
                  r"\s+for\s+a\s+living\b.*",
        (("I drive trucks for a living, mostly long haul.", "job title", "drives trucks"),)),
    Row("practised", r"(?:has\s+been|have\s+been|is)\s+(?P<value>(?:making|cooking|baking|playing"
                     r"|teaching|coaching|painting|writing|running|practi[cs]ing|building|fixing|repairing"
                     r"|designing|programming|coding|drawing|singing|dancing|riding|training|brewing"
                     r"|growing|knitting|sewing|photographing|climbing|sailing)\s+[\w -]{2,30}?"
                     r"\s+for\s+(?:over\s+|about\s+|nearly\s+|almost\s+)?(?:\d+|two|three|four"
                     r"|five|six|seven|eight|nine|ten|twenty|thirty|forty|many)\s+(?:years|decades))",
        (("I've been making pizza for 30 years.", "skill:making pizza", "making pizza"),)),
    Row("hobby lately", rf"is\s+(?P<value>(?:{'|'.join(HOBBIES_DOING)})(?:\s+(?:watercolou?rs|oils"
                        r"|portraits|landscapes))?)(?:\s+(?:a\s+lot|loads))?"
                        r"(?:\s*,\s*(?:mostly\s+)?[\w -]{2,20})?",
        (("I've been painting again, watercolors mostly.", "skill:paint", "paints"),)),
    # "I've switched to running", "took up swimming": a pastime taken up.
    Row("hobby", r"(?:has\s+)?(?:switched\s+to|taken\s+up|took\s+up|started|got\s+into"
                 r"|is\s+into|is\s+getting\s+back\s+into|got\s+back\s+into)\s+"
                 rf"(?P<value>(?:{'|'.join(HOBBIES_DOING)}))(?:\s+(?:again|now|instead|lately))?"
                 r"(?:\s+to\s+(?:stay|keep|get)\s+[\w ]+)?",
        (("I've switched to running.", "skill:run", "runs"),
         ("I got back into swimming.", "skill:swim", "swims"))),
    Row("hobby", r"(?P<value>(?!(?:is|has|works?|lives?|do|does)\b)[a-z]+\s+[\w -]{1,30}?)"
                 r"\s+(?:as\s+a\s+hobby|for\s+fun|in\s+(?:my|our)\s+(?:spare|free)\s+time)",
        (("I run marathons as a hobby.", "skill:run", "runs marathons"),)),
    Row("hobby", r"(?P<value>(?:knit|crochet|sew|paint|draw|sketch|sculpt|garden|bake|surf|ski"
                 r"|snowboard|climb|box|fence|row|sail|dance|sing|swim|cycle|hike|fish|hunt"
                 r"|skate|kayak|meditate)(?:s)?(?:\s+(?:watercolou?rs|portraits|landscapes))?"
                 r"(?:\s+in\s+(?:a|the|my|our|their)\s+(?:(?:local|church|community|school|work"
                 r"|university|college)\s+)?(?:choir|band|club|league|team|group|orchestra))?)"
                 # "I swim at the leisure centre most mornings before work": where and how often
                 r"(?:\s+at\s+(?:the|a|my|our)\s+[\w' -]+?(?=\s+(?:most|every|daily|twice|before"
                 r"|after|on)\b|$))?"
                 r"(?:\s+(?:a\s+lot|daily|every\s+\w+|regularly|competitively|for\s+fun"
                 r"|most\s+(?:days|mornings|evenings|nights|weekends)"
                 r"|on\s+(?:weekends|\w+days)))?(?:\s+(?:before|after)\s+work)?",
        (("I knit.", "skill:knit", "knits"), ("I paint watercolors.", "skill:paint",
                                                 "paints watercolors"),
         ("I sing in my church choir on Sundays.", "skill:sing",
          "sings in their church choir"),
         ("I cycle at the velodrome most weekends.", "skill:cycle", "cycles"))),
    Row("activity", r"(?:goes|go|is\s+going)\s+(?P<value>(?:rock\s+|ice\s+|trail\s+|scuba\s+|sea\s+"
                    r"|wild\s+|cross-country\s+)?(?:climbing|bouldering|running|hiking|swimming"
                    r"|cycling|skiing|snowboarding|surfing|kayaking|fishing|camping|dancing|diving"
                    r"|sailing|skating|jogging|golfing|bowling|rowing|paddleboarding))"
                    r"(?:\s+(?:every|on|at|with|once|twice|three|four|most|a\s+lot|regularly)\b.*)?",
        (("I go rock climbing three times a week.", "activity:rock climbing", "rock climbing"),)),
    Row("practice", r"(?:does|do|is\s+doing|(?:has\s+)?(?:started|begun|began)\s+doing)\s+"
                    r"(?P<value>yoga|pilates|crossfit|tai\s+chi|zumba"
                    r"|karate|judo|taekwondo|jiu[\s-]?jitsu|kickboxing|spin|barre|parkrun|triathlons?)"
                    r"(?:\s+(?:every|on|at|with|once|twice|three|four|most|a\s+lot|regularly|since"
                    r"|daily)\b.*)?",
        (("I've been doing yoga three times a week.", "activity:yoga", "yoga"),
         ("I've started doing parkrun most Saturdays.", "activity:parkrun", "parkrun"))),
    Row("plays", r"(?:plays?|is\s+playing)\s+(?:(?:a\s+lot|lots|loads|tons|way\s+too\s+much)"
                 r"\s+of\s+|too\s+much\s+)?(?:varsity\s+|competitive\s+|club\s+|amateur\s+"
                 r"|semi-pro\s+|pickup\s+|recreational\s+|rec\s+|league\s+)?(?P<value>.+?)"
                 r"(?:\s+(?:(?:basically|pretty\s+much|almost|nearly|like)\s+)?(?:online|a\s+lot"
                 r"|every\s+\w+|most\s+\w+|on\s+\w+|in\s+(?:a|an|the|their|my)"
                 r"\s+[\w -]+|with\s+[\w -]+|for\s+fun|competitively|regularly|weekly|daily)\b.*)?",
        (("I play the cello.", "plays:cello", "cello"),
         ("I play varsity soccer.", "plays:soccer", "soccer"),
         ("I play chess online a lot.", "plays:chess", "chess"),
         ("i play a lot of overwatch", "plays:overwatch", "overwatch"))),
    # preferences
    Row("supports", r"(?:supports?|is\s+a\s+(?:big\s+|huge\s+|lifelong\s+)?supporter\s+of)\s+"
                    r"(?P<value>(?-i:[A-Z]).+?)(?:\s+(?:since|through|all)\b.*)?",
        (("I support Cork GAA.", "supports:cork gaa", "cork gaa"),)),
    Row("favorite", r"my\s+(?:all-time\s+)?(?:favorite|favourite|fave)\s+(?P<noun>[\w ]+?)"
                    r"(?:\s+is|'s|\s+are)\s+(?P<value>.+)",
        (("My favorite band is Radiohead.", "favorite:band", "radiohead"),
         ("Portishead is my favourite band.", "favorite:band", "portishead"))),
    Row("favorite any", r"my\s+(?:all-time\s+)?(?:favorite|favourite|fave)\s+is\s+(?P<value>.+)",
        (("Thai is my favourite.", "favorite", "thai"),)),
    Row("likes", r"is\s+(?:a\s+)?(?:big\s+|huge\s+|massive\s+|more\s+|really\s+)?(?:fan\s+of|into"
                 r"|obsessed\s+with"
                 r"|passionate\s+about|crazy\s+about)\s+(?P<value>.+)",
        (("I'm a big fan of jazz.", "preference:jazz", "likes jazz"),), prefix="likes "),
    # "I've always had a love for horses", "I have a soft spot for pugs".
    Row("likes", r"(?:has\s+)?(?:always\s+)?(?:has|had|have)\s+(?:a|an)\s+(?:real\s+|deep\s+|great"
                 r"\s+|huge\s+|big\s+|lifelong\s+)?(?:love|passion|soft\s+spot)\s+(?:for|of)\s+"
                 r"(?P<value>[\w' -]+?)(?:\s*,.*|\s+(?:since|ever)\b.*)?",
        (("I've always had a love for horses!", "preference:horses", "likes horses"),),
        prefix="likes "),
    Row("likes", r"is\s+(?:a|an)\s+(?:(?:big|huge|massive|die-?hard|lifelong|total)\s+)?"
                 r"(?P<value>(?-i:[A-Z])[\w' ]*?)\s+fan",
        (("I'm a big Arsenal fan.", "preference:arsenal", "likes arsenal"),), prefix="likes "),
    Row("good at", r"is\s+(?:(?:really|very|pretty|quite)\s+)?(?:good|great|skilled|decent)"
                   r"\s+at\s+(?P<value>.+)",
        (("I'm pretty good at sourdough.", "skill:sourdough", "sourdough"),), many=True),
    # plans and goals
    Row("plan", r"(?:is\s+planning|plans?|intends?|aims?|is\s+aiming|hopes?|is\s+hoping"
                r"|wants?|is\s+saving\s+up|saves?\s+up|is\s+preparing|is\s+determined)\s+to\s+"
                r"(?P<value>.+)",
        (("I'm planning to run a marathon next year.", "plan:marathon", "run a marathon next"
          " year"),
         ("We're planning to move to Bristol.", "plan:bristol", "move to bristol"),
         ("I'm moving to Porto next month.", "plan:porto", "move to porto next month")),
        we=True),
    # What "we decided" is a decision of the team's (the decision rules); "I" decide a plan.
    Row("aspiration", r"(?:wants?|hopes?|plans?|would\s+like|is\s+hoping|dreams?\s+of)\s+(?:to\s+)?"
                      r"(?:be|become|becoming|being)\s+(?:a|an)\s+(?P<value>[\w -]+?)"
                      r"(?:\s+(?:when|one\s+day|someday|after|in|by)\b.*)?",
        (("I want to be a vet when I'm older.", "plan:career", "vet"),)),
    Row("plan", r"(?:has\s+)?decided\s+to\s+(?P<value>.+)",
        (("I've decided to sell the farmhouse.", "plan:farmhouse", "sell the farmhouse"),)),
    Row("plan", r"my\s+(?:goal|plan|dream|resolution|new\s+year'?s\s+resolution|big\s+goal)"
                r"(?:\s+(?:for|this|next)\s+\w+(?:\s+\w+)?|\s+this\s+year)?\s+is\s+to\s+(?P<value>.+)",
        (("My goal is to learn to sail.", "plan:sail", "learn to sail"),)),
    Row("saving for", r"is\s+saving(?:\s+up)?\s+for\s+(?P<value>.+)",
        (("We're saving for a mortgage.", "plan:mortgage", "a mortgage"),), we=True),
    Row("preparing", r"is\s+(?:training|studying|preparing)\s+for\s+(?P<value>.+)",
        (("I'm training for a half marathon.", "plan:marathon", "a half marathon"),), we=True),
    Row("considering", r"is\s+(?:thinking\s+(?:about|of)|considering|looking\s+into)\s+"
                       r"(?P<value>\w+ing\s+.+)",
        (("I'm thinking about getting a master's degree.", "plan:degree",
          "getting a master's degree"),)),
    Row("planning", r"is\s+planning\s+(?P<value>(?:a|an|my|our)\s+.+)",
        (("I'm planning a trip to Italy in May.", "plan:italy", "a trip to italy in may"),)),
    # "I just got back from two weeks in Japan": a trip just made, news told in passing;
    # "back from Tesco" is an errand, so the trip is said as one.
    Row("trip back", r"(?:just\s+)?(?:got|came|is|has\s+just\s+got)\s+(?:just\s+)?back\s+from\s+"
                     r"(?:(?:a|one|two|three|four|five|six|ten|a\s+few)\s+(?:days?|weeks?|months?)"
                     r"\s+in|(?:a|my|our)\s+(?:[\w-]+\s+)?(?:trip|holiday|vacation)\s+(?:to|in)"
                     r"|(?:holiday|vacation)\s+in)"
                     r"\s+(?P<value>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)?)"
                     r"(?:\s*,.*|\s+(?:and|with|last|yesterday|on)\b.*)?",
        (("I just got back from two weeks in Japan, it was amazing.", "trip:japan", "japan"),
         ("We're back from a trip to Crete.", "trip:crete", "crete")), we=True),
    Row("trip", r"is\s+(?:flying|travell?ing|heading|driving|going|off)\s+(?:back\s+|home\s+)?to\s+"
                rf"(?P<value>{PLACE_NAME}\s+(?:on|in|next|this|tomorrow|over"
                # going for an occasion is a trip planned: "off to Lisbon for a wedding"
                r"|for\s+(?:a|an|the|my|our|his|her|their|[\w-]+'s|work|christmas|easter"
                r"|thanksgiving|new\s+year))\b.*)",
        (("We're flying to Osaka on March 20 to see family.", "plan:osaka",
          "osaka on march 20 (2027-03-20) to see family"),
         ("I'm off to Lisbon for a friend's wedding.", "plan:lisbon",
          "lisbon for a friend's wedding")), we=True),
    Row("signed up", r"(?:has\s+)?(?:signed\s+up|registered|enrolled|entered)\s+(?:for|in)\s+"
                     r"(?P<value>(?:a|an|the|my)\s+.+)",
        (("I signed up for the full marathon instead.", "plan:marathon", "the full marathon"),)),
    # Going home again needs no date: "then I'm heading back to Vancouver".
    Row("going back", r"is\s+(?:heading|going|moving|flying)\s+back\s+(?:home\s+)?to\s+"
                      rf"(?P<value>{PLACE_NAME}"
                      r"(?:\s+(?:for|in|on|next|this|after|when|once)\b.*)?)",
        (("I'm heading back to Vancouver.", "plan:vancouver", "vancouver"),
         ("I'm going back to Leeds for Christmas.", "plan:leeds", "leeds for christmas"))),
    # "I've got a gaming tournament next month": an event ahead, said by what one has.
    Row("event ahead", r"has\s+(?P<value>(?:a|an|my|our)\s+(?:[\w-]+\s+){0,3}?(?:tournament"
                       r"|competition|comp|show|exhibition|gig|match|recital|concert|race|exam"
                       r"|interview|conference|audition|performance|test|exams|assessment|hearing"
                       r"|operation)\s+(?:next\s+\w+|this\s+\w+"
                       rf"|in\s+(?:{dates.MONTH_PATTERN})|on\s+.+))\b.*",
        (("I've got a gaming tournament next month.", "plan:tournament",
          "a gaming tournament next month"),
         ("I've got my driving test next week.", "plan:test", "their driving test next week")),
        we=True),
    Row("upcoming", r"is\s+(?P<value>(?:opening|launching|starting|buying|selling|building|getting"
                    r"|adopting|running|hosting|throwing|visiting|doing|taking|renovating|submitting"
                    r"|defending|publishing|presenting|finishing|sitting|moving|having|playing"
                    r"|competing|performing|exhibiting)\s+.+?"
                    r"\s+(?:next\s+(?:week|month|year|spring|summer|fall|autumn|winter"
                    rf"|{dates.MONTH_PATTERN})|this\s+(?:spring|summer|fall|autumn|winter|year"
                    rf"|{dates.MONTH_PATTERN})|in\s+(?:{dates.MONTH_PATTERN}|\d{{4}})))"
                    r"(?:\s+(?:to|with)\s+.+)?",
        (("Leo and I are opening a second shop in Evanston next spring.", "plan:shop",
          "opening a second shop in evanston next spring"),
         ("I'm running a half marathon in October.", "plan:marathon",
          "running a half marathon in october"),
         ("I'm submitting my thesis in March.", "plan:thesi", "submitting their thesis in march"),
         ("I'm having an art show with my paintings next month.", "plan:show",
          "having an art show with their paintings next month")),
        we=True),
    Row("plan", rf"(?:is\s+trying|tries|try)\s+to\s+(?P<value>(?:{_QUITTING}|{_SOUGHT}).*)",
        (("I'm trying to quit smoking.", "plan:smok", "quit smoking"),
         ("We're trying to buy our first house.", "plan:house", "buy their first house")), we=True),
    Row("dropped plan", r"(?:(?:gave\s+up\s+on|decided\s+against|abandoned|cancell?ed"
                        r"|scrapped|called\s+off|decided\s+not\s+to)\s+(?:the\s+idea\s+of\s+"
                        r"|my\s+plans?\s+to\s+|plans?\s+to\s+)?|dropped\s+(?:the\s+idea\s+of"
                        r"|my\s+plans?\s+to|out\s+of)\s+)(?P<value>.+)",
        (("I gave up on running a marathon.", "plan:marathon", "not running a marathon"),),
        prefix="not ", negated=True, we=True),
)  # fmt: skip


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"(?:{pattern})", _I)


# --- subjects --------------------------------------------------------------------------

_CONTRACTIONS = (
    (re.compile(r"^(?:i'm|im|i\s+am)\b", _I), "I is"),
    (re.compile(r"^(?:i've|ive|i\s+have)(?:\s+got)?\b", _I), "I have"),
    (re.compile(r"^we're\b", _I), "we is"),
    (re.compile(r"^(?:we've|we\s+have)(?:\s+got)?\b", _I), "we have"),
    (re.compile(r"^i'll\b", _I), "I will"),
)
# Wishes and what-ifs state nothing: "I wish I lived in Paris", "if I were vegan".
_UNREAL_RE = re.compile(
    r"\b(?:wish|wished|would|could|might|should|imagine|pretend|suppose|hypothetically"
    r"|dream\s+of|dreaming\s+of|fantasi[sz]e)\b|'d\b|\bif\s+(?:i|we|my|our)\b|[\"]",
    _I,
)
# Time and stance lead-ins say when, not who: "These days I'm pescatarian".
_LEAD_IN_RE = re.compile(
    r"^(?:(?:these\s+days|nowadays|lately|currently|recently|right\s+now|at\s+the\s+moment"
    r"|as\s+of\s+(?:today|now|this\s+\w+)|since\s+(?:last\s+)?\w+"
    r"|last\s+(?:week(?:end)?|month|year|spring|summer|fall|autumn|winter|night)|yesterday|today"
    rf"|in\s+(?:{dates.MONTH_PATTERN}|(?:19|20)\d\d)"
    r"|(?:a\s+few|a|an|one|two|three|four|five|six|\d+)\s+(?:days?|weeks?|months?|years?)\s+ago"
    r"|this\s+(?:week|month|year)|for\s+the\s+record|fun\s+fact|honestly|basically|well"
    r"|[\w]+-wise|for\s+context|just\s+so\s+you\s+know|fwiw|for\s+what\s+it'?s\s+worth"
    r"|(?:it\s+)?turns\s+out(?:\s+that)?|heads\s+up|sadly|unfortunately|luckily|fortunately"
    r"|thankfully|(?:good|bad|big)\s+news|as\s+a\s+result|in\s+fact|as\s+a\s+matter\s+of\s+fact"
    r"|oh|also|btw|fyi|anyway|so|and|but|now|update|at\s+(?:home|work)|on\s+weekends"
    r"|hi|hey|hello|hiya|yo|g'day|howdy"
    r"|in\s+my\s+(?:free|spare)\s+time|outside\s+(?:of\s+)?work"
    r"|before\s+(?:the\s+|my\s+)?(?:kids|children|baby|babies|twins|retirement|uni|college|tech)"
    r"|(?:and\s+)?then"
    r"|(?:next|this|in\s+the)\s+(?:week|month|year|spring|summer|fall|autumn|winter)"
    r"|someday|one\s+day|eventually|soon|in\s+a\s+few\s+(?:weeks|months|years))\s*[,:—–-]?\s+"
    r"|(?:i\s+)?(?:just\s+)?found\s+out(?:\s+that)?\s+(?=i\b|i'm\b|we\b|we're\b|my\b)"
    # Self-repairs say the sentence replaces an earlier one, not who speaks.
    r"|(?:oh\s+)?(?:wait|sorry|oops|whoops|correction|scratch\s+that|i\s+mean|i\s+meant"
    r"|my\s+bad|no|nope|actually|to\s+be\s+clear)\s*[,:;!.—–-]*\s+"
    r"|[A-Za-z][\w' ]{0,24}:\s+)+",  # a label: "Quick intro: I'm Hannah"
    _I,
)
# Sentences without a subject that still speak of the speaker: "Call me Ko", "Name's Olu"
# (a name is capitalised there: "Call me crazy" and "call me later" name no one).
# Words that come before "here" without naming anyone: "Same here!", "Help here".
_NOT_INTRO = (
    r"same|ditto|me|you|us|everyone|all|nobody|right|over|out|back|again|help|love|life|fun"
    r"|click|sign|start|stop|look|more|details|info|link|nothing|everything|something|it|that"
    r"|this|what|who|why|how|where|when|ok|okay|yes|no|thanks|hi|hello|hey"
    r"|new|newbie|still|first|finally|just|only|long|lurker|almost|nearly|mostly"
)
# Chat drops the "I": "Moved to Leeds in May", "Been married to Ewa for years"; but
# "Living in Pune is expensive" has a subject of its own.
_DROPPED_I_RE = re.compile(
    r"^(?:just\s+)?(?=(?:moved|relocated|joined|quit|switched|got\s+promoted|adopted|started"
    r"|sold|traded|swapped|bought|lost|got\s+rid\s+of|gave\s+up|fell\s+off|took\s+a\s+job"
    r"|passed\s+(?:my|the|all)"
    r"|got\s+taken\s+on"
    r"|got\s+(?:a\s+)?(?:new\s+|part[-\s]time\s+|full[-\s]time\s+|summer\s+|weekend\s+)?job"
    r")\s|turned\s+\d+\b|(?:live|work|teach)\s+(?:in|at|for)\s(?-i:[A-Z])"
    # "Swim at the baths most mornings": a pastime and how often, where an order has none
    r"|(?:swim|run|cycle|climb|row|surf|skate|hike|paint|sing)\s+(?:[\w' -]+\s+)?(?:most"
    r"\s+(?:days|mornings|evenings|weekends)|every\s+(?:day|morning|evening|weekend))\b)",
    _I,
)
_DROPPED_I_AM_RE = re.compile(
    r"^(?:been\s+|(?=(?:(?:(?:a\s+)?(?:big|huge|massive)\s+fan\s+of|(?:still\s+)?learning|living|based|married|engaged|allergic|studying"
    r"|majoring|planning"
    rf"|(?:taking|doing)(?=\s+(?:my\s+)?(?:{SCHOOL_SUBJECTS}|{SCHOOL_EXAMS})\b)"
    r"|hoping|training|saving\s+up|contracting|consulting|freelancing|thinking\s+(?:of|about)"
    # "eating chicken again since the anemia": a food back in the diet
    rf"|eating(?=\s+(?:{FOODS_TO_AVOID})\s+again\b)"
    rf"|(?:trying\s+to|tryna)(?=\s+(?:{_QUITTING}|{_SOUGHT}))"
    r"|originally\s+from)\s|(?:\w+\s+(?:days?|weeks?|months?|years?)\s+)?smoke[-\s]free\b"
    r"|(?:flying|heading|off|going|travell?ing|driving)\s+(?:back\s+)?to\s+(?-i:[A-Z])"
    # "driving my wife's old civic for now": the car driven (no car, no fact)
    r"|driving(?=\s+(?:my|our|a|an)\s)"
    # "Back in Vancouver now!", but "Back in March we..." is when
    r"|back\s+in\s+(?-i:[A-Z])[\w'.-]*(?:\s+(?-i:[A-Z])[\w'.-]*)?(?:\s+(?:now|again|for\s+good))?"
    r"[.!]*$"
    r"|(?:back|down)\s+to\s+(?:one|two|three|four|five|six|[1-6])\s+days\b"
    r"|(?:down|up)\s+to\s+(?:\d+(?:\.\d)?\s?(?:kg|kilos|lbs?|pounds)\b"
    r"|(?:one|two|three|four|five|six|\d)\s+[\w-]+(?:\s+now)?\b)"
    rf"|(?:{DIETS})(?:\s+now|\s+these\s+days)?(?:,?\s+i\s+(?:guess|suppose|think))?$"
    # "Divorced, two kids": a status that a list or "with" follows.
    r"|(?:single|divorced|separated|widowed|remarried)(?=\s*(?:,|$)|\s+(?:with|and)\s))"
    r"(?!.*\b(?:is|was|are|were|seems|sounds|feels|makes)\b)))(?P<first>\w)",
    _I,
)


# "Coeliac, so bread is a nightmare", "Pregnant, due in May!": a state said first, alone.
_STATE_FIRST_RE = re.compile(
    rf"^(?=(?:{HEALTH_STATES}|{DIETS})\s*(?:[,;!.]|$|\s+(?:since|for|and|so|but)\b))(?P<first>\w)",
    _I,
)


def _dropped_i_am(found: re.Match[str]) -> str:
    """ "Married with two kids" is "I am married with two kids": the capital only opened
    the sentence."""
    return "I am " + found["first"].lower()


# A job said without the "I": "Nurse here", "Retired teacher, 70, ...", "Senior developer now".
# "Retired RAF pilot.": a sentence that is only a job, said with what kind of job it is.
_ONLY_JOB_RE = re.compile(
    r"^(?=(?:retired|semi-retired|former|freelance|self-employed|senior|junior|lead|head"
    r"|trainee|qualified|registered|certified|part-time|full-time)\s+(?:[\w-]+\s+){0,2}?"
    rf"(?:{JOB_HEAD_RE})[.!]*$)(?P<first>[\w-]+)",
    _I,
)


def _only_job(found: re.Match[str]) -> str:
    """ "Retired RAF pilot." is a job the speaker used to do; "Senior engineer." is theirs."""
    if found["first"].lower() in ("retired", "former"):
        return "I used to be a "
    return _bare_job(found)


_BARE_JOB_RE = re.compile(
    r"^(?!(?:been|was|used\s+to\s+be|i|i'm|im|we|we're|you|he|she|they|it|my|our|his|her"
    r"|their)\b)"
    rf"(?=(?:[\w-]+\s+){{0,3}}?(?:{JOB_HEAD_RE})(?:\s+here\b|\s*,\s*\d{{1,3}}\b|\s+now$"
    # "Full-stack dev at a travel startup, remote, ...", "Junior analyst at Deloitte."
    r"|\s+(?:at|for|of)\s+[^,.!?]+(?:,|[.!]*$)"
    r"|(?:\s*\([^)]{1,40}\))?\s*,\s*(?:based|living|working)\s))"
    r"(?P<first>[\w-]+)",
    _I,
)


def _bare_job(found: re.Match[str]) -> str:
    """ "I am a " before the job, which loses the capital it had only for opening the
    sentence: "Nurse here" is "I am a nurse here", "SRE at Monzo" keeps its letters."""
    first = found["first"]
    return "I am a " + (first if first.isupper() else first[:1].lower() + first[1:])


# An introduction that opens with the age: "41, dad of two, software architect at a bank".
_BARE_AGE_RE = re.compile(
    r"^(?=\d{1,3}\s*,\s*(?:[\w-]+\s+){0,3}?(?:single|married|divorced|widowed|engaged|dad|mom|mum"
    rf"|father|mother|parent|{JOB_HEAD_RE})\b)",
    _I,
)
# "Mum of three here", "Proud dad of two girls": a parent introduced without the "I".
_PARENT_OF_RE = re.compile(
    r"^(?=(?:single\s+|proud\s+|busy\s+|new\s+)?(?:mum|mom|mother|dad|father|parent)\s+(?:of|to)"
    r"\s+(?:\d+|two|three|four|five|six)\b)",
    _I,
)
# An introduction by name and age: "Anh, 31, data scientist, live in Hanoi".
_NAME_AGE_RE = re.compile(
    r"^(?=(?-i:[A-Z])[\w'-]+\s*,\s*\d{1,3}\s*,\s*(?:[\w-]+\s+){0,3}?(?:single|married|divorced"
    rf"|widowed|engaged|dad|mom|mum|father|mother|parent|{JOB_HEAD_RE})\b)",
    _I,
)
# Someone else moved the speaker's event: "They moved my dentist appointment to the 10th".
_MOVED_BY_THEM_RE = re.compile(
    rf"^(?:they|the\s+\w+)\s+(?:have\s+|'ve\s+|just\s+)?(?:{_RESCHEDULED})\s+"
    rf"(?P<what>(?:my|our)\s+(?:[\w-]+\s+){{0,2}}?(?:{EVENTS}))\s+(?=(?:back\s+)?(?:to|until)\s)",
    _I,
)
# "We moved Mom up to Denver near us": the speaker moved a relative, who lives there now.
_MOVED_THEM_RE = re.compile(
    r"^(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?moved\s+"
    rf"(?P<rel>(?:my|our)\s+(?:{RELATION_RE})|mum|mom|mam|dad)\s+"
    r"(?=(?:(?:up|down|over|out|back)\s+)?to\s+(?-i:[A-Z]))",
    _I,
)


def _moved_them(found: re.Match[str]) -> str:
    rel = found["rel"]
    return f"{rel if ' ' in rel else 'my ' + rel} moved "


# "I lost my mum last year", "Lost our dog in March": a death, said as a loss, of kin or a
# pet ("lost my job", "lost my wife's ring" are no deaths, and "lost my son at the fair" or
# "in the crowd" a fright).
_LOST_KIN_RE = re.compile(
    rf"^(?:(?:i|we)\s+)?(?:just\s+|sadly\s+|recently\s+)?lost\s+(?P<whose>my|our)\s+"
    rf"(?P<rel>{MOURNED_RE})(?![\w'-])(?!\s+(?:at|in\s+(?:the|a))\b)",
    _I,
)
# "Had my birthday at the weekend, 30 now": the age the birthday brought.
_BIRTHDAY_AGE_RE = re.compile(
    r"^(?:(?:i|we)\s+)?(?:just\s+)?(?:had\s+my|it\s+was\s+my)\s+(?:birthday|bday)\b[^,]*,\s*"
    r"(?:(?:i'm|im|i\s+am)\s+)?(?=\d{1,3}(?:\s+now)?[.!]*$)",
    _I,
)
# "Got my driving test in March": an event ahead, with when it is.
_EVENT_WHEN = rf"(?:my|a|an)\s+(?:[\w-]+\s+)?(?:{EVENTS})\s+(?:next|this|in|on)\s"
# "Got two boys", "Got sleep apnea": the "I've" goes unsaid before what one has.
_DROPPED_IVE_RE = re.compile(
    r"^got\s+(?=(?:two|three|four|five|six|\d{1,2}|twins|triplets)\s"
    rf"|a\s+(?:[\w-]+\s+)?(?:{RELATION_RE})\b|(?:{CONDITIONS})\b"
    rf"|{_EVENT_WHEN})",
    _I,
)
# "They made me a senior associate": the speaker was promoted.
_MADE_ME_RE = re.compile(
    r"^(?:they|the\s+(?:company|firm|board|partners|bosses)|my\s+(?:boss|manager|company|firm))"
    rf"\s+(?:have\s+|just\s+|finally\s+|officially\s+)*made\s+me\s+(?=(?:(?:a|an|the)\s+)?"
    rf"(?:[\w-]+\s+){{0,3}}?(?:{JOB_HEAD_RE})\b)",
    _I,
)
# "They've put me back on days": the shifts the speaker works now.
_PUT_ME_ON_RE = re.compile(
    r"^(?:they|the\s+\w+|my\s+(?:boss|manager|work))(?:'ve|\s+have|\s+has)?\s+(?:just\s+)?"
    r"(?:put|moved|switched)\s+me\s+(?=(?:back\s+)?(?:on|to)\s+(?:the\s+)?(?:days|nights|weekends"
    r"|[\w-]+\s+shifts?)\b)",
    _I,
)
# "Three cats now, we took in a stray": a count said with "now" is the speaker's new one.
_COUNT_NOW_RE = re.compile(
    rf"^(?=(?:two|three|four|five|six|seven|\d{{1,2}})\s+(?:[\w-]+\s+)?(?:{RELATION_RE})s"
    r"\s+now\b)(?P<first>\w)",
    _I,
)
# "I adopted a puppy! A beagle called Pretzel.": the pet, named after the news.
_PET_NAMED_RE = re.compile(
    rf"^(?:(?:she's|he's|she\s+is|he\s+is)\s+)?(?:a|an)\s+(?:[\w-]+\s+)?"
    rf"(?={PET_RE}\s+(?:called|named)\s+(?-i:[A-Z])[\w'-]+(?:[.!]*$|\s*,))",
    _I,
)
# "Yoga's on Wednesdays now": chat drops the "my" of a routine.
_ROUTINE_FIRST_RE = re.compile(
    rf"^(?=(?:{ROUTINES})(?:'s|\s+is)\s+(?:now\s+)?(?:on|every|each)\s)", _I
)
# "Before that I was at Google", "... I was in a call centre": where the speaker worked
# before the job just named; but "before that I was in London" lived there.
_BEFORE_THAT_RE = re.compile(
    r"^before\s+(?:that|this|then)\s*,?\s+(?:i|we)\s+(?:worked\s+(?P<at>(?-i:at|in|for))"
    r"|was\s+(?P<was>(?-i:at)|(?-i:in)(?=\s+(?:a|an)\s)))\s+",
    _I,
)
# "Mum is Carol", "Dad's in Leeds": a parent needs no "my".
_PARENT_FIRST_RE = re.compile(
    r"^(?=(?:mum|mom|dad|mam|mummy|daddy)(?:'s|\s+is|\s+has|\s+(?:just\s+)?\w+ed)\s)", _I
)
# "wife marisol teaches 3rd grade", "Husband's a chef": a spouse needs no "my" either, where
# a name and a verb, or "'s", follow.
_SPOUSE_FIRST_RE = re.compile(
    # ("husband material is rare": only a verb of doing, after a name)
    r"^(?=(?:wife|husband|partner|girlfriend|boyfriend|fianc[eé]e?)"
    r"(?:'s\s|\s+is\s|\s+[A-Za-z][\w'-]*\s+(?:works|teaches"
    r"|drives|runs|lives|just|got|started|moved)\s))",
    _I,
)
# "partner's name is Wouter": chat drops the "my".
_THEIR_NAME_FIRST_RE = re.compile(rf"^(?=(?:{RELATION_RE})'s\s+name(?:\s+is|'s)\s)", _I)
# "Mine is a cat, Luna", said after someone else's pet: the speaker has one too.
_MINE_IS_A_RE = re.compile(
    rf"^(?:mine|ours)(?:'s|\s+is)\s+(?:a|an)\s+(?=(?:[\w-]+\s+)?(?:{RELATION_RE})(?:\s*,\s*"
    r"|\s+(?:called|named)\s+)(?-i:[A-Z]))",
    _I,
)
# "The baby arrived early!": the speaker's baby; "A boy, Samuel!": the speaker's newborn.
_THE_BABY_RE = re.compile(r"^(?:the|our)\s+baby\s+(?=(?:arrived|was\s+born|is\s+here|came)\b)", _I)
_NEWBORN_RE = re.compile(
    r"^(?:it's\s+)?(?:a|our)\s+(?:baby\s+|little\s+)?(?P<kind>boy|girl)(?:\s*[,!:–—-]+\s*"
    r"|\s+(?:called|named)\s+)(?P<name>(?-i:[A-Z])[\w'-]+)[.!]*$",
    _I,
)
# "New manager as of Monday - Raj": the speaker's new one, named after a dash.
_NEW_ONE_NAMED_RE = re.compile(
    rf"^(?:my\s+|a\s+)?new\s+(?P<rel>{RELATION_RE})(?:\s+(?:as\s+of|since|from|starting)\s+\w+)?"
    r"\s*[-–—:,]+\s*(?=(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?[.!]*$)",
    _I,
)
# "Priya and I got engaged": the speaker is engaged to Priya.
_GOT_ENGAGED_RE = re.compile(
    r"^(?P<name>(?-i:[A-Z])[\w'-]+)\s+and\s+i\s+(?:just\s+|finally\s+)?got\s+"
    r"(?P<how>engaged|married)\b",
    _I,
)
# "I'm dating someone new, her name is Priya": the someone is Priya.
_SOMEONE_NAMED_RE = re.compile(
    r"\b(?P<verb>dating|seeing)\s+(?:someone|somebody)(?:\s+new)?(?:\s*[,;:–—-]+\s*(?:his|her"
    r"|their)\s+name(?:'s|\s+is)|\s+(?:called|named))\s+(?=(?-i:[A-Z]))",
    _I,
)
# "Allergies: penicillin and latex": a list under a label says what the speaker is or has.
_LABELLED_RE = re.compile(r"^(?P<label>allergies|allergic\s+to|languages|diet)\s*:\s+", _I)
_LABELS = {"allergies": "I'm allergic to ", "languages": "I speak ", "diet": "I'm "}


def _labelled(found: re.Match[str]) -> str:
    label = found["label"].lower()
    return _LABELS.get(label, "I'm allergic to ")  # "Allergic to: ..."


# "doc says its a herniated disc": a diagnosis the speaker was told is what they have.
_TOLD_DIAGNOSIS_RE = re.compile(
    r"^(?:the\s+|my\s+)?(?:doc|doctor|gp|physio|consultant|specialist)\s+(?:says|said|thinks"
    r"|reckons|confirmed|told\s+me|tells?\s+me)\s+(?:that\s+)?"
    r"(?:it's|its|it\s+is|it\s+was|i\s+have|i've\s+got)\s+"
    rf"(?=(?:a|an)\s+(?:slipped|herniated|ruptured|prolapsed|bulging)\s+disc\b|(?:{CONDITIONS})\b)",
    _I,
)


def told_diagnosis(text: str) -> bool:
    """Whether `text` opens with what a doctor found the speaker has."""
    return bool(_TOLD_DIAGNOSIS_RE.match(text.strip()))


_BARE_FORMS = (
    (_GOT_ENGAGED_RE, lambda found: f"I got {found['how'].lower()} to {found['name']}"),
    (_NEW_ONE_NAMED_RE, lambda found: f"my new {found['rel'].lower()} is "),
    (_SOMEONE_NAMED_RE, lambda found: f"{found['verb']} "),
    (_MADE_ME_RE, "I was promoted to "),
    (_PUT_ME_ON_RE, "I am "),
    (
        re.compile(
            r"^(?:please\s+|you\s+can\s+|just\s+|feel\s+free\s+to\s+|(?:everyone|everybody|people"
            r"|(?:my\s+)?friends|most\s+people)\s+)?calls?\s+me\s+(?=(?-i:[A-Z]))",
            _I,
        ),
        "I go by ",
    ),
    (re.compile(r"^(?:the\s+)?name's\s+", _I), "my name is "),
    (_DROPPED_IVE_RE, "I've got "),
    (_TOLD_DIAGNOSIS_RE, "I have "),
    (_BEFORE_THAT_RE, lambda found: f"I previously worked {found['at'] or found['was']} "),
    (_COUNT_NOW_RE, lambda found: "I have " + found["first"].lower()),
    (_PET_NAMED_RE, "I have a "),
    (_MINE_IS_A_RE, "I have a "),
    (_THEIR_NAME_FIRST_RE, "my "),
    (_PARENT_FIRST_RE, "my "),
    (_SPOUSE_FIRST_RE, "my "),
    (_ROUTINE_FIRST_RE, "my "),
    (_THE_BABY_RE, "my baby "),
    (_NEWBORN_RE, lambda found: f"I have a baby {found['kind'].lower()} named {found['name']}"),
    (_LOST_KIN_RE, lambda found: f"{found['whose']} {found['rel']} passed away"),
    (_DROPPED_I_RE, "I "),
    (_BARE_JOB_RE, _bare_job),
    (_ONLY_JOB_RE, _only_job),
    (_BARE_AGE_RE, "I am "),
    (_PARENT_OF_RE, "I am a "),
    (_NAME_AGE_RE, "I is "),
    (_MOVED_BY_THEM_RE, r"\g<what> got moved "),
    (_MOVED_THEM_RE, _moved_them),
    (_BIRTHDAY_AGE_RE, "I turned "),
    (_DROPPED_I_AM_RE, _dropped_i_am),
    (_STATE_FIRST_RE, _dropped_i_am),
    (
        re.compile(
            rf"^(?!(?:{_NOT_INTRO})\s)(?=(?-i:[A-Z])[\w-]+(?:\s+(?-i:[A-Z])[\w-]+)?\s+here"
            r"\s*(?:,|$))",
            _I,
        ),
        "my name is ",
    ),
)
# "Lucía here", "Nurse here, 40", "Ravi here, 34": after the rewrites above, "here" goes,
# and a name that a list follows is what the speaker is ("I is Ravi, 34").
_HERE_RE = re.compile(
    r"^(?:my\s+name\s+is\s+(?P<listed>.+?)\s+here(?=\s*,)"
    r"|(?P<said>(?:my\s+name\s+is|I\s+is\s+a)\s+.+?)\s+here\b)",
    _I,
)


# "It's my birthday today!", "Tomorrow's my 30th": a day said to be the birthday, worded
# as the rows read it ("my birthday is today", "I turn 30 tomorrow"); said with no day,
# the day is the one it is said on.
_BIRTHDAY_SAID_OF_A_DAY_RE = re.compile(
    r"^(?:it(?:'s|s|\s+is)|(?P<day>today|tomorrow)(?:'s|s|\s+is))\s+my\s+"
    r"(?:(?P<nth>\d{2,3})(?:st|nd|rd|th)(?:\s+(?:birthday|bday|b-day))?|birthday|bday|b-day)"
    r"(?:\s+(?P<when>today|tomorrow|(?:on|next|this)\s+[\w-]+(?:\s+\d{1,2}(?:st|nd|rd|th)?)?)"
    r"|(?=\s*(?:[,!.]|$)))",
    _I,
)


def _birthday_first(said: re.Match[str]) -> str:
    when = said["when"] or said["day"] or "today"
    return f"I turn {said['nth']} {when}" if said["nth"] else f"my birthday is {when}"


def _here_dropped(text: str) -> str:
    if not (here := _HERE_RE.match(text)):
        return text
    return (f"I is {here['listed']}" if here["listed"] else here["said"]) + text[here.end() :]


_FIRST_RE = re.compile(
    r"^(?P<pro>i|we|(?:my\s+\w+(?:\s+(?-i:[A-Z])\w+)?|[A-Z]\w+)\s+and\s+i"
    r"|(?:i|me)\s+and\s+(?:my\s+\w+(?:\s+(?-i:[A-Z])\w+)?|[A-Z]\w+))\s+(?P<rest>.+)$",
    _I,
)
_MY_REL_RE = re.compile(
    # "our golden retriever Bailey": a word before a breed names the breed
    rf"^(?:my|our)\s+(?:(?-i:[a-z])[\w-]*\s+(?=(?:{PET_RE})\b))?"
    r"(?:(?P<which>older|younger|little|big|baby|twin|new|current|eldest|oldest"
    rf"|late|youngest|elder)\s+)?(?P<rel>{RELATION_RE})(?!\s+(?:{EVENTS})\b)(?P<tail>(?:'s\b|,|\s).*)?$",
    _I,
)
_MY_RE = re.compile(r"^(?:my|our)\s+(?P<rest>.+)$", _I)
_STILL_NOW = r"(?:now|these\s+days|again)"
_FAVORITE_LAST_RE = re.compile(
    r"^(?P<value>(?!(?:this|that|it|these|those|which|what|who|he|she|they|there)\b)[\w'-]+"
    r"(?:\s+[\w'-]+){0,2})\s+(?:is|are)\s+(?:still\s+)?my\s+(?P<top>(?:all-time\s+)?"
    rf"(?:favou?rite|fave))(?:\s+(?!{_STILL_NOW}$)(?P<noun>[\w ]{{1,20}}?))?(?:\s+{_STILL_NOW})?$",
    _I,
)
_NATIVE_LAST_RE = re.compile(
    r"^(?P<value>(?-i:[A-Z])\w+)\s+is\s+my\s+(?P<which>(?:native|first|mother)\s+(?:language"
    r"|tongue))$",
    _I,
)
# In a chat, "the" can only mean the speaker's own: "The appointment is May 16", "The defence
# got pushed to April 2", "The new team lead is Yuki".
_THE_MINE_RE = re.compile(
    rf"^the\s+(?=(?:[\w-]+\s+){{0,2}}?(?:{EVENTS})\s+(?:{_RESCHEDULED}|is|will\s+be)\s"
    rf"|(?:new|current)\s+(?:{RELATION_RE})\s+is\s)"
    # chat drops even the "the": "Flight got pushed", "Exam's been moved"
    rf"|^(?=(?:{EVENTS})(?:'s\s+been|\s+{_RESCHEDULED}|\s+(?:starts?|begins?)\s+on)[\s,])",
    _I,
)
_NAME = r"(?:(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?"
_EVENT_HAS_BEEN_RE = re.compile(rf"^(my\s+(?:[\w-]+\s+){{0,2}}?(?:{EVENTS}))'s\s+been\b", _I)
_NAMED_RE = re.compile(rf"^(?P<name>{_NAME})(?P<poss>'s)?\s+(?P<rest>.+)$")
_IS_MY_REL_RE = re.compile(rf"^is\s+(?:my|our)\s+(?:new\s+)?(?P<rel>{RELATION_RE})$", _I)


@dataclass(frozen=True)
class _Reading:
    """One way to read a clause: its subject, the predicate left, and facts on the way."""

    who: Who | None
    rest: str
    also: tuple[Parsed, ...] = ()
    we: bool = False
    vouched: bool = False
    """A relation word says the subject is a person ("my son Leo"), not just a capital."""


def speaker(clause: Clause) -> Who | None:
    """Who 'I' is in this clause: its named speaker, else the user, else nobody."""
    me = first_person(clause)
    return Who(*me) if me else None


def _relation_fact(
    me: Who, word: str, who: str, clause: Clause, *, late: bool = False
) -> Parsed | None:
    value = name(re.sub(r"'s$", "", who.strip()), clause)  # "my daughter Sara's birthday"
    if value is None:
        return None
    word = re.sub(r"\s+", " ", word.lower())
    rel = RELATIONS[word]
    slot = rel if word in UNIQUE_RELATIONS else f"{rel}:{value.key}"
    verb = "was" if late else "is"  # "my late wife, Margaret": who she was
    text = _sentence(f"{value.shown} {verb} {me.shown}'s {word}.")
    return Parsed(C.RELATIONSHIP, me.key, slot, value.key, text, person=value.shown)


def _relative(
    me: Who, word: str, tail: str, clause: Clause, *, late: bool = False
) -> list[_Reading]:
    """Readings of "my wife ...": "my wife's name is Sara", "my wife Sara is a nurse"."""
    # "My doctor is Dr. Nwosu at the Riverside practice": where they are is not their name
    said = re.match(
        r"^'s\s+name\s+is\s+(?P<name>.+)$|^is\s+(?:called\s+|named\s+)?(?P<is>" + _NAME + ")"
        r"(?:\s+(?:at|from|in)\s+(?:the\s+)?(?-i:[A-Z]).*)?$",
        tail if tail.startswith("'s") else _predicate(tail),
    )
    if said and (fact := _relation_fact(me, word, said["name"] or said["is"], clause, late=late)):
        return [_Reading(None, "", (fact,))]  # else "My partner is Swedish" says where from
    if (named := _NAMED_AFTER_S_RE.match(tail)) and (
        fact := _relation_fact(me, word, named["name"], clause, late=late)
    ):
        who = Who(fact.value, fact.person or fact.value, named=True)
        return [_Reading(who, _appositive_job(named["rest"] or ""), (fact,), vouched=True)]
    named = (
        re.match(r"^,\s*(?P<name>[^,]+?)\s*,\s*(?P<rest>.+)$", tail)
        or re.match(rf"^\s+(?P<name>{_NAME})(?:\s+(?P<rest>[a-z'].*))?$", tail)
        or (_LOWER_NAMED_RE.match(tail) if clause.text.islower() else None)
    )
    if named and (fact := _relation_fact(me, word, named["name"], clause, late=late)):
        who = Who(fact.value, fact.person or fact.value, named=True)
        return [_Reading(who, named["rest"] or "", (fact,), vouched=True)]
    if word.lower() not in UNIQUE_RELATIONS and word.lower() not in UNNAMED_KEYED:
        return []  # "my friend is vegetarian" is about someone we cannot key
    said_as = word.lower()
    rel = RELATIONS[re.sub(r"\s+", " ", said_as)]
    if said_as in _BY_AGE:
        rel = said_as = f"{said_as} child"  # "my youngest": one child, which of them said
    who = Who(f"{me.key}'s {rel}", f"{me.shown}'s {said_as}")
    if tail.startswith("'s "):
        return _possessive_readings(who, tail[3:])
    return [_Reading(who, tail.strip())] if tail.strip() else []


_BY_AGE = frozenset({"youngest", "eldest", "oldest"})
# "Partner's Ruaridh, secondary maths teacher": "'s" and a name that ends the clause or
# comes before a comma is who they are ("My wife's Italian" is where she is from: no name).
_NAMED_AFTER_S_RE = re.compile(rf"^'s\s+(?P<name>{_NAME})\s*(?:$|[.!]+$|,\s*(?P<rest>.+)$)")
_APPOSITIVE_JOB_RE = re.compile(rf"^(?:[\w-]+\s+){{0,3}}?(?:{JOB_HEAD_RE})\b", _I)


def _appositive_job(rest: str) -> str:
    """What follows the name, as a predicate: a job said alone there is what they are."""
    return f"is a {rest}" if _APPOSITIVE_JOB_RE.match(rest) else rest


# "my girlfriend tamsin is a hairdresser": typed all lowercase, the word between the relation
# and a verb names them, unless it says when or how ("my girlfriend still is", "... really").
_LOWER_NAMED_RE = re.compile(
    r"^\s+(?P<name>(?!(?:still|always|never|often|already|again|too|even|only|usually|sometimes"
    r"|recently|finally|totally)\b)(?![a-z]+ly\b)[a-z][a-z'-]+)"
    r"\s+(?P<rest>(?:is|was|works|lives|has|just|got|started|moved|does|teaches|drives|runs)\s.+)$"
)


# "Next month I'm off to Lisbon": a trip's when, said first, which the lead-ins would drop.
_WHEN_FIRST_RE = re.compile(
    r"^(?P<when>(?:next|this)\s+(?:week(?:end)?|month|year|spring|summer|fall|autumn|winter)"
    r"|in\s+(?:a\s+few|two|three)\s+(?:days|weeks|months))\s*,?\s+"
    r"(?P<trip>(?:i'm|i\s+am|we're|we\s+are)\s+(?:(?:off|going|flying|heading|travell?ing|driving)"
    r"\s+to|having|hosting|throwing|running|playing\s+in|competing\s+in|performing\s+(?:at|in))"
    r"\s+[^,.!?]+)[.!]*$",
    _I,
)


# "a rescue greyhound called biscuit", typed all in lowercase: the word "called" gives a
# pet or a relative is their name ("a dog called out" gives none).
_LOWER_CALLED_RE = re.compile(
    rf"\b(?:{RELATION_RE})\s+(?:called|named)\s+"
    r"(?!(?:out|back|up|in|off|me|us|him|her|it|them|and|but|so|because)\b)(?P<first>[a-z])",
    _I,
)


def _lower_called_named(text: str) -> str:
    if not text.islower():
        return text
    return _LOWER_CALLED_RE.sub(lambda m: m[0][:-1] + m["first"].upper(), text, count=1)


# Chat spelling of "trying to": "tryna quit dip".
_TRYNA_RE = re.compile(r"\btryna\b", _I)


def _readings(clause: Clause, named: bool) -> list[_Reading]:
    text = _WHEN_FIRST_RE.sub(lambda m: f"{m['trip']} {m['when'].lower()}", clause.text.strip())
    if birthday := _BIRTHDAY_SAID_OF_A_DAY_RE.match(text):  # before "Today" is cut as a lead-in
        text = _birthday_first(birthday) + text[birthday.end() :]
    text = _lower_called_named(_TRYNA_RE.sub("trying to", text))
    text = _LEAD_IN_RE.sub("", _LABELLED_RE.sub(_labelled, text, count=1))
    for regex, replacement in (*_BARE_FORMS, *_CONTRACTIONS):
        text = regex.sub(replacement, text, count=1)
    text = _here_dropped(text)
    me = speaker(clause)
    if _household(clause):
        text = _THE_MINE_RE.sub("my ", text, count=1)
        text = _EVENT_HAS_BEEN_RE.sub(r"\1 has been", text, count=1)
    if native := _NATIVE_LAST_RE.match(text):
        text = f"my {native['which']} is {native['value']}"
    if favorite := _FAVORITE_LAST_RE.match(text):
        noun = f" {favorite['noun']}" if favorite["noun"] else ""
        text = f"my {favorite['top']}{noun} is {favorite['value']}"
    if named:
        named_match = _NAMED_RE.match(text)
        return _named_readings(named_match, me, clause) if named_match else []
    if me is not None and (first := _FIRST_RE.match(text)):
        return [_Reading(me, first["rest"], we=first["pro"].lower() != "i")]
    if me is not None and (rel := _MY_REL_RE.match(text)):
        late = (rel["which"] or "").lower() == "late"
        return _relative(me, rel["rel"], rel["tail"] or "", clause, late=late)
    if me is not None and (named_match := _NAMED_RE.match(text)):
        relation_only = _named_readings(named_match, me, clause)[:1]
        if relation_only and relation_only[0].who is None:
            return relation_only  # "Tom is my manager", before the role rule reads a title
    if me is not None and (mine := _MY_RE.match(text)):
        return [_Reading(me, "my " + mine["rest"], we=text[:3].lower() == "our")]
    return []


def _named_readings(named: re.Match[str], me: Who | None, clause: Clause) -> list[_Reading]:
    """Readings of "Sara lives in Rome", "Sara's birthday is...", "Sara is my wife"."""
    name_, poss = named["name"], bool(named["poss"])
    if name_.endswith("'s"):  # "Sam's birthday": the name pattern keeps the apostrophe
        name_, poss = name_[:-2], True
    if not is_name(name_):
        return []
    rest = named["rest"]
    said = f"is {rest}" if poss else rest  # "Anna's my cousin"
    if me is not None and (rel := _IS_MY_REL_RE.match(_predicate(said))):
        fact = _relation_fact(me, rel["rel"], name_, clause)
        return [_Reading(None, "", (fact,))] if fact else []
    who = Who(name_.lower(), person(name_), named=True)
    if poss and (kin := _KIN_FIRST_RE.match(rest)):  # "Priya's parents live in Mumbai"
        return _relative(who, kin["rel"], kin["tail"] or "", clause)
    if poss:
        return _possessive_readings(who, rest)
    return [_Reading(who, rest)]


# "Femke's got a job", "Mum's gone into a home": before a participle "'s" is "has".
_PARTICIPLE_RE = re.compile(
    r"^(?:(?:just|now|finally|recently|already)\s+)?(?:got|been|gone|moved|started|left|retired"
    r"|become|taken|found|bought|sold|joined|switched|quit)\b",
    _I,
)


def _possessive_readings(who: Who, rest: str) -> list[_Reading]:
    """ "Sara's" is her birthday, or "Sara is", or before a participle "Sara has"."""
    readings = [_Reading(who, "my " + rest), _Reading(who, "is " + rest)]
    if _PARTICIPLE_RE.match(rest):
        readings.insert(0, _Reading(who, "has " + rest))
    return readings


_KIN_FIRST_RE = re.compile(rf"^(?P<rel>{RELATION_RE})(?P<tail>\s.*)$", _I)


# --- predicates --------------------------------------------------------------------------

_ADVERBS = (
    r"(?:(?:now|currently|also|still|just|recently|finally|mostly|mainly|usually|actually"
    r"|officially|already|primarily|generally|basically|both|even|really|happily|proudly"
    r"|lately|definitely|totally|newly|legally|technically|kind\s+of|sort\s+of)\s+)*"
)
_NORMAL_FORMS = (
    (re.compile(r"^(?:am|are|is)\b", _I), "is"),
    (re.compile(r"^(?:do\s+not|don't|does\s+not|doesn't|didn't|did\s+not)\b", _I), "doesn't"),
    (re.compile(r"^(?:can\s*not|can't)\b", _I), "can't"),
    (re.compile(r"^(?:will\s+not)\b", _I), "won't"),
    (re.compile(r"^(?:have|has|haves)\s+(?:got\s+)?", _I), "has "),
    # "My accountant is a guy called Steve Moss": the name is what the relation is
    (
        re.compile(
            r"^is\s+(?:a|this)\s+(?:guy|man|woman|lady|bloke|chap|fella|girl|lad|person|company"
            r"|firm|business|agency)\s+"
            r"(?:called|named)\s+(?=(?-i:[A-Z]))",
            _I,
        ),
        "is ",
    ),
    # "They made me a senior associate", "I got made partner": a promotion.
    (
        re.compile(
            rf"^(?:got|was|is)\s+made\s+(?=(?:(?:a|an|the)\s+)?(?:[\w-]+\s+){{0,3}}?"
            rf"(?:{JOB_HEAD_RE})\b)",
            _I,
        ),
        "was promoted to ",
    ),
    # "I've moved everything over to Obsidian" is a switch to it.
    (
        re.compile(
            r"^(?:has\s+)?moved\s+(?:everything|it\s+all|all\s+my\s+\w+)\s+(?:over\s+)?to\b", _I
        ),
        "switched to",
    ),
    # "I've started going to a book club on Tuesdays" goes there now.
    (re.compile(rf"^(?:has\s+)?{_ADVERBS}(?:started|begun|began)\s+going\s+to\b", _I), "goes to"),
    # "I'm 8 weeks into learning the cello" is learning it.
    (
        re.compile(
            r"^is\s+(?:\w+\s+){1,2}(?:days?|weeks?|months?|years?)\s+into\s+(?=\w+ing\s)", _I
        ),
        "is ",
    ),
    # "..., got my driving test in March": an event ahead, said in a list without "I've"
    (re.compile(rf"^got\s+(?={_EVENT_WHEN})", _I), "has "),
    # A move still ahead is a plan: home changes when it happens.
    (re.compile(r"^is\s+(?:moving|relocating)\s+to\b", _I), "is planning to move to"),
    # "an agency in Lisbon called Tidal": the name stays with what it names.
    (
        re.compile(rf"^(.+?)\s+(in\s+{PLACE_NAME})\s+((?:called|named)\s+(?-i:[A-Z]).*)$", _I),
        r"\1 \3 \2",
    ),
)


_FILLER_END_RE = re.compile(
    r"(?:\s+(?:now|too|anymore|any\s+more|again|instead|as\s+well|these\s+days|lately"
    r"|currently|at\s+the\s+moment|for\s+now|though|by\s+the\s+way|btw|lol|haha|tbh|honestly"
    r"|to\s+be\s+honest|imo|rn|atm|right\s+now|back\s+home|there"
    r"|if\s+(?:that|it)\s+(?:matters|helps)|if\s+(?:that's\s+)?relevant"
    # "I've got fibromyalgia myself" has it too; "I live by myself" says how, and stays
    r"|(?<!\bby\s)(?<!\bfor\s)(?<!\bto\s)(?<!\bof\s)(?<!\bwith\s)(?<!\babout\s)"
    r"(?:my|him|her)self))+$",
    _I,
)
# "I've switched to Chrome" says what "I switched to Chrome" says.
_HAS_DONE_RE = re.compile(
    r"^(?:has|have|'ve|had)\s+(?:(?:just|already|finally|recently|now)\s+)?(?!lived\b|worked\s+as\b)"
    r"(?=(?:\w+ed|bought|got|sold|left|quit|gone|become|taken|made"
    r"|begun|grown|given\s+up)\b)",
    _I,
)
# "I try to eat vegan" says "I eat vegan"; but trying to quit is a goal, not a habit.
_TRYING_RE = re.compile(
    rf"^(?:is\s+)?(?:try|tries|tend|tends|trying)\s+to\s+(?!{_QUITTING}|{_SOUGHT})", _I
)
# "I've been learning X" says what "I'm learning X" says, "I've been vegan" "I'm vegan".
_BEEN_DOING_RE = re.compile(r"^(?:has|have|'ve)\s+been\s+(?!to\b|there\b)", _I)


_EMOJI_RE = re.compile(r"[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F\u200D]+")


def _predicate(rest: str) -> str:
    """'am now living in X' -> 'is living in X': one verb form for every subject."""
    rest = _EMOJI_RE.sub("", rest).strip(" .,!;")
    rest = re.sub(rf"^{_ADVERBS}", "", _FILLER_END_RE.sub("", rest), flags=_I)
    rest = _BEEN_DOING_RE.sub("is ", _HAS_DONE_RE.sub("", _TRYING_RE.sub("", rest)))
    for regex, replacement in _NORMAL_FORMS:
        rest = regex.sub(replacement, rest, count=1)
    return re.sub(rf"^(is|has|doesn't)\s+{_ADVERBS}", r"\1 ", rest, flags=_I).strip()


def _article(shown: str) -> str:
    """ "a " or "an ", by the sound: "an SRE", "a UX writer", "a university", "an owl"."""
    return indefinite_article(shown) + " "


def _render(template: str, who: Who, shown: str, noun: str) -> str:
    article = _article(shown)
    # "uses hearing aids"; but "a master's", "a Yaris" are one thing
    if re.search(r"[^su']s$", shown) and not shown.split()[-1][:1].isupper():
        article = ""
    if shown.lower() == noun:  # "I'm on a bike now": a bike, not "bike as their bike"
        template = template.replace("{value} as {their} {noun}", "{a_value}")
    text = template.format(
        who=who.shown,
        whose=f"{who.shown}'s",
        their="their",
        value=shown,
        a_value=f"{article}{shown}",
        noun=noun,
    )
    if re.search(r"[^siu]s$", noun):  # "The user's exams are on June 2"
        text = re.sub(rf"\b({re.escape(noun)}) is\b", r"\1 are", text, count=1)
    if _PLURAL_WHO_RE.search(who.shown):
        text = _VERB_AFTER_RE.sub(lambda m: f"{m[1]} {_PLURAL_VERBS[m[2]]}", text, count=1)
    return _sentence(text)


# "The user's parents live in Lagos": kin said in the plural take the plural verb.
_PLURAL_KIN = r"parents|grandparents|in-laws"
_PLURAL_WHO_RE = re.compile(rf"'s\s+(?:{_PLURAL_KIN})$")
_PLURAL_VERBS = {"is": "are", "was": "were", "has": "have", "lives": "live", "works": "work"}
_VERB_AFTER_RE = re.compile(rf"({_PLURAL_KIN})\s+({'|'.join(_PLURAL_VERBS)})\b")


def _sentence(text: str) -> str:
    """Capitalised at the start; 'the user' in lowercase anywhere else."""
    return text[:1].upper() + re.sub(r"\bThe user\b", "the user", text[1:])


def _no_longer(text: str) -> str:
    """ "The user is vegetarian." -> "The user is no longer vegetarian."; a text that
    already says so ("The user no longer has their car.", a facet of selling) as it is."""
    if re.search(r"\bno\s+longer\b", text):
        return text
    if re.search(r"\s(?:is|are|has\s+been)\s", text):
        return re.sub(r"\s(is|are|has\s+been)\s", r" \1 no longer ", text, count=1)
    return re.sub(r"^((?:\S+'s\s+|The\s+)?\S+)\s", r"\1 no longer ", text, count=1)


def _slot_key(key: str) -> str:
    """A value as a slot part, singular: 'peanuts' and 'peanut' are one allergy, and
    "parkinson's" keeps its name whole."""
    parts = re.sub(r"'s$", "", key).split()
    if parts and re.search(r"[^sueio]s$", parts[-1]) and len(parts[-1]) > 3:
        parts[-1] = parts[-1][:-1]
    return " ".join(parts)


def _kind(facet: str, row: Row, value: Value, match: re.Match[str]) -> str:
    groups = match.groupdict()
    if row.kind:
        return row.kind
    if facet in ("relation", "children", "aged", "household") and "kind" in groups:
        # "a 2-year-old named Ava": a child, whose kind goes unsaid.
        word = re.sub(r"\s+", " ", (groups["kind"] or "kid").lower())
        rel = RELATIONS[word]
        return rel if word in UNIQUE_RELATIONS or facet != "relation" else f"{rel}:{value.key}"
    if facet == "likes":
        return preference_slot(value.key)
    if facet in ("event", "event month"):  # "my thesis defence" and "the defence" are one event
        return re.sub(r"\s+", " ", groups["head"].lower()).replace(
            "defense", "defence"
        )  # the preference rule's slot, so "I hate X" meets it
    if value.kind:
        return value.kind
    noun = (groups.get("noun") or "").strip().lower()
    return _NOUN_SLOTS.get(facet, "") + noun if noun else noun


# Slots named by the noun a sentence gives: "my editor is" (tool:editor), "my car's a" (owns:car).
_NOUN_SLOTS = {"uses": "tool:", "my thing": "owns:"}


def _noun(kind: str, match: re.Match[str]) -> str:
    """The noun a fact's sentence names its kind by: "editor", "sister"."""
    groups = match.groupdict()
    # A kind the row could name but the sentence left out ("a 2-year-old named Ava") is a child.
    unnamed = "child" if "kind" in groups else ""
    noun = groups.get("noun") or groups.get("kind") or unnamed
    # "my flight to Rome": the place keeps its capital
    noun = " ".join(w if n and w[:1].isupper() else w.lower() for n, w in enumerate(noun.split()))
    return _CHILD_NOUNS.get(noun, noun) or kind.split(":", 1)[-1]


# "twin girls, Ada and Ella": Ada is the user's daughter.
_CHILD_NOUNS = {"girl": "daughter", "boy": "son"}


def _build(
    facet_name: str, row: Row, who: Who, raw: str, match: re.Match[str], clause: Clause
) -> Parsed | None:
    facet = FACETS[facet_name]
    value = facet.read(raw, clause)
    if value is None:
        return None
    kind = _kind(facet_name, row, value, match)
    if "{kind}" in facet.slot and not kind:
        return None
    slot = facet.slot.format(key=_slot_key(value.key), kind=kind)
    text = _render(facet.text, who, value.shown, _noun(kind, match))

    def rebuild(other: str) -> Parsed | None:
        return _build(facet_name, row, who, other, match, clause)

    return Parsed(
        facet.category,
        who.key,
        slot,
        (row.prefix if facet_name == row.facet else "") + value.key,
        text,
        # "married to Ana": Ana is whom a later "she" means
        person=who.shown if who.named else value.shown if facet_name == "relation" else None,
        rebuild=rebuild,
        denied_text=_no_longer(text),
    )


# "shellfish, keep that in mind": a list ends where an aside to the listener begins.
_ASIDE_RE = re.compile(
    r"^(?:keep|please|remember|note|bear|make|be|don't|do|just|thanks|thank|fyi|lol|haha|carry"
    r"|always|need|so|funnily|weirdly|oddly|ironically|apparently|believe|sadly|annoyingly"
    r"|unfortunately|luckily|though|too|as\s+well"
    r"|if|let|so|you|that's|it's|which|in\s+case)\b",
    _I,
)


def _values(row: Row, raw: str) -> list[str]:
    if not row.many:
        return [raw]
    items = [v for v in re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+", raw) if v]
    # "allergic to shellfish and also to latex": the list repeats its "to"
    items = [
        re.sub(r"^(?:also\s+)?(?:to\s+)?", "", item, flags=_I) if n else item
        for n, item in enumerate(items)
    ]
    aside = next((n for n, item in enumerate(items) if n and _ASIDE_RE.match(item)), len(items))
    return items[:aside]


def _row_facts(row: Row, reading: _Reading, clause: Clause, match: re.Match[str]) -> list[Parsed]:
    """The facts of `row`, whose pattern `match`ed the reading's predicate."""
    assert reading.who is not None
    if row.others_only and reading.who == speaker(clause):
        return []
    built = [
        (raw, fact)
        for raw in _values(row, match["value"])
        if (fact := _build(row.facet, row, reading.who, raw, match, clause))
    ]
    found = _one_per_slot(built, row, reading.who, match, clause)
    if not found:
        return []
    for group, raw in match.groupdict().items():
        if raw and group in FACETS and group != row.facet:
            extra = _build(group, row, reading.who, raw, match, clause)
            found.extend([extra] if extra else [])
    return found


def _one_per_slot(
    built: list[tuple[str, Parsed]], row: Row, who: Who, match: re.Match[str], clause: Clause
) -> list[Parsed]:
    """A list's values that fill one slot are one fact: "TypeScript and Go" are both the
    programming language, where two facts would have the second supersede the first."""
    slots: dict[str, list[str]] = {}
    for raw, fact in built:
        slots.setdefault(fact.slot, []).append(raw)
    out = []
    for raw, fact in built:
        shared = slots[fact.slot]
        if len(shared) == 1:
            out.append(fact)
        elif raw == shared[0]:
            joined = _build(row.facet, row, who, _listed(shared, row, clause), match, clause)
            out.append(joined or fact)
    return out


def _listed(raws: list[str], row: Row, clause: Clause) -> str:
    """ "Python, Rust and Go": the values as read, "some Go" as "Go"."""
    shown = [v.shown for raw in raws if (v := FACETS[row.facet].read(raw, clause))]
    return f"{', '.join(shown[:-1])} and {shown[-1]}"


# What a sentence about a named person may say: a capitalised word is not always a person
# ("Pets are great at making you feel loved"), so only facts hard to read any other way.
_ABOUT_OTHERS = frozenset(
    {
        "home",
        "hometown",
        "employer",
        "retired from",
        "serves",
        "business",
        "run business",
        "title",
        "team",
        "diet",
        "allergy",
        "intolerance",
        "avoids",
        "condition",
        "health state",
        "diagnosis",
        "birthday",
        "anniversary",
        "speaks",
        "age",
        "age in words",
        "loss",
        "fear",
    }
)


# "Ana's in Lisbon these days": where someone named is, said as lasting, is their home;
# so is where they have been for years, or since a change in their life ("since he
# started on the rigs").
_SETTLED_RE = re.compile(
    r"\b(?:these\s+days|nowadays|for\s+good|now"
    r"|for\s+(?:\w+\s+)?(?:years|months)|since\s+(?:(?:he|she|they)\s+\w+|(?:19|20)\d\d))\b",
    _I,
)


def _about_others(row: Row, clause: Clause) -> bool:
    if row.facet == "whereabouts":
        return bool(_SETTLED_RE.search(clause.text))
    return row.facet in _ABOUT_OTHERS


def _household(clause: Clause) -> bool:
    """Whether 'we' can be the speaker's household: not in a project's stream, where 'we'
    is the team ("we moved to Postgres")."""
    return clause.subject == "global"


def _table_facts(reading: _Reading, clause: Clause, negated: bool) -> list[Parsed]:
    # Runs for most clauses over all rows: what does not change from row to row is
    # worked out once.
    rest = reading.rest.strip(" .,!;:")
    named = reading.who is not None and reading.who.named
    for row, pattern in _table_patterns():
        if (negated and not row.negated) or (reading.we and not (row.we and _household(clause))):
            continue
        if named and not reading.vouched and not _about_others(row, clause):
            continue
        match = pattern.fullmatch(rest)
        if match is not None and (found := _row_facts(row, reading, clause, match)):
            return found
    return []


@cache
def _table_patterns() -> tuple[tuple[Row, re.Pattern[str]], ...]:
    return tuple((row, _compiled(row.pattern)) for row in TABLE)


_LIST_SPLIT_RE = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+")
# "is 5'10 and 80kg", "is 34 and married": two short things the subject is.
_SHORT_PAIR_RE = re.compile(r"^(?:[\w'-]+\s+){0,2}[\w'-]+\s+and\s+(?:[\w'-]+\s+){0,2}[\w'-]+$")
_COUNTED_RE = re.compile(r"^(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\s", _I)


def _predicate_facts(reading: _Reading, clause: Clause, negated: bool) -> list[Parsed]:
    """What the predicate says, and what its later comma parts say as verb phrases of their
    own ("based in Lisbon, moved from Toronto last year")."""
    rest = _predicate(reading.rest)
    found = _predicate_read(reading, rest, clause, negated)
    if negated:
        return found
    seen = {(f.slot, f.value) for f in found}
    later = (f for part in rest.split(",")[1:] for f in _dropped_i_facts(reading, part, clause))
    return [*found, *(f for f in later if (f.slot, f.value) not in seen)]


def _predicate_read(reading: _Reading, rest: str, clause: Clause, negated: bool) -> list[Parsed]:
    """The whole predicate; else each part of a list of what the subject is ("is Priya, a
    PM at Initech", "is 58, married, two adult kids"); else the part before a comma or a
    dash ("plays the piano, badly", "has three kids - 12, 9 and 4")."""
    if found := _table_facts(replace(reading, rest=rest), clause, negated):
        return found
    if rest.lower().startswith("is ") and ("," in rest or _SHORT_PAIR_RE.match(rest[3:])):
        parts = [p for p in _LIST_SPLIT_RE.split(rest[3:]) if p]
        parts = _ages_kept(parts)
        listed = [_listed_facts(reading, p, clause, negated) for p in parts]
        # "I'm getting there, Caroline": a list is one when its first part reads as a fact;
        # otherwise the name after the comma is the person spoken to.
        if listed[0]:
            return [f for part in listed for f in part]
    # "quit dip too, 2 weeks clean": the filler before the comma goes as at the end
    head = _FILLER_END_RE.sub("", _TAIL_RE.split(rest, maxsplit=1)[0])
    return _table_facts(replace(reading, rest=head), clause, negated) if head != rest else []


_TAIL_RE = re.compile(r",|\s+[-–—]+\s+|\s+(?:so|because|but)\s+")


# A list's part that says what the speaker does: "..., live in Hanoi with my partner Minh",
# or where they have been since: "..., been in Winnipeg three years now".
_LISTED_VERB_RE = re.compile(
    r"^(?:live|work|study|teach|run|own|speak|have|(?:got|bought|found|rented)\s+(?:a|an|my|our)"
    r"|been\s+in(?=\s+(?-i:[A-Z])))\s",
    _I,
)


def _dropped_i_facts(reading: _Reading, part: str, clause: Clause) -> list[Parsed]:
    """A later part that is a verb phrase of its own: "I live in Lisbon, moved from Toronto
    last year"."""
    part = part.strip()
    if not (_DROPPED_I_RE.match(part) or _LISTED_VERB_RE.match(part)):
        return []
    part = re.sub(r"^been\s", "has been ", part, flags=_I)  # "is in", as the predicate reads it
    return _table_facts(replace(reading, rest=_predicate(part)), clause, False)


_COUNTS_RE = re.compile(r"\b(?:\d+|two|three|four|five|six)\s+(?:[\w-]+\s+)?[\w-]+s\b", _I)


def _ages_kept(parts: list[str]) -> list[str]:
    """The list's parts, less numbers that are the ages of people it counted ("a dad of two
    girls, 8 and 11"); a number after a name is the subject's own ("Ravi, 34")."""
    kept = parts[:1]
    for part in parts[1:]:
        if not (part.strip().isdigit() and any(_COUNTS_RE.search(k) for k in kept)):
            kept.append(part)
    return kept


def _listed_facts(reading: _Reading, part: str, clause: Clause, negated: bool) -> list[Parsed]:
    """One part of such a list: what the subject is, has ("two adult kids"), or where they
    work ("at King's College")."""
    part = re.sub(r"^(?:currently|now|still)\s+(?=at\s)", "", part, flags=_I)
    if office := _OFFICE_PART_RE.match(part):  # "..., Stockholm office"
        return _table_facts(
            replace(reading, rest=f"my office is in {office['place']}"), clause, negated
        )
    verb = "has" if _COUNTED_RE.match(part) else "works" if part.startswith("at ") else "is"
    found = _table_facts(replace(reading, rest=_predicate(f"{verb} {part}")), clause, negated)
    if not found and verb == "is" and not _ARTICLE_RE.match(part):
        # "41, dad of two, software architect at a bank": a list drops its articles.
        found = _table_facts(replace(reading, rest=f"is a {part}"), clause, negated)
    return found


_ARTICLE_RE = re.compile(r"^(?:a|an|the)\s", _I)
_OFFICE_PART_RE = re.compile(
    r"^(?:the\s+)?(?P<place>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)\s+office$", _I
)


# "with my wife Sara": a relation named in passing is a fact too.
_MENTION_RE = re.compile(
    rf"(?i:\b(?:my|our)\s+(?:(?:older|younger|little|big|baby|twin|new)\s+)?(?P<rel>{RELATION_RE}))"
    rf",?\s+(?P<name>{_NAME})\b"
)


# "because of my migraines", "since my back surgery": the speaker's own, said in passing.
_CONDITION_MENTION_RE = re.compile(
    r"(?i:\b(?:because\s+of|due\s+to|with|since|after|from|for|helps?\s+(?:with\s+)?)\s+my\s+"
    rf"(?P<what>{CONDITIONS}|(?P<surgery>(?:[\w-]+\s+)?(?:surgery|operation|replacement))))\b"
)
# "visiting my parents in Lagos": where family is visited is where they live.
_KIN_IN_PLACE_RE = re.compile(
    r"(?i:\b(?:visit(?:ing|ed|s)?|see(?:ing|s)?|saw|stay(?:ing|ed)?\s+with|call(?:ing|ed)?"
    r"|back\s+from|missing|miss)\s+(?:my|our)\s+(?P<rel>parents|grandparents|in-laws|mum|mom"
    r"|dad|mother|father|sister|brother|grandma|grandpa|grandmother|grandfather|aunt|uncle|son"
    r"|daughter))\s+in\s+"
    r"(?P<place>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)\b"
)
# "the commute to my office in Reading"
_OFFICE_IN_RE = re.compile(
    r"(?i:\bmy\s+office\s+in)\s+(?P<place>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)\b"
)
# "before my insulin runs out", "picking up my statins": a medicine kept in supply is one
# taken ("I stopped my statins" says neither of these)
_MEDICINE_MENTION_RE = re.compile(
    rf"(?i:\b(?:(?:pick(?:ing)?\s+up|collect(?:ing)?|refill(?:ing)?|reorder(?:ing)?)\s+my\s+"
    rf"(?P<got>{MEDICATIONS})|my\s+(?P<held>{MEDICATIONS})\s+(?:runs?\s+out|is\s+running\s+out"
    r"|prescription|refill)))\b"
)
# "My knee op is the Monday after": the operation ahead, said by its day.
_SURGERY_AHEAD_RE = re.compile(
    rf"(?i:\bmy\s+(?P<what>{_OPERATION})"
    r"(?:\s+is|'s)\s+(?:on|in|next|this|the|booked|scheduled|tomorrow)\b)"
)
# "with my wife and our two boys": so is a count of them.
_COUNT_MENTION_RE = re.compile(
    rf"(?i:\b(?:my|our|with\s+my\s+[^,.;]{{1,40}}?\s+and|(?:{MARITAL_STATUSES})\s+with)"
    r"\s+(?P<count>twins|triplets|(?:two|three|four|five|six|\d)"
    r"\s+(?:little\s+|young\s+)?"
    rf"(?:{RELATION_RE})(?:s|ren)?))\b"
)


def _mentions(
    clause: Clause, me: Who | None, *, opening: bool = False, conditions: bool = True
) -> list[Parsed]:
    """Relatives named in passing; `opening` takes one the clause starts with too, where
    no reading of the clause's own names them. A condition said in passing ("because of my
    migraines") is taken only beside a reading of the clause's own (`conditions`): alone,
    the clause may be what a denial denies ("I can't run since my knee surgery")."""
    if me is None:
        return []
    found = [
        _relation_fact(me, m["rel"], m["name"], clause)
        for m in _MENTION_RE.finditer(clause.text)
        if (m.start() > 0 or opening)
        and (_household(clause) or not m[0].lower().startswith("our"))  # a team's "our"
    ]
    said = [f"My {m['rel']} lives in {m['place']}" for m in _KIN_IN_PLACE_RE.finditer(clause.text)]
    said += [f"My office is in {m['place']}" for m in _OFFICE_IN_RE.finditer(clause.text)]
    said += [f"I take {m['got'] or m['held']}" for m in _MEDICINE_MENTION_RE.finditer(clause.text)]
    said += [f"I'm having a {m['what']}" for m in _SURGERY_AHEAD_RE.finditer(clause.text)]
    said += [
        f"I {'had' if m['surgery'] else 'have'} {m['what']}"
        for m in (_CONDITION_MENTION_RE.finditer(clause.text) if conditions else ())
    ]
    for statement in said:
        if stated := _read(replace(clause, text=statement)):
            found += [stated, *stated.also]
    for m in _COUNT_MENTION_RE.finditer(clause.text):
        # "My two kids are ..." at the start is the clause's own reading; "My twins" is not.
        opening = m.start() == 0 and m[0].lower().startswith(("my", "our"))
        if not opening or m["count"].lower() in ("twins", "triplets"):
            found += _table_facts(_Reading(me, f"has {m['count']}"), clause, False)
    return [f for f in found if f is not None]


# Clauses without a first-person word or a capitalised start say nothing these rules read;
# one search skips them, which matters for chat where most clauses state nothing.
_SPEAKER_CUE_RE = re.compile(
    r"\b(?:i|i'm|im|i've|ive|my|we|we're|we've|our|me|name's)\b|\s+here\s*(?:,|$)", _I
)


def _speaker_cued(text: str) -> bool:
    if _SPEAKER_CUE_RE.search(text) or _LABELLED_RE.match(text.strip()):
        return True
    bare = _LEAD_IN_RE.sub("", text.strip())
    cues = (
        _TOLD_DIAGNOSIS_RE,
        _DROPPED_I_RE,
        _DROPPED_IVE_RE,
        _PUT_ME_ON_RE,
        _COUNT_NOW_RE,
        _NEW_ONE_NAMED_RE,
        _GOT_ENGAGED_RE,
        _PET_NAMED_RE,
        _MINE_IS_A_RE,
        _THEIR_NAME_FIRST_RE,
        _PARENT_FIRST_RE,
        _SPOUSE_FIRST_RE,
        _ROUTINE_FIRST_RE,
        _THE_BABY_RE,
        _NEWBORN_RE,
        _DROPPED_I_AM_RE,
        _STATE_FIRST_RE,
        _THE_MINE_RE,
        _BARE_JOB_RE,
        _ONLY_JOB_RE,
        _BARE_AGE_RE,
        _NAME_AGE_RE,
        _PARENT_OF_RE,
    )
    return any(r.match(bare) for r in cues)


# "I speak Polish, that might help": a comment after the statement, no wish of its own.
_COMMENT_TAIL_RE = re.compile(
    r",\s*(?:that|which|this|it)\s+(?:might|could|would|should|may)\s+[^,]*$", _I
)


def _read(clause: Clause, negated: bool = False, named: bool = False) -> Parsed | None:
    cued = clause.text[:1].isupper() if named else _speaker_cued(clause.text)
    if not cued:
        return None
    if _UNREAL_RE.search(_COMMENT_TAIL_RE.sub("", clause.text)):
        # "Our cat Pepper would hate that": who someone is holds whatever the mood.
        unreal = negated or named
        mentions = _mentions(clause, speaker(clause), opening=True, conditions=False)
        return None if unreal else _joined(mentions)
    for reading in _readings(clause, named):
        if reading.who is None:
            return _joined(list(reading.also))
        found = [*_predicate_facts(reading, clause, negated), *reading.also]
        if found:
            return _joined(found if negated else [*found, *_mentions(clause, speaker(clause))])
    return (
        None if negated or named else _joined(_mentions(clause, speaker(clause), conditions=False))
    )


def _joined(facts: list[Parsed]) -> Parsed | None:
    """The first fact, carrying the others: one clause can state several."""
    facts = [f for f in facts if f is not None]
    return replace(facts[0], also=tuple(facts[1:])) if facts else None


def personal(clause: Clause) -> Parsed | None:
    """What the speaker says about themselves or the people around them."""
    return _read(clause)


def personal_negated(clause: Clause) -> Parsed | None:
    """The negated statements that are facts all the same: "I don't eat pork"."""
    return _read(clause, negated=True)


def people(clause: Clause) -> Parsed | None:
    """The same facts about a named person ("Sara lives in Rome"). It runs after the team
    rules, so "Raj is the Lead Architect" stays a role."""
    return _read(clause, named=True)


def people_negated(clause: Clause) -> Parsed | None:
    return _read(clause, negated=True, named=True)


RULES = (personal,)
"""Before the team rules: "I prefer vim as my editor" is a tool before a preference."""
LATE_RULES = (people,)
NEGATION_AWARE = (personal_negated,)
LATE_NEGATION_AWARE = (people_negated,)


# "The Corolla is a 2017, and I sold it": 'it' is the last thing named before it.
_GONE_IT_RE = re.compile(
    r"\b(?P<verb>sold|gave\s+away|got\s+rid\s+of|traded\s+in|totaled|totalled|crashed"
    r"|returned|lost)\s+(?:it|them)\b",
    _I,
)


# "My manager is super chill, her name is Dana": the name is the relative's.
_THEIR_NAME_AFTER_RE = re.compile(
    rf"\b(?P<my>my|our)\s+(?:(?:new|current|older|younger|little|big)\s+)?(?P<rel>{RELATION_RE})\b"
    r"(?P<between>[^.!?;]{0,80}?(?:,|[.!?]|\s+and)\s+)(?P<theirs>his|her|their)\s+name\s+is\b",
    _I,
)


_ONE_OF_A_KIND_RE = "|".join(
    re.escape(word).replace(r"\ ", r"\s+")
    for word in sorted(UNIQUE_RELATIONS, key=len, reverse=True)
)
# "Switched dentists - I see Dr. Lind now": whom one sees since is the new one.
_SWITCHED_RE = re.compile(
    rf"(?P<start>^|(?<=[.!?])\s+)(?:(?:i|we)\s+(?:have\s+)?|(?:i|we)'ve\s+)?(?:just\s+)?"
    rf"(?:switched|changed)\s+(?P<rel>{_ONE_OF_A_KIND_RE})s\s*(?:[-–—,:;]|\s+and)\s*"
    r"(?:(?:i|we)\s+(?:see|go\s+to|use|have)|(?:i'm|we're)\s+with|(?:the\s+)?new\s+one\s+is)"
    r"\s+(?P<who>(?:(?:dr|mr|mrs|ms|prof)\.\s+)?[^.!?]+?)(?:\s+now)?(?=[.!?]|$)",
    _I,
)


# "We have two daughters, Zuzia is 7 and Ola is 4": the children counted, named with
# their ages.
_AGE_NAMED = r"(?-i:[A-Z])[\w'-]+\s+is\s+\d{1,2}"
_COUNTED_NAMED_RE = re.compile(
    r"(?P<head>\b(?:have|got)\s+(?:two|three|four|five|[2-9])\s+(?:little\s+|young\s+)?"
    r"(?:kids|children|daughters|sons|boys|girls|grandkids|grandchildren))\s*[,:–—-]+\s*"
    rf"(?P<ages>{_AGE_NAMED}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+){_AGE_NAMED})+)\b",
    _I,
)
_NAME_OF_AGE_RE = re.compile(r"(?P<name>(?-i:[A-Z])[\w'-]+)\s+is\s+\d", _I)


# "Got a 2 year old, Isla", "I have a 5-year-old son, Max": a child by their age, named.
_AGED_NAMED_RE = re.compile(
    r"\b(?P<head>have|got)\s+an?\s+(?P<age>\d{1,2})[\s-]*(?:year|yr)s?[\s-]*old"
    r"(?:\s+(?P<rel>son|daughter|boy|girl))?\s*,\s*(?P<name>(?-i:[A-Z])[\w'-]+)\b",
    _I,
)


def _aged_named(m: re.Match[str]) -> str:
    rel = {"boy": "son", "girl": "daughter"}.get((m["rel"] or "").lower(), m["rel"] or "child")
    return f"{m['head']} a {rel}, {m['name']}. {m['name']} is {m['age']}"


def _counted_named(m: re.Match[str]) -> str:
    names = [n["name"] for n in _NAME_OF_AGE_RE.finditer(m["ages"])]
    return f"{m['head']}, {', '.join(names[:-1])} and {names[-1]}. {m['ages']}"


def naming_relatives(text: str) -> str:
    """`text` with a "her name is" that follows a nameless relative said as theirs, whom
    one sees after a switch said as the new one ("my dentist is Dr. Lind"), and children
    named with their ages, after a count or by an age alone, said as named children too."""

    def named(m: re.Match[str]) -> str:
        whose = f"{m['my']} {m['rel']}'s"
        if m["theirs"][:1].isupper():
            whose = whose[:1].upper() + whose[1:]
        return f"{m.group(0)[: m.start('theirs') - m.start()]}{whose} name is"

    def switched(m: re.Match[str]) -> str:
        return f"{m['start']}My {m['rel'].lower()} is {m['who']} now"

    text = _AGED_NAMED_RE.sub(_aged_named, _COUNTED_NAMED_RE.sub(_counted_named, text))
    return _SWITCHED_RE.sub(switched, _THEIR_NAME_AFTER_RE.sub(named, text))


@cache
def _thing_re() -> re.Pattern[str]:
    owned = (
        name for kind, names in THING_KINDS.items() if kind.startswith("owns:") for name in names
    )
    alternatives = "|".join(re.escape(n) for n in sorted(owned, key=len, reverse=True))
    return re.compile(rf"(?<![\w.])(?:{alternatives})(?![\w+#])", _I)


def resolve_things(sentence: str, before: str) -> str:
    """`sentence` with the 'it' of "I sold it" replaced by the thing it means, if named
    earlier in the sentence or in `before` (the same side of the turn)."""
    gone = _GONE_IT_RE.search(sentence)
    if gone is None:
        return sentence
    named = list(_thing_re().finditer(f"{before} {sentence[: gone.start()]}"))
    if not named:
        return sentence
    thing = named[-1].group(0)
    return f"{sentence[: gone.start()]}{gone['verb']} my {thing}{sentence[gone.end() :]}"
