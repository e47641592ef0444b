"""Daily digests: what changed in one stream on one day, in a given time zone, grouped as
a lead reads it: tracker issues done, moved, opened or reassigned (counted where the list
is long); decisions, commitments, blockers, deadlines and roles first stated; questions
nobody answered, with who asked; and what was discussed, told of who said it.

A day's digest is stored once per (stream, day, time zone) and written again when the
day's items change. What was discussed is the model's summarize task, so the llm model
writes it where one is configured; tracker rows and shared files are not discussion and
are left out of it (the rows are read as changes, the files counted).
"""

from datetime import UTC, date, datetime
from typing import Any

from threefold.context.render import inline
from threefold.domain import (
    FactCategory,
    Record,
    SourceRef,
    Turn,
    Visibility,
    as_utc,
    most_private,
)
from threefold.models.base import MemoryModel, TurnInput
from threefold.models.heuristic.blocks import OPEN_PREFIX
from threefold.models.heuristic.text import content_words, coverage
from threefold.store.base import Store
from threefold.team import voice
from threefold.team.model import Change, DailyDigest, Digest, ProfileItem
from threefold.team.periods import Days

DAY_TOKENS = 160
LEARNED = frozenset(
    {
        FactCategory.DECISION,
        FactCategory.COMMITMENT,
        FactCategory.BLOCKER,
        FactCategory.DEADLINE,
        FactCategory.ASSIGNMENT,
        FactCategory.ROLE,
        FactCategory.HANDOFF,
    }
)
_LEARNED_ITEMS = 12
LISTED = 5
"""A group of changes longer than this is counted, its first few named."""
_VERSION = "2"
"""Part of a stored day's fingerprint: a digest written by an older layout is rewritten."""
_GROUPS = ("done", "moved", "opened", "reassigned", "updated")
_TITLES = {
    FactCategory.DECISION: "Decided",
    FactCategory.BLOCKER: "Blocked",
    FactCategory.COMMITMENT: "Committed",
    FactCategory.DEADLINE: "Deadlines",
    FactCategory.ASSIGNMENT: "Assigned",
    FactCategory.ROLE: "Roles",
    FactCategory.HANDOFF: "Handed over",
}
_NOT_DISCUSSION = frozenset({"bot", "file_share", "issue"})


def period_digest(
    store: Store,
    model: MemoryModel,
    tenant: str,
    stream: str,
    days: Days,
    timezone: str,
    visibilities: tuple[Visibility, ...],
) -> Digest:
    every = visibilities == tuple(Visibility)
    stored = (
        {
            row["day"]: row
            for row in store.digest_rows(
                tenant, stream, days.first.isoformat(), days.last.isoformat(), timezone
            )
        }
        if every
        else {}
    )
    daily = []
    for day in days.each():
        built = _day(store, model, tenant, stream, day, days, visibilities, stored.get(str(day)))
        if built.items:
            daily.append(built)
    return Digest(
        stream=stream,
        period=days.label,
        first_day=days.first,
        last_day=days.last,
        timezone=timezone,
        days=tuple(daily),
        text=_text(stream, days, timezone, daily),
        empty=not daily,
    )


def _day(
    store: Store,
    model: MemoryModel,
    tenant: str,
    stream: str,
    day: date,
    days: Days,
    visibilities: tuple[Visibility, ...],
    stored: dict | None,
) -> DailyDigest:
    start, end = days.bounds(day)
    records = [
        r for r in store.records_between(tenant, stream, start, end) if r.visibility in visibilities
    ]
    turns = [
        t for t in store.turns_between(tenant, stream, start, end) if t.visibility in visibilities
    ]
    if not records and not turns:
        return DailyDigest(day=day, text="", items=0)
    mark = _fingerprint(records, turns)
    if stored is not None and stored.get("fingerprint") == mark:
        return DailyDigest.model_validate(
            {k: v for k, v in stored.items() if k in DailyDigest.model_fields}
        )
    chat = [r for r in records if r.source != "jira"]
    tracker = [r for r in records if r.source == "jira"]
    said = [_as_turn(stream, r) for r in chat if r.kind not in _NOT_DISCUSSION] or [
        _as_turn(stream, r) for r in chat if r.kind == "bot"
    ]
    said += [
        TurnInput(stream=stream, user=t.user, assistant=t.assistant, at=t.at, speaker=t.speaker)
        for t in turns
    ]
    said.sort(key=lambda t: t.at)
    text = model.summarize_session(said, DAY_TOKENS).text.strip() if said else ""
    digest = DailyDigest(
        day=day,
        text="\n".join(voice.told_of(line) for line in text.splitlines()),
        items=len(records) + len(turns),
        learned=tuple(_told(_learned(store, tenant, stream, start, end, visibilities), chat)),
        changes=tuple(_changes(store, tenant, tracker)),
        questions=tuple(_open_questions(chat)),
        messages=len(chat) + len(turns),
        tracker=len(tracker),
        files=sum(1 for r in chat if r.kind == "file_share"),
        sources=tuple([r.ref() for r in records] + [t.ref() for t in turns]),
        visibility=most_private([r.visibility for r in records] + [t.visibility for t in turns]),
    )
    if visibilities == tuple(Visibility):
        data = digest.model_dump(mode="json", exclude={"visibility", "day"})
        store.put_digest(
            tenant,
            stream,
            day.isoformat(),
            days.zone.key,
            {**data, "fingerprint": mark},
            digest.visibility,
        )
    return digest


