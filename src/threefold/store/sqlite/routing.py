"""The SQLite store's part in routing: Jira projects seen, thread starts, and records moved
to another stream when the routes change."""

import json
import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from threefold.domain import Record
from threefold.store.rows import record_of


class RoutingTables:
    """Mixed into SQLiteStore, whose plumbing (_rows, _exec, records) it uses."""

    if TYPE_CHECKING:

        def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]: ...
        def _exec(self, sql: str, params: Sequence[Any] = ()) -> int: ...
        def ensure_stream(self, tenant: str, stream: str) -> None: ...

    def jira_projects(self, tenant: str) -> list[tuple[str, str | None]]:
        # The keys come from the unique index alone; one row per key is read for its name,
        # since routers are built per live message.
        rows = self._rows(
            "SELECT k.channel, (SELECT json_extract(r.data, '$.project_name') FROM records r"
            " WHERE r.tenant = ? AND r.source = 'jira' AND r.channel = k.channel LIMIT 1)"
            " AS name FROM (SELECT DISTINCT channel FROM records WHERE tenant = ?"
            " AND source = 'jira') k ORDER BY k.channel",
            (tenant, tenant),
        )
        return [(r["channel"], r["name"]) for r in rows]

    def routable_records(
        self, tenant: str, source: str, after_id: int, limit: int
    ) -> list[tuple[Record, dict[str, Any]]]:
        # The row reader lives with the rest of the store; imported here, not at the top,
        # because that module mixes this one in.
        from threefold.store.sqlite.store import _RECORD_SELECT

        rows = self._rows(
            f"{_RECORD_SELECT} WHERE r.tenant = ? AND r.source = ? AND r.id > ?"
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
        self._exec(
            "UPDATE records SET stream = ?, route_method = ?, route_confidence = ?,"
            " processed = CASE WHEN ? THEN 0 ELSE processed END WHERE tenant = ? AND id = ?",
            (stream, method, confidence, digest, tenant, record_id),
        )
        self._exec("DELETE FROM record_streams WHERE record_id = ?", (record_id,))
        for other in also:
            self.ensure_stream(tenant, other)
            self._exec(
                "INSERT OR IGNORE INTO record_streams VALUES (?, ?, ?)",
                (record_id, tenant, other),
            )
        self._exec(
            "UPDATE vectors SET stream = ? WHERE kind = 'record' AND item_id = ? AND tenant = ?",
            (stream, record_id, tenant),
        )

    def reopen_records(self, tenant: str, stream: str, source: str) -> None:
        self._exec(
            "UPDATE records SET processed = 0 WHERE tenant = ? AND stream = ? AND source = ?",
            (tenant, stream, source),
        )

    def count_undigested(self, tenant: str) -> int:
        rows = self._rows(
            "SELECT count(*) AS n FROM records WHERE tenant = ? AND processed = 0", (tenant,)
        )
        return int(rows[0]["n"])
