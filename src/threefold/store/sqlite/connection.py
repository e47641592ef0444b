"""A sqlite3 connection whose errors are the store's own typed errors.

Every statement of the store goes through `execute` (or `executescript`), and every row
comes back through the cursor's fetch methods, so this is the one place where a raw
`sqlite3.Error` becomes a `StoreError` subclass that callers (HTTP, CLI) can act on.
"""

import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from threefold.errors import StoreCorrupt, StoreError, StoreFull, StoreReadOnly, StoreUnavailable

# SQLite's primary result codes (the low byte of an extended code), by what they mean here.
_FULL = {13}  # SQLITE_FULL: disk full, or max_page_count reached
_READ_ONLY = {8}  # SQLITE_READONLY, whatever the reason
_CORRUPT = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
_UNAVAILABLE = {5, 6, 10, 14, 15, 22}  # BUSY, LOCKED, IOERR, CANTOPEN, PROTOCOL, NOLFS

_ADVICE: dict[type[StoreError], str] = {
    StoreFull: "the disk or the database's size limit is full; free some space and try again",
    StoreReadOnly: "the database cannot be written; check the file's and its folder's "
    "permissions, and that the disk is not mounted read-only",
    StoreCorrupt: "the database file is damaged or is not a threefold database",
    StoreUnavailable: "the database is busy, locked or unreachable; try again",
}


def typed_error(exc: sqlite3.Error, path: Path | str) -> StoreError:
    """The StoreError subclass that says what went wrong, with advice and SQLite's words."""
    if isinstance(exc, sqlite3.ProgrammingError) and "closed" in str(exc):
        return StoreUnavailable(f"the store is closed ({path})")
    kind = _kind(exc)
    return kind(f"{_ADVICE.get(kind, 'the database failed')} ({path}: {exc})")


def _kind(exc: sqlite3.Error) -> type[StoreError]:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:
        return StoreError
    primary = code & 0xFF
    for codes, kind in (
        (_FULL, StoreFull),
        (_READ_ONLY, StoreReadOnly),
        (_CORRUPT, StoreCorrupt),
        (_UNAVAILABLE, StoreUnavailable),
    ):
        if primary in codes:
            return kind
    return StoreError


# Each method catches in place rather than through a shared context manager: these run for
# every statement and row, and a try costs nothing until something fails.


class TypedCursor(sqlite3.Cursor):
    path: Path

    def execute(self, sql: str, params: Any = (), /) -> "TypedCursor":
        try:
            return super().execute(sql, params)
        except sqlite3.Error as exc:
            raise typed_error(exc, self.path) from exc

    def executemany(self, sql: str, params: Iterable[Any], /) -> "TypedCursor":
        try:
            return super().executemany(sql, params)
        except sqlite3.Error as exc:
            raise typed_error(exc, self.path) from exc

    def fetchone(self) -> Any:
        try:
            return super().fetchone()
        except sqlite3.Error as exc:
            raise typed_error(exc, self.path) from exc

    def fetchall(self) -> list[Any]:
        try:
            return super().fetchall()
        except sqlite3.Error as exc:
            raise typed_error(exc, self.path) from exc

    def fetchmany(self, size: int | None = 1) -> list[Any]:
        try:
            return super().fetchmany(size)
        except sqlite3.Error as exc:
            raise typed_error(exc, self.path) from exc

    def __next__(self) -> Any:
        try:
            return super().__next__()
        except sqlite3.Error as exc:
            raise typed_error(exc, self.path) from exc


class TypedConnection(sqlite3.Connection):
    """Made by `connect`; its cursors are TypedCursors."""

    path: Path

    def execute(self, sql: str, params: Any = (), /) -> TypedCursor:
        return self._cursor().execute(sql, params)

    def executemany(self, sql: str, params: Iterable[Any], /) -> TypedCursor:
        return self._cursor().executemany(sql, params)

    def executescript(self, script: str, /) -> sqlite3.Cursor:
        try:
            return super().executescript(script)
        except sqlite3.Error as exc:
            raise typed_error(exc, self.path) from exc

    def _cursor(self) -> TypedCursor:
        try:
            cursor = self.cursor(TypedCursor)
        except sqlite3.Error as exc:  # a closed connection
            raise typed_error(exc, self.path) from exc
        cursor.path = self.path
        return cursor


def connect(path: Path, *, timeout: float) -> TypedConnection:
    """An autocommit connection (the store runs its own BEGIN and COMMIT) usable from any
    thread under the store's lock."""
    try:
        db = sqlite3.connect(
            path,
            isolation_level=None,
            check_same_thread=False,
            timeout=timeout,
            factory=TypedConnection,
        )
    except sqlite3.Error as exc:
        raise typed_error(exc, path) from exc
    db.path = path
    return db