def _learned(
    store: Store,
    tenant: str,
    stream: str,
    start: datetime,
    end: datetime,
    visibilities: tuple[Visibility, ...],
) -> list[ProfileItem]:
    facts = [
        f
        for f in store.facts(tenant, stream)
        if f.category in LEARNED
        and (f.category is FactCategory.BLOCKER or f.source.kind != "jira.issue")
        and f.visibility in visibilities
        and start <= as_utc(f.source.at or f.recorded_at) < end
    ]
    facts.sort(key=lambda f: (f.category != FactCategory.DECISION, f.source.at or f.recorded_at))
    return [
        ProfileItem(
            text=f.text,
            source=f.source,
            visibility=f.visibility,
            fact_id=f.id,
            stream=stream,
            category=f.category.value,
        )
        for f in facts[:_LEARNED_ITEMS]
    ]


def _told(items: list[ProfileItem], chat: list[Record]) -> list[ProfileItem]:
    """Learned items as a lead reads them: one per message and kind (a message read as
    two blockers is one), but each decision of a compound one ("DOCK-5 goes into sprint 7
    and DOCK-7 is parked"); each told of the person who said it."""
    authors = {str(r.id): r.author for r in chat}
    seen: set[tuple[str, str]] = set()
    out = []
    for item in items:
        said_in = item.source.id if item.source.kind.startswith("slack.") else ""
        if item.category == FactCategory.DECISION.value:
            said_in = ""  # each decision is told: a message that makes two made two
        if said_in and (item.category, said_in) in seen:
            continue
        seen.add((item.category, said_in or str(item.fact_id)))
        author = authors.get(said_in, "")
        first = (author.split() or [""])[0]
        if first:
            name = first[:1].upper() + first[1:]
            item = item.model_copy(update={"text": voice.in_third_person(item.text, name)})
        out.append(item)
    return out


def _as_turn(stream: str, record: Record) -> TurnInput:
    return TurnInput(stream=stream, user=f"{record.author}: {record.text}", at=record.at)


def _fingerprint(records: list[Record], turns: list[Turn]) -> str:
    return (
        f"{_VERSION}:{len(records)}:{max((r.id for r in records), default=0)}:{len(turns)}:"
        + str(max((t.id for t in turns), default=0))
    )


def _changes(store: Store, tenant: str, tracker: list[Record]) -> list[Change]:
    """What each of the day's tracker rows changed, against the issue's version before it
    (every export of an issue is kept, so the one before is known)."""
    versions: dict[str, dict[str, list[tuple[datetime, dict]]]] = {}
    out = []
    for record in sorted(tracker, key=lambda r: (r.at, r.id)):
        if record.channel not in versions:
            versions[record.channel] = _versions(store.record_data(tenant, "jira", record.channel))
        key = record.external_id.rpartition("@")[0] or record.external_id
        history = versions[record.channel].get(key, [])
        now = next((d for at, d in history if at == as_utc(record.at)), None)
        before = [d for at, d in history if at < as_utc(record.at)]
        if now is not None:
            out.append(_change(key, now, before[-1] if before else None, record))
    return out


def _versions(rows: list[dict]) -> dict[str, list[tuple[datetime, dict]]]:
    from threefold.sources.jira import JiraIssue  # only a day with tracker rows needs it

    found: dict[str, list[tuple[datetime, dict]]] = {}
    for row in rows:
        issue = JiraIssue.model_validate(row)
        at = issue.updated or issue.created
        if at is not None:
            found.setdefault(issue.key, []).append((as_utc(at), row))
    for history in found.values():
        history.sort(key=lambda pair: pair[0])
    return found


def _change(key: str, now: dict, before: dict | None, record: Record) -> Change:
    from threefold.sources.workflow import finished_status

    status, summary = now.get("status") or "", " ".join((now.get("summary") or "").split())
    named = f"{key} {summary}".strip()
    old = (before or {}).get("status") or ""
    holder = now.get("assignee") or "unassigned"
    if finished_status(status) and not (before and finished_status(old)):
        group, text = "done", named
    elif before is None:
        created = str(now.get("created") or "")[:10]
        group = "opened" if created == record.at.date().isoformat() else "updated"
        text = f"{named} ({status or 'no status'}, {holder})"
    elif old != status:
        group, text = "moved", f"{named}: {old or 'no status'} -> {status or 'no status'}"
    elif (before.get("assignee") or "unassigned") != holder:
        group = "reassigned"
        text = f"{named}: {before.get('assignee') or 'unassigned'} -> {holder}"
    else:
        group, text = "updated", f"{named} ({status or 'no status'}, {holder})"
    return Change(group=group, key=key, text=text, source=record.ref())


