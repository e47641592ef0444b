"""Jira "all fields" CSV exports: stream the issues out, and sum them up per project.

Pure code: nothing here touches a database or a model. The header of such an export repeats
names (one "Sprint", "Labels", "Comment"... column per value), so rows are read as lists and
every field is looked up through column indices worked out once from the header.
"""

import csv
import io
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from datetime import date, datetime
from pathlib import Path
from typing import BinaryIO, NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict

from threefold.context.render import fold
from threefold.domain import as_utc
from threefold.errors import InvalidInput
from threefold.sources.problems import CappedList
from threefold.sources.workflow import DONE_WORDS, finished_status, status_word

__all__ = [
    "JiraIssue",
    "JiraRead",
    "Problem",
    "ProjectStats",
    "finished_status",
    "parse_jira_date",
    "project_stats",
    "read_jira_csv",
    "unread_columns",
    "YearlessDate",
]

# Field -> accepted header names (normalised); earlier names win when several are present.
_COLUMNS: dict[str, tuple[str, ...]] = {
    "key": ("issue key",),
    "project_key": ("project key",),
    "project_name": ("project name",),
    "project_lead": ("project lead",),
    "summary": ("summary",),
    "description": ("description",),
    "issue_type": ("issue type",),
    "status": ("status",),
    "status_category": ("status category",),
    "priority": ("priority",),
    "resolution": ("resolution",),
    "assignee": ("assignee",),
    "reporter": ("reporter",),
    "created": ("created",),
    "updated": ("updated",),
    "resolved": ("resolved",),
    "due": ("due date", "duedate"),
    "parent": ("parent key", "parent", "parent id"),
    "sprints": ("sprint",),
    "labels": ("labels",),
    "components": ("component/s", "components"),
    "fix_versions": ("fix version/s", "fix versions"),
    "watchers": ("watchers",),
    "comments": ("comment",),
    "story_points": (
        "custom field (story points)",
        "custom field (story point estimate)",
        "story points",
        "story point estimate",
    ),
}

_LINK_COLUMN = re.compile(r"(inward|outward) issue link \((.+)\)")
# Link type -> what the outward issue does to the inward one.
_LINK_VERBS = {
    "blocks": "blocks",
    "blocker": "blocks",
    "relates": "relates to",
    "duplicate": "duplicates",
    "cloners": "clones",
    "problem/incident": "causes",
    "dependency": "depends on",
}
_KNOWN_COLUMNS = frozenset(name for names in _COLUMNS.values() for name in names)

_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTH_BY_ABBR = {name[:3]: number for number, name in enumerate(_MONTHS, 1)}

_JIRA_DATE = re.compile(
    r"(\d{1,2})/([A-Za-z]{3,9})/(\d{4}|\d{2})"
    r"(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp][Mm]))?)?"
)
_TIME = r"(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp][Mm]))?)?"
_YEARLESS = (
    re.compile(r"(\d{1,2})[\s/-]+([A-Za-z]{3,9})\.?" + _TIME),  # 17 Jun, 17/Jun 3:45 PM
    re.compile(r"([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?" + _TIME),  # Jun 17th
)
_DATE_FIELDS = ("updated", "created", "resolved", "due")
"""In the order a date without a year is read by: the row's update first."""
_ISO_START = re.compile(r"\d{4}-\d{2}-\d{2}")
_DATE_HINT = "expected a date like '12/Mar/24 3:45 PM', '12/Mar/24' or '2024-03-12 15:45'"
_LIST_LIMIT = 10

_T = TypeVar("_T")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class JiraIssue(_Frozen):
    """One issue row of an export; empty cells are None (or "" / () for text and lists)."""

    key: str
    project_key: str
    project_name: str | None = None
    project_lead: str | None = None
    summary: str = ""
    description: str = ""
    issue_type: str | None = None
    status: str | None = None
    status_category: str | None = None
    priority: str | None = None
    resolution: str | None = None
    assignee: str | None = None
    reporter: str | None = None
    created: datetime | None = None
    updated: datetime | None = None
    resolved: datetime | None = None
    due: date | None = None
    sprints: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    components: tuple[str, ...] = ()
    fix_versions: tuple[str, ...] = ()
    watchers: tuple[str, ...] = ()
    comments: tuple[str, ...] = ()
    story_points: float | None = None
    parent: str | None = None
    links: tuple[tuple[str, str, str], ...] = ()
    """(issue, verb, issue), always said the outward way: ("EL-3", "blocks", "EL-5"),
    whichever of the two rows named the link."""
    row: int
    """1-based line of the file where this record starts."""

    @property
    def done(self) -> bool:
        # The category is Jira's own verdict; custom workflow names are only a fallback.
        if self.status_category is not None:
            return status_word(self.status_category) == "done"
        return status_word(self.status) in DONE_WORDS or status_word(self.resolution) in DONE_WORDS

    @property
    def current_sprint(self) -> str | None:
        return self.sprints[-1] if self.sprints else None


