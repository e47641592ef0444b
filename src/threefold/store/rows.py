"""Rows into domain types, the same for both stores whatever SQL fetched them.

The only difference between the backends' rows is how a time comes back: SQLite keeps
fixed-width UTC text (see sqlite.store._ts), PostgreSQL a timestamptz that psycopg turns
into a datetime. `moment` reads either.
"""

import json
from datetime import datetime
from typing import Any, Protocol

from threefold.domain import (
    ApiKey,
    Fact,
    FactCategory,
    FactStatus,
    Record,
    SourceRef,
    Summary,
    SummaryKind,
    Trust,
    Turn,
    Visibility,
)
from threefold.store.base import ImportJob, ImportProgress, ImportReport, Item, Job


class Columns(Protocol):
    """A row read by column name: sqlite3.Row, psycopg's dict row, or a plain mapping."""

    def __getitem__(self, name: str) -> Any: ...


def moment(value: datetime | str) -> datetime:
    """A time from a NOT NULL column: a datetime already, or SQLite's ISO text."""
    return value if isinstance(value, datetime) else datetime.fromisoformat(value)


def maybe_moment(value: datetime | str | None) -> datetime | None:
    return None if value is None else moment(value)


def json_or_none(value: dict[str, Any] | None) -> str | None:
    return None if value is None else json.dumps(value, default=str)


def json_or_none_back(text: str | None) -> dict[str, Any] | None:
    return None if text is None else json.loads(text)


def _optional(row: Columns, name: str) -> Any:
    """A column a store migrated before it was added lacks (a test of an old schema)."""
    try:
        return row[name]
    except (KeyError, IndexError):
        return None


def fact_of(row: Columns) -> Fact:
    return Fact(
        id=row["id"],
        tenant=row["tenant"],
        stream=row["stream"],
        text=row["text"],
        category=FactCategory(row["category"]),
        subject=row["subject"],
        slot=row["slot"],
        value=row["value"],
        confidence=row["confidence"],
        status=FactStatus(row["status"]),
        supersedes=row["supersedes"],
        superseded_by=row["superseded_by"],
        mention_count=row["mention_count"],
        stated_at=maybe_moment(_optional(row, "stated_at")),
        visibility=Visibility(row["visibility"]),
        source=SourceRef(
            kind=row["source_kind"], id=row["source_id"], at=maybe_moment(row["source_at"])
        ),
        recorded_at=moment(row["recorded_at"]),
        tokens=row["tokens"],
        writer_trust=Trust(row["writer_trust"]),
        writer_key=row["writer_key"],
        doubted_by=_doubt(row),
    )


def _doubt(row: Columns) -> SourceRef | None:
    kind = _optional(row, "doubt_kind")
    if not kind:
        return None
    return SourceRef(kind=kind, id=row["doubt_id"], at=maybe_moment(row["doubt_at"]))


def turn_of(row: Columns) -> Turn:
    return Turn(
        id=row["id"],
        tenant=row["tenant"],
        stream=row["stream"],
        seq=row["seq"],
        user=row["user_text"],
        assistant=row["assistant_text"],
        at=moment(row["at"]),
        page_context=row["page_context"],
        model_variant=row["model_variant"],
        source=row["source"],
        visibility=Visibility(row["visibility"]),
        tokens=row["tokens"],
        recorded_at=moment(row["recorded_at"]),
        speaker=row["speaker"],
        assistant_speaker=row["assistant_speaker"],
        writer_trust=Trust(row["writer_trust"]),
        writer_key=row["writer_key"],
    )


def record_of(row: Columns) -> Record:
    """A record row; `also_in` is the other streams it is linked to, joined by \\x1f."""
    return Record(
        id=row["id"],
        tenant=row["tenant"],
        stream=row["stream"],
        source=row["source"],
        channel=row["channel"],
        external_id=row["external_id"],
        thread=row["thread"],
        author=row["author"],
        text=row["text"],
        kind=row["kind"],
        at=moment(row["at"]),
        route_method=row["route_method"],
        route_confidence=row["route_confidence"],
        visibility=Visibility(row["visibility"]),
        processed=bool(row["processed"]),
        also_in=tuple(row["also_in"].split("\x1f")) if row["also_in"] else (),
        author_id=_author_id(row["data"]),
    )


def _author_id(data: str | None) -> str | None:
    found = json.loads(data).get("user_id") if data else None
    return found if isinstance(found, str) else None


def summary_of(row: Columns) -> Summary:
    return Summary(
        id=row["id"],
        tenant=row["tenant"],
        stream=row["stream"],
        kind=SummaryKind(row["kind"]),
        text=row["text"],
        tokens=row["tokens"],
        period_start=maybe_moment(row["period_start"]),
        period_end=maybe_moment(row["period_end"]),
        item_count=row["item_count"],
        generation=row["generation"],
        visibility=Visibility(row["visibility"]),
        parents=tuple(json.loads(row["parents"])),
        created_at=moment(row["created_at"]),
        record=json.loads(row["record"]) if row["record"] else None,
    )


def job_of(row: Columns) -> Job:
    return Job(
        id=row["id"],
        tenant=row["tenant"],
        stream=row["stream"],
        kind=row["kind"],
        payload=json.loads(row["payload"]),
        status=row["status"],
        attempts=row["attempts"],
        run_after=row["run_after"],
        last_error=row["last_error"],
    )


def item_of(kind: str, row: Columns) -> Item:
    at = maybe_moment(row["at"])
    return Item(
        kind=kind,
        id=row["id"],
        stream=row["stream"],
        text=row["text"],
        at=at,
        visibility=Visibility(row["visibility"]),
        mention_count=row["mentions"],
        source=SourceRef(kind=row["source_kind"], id=row["source_id"], at=at),
        speaker=row["speaker"] if kind == "turn" else None,
        assistant_speaker=row["assistant_speaker"] if kind == "turn" else None,
        category=row["category"] if kind == "fact" else None,
        supersedes=row["supersedes"] if kind == "fact" else None,
    )


def import_job_of(row: Columns) -> ImportJob:
    report, progress = row["report"], row["progress"]
    return ImportJob(
        id=row["id"],
        tenant=row["tenant"],
        kind=row["kind"],
        status=row["status"],
        report=None if report is None else ImportReport.model_validate_json(report),
        error=row["error"],
        progress=None if progress is None else ImportProgress.model_validate_json(progress),
    )


def api_key_of(row: Columns) -> ApiKey:
    return ApiKey(
        id=row["id"],
        tenant=row["tenant"],
        trust=Trust(row["trust"]),
        label=row["label"],
        created_at=moment(row["created_at"]),
        revoked=row["revoked_at"] is not None,
    )


def action_of(row: Columns) -> dict[str, Any]:
    """A team_actions row as the team service takes it: its columns and its data."""
    columns = ("id", "key", "rule", "stream", "visibility", "status", "opened_at", "updated_at")
    return {**{name: row[name] for name in columns}, **json.loads(row["data"])}


def cites_any(data_json: str, record_ids: set[int], fact_ids: set[int]) -> bool:
    """Whether an action's data names one of the records or facts as its evidence."""
    data = json.loads(data_json)
    return bool(
        record_ids & set(data.get("record_ids", ())) or fact_ids & set(data.get("fact_ids", ()))
    )
