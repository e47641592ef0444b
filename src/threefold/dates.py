"""Finding date phrases in a sentence and resolving them against the turn's own time.

Only phrases that name a day are recognised ("March 27", "next Friday", "tomorrow",
"in 3 days", "end of the month", "yesterday", "last Friday", "two days ago"); vague ones
("soon", "next week") are left alone because a wrong date pinned into every prompt is worse
than none. A bare day ("Friday", "March 3") is read forward unless its lead word or the
tense of its own clause puts it behind ("since Friday", "I went hiking on Friday"; but "we
agreed to freeze on Thursday" is ahead). The word classes for that are in data/tense.json.
"""

import calendar
import json
import re
from dataclasses import dataclass
from datetime import MAXYEAR, MINYEAR, date, datetime, timedelta
from functools import lru_cache
from importlib.resources import files
from typing import TypeVar

from threefold.domain import as_utc

MONTH_PATTERN = (
    r"(?:jan(?:uary|\.)?|feb(?:ruary|\.)?|mar(?:ch|\.)?|apr(?:il|\.)?|may|jun(?:e|\.)?"
    r"|jul(?:y|\.)?|aug(?:ust|\.)?|sep(?:t(?:ember|\.)?|\.)?|oct(?:ober|\.)?|nov(?:ember|\.)?"
    r"|dec(?:ember|\.)?)"
)
"""A month's name, or its abbreviation with or without a dot: the dot after a full name
("on 9 March.") ends the sentence and is no part of the date."""
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
WEEKDAY_PATTERN = r"(?:" + "|".join(_WEEKDAYS) + r")"
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
    rf"|(?:{WEEKDAY_PATTERN},?\s+)?(?P<md>{MONTH_PATTERN}\s+{_DAY}(?!\d)(?:,?\s+\d{{4}})?)"
    rf"|(?:{WEEKDAY_PATTERN},?\s+)?(?P<dm>{_DAY}\s+(?:of\s+)?{MONTH_PATTERN}(?:,?\s+\d{{4}})?)"
    r"|(?P<rel>(?:the\s+)?day\s+after\s+tomorrow|tomorrow|today|tonight|eod)"
    r"|(?P<past>(?:the\s+)?day\s+before\s+yesterday|yesterday|last\s+night)"
    rf"|(?P<ago>{_NUMBER}\s+(?:days?|weeks?)\s+ago)"
    r"|(?P<end>(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(?:day|week|month|quarter|year)"
    r"|eow|eom)"
    rf"|(?P<in>in\s+{_NUMBER}\s+(?:days?|weeks?|months?))"
    rf"|(?P<wd>(?:(?:next|this|coming|this\s+coming|last|this\s+past|past)\s+)?{WEEKDAY_PATTERN})"
    rf"|(?P<nth>the\s+\d{{1,2}}(?:st|nd|rd|th))(?=\s*$|\s*[.,;:!?)]|\s+{_AFTER_NTH}\b)"
    r")(?![\w-])",
    re.IGNORECASE,
)
_HAS_YEAR_RE = re.compile(r"\d{4}\s*$")
LEAD_RE = re.compile(r"^(?:(?:on|by|for|to|until|till|before|the)\s+)+", re.I)
"""Words that may precede the date a clause ends with: "moved to the 3rd of May"."""
_LEAD_KEEPING_THE_RE = re.compile(r"^(?:(?:on|by|for|to|until|till|before)\s+)+", re.I)


_SENTENCE_END_RE = re.compile(r"[.!?;]\s|\n")
# A day right after these words is a target or a state, whatever the tense around it:
# "we moved it to Friday", "the demo is Friday".
_TARGET_BEFORE_RE = re.compile(
    r"\b(?:to|until|till|by|before|for|due|from|is|are|be|'s|'re)\s+(?:on\s+|the\s+)?$",
    re.IGNORECASE,
)
_CLAUSE_BREAK_RE = re.compile(r"[,;:()\u2013\u2014\"]|\s-\s")
_WORD_RE = re.compile(r"'?[a-z]+")


@lru_cache(maxsize=1)
def _tense_words() -> dict[str, frozenset[str]]:
    """The word classes of data/tense.json, read once, when a date first needs them."""
    data = json.loads(files("threefold").joinpath("data/tense.json").read_text())
    return {name: frozenset(words) for name, words in data.items() if isinstance(words, list)}


