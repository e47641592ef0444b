"""psycopg's errors as the store's typed errors, and URLs fit to show."""

from collections.abc import Sequence
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import errors as pg_errors
from psycopg.abc import Buffer
from psycopg.adapt import Dumper
from psycopg.types.string import StrBinaryDumper, StrDumperUnknown, TextBinaryLoader, TextLoader
from psycopg_pool import PoolClosed

from memstrata.errors import StoreError, StoreFull, StoreReadOnly, StoreUnavailable

INSTALL_PGVECTOR = (
    "the pgvector extension is not installed on this PostgreSQL server; install it (Debian:"
    " apt-get install postgresql-<version>-pgvector; Docker: the pgvector/pgvector image)"
    " and run memstrata again, which creates the extension"
)


NUL_STAND_IN = "\uffff"
"""PostgreSQL's text cannot hold NUL, which SQLite keeps: a NUL is stored as this
noncharacter (never meant to appear in text that is exchanged) and read back as NUL."""


class _NulFreeDumper(StrDumperUnknown):
    def dump(self, obj: str) -> bytes:
        return super().dump(obj.replace("\x00", NUL_STAND_IN))  # type: ignore[return-value]


class _NulFreeBinaryDumper(StrBinaryDumper):
    def dump(self, obj: str) -> bytes:
        return super().dump(obj.replace("\x00", NUL_STAND_IN))  # type: ignore[return-value]


class _NulLoader(TextLoader):
    def load(self, data: Buffer) -> str | bytes:
        return _with_nul(super().load(data))


class _NulBinaryLoader(TextBinaryLoader):
    def load(self, data: Buffer) -> str | bytes:
        return _with_nul(super().load(data))


def _with_nul(text: str | bytes) -> str | bytes:
    """Text as read, with each stand-in a NUL again (bytes, read without an encoding, as is)."""
    if isinstance(text, str) and NUL_STAND_IN in text:
        return text.replace(NUL_STAND_IN, "\x00")
    return text


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


def keep_nul_characters(conn: psycopg.Connection) -> None:
    """Strings with NUL go in and come back out whole on this connection."""
    conn.adapters.register_dumper(str, _NulFreeBinaryDumper)
    conn.adapters.register_dumper(str, _NulFreeDumper)
    conn.adapters.register_dumper(TextArray, _TextArrayDumper)
    for name in ("text", "varchar"):
        conn.adapters.register_loader(name, _NulLoader)
        conn.adapters.register_loader(name, _NulBinaryLoader)


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