class Problem(_Frozen):
    """A row that was skipped or only partly read, by its 1-based line in the file."""

    row: int
    error: str


def _header_name(name: str) -> str:
    return " ".join(name.split()).casefold()


class YearlessDate(ValueError):
    """A date cell that names its day and month but no year ("17 Jun"): which year it
    means is read from the dates around it (see `nearest`)."""

    def __init__(self, text: str, month: int, day: int, clock: tuple[int, int, int]) -> None:
        super().__init__(f"cannot read date {text!r}: it names no year")
        self.month, self.day, self.clock = month, day, clock

    def nearest(self, reference: datetime) -> datetime:
        """The day of this month and day nearest to `reference`: an export says "17 Jun"
        of the weeks it was made in, before or after."""
        found = []
        for year in (reference.year - 1, reference.year, reference.year + 1):
            try:
                found.append(datetime(year, self.month, self.day, *self.clock))
            except ValueError:  # 29 Feb of a year without one
                continue
        naive = reference.replace(tzinfo=None)
        return min(found, key=lambda moment: abs(moment - naive))


def parse_jira_date(text: str) -> datetime | None:
    """A UTC-aware datetime from a Jira date cell; empty -> None, garbage -> ValueError.

    Naive times are taken as UTC: exports carry no zone and the exporting user's is unknown.
    """
    moment = _parse_moment(text)
    return None if moment is None else as_utc(moment)


def _parse_moment(text: str) -> datetime | None:
    """Like parse_jira_date but keeps the cell's own zone, so a due day is not shifted."""
    text = text.strip()
    if not text:
        return None
    match = _JIRA_DATE.fullmatch(text)
    if match:
        return _from_jira_match(match, text)
    if _ISO_START.match(text):
        try:
            return datetime.fromisoformat(text)
        except ValueError:
            pass
    for pattern in _YEARLESS:
        if found := pattern.fullmatch(text):
            _yearless(found, text, day_first=pattern is _YEARLESS[0])
    raise ValueError(f"cannot read date {text!r}: {_DATE_HINT}")


def _yearless(found: re.Match[str], text: str, *, day_first: bool) -> None:
    """Raise YearlessDate for a cell read as day and month; ValueError if it is not one."""
    first, second, hour_text, minute, second_text, half = found.groups()
    day_text, month_word = (first, second) if day_first else (second, first)
    month, day, hour = _month(month_word), int(day_text), _hour(int(hour_text or 0), half, text)
    try:
        datetime(2000, month, day)  # a leap year: any real day and month fits it
    except ValueError as exc:
        raise ValueError(f"cannot read date {text!r}: {exc}") from None
    raise YearlessDate(text, month, day, (hour, int(minute or 0), int(second_text or 0)))


def _hour(hour: int, half: str | None, text: str) -> int:
    if half is None:
        return hour
    if not 1 <= hour <= 12:
        raise ValueError(f"cannot read date {text!r}: hour {hour} with {half.upper()}")
    # 12 AM is midnight and 12 PM is noon; every other hour just shifts by 12 after noon.
    return hour % 12 + (12 if half.casefold() == "pm" else 0)


def _from_jira_match(match: re.Match[str], text: str) -> datetime:
    day, month_word, year_text, hour_text, minute, second, half = match.groups()
    month = _month(month_word)
    year = int(year_text) + (2000 if len(year_text) == 2 else 0)
    hour = _hour(int(hour_text or 0), half, text)
    try:
        return datetime(year, month, int(day), hour, int(minute or 0), int(second or 0))
    except ValueError as exc:
        raise ValueError(f"cannot read date {text!r}: {exc}") from None


def _month(word: str) -> int:
    lowered = word.casefold()
    number = _MONTH_BY_ABBR.get(lowered[:3])
    # Accept "Sep", "Sept" and "September", but not "Sepx".
    if number is None or not _MONTHS[number - 1].startswith(lowered):
        raise ValueError(f"unknown month {word!r}: use English month names such as 'Mar'")
    return number


