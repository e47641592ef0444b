"""Actions are raised when their cause arrives and closed when their end arrives (issue 39,
deliverable 1): a digested batch of messages and a tracker import run the rules, with no
rebuild. Through the public API on a real SQLite file, with the job queue drained as a
worker would."""

import csv
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.team.qa_room import qa_memory, say
from threefold import Memory

DAY = datetime(2026, 4, 7, 9, tzinfo=UTC)
JIRA_COLUMNS = ["Issue key", "Summary", "Status", "Assignee", "Reporter", "Updated", "Due Date"]
JIRA_COLUMNS += ["Outward issue link (Blocks)"]


def _say(mem: Memory, user: str, text: str, at: datetime) -> None:
    say(mem, user, text, at)
    mem.process_pending()  # the worker's turn: digest, then the rules


def _open(mem: Memory, kind: str) -> list[str]:
    return [a.title for a in mem.actions(status="open") if a.kind == kind]


def test_a_blocker_is_raised_when_its_age_arrives_and_closed_when_its_end_does(
    tmp_path: Path,
) -> None:
    with qa_memory(tmp_path) as mem:
        _say(
            mem, "Ola", "can't finish the audit chart until finance sends the outturn figures", DAY
        )
        assert _open(mem, "stale_blocker") == []  # said just now: not stale yet
        _say(mem, "Ines", "morning all, standup moved to 10", DAY + timedelta(days=5))
        raised = _open(mem, "stale_blocker")
        assert len(raised) == 1 and "outturn" in raised[0], raised
        _say(mem, "Tariq", "the outturn figures came through from finance", DAY + timedelta(days=6))
        assert _open(mem, "stale_blocker") == []
        done = [a for a in mem.actions(status="done") if a.kind == "stale_blocker"]
        assert len(done) == 1


def test_a_rule_of_no_days_raises_a_blocker_as_it_is_said(tmp_path: Path) -> None:
    rules = [{"kind": "stale_blocker", "days": 0}]
    with qa_memory(tmp_path, team={"rules": rules}) as mem:
        _say(mem, "Tariq", "the importer is stuck, need the schema from the data team", DAY)
        assert len(_open(mem, "stale_blocker")) == 1


def test_arrivals_can_be_turned_off(tmp_path: Path) -> None:
    with qa_memory(tmp_path, team={"actions_on_arrival": False}) as mem:
        _say(
            mem, "Ola", "can't finish the audit chart until finance sends the outturn figures", DAY
        )
        _say(mem, "Ines", "morning all", DAY + timedelta(days=5))
        assert mem.actions() == []
        mem.rebuild_team(now=DAY + timedelta(days=5))
        assert len(_open(mem, "stale_blocker")) == 1


def test_an_older_arrival_does_not_close_what_a_later_judgement_found(tmp_path: Path) -> None:
    with qa_memory(tmp_path) as mem:
        _say(mem, "Ines", "morning all", DAY)
        _say(
            mem,
            "Ola",
            "can't finish the audit chart until finance sends the outturn figures",
            DAY + timedelta(days=4),
        )
        mem.rebuild_team(now=DAY + timedelta(days=10))
        assert len(_open(mem, "stale_blocker")) == 1
        # A message of a day long past arrives (a backfill): judged at that day, the
        # blocker would be a few hours old; the open action was judged later and stands.
        _say(mem, "Ines", "lunch?", DAY + timedelta(days=4, hours=2))
        assert len(_open(mem, "stale_blocker")) == 1


def _export(folder: Path, name: str, rows: list[list[str]]) -> Path:
    path = folder / name
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([JIRA_COLUMNS, *rows])
    return path


def test_a_tracker_import_raises_overdue_and_blocked_work_and_its_next_export_closes_them(
    tmp_path: Path,
) -> None:
    first = [
        ["QG-5", "Exam timetable export", "To Do", "Ola", "Ines", "01/Apr/26 9:00 AM", "", ""],
        ["QG-6", "Timetable API", "In Progress", "Tariq", "Ines", "01/Apr/26 9:00 AM", "", "QG-5"],
        ["QG-7", "Room bookings", "In Progress", "Ola", "Ines", "01/Apr/26 9:00 AM", "03/Apr/26"],
    ]
    later = [
        ["QG-5", "Exam timetable export", "To Do", "Ola", "Ines", "01/Apr/26 9:00 AM", "", ""],
        ["QG-6", "Timetable API", "Done", "Tariq", "Ines", "08/Apr/26 9:00 AM", "", "QG-5"],
        ["QG-7", "Room bookings", "Done", "Ola", "Ines", "08/Apr/26 10:00 AM", "03/Apr/26"],
    ]
    with qa_memory(tmp_path) as mem:
        mem.import_jira(_export(tmp_path, "first.csv", first), now=DAY)
        assert len(_open(mem, "stale_blocker")) == 1
        overdue = _open(mem, "overdue_issue")
        assert len(overdue) == 1 and "QG-7" in overdue[0], overdue
        mem.import_jira(_export(tmp_path, "later.csv", later), now=DAY + timedelta(days=1))
        assert _open(mem, "stale_blocker") == []
        assert _open(mem, "overdue_issue") == []


def test_a_due_day_without_a_year_is_a_due_fact_and_raises_its_action(tmp_path: Path) -> None:
    rows = [
        ["QG-9", "Invigilator rota", "In Progress", "Ola", "Ines", "02/Apr/26 9:00 AM", "3 Apr"]
    ]
    with qa_memory(tmp_path) as mem:
        report = mem.import_jira(_export(tmp_path, "rota.csv", rows), now=DAY)
        due = [f.value for f in mem.facts("project:qg") if f.slot == "due"]
        overdue = _open(mem, "overdue_issue")
    assert report.problems == ()
    assert due == ["2026-04-03"]
    assert len(overdue) == 1 and "2026-04-03" in overdue[0], overdue
