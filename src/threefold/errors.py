"""One exception tree. Caller mistakes are also ValueErrors so plain Python code can catch them."""


class ThreefoldError(Exception):
    """Base of every error threefold raises on purpose."""


class InvalidInput(ThreefoldError, ValueError):
    """The caller passed something threefold cannot accept; nothing was written."""


class NotFound(ThreefoldError, LookupError):
    """The id or stream does not exist for this tenant, or the database a command must
    read does not exist."""


class Busy(ThreefoldError):
    """Other work on the same data is running (an import during a re-route, say); nothing
    was changed: try again when it is done."""


class SettingsError(ThreefoldError):
    """A setting is invalid; the message names the key."""


class StoreError(ThreefoldError):
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


class ModelError(ThreefoldError):
    """A MemoryModel task failed after its retries."""


class SourceError(ThreefoldError):
    """An outside service (Slack, Google Drive) refused a call or kept failing it: an
    expired token, a storm of 429s. What was read before it is kept; run again to go on."""


class EmbeddingMismatch(StoreError):
    """Stored vectors came from another embedding model or dimension."""


class MissingExtra(ThreefoldError, ImportError):
    """A feature needs an optional part of threefold that is not installed; the message
    names the extra to install, e.g. ``pip install 'threefold[server]'``."""

    def __init__(self, extra: str, feature: str, module: str) -> None:
        super().__init__(
            f"{feature} needs the '{extra}' extra, which is not installed "
            f"(no module {module!r}): pip install 'threefold[{extra}]'",
            name=module,
        )
        self.extra = extra
