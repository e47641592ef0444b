"""The store contract and the one place that picks a backend for a database location."""

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from threefold.errors import StoreError
from threefold.store.base import Store
from threefold.store.sqlite.store import SQLiteStore

POSTGRES_SCHEMES = ("postgresql", "postgres")


def shown_location(location: str | Path) -> str:
    """`location` fit to print: a URL's password is left out."""
    if isinstance(location, Path) or "://" not in location:
        return str(location)
    parts = urlsplit(location)
    if parts.password is None:
        return location
    netloc = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{netloc}"))


def open_store(location: str | Path, *, durability: str = "full") -> Store:
    """The store at `location`: a postgresql:// URL, a sqlite:/// URL or a SQLite file's
    path. Every face (Python, CLI, serve, proxy, mcp, workers) opens its store here."""
    if isinstance(location, Path) or "://" not in location:
        return SQLiteStore(location, durability=durability)
    scheme = urlsplit(location).scheme.lower()
    if scheme in POSTGRES_SCHEMES:
        from threefold.store.postgres import PostgresStore

        return PostgresStore(location)
    if scheme == "sqlite":
        return SQLiteStore(location.split("://", 1)[1], durability=durability)
    raise StoreError(
        f"unsupported database URL scheme {scheme!r}: use a SQLite file's path,"
        " sqlite:///path or postgresql://user:password@host/database"
    )


__all__ = ["POSTGRES_SCHEMES", "SQLiteStore", "Store", "open_store", "shown_location"]
