"""Finding date phrases in a sentence and resolving them against the turn's own time.

Only phrases that name a day are recognised ("March 27", "next Friday", "tomorrow",
"in 3 days", "end of the month", "yesterday", "last Friday", "two days ago"); vague ones
("soon", "next week") are left alone because a wrong date pinned into every prompt is worse
than none. A bare day ("Friday", "March 3") is read forward unless its sentence tells of
the past ("I went hiking on Friday").
"""

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache

import dateparser

from threefold.domain import as_utc

MONTH_PATTERN = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY = r"(?:" + "|".join(_WEEKDAYS) + r")"
_NUMBER_WORDS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
_NUMBER = r"(?:\d{1,3}|" + "|".join(_NUMBER_WORDS) + r")"

# "On the 14th" is a day only where no noun follows: "the 3rd time", "the 2nd floor".
_AFTER_NTH = (
    r"(?:at|and|but|so|or|then|instead|now|too|which|when|is|was|will|not|rather|because|for"
    r"|if|this|next|of\s+(?:this|next)\s+month)"
)
DATE_RE = re.compile(
    r"\b(?:"
    rf"(?P<iso>\d{{4}}-\d{{2}}-\d{{2}})"
    rf"|(?:{_WEEKDAY},?\s+)?(?P<md>{MONTH_PATTERN}\s+{_DAY}(?!\d)(?:,?\s+\d{{4}})?)"
    rf"|(?:{_WEEKDAY},?\s+)?(?P<dm>{_DAY}\s+(?:of\s+)?{MONTH_PATTERN}(?:,?\s+\d{{4}})?)"
    r"|(?P<rel>(?:the\s+)?day\s+after\s+tomorrow|tomorrow|today|tonight|eod)"
    r"|(?P<past>(?:the\s+)?day\s+before\s+yesterday|yesterday|last\s+night)"
    rf"|(?P<ago>{_NUMBER}\s+(?:days?|weeks?)\s+ago)"
    r"|(?P<end>(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(?:day|week|month|quarter|year)"
    r"|eow|eom)"
    rf"|(?P<in>in\s+{_NUMBER}\s+(?:days?|weeks?|months?))"
    rf"|(?P<wd>(?:(?:next|this|coming|this\s+coming|last|this\s+past|past)\s+)?{_WEEKDAY})"
    rf"|(?P<nth>the\s+\d{{1,2}}(?:st|nd|rd|th))(?=\s*$|\s*[.,;:!?)]|\s+{_AFTER_NTH}\b)"
    r")(?![\w-])",
    re.IGNORECASE,
)
_HAS_YEAR_RE = re.compile(r"\d{4}\s*$")
LEAD_RE = re.compile(r"^(?:(?:on|by|for|to|until|till|before|the)\s+)+", re.I)
"""Words that may precede the date a clause ends with: "moved to the 3rd of May"."""
_LEAD_KEEPING_THE_RE = re.compile(r"^(?:(?:on|by|for|to|until|till|before)\s+)+", re.I)


_SENTENCE_END_RE = re.compile(r"[.!?;]\s|\n")
_PAST_VERB_RE = re.compile(
    r"\b(?:was|were|did|had|went|got|came|saw|met|took|made|told|said|gave|found|bought|ran"
    r"|began|left|felt|heard|ate|won|lost|spent|sent|wrote|drove|flew|held|paid|sold|became)\b"
    r"|\b(?:i|we|he|she|they|you)\s+(?:\w+ly\s+|just\s+|also\s+|even\s+)?"
    r"(?!(?:need|feed|proceed|succeed|exceed|speed)\b)\w{2,}ed\b",
    re.IGNORECASE,
)
_AHEAD_RE = re.compile(
    r"\b(?:will|shall|going|gonna|plan(?:s|ned|ning)?|can't\s+wait|looking\s+forward|next"
    r"|coming|upcoming|hope|hoping|want|would|could|should|might|let's|booked|scheduled)\b"
    r"|'ll\b|\b(?:am|is|are)\s+\w+ing\b|'(?:m|re|s)\s+\w+ing\b",
    re.IGNORECASE,
)
# A day right after these words is a target or a state, whatever the tense around it:
# "we moved it to Friday", "the demo is Friday".
_TARGET_BEFORE_RE = re.compile(
    r"\b(?:to|until|till|by|before|for|due|from|is|are|be|'s|'re)\s+(?:on\s+|the\s+)?$",
    re.IGNORECASE,
)


