"""One exception tree. Caller mistakes are also ValueErrors so plain Python code can catch them."""


class MemstrataError(Exception):
    """Base of every error memstrata raises on purpose."""


class InvalidInput(MemstrataError, ValueError):
    """The caller passed something memstrata cannot accept; nothing was written."""


class NotFound(MemstrataError, LookupError):
    """The id or stream does not exist for this tenant."""


class Busy(MemstrataError):
    """Other work on the same data is running (an import during a re-route, say); nothing
    was changed: try again when it is done."""


class SettingsError(MemstrataError):
    """A setting is invalid; the message names the key."""


class StoreError(MemstrataError):
    """The storage backend failed or holds data this version cannot read.

    `code` is stable: the HTTP API answers 503 with it, and scripts may match on it."""

    code = "store_unavailable"


class StoreUnavailable(StoreError):
    """The store cannot be reached now: busy past its timeout, locked, closed, or an I/O
    error. Trying again later may work."""


class StoreFull(StoreError):
    """The disk (or the database's size limit) is full; nothing of the failed write was kept."""

    code = "store_full"


class StoreReadOnly(StoreError):
    """The database file or its folder cannot be written; nothing was written."""

    code = "store_read_only"


class StoreCorrupt(StoreError):
    """The database file is damaged or is not a database."""

    code = "store_corrupt"


class ModelError(MemstrataError):
    """A MemoryModel task failed after its retries."""


class EmbeddingMismatch(StoreError):
    """Stored vectors came from another embedding model or dimension."""
