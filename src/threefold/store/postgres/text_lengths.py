"""How many rows a full-text column holds and their average length in words: the two
statistics of BM25 that SQLite's FTS5 keeps in its index, and PostgreSQL does not.

FTS5 ranks with the exact figures, so a small table's are exact here too. Its rows are
counted by each search (a few thousand rows: a fraction of a millisecond; a table the
planner knows to be far larger is not counted), but its words (each row's are stored in
its `words` column since migration 0009) are summed once and then only for the rows
added since: summing reads every row of the table. The search statement does this
itself, given what the last search of the table found, and hands back what it found
now: one round trip.
A large table's figures are the planner's row estimate and the average words of its
newest rows, sampled again after a minute: there, a search ranks the newest matches of
common words anyway, and a lag of a minute moves the scores by a hair.

Row-level security shows each tenant only its own rows, so the figures are a tenant's:
a store that holds many tenants ranks each by its own statistics, where SQLite ranks all
by the whole file's.
"""

import threading
import time
from typing import Any, NamedTuple

EXACT_BELOW = 5000
"""Rows under which a table's figures are exact."""
_SAMPLED_ROWS = 300
"""The newest rows whose words estimate a large table's average length, once a minute."""
_SAMPLED_SECONDS = 60.0


class _Seen(NamedTuple):
    rows: int
    last_id: int
    words: int | None
    """A small table's words; None for a large one."""
    average: float | None
    """A large table's sampled words per row; None for a small one."""
    at: float


_UNSEEN = _Seen(-1, -1, 0, None, -float("inf"))


def lengths_sql(table: str) -> str:
    """CTEs `seen` (four parameters: see TextLengths.params) and `lengths` (rows, last_id,
    words and average): the table's figures, reusing what the last search found."""
    estimate = (
        f"greatest(pg_stat_get_live_tuples('{table}'::regclass),"
        f" (SELECT reltuples FROM pg_class WHERE oid = '{table}'::regclass))::bigint"
    )
    # Each subquery of a CASE runs only if its branch is taken: the words are summed
    # only for a table that changed, and only over its new rows if it only grew.
    return f"""
        seen AS MATERIALIZED (
            SELECT %s::bigint AS rows, %s::bigint AS last_id, %s::bigint AS words,
                %s::float8 AS average
        ), counted AS MATERIALIZED (
            SELECT CASE WHEN {estimate} >= {2 * EXACT_BELOW} THEN {estimate}
                ELSE (SELECT count(*) FROM (SELECT 1 FROM {table} LIMIT {EXACT_BELOW}) c)
                END AS n,
                (SELECT coalesce(max(id), 0) FROM {table}) AS last_id
        ), figures AS MATERIALIZED (
            SELECT CASE WHEN c.n < {EXACT_BELOW} THEN c.n
                ELSE greatest({estimate}, {EXACT_BELOW}) END AS rows,
            c.last_id,
            CASE WHEN c.n >= {EXACT_BELOW} THEN NULL
                WHEN c.n = s.rows AND c.last_id = s.last_id THEN s.words
                WHEN c.last_id > s.last_id AND c.n - s.rows
                    = (SELECT count(*) FROM {table} x WHERE x.id > s.last_id)
                THEN s.words + (SELECT coalesce(sum(x.words), 0) FROM {table} x
                    WHERE x.id > s.last_id)
                ELSE (SELECT coalesce(sum(x.words), 0) FROM {table} x) END AS words,
            CASE WHEN c.n >= {EXACT_BELOW} THEN coalesce(s.average, (SELECT avg(x.words)
                FROM (SELECT words FROM {table} ORDER BY id DESC LIMIT {_SAMPLED_ROWS}) x))
            END AS average
            FROM counted c, seen s
        ), lengths AS MATERIALIZED (
            SELECT rows, last_id, words, coalesce(average, words::float8
                / greatest(rows, 1)::float8, 1::float8) AS average
            FROM figures
        )"""


LENGTHS_ROW = "SELECT rows AS n, last_id AS id, coalesce(words::float8, average) AS rank"
"""What a search hands back of `lengths`, for TextLengths.found."""


class TextLengths:
    """What the last search of each (tenant, table) found of its figures."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, str], _Seen] = {}
        self._lock = threading.Lock()

    def params(self, tenant: str, table: str) -> list[Any]:
        """lengths_sql's parameters: the figures last found, if still good to reuse."""
        seen = self._seen.get((tenant, table), _UNSEEN)
        average = seen.average
        if average is not None and time.monotonic() - seen.at >= _SAMPLED_SECONDS:
            average = None  # sampled again
        return [seen.rows, seen.last_id, seen.words, average]

    def rows(self, tenant: str, table: str) -> int:
        """The rows the last search found the table holding; -1 before any."""
        return self._seen.get((tenant, table), _UNSEEN).rows

    def found(self, tenant: str, table: str, rows: int, last_id: int, value: float) -> None:
        """Keep what a search found (a LENGTHS_ROW): a small table's words, or a large
        one's sampled average."""
        seen = self._seen.get((tenant, table), _UNSEEN)
        at = time.monotonic()
        if rows < EXACT_BELOW:
            now = _Seen(rows, last_id, int(value), None, at)
        elif seen.average is not None and at - seen.at < _SAMPLED_SECONDS:
            now = seen._replace(rows=rows, last_id=last_id)  # the sample's time stands
        else:
            now = _Seen(rows, last_id, None, value, at)
        with self._lock:
            self._seen[(tenant, table)] = now

    def forget(self) -> None:
        """Sum every table's words again: rows' words were changed in place."""
        with self._lock:
            self._seen.clear()
