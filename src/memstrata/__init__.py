"""memstrata: long-term memory for LLM assistants that does not forget."""

from importlib.metadata import PackageNotFoundError, version

from memstrata.aio import AsyncMemory
from memstrata.errors import (
    EmbeddingMismatch,
    InvalidInput,
    MemstrataError,
    ModelError,
    NotFound,
    SettingsError,
    StoreError,
)
from memstrata.memory import Memory
from memstrata.models.base import MemoryModel
from memstrata.settings import Settings, load_settings
from memstrata.types import (
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

try:
    __version__ = version("memstrata")
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
    "MemstrataError",
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
