"""Jira CSV exports: repeated columns, multi-line cells, dates, bad rows and per-project stats."""

import csv
import itertools
import types
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from threefold.errors import InvalidInput
from threefold.sources.jira import (
    JiraIssue,
    Problem,
    parse_jira_date,
    project_stats,
    read_jira_csv,
)

HEADER = [
    "Summary",
    "Issue key",
    "Issue id",
    "Issue Type",
    "Status",
    "Status Category",
    "Priority",
    "Resolution",
    "Assignee",
    "Reporter",
    "Created",
    "Updated",
    "Resolved",
    "Due Date",
    "Sprint",
    "Sprint",
    "Labels",
    "Labels",
    "Labels",
    "Watchers",
    "Watchers",
    "Component/s",
    "Fix Version/s",
    "Description",
    "Comment",
    "Comment",
    "Custom field (Story Points)",
    "Parent",
    "Project key",
    "Project name",
]

AS_OF = datetime(2024, 3, 14, 9, 0, tzinfo=UTC)


def record(header: list[str], **fields: str | list[str]) -> list[str]:
    """One CSV row; a list value fills the repeated columns of that name in order.

    Keyword names are header names with spaces as underscores and '/' dropped
    (Issue_key, Components, Custom_field_Story_Points).
    """
    wanted = {name.replace("_", " ").casefold(): value for name, value in fields.items()}
    seen: dict[str, int] = {}
    cells = []
    for name in header:
        norm = name.replace("/s", "s").replace("(", "").replace(")", "").casefold()
        nth = seen.get(norm, 0)
        seen[norm] = nth + 1
        value = wanted.get(norm, "")
        if isinstance(value, list):
            cells.append(value[nth] if nth < len(value) else "")
        else:
            cells.append(value if nth == 0 else "")
    return cells


