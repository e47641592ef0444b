"""One source for the SQL both stores share.

Statements here are written once, in the SQL that SQLite and PostgreSQL both read, with
`?` for each parameter; a backend's `_q` turns that into its driver's marks (psycopg's
`%s`), so no statement here may hold a literal `?` or `%`. What the dialects spell
differently is a class attribute (`_greatest`, `_record_select`); what they do differently
stays in sqlite/ and postgres/.
"""

import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from threefold.domain import (
    ApiKey,
    Fact,
    FactStatus,
    Record,
    SourceRef,
    Summary,
    SummaryKind,
    Turn,
    utcnow,
)
from threefold.errors import NotFound
from threefold.store.base import (
    ErasedIds,
    ImportJob,
    ImportProgress,
    Job,
    NewFact,
    NewRecord,
    NewSummary,
    RecordBrowse,
)
from threefold.store.rows import (
    Columns,
    api_key_of,
    fact_of,
    import_job_of,
    job_of,
    json_or_none,
    record_of,
    turn_of,
)


class SharedStatements:
    """Mixed into both stores, whose plumbing (_rows, _row, _exec, _insert) it uses."""

    _greatest = "MAX"
    """The larger of two values: SQLite's two-argument MAX, PostgreSQL's greatest."""
    _record_select = ""
    """A record row with `also_in`, the other streams it is linked to (see rows.record_of)."""

    _erase_listeners: list[Callable[[str, Sequence[str]], None]]

    if TYPE_CHECKING:

        def _rows(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Columns]: ...
        def _row(self, sql: str, params: Sequence[Any] = ()) -> Columns | None: ...
        def _exec(self, sql: str, params: Sequence[Any] = ()) -> int: ...
        def _insert(self, table: str, values: dict[str, Any]) -> Any: ...
        def _insert_row(self, table: str, values: dict[str, Any]) -> Columns: ...
        def _time(self, moment: datetime) -> Any: ...
        def transaction(self) -> Any: ...
        def ensure_stream(self, tenant: str, stream: str) -> None: ...
        def _insert_new_records(self, records: Sequence[NewRecord]) -> list[int | None]: ...
        def _link_records(self, stored: list[tuple[NewRecord, int]]) -> None: ...

    def _q(self, sql: str) -> str:
        """A shared statement in this driver's parameter marks."""
        return sql

    def _select(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Columns]:
        return self._rows(self._q(sql), params)

    def _select_one(self, sql: str, params: Sequence[Any] = ()) -> Columns | None:
        return self._row(self._q(sql), params)

    def _run(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self._exec(self._q(sql), params)

    def migrations(self) -> list[str]:
        return [r["name"] for r in self._select("SELECT name FROM schema_migrations ORDER BY name")]

    # -- inserts: Python values, which each backend writes its way ------------

    def insert_fact(self, fact: NewFact) -> Fact:
        row = self._insert_row(
            "facts",
            {
                "tenant": fact.tenant,
                "stream": fact.stream,
                "text": fact.text,
                "category": fact.category.value,
                "subject": fact.subject,
                "slot": fact.slot,
                "value": fact.value,
                "confidence": fact.confidence,
                "status": fact.status.value,
                "supersedes": fact.supersedes,
                "visibility": fact.visibility.value,
                "content_hash": fact.content_hash,
                "source_kind": fact.source.kind,
                "source_id": fact.source.id,
                "source_at": fact.source.at,
                "recorded_at": utcnow(),
                "tokens": fact.tokens,
                "writer_trust": fact.writer_trust.value,
                "writer_key": fact.writer_key,
            },
        )
        return fact_of(row)

    def insert_summary(self, summary: NewSummary) -> Summary:
        created = utcnow()
        row = self._insert_row(
            "summaries",
            {
                "tenant": summary.tenant,
                "stream": summary.stream,
                "kind": summary.kind.value,
                "text": summary.text,
                "tokens": summary.tokens,
                "period_start": summary.period_start,
                "period_end": summary.period_end,
                "item_count": summary.item_count,
                "generation": summary.generation,
                "parents": json.dumps(list(summary.parents)),
                "visibility": summary.visibility.value,
                "created_at": created,
                "record": None if summary.record is None else json.dumps(summary.record),
            },
        )
        return Summary(id=row["id"], created_at=created, **summary.model_dump())

    def insert_api_key(self, tenant: str, trust: str, label: str, secret_hash: str) -> int:
        values = {"tenant": tenant, "trust": trust, "label": label, "secret_hash": secret_hash}
        return int(self._insert_row("api_keys", {**values, "created_at": utcnow()})["id"])

    def insert_import(
        self, tenant: str, import_id: str, kind: str, *, owner: str | None = None
    ) -> None:
        values = {"id": import_id, "tenant": tenant, "kind": kind, "status": "queued"}
        self._insert_row("imports", {**values, "created_at": utcnow(), "owner": owner})

    # -- streams --------------------------------------------------------------

    def streams_with_items(self) -> list[tuple[str, str]]:
        rows = self._select("SELECT tenant, name FROM streams ORDER BY tenant, name")
        return [(r["tenant"], r["name"]) for r in rows]

    def mark_summary_enqueued(self, tenant: str, stream: str, through_seq: int) -> None:
        self._run(
            "UPDATE streams SET summary_enqueued_through = ?, unsummarized_tokens = 0"
            " WHERE tenant = ? AND name = ?",
            (through_seq, tenant, stream),
        )

    def set_summarized_through(self, tenant: str, stream: str, seq: int) -> None:
        self._run(
            "UPDATE streams SET last_summarized_turn ="
            f" {self._greatest}(last_summarized_turn, ?) WHERE tenant = ? AND name = ?",
            (seq, tenant, stream),
        )

    def turn(self, tenant: str, turn_id: int) -> Turn:
        row = self._select_one("SELECT * FROM turns WHERE tenant = ? AND id = ?", (tenant, turn_id))
        if row is None:
            raise NotFound(f"no turn {turn_id}")
        return turn_of(row)

    # -- facts ----------------------------------------------------------------

    def fact(self, tenant: str, fact_id: int) -> Fact:
        row = self._select_one("SELECT * FROM facts WHERE tenant = ? AND id = ?", (tenant, fact_id))
        if row is None:
            raise NotFound(f"no fact {fact_id}")
        return fact_of(row)

    def facts_by_id(self, tenant: str, fact_ids: Sequence[int]) -> list[Fact]:
        """The tenant's facts among `fact_ids`, in any status; ids it does not hold are left
        out."""
        if not fact_ids:
            return []
        marks = ", ".join("?" * len(fact_ids))
        sql = f"SELECT * FROM facts WHERE tenant = ? AND id IN ({marks})"
        return [fact_of(r) for r in self._select(sql, (tenant, *fact_ids))]

    def facts(self, tenant: str, stream: str, *, include_inactive: bool = False) -> list[Fact]:
        """Newest first."""
        sql = "SELECT * FROM facts WHERE tenant = ? AND stream = ?"
        if not include_inactive:
            sql += " AND status = 'active'"
        return [fact_of(r) for r in self._select(sql + " ORDER BY id DESC", (tenant, stream))]

    def facts_from(self, tenant: str, stream: str, source: SourceRef) -> list[Fact]:
        rows = self._select(
            "SELECT * FROM facts WHERE tenant = ? AND stream = ? AND source_kind = ?"
            " AND source_id = ? AND status = 'active' ORDER BY id",
            (tenant, stream, source.kind, source.id),
        )
        return [fact_of(r) for r in rows]

    def facts_holding(self, tenant: str, stream: str, slot: str, value: str) -> list[Fact]:
        rows = self._select(
            "SELECT * FROM facts WHERE tenant = ? AND stream = ? AND slot = ? AND value = ?"
            " AND status = 'active' ORDER BY id DESC",
            (tenant, stream, slot, value),
        )
        return [fact_of(r) for r in rows]

    def facts_in_slot(
        self, tenant: str, stream: str, subject: str, slot: str, *, active_only: bool = True
    ) -> list[Fact]:
        sql = "SELECT * FROM facts WHERE tenant = ? AND stream = ? AND subject = ? AND slot = ?"
        if active_only:
            sql += " AND status = 'active'"
        rows = self._select(sql + " ORDER BY id DESC", (tenant, stream, subject, slot))
        return [fact_of(r) for r in rows]

    def fact_with_hash(self, tenant: str, stream: str, content_hash: str) -> Fact | None:
        row = self._select_one(
            "SELECT * FROM facts WHERE tenant = ? AND stream = ? AND content_hash = ?"
            " AND status = 'active' ORDER BY id DESC LIMIT 1",
            (tenant, stream, content_hash),
        )
        return None if row is None else fact_of(row)

    def set_fact_status(
        self, tenant: str, fact_id: int, status: FactStatus, superseded_by: int | None = None
    ) -> None:
        self._run(
            "UPDATE facts SET status = ?, superseded_by = COALESCE(?, superseded_by)"
            " WHERE tenant = ? AND id = ?",
            (status.value, superseded_by, tenant, fact_id),
        )

    def mention(
        self, tenant: str, fact_id: int, confidence: float, at: datetime | None = None
    ) -> None:
        """One more statement of the fact; `at`, its event time, dates it if newest."""
        if at is None:
            self._run(
                "UPDATE facts SET mention_count = mention_count + 1,"
                f" confidence = {self._greatest}(confidence, ?) WHERE tenant = ? AND id = ?",
                (confidence, tenant, fact_id),
            )
            return
        when = self._time(at)
        self._run(
            "UPDATE facts SET mention_count = mention_count + 1,"
            f" confidence = {self._greatest}(confidence, ?),"
            f" stated_at = {self._greatest}(COALESCE(stated_at, source_at, ?), ?)"
            " WHERE tenant = ? AND id = ?",
            (confidence, when, when, tenant, fact_id),
        )

    def doubt_fact(self, tenant: str, fact_id: int, by: SourceRef) -> None:
        """A newer message may have changed the fact; the newest such message is kept."""
        when = self._time(by.at) if by.at else None
        self._run(
            "UPDATE facts SET doubt_kind = ?, doubt_id = ?, doubt_at = ?"
            " WHERE tenant = ? AND id = ? AND (doubt_at IS NULL OR doubt_at <= ?)",
            (by.kind, by.id, when, tenant, fact_id, when),
        )

    def add_fact_change(
        self,
        fact_id: int,
        action: str,
        related: int | None = None,
        note: str = "",
        *,
        before: dict[str, Any] | None = None,
        after: dict[str, Any] | None = None,
    ) -> None:
        self._insert(
            "fact_history",
            {
                "fact_id": fact_id,
                "action": action,
                "related_fact_id": related,
                "at": self._time(utcnow()),
                "note": note,
                "before": json_or_none(before),
                "after": json_or_none(after),
            },
        )

    # -- records --------------------------------------------------------------

    def insert_record(self, record: NewRecord) -> int | None:
        return self.insert_records([record])[0]

    def insert_records(self, records: Sequence[NewRecord]) -> list[int | None]:
        if not records:
            return []
        with self.transaction():
            for record in records:
                self.ensure_stream(record.tenant, record.stream)
            ids = self._insert_new_records(records)
            self._link_records([(r, i) for r, i in zip(records, ids, strict=True) if i is not None])
        return ids

    def record(self, tenant: str, record_id: int) -> Record:
        row = self._select_one(
            f"{self._record_select} WHERE r.tenant = ? AND r.id = ?", (tenant, record_id)
        )
        if row is None:
            raise NotFound(f"no record {record_id} in tenant {tenant!r}")
        return record_of(row)

    def record_data(self, tenant: str, source: str, channel: str) -> list[dict[str, Any]]:
        rows = self._select(
            "SELECT data FROM records WHERE tenant = ? AND source = ? AND channel = ?"
            " ORDER BY at, id",
            (tenant, source, channel),
        )
        return [json.loads(r["data"]) for r in rows]

    # -- summaries ------------------------------------------------------------

    def set_summary_kind(self, tenant: str, summary_id: int, kind: SummaryKind) -> None:
        self._run(
            "UPDATE summaries SET kind = ? WHERE tenant = ? AND id = ?",
            (kind.value, tenant, summary_id),
        )

    # -- jobs and leases ------------------------------------------------------

    def next_job(self, tenant: str, stream: str) -> Job | None:
        row = self._select_one(
            "SELECT * FROM jobs WHERE tenant = ? AND stream = ? AND status = 'pending'"
            " AND run_after <= ? ORDER BY priority DESC, id LIMIT 1",
            (tenant, stream, time.time()),
        )
        return None if row is None else job_of(row)

    def pending_jobs(self, tenant: str, stream: str, kind: str, limit: int) -> list[Job]:
        rows = self._select(
            "SELECT * FROM jobs WHERE tenant = ? AND stream = ? AND kind = ?"
            " AND status = 'pending' ORDER BY id LIMIT ?",
            (tenant, stream, kind, limit),
        )
        return [job_of(r) for r in rows]

    def release_stream(self, tenant: str, stream: str, owner: str) -> None:
        self._run(
            "DELETE FROM stream_leases WHERE tenant = ? AND stream = ? AND owner = ?",
            (tenant, stream, owner),
        )

    def release_lease(self, name: str, owner: str) -> None:
        self._run("DELETE FROM leases WHERE name = ? AND owner = ?", (name, owner))

    def lease_holder(self, name: str) -> str | None:
        row = self._select_one("SELECT owner FROM leases WHERE name = ?", (name,))
        return row["owner"] if row else None

    # -- keys and imports -----------------------------------------------------

    def api_key(self, secret_hash: str) -> ApiKey | None:
        row = self._select_one(
            "SELECT * FROM api_keys WHERE secret_hash = ? AND revoked_at IS NULL",
            (secret_hash,),
        )
        return None if row is None else api_key_of(row)

    def set_import_progress(self, import_id: str, progress: ImportProgress) -> None:
        self._run(
            "UPDATE imports SET progress = ? WHERE id = ?",
            (progress.model_dump_json(), import_id),
        )

    def import_job(self, tenant: str, import_id: str) -> ImportJob | None:
        row = self._select_one(
            "SELECT * FROM imports WHERE tenant = ? AND id = ?", (tenant, import_id)
        )
        return None if row is None else import_job_of(row)

    def recent_imports(self, tenant: str, limit: int) -> list[ImportJob]:
        rows = self._select(
            "SELECT * FROM imports WHERE tenant = ? ORDER BY seq DESC LIMIT ?",
            (tenant, limit),
        )
        return [import_job_of(r) for r in rows]

    # -- entities -------------------------------------------------------------

    def entities_named(self, tenant: str, alias: str) -> list[str]:
        rows = self._select(
            "SELECT e.key FROM entity_aliases a JOIN entities e ON e.id = a.entity_id"
            " WHERE a.tenant = ? AND a.alias = ? ORDER BY e.id",
            (tenant, alias),
        )
        return [r["key"] for r in rows]

    def aliases_among(self, tenant: str, words: Sequence[str]) -> list[str]:
        if not words:
            return []
        return aliases_in_order(words, self._select(*aliases_statement(tenant, words)))

    def entity_aliases(self, tenant: str, key: str) -> list[str]:
        rows = self._select(
            "SELECT a.alias FROM entity_aliases a JOIN entities e ON e.id = a.entity_id"
            " WHERE e.tenant = ? AND e.key = ? ORDER BY a.alias",
            (tenant, key),
        )
        return [r["alias"] for r in rows]

    def rename_entity(self, tenant: str, old: str, new: str, name: str) -> None:
        """`old` turns out to be `new`: the entity, and the facts about it, take the new key."""
        if self.entities_named(tenant, new) == [new]:
            return  # both exist already; merging two known people is not a guess to make
        self._run(
            "UPDATE entities SET key = ?, name = ? WHERE tenant = ? AND key = ?",
            (new, name, tenant, old),
        )
        self._run(
            "UPDATE facts SET subject = ? WHERE tenant = ? AND subject = ?", (new, tenant, old)
        )
        self._run(
            "UPDATE facts SET value = ? WHERE tenant = ? AND slot = 'holder' AND value = ?",
            (new, tenant, old),
        )

    def delete_entity(self, tenant: str, key: str) -> None:
        self._run(
            "DELETE FROM entity_aliases WHERE entity_id IN"
            " (SELECT id FROM entities WHERE tenant = ? AND key = ?)",
            (tenant, key),
        )
        self._run("DELETE FROM entities WHERE tenant = ? AND key = ?", (tenant, key))

    # -- team -----------------------------------------------------------------

    def put_profile(
        self, tenant: str, entity: str, kind: str, name: str, data: dict[str, Any]
    ) -> None:
        self._run(
            "INSERT INTO team_profiles (tenant, entity, kind, name, data, built_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, entity) DO UPDATE SET"
            " kind = excluded.kind, name = excluded.name, data = excluded.data,"
            " built_at = excluded.built_at",
            (tenant, entity, kind, name, json.dumps(data), utcnow().isoformat()),
        )

    def profile_data(self, tenant: str, entity: str) -> dict[str, Any] | None:
        row = self._select_one(
            "SELECT data FROM team_profiles WHERE tenant = ? AND entity = ?", (tenant, entity)
        )
        return json.loads(row["data"]) if row else None

    def digest_rows(
        self, tenant: str, stream: str, first_day: str, last_day: str, timezone: str
    ) -> list[dict[str, Any]]:
        rows = self._select(
            "SELECT day, data, visibility FROM team_digests WHERE tenant = ? AND stream = ?"
            " AND timezone = ? AND day BETWEEN ? AND ? ORDER BY day",
            (tenant, stream, timezone, first_day, last_day),
        )
        return [
            {"day": r["day"], "visibility": r["visibility"], **json.loads(r["data"])} for r in rows
        ]

    def records_between(
        self, tenant: str, stream: str | None, since: datetime, until: datetime
    ) -> list[Record]:
        rows = self._select(
            f"{self._record_select} WHERE r.tenant = ?"
            " AND (CAST(? AS TEXT) IS NULL OR r.stream = ?) AND r.at >= ? AND r.at < ?"
            " ORDER BY r.at, r.id",
            (tenant, stream, stream, self._time(since), self._time(until)),
        )
        return [record_of(r) for r in rows]

    def browse_records(self, tenant: str, where: RecordBrowse) -> list[Record]:
        # Only the filters given are written out: a NULL test on a parameter of no type
        # is read differently by the two dialects.
        conditions: list[str] = ["r.tenant = ?"]
        params: list[Any] = [tenant]
        for column, value in (
            ("r.source", where.source),
            ("r.stream", where.stream),
            ("r.channel", where.channel),
        ):
            if value is not None:
                conditions.append(f"{column} = ?")
                params.append(value)
        if where.author is not None:
            conditions.append("lower(r.author) = lower(?)")
            params.append(where.author)
        if where.since is not None:
            conditions.append("r.at >= ?")
            params.append(self._time(where.since))
        if where.until is not None:
            conditions.append("r.at < ?")
            params.append(self._time(where.until))
        marks = ", ".join("?" for _ in where.visibilities)
        conditions.append(f"r.visibility IN ({marks})")
        params += [v.value for v in where.visibilities]
        if where.before_id is not None:
            at = "(SELECT at FROM records WHERE tenant = ? AND id = ?)"
            conditions.append(f"(r.at < {at} OR (r.at = {at} AND r.id < ?))")
            params += [tenant, where.before_id, tenant, where.before_id, where.before_id]
        rows = self._select(
            f"{self._record_select} WHERE {' AND '.join(conditions)}"
            " ORDER BY r.at DESC, r.id DESC LIMIT ?",
            (*params, where.limit),
        )
        return [record_of(r) for r in rows]

    def turns_between(
        self, tenant: str, stream: str, since: datetime, until: datetime
    ) -> list[Turn]:
        rows = self._select(
            "SELECT * FROM turns WHERE tenant = ? AND stream = ? AND at >= ? AND at < ?"
            " ORDER BY seq",
            (tenant, stream, self._time(since), self._time(until)),
        )
        return [turn_of(r) for r in rows]

    # -- erasure --------------------------------------------------------------

    def erasures(self, tenant: str) -> list[dict[str, Any]]:
        rows = self._select("SELECT * FROM erasures WHERE tenant = ? ORDER BY id", (tenant,))
        return [
            {
                "id": r["id"],
                "target": json.loads(r["target"]),
                "removed": json.loads(r["removed"]),
                "at": r["at"],
            }
            for r in rows
        ]

    def drop_pending_jobs(self, tenant: str, stream: str) -> None:
        self._run(
            "DELETE FROM jobs WHERE tenant = ? AND stream = ? AND status = 'pending'",
            (tenant, stream),
        )

    # -- routing --------------------------------------------------------------

    def record_stream(self, tenant: str, source: str, channel: str, external_id: str) -> str | None:
        rows = self._select(
            "SELECT stream FROM records WHERE tenant = ? AND source = ? AND channel = ?"
            " AND external_id = ?",
            (tenant, source, channel, external_id),
        )
        return rows[0]["stream"] if rows else None

    def record_id(self, tenant: str, source: str, channel: str, external_id: str) -> int | None:
        row = self._select_one(
            "SELECT id FROM records WHERE tenant = ? AND source = ? AND channel = ?"
            " AND external_id = ?",
            (tenant, source, channel, external_id),
        )
        return None if row is None else int(row["id"])

    # -- retention ------------------------------------------------------------

    def expired_ids(
        self, before: datetime, *, keep_turns: int, sources: Sequence[str], limit: int
    ) -> dict[str, ErasedIds]:
        cutoff = self._time(before)
        turns = self._select(
            "SELECT t.tenant, t.stream, t.id FROM turns t JOIN streams s"
            " ON s.tenant = t.tenant AND s.name = t.stream WHERE t.at < ?"
            " AND t.seq <= s.last_summarized_turn AND t.seq <= s.turn_count - ?"
            " ORDER BY t.id LIMIT ?",
            (cutoff, keep_turns, limit),
        )
        records: Sequence[Columns] = []
        if sources:
            records = self._select(
                "SELECT tenant, stream, id FROM records WHERE at < ? AND processed = ?"
                f" AND source IN ({', '.join('?' * len(sources))}) ORDER BY id LIMIT ?",
                (cutoff, True, *sources, limit),
            )
        found: dict[str, dict[str, list[Any]]] = {}
        for kind, rows in (("turns", turns), ("records", records)):
            for row in rows:
                ids = found.setdefault(row["tenant"], {"turns": [], "records": [], "streams": []})
                ids[kind].append(row["id"])
                if row["stream"] not in ids["streams"]:
                    ids["streams"].append(row["stream"])
        return {tenant: ErasedIds(**ids) for tenant, ids in found.items()}

    # -- live sources ---------------------------------------------------------

    def first_delivery(self, tenant: str, source: str, event_id: str, at: float) -> bool:
        inserted = self._select(
            "INSERT INTO deliveries (tenant, source, event_id, received_at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING 1 AS new",
            (tenant, source, event_id, at),
        )
        return bool(inserted)

    def prune_deliveries(self, before: float) -> int:
        gone = self._select(
            "DELETE FROM deliveries WHERE received_at < ? RETURNING 1 AS gone", (before,)
        )
        return len(gone)

    def source_state(self, tenant: str, source: str, name: str) -> str | None:
        row = self._select_one(
            "SELECT value FROM source_state WHERE tenant = ? AND source = ? AND name = ?",
            (tenant, source, name),
        )
        return None if row is None else str(row["value"])

    def set_source_state(self, tenant: str, source: str, values: Mapping[str, str | None]) -> None:
        for name, value in values.items():
            if value is None:
                self._run(
                    "DELETE FROM source_state WHERE tenant = ? AND source = ? AND name = ?",
                    (tenant, source, name),
                )
            else:
                self._run(
                    "INSERT INTO source_state (tenant, source, name, value) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (tenant, source, name) DO UPDATE SET value = excluded.value",
                    (tenant, source, name, value),
                )

    def source_states(self, tenant: str, source: str, prefix: str) -> dict[str, str]:
        rows = self._select(
            "SELECT name, value FROM source_state WHERE tenant = ? AND source = ?"
            " AND substr(name, 1, ?) = ?",
            (tenant, source, len(prefix), prefix),
        )
        return {row["name"]: row["value"] for row in rows}

    # -- erasure listeners ----------------------------------------------------

    def on_erase(self, listener: Callable[[str, Sequence[str]], None]) -> None:
        self._erase_listeners.append(listener)

    # -- records moved to another stream when the routes change --------------

    def routable_records(
        self, tenant: str, source: str, after_id: int, limit: int
    ) -> list[tuple[Record, dict[str, Any]]]:
        rows = self._select(
            f"{self._record_select} WHERE r.tenant = ? AND r.source = ? AND r.id > ?"
            " ORDER BY r.id LIMIT ?",
            (tenant, source, after_id, limit),
        )
        return [(record_of(row), json.loads(row["data"] or "{}")) for row in rows]

    def move_record(
        self,
        tenant: str,
        record_id: int,
        stream: str,
        method: str,
        confidence: float,
        also: Sequence[str],
        digest: bool = True,
    ) -> None:
        self.ensure_stream(tenant, stream)
        before = self._routed_streams(tenant, record_id)
        self._run(
            "UPDATE records SET stream = ?, route_method = ?, route_confidence = ?,"
            " processed = CASE WHEN ? THEN false ELSE processed END WHERE tenant = ? AND id = ?",
            (stream, method, confidence, digest, tenant, record_id),
        )
        self._run("DELETE FROM record_streams WHERE record_id = ?", (record_id,))
        for other in also:
            self.ensure_stream(tenant, other)
            self._run(
                "INSERT INTO record_streams VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (record_id, tenant, other),
            )
        self._run(
            "UPDATE vectors SET stream = ? WHERE kind = 'record' AND item_id = ? AND tenant = ?",
            (stream, record_id, tenant),
        )
        self._move_timeline(tenant, record_id, before, [stream, *also])

    def _routed_streams(self, tenant: str, record_id: int) -> list[str]:
        """The streams a record lives in and is cross-referenced in."""
        rows = self._select(
            "SELECT stream FROM records WHERE tenant = ? AND id = ?"
            " UNION SELECT stream FROM record_streams WHERE tenant = ? AND record_id = ?",
            (tenant, record_id, tenant, record_id),
        )
        return [r["stream"] for r in rows]

    def _move_timeline(
        self, tenant: str, record_id: int, before: Sequence[str], after: Sequence[str]
    ) -> None:
        """A moved record leaves the timelines of the streams it left and joins those of
        the streams it is in now; its people's and channel's stay."""
        for old in set(before) - set(after):
            self._run(
                "DELETE FROM entity_events WHERE tenant = ? AND entity = ?"
                " AND item_kind = 'record' AND item_id = ?",
                (tenant, old, record_id),
            )
        for new in set(after) - set(before):
            self._run(
                "INSERT INTO entity_events SELECT tenant, ?, 'record', id, at FROM records"
                " WHERE tenant = ? AND id = ? ON CONFLICT DO NOTHING",
                (new, tenant, record_id),
            )

    def reopen_records(self, tenant: str, stream: str, source: str) -> None:
        self._run(
            "UPDATE records SET processed = false WHERE tenant = ? AND stream = ? AND source = ?",
            (tenant, stream, source),
        )


SUPERSEDED = (
    "SELECT * FROM facts WHERE tenant = ? AND stream = ? AND superseded_by IS NOT NULL"
    " AND status != 'active' UNION ALL SELECT * FROM facts WHERE tenant = ? AND stream = ?"
    " AND status = 'active' AND id IN (SELECT superseded_by FROM facts WHERE tenant = ?"
    " AND stream = ? AND superseded_by IS NOT NULL AND status != 'active')"
)
"""The facts superseded_pairs reads: the stream's inactive facts that name a successor, and
the active facts among those successors. Its parameters: tenant and stream, three times."""


def superseded_pairs(read: Iterable[Fact]) -> list[tuple[Fact, Fact]]:
    """(old, successor) for each inactive fact that SUPERSEDED read whose chain of
    successors, in the same stream, ends at an active fact: that fact is its successor,
    newest old one first.

    A fact may be replaced more than once ("I work at Stripe", then "I left Stripe", then
    "I'm at Figma now"); the first statement is outdated by the last, not by the one that
    replaced it, which is history too. Each fact is walked once, so a long chain costs no
    more than its length."""
    facts = {fact.id: fact for fact in read}
    ends: dict[int, Fact | None] = {}
    for start in facts:
        path: dict[int, None] = {}  # ordered, and quick to ask: links may loop
        at: int | None = start
        while at is not None and at in facts and at not in ends and at not in path:
            if facts[at].status is FactStatus.ACTIVE:
                break
            path[at] = None
            at = facts[at].superseded_by
        if at is not None and at in ends:
            end = ends[at]
        else:  # an active fact; or none: a successor of another stream, erased, or a loop
            reached = facts.get(at) if at is not None and at not in path else None
            end = reached if reached is not None and reached.status is FactStatus.ACTIVE else None
        ends.update(dict.fromkeys(path, end))
    pairs = [(facts[old], new) for old, new in ends.items() if new is not None]
    return sorted(pairs, key=lambda pair: pair[0].id, reverse=True)


def aliases_statement(tenant: str, words: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    """The statement of Store.aliases_among (for a non-empty `words`), with `?` marks."""
    marks = ", ".join("?" * len(words))
    sql = f"SELECT DISTINCT alias FROM entity_aliases WHERE tenant = ? AND alias IN ({marks})"
    return sql, (tenant, *words)


def aliases_in_order(words: Sequence[str], rows: Sequence[Columns]) -> list[str]:
    """The `words` that the rows of aliases_statement found, in the words' order."""
    found = {r["alias"] for r in rows}
    return [w for w in words if w in found]


def name_clauses(
    people: Sequence[str],
    about: Sequence[str],
    text: str,
    said_by: str | None,
    contains: Callable[[str], str],
) -> tuple[list[str], list[str]]:
    """The filter's clauses for names (ItemFilter.people: the item's text names each;
    ItemFilter.about: it names each or they said it), and their parameters. `contains`
    is the dialect's test that a column's lowercase text holds one lowercase parameter."""
    clauses, params = [], []
    for person in people:
        clauses.append(contains(text))
        params.append(person.lower())
    for person in about:
        if said_by is None:
            clauses.append(contains(text))
            params.append(person.lower())
        else:
            clauses.append(f"({contains(text)} OR {contains(said_by)})")
            params.extend([person.lower()] * 2)
    return clauses, params
