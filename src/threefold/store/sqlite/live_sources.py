"""The SQLite store's part for live sources: deliveries taken and the state sources keep."""

import sqlite3
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any


class LiveSourceTables:
    """Mixed into SQLiteStore, whose plumbing (_rows, _exec) it uses."""

    if TYPE_CHECKING:

        def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]: ...
        def _exec(self, sql: str, params: Sequence[Any] = ()) -> int: ...

    def first_delivery(self, tenant: str, source: str, event_id: str, at: float) -> bool:
        inserted = self._rows(
            "INSERT INTO deliveries (tenant, source, event_id, received_at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING 1 AS new",
            (tenant, source, event_id, at),
        )
        return bool(inserted)

    def prune_deliveries(self, before: float) -> int:
        gone = self._rows(
            "DELETE FROM deliveries WHERE received_at < ? RETURNING 1 AS gone", (before,)
        )
        return len(gone)

    def source_state(self, tenant: str, source: str, name: str) -> str | None:
        rows = self._rows(
            "SELECT value FROM source_state WHERE tenant = ? AND source = ? AND name = ?",
            (tenant, source, name),
        )
        return rows[0]["value"] if rows else None

    def set_source_state(self, tenant: str, source: str, values: Mapping[str, str | None]) -> None:
        for name, value in values.items():
            if value is None:
                self._exec(
                    "DELETE FROM source_state WHERE tenant = ? AND source = ? AND name = ?",
                    (tenant, source, name),
                )
            else:
                self._exec(
                    "INSERT INTO source_state (tenant, source, name, value)"
                    " VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (tenant, source, name) DO UPDATE SET value = excluded.value",
                    (tenant, source, name, value),
                )

    def source_states(self, tenant: str, source: str, prefix: str) -> dict[str, str]:
        rows = self._rows(
            "SELECT name, value FROM source_state WHERE tenant = ? AND source = ?"
            " AND substr(name, 1, ?) = ?",
            (tenant, source, len(prefix), prefix),
        )
        return {row["name"]: row["value"] for row in rows}

    def record_id(self, tenant: str, source: str, channel: str, external_id: str) -> int | None:
        rows = self._rows(
            "SELECT id FROM records WHERE tenant = ? AND source = ? AND channel = ?"
            " AND external_id = ?",
            (tenant, source, channel, external_id),
        )
        return int(rows[0]["id"]) if rows else None