def _words(text: str) -> list[str]:
    text = text.lower().replace("\u2019", "'").replace("won't", "will not")
    return _WORD_RE.findall(text.replace("can't", "can not").replace("n't", " not"))


def tells_of_the_past(text: str, at: int, end: int | None = None) -> bool:
    """Whether the day named at text[at:end] lies behind the message rather than ahead.

    Its lead word decides first ("since Monday" behind; "to/by/until Friday", "is Friday"
    ahead). Else the tense of its clause: the verb group nearest before the day ("we
    shipped it on Monday", "we agreed to freeze on Thursday"), else the nearest after it
    ("the outage on Saturday took down checkout"); with no tense to go by, ahead."""
    before = text[:at]
    start = max((m.end() for m in _SENTENCE_END_RE.finditer(before)), default=0)
    stop = _SENTENCE_END_RE.search(text, at if end is None else end)
    lead = text[start:at]
    classes = _tense_words()
    lead_words = _words(lead)
    if lead_words and lead_words[-1] in classes["behind_leads"]:
        return True
    if _TARGET_BEFORE_RE.search(lead):
        return False
    clause_start = max((m.end() for m in _CLAUSE_BREAK_RE.finditer(lead)), default=0)
    said_before = _tense_of(_after_opener(_words(lead[clause_start:])), backwards=True)
    if said_before is not None:
        return said_before
    after = text[at if end is None else end : stop.start() if stop else len(text)]
    # A day that opens its sentence ("On Friday, I got great news") belongs to the clause
    # after its comma.
    pieces = [piece for piece in _CLAUSE_BREAK_RE.split(after, maxsplit=2) if piece.strip()]
    after = pieces[0] if pieces else ""
    return bool(_tense_of(_words(after), backwards=False))


def _after_opener(words: list[str]) -> list[str]:
    """The words of the clause the day ends: from after the last joining word on."""
    openers = _tense_words()["clause_openers"]
    last = max((i for i, word in enumerate(words) if word in openers), default=-1)
    return words[last + 1 :]


def _tense_of(words: list[str], *, backwards: bool) -> bool | None:
    """True for past, False for ahead, None when `words` carry no tense; the verb group
    nearest the day (the end of `words` when `backwards`, else their start) decides."""
    order = range(len(words) - 1, -1, -1) if backwards else range(len(words))
    for i in order:
        if backwards and _reports_a_clause(words, i):
            return False  # "Marco said the audit starts Thursday": the report's own tense
        tense = _tense_at(words, i)
        if tense is not None:
            return tense
    return None


def _tense_at(words: list[str], i: int) -> bool | None:
    c = _tense_words()
    word = words[i]
    previous = words[i - 1] if i else ""
    following = words[i + 1] if i + 1 < len(words) else ""
    if word in c["ahead"]:
        return False
    if word == "to" and i and following and _starts_a_verb(following):
        # An infinitive is a plan ("agreed to freeze the branch on Thursday") unless the
        # verb before it says it was done or not ("forgot to file it on Friday").
        return previous in c["implicative_past"]
    if word in c["perfect"]:
        return following != "to"  # "have to" is an obligation, "have had" a perfect
    if word in c["present_aux"]:
        return False
    past = word in c["past_forms"] or (
        word.endswith("ed") and len(word) > 3 and word not in c["not_past"]
    )
    if past:
        # "is closed", "will be moved": a state or a plan; "was moved", "has moved": past.
        return not _in_present_group(words, i)
    return None


PARTICIPLE_REACH = 4
"""Words back from a participle its verb group may open: "is getting his knee replaced"."""


def _in_present_group(words: list[str], i: int) -> bool:
    """Whether the participle words[i] belongs to a verb group in the present, a state or
    a plan ("is closed", "she's getting married", "getting his knee replaced"), rather
    than one in the past ("was moved", "got married", "had it fixed")."""
    c = _tense_words()
    present = False
    for word in reversed(words[max(0, i - PARTICIPLE_REACH) : i]):
        if word in c["past_forms"] or word in c["perfect"]:
            return False
        if word in c["present_aux"] or word in c["progressive_aux"]:
            present = True
        elif word in c["subjects"]:
            break
    return present


def _starts_a_verb(word: str) -> bool:
    c = _tense_words()
    return not (word in c["determiners"] or word in c["subjects"] or word.isdigit())


