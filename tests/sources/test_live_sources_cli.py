"""`threefold slack backfill` and `threefold drive sync` against local fake servers, and
the import report's count of items still waiting for a vector."""

import json
from pathlib import Path

from typer.testing import CliRunner

from tests.sources.drive_fake import FakeDrive
from tests.sources.exports import msg, write_export
from tests.sources.slack_fake import FakeSlack
from threefold.faces.cli import app

runner = CliRunner()
T0 = 1772442000


def run(*args: str, **env: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "200", **env})


def test_slack_backfill_from_the_command_line(tmp_path: Path):
    with FakeSlack(token="xoxb-cli", page_size=1) as slack:
        slack.users = [{"id": "U1", "name": "ann", "profile": {"display_name": "Ann"}}]
        slack.channels = [{"id": "C1", "name": "proj-alpha", "is_member": True}]
        slack.history["C1"] = [
            msg(f"{T0 + n}.000100", f"Step {n} done, ask <@U1>") for n in range(3)
        ]
        env = {
            "THREEFOLD_SLACK__BOT_TOKEN": "xoxb-cli",
            "THREEFOLD_SLACK__API_BASE": slack.url,
            "THREEFOLD_EMBED__KIND": "none",
        }
        db = str(tmp_path / "m.db")
        first = run("--db", db, "slack", "backfill", "--format", "json", **env)
        assert first.exit_code == 0, first.output
        report = json.loads(first.stdout)
        assert (report["read"], report["kept"]) == (3, 3)
        slack.script("token_expired")
        again = run("--db", db, "slack", "backfill", "--channel", "proj-alpha", **env)
        assert again.exit_code == 2
        assert "token_expired" in again.output
        unset = run("--db", db, "slack", "backfill", THREEFOLD_EMBED__KIND="none")
        assert unset.exit_code == 2 and "slack.bot_token" in unset.output


def test_drive_sync_from_the_command_line(tmp_path: Path):
    with FakeDrive(token="ya29.cli") as drive:
        drive.add("F1", "d1", "Plan", "application/vnd.google-apps.document", b"Ship in May.")
        drive.add("F1", "d2", "Photo.jpg", "image/jpeg", b"\xff\xd8", size=2)
        config = tmp_path / "threefold.toml"
        config.write_text(
            f'[drive]\ntoken = "ya29.cli"\napi_base = "{drive.url}"\n'
            '[[drive.folders]]\nfolder_id = "F1"\nstream = "project:alpha"\n'
            '[embed]\nkind = "none"\n'
        )
        result = run("--db", str(tmp_path / "m.db"), "--config", str(config), "drive", "sync")
        assert result.exit_code == 0, result.output
        assert "image/jpeg has no text" in result.output
        assert "routed to project:alpha" in result.output


def test_the_json_report_counts_what_is_still_unembedded_when_it_is_printed(tmp_path: Path):
    export = write_export(
        tmp_path / "export",
        {
            "general": {
                "2017-03-20": [
                    msg(f"1490000{n:03}.000100", f"note {n} on ALPHA") for n in range(30)
                ]
            }
        },
    )
    db = tmp_path / "m.db"
    result = run(
        "--db",
        str(db),
        "import",
        "slack",
        str(export),
        "--workers",
        "2",
        "--format",
        "json",
        THREEFOLD_EMBED__KIND="hashing",
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    from threefold import Memory, load_settings

    with Memory.open(
        settings=load_settings(db=db, embed={"kind": "hashing"}), background_worker=False
    ) as mem:
        waiting = sum(mem.store.count_unembedded_in("default", s) for s in report["routed"])
    assert report["unembedded"] == waiting