def _link_layout(header: list[str]) -> tuple[tuple[int, str, bool], ...]:
    """(column, outward verb, whether the row's issue is the outward one) of each
    issue-link column, e.g. 'Outward issue link (Blocks)'."""
    found = []
    for index, name in enumerate(header):
        match = _LINK_COLUMN.fullmatch(_header_name(name))
        if match:
            link_type = match[2].strip()
            verb = _LINK_VERBS.get(link_type, f"{link_type} links to")
            found.append((index, verb, match[1] == "outward"))
    return tuple(found)


def unread_columns(header: Iterable[str]) -> tuple[str, ...]:
    """The header's columns that no field is read from, each named once, in file order."""
    return tuple(
        dict.fromkeys(
            name
            for name in header
            if _header_name(name) not in _KNOWN_COLUMNS
            and not _LINK_COLUMN.fullmatch(_header_name(name))
        )
    )


def _layout(header: list[str]) -> dict[str, tuple[int, ...]]:
    positions: dict[str, list[int]] = {}
    for index, name in enumerate(header):
        positions.setdefault(_header_name(name), []).append(index)
    return {
        field: tuple(i for name in names for i in positions.get(name, ()))
        for field, names in _COLUMNS.items()
    }


def _cells(row: list[str], indices: tuple[int, ...]) -> list[str]:
    """The non-empty, stripped values of these columns, in column order."""
    return [value for value in (row[index].strip() for index in indices) if value]


def _text(value: str) -> str:
    # csv keeps the "\r\n" of quoted multi-line cells; one newline style is easier downstream.
    return value.replace("\r\n", "\n").replace("\r", "\n")


def _parse_points(text: str) -> float:
    if "," in text and "." not in text:
        text = text.replace(",", ".")  # some locales export "2,5"
    points = float(text)
    if not math.isfinite(points) or points < 0:
        raise ValueError(f"story points must be a non-negative number, got {text!r}")
    return points


class _RowReader:
    """Turns one CSV row into a JiraIssue, recording what it could not read."""

    def __init__(
        self,
        layout: dict[str, tuple[int, ...]],
        links: tuple[tuple[int, str, bool], ...],
        problems: list[Problem],
        as_of: datetime | None = None,
    ) -> None:
        self._layout = layout
        self._links = links
        self._problems = problems
        self._as_of = as_of
        used = [i for indices in layout.values() for i in indices] + [i for i, *_ in links]
        self._width = 1 + max(used, default=-1)

    def _linked(self, row: list[str], key: str) -> tuple[tuple[str, str, str], ...]:
        found = []
        for index, verb, outward in self._links:
            # Usually one key per column; some exports join several with commas.
            for other in re.split(r"[,;\s]+", row[index].strip().upper()):
                if other and other != key:
                    found.append((key, verb, other) if outward else (other, verb, key))
        return tuple(dict.fromkeys(found))

    def _first(self, row: list[str], field: str) -> str | None:
        # Most fields have one column; stop at the first filled one without building a list.
        for index in self._layout[field]:
            value = row[index].strip()
            if value:
                return value
        return None

    def _many(self, row: list[str], field: str, *, unique: bool = True) -> tuple[str, ...]:
        found = _cells(row, self._layout[field])
        return tuple(dict.fromkeys(found)) if unique else tuple(_text(v) for v in found)

    def _parsed(
        self, row: list[str], field: str, line: int, key: str, parse: Callable[[str], _T]
    ) -> _T | None:
        raw = self._first(row, field)
        if raw is None:
            return None
        try:
            return parse(raw)
        except ValueError as exc:
            self._problems.append(Problem(row=line, error=f"{key}: {field}: {exc}; left empty"))
            return None

    def _dates(self, row: list[str], line: int, key: str) -> dict[str, datetime | None]:
        """The row's dates, in UTC but for the due day, which keeps its own. A date that
        names no year ("17 Jun") is the nearest such day to the row's own update, creation
        or resolution, else to the export's time."""
        found: dict[str, datetime | None] = {}
        yearless: dict[str, YearlessDate] = {}
        for field in _DATE_FIELDS:
            found[field] = None
            raw = self._first(row, field)
            if raw is None:
                continue
            try:
                found[field] = _parse_moment(raw)
            except YearlessDate as exc:
                yearless[field] = exc
            except ValueError as exc:
                self._problems.append(Problem(row=line, error=f"{key}: {field}: {exc}; left empty"))
        dated = [found[f] for f in _DATE_FIELDS if f != "due" and found[f] is not None]
        reference = dated[0] if dated else self._as_of
        for field, undated in yearless.items():
            if reference is None:
                error = f"{key}: {field}: {undated}, and no date of the row or import tells it"
                self._problems.append(Problem(row=line, error=f"{error}; left empty"))
            else:
                found[field] = undated.nearest(reference)
        return {f: m if f == "due" or m is None else as_utc(m) for f, m in found.items()}

    def read(self, row: list[str], line: int) -> JiraIssue | None:
        if len(row) < self._width:
            # Padding short rows once spares a bounds check in every field lookup.
            row = row + [""] * (self._width - len(row))
        key = self._first(row, "key")
        if key is None:
            self._problems.append(Problem(row=line, error="no issue key; row skipped"))
            return None
        dates = self._dates(row, line, key)
        due = dates["due"]
        return JiraIssue(
            key=key,
            project_key=self._first(row, "project_key") or key.rpartition("-")[0] or key,
            project_name=self._first(row, "project_name"),
            project_lead=self._first(row, "project_lead"),
            summary=self._first(row, "summary") or "",
            description=_text(self._first(row, "description") or ""),
            issue_type=self._first(row, "issue_type"),
            status=self._first(row, "status"),
            status_category=self._first(row, "status_category"),
            priority=self._first(row, "priority"),
            resolution=self._first(row, "resolution"),
            assignee=self._first(row, "assignee"),
            reporter=self._first(row, "reporter"),
            created=dates["created"],
            updated=dates["updated"],
            resolved=dates["resolved"],
            due=None if due is None else due.date(),
            sprints=self._many(row, "sprints"),
            labels=self._many(row, "labels"),
            components=self._many(row, "components"),
            fix_versions=self._many(row, "fix_versions"),
            watchers=self._many(row, "watchers"),
            comments=self._many(row, "comments", unique=False),
            story_points=self._parsed(row, "story_points", line, key, _parse_points),
            parent=self._first(row, "parent"),
            links=self._linked(row, key),
            row=line,
        )