def _reports_a_clause(words: list[str], i: int) -> bool:
    """Whether words[i] is a verb of saying or deciding followed by a clause of its own,
    a subject and a verb ("said the audit starts", "confirmed they ship"), rather than
    by an object ("mentioned the bug on Friday")."""
    c = _tense_words()
    if words[i] not in c["reporting"]:
        return False
    rest = words[i + 1 :]
    if rest[:1] == ["that"]:
        rest = rest[1:]
    if len(rest) >= 2 and rest[0] in c["subjects"]:
        return True
    if len(rest) >= 3 and rest[0] in c["determiners"]:
        for word in rest[2:]:  # past the subject's first noun, to its verb
            if word in c["prepositions"]:
                return False
            if word.endswith("s") or word in c["present_aux"] or word in c["ahead"]:
                return True
    return False


_Day = TypeVar("_Day", date, datetime)


def shifted(moment: _Day, delta: timedelta) -> _Day:
    """`moment` moved by `delta`, held at the calendar's first or last instant where it
    would leave it: a text may name 9999-12-31, and the day after it is no error of theirs."""
    try:
        return moment + delta
    except OverflowError:
        ahead = delta > timedelta(0)
        if isinstance(moment, datetime):
            return (datetime.max if ahead else datetime.min).replace(tzinfo=moment.tzinfo)
        return date.max if ahead else date.min


def _days(day: date, count: int) -> date:
    return shifted(day, timedelta(days=count))


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
    base = datetime.combine(_days(anchor, -1), datetime.min.time())
    settings = {
        "RELATIVE_BASE": base,
        "PREFER_DATES_FROM": "future",
        "RETURN_AS_TIMEZONE_AWARE": False,
        "TIMEZONE": "UTC",
        "DATE_ORDER": "MDY",
    }
    import dateparser  # here: it takes longer to import than most commands take to run

    try:
        parsed = dateparser.parse(phrase, languages=["en"], settings=settings)
    except (OverflowError, ValueError):  # a phrase or an anchor at the calendar's edge
        return None
    return parsed.date() if parsed else None


