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
