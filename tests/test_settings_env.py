"""Settings from the environment and a TOML file, read by threefold itself (pydantic-settings
cost a fifth of a short CLI call): the same names, precedence and errors."""

from pathlib import Path

import pytest

from threefold import load_settings
from threefold.errors import SettingsError


def test_nested_names_json_values_and_precedence(tmp_path: Path, monkeypatch) -> None:
    config = tmp_path / "threefold.toml"
    config.write_text('recent_turns = 4\n[model]\nkind = "llm"\nname = "from-file"\n')
    monkeypatch.setenv("THREEFOLD_MODEL__NAME", "from-env")
    monkeypatch.setenv("threefold_session_turns", "9")  # names match in any case
    monkeypatch.setenv("THREEFOLD_OBSERVATION_SOURCES", '["slack.", "mail."]')
    monkeypatch.setenv("THREEFOLD_TEAM", '{"timezone": "Europe/Paris"}')
    monkeypatch.setenv("THREEFOLD_TEAM__PROFILE_SHARE", "0.2")
    monkeypatch.setenv("THREEFOLD_NOT_A_SETTING", "another tool's")  # left alone
    settings = load_settings(config, recent_turns=5)
    assert (settings.recent_turns, settings.session_turns) == (5, 9)  # arguments win
    assert (settings.model.kind, settings.model.name) == ("llm", "from-env")  # merged by key
    assert settings.observation_sources == ("slack.", "mail.")
    assert (settings.team.timezone, settings.team.profile_share) == ("Europe/Paris", 0.2)


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("THREEFOLD_OBSERVATION_SOURCES", "slack.", "THREEFOLD_OBSERVATION_SOURCES is not JSON"),
        ("THREEFOLD_TEAM", "{timezone: Paris}", "THREEFOLD_TEAM is not JSON"),
        ("THREEFOLD_TEAM__RULES", "[{", "THREEFOLD_TEAM__RULES is not JSON"),
        ("THREEFOLD_RECENT_TURNS", "", "recent_turns"),
        ("THREEFOLD_DURABILITY", "sometimes", "durability"),
        ("THREEFOLD_TEAM__TIMEZONE", "Mars/Olympus", "team.timezone"),
    ],
)
def test_a_bad_variable_is_named(monkeypatch, name: str, value: str, says: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError, match=says):
        load_settings()


def test_a_settings_file_that_is_not_toml_is_named(tmp_path: Path) -> None:
    config = tmp_path / "threefold.toml"
    config.write_bytes(b"\xff\xfe not toml")
    with pytest.raises(SettingsError, match="cannot read settings: .*threefold.toml"):
        load_settings(config)
    config.write_text("[model]\nkind = 3\n")
    with pytest.raises(SettingsError, match="model.kind"):
        load_settings(config)


def test_a_database_url_survives_the_json_handed_to_worker_processes() -> None:
    from threefold.settings import Settings

    url = "postgresql://threefold:pw@127.0.0.1:5432/memory"
    handed = Settings.model_validate_json(load_settings(db=url).model_dump_json())
    assert handed.db == url  # not a Path: "//" folded, it was opened as a SQLite folder
