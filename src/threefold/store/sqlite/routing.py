"""The SQLite store's own part in routing: the Jira projects seen and the count of records
not digested yet. Moving records between streams is written once, in store/statements.py."""

import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any


class RoutingTables:
    """Mixed into SQLiteStore, whose _rows it uses."""

    if TYPE_CHECKING:

        def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]: ...

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

    def count_undigested(self, tenant: str) -> int:
        # `processed = 0`, as the partial index of undigested records is written.
        rows = self._rows(
            "SELECT count(*) AS n FROM records WHERE tenant = ? AND processed = 0", (tenant,)
        )
        return int(rows[0]["n"])
