"""threefold: long-term memory for LLM assistants that does not forget."""

from importlib.metadata import PackageNotFoundError, version

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

try:
    __version__ = version("threefold")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"

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