def write(
    path: Path, rows: list[list[str]], header: list[str] = HEADER, *, bom: bool = False
) -> Path:
    with path.open("w", encoding="utf-8-sig" if bom else "utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def issue(key: str, **fields) -> JiraIssue:
    fields.setdefault("project_key", key.rpartition("-")[0])
    fields.setdefault("row", 2)
    return JiraIssue(key=key, **fields)


def read_all(path: Path) -> tuple[list[JiraIssue], list[Problem]]:
    read = read_jira_csv(path)
    issues = list(read.issues())
    return issues, list(read.problems)


# --- reading -------------------------------------------------------------------------------


def test_repeated_columns_multiline_cells_and_row_numbers(tmp_path: Path) -> None:
    description = 'First line, with a comma.\r\nSecond "quoted" line,\r\n\r\nlast.'
    rows = [
        record(
            HEADER,
            Summary="Login fails, sometimes",
            Issue_key="ALPHA-142",
            Issue_id="10042",
            Issue_Type="Bug",
            Status="In Progress",
            Status_Category="In Progress",
            Priority="High",
            Assignee="Priya",
            Reporter="Raj",
            Created="01/Mar/24 9:15 AM",
            Updated="12/Mar/24 3:45 PM",
            Due_Date="20/Mar/24",
            Sprint=["Sprint 7", "Sprint 8"],
            Labels=["auth", "", "backend"],
            Watchers=["Priya", "Raj"],
            Components="API",
            Fix_Versions="1.4",
            Description=description,
            Comment=["12/Mar/24 3:45 PM;557058:abc;Seen on staging, too", 'Says "no"'],
            Custom_field_Story_Points="5",
            Parent="10001",
            Project_key="ALPHA",
            Project_name="Alpha App",
        ),
        record(HEADER, Summary="Second", Issue_key="ALPHA-143", Status="To Do"),
    ]
    issues, problems = read_all(write(tmp_path / "jira.csv", rows))

    assert problems == []
    first, second = issues
    assert first.key == "ALPHA-142"
    assert first.project_key == "ALPHA"
    assert first.project_name == "Alpha App"
    assert first.summary == "Login fails, sometimes"
    assert first.description == 'First line, with a comma.\nSecond "quoted" line,\n\nlast.'
    assert (first.issue_type, first.status, first.priority) == ("Bug", "In Progress", "High")
    assert (first.assignee, first.reporter, first.resolution) == ("Priya", "Raj", None)
    assert first.created == datetime(2024, 3, 1, 9, 15, tzinfo=UTC)
    assert first.updated == datetime(2024, 3, 12, 15, 45, tzinfo=UTC)
    assert first.resolved is None
    assert first.due == date(2024, 3, 20)
    assert first.sprints == ("Sprint 7", "Sprint 8")
    assert first.current_sprint == "Sprint 8"
    assert first.labels == ("auth", "backend")
    assert first.watchers == ("Priya", "Raj")
    assert first.components == ("API",)
    assert first.fix_versions == ("1.4",)
    assert first.comments == (
        "12/Mar/24 3:45 PM;557058:abc;Seen on staging, too",
        'Says "no"',
    )
    assert first.story_points == 5.0
    assert first.parent == "10001"
    assert first.done is False
    assert first.row == 2
    # The first record spans lines 2-5, so the next one starts on line 6.
    assert second.row == 6
    assert second.current_sprint is None
    assert second.sprints == second.labels == second.comments == ()
    assert second.description == ""
    assert second.story_points is None


def test_bom_and_loose_header_names(tmp_path: Path) -> None:
    points = "Custom field (Story point estimate)"
    header = ["  issue   KEY ", "SUMMARY", "status", "Due date", points]
    path = write(
        tmp_path / "bom.csv",
        [["BETA-1", "Hello", "Done", "2024-03-12", "2.5"]],
        header,
        bom=True,
    )
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")

    read = read_jira_csv(path)
    assert read.columns[0] == "issue   KEY"
    [only] = list(read)
    assert only.key == "BETA-1"
    assert only.summary == "Hello"
    assert only.project_key == "BETA"  # no Project key column: taken from the key
    assert only.project_name is None
    assert only.due == date(2024, 3, 12)
    assert only.story_points == 2.5
    assert only.done is True  # no Status Category column: status says Done


def test_issues_is_a_lazy_generator_and_problems_reset_per_pass(tmp_path: Path) -> None:
    rows = [record(HEADER, Issue_key=f"ALPHA-{n}", Created="garbage") for n in range(1, 4)]
    read = read_jira_csv(write(tmp_path / "jira.csv", rows))
    problems = read.problems

    stream = read.issues()
    assert isinstance(stream, types.GeneratorType)
    assert problems == []  # nothing is read until the stream is pulled
    assert [i.key for i in itertools.islice(stream, 2)] == ["ALPHA-1", "ALPHA-2"]
    assert len(problems) == 2
    stream.close()

    assert len(list(read.issues())) == 3
    assert len(read.problems) == 3 and read.problems is problems


def test_bad_date_cell_keeps_issue_and_records_problem(tmp_path: Path) -> None:
    rows = [
        record(HEADER, Issue_key="ALPHA-1", Created="31/Feb/24 9:00 AM", Updated="12/Mar/24"),
        record(HEADER, Issue_key="ALPHA-2", Due_Date="someday"),
    ]
    issues, problems = read_all(write(tmp_path / "jira.csv", rows))

    assert [i.key for i in issues] == ["ALPHA-1", "ALPHA-2"]
    assert issues[0].created is None
    assert issues[0].updated == datetime(2024, 3, 12, tzinfo=UTC)
    assert issues[1].due is None
    assert [p.row for p in problems] == [2, 3]
    assert "ALPHA-1" in problems[0].error and "31/Feb/24" in problems[0].error
    assert "ALPHA-2" in problems[1].error and "someday" in problems[1].error


def test_a_date_without_a_year_is_read_by_the_rows_own_dates(tmp_path: Path) -> None:
    rows = [
        # due after its update, across the new year; created before it
        record(HEADER, Issue_key="ALPHA-1", Updated="20/Dec/25 9:00 AM", Due_Date="10 Jan"),
        record(HEADER, Issue_key="ALPHA-2", Updated="02/Jul/26 9:00 AM", Due_Date="Jun 17th"),
        record(HEADER, Issue_key="ALPHA-3", Created="1 Mar 10:30 AM", Updated="05/Mar/26"),
        # nothing in the row tells the year: the export's time does
        record(HEADER, Issue_key="ALPHA-4", Due_Date="17/Jun"),
    ]
    path = write(tmp_path / "jira.csv", rows)
    read = read_jira_csv(path, as_of=datetime(2026, 6, 1, tzinfo=UTC))
    issues = list(read.issues())

    assert [i.due for i in issues] == [
        date(2026, 1, 10),
        date(2026, 6, 17),
        None,
        date(2026, 6, 17),
    ]
    assert issues[2].created == datetime(2026, 3, 1, 10, 30, tzinfo=UTC)
    assert read.problems == []


def test_a_date_without_a_year_or_anything_to_read_it_by_is_a_problem(tmp_path: Path) -> None:
    rows = [
        record(HEADER, Issue_key="ALPHA-1", Due_Date="17 Jun"),
        record(HEADER, Issue_key="ALPHA-2", Due_Date="30 Feb", Updated="12/Mar/24"),
    ]
    issues, problems = read_all(write(tmp_path / "jira.csv", rows))

    assert [i.key for i in issues] == ["ALPHA-1", "ALPHA-2"]  # the issue is kept
    assert [i.due for i in issues] == [None, None]
    assert "ALPHA-1" in problems[0].error and "names no year" in problems[0].error
    assert "ALPHA-2" in problems[1].error and "30 Feb" in problems[1].error


def test_row_without_key_is_skipped_with_problem_and_blank_lines_ignored(tmp_path: Path) -> None:
    path = tmp_path / "jira.csv"
    write(
        path,
        [
            record(HEADER, Issue_key="ALPHA-1"),
            record(HEADER, Summary="orphan row", Issue_key="  "),
            record(HEADER),  # all cells empty
            record(HEADER, Issue_key="ALPHA-2"),
        ],
    )
    with path.open("a", encoding="utf-8", newline="") as handle:
        handle.write("\r\n")

    issues, problems = read_all(path)
    assert [i.key for i in issues] == ["ALPHA-1", "ALPHA-2"]
    assert issues[1].row == 5
    assert problems == [Problem(row=3, error="no issue key; row skipped")]


def test_short_and_long_rows_are_read(tmp_path: Path) -> None:
    path = tmp_path / "jira.csv"
    path.write_text(
        "Summary,Issue key,Status,Sprint,Sprint\r\n"
        "Cut short,ALPHA-1\r\n"
        "Too long,ALPHA-2,To Do,S1,S2,extra,cells\r\n",
        encoding="utf-8",
    )
    issues, problems = read_all(path)
    assert problems == []
    assert [(i.key, i.status, i.sprints) for i in issues] == [
        ("ALPHA-1", None, ()),
        ("ALPHA-2", "To Do", ("S1", "S2")),
    ]


def test_bad_story_points_are_a_problem_not_a_crash(tmp_path: Path) -> None:
    rows = [
        record(HEADER, Issue_key="ALPHA-1", Custom_field_Story_Points="lots"),
        record(HEADER, Issue_key="ALPHA-2", Custom_field_Story_Points="-3"),
        record(HEADER, Issue_key="ALPHA-3", Custom_field_Story_Points="1,5"),
    ]
    issues, problems = read_all(write(tmp_path / "jira.csv", rows))
    assert [i.story_points for i in issues] == [None, None, 1.5]
    assert [p.row for p in problems] == [2, 3]


def test_non_jira_csv_is_rejected_with_the_columns_found(tmp_path: Path) -> None:
    path = write(tmp_path / "people.csv", [["Ann", "ann@example.com"]], ["Name", "Email"])
    with pytest.raises(InvalidInput) as caught:
        read_jira_csv(path)
    message = str(caught.value)
    assert "does not look like a Jira CSV export: no 'Issue key' column" in message
    assert "'Name', 'Email'" in message


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("empty.csv", b"", "empty"),
        ("binary.csv", b"Issue key,Summ\xffary\r\nA-1,bad\r\n", "not UTF-8"),
    ],
)
def test_unreadable_files_raise_invalid_input(
    tmp_path: Path, name: str, content: bytes, expected: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(InvalidInput, match=expected):
        list(read_jira_csv(path).issues())


def test_a_row_that_is_not_utf8_is_a_problem_and_the_rows_after_it_are_read(
    tmp_path: Path,
) -> None:
    # Hostile input: a row of bytes that are not UTF-8 between two good rows.
    path = tmp_path / "jira.csv"
    path.write_bytes(b"Issue key,Summary\r\nA-1,one\r\nA-2,\xff\xfe\x00\x81 bad\r\nA-3,three\r\n")
    issues, problems = read_all(path)
    assert [i.key for i in issues] == ["A-1", "A-3"]
    assert [(p.row, "not UTF-8" in p.error) for p in problems] == [(3, True)]


def test_missing_file_and_directory_raise_invalid_input(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="does not exist"):
        read_jira_csv(tmp_path / "nope.csv")
    with pytest.raises(InvalidInput, match="not a file"):
        read_jira_csv(tmp_path)
    assert issubclass(InvalidInput, ValueError)


# --- dates ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12/Mar/24 3:45 PM", datetime(2024, 3, 12, 15, 45)),
        ("12/Mar/24 12:05 AM", datetime(2024, 3, 12, 0, 5)),
        ("12/Mar/24 12:30 PM", datetime(2024, 3, 12, 12, 30)),
        ("1/jan/25 11:59 pm", datetime(2025, 1, 1, 23, 59)),
        ("05/Sept/2024 9:00AM", datetime(2024, 9, 5, 9, 0)),
        ("12/Mar/24 15:45", datetime(2024, 3, 12, 15, 45)),
        ("12/Mar/24", datetime(2024, 3, 12)),
        ("2024-03-12 15:45", datetime(2024, 3, 12, 15, 45)),
        ("2024-03-12", datetime(2024, 3, 12)),
        ("  2024-03-12T15:45:00+01:00 ", datetime(2024, 3, 12, 14, 45)),
    ],
)
def test_parse_jira_date_formats(text: str, expected: datetime) -> None:
    parsed = parse_jira_date(text)
    assert parsed == expected.replace(tzinfo=UTC)
    assert parsed is not None and parsed.utcoffset() is not None


