"""What both stores' team tables read the same way, whatever the SQL that fetched it."""

import json
from typing import Any, Protocol


class Columns(Protocol):
    """A row read by column name: sqlite3.Row, or psycopg's dict row."""

    def __getitem__(self, name: str) -> Any: ...


def action_of(row: Columns) -> dict[str, Any]:
    """A team_actions row as the team service takes it: its columns and its data."""
    columns = ("id", "key", "rule", "stream", "visibility", "status", "opened_at", "updated_at")
    return {**{name: row[name] for name in columns}, **json.loads(row["data"])}


def cites_any(data_json: str, record_ids: set[int], fact_ids: set[int]) -> bool:
    """Whether an action's data names one of the records or facts as its evidence."""
    data = json.loads(data_json)
    return bool(
        record_ids & set(data.get("record_ids", ())) or fact_ids & set(data.get("fact_ids", ()))
    )
