"""The PostgreSQL store's entity tables: people and their aliases, per tenant."""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from threefold.domain import utcnow

if TYPE_CHECKING:
    from threefold.store.postgres.store import Params


class EntityTables:
    """Mixed into PostgresStore, whose plumbing (_rows, _exec) it uses."""

    if TYPE_CHECKING:

        def _rows(self, sql: str, params: "Params" = ()) -> list[dict[str, Any]]: ...
        def _exec(self, sql: str, params: "Params" = ()) -> int: ...

    def entities_named(self, tenant: str, alias: str) -> list[str]:
        rows = self._rows(
            "SELECT e.key FROM entity_aliases a JOIN entities e ON e.id = a.entity_id"
            " WHERE a.tenant = %s AND a.alias = %s ORDER BY e.id",
            (tenant, alias),
        )
        return [r["key"] for r in rows]

    def entity_aliases(self, tenant: str, key: str) -> list[str]:
        rows = self._rows(
            "SELECT a.alias FROM entity_aliases a JOIN entities e ON e.id = a.entity_id"
            " WHERE e.tenant = %s AND e.key = %s ORDER BY a.alias",
            (tenant, key),
        )
        return [r["alias"] for r in rows]

    def add_entity(
        self, tenant: str, kind: str, key: str, name: str, aliases: Sequence[str] = ()
    ) -> None:
        self._exec(
            "INSERT INTO entities (tenant, kind, key, name, created_at)"
            " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (tenant, key) DO NOTHING",
            (tenant, kind, key, name, utcnow().isoformat()),
        )
        for alias in sorted({key, *aliases}):
            self._exec(
                "INSERT INTO entity_aliases (tenant, alias, entity_id)"
                " SELECT tenant, %s, id FROM entities WHERE tenant = %s AND key = %s"
                " ON CONFLICT DO NOTHING",
                (alias, tenant, key),
            )

    def rename_entity(self, tenant: str, old: str, new: str, name: str) -> None:
        """`old` turns out to be `new`: the entity, and the facts about it, take the new key."""
        if self.entities_named(tenant, new) == [new]:
            return  # both exist already; merging two known people is not a guess to make
        self._exec(
            "UPDATE entities SET key = %s, name = %s WHERE tenant = %s AND key = %s",
            (new, name, tenant, old),
        )
        self._exec(
            "UPDATE facts SET subject = %s WHERE tenant = %s AND subject = %s", (new, tenant, old)
        )
        self._exec(
            "UPDATE facts SET value = %s WHERE tenant = %s AND slot = 'holder' AND value = %s",
            (new, tenant, old),
        )

    def delete_entity(self, tenant: str, key: str) -> None:
        self._exec(
            "DELETE FROM entity_aliases WHERE entity_id IN"
            " (SELECT id FROM entities WHERE tenant = %s AND key = %s)",
            (tenant, key),
        )
        self._exec("DELETE FROM entities WHERE tenant = %s AND key = %s", (tenant, key))
