"""`threefold erase` asks first: a no exits 1, and no answer at all, as in a script that
forgot --yes, is a mistake that exits 2 with one line saying so, as cli.md says."""

from typer.testing import CliRunner

from threefold import Memory
from threefold.faces.cli import app

runner = CliRunner()


def erase(db: str, *args: str, answer: str | None = None):
    return runner.invoke(app, ["--db", db, "erase", *args], input=answer, env={"COLUMNS": "200"})


def seeded(tmp_path) -> str:
    db = str(tmp_path / "cli.db")
    with Memory.open(db) as memory:
        memory.add_turn("chat:1", user="My phone number is 555 0100.")
    return db


def turns(db: str) -> int:
    with Memory.open(db) as memory:
        return len(memory.turns("chat:1"))


def test_no_answer_is_a_mistake_that_exits_2(tmp_path) -> None:
    db = seeded(tmp_path)

    result = erase(db, "--stream", "chat:1", answer="")

    assert result.exit_code == 2, result.output
    assert "give --yes" in result.output and "Aborted!" not in result.output
    assert turns(db) == 1


def test_answering_no_exits_1_and_yes_erases(tmp_path) -> None:
    db = seeded(tmp_path)

    declined = erase(db, "--stream", "chat:1", answer="n\n")
    assert declined.exit_code == 1 and turns(db) == 1
    confirmed = erase(db, "--stream", "chat:1", answer="y\n")
    assert confirmed.exit_code == 0 and turns(db) == 0


def test_no_target_or_two_targets_exit_2_before_asking(tmp_path) -> None:
    db = seeded(tmp_path)

    for args in ([], ["--stream", "chat:1", "--fact", "1"]):
        result = erase(db, *args, answer="y\n")
        assert result.exit_code == 2, result.output
        assert "exactly one of --stream, --person or --fact" in result.output
        assert "Erase" not in result.output  # not asked
    assert turns(db) == 1