_MAX_ROW_BYTES = 4 * 1024 * 1024
_LINE_CHUNK = 64 * 1024
_QUOTE = ord('"')


class JiraRead:
    """An opened export. `issues()` streams rows from disk on each call; `problems` holds
    the rows the latest pass skipped or only partly read (it fills while you iterate)."""

    def __init__(
        self,
        path: Path,
        columns: tuple[str, ...],
        max_row_bytes: int = _MAX_ROW_BYTES,
        as_of: datetime | None = None,
    ) -> None:
        self.path = path
        self.as_of = as_of
        """The export's time, by which a date without a year is read when its row has none."""
        self.columns = columns
        self.problems: CappedList[Problem] = CappedList()
        self._layout = _layout(list(columns))
        self._links = _link_layout(list(columns))
        self.unread_columns = unread_columns(columns)
        """Columns no field is read from: the import report lists them."""
        self._max_row_bytes = max_row_bytes

    def __iter__(self) -> Iterator[JiraIssue]:
        return self.issues()

    def issues(self) -> Iterator[JiraIssue]:
        # Cleared in place so a reference taken before iterating still sees this pass.
        self.problems.clear()
        reader = _RowReader(self._layout, self._links, self.problems, self.as_of)
        with _open(self.path) as handle:
            rows = _rows(_raw_records(handle, self._max_row_bytes), self.problems)
            next(rows, None)  # the header, already read by read_jira_csv
            for line, row in rows:
                issue = self._issue(reader, row, line)
                if issue is not None:
                    yield issue

    def _issue(self, reader: _RowReader, row: list[str], line: int) -> JiraIssue | None:
        try:
            return reader.read(row, line)
        except (ValueError, TypeError) as exc:
            # One row nobody foresaw must not cost the rows after it.
            self.problems.append(Problem(row=line, error=f"unreadable ({exc}); row skipped"))
            return None


class _RawRecord(NamedTuple):
    line: int
    """The 1-based line of the file where the record starts."""
    data: bytes | None
    """The record's bytes; None when it is over the limit and was not kept."""
    size: int


def _open(path: Path) -> BinaryIO:
    try:
        return path.open("rb")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise InvalidInput(f"{path} does not exist or is not a file") from None
    except (OSError, ValueError) as exc:  # unreadable, a name too long, a NUL in the name
        raise InvalidInput(f"cannot open {path!r}: {exc}") from None


