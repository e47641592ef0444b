"""The PostgreSQL store's team tables: profiles, actions and daily digests (see TeamStore)."""

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from threefold.domain import Visibility, utcnow
from threefold.errors import NotFound
from threefold.store.rows import action_of, cites_any

if TYPE_CHECKING:
    from threefold.store.postgres.store import Params

Row = dict[str, Any]


PROFILE_NAMES = "SELECT entity, kind, name FROM team_profiles WHERE tenant = %s ORDER BY entity"


class TeamTables:
    """Mixed into PostgresStore, whose plumbing (_rows, _row, _exec) it uses."""

    if TYPE_CHECKING:

        def _rows(self, sql: str, params: "Params" = ()) -> list[Row]: ...
        def _row(self, sql: str, params: "Params" = ()) -> Row | None: ...
        def _exec(self, sql: str, params: "Params" = ()) -> int: ...

    def profile_names(self, tenant: str) -> list[tuple[str, str, str]]:
        rows = self._rows(PROFILE_NAMES, (tenant,))
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
        # One statement, so that two processes rebuilding at once keep one row per key;
        # xmax = 0 tells an inserted row from an updated one.
        now = utcnow().isoformat()
        row = self._row(
            "INSERT INTO team_actions (tenant, key, rule, stream, data, visibility, status,"
            " opened_at, updated_at) VALUES (%s, %s, %s, %s, %s, %s, 'open', %s, %s)"
            " ON CONFLICT (tenant, key) DO UPDATE SET rule = excluded.rule,"
            " stream = excluded.stream, data = excluded.data, visibility = excluded.visibility,"
            " updated_at = excluded.updated_at RETURNING id, (xmax = 0) AS inserted",
            (tenant, key, rule, stream, json.dumps(data), visibility.value, now, now),
        )
        assert row is not None
        return int(row["id"]), bool(row["inserted"])

    def close_missing_actions(self, tenant: str, found: Sequence[str]) -> int:
        return self._exec(
            "UPDATE team_actions SET status = 'done', updated_at = %s"
            " WHERE tenant = %s AND status = 'open' AND NOT (key = ANY(%s))",
            (utcnow().isoformat(), tenant, list(found)),
        )

    def action_rows(self, tenant: str, status: str | None = None) -> list[dict[str, Any]]:
        rows = self._rows(
            "SELECT * FROM team_actions WHERE tenant = %(t)s"
            " AND (%(s)s::text IS NULL OR status = %(s)s) ORDER BY id",
            {"t": tenant, "s": status},
        )
        return [action_of(r) for r in rows]

    def set_action_status(self, tenant: str, action_id: int, status: str) -> dict[str, Any]:
        row = self._row(
            "UPDATE team_actions SET status = %s, updated_at = %s WHERE tenant = %s AND id = %s"
            " RETURNING *",
            (status, utcnow().isoformat(), tenant, action_id),
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
            " built_at) VALUES (%s, %s, %s, %s, %s, %s, %s)"
            " ON CONFLICT (tenant, stream, timezone, day) DO UPDATE SET data = excluded.data,"
            " visibility = excluded.visibility, built_at = excluded.built_at",
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
        self._exec("DELETE FROM team_profiles WHERE tenant = %s", (tenant,))
        self._exec(
            "DELETE FROM team_digests WHERE tenant = %s AND stream = ANY(%s)",
            (tenant, list(streams)),
        )
        records, facts = set(record_ids), set(fact_ids)
        for row in self._rows("SELECT id, data FROM team_actions WHERE tenant = %s", (tenant,)):
            if cites_any(row["data"], records, facts):
                self._exec("DELETE FROM team_actions WHERE id = %s", (row["id"],))