def tells_of_the_past(text: str, at: int) -> bool:
    """Whether the sentence around position `at` of `text` tells of something already done,
    so that a bare day there ("on Friday", "March 3") lies behind the turn, not ahead."""
    before = text[:at]
    start = max((m.end() for m in _SENTENCE_END_RE.finditer(before)), default=0)
    end_match = _SENTENCE_END_RE.search(text, at)
    sentence = text[start : end_match.start() if end_match else len(text)]
    if _TARGET_BEFORE_RE.search(text[start:at]) or _AHEAD_RE.search(sentence):
        return False
    return bool(_PAST_VERB_RE.search(sentence))


@dataclass(frozen=True)
class DateHit:
    start: int
    end: int
    phrase: str
    day: date
    relative: bool
    """True when the phrase means nothing without the turn's date ("Friday", "March 27")."""


def base_day(at: datetime) -> date:
    """The turn's calendar day in UTC, the anchor for every relative phrase."""
    return as_utc(at).date()


# dateparser takes milliseconds a phrase; team chat repeats "March 3" and "next Friday"
# many times a day.
@lru_cache(maxsize=8192)
def _dateparser(phrase: str, anchor: date) -> date | None:
    # RELATIVE_BASE must be naive; midnight of the day before keeps "March 27" said on
    # March 27 on that day (dateparser treats the base's own midnight as already past).
    base = datetime.combine(anchor - timedelta(days=1), datetime.min.time())
    settings = {
        "RELATIVE_BASE": base,
        "PREFER_DATES_FROM": "future",
        "RETURN_AS_TIMEZONE_AWARE": False,
        "TIMEZONE": "UTC",
        "DATE_ORDER": "MDY",
    }
    parsed = dateparser.parse(phrase, languages=["en"], settings=settings)
    return parsed.date() if parsed else None


