"""A folder or an empty location given as the database is a mistake to fix, said as one,
not "busy, locked or unreachable; try again"."""

import pytest
from typer.testing import CliRunner

from threefold import Memory
from threefold.errors import InvalidInput, SettingsError
from threefold.faces.cli import app

runner = CliRunner()


def run(*args: str, **env: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "200", **env})


def test_a_folder_as_the_database_is_named_as_a_folder(tmp_path) -> None:
    result = run("--db", str(tmp_path), "facts", "a:b")

    assert result.exit_code == 2, result.output
    assert "is a folder, not a database file" in result.output
    assert "busy" not in result.output
    with pytest.raises(SettingsError, match="is a folder"):
        Memory.open(tmp_path)


def test_an_empty_location_is_no_database_named(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)

    from_env = run("check", THREEFOLD_DB="")
    from_option = run("--db", "", "facts", "a:b")

    for result in (from_env, from_option):
        assert result.exit_code == 2, result.output
        assert "no database named" in result.output and "busy" not in result.output
    with pytest.raises(InvalidInput, match="no database named"):
        Memory.open("")
    assert list(tmp_path.iterdir()) == []  # nothing made in the working folder
