"""The command line, run in-process against real SQLite files."""

import json

from typer.testing import CliRunner

from threefold import __version__
from threefold.faces.cli import app

runner = CliRunner()


def run(*args: str, **env: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "200", **env})


def test_version():
    result = run("--version")
    assert result.exit_code == 0 and __version__ in result.output


def test_add_turn_then_facts_and_context(tmp_path):
    db = str(tmp_path / "cli.db")
    added = run(
        "--db",
        db,
        "add-turn",
        "project:alpha",
        "--user",
        "No, Raj is the Lead Architect.",
        "--at",
        "2026-10-05T09:00:00",
    )
    assert added.exit_code == 0, added.output
    facts = run("--db", db, "facts", "project:alpha")
    assert "Raj" in facts.output and "Lead Architect" in facts.output

    ctx = run(
        "--db",
        db,
        "context",
        "project:alpha",
        "Who leads architecture?",
        "--json",
        "--budget",
        "500",
    )
    assert ctx.exit_code == 0
    parsed = json.loads(ctx.output)
    assert parsed["tokens"] <= 500 and "Raj" in parsed["text"]


def test_db_from_the_environment(tmp_path):
    db = tmp_path / "env.db"
    assert run("add-turn", "chat:1", "--user", "hello", THREEFOLD_DB=str(db)).exit_code == 0
    assert db.exists()


def test_summaries_refresh_and_end_session(tmp_path):
    db = str(tmp_path / "cli.db")
    for i in range(3):
        run("--db", db, "add-turn", "chat:1", "--user", f"We decided to ship build {i}.")
    assert run("--db", db, "end-session", "chat:1").exit_code == 0
    listing = run("--db", db, "summaries", "chat:1")
    assert "session" in listing.output and "active" in listing.output
    refreshed = run("--db", db, "refresh", "chat:1")
    assert refreshed.exit_code == 0 and "generation 1" in refreshed.output


def test_bad_input_exits_2_with_a_message(tmp_path):
    result = run("--db", str(tmp_path / "x.db"), "add-turn", "not a stream", "--user", "hi")
    assert result.exit_code == 2 and "invalid stream name" in result.output


def test_check_reports_invalid_settings(tmp_path):
    ok = run("--db", str(tmp_path / "c.db"), "check")
    assert ok.exit_code == 0 and "ok" in ok.output
    bad = run("check", THREEFOLD_RECENT_TURNS="-1")
    assert bad.exit_code == 2 and "recent_turns" in bad.output


def test_keys_are_created_listed_and_revoked(tmp_path):
    db = str(tmp_path / "keys.db")
    created = run("--db", db, "keys", "create", "--tenant", "acme", "--trust", "inner")
    assert created.exit_code == 0 and "tf_" in created.output
    secret = created.output.split()[-1]
    listed = run("--db", db, "keys", "list")
    assert "acme" in listed.output and "inner" in listed.output and secret not in listed.output
    assert "revoked" in run("--db", db, "keys", "revoke", "1").output
    bad = run("--db", db, "keys", "create", "--tenant", "acme", "--trust", "root")
    assert bad.exit_code == 2


def test_forget_and_erase(tmp_path):
    db = str(tmp_path / "cli.db")
    run("--db", db, "add-turn", "chat:1", "--user", "Raj is the Lead Architect.")
    run("--db", db, "add-turn", "chat:1", "--user", "I adopted a greyhound.", "--speaker", "Gwen")
    forgot = run("--db", db, "forget", "1", "--reason", "asked")
    assert forgot.exit_code == 0 and "forgotten" in forgot.output
    assert run("--db", db, "forget", "999").exit_code == 2
    declined = runner.invoke(app, ["--db", db, "erase", "--person", "Gwen"], input="n\n")
    assert declined.exit_code == 1 and "everything by or about Gwen" in declined.output
    erased = run("--db", db, "erase", "--person", "Gwen", "--yes")
    assert erased.exit_code == 0 and "1 turns" in erased.output, erased.output
    stream = run("--db", db, "erase", "--stream", "chat:1", "--yes")
    assert stream.exit_code == 0 and "1 turns, 1 facts" in stream.output, stream.output
