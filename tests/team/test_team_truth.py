"""What the team view says must be true (issue 39): a chat message that names a blocker's
condition does not clear it, a blocker closes once the tracker says its work is finished,
a profile built at the real clock on an older export does not say its people never spoke,
and timelines follow records when they are re-routed."""

import csv
import io
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.sources.exports import msg, write_export
from threefold import Memory, load_settings

PROJECTS = [{"stream": "project:el", "key": "EL", "channels": ["elearning"]}]
EXPORTED = datetime(2026, 1, 5, 9, tzinfo=UTC)
NOW = EXPORTED + timedelta(days=12)
COLUMNS = ["Issue key", "Summary", "Status", "Assignee", "Updated", "Outward issue link (Blocks)"]


def _export(folder: Path, blocking_status: str, name: str, at: datetime = EXPORTED) -> Path:
    """EL-63 blocks EL-5; EL-63 is in `blocking_status`, as of `at`."""
    updated = at.strftime("%Y-%m-%d %H:%M")
    rows = [
        COLUMNS,
        ["EL-5", "Course player", "In Progress", "Dana", updated, ""],
        ["EL-63", "Video codec crash", blocking_status, "Raj", updated, "EL-5"],
    ]
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    path = folder / name
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return path


def _memory(folder: Path) -> Memory:
    settings = load_settings(
        projects=PROJECTS, embed={"kind": "none"}, sources={"batch_idle_minutes": 0}
    )
    return Memory.open(folder / "team.db", settings=settings, background_worker=False)


def _blocker_titles(mem: Memory) -> list[str]:
    """The open blocker actions."""
    return [a.title for a in mem.actions(rule="stale_blocker")]


def test_a_message_naming_a_blockers_condition_does_not_clear_it(tmp_path: Path) -> None:
    with _memory(tmp_path) as mem:
        mem.import_jira(_export(tmp_path, "In Progress", "first.csv"), now=EXPORTED)
        said = EXPORTED + timedelta(days=1)
        mem.ingest_message(
            channel="elearning",
            user="Dana",
            ts=f"{said.timestamp():.6f}",
            text="EL-5 is blocked until EL-63 is fixed.",
        )
        mem.process_pending()
        mem.rebuild_team(now=NOW)
        open_blockers = _blocker_titles(mem)
    assert any("EL-63 blocks EL-5" in title for title in open_blockers), open_blockers


def test_a_blocker_closes_once_the_blocking_issue_is_finished(tmp_path: Path) -> None:
    with _memory(tmp_path) as mem:
        mem.import_jira(_export(tmp_path, "In Progress", "first.csv"), now=EXPORTED)
        mem.rebuild_team(now=NOW)
        (opened,) = mem.actions(rule="stale_blocker")
        mem.import_jira(_export(tmp_path, "Done", "again.csv", at=NOW), now=NOW)
        mem.rebuild_team(now=NOW + timedelta(hours=1))
        still_open = _blocker_titles(mem)
        done = [a.id for a in mem.actions(rule="stale_blocker", status="done")]
        profile = mem.profile("EL")
    assert still_open == []
    assert done == [opened.id]
    assert not [b.text for b in profile.blockers if "EL-63 blocks EL-5" in b.text]


def test_a_profile_built_at_the_real_clock_on_an_older_export_says_what_is_true(
    tmp_path: Path,
) -> None:
    # The export is a year older than the clock: far past the window a rebuild reads.
    start = int(datetime(2025, 3, 3, 9, tzinfo=UTC).timestamp())
    days = {
        "elearning": {
            "2025-03-03": [
                msg(f"{start + 60 * n}.000100", f"Course update number {n}.", "U1")
                for n in range(10)
            ]
        }
    }
    export = write_export(
        tmp_path / "export",
        days,
        users=[{"id": "U1", "name": "dana"}],
        channels=[{"id": "C1", "name": "elearning"}],
    )
    with _memory(tmp_path) as mem:
        mem.import_slack(export)
        mem.rebuild_team()
        dana = mem.profile("dana")
    assert "no messages" not in dana.note, dana.note
    assert dana.recent_activity, dana