def _raw_records(handle: BinaryIO, max_bytes: int) -> Iterator[_RawRecord]:
    """The file cut into CSV records without parsing them: a newline ends a record unless
    a quoted field is open (an odd number of quotes so far). Reading goes in bounded
    chunks, and a record over `max_bytes` is measured but not kept, so that no line
    however long is ever held whole, and csv parses each record on its own: a record it
    cannot read costs only itself."""
    line = 0
    while True:
        start, parts, size, quotes = line + 1, [], 0, 0
        while chunk := handle.readline(_LINE_CHUNK):
            size += len(chunk)
            quotes += chunk.count(_QUOTE)
            if size <= max_bytes:
                parts.append(chunk)
            if chunk.endswith(b"\n"):
                line += 1
                if quotes % 2 == 0:
                    break
        if size == 0:
            return
        yield _RawRecord(start, b"".join(parts) if size <= max_bytes else None, size)


def _rows(
    records: Iterable[_RawRecord], problems: list[Problem]
) -> Iterator[tuple[int, list[str]]]:
    """(first line, cells) of each non-blank row; a record that cannot be read is a problem."""
    for number, record in enumerate(records):
        try:
            rows = _parse(record, first=number == 0)
        except _BadRecord as exc:
            if number == 0:
                raise InvalidInput(
                    f"the header row {exc}; export the CSV from Jira again"
                ) from None
            problems.append(Problem(row=record.line, error=f"{exc}; row skipped"))
            continue
        for offset, row in enumerate(rows):
            if any(cell.strip() for cell in row):
                yield record.line + offset, row


class _BadRecord(Exception):
    """Internal: why one record could not be read."""


def _parse(record: _RawRecord, *, first: bool) -> list[list[str]]:
    if record.data is None:
        raise _BadRecord(f"is {record.size:,} bytes, over imports.max_row_bytes")
    try:
        # utf-8-sig drops the BOM Jira (and Excel) put in front of the header.
        text = record.data.decode("utf-8-sig" if first else "utf-8")
    except UnicodeDecodeError as exc:
        raise _BadRecord(f"is not UTF-8 text (bad byte at {exc.start})") from None
    try:
        return list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as exc:
        raise _BadRecord(f"is malformed CSV: {exc}") from None


def read_jira_csv(
    path: str | Path, max_row_bytes: int = _MAX_ROW_BYTES, as_of: datetime | None = None
) -> JiraRead:
    """Open a Jira CSV export and check its header; rows are read later, by `issues()`.
    `as_of`: the export's time, which reads a date without a year in a row that has no
    other date.

    A row over `max_row_bytes`, not UTF-8 or not readable as CSV is skipped and listed in
    the read's problems; a bad header refuses the whole file."""
    path = Path(path)
    with _open(path) as handle:
        first = next(_rows(_raw_records(handle, max_row_bytes), []), None)
    if first is None:
        raise InvalidInput(f"{path} is empty: expected a Jira CSV export with a header row")
    columns = tuple(cell.strip() for cell in first[1])
    if not any(_header_name(name) == "issue key" for name in columns):
        shown = ", ".join(repr(name) for name in dict.fromkeys(columns[:20]))
        more = f" and {len(columns) - 20} more" if len(columns) > 20 else ""
        raise InvalidInput(
            f"{path} does not look like a Jira CSV export: no 'Issue key' column; "
            f"found columns: {shown}{more}"
        )
    return JiraRead(path, columns, max_row_bytes, as_of)