def test_parse_jira_date_empty_is_none() -> None:
    assert parse_jira_date("") is None
    assert parse_jira_date("   ") is None


@pytest.mark.parametrize(
    "text",
    [
        "yesterday",
        "32/Mar/24",
        "12/Foo/24",
        "12/Marx/24",
        "12/Mar/24 13:00 PM",
        "12/Mar/24 0:10 AM",
        "2024-13-01",
        "12/03/24",
    ],
)
def test_parse_jira_date_rejects_garbage(text: str) -> None:
    with pytest.raises(ValueError, match="cannot read date|unknown month"):
        parse_jira_date(text)


# --- done ----------------------------------------------------------------------------------


def test_done_prefers_status_category_then_falls_back_to_status_or_resolution() -> None:
    assert issue("A-1", status="Shipped", status_category="Done").done is True
    assert issue("A-1", status="Closed", status_category="In Progress").done is False
    assert issue("A-1", status="Closed").done is True
    assert issue("A-1", status="Review", resolution="Won\u2019t Do").done is True
    assert issue("A-1", status="In Review").done is False
    assert issue("A-1").done is False


# --- stats ---------------------------------------------------------------------------------


def test_project_stats_counts_points_overdue_unassigned_and_load() -> None:
    issues = [
        issue(
            "ALPHA-1",
            status="Done",
            status_category="Done",
            story_points=5,
            assignee="Priya",
            due=date(2024, 3, 1),
        ),
        issue("ALPHA-2", status="Done", status_category="Done", story_points=3),
        issue(
            "ALPHA-10",
            status="In Progress",
            status_category="In Progress",
            story_points=8,
            assignee="Priya",
            due=date(2024, 3, 10),
        ),
        issue(
            "ALPHA-9", status="To Do", status_category="To Do", assignee="Raj", due=date(2024, 3, 1)
        ),
        issue(
            "ALPHA-12",
            status="To Do",
            status_category="To Do",
            story_points=2,
            due=date(2024, 3, 14),
        ),
        issue("ALPHA-11", status="To Do", status_category="To Do", assignee="Priya"),
        issue("BETA-1", status="Open"),
    ]
    stats = project_stats(issues, AS_OF)

    assert list(stats) == ["ALPHA", "BETA"]
    alpha = stats["ALPHA"]
    assert alpha.total == 6
    assert list(alpha.by_status.items()) == [("To Do", 3), ("Done", 2), ("In Progress", 1)]
    assert (alpha.points_done, alpha.points_remaining) == (8.0, 10.0)
    # Due today is not overdue; done issues never are.
    assert alpha.overdue == ("ALPHA-9", "ALPHA-10")
    assert alpha.due_dates == {"ALPHA-9": date(2024, 3, 1), "ALPHA-10": date(2024, 3, 10)}
    assert alpha.unassigned == ("ALPHA-12",)
    assert list(alpha.load.items()) == [("Priya", 2), ("Raj", 1)]

    beta = stats["BETA"]
    assert (beta.points_done, beta.points_remaining) == (None, None)
    assert beta.unassigned == ("BETA-1",)
    assert beta.overdue == ()
    assert beta.load == {}


