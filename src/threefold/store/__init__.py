"""The store contract and the one place that picks a backend for a database location."""

from pathlib import Path
from urllib.parse import urlsplit

from threefold.errors import StoreError
from threefold.locations import shown_location, sqlite_file
from threefold.store.base import Store
from threefold.store.sqlite.store import SQLiteStore

POSTGRES_SCHEMES = ("postgresql", "postgres")


def open_store(location: str | Path, *, durability: str = "full") -> Store:
    """The store at `location`: a postgresql:// URL, a sqlite:/// URL or a SQLite file's
    path. Every face (Python, CLI, serve, proxy, mcp, workers) opens its store here."""
    if (path := sqlite_file(location)) is not None:
        return SQLiteStore(path, durability=durability)
    scheme = urlsplit(str(location)).scheme.lower()
    if scheme in POSTGRES_SCHEMES:
        from threefold.store.postgres import PostgresStore

        return PostgresStore(str(location))
    raise StoreError(
        f"unsupported database URL scheme {scheme!r}: use a SQLite file's path,"
        " sqlite:///path or postgresql://user:password@host/database"
    )


__all__ = ["POSTGRES_SCHEMES", "SQLiteStore", "Store", "open_store", "shown_location"]
