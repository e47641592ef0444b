"""Team intelligence on the command line, over MCP, and in the maintenance loop."""

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from mcp import Client
from typer.testing import CliRunner

from threefold import Memory, load_settings
from threefold.domain import Trust
from threefold.faces.cli import app
from threefold.faces.mcp import build_server
from threefold.pipeline.maintenance import maintain

DAY = (datetime.now(UTC) - timedelta(days=10)).replace(hour=9, minute=0, second=0, microsecond=0)
ENV = {"COLUMNS": "200", "THREEFOLD_EMBED__KIND": "none"}


def _seeded(path: Path) -> Memory:
    settings = load_settings(
        projects=[{"stream": "project:alpha", "key": "ALPHA", "channels": ["proj-alpha"]}],
        embed={"kind": "none"},
        sources={"batch_idle_minutes": 0},
    )
    mem = Memory.open(path, settings=settings, background_worker=False)
    said = [
        ("Priya", "I will finish the billing migration by Friday."),
        ("Marco", "ALPHA-142 is blocked on the auth token from legal."),
    ]
    for hour, (user, text) in enumerate(said):
        at = DAY + timedelta(hours=hour)
        mem.ingest_message(channel="proj-alpha", user=user, ts=f"{at.timestamp():.6f}", text=text)
    mem.process_pending()
    return mem


def test_cli_rebuilds_lists_sets_status_and_digests(tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    _seeded(db).close()
    runner = CliRunner()

    def run(*args: str):
        return runner.invoke(app, ["--db", str(db), "team", *args], env=ENV)

    rebuilt = run("rebuild")
    assert rebuilt.exit_code == 0 and "profiles" in rebuilt.output
    listed = json.loads(run("actions", "--json").output)
    assert {a["kind"] for a in listed} >= {"stale_blocker", "overdue_commitment"}
    first = listed[0]["id"]
    assert "dismissed" in run("set-status", str(first), "dismissed").output
    assert first not in {a["id"] for a in json.loads(run("actions", "--json").output)}
    assert run("set-status", str(first), "later").exit_code == 2
    profile = run("profile", "Priya")
    assert profile.exit_code == 0 and "billing migration" in profile.output
    digest = run("digest", "project:alpha", f"{DAY:%Y-%m-%d}")
    assert digest.exit_code == 0 and "ALPHA-142" in digest.output
    assert "No activity" in run("digest", "project:alpha", "2020-01-06..2020-01-12").output
    assert run("digest", "project:alpha", "someday").exit_code == 2


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_mcp_tools_read_as_the_sessions_trust(tmp_path: Path) -> None:
    mem = _seeded(tmp_path / "mcp.db")
    mem.rebuild_team()
    try:
        async with Client(build_server(mem, "default", Trust.FULL)) as client:
            actions = (await client.call_tool("memory_actions", {})).structured_content
            profile = await client.call_tool("memory_profile", {"entity": "Priya"})
            digest = await client.call_tool(
                "memory_digest", {"stream": "project:alpha", "period": f"{DAY:%Y-%m-%d}"}
            )
            bad = await client.call_tool(
                "memory_digest", {"stream": "project:alpha", "period": "whenever"}
            )
        assert actions and actions["actions"]
        assert profile.structured_content["commitments"]
        assert digest.structured_content["empty"] is False
        assert bad.is_error and "unknown period" in bad.content[0].text
        async with Client(build_server(mem, "default", Trust.PUBLIC)) as client:
            hidden = (await client.call_tool("memory_actions", {})).structured_content
            nobody = await client.call_tool("memory_profile", {"entity": "Priya"})
        assert hidden == {"actions": []}
        assert nobody.structured_content["commitments"] == []
    finally:
        mem.close()


def test_maintenance_rebuilds_once_per_rebuild_hours(tmp_path: Path) -> None:
    mem = _seeded(tmp_path / "nightly.db")
    try:
        first = {r.stage: r.count for r in maintain(mem)}
        assert first["team"] >= 3  # Priya, Marco, #proj-alpha and project:alpha
        assert mem.actions()
        again = {r.stage: r.count for r in maintain(mem)}
        assert again["team"] == 0  # not due again for settings.team.rebuild_hours
    finally:
        mem.close()
