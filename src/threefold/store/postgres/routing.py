"""The PostgreSQL store's own part in routing: the Jira projects seen and the count of records
not digested yet. Moving records between streams is written once, in store/statements.py."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from threefold.store.postgres.store import Params, Row


JIRA_PROJECTS = (
    "SELECT DISTINCT ON (channel) channel, data::jsonb ->> 'project_name' AS name"
    " FROM records WHERE tenant = %s AND source = 'jira' ORDER BY channel, id"
)
"""Each imported Jira project's key and the name its first row gives."""


def jira_projects_of(rows: "list[Row]") -> list[tuple[str, str | None]]:
    return [(r["channel"], r["name"]) for r in rows]


class RoutingTables:
    """Mixed into PostgresStore, whose _rows it uses."""

    if TYPE_CHECKING:

        def _rows(self, sql: str, params: "Params" = ()) -> list[Row]: ...

    def jira_projects(self, tenant: str) -> list[tuple[str, str | None]]:
        return jira_projects_of(self._rows(JIRA_PROJECTS, (tenant,)))

    def count_undigested(self, tenant: str) -> int:
        rows = self._rows(
            "SELECT count(*) AS n FROM records WHERE tenant = %s AND NOT processed", (tenant,)
        )
        return int(rows[0]["n"])