MONTH_NUMBERS = {
    name: number
    for number, name in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
DAY_IN_TEXT_RE = re.compile(
    rf"(?:(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m1>{MONTH_PATTERN})"
    rf"|(?P<m2>{MONTH_PATTERN})\s+(?:the\s+)?(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?"
    r"|the\s+(?P<d3>\d{1,2})(?:st|nd|rd|th))\b",
    re.IGNORECASE,
)
"""A day of a month anywhere in a text: "14 march", "FEBRUARY 9th", "the 24th" (no month)."""


def day_and_month(found: re.Match[str]) -> tuple[str | None, str | None]:
    """The day (digits) and the month's name as facts write it ("March") of a
    DAY_IN_TEXT_RE match; the month is None for "the 24th"."""
    day = found["d1"] or found["d2"] or found["d3"]
    month = found["m1"] or found["m2"]
    return day, calendar.month_name[MONTH_NUMBERS[month.lower()[:3]]] if month else None


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
        return _days(today, -((today.weekday() - target - 1) % 7 + 1))
    if past and len(words) == 1:
        return _days(today, -((today.weekday() - target) % 7))
    if words[0] == "next":
        # "next Friday" = the Friday of next (Monday-based) week: the common reading, and
        # never the day after tomorrow when said on a Wednesday.
        return _days(today, 7 - today.weekday() + target)
    return _days(today, (target - today.weekday()) % 7)


def _end_of(phrase: str, today: date) -> date:
    unit = phrase.lower().split()[-1]
    if unit in ("day", "eod"):
        return today
    if unit in ("week", "eow"):
        return _days(today, (4 - today.weekday()) % 7)  # the working week's Friday
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
        return _days(today, number)
    if unit.startswith("week"):
        return _days(today, 7 * number)
    return _dateparser(phrase, _days(today, 1))


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
        return _days(today, offset), True
    if kind == "past":
        return _days(today, -2 if "before" in phrase.lower() else -1), True
    if kind == "ago":
        count, unit, _ = phrase.lower().split()
        number = int(count) if count.isdigit() else _NUMBER_WORDS[count]
        return _days(today, -number * (7 if unit.startswith("week") else 1)), True
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
        if year > MAXYEAR:
            break
    return None


def _next_year(day: date) -> date:
    return _in_year(day, day.year + 1) if day.year < MAXYEAR else date.max


def _last_year(day: date) -> date:
    return _in_year(day, day.year - 1) if day.year > MINYEAR else date.min


def _in_year(day: date, year: int) -> date:
    try:
        return day.replace(year=year)
    except ValueError:  # February 29
        return day.replace(year=year, day=28)


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
        past = tensed and tells_of_the_past(text, match.start(), match.end())
        day, relative = _resolve(match, today, past)
        if day is not None:
            hits.append(DateHit(match.start(), match.end(), match.group(0), day, relative))
    return tuple(hits)


_CALENDAR_WORD_RE = re.compile(rf"(?:{WEEKDAY_PATTERN}s?|{MONTH_PATTERN})", re.IGNORECASE)


def is_calendar_word(text: str) -> bool:
    """Whether `text` is only a weekday or a month ("Fridays", "June"): no place, no name."""
    return bool(_CALENDAR_WORD_RE.fullmatch(text.strip()))


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


def spoken(day: date) -> str:
    """A day as people write it: "1 August 2023"."""
    return f"{day.day} {calendar.month_name[day.month]} {day.year}"


def spoken_span(first: date, last: date) -> str:
    """Days from `first` to `last` as people write them, "5–6 May 2026", "7 October – 9
    December 2026"; one day when `last` is not after `first`."""
    if first >= last:
        return spoken(last)
    if (first.year, first.month) == (last.year, last.month):
        return f"{first.day}–{spoken(last)}"
    if first.year == last.year:
        return f"{first.day} {calendar.month_name[first.month]} – {spoken(last)}"
    return f"{spoken(first)} – {spoken(last)}"


def dated(day: date) -> str:
    """A day in ISO form with its words beside it, "2023-08-01 (1 August 2023)": a reader,
    or a scorer, matching either finds it."""
    return f"{day.isoformat()} ({spoken(day)})"


PERIOD_RE = re.compile(
    rf"\b(?:(?P<which>last|this|next)\s+(?P<unit>year|month)"
    rf"|(?P<count>{_NUMBER})\s+(?P<units>years?|months?)\s+ago)(?![\w-])",
    re.IGNORECASE,
)
"""A year or a month named relative to the turn ("last year", "two months ago"): no day,
so not a DateHit, but it rots all the same once stored."""


def find_periods(text: str, at: datetime) -> list[tuple[int, int, str]]:
    """(start, end, the period in words) of each relative year or month in `text`:
    "last year" said in 2023 is "2022", "last month" said in May 2023 is "April 2023"."""
    today = base_day(at)
    found = []
    for match in PERIOD_RE.finditer(text):
        which, count = (match["which"] or "").lower(), (match["count"] or "").lower()
        back = int(count) if count.isdigit() else _NUMBER_WORDS.get(count, 0)
        steps = {"last": -1, "this": 0, "next": 1}[which] if which else -back
        if (match["unit"] or match["units"]).lower().startswith("year"):
            label = str(today.year + steps)
        else:
            year, month = divmod(today.year * 12 + today.month - 1 + steps, 12)
            label = f"{calendar.month_name[month + 1]} {year}"
        found.append((match.start(), match.end(), label))
    return found


_ISO = r"\d{4}-\d{2}-\d{2}"
_ANNOTATION_RE = re.compile(
    rf" \((?:{_ISO}(?: – {_ISO})?|\d{{4}}|{MONTH_PATTERN} \d{{4}})\)", re.IGNORECASE
)
_RANGE_START_RE = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s*[-–]\s*$")
"""The first day of a range that ends in a date: the "2-" of "2-4 May"."""


def unannotated(text: str) -> str:
    """`text` less what annotate() adds: how it was said."""
    return _ANNOTATION_RE.sub("", text)


def annotate(text: str, at: datetime) -> str:
    """`text` with each relative date phrase followed by its ISO date, and each relative
    year or month by its name ("last year (2022)"), so that it never rots."""
    days = [(h.start, h.end, _day_label(text, h)) for h in find_dates(text, at) if h.relative]
    out, last = [], 0
    for start, end, label in sorted(days + find_periods(text, at)):
        if start < last or text[end : end + 2] == " (":
            continue
        out.append(text[last:end] + f" ({label})")
        last = end
    return "".join(out) + text[last:]


def _day_label(text: str, hit: DateHit) -> str:
    """The ISO day `hit` names, or the span of days it ends: "2-4 May" is 2 to 4 May, not
    the 4th alone."""
    opened = _RANGE_START_RE.search(text, max(0, hit.start - 8), hit.start)
    first = int(opened.group(1)) if opened else 0
    if 0 < first < hit.day.day:
        return f"{hit.day.replace(day=first).isoformat()} – {hit.day.isoformat()}"
    return hit.day.isoformat()
