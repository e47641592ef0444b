"""The PostgreSQL store's part in routing: Jira projects seen, thread starts, and records
moved to another stream when the routes change (see RoutingStore)."""

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from threefold.domain import Record
from threefold.store.rows import record_of

if TYPE_CHECKING:
    from threefold.store.postgres.store import Params, Row


class RoutingTables:
    """Mixed into PostgresStore, whose plumbing (_rows, _exec, ensure_stream) it uses."""

    if TYPE_CHECKING:

        def _rows(self, sql: str, params: "Params" = ()) -> list[Row]: ...
        def _exec(self, sql: str, params: "Params" = ()) -> int: ...
        def ensure_stream(self, tenant: str, stream: str) -> None: ...

    def jira_projects(self, tenant: str) -> list[tuple[str, str | None]]:
        rows = self._rows(
            "SELECT DISTINCT ON (channel) channel, data::jsonb ->> 'project_name' AS name"
            " FROM records WHERE tenant = %s AND source = 'jira' ORDER BY channel, id",
            (tenant,),
        )
        return [(r["channel"], r["name"]) for r in rows]

    def routable_records(
        self, tenant: str, source: str, after_id: int, limit: int
    ) -> list[tuple[Record, dict[str, Any]]]:
        from threefold.store.postgres.store import _RECORD_SELECT  # a cycle at import

        rows = self._rows(
            f"{_RECORD_SELECT} WHERE r.tenant = %s AND r.source = %s AND r.id > %s"
            " ORDER BY r.id LIMIT %s",
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
            "UPDATE records SET stream = %s, route_method = %s, route_confidence = %s,"
            " processed = CASE WHEN %s THEN false ELSE processed END"
            " WHERE tenant = %s AND id = %s",
            (stream, method, confidence, digest, tenant, record_id),
        )
        self._exec("DELETE FROM record_streams WHERE record_id = %s", (record_id,))
        for other in also:
            self.ensure_stream(tenant, other)
            self._exec(
                "INSERT INTO record_streams VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                (record_id, tenant, other),
            )
        self._exec(
            "UPDATE vectors SET stream = %s WHERE kind = 'record' AND item_id = %s AND tenant = %s",
            (stream, record_id, tenant),
        )

    def reopen_records(self, tenant: str, stream: str, source: str) -> None:
        self._exec(
            "UPDATE records SET processed = false WHERE tenant = %s AND stream = %s"
            " AND source = %s",
            (tenant, stream, source),
        )

    def count_undigested(self, tenant: str) -> int:
        rows = self._rows(
            "SELECT count(*) AS n FROM records WHERE tenant = %s AND NOT processed", (tenant,)
        )
        return int(rows[0]["n"])
