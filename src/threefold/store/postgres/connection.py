"""psycopg's errors as the store's typed errors, and URLs fit to show."""

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import errors as pg_errors
from psycopg.adapt import Dumper
from psycopg.rows import RowMaker, no_result
from psycopg_pool import PoolClosed

from threefold.errors import StoreError, StoreFull, StoreReadOnly, StoreUnavailable

INSTALL_PGVECTOR = (
    "the pgvector extension is not installed on this PostgreSQL server; install it (Debian:"
    " apt-get install postgresql-<version>-pgvector; Docker: the pgvector/pgvector image)"
    " and run threefold again, which creates the extension"
)


NUL_STAND_IN = "\uffff"
"""PostgreSQL's text cannot hold NUL, which SQLite keeps: a NUL is stored as this
noncharacter (never meant to appear in text that is exchanged) and read back as NUL."""

_TEXTS = {psycopg.postgres.types[name].oid for name in ("text", "varchar")}
_TEXT_ARRAYS = {psycopg.postgres.types[name].array_oid for name in ("text", "varchar")}


def nul_free(params: Any) -> Any:
    """A statement's parameters with each NUL of their strings (in lists too) the stand-in.
    Done here, not by a dumper of str, so that psycopg's compiled dumpers and loaders do
    the rest: one of Python for each string (and a loader for each text read) took half
    a millisecond of a context's CPU at a million items."""
    if isinstance(params, Mapping):
        return {name: _nul_free(value) for name, value in params.items()}
    return params if params is None else [_nul_free(value) for value in params]


def _nul_free(value: Any) -> Any:
    if type(value) is str:
        return value.replace("\x00", NUL_STAND_IN) if "\x00" in value else value
    # An array's items are of one type: a list of numbers is left as it is.
    if type(value) is list and value and not isinstance(value[0], int | float):
        return [_nul_free(v) for v in value]
    return value


def nul_restoring_dict_row(cursor: "psycopg.Cursor[Any]") -> "RowMaker[dict[str, Any]]":
    """psycopg's dict_row, with each stand-in in a text column a NUL again. The columns are
    read from the result itself: cursor.description makes an object of each, every time."""
    result = cursor.pgresult
    if result is None or not result.nfields:
        return no_result
    names = [(result.fname(n) or b"").decode() for n in range(result.nfields)]
    # Of columns that share a name, the dict keeps the last.
    last = {name: place for place, name in enumerate(names)}
    texts = [(p, n) for n, p in last.items() if result.ftype(p) in _TEXTS]
    arrays = [(p, n) for n, p in last.items() if result.ftype(p) in _TEXT_ARRAYS]

    def row(values: Sequence[Any]) -> dict[str, Any]:
        made = dict(zip(names, values, strict=True))
        for place, name in texts:
            text = values[place]
            if text is not None and NUL_STAND_IN in text:
                made[name] = text.replace(NUL_STAND_IN, "\x00")
        for place, name in arrays:
            if values[place] is not None:
                made[name] = [_with_nul(text) for text in values[place]]
        return made

    return row


def _with_nul(text: str | None) -> str | None:
    return text.replace(NUL_STAND_IN, "\x00") if text is not None else None


class TextArray(str):
    """A text[] parameter already written as PostgreSQL's array literal, for a long list
    sent with many statements: psycopg would dump its strings one by one each time (the
    common words of four kinds, 1,150 strings at a million items, took 1.2 ms of each
    context's CPU)."""

    words: tuple[str, ...]

    @classmethod
    def of(cls, words: Sequence[str]) -> "TextArray":
        quoted = (word.replace("\\", "\\\\").replace('"', '\\"') for word in words)
        literal = cls("{" + ",".join(f'"{word}"' for word in quoted) + "}")
        literal.words = tuple(words)
        return literal


class _TextArrayDumper(Dumper):
    oid = psycopg.postgres.types["text"].array_oid

    def dump(self, obj: str) -> bytes:
        return obj.replace("\x00", NUL_STAND_IN).encode()


def keep_nul_characters(conn: psycopg.Connection[Any]) -> None:
    """Rows come back as dicts whose strings have their NULs again (see nul_free for
    those that go in), and TextArray parameters are sent as written."""
    conn.row_factory = nul_restoring_dict_row
    conn.adapters.register_dumper(TextArray, _TextArrayDumper)


def shown(url: str) -> str:
    """`url` without its password, to put in messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port:
        host += f":{parts.port}"
    user = f"{parts.username}:***@" if parts.username else ":***@"
    return urlunsplit(parts._replace(netloc=user + host))


def typed_error(exc: psycopg.Error, url: str) -> StoreError:
    """The StoreError subclass that says what went wrong, naming the server but never its
    password."""
    where = shown(url)
    if isinstance(exc, PoolClosed):
        return StoreUnavailable(f"the store is closed ({where})")
    detail = _without_secrets(str(exc), url)
    if isinstance(exc, pg_errors.DiskFull | pg_errors.OutOfMemory):
        return StoreFull(f"the database server is out of space ({where}: {detail})")
    if isinstance(exc, pg_errors.ReadOnlySqlTransaction):
        return StoreReadOnly(f"the database is read-only ({where}: {detail})")
    if _login_refused(exc):
        return StoreUnavailable(
            f"the database refused the login; check the user and password ({where}: {detail})"
        )
    if isinstance(
        exc,
        psycopg.OperationalError
        | psycopg.InterfaceError
        | pg_errors.AdminShutdown
        | pg_errors.CannotConnectNow,
    ):
        return StoreUnavailable(f"the database cannot be reached; try again ({where}: {detail})")
    return StoreError(f"the database failed ({where}: {detail})")


def _login_refused(exc: psycopg.Error) -> bool:
    # A failed connection carries no SQLSTATE, only libpq's message.
    if isinstance(exc, pg_errors.InvalidPassword | pg_errors.InvalidAuthorizationSpecification):
        return True
    return "authentication failed" in str(exc)


def _without_secrets(message: str, url: str) -> str:
    password = urlsplit(url).password
    message = " ".join(message.split())
    return message.replace(password, "***") if password else message