class ProjectStats(_Frozen):
    """Counts for one project as of a moment; `render()` says it in a few lines."""

    project_key: str
    as_of: datetime
    total: int
    by_status: dict[str, int]
    """Ordered by count, largest first."""
    points_done: float | None
    points_remaining: float | None
    """Both None when no issue has story points."""
    overdue: tuple[str, ...]
    """Open issues due before as_of's day, earliest due first."""
    due_dates: dict[str, date]
    """Due date of each overdue issue."""
    unassigned: tuple[str, ...]
    load: dict[str, int]
    """Assignee -> open issues, most loaded first."""

    def render(self) -> str:
        """The counts as lines of text; every cell in them (a status, a key, a name) is
        folded onto its line, so a cell holding line breaks cannot start a line of its own."""
        noun = "issue" if self.total == 1 else "issues"
        statuses = ", ".join(f"{fold(status)} {count}" for status, count in self.by_status.items())
        head = (
            f"{fold(self.project_key)}, {self.total} {noun} as of {self.as_of.date()}: {statuses}."
        )
        lines = [head]
        if self.points_done is not None and self.points_remaining is not None:
            lines.append(
                f"Story points: {_number(self.points_done)} done, "
                f"{_number(self.points_remaining)} remaining."
            )
        overdue = [f"{fold(key)} (due {self.due_dates[key]})" for key in self.overdue]
        lines.append(_listing("Overdue", overdue))
        lines.append(_listing("Unassigned open", [fold(key) for key in self.unassigned]))
        load = [f"{fold(who)} {count}" for who, count in self.load.items()]
        lines.append(f"Load: {_shortened(load)}." if load else "Load: nothing open.")
        return "\n".join(lines)


def _number(value: float) -> str:
    return str(int(value)) if value.is_integer() else f"{value:.2f}".rstrip("0")


def _shortened(items: list[str]) -> str:
    # Long lists drown the useful part of a prompt; the count still says how many.
    shown = ", ".join(items[:_LIST_LIMIT])
    extra = len(items) - _LIST_LIMIT
    return f"{shown} and {extra} more" if extra > 0 else shown


def _listing(title: str, items: list[str]) -> str:
    if not items:
        return f"{title}: none."
    return f"{title} ({len(items)}): {_shortened(items)}."


class _Slim(NamedTuple):
    """Just what the stats need, so a big export is not held whole in memory."""

    project: str
    updated: datetime | None
    status: str
    done: bool
    points: float | None
    due: date | None
    assignee: str | None


def _slim(issue: JiraIssue) -> _Slim:
    return _Slim(
        project=issue.project_key,
        updated=issue.updated,
        status=issue.status or "(no status)",
        done=issue.done,
        points=issue.story_points,
        due=issue.due,
        assignee=issue.assignee,
    )


def _supersedes(new: datetime | None, old: datetime | None) -> bool:
    # Ties go to the later row: a second export appended to the first is the newer one.
    if new is None:
        return old is None
    return old is None or new >= old


def _key_order(key: str) -> tuple[str, int, str]:
    """ALPHA-9 before ALPHA-10."""
    prefix, _, number = key.rpartition("-")
    if number.isascii() and number.isdigit():
        return prefix, int(number), key
    return key, -1, key


def _by_count(counts: Counter[str]) -> dict[str, int]:
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0].casefold(), item[0])))


def _points(issues: list[_Slim], *, done: bool) -> float | None:
    if not issues:
        return None
    return math.fsum(s.points or 0.0 for s in issues if s.done is done)


def _stats(project: str, issues: dict[str, _Slim], as_of: datetime) -> ProjectStats:
    today = as_of.date()
    with_points = [s for s in issues.values() if s.points is not None]
    open_issues = {key: s for key, s in issues.items() if not s.done}
    overdue = sorted(
        ((s.due, key) for key, s in open_issues.items() if s.due is not None and s.due < today),
        key=lambda pair: (pair[0], _key_order(pair[1])),
    )
    unassigned = [key for key, s in open_issues.items() if s.assignee is None]
    return ProjectStats(
        project_key=project,
        as_of=as_of,
        total=len(issues),
        by_status=_by_count(Counter(s.status for s in issues.values())),
        points_done=_points(with_points, done=True),
        points_remaining=_points(with_points, done=False),
        overdue=tuple(key for _, key in overdue),
        due_dates={key: due for due, key in overdue},
        unassigned=tuple(sorted(unassigned, key=_key_order)),
        load=_by_count(Counter(s.assignee for s in open_issues.values() if s.assignee)),
    )


def project_stats(issues: Iterable[JiraIssue], as_of: datetime) -> dict[str, ProjectStats]:
    """Stats per project key (sorted); a key seen twice keeps the row updated last."""
    as_of = as_utc(as_of)
    latest: dict[str, _Slim] = {}
    for issue in issues:
        slim = _slim(issue)
        previous = latest.get(issue.key)
        if previous is None or _supersedes(slim.updated, previous.updated):
            latest[issue.key] = slim
    by_project: dict[str, dict[str, _Slim]] = {}
    for key, slim in latest.items():
        by_project.setdefault(slim.project, {})[key] = slim
    return {project: _stats(project, by_project[project], as_of) for project in sorted(by_project)}
