"""What a team lead reads (issue 39): digests that say what changed and who asked, tracker
rules (overdue issues, unassigned work, risks), actions told in Slack through the Web API,
and profiles for everyone the memory knows, judged on real stores and a real local Slack."""

import csv
import io
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.sources.exports import msg, write_export
from tests.sources.slack_fake import FakeSlack
from tests.team.qa_room import qa_memory, say

DAY = datetime(2026, 4, 7, 9, tzinfo=UTC)  # a Tuesday
NOW = DAY + timedelta(days=6)
COLUMNS = [
    "Issue key",
    "Summary",
    "Status",
    "Priority",
    "Assignee",
    "Reporter",
    "Created",
    "Updated",
    "Due Date",
    "Project name",
    "Project lead",
]


def _csv(folder: Path, name: str, rows: list[list[str]]) -> Path:
    buffer = io.StringIO()
    csv.writer(buffer).writerows([COLUMNS, *rows])
    path = folder / name
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return path


def _row(key: str, status: str, at: datetime, *, assignee: str = "Ines Moreau", **kw: str):
    stamp = at.strftime("%Y-%m-%d %H:%M")
    return [
        key,
        kw.get("summary", f"Test case {key}"),
        status,
        kw.get("priority", "Medium"),
        assignee,
        kw.get("reporter", "Tariq Nasser"),
        kw.get("created", (DAY - timedelta(days=20)).strftime("%Y-%m-%d %H:%M")),
        stamp,
        kw.get("due", ""),
        "Quality Gate",
        "Ines Moreau",
    ]


# -- digests -----------------------------------------------------------------------------


def test_a_day_of_many_issues_done_is_counted_not_listed_as_assignments(
    tmp_path: Path,
) -> None:
    keys = [f"QG-{n}" for n in range(1, 41)]
    with qa_memory(tmp_path) as mem:
        before = DAY - timedelta(days=3)
        mem.import_jira(_csv(tmp_path, "a.csv", [_row(k, "In Progress", before) for k in keys]))
        mem.import_jira(_csv(tmp_path, "b.csv", [_row(k, "Done", DAY) for k in keys]))
        digest = mem.digest("project:qg", DAY.date().isoformat(), now=NOW)
    (day,) = digest.days
    assert [c.group for c in day.changes] == ["done"] * 40
    done = [line for line in digest.text.splitlines() if line.startswith("- Done (40):")]
    assert len(done) == 1 and "and 35 more" in done[0], digest.text
    assert "is assigned to" not in digest.text
    assert len(digest.text.splitlines()) < 6


def test_a_status_move_and_a_reassignment_are_told_with_their_rows(tmp_path: Path) -> None:
    with qa_memory(tmp_path) as mem:
        mem.import_jira(_csv(tmp_path, "a.csv", [_row("QG-7", "To Do", DAY - timedelta(days=2))]))
        mem.import_jira(
            _csv(
                tmp_path,
                "b.csv",
                [_row("QG-7", "In Review", DAY, summary="Test case QG-7", assignee="Ola Berg")],
            )
        )
        day = mem.digest("project:qg", DAY.date().isoformat(), now=NOW).days[0]
    (change,) = day.changes
    assert (change.group, change.key) == ("moved", "QG-7")
    assert "To Do -> In Review" in change.text
    assert change.source.kind == "jira.issue"


def test_a_chat_day_is_told_in_the_third_person_with_who_asked_and_no_file_names(
    tmp_path: Path,
) -> None:
    start = int(DAY.timestamp())
    said = [
        ("U1", "I'm blocked on QG-60 until the fixtures land.", {}),
        ("U2", "We agreed to freeze the regression suite on Thursday.", {}),
        ("U3", "Has anyone rerun the flaky login tests since Monday?", {}),
        ("U2", "perf_report_final.pdf", {"subtype": "file_share"}),
        ("U1", "My plan is to pair with Ola on the fixtures.", {}),
    ]
    days = {
        "qa-room": {
            DAY.date().isoformat(): [
                msg(f"{start + 60 * n}.000100", text, user, **extra)
                for n, (user, text, extra) in enumerate(said)
            ]
        }
    }
    users = [{"id": f"U{n}", "name": name} for n, name in enumerate(["", "Ines", "Ola", "Tariq"])]
    export = write_export(
        tmp_path / "export", days, users=users[1:], channels=[{"id": "C1", "name": "qa-room"}]
    )
    with qa_memory(tmp_path) as mem:
        mem.import_slack(export)
        mem.process_pending()
        digest = mem.digest("project:qg", DAY.date().isoformat(), now=NOW)
    (day,) = digest.days
    assert day.files == 1 and "perf_report_final" not in digest.text, digest.text
    assert [q.text for q in day.questions] == [
        "Tariq asked: Has anyone rerun the flaky login tests since Monday?"
    ]
    told = digest.text
    assert "I'm" not in told and "My plan" not in told, told
    assert "Ines is blocked on QG-60" in told or "Ines's plan" in told, told


