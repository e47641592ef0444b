"""Durability is a setting: `full` by default (a commit is on disk when it is acknowledged),
and each level reaches SQLite as its `synchronous` pragma."""

from pathlib import Path

import pytest

from threefold import Memory
from threefold.errors import SettingsError, StoreError
from threefold.settings import Settings, load_settings
from threefold.store.sqlite.store import SQLiteStore

SYNCHRONOUS = {"off": 0, "normal": 1, "full": 2}


def test_full_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("THREEFOLD_DURABILITY")  # the test suite's own speed-up
    assert load_settings().durability == "full"
    assert Settings.model_fields["durability"].default == "full"


@pytest.mark.parametrize("level", ["full", "normal", "off"])
def test_each_level_sets_synchronous(tmp_path: Path, level: str) -> None:
    settings = load_settings(db=tmp_path / "memory.db", durability=level)
    with Memory.open(settings=settings, background_worker=False) as mem:
        assert mem.store._db.execute("PRAGMA synchronous").fetchone()[0] == SYNCHRONOUS[level]


def test_a_store_opened_directly_is_full(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "memory.db")
    try:
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == SYNCHRONOUS["full"]
    finally:
        store.close()


def test_an_unknown_level_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="durability"):
        load_settings(durability="sometimes")
    with pytest.raises(StoreError, match="durability"):
        SQLiteStore(tmp_path / "memory.db", durability="sometimes")
