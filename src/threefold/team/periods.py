"""The days a period names ("today", "last week", "2026-03-02..2026-03-08"), in a time zone."""

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from threefold.domain import as_utc
from threefold.errors import InvalidInput

_RANGE_RE = re.compile(r"^\s*(\d{4}-\d{2}-\d{2})\s*(?:\.\.|/|to)\s*(\d{4}-\d{2}-\d{2})\s*$")
_DAY_RE = re.compile(r"^\s*(\d{4}-\d{2}-\d{2})\s*$")
NAMED = ("today", "yesterday", "this week", "last week")
# A question asking what a period brought: "what did we learn this week?", "last week's news".
_ASKED_RE = re.compile(
    r"\b(today|yesterday|this\s+week|last\s+week|past\s+week)(?:'s)?\b", re.IGNORECASE
)
MAX_DAYS = 366


@dataclass(frozen=True)
class Days:
    first: date
    last: date
    label: str
    zone: ZoneInfo

    def each(self) -> list[date]:
        return [self.first + timedelta(days=i) for i in range((self.last - self.first).days + 1)]

    def bounds(self, day: date) -> tuple[datetime, datetime]:
        """The UTC instants a local day starts and ends at (a DST day is 23 or 25 hours)."""
        start = datetime(day.year, day.month, day.day, tzinfo=self.zone)
        end_day = day + timedelta(days=1)
        end = datetime(end_day.year, end_day.month, end_day.day, tzinfo=self.zone)
        return as_utc(start), as_utc(end)


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidInput(
            f"unknown time zone {name!r}; use an IANA name like Europe/Berlin"
        ) from None


def resolve(period: str | tuple[date, date], timezone: str, now: datetime) -> Days:
    """The local days of `period` as seen at `now` in `timezone`. Weeks start on Monday."""
    where = zone(timezone)
    if isinstance(period, tuple):
        return _checked(period[0], period[1], f"{period[0]}..{period[1]}", where)
    if not isinstance(period, str):
        raise InvalidInput(f"period must be text or a (first, last) pair of dates: {period!r}")
    today = as_utc(now).astimezone(where).date()
    named = " ".join(period.lower().split())
    monday = today - timedelta(days=today.weekday())
    spans = {
        "today": (today, today),
        "yesterday": (today - timedelta(days=1), today - timedelta(days=1)),
        "this week": (monday, monday + timedelta(days=6)),
        "past week": (today - timedelta(days=6), today),
        "last week": (monday - timedelta(days=7), monday - timedelta(days=1)),
    }
    if named in spans:
        return Days(*spans[named], named, where)
    if found := _RANGE_RE.match(period):
        return _checked(_iso(found[1]), _iso(found[2]), period.strip(), where)
    if found := _DAY_RE.match(period):
        return _checked(_iso(found[1]), _iso(found[1]), period.strip(), where)
    raise InvalidInput(
        f"unknown period {period!r}; use today, yesterday, this week, last week, a day "
        "(2026-03-02) or a range (2026-03-02..2026-03-08)"
    )


def asked_period(query: str) -> str | None:
    """The period a question asks about, if it names one of the NAMED ones."""
    found = _ASKED_RE.search(query)
    return " ".join(found[1].lower().split()) if found else None


def _iso(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise InvalidInput(f"not a date: {text!r}") from None


_EARLIEST, _LATEST = date(2, 1, 1), date(9999, 12, 30)
"""A day's bounds in any zone, and the day after it, must stay inside the calendar."""


def _checked(first: date, last: date, label: str, where: ZoneInfo) -> Days:
    if first < _EARLIEST or last > _LATEST:
        raise InvalidInput(f"a period lies between {_EARLIEST} and {_LATEST}; {label} does not")
    if last < first:
        raise InvalidInput(f"the period ends ({last}) before it starts ({first})")
    if (last - first).days >= MAX_DAYS:
        raise InvalidInput(f"a period is at most {MAX_DAYS} days; {label} is longer")
    return Days(first, last, label, where)