def test_a_line_told_above_is_not_told_again_as_discussed(tmp_path: Path) -> None:
    with qa_memory(tmp_path) as mem:
        say(mem, "Ines", "I will deliver the fixture rewrite by Friday.", DAY)
        say(mem, "Tariq", "Who can review the smoke job changes?", DAY + timedelta(minutes=3))
        say(
            mem,
            "Ola",
            "The staging database was restored from Monday's backup.",
            DAY + timedelta(minutes=6),
        )
        mem.process_pending()
        told = mem.digest("project:qg", DAY.date().isoformat(), now=NOW).text
    assert told.count("fixture rewrite") == 1, told
    assert told.count("smoke job changes") == 1, told
    assert "Discussed: Ola: The staging database was restored" in told, told


def test_a_question_answered_in_its_thread_is_not_open(tmp_path: Path) -> None:
    with qa_memory(tmp_path) as mem:
        asked = say(mem, "Tariq", "Who owns the nightly smoke job?", DAY)
        say(mem, "Ola", "That's Ines, since March.", DAY + timedelta(minutes=5), thread_ts=asked)
        mem.process_pending()
        day = mem.digest("project:qg", DAY.date().isoformat(), now=NOW).days[0]
    assert day.questions == ()


def test_an_empty_day_gives_an_empty_digest_that_says_so(tmp_path: Path) -> None:
    with qa_memory(tmp_path) as mem:
        digest = mem.digest("project:qg", "2026-04-01", now=NOW)
    assert digest.empty and digest.days == ()
    assert "nothing to digest" in digest.text


# -- tracker rules -----------------------------------------------------------------------


def test_tracker_due_dates_and_unassigned_work_raise_one_action_each(tmp_path: Path) -> None:
    rows = [
        _row("QG-1", "In Progress", DAY, due=(NOW - timedelta(days=2)).strftime("%Y-%m-%d")),
        _row("QG-2", "Done", DAY, due=(NOW - timedelta(days=2)).strftime("%Y-%m-%d")),
        _row("QG-3", "To Do", DAY, assignee="", due=(NOW + timedelta(days=5)).strftime("%Y-%m-%d")),
        _row("QG-4", "To Do", DAY, assignee="", priority="Low"),  # backlog: no action
        _row("QG-5", "To Do", DAY, assignee="", priority="Highest"),
    ]
    with qa_memory(tmp_path) as mem:
        mem.import_jira(_csv(tmp_path, "a.csv", rows))
        mem.rebuild_team(now=NOW)
        overdue = mem.actions(rule="overdue_issue")
        unassigned = mem.actions(rule="unassigned_work")
    assert [a.title.split(": ")[1].split()[0] for a in overdue] == ["QG-1"]
    assert overdue[0].owner == "Ines Moreau"
    assert sorted(a.title.split()[2] for a in unassigned) == ["QG-3", "QG-5"]


def test_an_issue_done_in_a_later_export_closes_its_overdue_action(tmp_path: Path) -> None:
    due = (NOW - timedelta(days=2)).strftime("%Y-%m-%d")
    with qa_memory(tmp_path) as mem:
        mem.import_jira(_csv(tmp_path, "a.csv", [_row("QG-1", "In Progress", DAY, due=due)]))
        mem.rebuild_team(now=NOW)
        (opened,) = mem.actions(rule="overdue_issue")
        later = NOW + timedelta(hours=2)
        mem.import_jira(_csv(tmp_path, "b.csv", [_row("QG-1", "Done", later, due=due)]))
        closed = mem.actions(rule="overdue_issue", status="done")  # by the import itself
        report = mem.rebuild_team(now=later)
        still_open = mem.actions(rule="overdue_issue", status="open")
    assert [a.id for a in closed] == [opened.id]
    assert report.closed == 0 and still_open == []


def test_an_issue_missing_from_a_later_export_keeps_what_was_known(tmp_path: Path) -> None:
    # Bad input: an issue deleted from (or filtered out of) a later export.
    due = (NOW - timedelta(days=2)).strftime("%Y-%m-%d")
    with qa_memory(tmp_path) as mem:
        first = [_row("QG-1", "In Progress", DAY, due=due), _row("QG-2", "To Do", DAY)]
        mem.import_jira(_csv(tmp_path, "a.csv", first))
        report = mem.import_jira(_csv(tmp_path, "b.csv", [_row("QG-2", "Done", NOW)]))
        mem.rebuild_team(now=NOW)
        titles = [a.title for a in mem.actions(rule="overdue_issue")]
        day = mem.digest("project:qg", NOW.date().isoformat(), now=NOW).days[0]
    assert report.problems == ()
    assert [t for t in titles if "QG-1" in t]  # not silently dropped: the export may be filtered
    assert [c.key for c in day.changes] == ["QG-2"]


def test_a_risk_raised_in_chat_is_an_action_while_recent(tmp_path: Path) -> None:
    with qa_memory(tmp_path) as mem:
        say(mem, "Ola", "The Q3 launch is at risk because the test lab moves that week.", DAY)
        mem.process_pending()
        mem.rebuild_team(now=DAY + timedelta(days=1))
        risks = [a.title for a in mem.actions(rule="risk_signal")]
        mem.rebuild_team(now=DAY + timedelta(days=30))
        later = [a.title for a in mem.actions(rule="risk_signal")]
    assert len(risks) == 1 and "Q3 launch" in risks[0], risks
    assert later == []


