"""Copy a SQLite memory into a PostgreSQL one, row for row with the same ids.

Safe to run again: a row whose key is already there is left as it is. Rows go in through
COPY into a staging table, then one INSERT that skips the keys already there: a million
rows take minutes, not an hour of single inserts. Full-text columns are computed by
PostgreSQL; vectors are carried over as they are, and each dimension gets its HNSW index.
"""

import sqlite3
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from threefold.errors import StoreError
from threefold.store.base import Store
from threefold.store.postgres.connection import nul_free
from threefold.store.postgres.migrations import INDEX_TURNS
from threefold.store.postgres.store import PostgresStore

TABLES = (
    "streams",
    "turns",
    "facts",
    "fact_history",
    "summaries",
    "jobs",
    "vectors",
    "api_keys",
    "records",
    "record_streams",
    "entity_events",
    "imports",
    "leases",
    "entities",
    "entity_aliases",
    "erasures",
)
"""In an order where every row's references are copied before it."""
_BATCH = 5000
_RENAMED = {("vectors", "vector"): "embedding"}
"""SQLite's column name -> PostgreSQL's, where they differ."""
_LATER = {"facts": ("superseded_by",)}
"""Links to rows copied after this one: set once the whole table is there."""


def copy_sqlite_to_postgres(
    source: Path, target: Store, advance: Callable[[str, int], None]
) -> dict[str, tuple[int, int]]:
    """Copy every table; (rows in the source, rows in the target) per table."""
    if not isinstance(target, PostgresStore):
        raise StoreError("migrate copies into a postgresql:// database")
    if not source.is_file():
        raise StoreError(f"no SQLite memory at {source}")
    db = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    db.row_factory = sqlite3.Row
    try:
        for table in TABLES:
            _copy_table(db, target, table, advance)
        _index_copied_turns(target)
        _move_identities(target)
        target.index_vectors()
        return {
            table: (
                db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0],
                _count(target, table),
            )
            for table in TABLES
        }
    finally:
        db.close()


def source_rows(source: Path) -> int:
    db = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        return sum(_source_count(db, table) for table in TABLES)
    finally:
        db.close()


def _copy_table(
    db: sqlite3.Connection, target: PostgresStore, table: str, advance: Callable[[str, int], None]
) -> None:
    kinds = _column_kinds(target, table)
    columns = {
        name: _RENAMED.get((table, name), name)
        for name in (r[1] for r in db.execute(f"PRAGMA table_info({table})"))
    }
    names = [name for name, to in columns.items() if to in kinds]
    if not names:
        return  # a table the source's (older) schema does not have
    later = _LATER.get(table, ())
    targets = ", ".join(columns[n] for n in names)
    links: list[tuple[Any, ...]] = []
    for rows in _batches(db.execute(f"SELECT {', '.join(names)} FROM {table}")):
        values = [
            tuple(None if n in later else _value(r[n], kinds[columns[n]]) for n in names)
            for r in rows
        ]
        _copy_rows(target, table, targets, values)
        links += [(r[n], r["id"]) for n in later for r in rows if r[n] is not None]
        advance(table, len(rows))
    for column in later:
        with target.transaction():
            target._many(f"UPDATE {table} SET {column} = %s WHERE id = %s", links)


def _copy_rows(
    target: PostgresStore, table: str, columns: str, values: list[tuple[Any, ...]]
) -> None:
    """COPY the rows into a staging table, then add those whose key is not there yet."""
    with target.transaction(), target._connection() as conn:
        conn.execute(f"CREATE TEMP TABLE staged (LIKE {table} INCLUDING DEFAULTS) ON COMMIT DROP")
        with conn.cursor().copy(f"COPY staged ({columns}) FROM STDIN") as copy:
            for row in values:
                copy.write_row(nul_free(row))
        conn.execute(
            f"INSERT INTO {table} ({columns}) SELECT {columns} FROM staged ON CONFLICT DO NOTHING"
        )


def _batches(cursor: sqlite3.Cursor) -> Iterator[list[sqlite3.Row]]:
    while rows := cursor.fetchmany(_BATCH):
        yield rows


def _column_kinds(target: PostgresStore, table: str) -> dict[str, str]:
    """The target's insertable columns and their types (generated ones left out)."""
    rows = target._rows(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_name = %s AND table_schema = current_schema()"
        " AND is_generated = 'NEVER' AND data_type != 'tsvector'",
        (table,),
    )
    return {r["column_name"]: r["data_type"] for r in rows}


def _value(value: Any, kind: str) -> Any:
    if value is None:
        return None
    if kind == "timestamp with time zone":
        return datetime.fromisoformat(value)
    if kind == "boolean":
        return bool(value)
    if kind == "USER-DEFINED":  # a pgvector column, from SQLite's float32 bytes
        return np.frombuffer(value, dtype=np.float32)
    return value


def _index_copied_turns(target: PostgresStore) -> None:
    """Turns are indexed with the turn before them, as insert_turn does. Their words go
    into the full-text index through its pending list, which merges them in batches, as
    a bulk write is best done; searches never see that list, which is empty again after."""
    with target.transaction():
        target._exec("ALTER INDEX turns_search SET (fastupdate = on)")
        target._exec(INDEX_TURNS + " WHERE t.search = ''::tsvector")
        target._exec("ALTER INDEX turns_search SET (fastupdate = off)")
        target._exec("SELECT gin_clean_pending_list('turns_search'::regclass)")


def _move_identities(target: PostgresStore) -> None:
    """New rows get ids after the copied ones."""
    for table in TABLES:
        column = "seq" if table == "imports" else "id"
        if column not in _column_kinds(target, table):
            continue
        target._row(
            f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
            f" greatest((SELECT max({column}) FROM {table}), 1))"
        )


def _source_count(db: sqlite3.Connection, table: str) -> int:
    if not db.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (table,)).fetchone():
        return 0
    return int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def _count(target: PostgresStore, table: str) -> int:
    row = target._row(f"SELECT COUNT(*) AS n FROM {table}")
    return int(row["n"]) if row else 0
