"""Jira into memory: issues as records, fields as facts with supersession across exports,
and per-project structured data in the context."""

import csv
from datetime import UTC, datetime
from pathlib import Path

import pytest

from threefold.domain import FactStatus
from threefold.errors import InvalidInput

ALPHA = "project:alpha"
NOW = datetime(2026, 3, 20, 12, 0, tzinfo=UTC)
HEADER = [
    "Summary",
    "Issue key",
    "Issue Type",
    "Status",
    "Priority",
    "Assignee",
    "Reporter",
    "Created",
    "Updated",
    "Due Date",
    "Sprint",
    "Sprint",
    "Custom field (Story Points)",
    "Description",
]


def issue(key, status, assignee, updated, due="", points="3", summary=None, sprints=("", "")):
    return [
        summary or f"Work on {key}",
        key,
        "Story",
        status,
        "High",
        assignee,
        "Ann",
        "01/Mar/26 9:00 AM",
        updated,
        due,
        *sprints,
        points,
        'Line one of the description,\nwith "quotes" and a second line.',
    ]


def write_csv(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8-sig") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows(rows)
    return path


@pytest.fixture
def first_export(tmp_path: Path) -> Path:
    return write_csv(
        tmp_path / "jira.csv",
        [
            issue("ALPHA-1", "Done", "Priya", "10/Mar/26 4:00 PM", points="5"),
            issue(
                "ALPHA-2",
                "In Progress",
                "Raj",
                "12/Mar/26 10:30 AM",
                due="15/Mar/26",
                sprints=("Sprint 1", "Sprint 2"),
            ),
            issue("ALPHA-3", "To Do", "", "12/Mar/26 11:00 AM"),
            issue("BRAVO-9", "To Do", "Raj", "12/Mar/26 11:00 AM", points=""),
        ],
    )


@pytest.fixture
def mem(open_memory):
    return open_memory(projects=[{"stream": ALPHA, "key": "ALPHA"}])


def test_issues_become_records_and_field_facts(mem, first_export):
    report = mem.import_jira(first_export, now=NOW)
    assert (report.read, report.kept, report.duplicates) == (4, 4, 0)
    assert report.routed == {ALPHA: 3, "project:bravo": 1}
    records = mem.records(ALPHA, source="jira")
    assert [r.external_id.split("@")[0] for r in records] == ["ALPHA-1", "ALPHA-2", "ALPHA-3"]
    assert 'with "quotes" and a second line' in records[1].text
    facts = {(f.subject, f.slot): f for f in mem.facts(ALPHA)}
    assert facts[("alpha-2", "status")].value == "In Progress"
    assert facts[("alpha-2", "sprint")].value == "Sprint 2"
    assert facts[("alpha-2", "due")].value == "2026-03-15"
    assert facts[("alpha-3", "assignee")].value == "unassigned"
    assert all(f.confidence == 0.8 and f.source.kind == "jira.issue" for f in facts.values())


def test_the_context_shows_structured_data_not_every_field(mem, first_export):
    mem.import_jira(first_export, now=NOW)
    ctx = mem.context(ALPHA, "how is the sprint going?", 3000)
    [stats] = ctx.section("structured_data").items
    assert "3 issues" in stats.text and "In Progress 1" in stats.text
    assert "5 done" in stats.text and "6 remaining" in stats.text
    assert "ALPHA-2" in stats.text  # overdue: due 2026-03-15, still in progress on 03-20
    assert "ALPHA-3" in stats.text  # unassigned
    assert "stream_facts" not in {s.name for s in ctx.sections}  # Jira fields are not pinned


def test_a_later_export_supersedes_changed_fields(mem, first_export, tmp_path):
    mem.import_jira(first_export, now=NOW)
    later = write_csv(
        tmp_path / "later.csv",
        [
            issue("ALPHA-1", "Done", "Priya", "10/Mar/26 4:00 PM", points="5"),
            issue("ALPHA-2", "Done", "Priya", "18/Mar/26 9:15 AM", due="15/Mar/26"),
        ],
    )
    report = mem.import_jira(later, now=NOW)
    assert (report.kept, report.duplicates) == (1, 1)
    status = [
        f
        for f in mem.facts(ALPHA, include_inactive=True)
        if (f.subject, f.slot) == ("alpha-2", "status")
    ]
    assert {(f.value, f.status) for f in status} == {
        ("In Progress", FactStatus.SUPERSEDED),
        ("Done", FactStatus.ACTIVE),
    }
    [stats] = mem.context(ALPHA, "", 3000).section("structured_data").items
    assert "Done 2" in stats.text and "Overdue" in stats.text and "ALPHA-2" not in stats.text


def test_importing_the_same_export_twice_adds_nothing(mem, first_export):
    mem.import_jira(first_export, now=NOW)
    facts = len(mem.facts(ALPHA, include_inactive=True))
    again = mem.import_jira(first_export, now=NOW)
    assert (again.kept, again.duplicates, again.facts) == (0, 4, 0)
    assert len(mem.facts(ALPHA, include_inactive=True)) == facts


def test_an_older_export_imported_late_does_not_win(mem, first_export, tmp_path):
    newer = write_csv(
        tmp_path / "newer.csv",
        [
            issue("ALPHA-2", "Done", "Priya", "18/Mar/26 9:15 AM"),
        ],
    )
    mem.import_jira(newer, now=NOW)
    mem.import_jira(first_export, now=NOW)
    [status] = [f for f in mem.facts(ALPHA) if (f.subject, f.slot) == ("alpha-2", "status")]
    assert status.value == "Done"


def test_bad_rows_are_reported_and_the_rest_imports(mem, tmp_path):
    path = write_csv(
        tmp_path / "bad.csv",
        [
            issue("ALPHA-1", "Done", "Priya", "not a date"),
            issue("", "To Do", "Raj", "12/Mar/26 11:00 AM"),
            issue("ALPHA-3", "To Do", "Raj", "12/Mar/26 11:00 AM"),
        ],
    )
    report = mem.import_jira(path, now=NOW)
    assert report.kept == 2
    assert len(report.problems) == 2


def test_a_file_that_is_not_a_jira_export_is_refused(mem, tmp_path):
    other = tmp_path / "other.csv"
    other.write_text("name,age\nann,3\n")
    with pytest.raises(InvalidInput, match="Issue key"):
        mem.import_jira(other)
    with pytest.raises(InvalidInput):
        mem.import_jira(tmp_path / "missing.csv")


def test_issue_timelines_follow_the_assignee(mem, first_export):
    mem.import_jira(first_export, now=NOW)
    raj = mem.timeline("Raj")
    assert {e.text.split(":")[1].split()[0] for e in raj if e.kind == "record"} >= {"ALPHA-2"}