def test_a_mention_that_tells_someone_something_awaits_no_answer(tmp_path: Path) -> None:
    with qa_memory(tmp_path) as mem:
        say(mem, "Ines", "the staging keys are in the vault now @ola, go wild", DAY)
        say(mem, "Ines", "@tariq please send the lab booking", DAY + timedelta(minutes=1))
        mem.process_pending()
        mem.rebuild_team(now=NOW)
        titles = [a.title for a in mem.actions(rule="unanswered")]
    assert len(titles) == 1 and "lab booking" in titles[0], titles


# -- Slack delivery ------------------------------------------------------------------------


def _slack_rule(slack: FakeSlack, channel: str, token: str) -> dict[str, object]:
    return {
        "team": {"rules": [{"kind": "overdue_issue", "slack_channel": channel}]},
        "slack": {"api_base": slack.url, "bot_token": token},
    }


def test_a_new_action_is_posted_to_slack_once(tmp_path: Path) -> None:
    due = (NOW - timedelta(days=2)).strftime("%Y-%m-%d")
    with FakeSlack(token="xoxb-lead") as slack:
        slack.channels = [{"id": "C9", "name": "leads"}]
        with qa_memory(tmp_path, **_slack_rule(slack, "C9", "xoxb-lead")) as mem:
            mem.import_jira(_csv(tmp_path, "a.csv", [_row("QG-1", "In Progress", DAY, due=due)]))
            first = mem.rebuild_team(now=NOW)
            again = mem.rebuild_team(now=NOW + timedelta(hours=1))
    assert (first.webhooks, again.webhooks) == (1, 0)
    (posted,) = slack.posted
    assert posted["channel"] == "C9" and "QG-1" in posted["text"]
    assert "owner: Ines Moreau" in posted["text"]


@pytest.mark.parametrize(("channel", "token"), [("C9", "xoxb-wrong"), ("nowhere", "xoxb-lead")])
def test_a_refused_slack_post_leaves_the_action_standing(
    tmp_path: Path, channel: str, token: str
) -> None:
    due = (NOW - timedelta(days=2)).strftime("%Y-%m-%d")
    with FakeSlack(token="xoxb-lead") as slack:
        slack.channels = [{"id": "C9", "name": "leads"}]
        with qa_memory(tmp_path, **_slack_rule(slack, channel, token)) as mem:
            mem.import_jira(_csv(tmp_path, "a.csv", [_row("QG-1", "In Progress", DAY, due=due)]))
            report = mem.rebuild_team(now=NOW)
            standing = mem.actions(rule="overdue_issue")
    assert (report.new, report.webhooks) == (1, 0)
    assert slack.posted == [] and len(standing) == 1


# -- profiles ------------------------------------------------------------------------------


def test_tracker_people_get_profiles_and_a_first_name_finds_its_person(tmp_path: Path) -> None:
    with qa_memory(tmp_path) as mem:
        say(mem, "Ola Berg", "Pairing with Ines on the fixtures today.", DAY)
        mem.process_pending()
        mem.import_jira(_csv(tmp_path, "a.csv", [_row("QG-9", "In Progress", DAY)]))
        mem.rebuild_team(now=NOW)
        ola, tariq, ines = mem.profile("Ola"), mem.profile("Tariq Nasser"), mem.profile("Ines")
        project = mem.profile("QG")
    assert ola.entity == "person:ola berg" and "no messages" not in ola.note
    assert tariq.recent_activity and "QG-9" in tariq.recent_activity[0].text  # reported it
    assert any("QG-9" in i.text for i in ines.current_work)
    assert any("leads the project Quality Gate (QG)" in i.text for i in ines.role)
    assert project.name == "Quality Gate (QG)"


def test_two_people_with_one_first_name_are_not_guessed_between(tmp_path: Path) -> None:
    # Bad input: two people of the same (first) name.
    with qa_memory(tmp_path) as mem:
        say(mem, "Sam Ortiz", "Reviewing the fixture PR now.", DAY)
        say(mem, "Sam Lee", "Booked the test lab for Thursday.", DAY + timedelta(minutes=1))
        mem.process_pending()
        mem.rebuild_team(now=NOW)
        sam = mem.profile("Sam")
        ortiz = mem.profile("Sam Ortiz")
    assert sam.note == "Sam may mean Sam Lee or Sam Ortiz.", sam.note
    assert sam.recent_activity == ()
    assert ortiz.entity == "person:sam ortiz"
    assert all("Sam Lee" not in i.text for i in ortiz.recent_activity)


def test_request_cues_match_their_examples() -> None:
    from threefold.team import cues

    assert all(cues.requests(e) for e in cues.REQUEST_EXAMPLES)
    assert not any(cues.requests(e) for e in cues.NOT_REQUEST_EXAMPLES)
