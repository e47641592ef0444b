"""The command line in scripts: --format json, unwrapped text in a pipe, and one line and
a non-zero exit for every caller mistake, never a traceback."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from threefold.faces.cli import app

runner = CliRunner()
EXECUTABLE = Path(sys.executable).parent / "threefold"
SERVERS = {"serve", "proxy", "mcp", "demo"}
"""Commands that serve or tell a story rather than print data."""
LONG = (
    "We decided that the billing service moves to the new payments provider in March, "
    "and that Priya owns the migration plan and the rollback checklist for it."
)


def run(*args: str):
    return runner.invoke(app, list(args))


def commands(group: Any, prefix: str = "") -> dict[str, Any]:
    found: dict[str, Any] = {}
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            found.update(commands(command, f"{prefix}{name} "))
        else:
            found[prefix + name] = command
    return found


def test_every_command_that_prints_data_takes_format() -> None:
    everything = commands(typer.main.get_command(app))  # type: ignore[arg-type]
    lacking = [
        name
        for name, command in everything.items()
        if name not in SERVERS and "--format" not in {o for p in command.params for o in p.opts}
    ]
    assert lacking == []
    assert {"facts", "search", "keys list", "import jira"} <= set(everything)


@pytest.fixture
def db(tmp_path: Path) -> str:
    db = str(tmp_path / "cli.db")
    added = run("--db", db, "add-turn", "project:alpha", "--user", LONG)
    assert added.exit_code == 0, added.output
    assert run("--db", db, "add-turn", "project:alpha", "--user", "Raj is the CTO.").exit_code == 0
    return db


def test_json_is_one_document_of_the_results_fields(db: str) -> None:
    facts = json.loads(run("--db", db, "facts", "project:alpha", "--format", "json").output)
    assert {f["text"] for f in facts} >= {"Raj is the CTO."}
    hits = json.loads(run("--db", db, "search", "Raj", "--format", "json").output)
    assert hits and all({"kind", "text", "score", "source"} <= set(h) for h in hits)
    added = run("--db", db, "add-turn", "chat:1", "--user", "hi", "--format", "json")
    assert json.loads(added.output)["stream"] == "chat:1"
    created = run("--db", db, "keys", "create", "--tenant", "acme", "--format", "json")
    key = json.loads(created.output)
    assert key["secret"].startswith("tf_") and key["tenant"] == "acme"
    listed = json.loads(run("--db", db, "keys", "list", "--format", "json").output)
    assert [(k["id"], k["trust"], "secret" in k) for k in listed] == [(key["id"], "full", False)]
    revoked = run("--db", db, "keys", "revoke", str(key["id"]), "--format", "json")
    assert json.loads(revoked.output) == {"id": key["id"], "revoked": True}
    history = json.loads(run("--db", db, "history", str(facts[0]["id"]), "--format", "json").output)
    assert history["fact"]["id"] == facts[0]["id"] and history["chain"]
    context = json.loads(
        run("--db", db, "context", "project:alpha", "CTO?", "--format", "json").output
    )
    assert "Raj is the CTO." in context["text"]
    check = json.loads(run("--db", db, "check", "--format", "json").output)
    assert check["jobs"]["failed"] == 0 and check["db"] == db


def test_piped_text_is_tab_separated_and_never_wrapped(db: str) -> None:
    listing = run("--db", db, "search", "billing payments provider", "--kind", "turn")
    lines = listing.output.splitlines()
    assert lines[0].split("\t") == ["score", "kind", "source", "when", "stream", "text"]
    assert any(LONG[:100] == line.split("\t")[-1] for line in lines[1:]), listing.output
    context = run("--db", db, "context", "project:alpha", "billing", "--budget", "2000")
    assert any(LONG in line for line in context.output.splitlines()), context.output
    assert "│" not in listing.output + context.output and "─" not in context.output


def test_facts_read_from_a_hit_are_listed_under_it(tmp_path: Path) -> None:
    db = str(tmp_path / "riders.db")
    said = "My sister Ana moved to Porto last spring, she teaches maths there."
    assert run("--db", db, "add-turn", "chat:1", "--user", said).exit_code == 0
    assert run("--db", db, "add-turn", "chat:1", "--user", "Grim weather today.").exit_code == 0
    first = json.loads(run("--db", db, "search", "Ana", "--format", "json").output)[0]
    assert first["kind"] == "turn" and first["derived"]
    assert {d["kind"] for d in first["derived"]} == {"fact"}
    lines = run("--db", db, "search", "Ana").output.splitlines()
    riders = [line.split("\t") for line in lines[2 : 2 + len(first["derived"])]]
    assert all(row[0] == "" and row[1] == "↳ fact" for row in riders), lines


def test_an_outdated_hit_has_a_line_under_it_naming_what_is_in_force(tmp_path: Path) -> None:
    db = str(tmp_path / "jobs.db")
    for said in ("I work at Stripe as a backend engineer.", "Bye for now.", "I work at Figma now."):
        assert run("--db", db, "add-turn", "chat:1", "--user", said).exit_code == 0
    hits = json.loads(run("--db", db, "search", "where do I work", "--format", "json").output)
    [old] = [h for h in hits if "Stripe" in h["text"]]
    [figma] = old["now"]
    assert figma["text"] == "The user works at Figma." and all(
        h["now"] == [] for h in hits if h is not old
    )
    lines = run("--db", db, "search", "where do I work").output.splitlines()
    [at] = [n for n, line in enumerate(lines) if "Stripe" in line]
    marker = ["", "! outdated", "", "", "", f"now: The user works at Figma. [fact:{figma['id']}]"]
    assert lines[at + 1].split("\t") == marker, lines


def test_a_doubted_fact_has_a_line_under_it_naming_the_doubting_turn(tmp_path: Path) -> None:
    db = str(tmp_path / "home.db")
    for said in ("I live in Leeds.", "so we're kinda in Perth now I guess"):
        assert run("--db", db, "add-turn", "chat:1", "--user", said).exit_code == 0
    search = ("--db", db, "search", "where does the user live", "--kind", "fact")
    [leeds] = [h for h in json.loads(run(*search, "--format", "json").output)]
    doubt = f"{leeds['doubted_by']['kind']}:{leeds['doubted_by']['id']}"
    lines = run(*search).output.splitlines()
    [at] = [n for n, line in enumerate(lines) if "Leeds" in line]
    marker = ["", "? outdated", doubt, "", "", f"possibly outdated: see {doubt}"]
    assert lines[at + 1].split("\t") == marker, lines


@pytest.mark.parametrize(
    ("args", "code", "says"),
    [
        (["summaries", "project:alpha", "--kind", "bogus"], 2, "unknown summary kind 'bogus'"),
        (["keys", "revoke", "999"], 2, "no live key 999"),
        (["search", "x", "--kind", "facts"], 2, "unknown kinds ['facts']"),
        (["history", "999"], 2, "no fact 999"),
        (["import", "jira", "/no/such.csv"], 2, "does not exist"),
        (["keys", "create", "--tenant", "acme", "--trust", "root"], 2, "unknown trust level"),
        (["timeline", "  "], 2, "name an entity"),
    ],
)
def test_a_mistake_is_one_line_and_a_non_zero_exit(
    db: str, args: list[str], code: int, says: str
) -> None:
    result = runner.invoke(app, ["--db", db, *args])
    assert result.exit_code == code, result.output
    assert result.stdout == "" and says in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


@pytest.mark.slow
def test_the_real_executable_prints_no_traceback(tmp_path: Path) -> None:
    not_sqlite = tmp_path / "notes.db"
    not_sqlite.write_text("these are my notes, not a database\n" * 100)
    for args, code in [
        (["--db", str(not_sqlite), "facts", "project:alpha"], 3),
        (["--db", str(tmp_path / "ok.db"), "summaries", "chat:1", "--kind", "bogus"], 2),
        (["--db", str(tmp_path / "ok.db"), "keys", "revoke", "999"], 2),
    ]:
        done = subprocess.run([str(EXECUTABLE), *args], capture_output=True, text=True, timeout=120)
        assert done.returncode == code, done.stderr
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not_sqlite.read_text().startswith("these are my notes")  # left as it was


def test_help_names_the_default_db_and_shows_no_bool_metavar() -> None:
    main = run("--help").output
    assert "THREEFOLD_DB" in main and "memory.db" in main
    for name in ("proxy", "mcp", "facts", "erase"):
        assert "<bool>" not in run(name, "--help").output, name
