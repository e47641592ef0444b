"""Jira links as relations, issue keys found whole by search, columns nobody reads named in
the report, and what a status question shows."""

import csv
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from threefold.faces.cli import app

EL = "project:el"
NOW = datetime(2026, 3, 20, 12, 0, tzinfo=UTC)
HEADER = [
    "Issue key",
    "Summary",
    "Status",
    "Assignee",
    "Updated",
    "Sprint",
    "Outward issue link (Blocks)",
    "Inward issue link (Blocks)",
    "Outward issue link (Relates)",
    "Custom field (Team)",
    "Environment",
    "Environment",
]


def row(
    key,
    status="To Do",
    blocks="",
    blocked_by="",
    relates="",
    updated="10/Mar/26 9:00 AM",
    sprint="Sprint 1",
    summary=None,
):
    return [
        key,
        summary or f"Work on {key}",
        status,
        "Priya",
        updated,
        sprint,
        blocks,
        blocked_by,
        relates,
        "Core",
        "",
        "",
    ]


def write_csv(path: Path, rows: list[list[str]], header: list[str] = HEADER) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return path


@pytest.fixture
def mem(open_memory):
    return open_memory(projects=[{"stream": EL, "key": "EL", "names": ["Electron"]}])


def test_links_become_relations_stored_once_whichever_row_names_them(mem, tmp_path):
    path = write_csv(
        tmp_path / "el.csv",
        [
            row("EL-3", blocks="EL-5"),
            row("EL-5", blocked_by="EL-3", relates="EL-7"),
            row("EL-7"),
        ],
    )
    mem.import_jira(path, now=NOW)
    links = sorted(f.text for f in mem.facts(EL) if f.slot.startswith("link:"))
    assert links == ["EL-3 blocks EL-5.", "EL-5 relates to EL-7."]


def test_search_and_context_answer_what_blocks_an_issue(mem, tmp_path):
    rows = [row(f"EL-{n}") for n in range(1, 40) if n not in (3, 5)]
    rows += [row("EL-3", blocks="EL-5"), row("EL-5", status="Blocked")]
    mem.import_jira(write_csv(tmp_path / "el.csv", rows), now=NOW)
    top = mem.search("What blocks EL-5?", stream=EL, kinds=["fact"], limit=3)
    assert top[0].text == "EL-3 blocks EL-5."
    ctx = mem.context(EL, "What blocks EL-5?", 3000)
    assert "EL-3 blocks EL-5." in ctx.text


def test_an_issue_key_is_found_whole_whatever_its_length(mem, tmp_path):
    rows = [row(f"EL-{n}", summary="Routine maintenance task") for n in range(1, 60)]
    mem.import_jira(write_csv(tmp_path / "el.csv", rows), now=NOW)
    for key in ("EL-5", "EL-50", "el-7"):
        hits = mem.search(key, stream=EL, kinds=["record"], limit=10)
        assert hits and hits[0].text.startswith(f"jira: {key.upper()} "), key


def test_links_to_issues_outside_the_file_are_kept_and_named(mem, tmp_path):
    path = write_csv(tmp_path / "el.csv", [row("EL-3", blocks="EL-99, OPS-4")])
    report = mem.import_jira(path, now=NOW)
    assert any("EL-99, OPS-4" in w and "not in this file" in w for w in report.warnings)
    assert {f.text for f in mem.facts(EL)} >= {"EL-3 blocks EL-99.", "EL-3 blocks OPS-4."}


def test_columns_no_field_reads_are_listed_once_in_the_report(mem, tmp_path):
    report = mem.import_jira(write_csv(tmp_path / "el.csv", [row("EL-1")]), now=NOW)
    assert report.unread_columns == ("Custom field (Team)", "Environment")


def _retrieved(ctx) -> str:
    return "\n".join(item.text for item in ctx.section("retrieved").items)


def test_a_newer_export_hides_the_older_version_of_an_issue(mem, tmp_path):
    mem.import_jira(write_csv(tmp_path / "a.csv", [row("EL-20", status="Open")]), now=NOW)
    later = [row("EL-20", status="In Progress", sprint="Sprint 2", updated="15/Mar/26 9:00 AM")]
    mem.import_jira(write_csv(tmp_path / "b.csv", later), now=NOW)
    shown = _retrieved(mem.context(EL, "Which sprint is EL-20 in?", 3000))
    assert "sprint Sprint 2" in shown and "Sprint 1" not in shown


def test_a_reexport_in_another_column_order_with_a_reporter_shows_one_version(mem, tmp_path):
    # A row with a reporter is read as "<reporter>: EL-20 [...]": its key is still found.
    header = [*HEADER, "Reporter"]
    first = [[*row("EL-20", status="Open"), "Bo Chen"]]
    later = [[*row("EL-20", status="Done", updated="15/Mar/26 9:00 AM"), "Bo Chen"]]
    order = list(reversed(range(len(header))))
    mem.import_jira(write_csv(tmp_path / "a.csv", first, header), now=NOW)
    shuffled = [[cells[i] for i in order] for cells in later]
    mem.import_jira(write_csv(tmp_path / "b.csv", shuffled, [header[i] for i in order]), now=NOW)
    shown = _retrieved(mem.context(EL, "what is the status of EL-20?", 3000))
    history = [e.text for e in mem.timeline("EL")]
    assert shown.count("EL-20 [") == 1 and "status Done" in shown, shown
    assert len(history) == 2  # the older version is kept, as history


def test_a_status_question_shows_open_issues_not_finished_ones(mem, tmp_path):
    rows = [row(f"EL-{n}", status="Done", summary=f"Test login case {n}") for n in range(1, 30)]
    rows += [row(f"EL-{n}", status="Open", summary=f"Payment bug {n}") for n in range(40, 46)]
    mem.import_jira(write_csv(tmp_path / "el.csv", rows), now=NOW)
    shown = _retrieved(mem.context(EL, "What is the status of Electron, what is open?", 1500))
    assert all(f"EL-{n} " in shown for n in range(40, 46))
    assert "status Done" not in shown
    finished = _retrieved(mem.context(EL, "Which login tests are done?", 3000))
    assert "status Done" in finished


def test_the_command_line_report_names_unread_columns_and_outside_links(tmp_path):
    path = write_csv(tmp_path / "el.csv", [row("EL-3", blocks="EL-99")])
    result = CliRunner().invoke(
        app,
        ["--db", str(tmp_path / "cli.db"), "import", "jira", str(path)],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    assert "not read: 2 columns: Custom field (Team), Environment" in result.output
    assert "EL-99" in result.output and "not in this file" in result.output
