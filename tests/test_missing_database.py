"""A database path that names nothing: a command that only reads stops and says so, and
creates nothing, so a mistyped `--db` cannot pass for an empty memory; a command that
writes, and Memory.open, create the file (and its folder)."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from threefold import Memory
from threefold.faces.cli import app
from threefold.locations import default_db_path

runner = CliRunner()

READS = [
    ["facts", "a:b"],
    ["facts", "a:b", "--all"],
    ["context", "a:b", "what do you know?"],
    ["search", "anything"],
    ["timeline", "Ben"],
    ["history", "1"],
    ["summaries", "a:b"],
    ["stats"],
    ["keys", "list"],
    ["team", "actions"],
    ["forget", "1"],
    ["process"],
]


def run(*args: str, **env: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "200", **env})


def _left_behind(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*"))


@pytest.mark.parametrize("command", READS, ids=[" ".join(c) for c in READS])
def test_a_read_of_a_missing_file_fails_and_creates_nothing(tmp_path: Path, command) -> None:
    for db in (tmp_path / "x.db", tmp_path / "no" / "such" / "x.db"):
        done = run("--db", str(db), *command)
        assert done.exit_code == 2, done.output
        assert f"no database at {db}" in done.output
        assert "Traceback" not in done.output
    assert _left_behind(tmp_path) == []


def test_a_read_of_a_missing_file_from_the_environment_fails_too(tmp_path: Path) -> None:
    db = tmp_path / "typo.db"
    done = run("facts", "a:b", THREEFOLD_DB=str(db))
    assert done.exit_code == 2 and f"no database at {db}" in done.output
    done = run("--db", f"sqlite://{db}", "search", "x")
    assert done.exit_code == 2 and "no database at" in done.output
    assert not db.exists()


def test_a_write_creates_the_file_and_reads_then_see_it(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    added = run("--db", str(db), "add-turn", "a:b", "--user", "I live in Oslo.")
    assert added.exit_code == 0, added.output
    assert db.is_file()
    listed = run("--db", str(db), "facts", "a:b")
    assert listed.exit_code == 0 and "Oslo" in listed.output


def test_check_creates_the_file(tmp_path: Path) -> None:
    db = tmp_path / "checked.db"
    assert run("--db", str(db), "check").exit_code == 0
    assert db.is_file()


def test_memory_open_creates_the_file_and_its_folder(tmp_path: Path) -> None:
    with Memory.open(tmp_path / "new" / "x.db") as mem:
        mem.add_turn("a:b", "hello")
    assert (tmp_path / "new" / "x.db").is_file()


def test_the_default_database_gets_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # threefold's own data folder is made on first use; that is where a new user's
    # memory lives without any --db.
    monkeypatch.delenv("THREEFOLD_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    default = default_db_path()
    assert str(default).startswith(str(tmp_path)) and not default.parent.exists()
    assert run("facts", "a:b").exit_code == 2
    assert not default.parent.exists()
    assert run("add-turn", "a:b", "--user", "hello").exit_code == 0
    assert default.is_file()
