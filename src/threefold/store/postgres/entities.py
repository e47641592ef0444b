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