MONTH_NUMBERS = {
    name: number
    for number, name in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
_MONTH_DAY_RE = re.compile(
    r"(?:(?P<m1>[a-z]+)\.?\s+(?P<d1>\d{1,2})|(?P<d2>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?"
    r"(?P<m2>[a-z]+)\.?)(?:st|nd|rd|th)?(?:,?\s+(?P<year>\d{4}))?$"
)


def _month_day(phrase: str, today: date) -> date | None:
    """A "March 20" or "3rd of May" phrase read without dateparser, which takes milliseconds
    a phrase: that day in the year given, else in today's year (_resolve moves a past day to
    the next year, as it does dateparser's). None for anything else, and for February 29,
    which is left to dateparser."""
    parts = _MONTH_DAY_RE.match(phrase.lower())
    if parts is None or (month := MONTH_NUMBERS.get((parts["m1"] or parts["m2"])[:3])) is None:
        return None
    number = int(parts["d1"] or parts["d2"])
    if month == 2 and number == 29:
        return None
    try:
        return date(int(parts["year"] or today.year), month, number)
    except ValueError:
        return None


def _weekday(phrase: str, today: date, past: bool) -> date:
    words = phrase.lower().split()
    target = _WEEKDAYS.index(words[-1])
    if len(words) > 1 and words[-2] in ("last", "past"):
        # "last Friday" said on a Friday is a week ago, never today.
        return today - timedelta(days=(today.weekday() - target - 1) % 7 + 1)
    if past and len(words) == 1:
        return today - timedelta(days=(today.weekday() - target) % 7)
    if words[0] == "next":
        # "next Friday" = the Friday of next (Monday-based) week: the common reading, and
        # never the day after tomorrow when said on a Wednesday.
        monday = today - timedelta(days=today.weekday()) + timedelta(days=7)
        return monday + timedelta(days=target)
    return today + timedelta(days=(target - today.weekday()) % 7)


def _end_of(phrase: str, today: date) -> date:
    unit = phrase.lower().split()[-1]
    if unit in ("day", "eod"):
        return today
    if unit in ("week", "eow"):
        return today + timedelta(days=(4 - today.weekday()) % 7)  # the working week's Friday
    if unit in ("month", "eom"):
        return today.replace(day=calendar.monthrange(today.year, today.month)[1])
    if unit == "quarter":
        month = ((today.month - 1) // 3) * 3 + 3
        return date(today.year, month, calendar.monthrange(today.year, month)[1])
    return date(today.year, 12, 31)


def _in_n(phrase: str, today: date) -> date | None:
    _, count, unit = phrase.lower().split()
    number = int(count) if count.isdigit() else _NUMBER_WORDS[count]
    if unit.startswith("day"):
        return today + timedelta(days=number)
    if unit.startswith("week"):
        return today + timedelta(weeks=number)
    return _dateparser(phrase, today + timedelta(days=1))


def _resolve(match: re.Match[str], today: date, past: bool) -> tuple[date | None, bool]:
    """The day a DATE_RE match names, and whether it depended on `today`; `past` when its
    sentence tells of what already happened, so a bare day lies behind."""
    kind = match.lastgroup or ""
    phrase = match.group(kind)
    if kind == "iso":
        try:
            return date.fromisoformat(phrase), False
        except ValueError:
            return None, False
    if kind in ("md", "dm"):
        return _month_day_resolved(phrase, today, past), not _HAS_YEAR_RE.search(phrase)
    if kind == "rel":
        lower = phrase.lower()
        offset = 2 if "after" in lower else 1 if lower == "tomorrow" else 0
        return today + timedelta(days=offset), True
    if kind == "past":
        return today - timedelta(days=2 if "before" in phrase.lower() else 1), True
    if kind == "ago":
        count, unit, _ = phrase.lower().split()
        number = int(count) if count.isdigit() else _NUMBER_WORDS[count]
        return today - timedelta(days=number * (7 if unit.startswith("week") else 1)), True
    if kind == "end":
        return _end_of(phrase, today), True
    if kind == "in":
        return _in_n(phrase, today), True
    if kind == "nth":
        return _next_nth(int(re.sub(r"\D", "", phrase)), today), True
    return _weekday(phrase, today, past), True


def _month_day_resolved(phrase: str, today: date, past: bool) -> date | None:
    day = _month_day(phrase, today) or _dateparser(phrase, today)
    if day is None or _HAS_YEAR_RE.search(phrase):
        return day
    if past and day > today:
        return _last_year(day)
    if not past and day < today:
        return _next_year(day)  # dateparser's future preference misses some forms
    return day


def _next_nth(number: int, today: date) -> date | None:
    """The next day numbered `number` from today on: "the 14th" said on the 20th is next
    month's, and "the 31st" skips the months without one."""
    year, month = today.year, today.month
    for _ in range(3):
        if number <= calendar.monthrange(year, month)[1]:
            day = date(year, month, number)
            if day >= today:
                return day
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return None


def _next_year(day: date) -> date:
    try:
        return day.replace(year=day.year + 1)
    except ValueError:  # February 29
        return day.replace(year=day.year + 1, day=28)


def _last_year(day: date) -> date:
    try:
        return day.replace(year=day.year - 1)
    except ValueError:
        return day.replace(year=day.year - 1, day=28)


_TENSED_KINDS = frozenset({"md", "dm", "wd"})


def find_dates(text: str, at: datetime) -> list[DateHit]:
    """Every day-naming phrase in `text`, resolved against `at`, in order."""
    return list(_dates_on(text, base_day(at)))


# Extraction, observation and summaries each look for dates in the same sentence.
@lru_cache(maxsize=4096)
def _dates_on(text: str, today: date) -> tuple[DateHit, ...]:
    hits = []
    for match in DATE_RE.finditer(text):
        # Only a bare day or a month's day can lie either way; the rest say which.
        tensed = match.lastgroup in _TENSED_KINDS
        past = tensed and tells_of_the_past(text, match.start())
        day, relative = _resolve(match, today, past)
        if day is not None:
            hits.append(DateHit(match.start(), match.end(), match.group(0), day, relative))
    return tuple(hits)


def names_a_day_ahead(text: str) -> bool:
    """Whether `text` names a day that may lie ahead (a plan or a deadline) rather than
    only days behind ("yesterday", "last Friday", "two days ago")."""
    for match in DATE_RE.finditer(text):
        words = match.group(0).lower().split()
        if match.lastgroup not in ("past", "ago") and "last" not in words and "past" not in words:
            return True
    return False


def find_date(text: str, at: datetime) -> DateHit | None:
    hits = find_dates(text, at)
    return hits[0] if hits else None


def leading_date(text: str, at: datetime) -> DateHit | None:
    """The date `text` starts with (after on/by/for/to), or None: "on March 27 at 5pm"."""
    stripped = LEAD_RE.sub("", text.strip())
    hit = find_date(stripped, at)
    if hit is None or hit.start != 0:  # "on the 14th": the "the" is the date's own
        hit = find_date(_LEAD_KEEPING_THE_RE.sub("", text.strip()), at)
    return hit if hit and hit.start == 0 else None


def human(day: date) -> str:
    return f"{calendar.month_name[day.month]} {day.day}, {day.year}"


def annotate(text: str, at: datetime) -> str:
    """`text` with each relative date phrase followed by its ISO date, so it never rots."""
    out, last = [], 0
    for hit in find_dates(text, at):
        if not hit.relative or text[hit.end : hit.end + 2] == " (":
            continue
        out.append(text[last : hit.end] + f" ({hit.day.isoformat()})")
        last = hit.end
    return "".join(out) + text[last:]
