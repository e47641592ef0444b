"""threefold: long-term memory for LLM assistants that does not forget.

The names below are imported on first use (PEP 562), so that `import threefold.errors`, or
a CLI command that never assembles a context, does not load the whole engine.
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from threefold.aio import AsyncMemory
    from threefold.domain import (
        DEFAULT_TENANT,
        GLOBAL_STREAM,
        Context,
        ContextItem,
        ContextSection,
        DroppedItem,
        Fact,
        FactCategory,
        FactChange,
        FactHistory,
        FactRef,
        FactStatus,
        SearchHit,
        SourceRef,
        Stream,
        Summary,
        SummaryKind,
        Tenant,
        Trust,
        Turn,
        Visibility,
    )
    from threefold.errors import (
        EmbeddingMismatch,
        InvalidInput,
        ModelError,
        NotFound,
        SettingsError,
        StoreError,
        ThreefoldError,
    )
    from threefold.memory import Memory
    from threefold.models.base import MemoryModel
    from threefold.settings import Settings, load_settings

    __version__: str

_HOMES = {
    "AsyncMemory": "aio",
    "Memory": "memory",
    "MemoryModel": "models.base",
    "Settings": "settings",
    "load_settings": "settings",
    **dict.fromkeys(
        (
            "EmbeddingMismatch",
            "InvalidInput",
            "ModelError",
            "NotFound",
            "SettingsError",
            "StoreError",
            "ThreefoldError",
        ),
        "errors",
    ),
}
"""The module of each exported name that is not from threefold.domain."""


def __getattr__(name: str) -> Any:
    if name == "__version__":
        return _version()
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(f"threefold.{_HOMES.get(name, 'domain')}")
    value = getattr(module, name)
    globals()[name] = value  # once found, an ordinary attribute
    return value


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("threefold")
    except PackageNotFoundError:  # running from a source tree that was never installed
        found = "0.0.0"
    globals()["__version__"] = found
    return found


__all__ = [
    "AsyncMemory",
    "DEFAULT_TENANT",
    "GLOBAL_STREAM",
    "Context",
    "ContextItem",
    "ContextSection",
    "DroppedItem",
    "EmbeddingMismatch",
    "Fact",
    "FactCategory",
    "FactChange",
    "FactHistory",
    "FactRef",
    "FactStatus",
    "InvalidInput",
    "Memory",
    "MemoryModel",
    "ThreefoldError",
    "ModelError",
    "NotFound",
    "SearchHit",
    "Settings",
    "SettingsError",
    "SourceRef",
    "StoreError",
    "Stream",
    "Summary",
    "SummaryKind",
    "Tenant",
    "Trust",
    "Turn",
    "Visibility",
    "__version__",
    "load_settings",
]