def test_timelines_follow_records_when_they_are_re_routed(
    tmp_path: Path, backend_db: Callable[[], str | Path]
) -> None:
    start = int(datetime(2026, 3, 2, 9, tzinfo=UTC).timestamp())
    days = {
        "launch-room": {
            "2026-03-02": [
                msg(f"{start}.000100", "We decided to ship the beta on Friday.", "U1"),
                msg(f"{start + 60}.000100", "I will write the release notes.", "U1"),
            ]
        }
    }
    export = write_export(
        tmp_path / "export",
        days,
        users=[{"id": "U1", "name": "ann"}],
        channels=[{"id": "C1", "name": "launch-room"}],
    )
    db = backend_db()
    with Memory.open(db, settings=load_settings(embed={"kind": "none"})) as mem:
        mem.import_slack(export)
        assert len(mem.timeline("global")) == 2
    project = [{"stream": "project:launch", "channels": ["launch-room"]}]
    with Memory.open(db, settings=load_settings(embed={"kind": "none"}, projects=project)) as mem:
        mem.reroute()
        moved = [e.text for e in mem.timeline("project:launch")]
        left = [e.text for e in mem.timeline("global")]
    assert len(moved) == 2 and left == [], (moved, left)


def test_an_imported_jira_project_is_a_project_under_its_key_and_its_name(
    tmp_path: Path,
) -> None:
    rows = [
        ["Issue key", "Project name", "Summary", "Status"],
        ["EL-5", "Elearning", "Player", "Open"],
    ]
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    (tmp_path / "el.csv").write_text(buffer.getvalue(), encoding="utf-8")
    settings = load_settings(embed={"kind": "none"})  # EL is not configured
    with Memory.open(tmp_path / "m.db", settings=settings, background_worker=False) as mem:
        mem.import_jira(tmp_path / "el.csv", now=EXPORTED)
        mem.rebuild_team(now=NOW)
        by_key, by_name = mem.profile("EL"), mem.profile("Elearning")
    assert (by_key.kind, by_key.entity) == ("project", "project:el")
    assert (by_name.kind, by_name.entity) == ("project", "project:el")
    assert "no messages" not in by_key.note


def _said(mem: Memory, user: str, text: str, at: datetime) -> None:
    mem.ingest_message(channel="elearning", user=user, ts=f"{at.timestamp():.6f}", text=text)


def test_work_reported_in_the_past_tense_is_not_overdue(tmp_path: Path) -> None:
    monday = datetime(2026, 3, 2, 9, tzinfo=UTC)
    with _memory(tmp_path) as mem:
        _said(mem, "Raj", "I will rotate the database credentials by Friday.", monday)
        _said(mem, "Dana", "I will fix the login bug by Wednesday.", monday + timedelta(hours=1))
        _said(mem, "Raj", "Database credentials rotated.", monday + timedelta(days=3))
        mem.process_pending()
        mem.rebuild_team(now=monday + timedelta(days=10))
        overdue = [a.title for a in mem.actions(rule="overdue_commitment")]
    assert [t for t in overdue if "database credentials" in t] == [], overdue
    assert [t for t in overdue if "login bug" in t], overdue  # never said to be done


def test_one_block_said_in_the_tracker_and_in_chat_is_one_action(tmp_path: Path) -> None:
    with _memory(tmp_path) as mem:
        mem.import_jira(_export(tmp_path, "In Progress", "first.csv"), now=EXPORTED)
        _said(mem, "Dana", "EL-5 is blocked by EL-63.", EXPORTED + timedelta(hours=1))
        mem.process_pending()
        mem.rebuild_team(now=NOW)
        (action,) = mem.actions(rule="stale_blocker")
        texts = {mem.fact(i).text for i in action.fact_ids}
    assert texts == {"EL-63 blocks EL-5.", "EL-5 is blocked by EL-63."}


def test_a_blocker_cycle_stays_open_with_both_links(tmp_path: Path) -> None:
    # Bad input: EL-63 blocks EL-5 and EL-5 blocks EL-63.
    updated = EXPORTED.strftime("%Y-%m-%d %H:%M")
    rows = [
        COLUMNS,
        ["EL-5", "Course player", "In Progress", "Dana", updated, "EL-63"],
        ["EL-63", "Video codec crash", "In Progress", "Raj", updated, "EL-5"],
    ]
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    (tmp_path / "cycle.csv").write_text(buffer.getvalue(), encoding="utf-8")
    with _memory(tmp_path) as mem:
        mem.import_jira(tmp_path / "cycle.csv", now=EXPORTED)
        mem.rebuild_team(now=NOW)
        actions = mem.actions(rule="stale_blocker")
        texts = {mem.fact(i).text for a in actions for i in a.fact_ids}
    assert len(actions) == 1
    assert texts == {"EL-63 blocks EL-5.", "EL-5 blocks EL-63."}
