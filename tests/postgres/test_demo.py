"""`threefold demo --db postgresql://…`: the story written to a PostgreSQL database."""

from collections.abc import Callable

from typer.testing import CliRunner

from threefold.faces.cli import app

runner = CliRunner()


def test_the_demo_runs_on_a_database_url_once(fresh_postgres: Callable[[], str]) -> None:
    url = fresh_postgres()
    played = runner.invoke(app, ["demo", "--db", url, "--turns", "10"], env={"COLUMNS": "200"})
    assert played.exit_code == 0, played.output
    assert "50 turns" in played.output
    assert "s3cret-pw" not in played.output  # the URL is shown without its password
    assert "Raj is the Lead Architect." in played.output
    assert "The Alpha deadline is March 27, 2027" in played.output

    again = runner.invoke(app, ["demo", "--db", url, "--turns", "10"], env={"COLUMNS": "200"})
    assert again.exit_code == 2
    assert "already holds" in again.output
