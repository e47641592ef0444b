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


def test_the_users_words_may_follow_the_stream(tmp_path):
    """As `context STREAM QUESTION` takes its question: `add-turn STREAM TEXT`."""
    db = str(tmp_path / "cli.db")
    added = run("--db", db, "add-turn", "chat:1", "I live in Porto.", "--assistant", "Nice!")
    assert added.exit_code == 0, added.output
    assert "Porto" in run("--db", db, "facts", "chat:1").output


def test_the_users_words_given_twice_are_refused_and_nothing_is_stored(tmp_path):
    db = tmp_path / "cli.db"
    twice = run("--db", str(db), "add-turn", "chat:1", "I live in Porto.", "--user", "Lisbon")
    assert twice.exit_code == 2 and "given twice" in twice.output
    assert not db.exists()


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


def test_process_counts_the_chat_model_requests_and_fallbacks(tmp_path):
    from tests.openai_fake import FakeOpenAIServer
    from threefold import Memory

    db = str(tmp_path / "cli.db")
    with Memory.open(db, embedder=None, background_worker=False) as mem:
        mem.add_turn("chat:1", "I live in Oslo.")  # its extraction waits in the queue
    with FakeOpenAIServer(default="not json at all") as server:
        env = {
            "THREEFOLD_MODEL__KIND": "llm",
            "THREEFOLD_MODEL__BASE_URL": server.base_url,
            "THREEFOLD_MODEL__NAME": "small",
            "THREEFOLD_MODEL__API_KEY_ENV": "",
            "THREEFOLD_MODEL__ATTEMPTS": "2",
            "THREEFOLD_MODEL__BACKOFF_SECONDS": "0",
            "THREEFOLD_EMBED__KIND": "none",
        }
        done = run("--db", db, "process", "--format", "json", **env)
    assert done.exit_code == 0, done.output
    counts = json.loads(done.output)["model"]
    assert counts["fallbacks"] >= 1 and counts["requests"] >= 2 * counts["fallbacks"]


def test_stats_counts_the_backlog_and_watches_it_drain(tmp_path):
    from threefold import Memory, load_settings

    db = tmp_path / "stats.db"
    settings = load_settings(db=db, embed={"kind": "hashing"})
    with Memory.open(settings=settings, background_worker=False) as mem:
        for n in range(3):
            mem.ingest_message(
                channel="general",
                user="ann",
                ts=f"{1772442000 + n}.000100",
                text=f"The crane inspection number {n} is booked for Thursday.",
            )
    hashing = {"THREEFOLD_EMBED__KIND": "hashing"}
    once = run("--db", str(db), "stats", "--format", "json", **hashing)
    assert once.exit_code == 0, once.output
    counted = json.loads(once.output)
    assert counted["undigested"] == 3 and counted["unembedded"] == 3
    assert counted["jobs"] == {"digest": 1} and counted["inbox"] == 0

    assert run("--db", str(db), "process", **hashing).exit_code == 0
    watched = run("--db", str(db), "stats", "--watch", "0.05", "--samples", "3", **hashing)
    assert watched.exit_code == 0, watched.output
    # Empty after the process: one sample is enough, and says so.
    assert watched.output.count("vectors owed 0") == 1
    assert "jobs pending: none" in watched.output


def test_stats_refuses_a_bad_watch_or_sample_count(tmp_path):
    db = str(tmp_path / "stats.db")
    for bad in (["--watch", "-1"], ["--watch", "1", "--samples", "0"]):
        result = run("--db", db, "stats", *bad)
        assert result.exit_code == 2
        assert "--watch must be 0 or more seconds" in result.output