def test_render_reads_like_a_short_status_report() -> None:
    issues = [
        issue("ALPHA-1", status="Done", status_category="Done", story_points=5.5),
        issue(
            "ALPHA-2",
            status="To Do",
            status_category="To Do",
            story_points=2,
            assignee="Priya",
            due=date(2024, 3, 1),
        ),
        issue("ALPHA-3", status="To Do", status_category="To Do"),
    ]
    text = project_stats(issues, AS_OF)["ALPHA"].render()
    assert text.splitlines() == [
        "ALPHA, 3 issues as of 2024-03-14: To Do 2, Done 1.",
        "Story points: 5.5 done, 2 remaining.",
        "Overdue (1): ALPHA-2 (due 2024-03-01).",
        "Unassigned open (1): ALPHA-3.",
        "Load: Priya 1.",
    ]


def test_render_shortens_long_lists_and_handles_nothing_open() -> None:
    many = [issue(f"ALPHA-{n}", status="To Do", due=date(2024, 1, n)) for n in range(1, 14)]
    text = project_stats(many, AS_OF)["ALPHA"].render()
    assert "ALPHA, 13 issues as of 2024-03-14: To Do 13." in text
    assert "Overdue (13): ALPHA-1 (due 2024-01-01)" in text
    assert "ALPHA-10 (due 2024-01-10) and 3 more." in text
    assert "ALPHA-11" not in text
    assert "Unassigned open (13): ALPHA-1, " in text
    assert "Story points" not in text

    one = project_stats([issue("GAMMA-1", status="Closed")], AS_OF)["GAMMA"].render()
    assert one.splitlines() == [
        "GAMMA, 1 issue as of 2024-03-14: Closed 1.",
        "Overdue: none.",
        "Unassigned open: none.",
        "Load: nothing open.",
    ]


