"""threefold was called memstrata: settings under the old name are refused with the new one,
and what an old install made (its database, its API keys) still opens."""

import hashlib
import sqlite3

import pytest

from threefold import Memory, SettingsError, load_settings


def test_an_old_prefix_variable_is_refused_with_its_new_name(monkeypatch):
    monkeypatch.setenv("MEMSTRATA_RECENT_TURNS", "4")
    with pytest.raises(SettingsError, match="MEMSTRATA_RECENT_TURNS -> THREEFOLD_RECENT_TURNS"):
        load_settings()


def test_an_old_config_variable_is_refused_too(monkeypatch, tmp_path):
    monkeypatch.setenv("MEMSTRATA_CONFIG", str(tmp_path / "memstrata.toml"))
    with pytest.raises(SettingsError, match="THREEFOLD_CONFIG"):
        load_settings()


def test_the_old_default_database_is_named_with_where_it_goes(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.delenv("THREEFOLD_DB")  # the suite's own stand-in for the default
    old = tmp_path / "memstrata" / "memory.db"
    old.parent.mkdir()
    sqlite3.connect(old).close()
    with pytest.raises(SettingsError, match=r"memstrata[/\\]memory\.db.*threefold[/\\]memory\.db"):
        load_settings()
    # An explicit database is the user's choice: the old default does not stand in its way.
    assert load_settings(db=tmp_path / "chosen.db").db == tmp_path / "chosen.db"


def test_a_database_and_key_from_before_the_rename_open_unchanged(tmp_path):
    path = tmp_path / "old.db"
    with Memory.open(path) as mem:
        mem.add_turn("chat:1", "No, Raj is the Lead Architect.")
        mem.process_pending()
        key_id, _ = mem.create_key("acme", label="made by memstrata")
    # A key memstrata issued had its own prefix; only the hash of the secret was stored.
    old_secret = "ms_" + "x" * 43
    con = sqlite3.connect(path)
    with con:
        con.execute(
            "UPDATE api_keys SET secret_hash = ? WHERE id = ?",
            (hashlib.sha256(old_secret.encode()).hexdigest(), key_id),
        )
    con.close()
    with Memory.open(path) as mem:
        assert "Raj" in mem.context("chat:1", "who is the lead architect?").text
        key = mem.api_key(old_secret)
        assert key is not None and key.tenant == "acme"
