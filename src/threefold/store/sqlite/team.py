"""The SQLite store's team tables: profiles, actions and daily digests (see TeamStore)."""

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from threefold.domain import Visibility, utcnow
from threefold.errors import NotFound
from threefold.store.rows import action_of, cites_any


class TeamTables:
    """Mixed into SQLiteStore, whose plumbing (_rows, _row, _exec) it uses."""

    if TYPE_CHECKING:

        def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]: ...
        def _row(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None: ...
        def _exec(self, sql: str, params: Sequence[Any] = ()) -> int: ...

        def _time(self, moment: datetime) -> str: ...

    def profile_names(self, tenant: str) -> list[tuple[str, str, str]]:
        rows = self._rows(
            "SELECT entity, kind, name FROM team_profiles WHERE tenant = ? ORDER BY entity",
            (tenant,),
        )
        return [(r["entity"], r["kind"], r["name"]) for r in rows]

    def upsert_action(
        self,
        tenant: str,
        key: str,
        rule: str,
        stream: str,
        data: dict[str, Any],
        visibility: Visibility,
    ) -> tuple[int, bool]:
        now = utcnow().isoformat()
        known = self._row("SELECT id FROM team_actions WHERE tenant = ? AND key = ?", (tenant, key))
        if known:
            self._exec(
                "UPDATE team_actions SET rule = ?, stream = ?, data = ?, visibility = ?,"
                " updated_at = ? WHERE id = ?",
                (rule, stream, json.dumps(data), visibility.value, now, known["id"]),
            )
            return known["id"], False
        new_id = self._exec(
            "INSERT INTO team_actions (tenant, key, rule, stream, data, visibility, status,"
            " opened_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'open', ?, ?)",
            (tenant, key, rule, stream, json.dumps(data), visibility.value, now, now),
        )
        return new_id, True

    def close_missing_actions(self, tenant: str, found: Sequence[str]) -> int:
        still = set(found)
        open_rows = self._rows(
            "SELECT id, key FROM team_actions WHERE tenant = ? AND status = 'open'", (tenant,)
        )
        gone = [r["id"] for r in open_rows if r["key"] not in still]
        now = utcnow().isoformat()
        for action_id in gone:
            self._exec(
                "UPDATE team_actions SET status = 'done', updated_at = ? WHERE id = ?",
                (now, action_id),
            )
        return len(gone)

    def action_rows(self, tenant: str, status: str | None = None) -> list[dict[str, Any]]:
        rows = self._rows(
            "SELECT * FROM team_actions WHERE tenant = ? AND (? IS NULL OR status = ?) ORDER BY id",
            (tenant, status, status),
        )
        return [action_of(r) for r in rows]

    def set_action_status(self, tenant: str, action_id: int, status: str) -> dict[str, Any]:
        self._exec(
            "UPDATE team_actions SET status = ?, updated_at = ? WHERE tenant = ? AND id = ?",
            (status, utcnow().isoformat(), tenant, action_id),
        )
        row = self._row(
            "SELECT * FROM team_actions WHERE tenant = ? AND id = ?", (tenant, action_id)
        )
        if row is None:
            raise NotFound(f"no action {action_id}")
        return action_of(row)

    def put_digest(
        self,
        tenant: str,
        stream: str,
        day: str,
        timezone: str,
        data: dict[str, Any],
        visibility: Visibility,
    ) -> None:
        self._exec(
            "INSERT INTO team_digests (tenant, stream, day, timezone, data, visibility,"
            " built_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, stream, timezone, day)"
            " DO UPDATE SET data = excluded.data, visibility = excluded.visibility,"
            " built_at = excluded.built_at",
            (
                tenant,
                stream,
                day,
                timezone,
                json.dumps(data),
                visibility.value,
                utcnow().isoformat(),
            ),
        )

    def forget_team(
        self,
        tenant: str,
        streams: Sequence[str],
        record_ids: Sequence[int],
        fact_ids: Sequence[int],
    ) -> None:
        self._exec("DELETE FROM team_profiles WHERE tenant = ?", (tenant,))
        for stream in streams:
            self._exec("DELETE FROM team_digests WHERE tenant = ? AND stream = ?", (tenant, stream))
        records, facts = set(record_ids), set(fact_ids)
        for row in self._rows("SELECT id, data FROM team_actions WHERE tenant = ?", (tenant,)):
            if cites_any(row["data"], records, facts):
                self._exec("DELETE FROM team_actions WHERE id = ?", (row["id"],))
