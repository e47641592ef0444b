"""Bad input gets a clear error and loses nothing."""

import sqlite3

import pytest

from tests.scripted_model import ScriptedModel
from threefold import InvalidInput, Memory, SettingsError, StoreError, load_settings
from threefold.store import SQLiteStore

STREAM = "chat:1"


@pytest.fixture
def mem(open_memory):
    return open_memory(ScriptedModel())


@pytest.mark.parametrize("user,assistant", [("", ""), ("   \n\t", ""), ("", " "), (None, None)])
def test_empty_turns_are_refused(mem, user, assistant):
    with pytest.raises(InvalidInput, match="both are empty"):
        mem.add_turn(STREAM, user, assistant)
    assert mem.turns(STREAM) == []


def test_a_ten_megabyte_turn_is_kept_whole(mem):
    big = ("All work and no play makes Jack a dull boy. " * 240_000)[:10_000_000]
    turn = mem.add_turn(STREAM, big, "ok")
    mem.process_pending()
    assert mem.turns(STREAM)[0].user == big
    assert turn.tokens > 2_000_000
    ctx = mem.context(STREAM, "Jack?", budget=1000)
    assert ctx.tokens <= 1000


def test_over_the_size_limit_is_refused_with_the_limit(open_memory):
    mem = open_memory(ScriptedModel(), max_turn_chars=1000)
    with pytest.raises(InvalidInput, match="max_turn_chars"):
        mem.add_turn(STREAM, "x" * 1001)
    assert mem.turns(STREAM) == []


def test_invalid_utf8_bytes_are_refused(mem):
    with pytest.raises(InvalidInput, match="not valid UTF-8"):
        mem.add_turn(STREAM, b"caf\xe9 au lait")
    assert mem.add_turn(STREAM, "café".encode()).user == "café"


def test_lone_surrogates_are_refused(mem):
    with pytest.raises(InvalidInput, match="not valid Unicode"):
        mem.add_turn(STREAM, "broken \udce9 text")


def test_nul_characters_round_trip_and_are_searchable(open_memory):
    mem = open_memory(ScriptedModel(), recent_turns=1, session_turns=1)
    mem.add_turn(STREAM, "before\x00after zebra")
    mem.add_turn(STREAM, "later")
    mem.process_pending()
    assert mem.turns(STREAM)[0].user == "before\x00after zebra"
    ctx = mem.context(STREAM, "zebra", budget=500)
    assert "zebra" in ctx.section("retrieved").items[0].text


@pytest.mark.parametrize(
    "stream",
    [
        "",
        "alpha",
        "project:",
        ":alpha",
        "Project:alpha",
        "project:al pha",
        "project:'; DROP",
        "project:a\x00b",
        "chat:" + "x" * 300,
        "project:\u202eevil",
        42,
    ],
)
def test_odd_stream_names_are_refused(mem, stream):
    with pytest.raises(InvalidInput, match="stream"):
        mem.add_turn(stream, "hello")


@pytest.mark.parametrize(
    "stream",
    [
        "global",
        "project:alpha",
        "chat:8812",
        "user:7",
        "team:dev-ops_2",
        "user:ann@example.com",
        "doc:a/b.c",
    ],
)
def test_reasonable_stream_names_are_accepted(mem, stream):
    assert mem.add_turn(stream, "hello").stream == stream


def test_odd_tenants_are_refused(mem):
    with pytest.raises(InvalidInput, match="tenant"):
        mem.add_turn(STREAM, "hello", tenant="a b")


def test_fts_operators_in_a_query_are_harmless(mem):
    mem.add_turn(STREAM, "plain words here")
    for query in ['"unbalanced', "NEAR(a b", "a* OR", "(((", "AND OR NOT", "col:umn", "^x"]:
        assert mem.context(STREAM, query, budget=300).tokens <= 300


def test_settings_errors_name_the_key(monkeypatch):
    with pytest.raises(SettingsError, match="recent_turns"):
        load_settings(recent_turns=-2)
    monkeypatch.setenv("THREEFOLD_SESSION_TURNS", "twenty")
    with pytest.raises(SettingsError, match="session_turns"):
        load_settings()


def test_settings_from_toml_and_env(tmp_path, monkeypatch):
    config = tmp_path / "threefold.toml"
    config.write_text('recent_turns = 4\nsession_turns = 7\n[model]\nkind = "llm"\n')
    monkeypatch.setenv("THREEFOLD_SESSION_TURNS", "9")
    settings = load_settings(config)
    assert (settings.recent_turns, settings.session_turns, settings.model.kind) == (4, 9, "llm")
    config.write_text("recent_turns = = 4\n")
    with pytest.raises(SettingsError, match="cannot read"):
        load_settings(config)
    with pytest.raises(SettingsError, match="not found"):
        load_settings(tmp_path / "missing.toml")


def test_a_database_from_a_newer_version_is_refused(tmp_path):
    path = tmp_path / "future.db"
    SQLiteStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO schema_migrations VALUES ('9999_future', 'x')")
    with pytest.raises(StoreError, match="newer threefold"):
        Memory.open(path, model=ScriptedModel(), background_worker=False)


def test_the_store_is_wal_with_foreign_keys(mem):
    assert mem.store._row("PRAGMA journal_mode")[0] == "wal"
    assert mem.store._row("PRAGMA foreign_keys")[0] == 1
    from threefold.store.sqlite.migrations import MIGRATIONS

    assert mem.store.migrations() == [name for name, _ in MIGRATIONS]


def test_turn_metadata_is_checked_too(mem):
    with pytest.raises(InvalidInput, match="at must be a valid datetime"):
        mem.add_turn(STREAM, "hello", at="yesterday")
    with pytest.raises(InvalidInput, match="page_context"):
        mem.add_turn(STREAM, "hello", page_context="bad \udce9")
    turn = mem.add_turn(STREAM, "hello", page_context="/projects/alpha", model_variant="gpt-x")
    assert (turn.page_context, turn.model_variant, turn.source) == (
        "/projects/alpha",
        "gpt-x",
        "conversation",
    )
