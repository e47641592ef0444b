"""Re-routing stored messages when projects change: records move, summaries are redone,
nothing is duplicated, history stays, and an import in progress keeps a re-route out."""

import pytest
from typer.testing import CliRunner

from tests.sources.exports import msg, write_export
from threefold import Memory, load_settings
from threefold.domain import FactStatus, SummaryKind
from threefold.errors import Busy
from threefold.faces.cli import app
from threefold.sources.reroute import ROUTES_LEASE

T0 = 1772442000  # 2026-03-02 09:00 UTC
USERS = [{"id": "U1", "name": "ann"}, {"id": "U2", "name": "raj"}]
CHANNELS = [{"id": "C1", "name": "general"}, {"id": "C2", "name": "launch-room"}]
PROJECT = [{"stream": "project:launch", "channels": ["launch-room"], "names": ["Skylark"]}]


def ts(minutes: int) -> str:
    return f"{T0 + minutes * 60}.000100"


@pytest.fixture
def export(tmp_path):
    room = [
        msg(ts(0), "We decided to ship the beta on Friday.", "U1"),
        msg(ts(1), "I will write the release notes by Thursday.", "U2"),
    ]
    general = [
        msg(ts(5), "Skylark needs one more reviewer for the rollout plan", "U1", thread_ts=ts(5)),
        msg(ts(6), "count me in", "U2", thread_ts=ts(5)),
        msg(ts(7), "lunch at noon?", "U2"),
    ]
    days = {"launch-room": {"2026-03-02": room}, "general": {"2026-03-02": general}}
    return write_export(tmp_path / "export", days, users=USERS, channels=CHANNELS)


def _open(tmp_path, projects=()):
    return Memory.open(tmp_path / "m.db", settings=load_settings(projects=list(projects)))


def _texts(mem, stream):
    return sorted(r.text for r in mem.records(stream, source="slack"))


def test_messages_imported_before_projects_move_on_reroute(tmp_path, export):
    with _open(tmp_path) as mem:
        mem.import_slack(export)
        assert len(_texts(mem, "global")) == 5
        before = [f for f in mem.facts("global") if f.source.kind.startswith("slack.")]
    assert before  # the decision and the commitment were read in global
    with _open(tmp_path, PROJECT) as mem:
        report = mem.reroute()
        assert report.checked == 5 and report.moved == {"global -> project:launch": 4}
        assert _texts(mem, "global") == ["lunch at noon?"]
        assert len(_texts(mem, "project:launch")) == 4
        moved = {f.id: f for f in mem.facts("global", include_inactive=True)}
        assert all(moved[f.id].status is FactStatus.MOVED for f in before)
        assert [c.action for c in mem.fact_history(before[0].id).changes][-1] == "MOVE"
        launch = [f.text for f in mem.facts("project:launch")]
        assert any("ship the beta" in t for t in launch)
        assert len(launch) == len(set(launch))
        # The stream they left tells only what it kept.
        for kind in (SummaryKind.SLACK, SummaryKind.ACTIVE, SummaryKind.WEEKLY):
            assert all("beta" not in s.text for s in mem.summaries("global", kind=kind))
        assert any("beta" in s.text for s in mem.summaries("global", kind=SummaryKind.ARCHIVED))
        assert "beta" in mem.summaries("project:launch", kind=SummaryKind.ACTIVE)[0].text
        again = mem.reroute()
        assert again.moved == {}
        assert len([f.text for f in mem.facts("project:launch")]) == len(launch)


def test_importing_again_after_configuring_moves_the_messages(tmp_path, export):
    with _open(tmp_path) as mem:
        mem.import_slack(export)
    with _open(tmp_path, PROJECT) as mem:
        report = mem.import_slack(export)
        assert (report.kept, report.duplicates, report.moved) == (0, 5, 4)
        assert len(_texts(mem, "project:launch")) == 4


def test_a_reroute_while_an_import_runs_is_refused_and_changes_nothing(tmp_path, export):
    with _open(tmp_path) as mem:
        mem.import_slack(export)
    with _open(tmp_path, PROJECT) as mem:
        assert mem.store.claim_lease(ROUTES_LEASE + mem.tenant, "another-importer", 60)
        with pytest.raises(Busy, match="import or a re-route"):
            mem.reroute()
        with pytest.raises(Busy):
            mem.import_slack(export)
        assert len(_texts(mem, "global")) == 5
        mem.store.release_lease(ROUTES_LEASE + mem.tenant, "another-importer")
        assert mem.reroute().moved


def test_reroute_on_the_command_line(tmp_path, export):
    with _open(tmp_path) as mem:
        mem.import_slack(export)
    config = tmp_path / "threefold.toml"
    config.write_text(
        '[[projects]]\nstream = "project:launch"\nchannels = ["launch-room"]\nnames = ["Skylark"]\n'
    )
    result = CliRunner().invoke(
        app, ["--config", str(config), "--db", str(tmp_path / "m.db"), "reroute"]
    )
    assert result.exit_code == 0, result.output
    assert "global -> project:launch" in result.output and "4" in result.output


def test_digest_progress_counts_the_messages(tmp_path, export):
    seen = []
    with _open(tmp_path, PROJECT) as mem:
        mem.import_slack(export, digest_progress=lambda done, total: seen.append((done, total)))
        assert mem.undigested() == 0
    assert seen[0] == (0, 5) and seen[-1] == (5, 5)
    assert all(total == 5 and 0 <= done <= 5 for done, total in seen)


def test_jira_issues_follow_their_project_key_when_it_is_configured(tmp_path):
    jira = tmp_path / "el.csv"
    jira.write_text(
        "Issue key,Summary,Status,Assignee\nEL-1,Login page,In Progress,Priya\n"
        "EL-2,Font license,To Do,\n"
    )
    with _open(tmp_path) as mem:
        mem.import_jira(jira)
        old = {f.id for f in mem.facts("project:el")}
    electron = [{"stream": "project:electron", "key": "EL"}]
    with _open(tmp_path, electron) as mem:
        report = mem.reroute()
        assert report.moved == {"project:el -> project:electron": 2}
        assert [r.external_id.split("@")[0] for r in mem.records("project:electron")] == [
            "EL-1",
            "EL-2",
        ]
        assert mem.records("project:el") == []
        status = {f.subject: f.value for f in mem.facts("project:electron") if f.slot == "status"}
        assert status == {"el-1": "In Progress", "el-2": "To Do"}
        gone = {f.id: f.status for f in mem.facts("project:el", include_inactive=True)}
        assert {gone[i] for i in old} == {FactStatus.MOVED}
        [counts] = mem.context("project:electron", "", 2000).section("structured_data").items
        assert "2 issues" in counts.text
        assert "structured_data" not in {s.name for s in mem.context("project:el", "").sections}
        assert mem.reroute().moved == {}