def _open_questions(chat: list[Record]) -> list[ProfileItem]:
    """The day's questions that nobody else answered that day, in its thread or by
    addressing the asker, each told with who asked."""
    from threefold.team import cues  # loaded with a digest that has messages, not a context

    out = []
    spoken = [r for r in chat if r.kind not in _NOT_DISCUSSION]
    for asked in spoken:
        if not cues.is_question(asked.text) or _answered(asked, spoken, cues):
            continue
        said = " ".join(asked.text.split())
        said = said if len(said) <= 200 else said[:199] + "…"
        out.append(
            ProfileItem(
                text=f"{asked.author} asked: {said}",
                source=asked.ref(),
                visibility=asked.visibility,
                record_id=asked.id,
                stream=asked.stream,
            )
        )
    return out


def _answered(asked: Record, spoken: list[Record], cues: Any) -> bool:
    thread = asked.thread or asked.external_id
    first = (asked.author.lower().split() or [""])[0]
    for reply in spoken:
        if reply.at <= asked.at or reply.author == asked.author:
            continue
        if reply.thread == thread:
            return True
        if first in cues.mentions(reply.text) and not cues.is_question(reply.text):
            return True
    return False


def _text(stream: str, days: Days, timezone: str, daily: list[DailyDigest]) -> str:
    span = str(days.first) if days.first == days.last else f"{days.first} to {days.last}"
    if not daily:
        return f"No activity in {stream} {days.label} ({span}, {timezone}): nothing to digest."
    blocks = [f"{stream}, {days.label} ({span}, {timezone}):"]
    for day in daily:
        blocks.append(f"### {day.day} ({_counted(day)})")
        blocks += [f"- {text}" for text, _ in _sections(day)]
    return "\n".join(blocks)


def _counted(day: DailyDigest) -> str:
    if not (day.messages or day.tracker):
        return f"{day.items} items"  # stored by an older layout
    parts = [
        _plural(day.messages, "message"),
        _plural(day.tracker, "tracker update"),
        _plural(day.files, "file") + " shared",
    ]
    return ", ".join(
        part for part, n in zip(parts, (day.messages, day.tracker, day.files), strict=True) if n
    )


def _plural(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def _sections(day: DailyDigest) -> list[tuple[str, list[SourceRef]]]:
    """The day as lines, each with the sources it was made from: changes by group, what
    was learned by kind, open questions, then what was discussed."""
    out: list[tuple[str, list[SourceRef]]] = []
    for group in _GROUPS:
        changes = [c for c in day.changes if c.group == group]
        if changes:
            shown = "; ".join(c.text for c in changes[:LISTED])
            more = f"; and {len(changes) - LISTED} more" if len(changes) > LISTED else ""
            line = f"{group.capitalize()} ({len(changes)}): {shown}{more}"
            out.append((line, [c.source for c in changes]))
    for category, title in _TITLES.items():
        items = [i for i in day.learned if i.category == category.value]
        out += [(f"{title}: {inline(i.text)}", [i.source]) for i in items]
    out += [(f"Open question: {inline(q.text)}", [q.source]) for q in day.questions]
    said = [_plain(line) for line in day.text.splitlines() if line.strip()]
    told = [content_words(i.text) for i in (*day.learned, *day.questions)]
    out += [(f"Discussed: {inline(line)}", []) for line in said if not _retold(line, told)]
    return out


_RETOLD = 0.6
"""A discussed line whose content words are mostly those of a line above it tells it
again ("Ulla promises to deliver the plan by Wednesday" under "Committed: Ulla will
deliver the plan by Wednesday")."""


def _retold(line: str, told: list[frozenset[str]]) -> bool:
    words = content_words(line)
    return any(coverage(words, other) >= _RETOLD for other in told)


def _plain(line: str) -> str:
    """A summary line without its bullet or the summariser's mark of an open item."""
    line = line.strip().removeprefix("- ").removeprefix("* ").strip()
    return line.removeprefix(OPEN_PREFIX.removeprefix("- ")).strip()


def lines(digest: Digest) -> list[tuple[str, SourceRef | None]]:
    """The digest as context lines, each citing its source (a day's summary cites the day)."""
    if digest.empty:
        return [(digest.text, None)]
    out: list[tuple[str, SourceRef | None]] = []
    for day in digest.days:
        ref = SourceRef(
            kind="digest",
            id=f"{digest.stream}@{day.day}",
            at=datetime(day.day.year, day.day.month, day.day.day, tzinfo=UTC),
        )
        for text, sources in _sections(day):
            out.append((f"{day.day}: {text}", sources[0] if sources else ref))
    return out
