"""One exception tree. Caller mistakes are also ValueErrors so plain Python code can catch them."""


class MemstrataError(Exception):
    """Base of every error memstrata raises on purpose."""


class InvalidInput(MemstrataError, ValueError):
    """The caller passed something memstrata cannot accept; nothing was written."""


class NotFound(MemstrataError, LookupError):
    """The id or stream does not exist for this tenant."""


class SettingsError(MemstrataError):
    """A setting is invalid; the message names the key."""


class StoreError(MemstrataError):
    """The storage backend failed or holds data this version cannot read."""


class ModelError(MemstrataError):
    """A MemoryModel task failed after its retries."""


class EmbeddingMismatch(StoreError):
    """Stored vectors came from another embedding model or dimension."""
