"""Where a memory lives: the default SQLite file, a location as given, and a location fit
to print. Light on purpose: the CLI's help names the default file before anything heavy
is imported."""

import re
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from platformdirs import user_data_dir

from threefold.errors import InvalidInput

__all__ = ["database_location", "default_db_path", "shown_location", "sqlite_file"]


def default_db_path() -> Path:
    return Path(user_data_dir("threefold", appauthor=False)) / "memory.db"


_DATABASE_URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)


def database_location(value: str | Path) -> str | Path:
    """A database URL as it was given (a Path would fold its '//'), anything else as the
    path of a SQLite file."""
    if isinstance(value, str) and not value.strip():
        # Path("") is the working folder, which SQLite cannot open: say what is wrong.
        raise InvalidInput(
            "no database named (the location is empty): give a SQLite file's path or a "
            "postgresql:// URL"
        )
    if isinstance(value, str) and _DATABASE_URL.match(value):
        return value
    return Path(value)


def sqlite_file(location: str | Path) -> Path | None:
    """The SQLite file a location names (a path or a sqlite:/// URL); None for a database
    server's URL."""
    if isinstance(location, Path) or "://" not in location:
        return Path(location)
    scheme, rest = location.split("://", 1)
    return Path(rest) if scheme.lower() == "sqlite" else None


def shown_location(location: str | Path) -> str:
    """`location` fit to print: a URL's password is left out."""
    if isinstance(location, Path) or "://" not in location:
        return str(location)
    parts = urlsplit(location)
    if parts.password is None:
        return location
    netloc = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{netloc}"))
