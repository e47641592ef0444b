"""A time without a zone is UTC, on every face, as the API reference, the HTTP schema and
`add-turn --help` say."""

from datetime import UTC, datetime
from pathlib import Path

from typer.testing import CliRunner

from tests.security.faces import faces
from threefold import Memory
from threefold.domain import Trust
from threefold.faces.cli import app

STREAM = "user:ola"
NINE_UTC = datetime(2026, 10, 5, 9, 0, tzinfo=UTC)


def test_a_naive_time_is_utc_in_python_and_over_http(tmp_path: Path) -> None:
    with faces(tmp_path) as f:
        f.memory.add_turn(STREAM, "Python.", at=datetime(2026, 10, 5, 9, 0))
        body = {"stream": STREAM, "user": "HTTP.", "at": "2026-10-05T09:00:00"}
        assert f.post(Trust.FULL, "/v1/turns", body).status_code == 201
        assert [t.at for t in f.memory.turns(STREAM)] == [NINE_UTC, NINE_UTC]
    assert "naive datetime is taken as UTC" in (Memory.add_turn.__doc__ or "")


def test_add_turn_at_without_a_zone_is_utc_and_its_help_says_so(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    runner = CliRunner()
    done = runner.invoke(
        app, ["--db", db, "add-turn", STREAM, "--user", "Hi.", "--at", "2026-10-05T09:00:00"]
    )
    assert done.exit_code == 0, done.output
    with Memory.open(db, background_worker=False) as mem:
        assert [t.at for t in mem.turns(STREAM)] == [NINE_UTC]
    shown = runner.invoke(app, ["add-turn", "--help"], env={"COLUMNS": "200"}).output
    assert "without a zone it is UTC" in " ".join(shown.split())
