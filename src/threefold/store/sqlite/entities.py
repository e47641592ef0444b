"""The SQLite store's entity tables: people and their aliases, per tenant."""

import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from threefold.domain import utcnow


class EntityTables:
    """Mixed into SQLiteStore, whose plumbing (_rows, _exec) it uses."""

    if TYPE_CHECKING:

        def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]: ...
        def _exec(self, sql: str, params: Sequence[Any] = ()) -> int: ...

    def entities_named(self, tenant: str, alias: str) -> list[str]:
        rows = self._rows(
            "SELECT e.key FROM entity_aliases a JOIN entities e ON e.id = a.entity_id"
            " WHERE a.tenant = ? AND a.alias = ? ORDER BY e.id",
            (tenant, alias),
        )
        return [r["key"] for r in rows]

    def entity_aliases(self, tenant: str, key: str) -> list[str]:
        rows = self._rows(
            "SELECT a.alias FROM entity_aliases a JOIN entities e ON e.id = a.entity_id"
            " WHERE e.tenant = ? AND e.key = ? ORDER BY a.alias",
            (tenant, key),
        )
        return [r["alias"] for r in rows]

    def add_entity(
        self, tenant: str, kind: str, key: str, name: str, aliases: Sequence[str] = ()
    ) -> None:
        self._exec(
            "INSERT INTO entities (tenant, kind, key, name, created_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (tenant, key) DO NOTHING",
            (tenant, kind, key, name, utcnow().isoformat()),
        )
        for alias in {key, *aliases}:
            self._exec(
                "INSERT OR IGNORE INTO entity_aliases (tenant, alias, entity_id)"
                " SELECT tenant, ?, id FROM entities WHERE tenant = ? AND key = ?",
                (alias, tenant, key),
            )

    def rename_entity(self, tenant: str, old: str, new: str, name: str) -> None:
        """`old` turns out to be `new`: the entity, and the facts about it, take the new key."""
        if self.entities_named(tenant, new) == [new]:
            return  # both exist already; merging two known people is not a guess to make
        self._exec(
            "UPDATE entities SET key = ?, name = ? WHERE tenant = ? AND key = ?",
            (new, name, tenant, old),
        )
        self._exec(
            "UPDATE facts SET subject = ? WHERE tenant = ? AND subject = ?", (new, tenant, old)
        )
        self._exec(
            "UPDATE facts SET value = ? WHERE tenant = ? AND slot = 'holder' AND value = ?",
            (new, tenant, old),
        )

    def delete_entity(self, tenant: str, key: str) -> None:
        self._exec(
            "DELETE FROM entity_aliases WHERE entity_id IN"
            " (SELECT id FROM entities WHERE tenant = ? AND key = ?)",
            (tenant, key),
        )
        self._exec("DELETE FROM entities WHERE tenant = ? AND key = ?", (tenant, key))