def test_duplicate_keys_keep_the_latest_updated_row(tmp_path: Path) -> None:
    older = write(
        tmp_path / "old.csv",
        [
            record(HEADER, Issue_key="ALPHA-1", Status="To Do", Updated="10/Mar/24 9:00 AM"),
            record(HEADER, Issue_key="ALPHA-2", Status="Done", Updated="13/Mar/24 9:00 AM"),
            record(HEADER, Issue_key="ALPHA-3", Status="To Do", Updated="01/Mar/24"),
        ],
    )
    newer = write(
        tmp_path / "new.csv",
        [
            record(HEADER, Issue_key="ALPHA-1", Status="Done", Updated="12/Mar/24 9:00 AM"),
            # Stale row in the second export: the first file's newer row must win.
            record(HEADER, Issue_key="ALPHA-2", Status="To Do", Updated="11/Mar/24 9:00 AM"),
            record(HEADER, Issue_key="ALPHA-3", Status="Blocked", Updated="01/Mar/24"),
        ],
    )
    both = itertools.chain(read_jira_csv(older).issues(), read_jira_csv(newer).issues())
    alpha = project_stats(both, AS_OF)["ALPHA"]
    assert alpha.total == 3
    # ALPHA-1 and ALPHA-2 end up Done; the tie on ALPHA-3 goes to the later row.
    assert alpha.by_status == {"Done": 2, "Blocked": 1}


def test_naive_as_of_is_taken_as_utc() -> None:
    stats = project_stats([issue("A-1", status="Open")], datetime(2024, 3, 14, 23, 0))
    assert stats["A"].as_of == datetime(2024, 3, 14, 23, 0, tzinfo=UTC)
