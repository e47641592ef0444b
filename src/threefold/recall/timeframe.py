"""The time a query asks about: "on 7 July, 2023", "in May 2022", "2023-10-13".

Only absolute dates count. A relative one ("last week") would need to know the asker's
"now", and a wrong window hides exactly what was asked for.
"""

import calendar
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from threefold.dates import MONTH_NUMBERS, MONTH_PATTERN, find_dates

_SLACK = timedelta(days=1)
"""Days are UTC days; the asker's own day may start or end a few hours either side."""
_MONTH_YEAR_RE = re.compile(rf"\b({MONTH_PATTERN}),?\s+(\d{{4}})\b", re.IGNORECASE)
_ANY_DAY = datetime(2000, 1, 1, tzinfo=UTC)
"""Anchor for find_dates; only phrases that carry their own year are kept, so it never counts."""


@dataclass(frozen=True)
class Timeframe:
    since: datetime
    until: datetime


def timeframe_of(query: str) -> Timeframe | None:
    """The span from the first to the last day or month `query` names, or None."""
    hits = find_dates(query, _ANY_DAY)
    spans = [(hit.day, hit.day) for hit in hits if not hit.relative]
    taken = [(hit.start, hit.end) for hit in hits]
    for match in _MONTH_YEAR_RE.finditer(query):
        if any(start <= match.start() < end for start, end in taken):
            continue  # the month of a full date already counted
        month, year = MONTH_NUMBERS[match[1][:3].lower()], int(match[2])
        last_day = calendar.monthrange(year, month)[1]
        spans.append((date(year, month, 1), date(year, month, last_day)))
    if not spans:
        return None
    first = min(start for start, _ in spans)
    last = max(end for _, end in spans)
    return Timeframe(_midnight(first) - _SLACK, _midnight(last) + timedelta(days=1) + _SLACK)


def _midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=UTC)
