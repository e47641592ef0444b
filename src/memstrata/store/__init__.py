from memstrata.store.base import Store
from memstrata.store.sqlite.store import SQLiteStore

__all__ = ["SQLiteStore", "Store"]
